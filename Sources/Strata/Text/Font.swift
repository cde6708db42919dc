import CPango

/// A font: a family found through fontconfig, a size in points, a weight and a
/// slant (`UIFont`). Characters the family lacks are drawn from fallback fonts
/// fontconfig chooses (rule X1). Metrics follow UIKit's signs: ``descender`` is
/// negative, ``lineHeight`` is `ascender − descender`, the height of one line
/// of a ``Label`` in this font. Fonts are made on the main actor (where
/// problems are reported); the values go anywhere.
public struct Font: Hashable, Sendable, CustomStringConvertible {
    /// A weight, as `UIFont.Weight`, on the CSS/OpenType scale (100–900).
    public struct Weight: Hashable, Sendable, Comparable {
        public let value: Int
        public init(_ value: Int) { self.value = min(1000, max(1, value)) }
        public static let ultraLight = Weight(200), thin = Weight(100), light = Weight(300)
        public static let regular = Weight(400), medium = Weight(500), semibold = Weight(600)
        public static let bold = Weight(700), heavy = Weight(800), black = Weight(900)
        public static func < (a: Weight, b: Weight) -> Bool { a.value < b.value }
    }

    /// The family name given to fontconfig ("sans-serif" for the system font).
    public let familyName: String
    public let pointSize: Double
    public let weight: Weight
    public let isItalic: Bool
    /// Distance from the baseline to the top of the line, in points.
    public let ascender: Double
    /// Distance from the baseline to the bottom of the line, negative (as UIKit's).
    public let descender: Double
    /// The text style of a font from ``preferredFont(forTextStyle:compatibleWith:)``:
    /// views that adjust to the text size make it again at the new size.
    public let textStyle: TextStyle?

    /// The height of one line: `ascender − descender`.
    public var lineHeight: Double { ascender - descender }

    /// UIKit's system font size (`UIFont.systemFontSize`).
    public static let systemFontSize = 14.0
    /// The size labels use by default (`UILabel`'s 17 points).
    public static let labelFontSize = 17.0

    /// The system's sans-serif font (what fontconfig's "sans-serif" resolves to),
    /// as `UIFont.systemFont(ofSize:weight:)`.
    @MainActor
    public static func systemFont(ofSize size: Double, weight: Weight = .regular) -> Font {
        Font(family: "sans-serif", size: size, weight: weight, italic: false)
    }

    /// The system's monospace font ("monospace" in fontconfig).
    @MainActor
    public static func monospacedSystemFont(ofSize size: Double, weight: Weight = .regular) -> Font {
        Font(family: "monospace", size: size, weight: weight, italic: false)
    }

    /// The system font in bold (`UIFont.boldSystemFont(ofSize:)`).
    @MainActor
    public static func boldSystemFont(ofSize size: Double) -> Font { systemFont(ofSize: size, weight: .bold) }

    /// The system font in italic (`UIFont.italicSystemFont(ofSize:)`).
    @MainActor
    public static func italicSystemFont(ofSize size: Double) -> Font {
        Font(family: "sans-serif", size: size, weight: .regular, italic: true)
    }

    /// A font by name (`UIFont(name:size:)`): a family ("DejaVu Serif"), a full
    /// name ("DejaVu Sans Bold") or a PostScript name ("DejaVuSans-Bold"), matched
    /// without regard to case. Nil, with a diagnostic, when fontconfig knows no
    /// such font: `Font(name: n, size: s) ?? .systemFont(ofSize: s)` is the fallback.
    @MainActor
    public init?(name: String, size: Double) {
        guard let found = Font.lookUp(name) else {
            reportTextProblem("no font named '\(name)'; Font(name:size:) is nil (use the system font instead)")
            return nil
        }
        self.init(family: found.family, size: size, weight: found.weight, italic: found.italic)
    }

    /// The same font at another size (`UIFont.withSize(_:)`).
    @MainActor
    public func withSize(_ size: Double) -> Font {
        Font(family: familyName, size: size, weight: weight, italic: isItalic)
    }

    /// The same family and size at another weight.
    @MainActor
    public func withWeight(_ weight: Weight) -> Font {
        Font(family: familyName, size: pointSize, weight: weight, italic: isItalic)
    }

    /// Checks that the machine has fonts at all: throws ``TextError/noFonts``
    /// when fontconfig finds none (text then draws nothing, with a diagnostic).
    @MainActor
    public static func checkAvailability() throws(TextError) {
        try TextSystem.shared.checkFonts()
    }

