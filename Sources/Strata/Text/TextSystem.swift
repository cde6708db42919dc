import CPango
import LayerKit

/// Why text cannot be shown at all.
public enum TextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// fontconfig finds no font on this machine: text cannot be drawn.
    case noFonts

    public var description: String {
        switch self {
        case .noFonts: "fontconfig finds no fonts on this machine; install a font package (for example fonts-dejavu-core)"
        }
    }
}

/// The process's text machinery, in one place: a Pango font map over fontconfig
/// and a Pango context that lays out in points with unrounded glyph positions
/// (so a layout is the same at every scale, rule X3), and the FreeType
/// rasterizer. One per process, like fontconfig's own configuration and caches
/// beneath it, and main-actor isolated: none of these libraries may be used
/// from two threads at once, and all text is laid out and drawn by views.
///
/// Why Pango and not HarfBuzz, FriBidi and a line breaker directly: Pango is
/// those libraries already put together the way GTK 4 uses them — itemization
/// by script and direction, fontconfig fallback per run, Unicode line breaking,
/// ellipsization — and the way Linux users expect text to behave.
@MainActor
final class TextSystem {
    static let shared = TextSystem()

    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    /// The same, for paragraphs that are right to left unless their text says otherwise.
    let rightToLeftContext: OpaquePointer
    private(set) lazy var rasterizer = FreeTypeRasterizer()
    private var fontCheck: Bool?

    private init() {
        fontMap = pango_ft2_font_map_new()
        let language = pango_language_get_default(), fontMap = fontMap
        func make(_ direction: PangoDirection) -> OpaquePointer {
            let context = pango_font_map_create_context(fontMap)!
            // Positions in points, unrounded: glyphs are placed at the device scale
            // when drawn, with subpixel positions.
            pango_context_set_round_glyph_positions(context, 0)
            pango_context_set_language(context, language)
            pango_context_set_base_dir(context, direction)
            return context
        }
        context = make(PANGO_DIRECTION_LTR)
        rightToLeftContext = make(PANGO_DIRECTION_RTL)
    }

    /// Throws ``TextError/noFonts`` when fontconfig knows no font at all (checked once).
    func checkFonts() throws(TextError) {
        if fontCheck == nil {
            let pattern = FcPatternCreate()
            let objects = FcObjectSetCreate()
            _ = FC_FAMILY.withCString { FcObjectSetAdd(objects, $0) }
            let list = FcFontList(nil, pattern, objects)
            fontCheck = (list?.pointee.nfont ?? 0) > 0
            if let list { FcFontSetDestroy(list) }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        if fontCheck == false { throw .noFonts }
    }
}

@MainActor
func reportTextProblem(_ message: String) {
    Diagnostics.report(.text(message))
}
