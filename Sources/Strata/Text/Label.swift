/// A view that shows text (`UILabel`, rule X2).
///
/// One line by default (``numberOfLines`` 0: as many as the text needs), cut
/// with "…" at the tail (``lineBreakMode``), aligned by each paragraph's
/// direction (``textAlignment`` `.natural`), centred vertically in the bounds as
/// UIKit's labels are. The text is shaped, ordered and broken by Pango and drawn
/// at the window's scale (rules X1, X3). Its layout is kept and made again only
/// when the text, a text attribute or the width changes; the drawing is the
/// layer's contents, redrawn only when something it shows changes.
@MainActor
public final class Label: View {
    // Static text read by its text (rule Y2).
    override var defaultIsAccessibilityElement: Bool { true }
    override var defaultAccessibilityLabel: String? { text }
    override var defaultAccessibilityTraits: AccessibilityTraits { isEnabled ? .staticText : [.staticText, .notEnabled] }

    /// The text (`text`); setting it replaces ``attributedText``.
    public var text: String? {
        get { content?.string }
        set { content = newValue.map { AttributedText($0) } }
    }

    /// The text with runs of their own font, colour or weight (`attributedText`).
    public var attributedText: AttributedText? {
        get { content }
        set { content = newValue }
    }

    /// The font of text without a font of its own (17-point system font).
    public var font: Font = .systemFont(ofSize: Font.labelFontSize) { didSet { if font != oldValue { textChanged() } } }
    /// Whether a font from ``Font/preferredFont(forTextStyle:compatibleWith:)``
    /// follows the text size of the label's traits (`adjustsFontForContentSizeCategory`):
    /// the label takes the style's font at the new size, and its intrinsic size grows with it.
    public var adjustsFontForContentSizeCategory = false {
        didSet { if adjustsFontForContentSizeCategory { font = font.adjusted(to: traitCollection) } }
    }
    /// The colour of text without a colour of its own (``Color/label``: black, or white in dark mode).
    public var textColor: Color = .label { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    public var textAlignment: TextAlignment = .natural { didSet { if textAlignment != oldValue { textChanged() } } }
    /// The most lines shown; 0: as many as needed (rule X2). Negative counts are 0.
    public var numberOfLines = 1 {
        didSet {
            if numberOfLines < 0 { numberOfLines = 0 }
            if numberOfLines != oldValue { textChanged() }
        }
    }
    public var lineBreakMode: LineBreakMode = .byTruncatingTail { didSet { if lineBreakMode != oldValue { textChanged() } } }
    /// The width ``intrinsicContentSize`` wraps multi-line text to (0: none), as UIKit's.
    public var preferredMaxLayoutWidth = 0.0 { didSet { if preferredMaxLayoutWidth != oldValue { invalidateIntrinsicContentSize() } } }
    /// Disabled labels draw their text greyed (`isEnabled`).
    public var isEnabled = true { didSet { if isEnabled != oldValue { setNeedsDisplay() } } }

    private var content: AttributedText? {
        didSet {
            guard content != oldValue else { return }
            textChanged()
            accessibilityDidChange(.name)
        }
    }
    /// The layouts last made (for measuring and for the bounds), with their width and height.
    private var cached: [(width: Double?, height: Double?, layout: TextLayout)] = []
    /// Layouts made so far (tests check that unchanged text is not laid out again).
    private(set) var layoutCount = 0

    public override init(frame: Rect) {
        super.init(frame: frame)
        hasDrawnContent = true
        isUserInteractionEnabled = false
    }

    public convenience init(text: String?) {
        self.init(frame: .zero)
        self.text = text
        sizeToFit()
    }

    // MARK: Size (rule X2)

    /// The laid-out text's size, one line unless ``numberOfLines`` allows more
    /// (then wrapped at ``preferredMaxLayoutWidth`` when set), rounded up to whole points.
    public override var intrinsicContentSize: Size {
        Label.roundedUp(naturalLayout?.size ?? .zero)
    }

    /// The size the text takes wrapped to `size.width` (none when 0 or less)
    /// within ``numberOfLines``, rounded up to whole points.
    public override func sizeThatFits(_ size: Size) -> Size {
        let width = size.width.isFinite && size.width > 0 ? size.width : nil
        return Label.roundedUp(layout(width: width, height: nil)?.size ?? .zero)
    }

    private static func roundedUp(_ size: Size) -> Size {
        Size(width: (size.width - 1e-6).rounded(.up), height: (size.height - 1e-6).rounded(.up))
    }

    // MARK: Drawing

    /// The text's layout in the bounds: wrapped to the width, cut to the height.
    var layoutInBounds: TextLayout? {
        let b = bounds
        return layout(width: max(0, b.width), height: max(0, b.height))
    }

    /// The first line's baseline below the top, at the label's intrinsic size (``firstBaselineAnchor``).
    override var firstBaselineOffsetFromTop: Double? { naturalLayout?.lines.first?.baseline }
    /// The last line's baseline above the bottom, at the label's intrinsic size (``lastBaselineAnchor``).
    override var lastBaselineOffsetFromBottom: Double? {
        naturalLayout.flatMap { l in l.lines.last.map { Label.roundedUp(l.size).height - $0.baseline } }
    }
    private var naturalLayout: TextLayout? {
        layout(width: numberOfLines != 1 && preferredMaxLayoutWidth > 0 ? preferredMaxLayoutWidth : nil, height: nil)
    }

    /// Draws the text centred vertically in the bounds (`drawText(in:)`).
    public override func draw(in context: any DrawingContext) {
        guard let layout = layoutInBounds else { return }
        do { try Font.checkAvailability() } catch {
            return Label.reportNoFonts(error)
        }
        let color = isEnabled ? textColor : textColor.withAlpha(textColor.alpha * 0.45)
        layout.draw(at: textOrigin(of: layout, scale: context.scale), color: color, traits: traitCollection, in: context)
    }

    /// Where a layout is drawn: centred, on a whole device pixel (the same place at every scale).
    private func textOrigin(of layout: TextLayout, scale: Double) -> Point {
        Point(x: bounds.minX, y: bounds.minY + ((bounds.height - layout.size.height) / 2 * scale).rounded(.down) / scale)
    }

    /// The laid-out text and where it is drawn (view coordinates): for character extents.
    var accessibilityTextLayout: (layout: TextLayout, origin: Point)? {
        layoutInBounds.map { ($0, textOrigin(of: $0, scale: contentScaleFactor)) }
    }

    override func boundsSizeDidChange() { setNeedsDisplay() }

    override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        textChanged()
    }