    public var description: String {
        "\(familyName) \(pointSize)pt weight \(weight.value)\(isItalic ? " italic" : "")"
    }

    /// The largest size text is drawn at; larger sizes are clamped (glyphs of
    /// thousands of pixels would each take megabytes).
    public static let maximumPointSize = 2048.0

    @MainActor
    init(family: String, size: Double, weight: Weight, italic: Bool, textStyle: TextStyle? = nil) {
        var size = size
        if !size.isFinite || size < 0 {
            reportTextProblem("font size \(size) is not a size; \(Font.systemFontSize) points used")
            size = Font.systemFontSize
        } else if size > Font.maximumPointSize {
            reportTextProblem("font size \(size) is over \(Font.maximumPointSize) points; clamped")
            size = Font.maximumPointSize
        }
        familyName = family
        pointSize = size
        self.weight = weight
        isItalic = italic
        self.textStyle = textStyle
        let metrics = Font.metrics(family: family, size: size, weight: weight, italic: italic)
        ascender = metrics.0
        descender = -metrics.1
    }

    /// Ascent and descent in points (0 when no font loads).
    @MainActor
    private static func metrics(family: String, size: Double, weight: Weight, italic: Bool) -> (Double, Double) {
        let system = TextSystem.shared
        let description = Font.pangoDescription(family: family, size: size, weight: weight, italic: italic)
        defer { pango_font_description_free(description) }
        guard size > 0, let font = pango_font_map_load_font(system.fontMap, system.context, description) else { return (0, 0) }
        defer { strata_object_unref(font) }
        guard let metrics = pango_font_get_metrics(font, nil) else { return (0, 0) }
        defer { pango_font_metrics_unref(metrics) }
        let scale = Double(strata_pango_scale)
        return (Double(pango_font_metrics_get_ascent(metrics)) / scale, Double(pango_font_metrics_get_descent(metrics)) / scale)
    }

    /// A Pango description of the font (freed by the caller).
    func pangoDescription() -> OpaquePointer {
        Font.pangoDescription(family: familyName, size: pointSize, weight: weight, italic: isItalic)
    }

    private static func pangoDescription(family: String, size: Double, weight: Weight, italic: Bool) -> OpaquePointer {
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, family)
        // Absolute sizes: a point of the font is a unit of the layout, whatever the resolution.
        // At least one Pango unit (1/1024 point): at 0 Pango's fontconfig glue asserts.
        pango_font_description_set_absolute_size(description, max(1, size * Double(strata_pango_scale)))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(weight.value)))
        pango_font_description_set_style(description, italic ? PANGO_STYLE_ITALIC : PANGO_STYLE_NORMAL)
        return description
    }

    /// The family, weight and slant of the first font fontconfig lists under
    /// `name` as a family, full name or PostScript name.
    @MainActor
    private static func lookUp(_ name: String) -> (family: String, weight: Weight, italic: Bool)? {
        for object in [FC_FAMILY, FC_FULLNAME, FC_POSTSCRIPT_NAME] {
            let pattern = FcPatternCreate()
            defer { FcPatternDestroy(pattern) }
            _ = object.withCString { key in name.withCString { FcPatternAddString(pattern, key, $0) } }
            let objects = FcObjectSetCreate()
            defer { FcObjectSetDestroy(objects) }
            for o in [FC_FAMILY, FC_WEIGHT, FC_SLANT] { _ = o.withCString { FcObjectSetAdd(objects, $0) } }
            guard let list = FcFontList(nil, pattern, objects) else { continue }
            defer { FcFontSetDestroy(list) }
            guard list.pointee.nfont > 0, let first = list.pointee.fonts[0],
                  let family = strata_fc_string(first, FC_FAMILY) else { continue }
            let fcWeight = strata_fc_int(first, FC_WEIGHT, Int32(FC_WEIGHT_REGULAR))
            let slant = strata_fc_int(first, FC_SLANT, Int32(FC_SLANT_ROMAN))
            // The family itself when asked by family; the face's weight and slant when asked by a face's name.
            let byFamily = object == FC_FAMILY
            return (String(cString: family),
                    byFamily ? .regular : Weight(Int(FcWeightToOpenType(fcWeight))),
                    byFamily ? false : slant != FC_SLANT_ROMAN)
        }
        return nil
    }
}
