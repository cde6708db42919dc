/// The traits of the environment a view draws in (`UITraitCollection`): light or
/// dark, contrast, text size, scale and layout direction (rule P1).
///
/// A value with unspecified fields says nothing about them; ``overlaid(by:)``
/// fills a collection's fields from another's specified ones, which is how an
/// override applies over inherited traits. It lives in LayerKit because a
/// dynamic ``Color`` resolves against it.
public struct TraitCollection: Hashable, Sendable, CustomStringConvertible {
    public var userInterfaceStyle: UserInterfaceStyle
    public var accessibilityContrast: AccessibilityContrast
    public var preferredContentSizeCategory: ContentSizeCategory
    /// Device pixels per point; 0 when unspecified.
    public var displayScale: Double
    public var layoutDirection: LayoutDirection

    public init(userInterfaceStyle: UserInterfaceStyle = .unspecified, accessibilityContrast: AccessibilityContrast = .unspecified,
                preferredContentSizeCategory: ContentSizeCategory = .unspecified, displayScale: Double = 0,
                layoutDirection: LayoutDirection = .unspecified) {
        self.userInterfaceStyle = userInterfaceStyle
        self.accessibilityContrast = accessibilityContrast
        self.preferredContentSizeCategory = preferredContentSizeCategory
        self.displayScale = displayScale.isFinite && displayScale > 0 ? displayScale : 0
        self.layoutDirection = layoutDirection
    }

    /// What an environment that says nothing gets, as on iOS: light, normal
    /// contrast, the large (default) text size, scale 1, left to right.
    public static let standard = TraitCollection(userInterfaceStyle: .light, accessibilityContrast: .normal,
                                                 preferredContentSizeCategory: .large, displayScale: 1, layoutDirection: .leftToRight)

    /// These traits with every field `other` specifies taken from it.
    public func overlaid(by other: TraitCollection) -> TraitCollection {
        var t = self
        if other.userInterfaceStyle != .unspecified { t.userInterfaceStyle = other.userInterfaceStyle }
        if other.accessibilityContrast != .unspecified { t.accessibilityContrast = other.accessibilityContrast }
        if other.preferredContentSizeCategory != .unspecified { t.preferredContentSizeCategory = other.preferredContentSizeCategory }
        if other.displayScale > 0 { t.displayScale = other.displayScale }
        if other.layoutDirection != .unspecified { t.layoutDirection = other.layoutDirection }
        return t
    }

    /// Whether resolving a dynamic colour against `other` may give another colour
    /// (`hasDifferentColorAppearance(comparedTo:)`): style or contrast differ.
    public func hasDifferentColorAppearance(comparedTo other: TraitCollection?) -> Bool {
        guard let other else { return true }
        return userInterfaceStyle != other.userInterfaceStyle || accessibilityContrast != other.accessibilityContrast
    }

    public var description: String {
        "TraitCollection(\(userInterfaceStyle), contrast \(accessibilityContrast), \(preferredContentSizeCategory), scale \(displayScale), \(layoutDirection))"
    }
}

/// Light or dark (`UIUserInterfaceStyle`).
public enum UserInterfaceStyle: Hashable, Sendable { case unspecified, light, dark }

/// The system's contrast setting (`UIAccessibilityContrast`).
public enum AccessibilityContrast: Hashable, Sendable { case unspecified, normal, high }

/// Left to right or right to left (`UITraitEnvironmentLayoutDirection`).
public enum LayoutDirection: Hashable, Sendable {
    case unspecified, leftToRight, rightToLeft

    /// The direction of a locale's language (`LANG`, `LC_ALL`, `LC_MESSAGES`
    /// values such as `ar_EG.UTF-8`, `he_IL`, `fa`): right to left for the
    /// languages written so (Arabic, Hebrew, Persian, Urdu, Yiddish, Pashto,
    /// Sindhi, Uyghur, Kurdish Sorani, Dhivehi), else left to right.
    public init(locale: String) {
        let language = locale.prefix { $0.isLetter }.lowercased()
        self = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "ug", "ckb", "dv"].contains(language) ? .rightToLeft : .leftToRight
    }
}

/// How a view's content flips in a right-to-left layout (`UISemanticContentAttribute`).
public enum SemanticContentAttribute: Hashable, Sendable { case unspecified, playback, spatial, forceLeftToRight, forceRightToLeft }

/// The text size a person chose (`UIContentSizeCategory`), smallest to largest;
/// `.large` is the default. The accessibility sizes are the five largest.
public enum ContentSizeCategory: Int, Hashable, Sendable, Comparable, CaseIterable {
    case unspecified = -1
    case extraSmall, small, medium, large, extraLarge, extraExtraLarge, extraExtraExtraLarge
    case accessibilityMedium, accessibilityLarge, accessibilityExtraLarge, accessibilityExtraExtraLarge, accessibilityExtraExtraExtraLarge

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// One of the five accessibility sizes (`isAccessibilityCategory`).
    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }

    /// The body text size in points at this category, as UIKit's body style has
    /// it (17 at `.large`); `.unspecified` counts as `.large`.
    public var bodyPointSize: Double {
        [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53][max(0, rawValue == -1 ? 3 : rawValue)]
    }

    /// The category whose body size is nearest 17 × `factor` — how a desktop's
    /// text scaling factor (GNOME's `text-scaling-factor`) maps onto UIKit's
    /// categories. Not finite or not positive: `.large`.
    public init(textScalingFactor factor: Double) {
        guard factor.isFinite, factor > 0 else { self = .large; return }
        let target = 17 * factor
        self = Self.allCases.dropFirst().min { abs($0.bodyPointSize - target) < abs($1.bodyPointSize - target) } ?? .large
    }
}
