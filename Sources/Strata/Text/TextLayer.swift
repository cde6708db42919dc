import LayerKit

/// How a text layer places its lines (`CATextLayerAlignmentMode`).
public enum TextLayerAlignmentMode: String, Hashable, Sendable {
    case natural, left, right, center, justified
}

/// Where a text layer leaves text out when it does not fit (`CATextLayerTruncationMode`).
public enum TextLayerTruncationMode: String, Hashable, Sendable {
    /// Cut at the bounds, no ellipsis.
    case none
    /// "…" where the start was left out.
    case start
    /// "…" where the end was left out.
    case end
    /// "…" in the middle.
    case middle
}

/// A layer that draws a string (`CATextLayer`), through the text system the views
/// use (Pango, HarfBuzz, FreeType): shaped, bidirectional, with font fallback
/// (rule X1). Text starts at the top of the bounds.
///
/// Core Animation's defaults: 36-point text, white, the system font, one unwrapped
/// line per paragraph, no truncation, and `contentsScale` 1 — set it to the
/// screen's scale for sharp text, as on iOS. `font` names the face; `fontSize`
/// sets the size (a font's own size is ignored, as Core Animation ignores a
/// `CTFont`'s). An ``AttributedText`` string keeps its runs' fonts and colours.
/// `fontSize` and `foregroundColor` animate: while they do, the text is drawn
/// again each frame (``needsDisplay(forKey:)``).
///
/// Bad input: a `string` that is neither a `String` nor an `AttributedText` is
/// refused with a diagnostic; a negative or NaN `fontSize` is refused; sizes past
/// the text system's largest are clamped (as for labels).
@MainActor
public final class TextLayer: Layer {
    /// The text: a `String`, an ``AttributedText`` or nil.
    public var string: Any? {
        get { text.isAttributed ? text.content : text.content?.string }
        set {
            let content: AttributedText?
            switch newValue {
            case nil: content = nil
            case let s as String: content = AttributedText(s)
            case let a as AttributedText: content = a
            default:
                return Diagnostics.report(.invalidValue(key: "string", reason: "a \(type(of: newValue!)), not a String or AttributedText"))
            }
            let attributed = newValue is AttributedText
            changeStored("string", \TextLayer.text, \.stringValue, StringValue(content: content, isAttributed: attributed))
            if !isPresentationCopy { setNeedsDisplay() }
        }
    }
    /// The face (default: the system font); its size is not used — `fontSize` is.
    public var font: Font? {
        get { text.font }
        set { setText("font", \.font, newValue) }
    }
    /// Points (default 36). Animatable.
    public var fontSize: Double {
        get { text.fontSize }
        set {
            guard newValue >= 0 else {
                return Diagnostics.report(.invalidValue(key: "fontSize", reason: "\(newValue); kept \(text.fontSize)"))
            }
            setText("fontSize", \.fontSize, newValue)
        }
    }
    /// The colour of text without one of its own (default white). Animatable.
    public var foregroundColor: Color? {
        get { text.foregroundColor }
        set { setText("foregroundColor", \.foregroundColor, newValue.map { FixedColor($0).color }) }
    }
    public var alignmentMode: TextLayerAlignmentMode {
        get { text.alignmentMode }
        set { setText("alignmentMode", \.alignmentMode, newValue) }
    }
    /// Whether lines wrap at the bounds' width (default false: a line per paragraph).
    public var isWrapped: Bool {
        get { text.isWrapped }
        set { setText("wrapped", \.isWrapped, newValue) }
    }
    /// Where text that does not fit is cut (with wrapping: on the last line that fits).
    public var truncationMode: TextLayerTruncationMode {
        get { text.truncationMode }
        set { setText("truncationMode", \.truncationMode, newValue) }
    }

    /// The text and whether it was given as attributed text (what `string` gives back).
    struct StringValue: Equatable {
        var content: AttributedText?
        var isAttributed = false
    }

