import CWayland
import CWaylandCursor
import Glibc

/// A cursor theme read with libwayland-cursor: `XCURSOR_THEME` and
/// `XCURSOR_SIZE` (default 24) unless given, loaded at the output's scale so
/// cursors are sharp on HiDPI outputs; libwayland-cursor's built-in cursors
/// stand in when no theme is installed.
@MainActor
public final class CursorTheme {
    public let name: String?
    public let size: Int
    public let scale: Int
    private let theme: OpaquePointer
    /// Keeps the connection open until the theme's buffers are destroyed with it
    /// (libwayland-cursor made them; no proxy of ours holds them).
    private let shm: WlShm

    public init?(shm: WlShm, name: String? = nil, size: Int? = nil, scale: Int = 1) {
        let envSize = getenv("XCURSOR_SIZE").flatMap { Int(String(cString: $0)) }
        self.name = name ?? getenv("XCURSOR_THEME").map { String(cString: $0) }
        self.size = max(8, min(256, size ?? envSize ?? 24))
        self.scale = max(1, min(8, scale))
        guard let theme = wl_cursor_theme_load(self.name, Int32(self.size * self.scale), shm.wlObject) else { return nil }
        self.theme = theme
        self.shm = shm
    }

    isolated deinit {
        wl_cursor_theme_destroy(theme)
    }

    /// The first image of the first of `names` the theme has (themes name
    /// cursors differently: give the CSS name and the X11 ones).
    public func image(named names: [String]) -> CursorImage? {
        for name in names {
            guard let cursor = wl_cursor_theme_get_cursor(theme, name), cursor.pointee.image_count > 0,
                  let image = cursor.pointee.images[0], let buffer = wl_cursor_image_get_buffer(image) else { continue }
            let i = image.pointee
            return CursorImage(name: name, buffer: buffer, width: Int(i.width), height: Int(i.height),
                               hotspotX: Int(i.hotspot_x), hotspotY: Int(i.hotspot_y), scale: scale)
        }
        return nil
    }
}

/// One cursor image: a `wl_buffer` the theme owns, its size and hotspot in buffer pixels.
public struct CursorImage: @unchecked Sendable {
    public let name: String
    let buffer: OpaquePointer
    public let width: Int
    public let height: Int
    public let hotspotX: Int
    public let hotspotY: Int
    public let scale: Int
}

/// The surface a seat's pointer shows as its cursor.
@MainActor
final class CursorSurface {
    let surface: WlSurface
    private let shm: WlShm
    private var theme: CursorTheme?
    private(set) var shown: [String] = []

    init(compositor: WlCompositor, shm: WlShm) {
        surface = compositor.createSurface()
        self.shm = shm
    }

    /// Shows the cursor called by one of `names` at `scale` for `pointer`, quoting
    /// the serial of the pointer's enter event.
    func show(_ names: [String], scale: Int, pointer: WlPointer, serial: UInt32) {
        if theme?.scale != scale { theme = CursorTheme(shm: shm, scale: scale) }
        guard let image = theme?.image(named: names) else { return }
        shown = names
        // wl_surface.attach (opcode 1) of a buffer the theme owns: sent directly, since
        // the buffer is not one of ours to wrap (the theme destroys it).
        var args = [wl_argument](repeating: wl_argument(), count: 3)
        args[0].o = image.buffer
        args.withUnsafeMutableBufferPointer { _ = wl_proxy_marshal_array_flags(surface.proxy, 1, nil, surface.version, 0, $0.baseAddress) }
        if surface.version >= 3 { surface.setBufferScale(scale: Int32(image.scale)) }
        surface.damage(x: 0, y: 0, width: Int32(image.width), height: Int32(image.height))
        surface.commit()
        pointer.setCursor(serial: serial, surface: surface, hotspotX: Int32(image.hotspotX / image.scale), hotspotY: Int32(image.hotspotY / image.scale))
    }
}
