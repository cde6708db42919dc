import LayerKit

extension Font {
    /// UIKit's text styles (`UIFont.TextStyle`), for fonts that follow the
    /// person's text size (``preferredFont(forTextStyle:compatibleWith:)``).
    public enum TextStyle: Hashable, Sendable, CaseIterable {
        case largeTitle, title1, title2, title3, headline, subheadline, body, callout, footnote, caption1, caption2

        /// The size and weight at the default text size (`.large`), as UIKit's.
        var standard: (size: Double, weight: Weight) {
            switch self {
            case .largeTitle: (34, .regular)
            case .title1: (28, .regular)
            case .title2: (22, .regular)
            case .title3: (20, .regular)
            case .headline: (17, .semibold)
            case .subheadline: (15, .regular)
            case .body: (17, .regular)
            case .callout: (16, .regular)
            case .footnote: (13, .regular)
            case .caption1: (12, .regular)
            case .caption2: (11, .regular)
            }
        }
    }

    /// The system font for a text style at the text size of `traits` (default:
    /// the system's for the current context), as `UIFont.preferredFont(forTextStyle:compatibleWith:)`.
    /// Every style scales with the body size of the content size category
    /// (17 points at `.large`, 23 at `.extraExtraExtraLarge`, 53 at the largest
    /// accessibility size), rounded to half points; UIKit's own tables differ
    /// by a point or so per style.
    @MainActor
    public static func preferredFont(forTextStyle style: TextStyle, compatibleWith traits: TraitCollection? = nil) -> Font {
        let category = (traits ?? LayerContext.current.systemTraits).preferredContentSizeCategory
        let (size, weight) = style.standard
        let scaled = (size * category.bodyPointSize / 17 * 2).rounded() / 2
        return Font(family: "sans-serif", size: scaled, weight: weight, italic: false, textStyle: style)
    }

    /// The same text style at the text size of `traits`; a font without a text style is itself.
    @MainActor
    func adjusted(to traits: TraitCollection) -> Font {
        guard let textStyle else { return self }
        let adjusted = Font.preferredFont(forTextStyle: textStyle, compatibleWith: traits)
        return adjusted.pointSize == pointSize ? self : adjusted
    }
}