    struct TextState {
        var stringValue = StringValue()
        var content: AttributedText? { stringValue.content }
        var isAttributed: Bool { stringValue.isAttributed }
        var font: Font?
        var fontSize = 36.0
        var foregroundColor: Color? = .white
        var alignmentMode = TextLayerAlignmentMode.natural
        var isWrapped = false
        var truncationMode = TextLayerTruncationMode.none
    }

    var text = TextState()

    public required init() { super.init() }

    public required init(layer: Layer) {
        if let t = layer as? TextLayer { text = t.text }
        super.init(layer: layer)
    }

    /// `fontSize` and `foregroundColor` redraw the text: animated, each frame.
    public override class func needsDisplay(forKey key: String) -> Bool {
        key == "fontSize" || key == "foregroundColor" || super.needsDisplay(forKey: key)
    }

    /// The text laid out in the bounds as it is drawn; nil without text.
    var layoutInBounds: TextLayout? {
        guard let content = text.content, !content.string.isEmpty else { return nil }
        let b = bounds
        let font = (text.font ?? .systemFont(ofSize: 17)).withSize(text.fontSize)
        var style = TextStyle(font: font, color: text.foregroundColor ?? .clear)
        style.alignment = switch text.alignmentMode {
        case .natural: .natural
        case .left: .left
        case .right: .right
        case .center: .center
        case .justified: .justified
        }
        style.lineBreakMode = switch text.truncationMode {
        case .none: text.isWrapped ? .byWordWrapping : .byClipping
        case .start: .byTruncatingHead
        case .end: .byTruncatingTail
        case .middle: .byTruncatingMiddle
        }
        // Unwrapped and uncut: laid out at its own width (placed by `draw`); otherwise at the bounds'.
        let free = !text.isWrapped && text.truncationMode == .none
        style.numberOfLines = text.isWrapped || free ? 0 : 1
        return TextLayout(content, style: style, width: free ? nil : max(0, b.width),
                          height: text.isWrapped && text.truncationMode != .none ? max(0, b.height) : nil)
    }

    public override func draw(in context: any DrawingContext) {
        super.draw(in: context)
        guard let layout = layoutInBounds else { return }
        var origin = bounds.origin
        if !text.isWrapped && text.truncationMode == .none {
            // Laid out at its own width: placed in the bounds by the alignment.
            let room = bounds.width - layout.size.width
            let rightToLeft = layout.lines.first?.isRightToLeft ?? false
            switch text.alignmentMode {
            case .left: break
            case .right: origin.x += room
            case .center: origin.x += room / 2
            case .natural, .justified: if rightToLeft { origin.x += room }
            }
        }
        layout.draw(at: origin, color: text.foregroundColor ?? .clear, traits: .standard, in: context)
    }

    private func setText<T: Equatable>(_ key: String, _ slot: WritableKeyPath<TextState, T>, _ value: T) {
        if let c = value as? Color?, let c, ![c.red, c.green, c.blue, c.alpha].allSatisfy(\.isFinite) {
            return Diagnostics.report(.invalidValue(key: key, reason: "not finite: \(c)"))
        }
        let old = text[keyPath: slot]
        changeStored(key, \TextLayer.text, slot, value)
        // A presentation copy is drawn by the renderer from its values; the model redraws when displayed.
        if text[keyPath: slot] != old, !isPresentationCopy { setNeedsDisplay() }
    }

    private static let textProperties = PropertyDescriptor.layerProperties(adding: [
            .stored("fontSize", \TextLayer.fontSize, animatable: true),
            .stored("foregroundColor", \TextLayer.foregroundColor, animatable: true),
            .stored("alignmentMode", \TextLayer.alignmentMode, animatable: false),
            .stored("wrapped", \TextLayer.isWrapped, animatable: false),
            .stored("truncationMode", \TextLayer.truncationMode, animatable: false),
    ])

    public override class var propertyDescriptors: [String: PropertyDescriptor] { textProperties }
}