    override func contentSizeCategoryDidChange(to traits: TraitCollection) {
        if adjustsFontForContentSizeCategory { font = font.adjusted(to: traits) }
    }

    // fontconfig's font set is the process's: a missing one is reported once.
    private static var reportedNoFonts = false
    private static func reportNoFonts(_ error: TextError) {
        guard !reportedNoFonts else { return }
        reportedNoFonts = true
        reportTextProblem(error.description)
    }

    // MARK: Layout cache

    private func textChanged() {
        cached = []
        setNeedsDisplay()
        invalidateIntrinsicContentSize()
    }

    private var style: TextStyle {
        TextStyle(font: font, color: textColor, alignment: textAlignment, lineBreakMode: lineBreakMode, numberOfLines: numberOfLines,
                  baseDirection: effectiveUserInterfaceLayoutDirection)
    }

    /// The layout for a width and height, reused while they and the text stay.
    private func layout(width: Double?, height: Double?) -> TextLayout? {
        guard let content, !content.string.isEmpty else { return nil }
        if let i = cached.firstIndex(where: { $0.width == width && $0.height == height }) {
            let entry = cached.remove(at: i)
            cached.append(entry)
            return entry.layout
        }
        let layout = TextLayout(content, style: style, width: width, height: height)
        layoutCount += 1
        cached.append((width, height, layout))
        if cached.count > 2 { cached.removeFirst() }
        return layout
    }
}
