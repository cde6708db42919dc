import CPango
import Glibc
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
/// rasterizer with its glyph cache. None of these libraries may be used from two
/// threads at once: everything goes through ``withLock(_:)``.
///
/// Why Pango and not HarfBuzz, FriBidi and a line breaker directly: Pango is
/// those libraries already put together the way GTK 4 uses them — itemization
/// by script and direction, fontconfig fallback per run, Unicode line breaking,
/// ellipsization — and the way Linux users expect text to behave.
final class TextSystem: @unchecked Sendable {
    static let shared = TextSystem()

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    // Guarded by `mutex`:
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    private(set) lazy var rasterizer = GlyphRasterizer()
    private var fontCheck: Bool?

    private init() {
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
        fontMap = pango_ft2_font_map_new()
        context = pango_font_map_create_context(fontMap)
        // Positions in points, unrounded: glyphs are placed at the device scale
        // when drawn, with subpixel positions.
        pango_context_set_round_glyph_positions(context, 0)
        let language = pango_language_get_default()
        pango_context_set_language(context, language)
    }

    /// Runs `body` with the text libraries to itself.
    func withLock<R>(_ body: (TextSystem) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(self)
    }

    /// Throws ``TextError/noFonts`` when fontconfig knows no font at all (checked once).
    func checkFonts() throws(TextError) {
        let ok = withLock { system -> Bool in
            if let check = system.fontCheck { return check }
            let pattern = FcPatternCreate()
            let objects = FcObjectSetCreate()
            _ = FC_FAMILY.withCString { FcObjectSetAdd(objects, $0) }
            let list = FcFontList(nil, pattern, objects)
            let found = (list?.pointee.nfont ?? 0) > 0
            if let list { FcFontSetDestroy(list) }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
            system.fontCheck = found
            return found
        }
        if !ok { throw .noFonts }
    }
}

@MainActor
func reportTextProblem(_ message: String) {
    Diagnostics.report(.text(message))
}
