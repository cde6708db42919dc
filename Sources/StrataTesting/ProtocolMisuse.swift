import WaylandClient

/// Requests a client must not send, each with the protocol error the protocol
/// says the compositor raises for it: how a compositor test checks that the
/// compositor enforces its protocols (a scenario's `misuse NAME` then
/// `expect-protocol-error INTERFACE CODE`).
///
/// Each misuse is made on objects of its own (a fresh surface, a positioner),
/// never on a window's, so what it breaks is only what it names — though a
/// protocol error ends the whole connection, as Wayland specifies.
public enum ProtocolMisuse: String, CaseIterable, Sendable {
    /// A buffer attached and committed on an `xdg_surface` before its first
    /// configure is acknowledged: `xdg_surface` error `unconfigured_buffer` (3).
    case unconfiguredBuffer = "unconfigured-buffer"
    /// `xdg_positioner.set_size` with a zero width and height: `xdg_positioner`
    /// error `invalid_input` (0).
    case zeroSizePositioner = "zero-size-positioner"
    /// `xdg_surface.get_toplevel` twice on one `xdg_surface`: `xdg_surface` error
    /// `already_constructed` (2).
    case secondRole = "second-role"

    /// The error the protocol specifies: the interface that raises it and its code.
    public var expectedError: (interface: String, code: UInt32) {
        switch self {
        case .unconfiguredBuffer: ("xdg_surface", 3)
        case .zeroSizePositioner: ("xdg_positioner", 0)
        case .secondRole: ("xdg_surface", 2)
        }
    }

    /// Sends the requests (and flushes them). Returns the objects made: keep them
    /// until the error arrives.
    @MainActor
    public func perform(on display: Display) throws -> [AnyObject] {
        let made: [AnyObject]
        switch self {
        case .unconfiguredBuffer:
            let surface = display.compositor.createSurface()
            let xdg = display.wmBase.getXdgSurface(surface: surface)
            let toplevel = xdg.getToplevel()
            let pool = ShmBufferPool(shm: display.shm)
            let buffer = try pool.nextBuffer(width: 16, height: 16)
            surface.attach(buffer: buffer.wlBuffer, x: 0, y: 0)
            surface.commit()   // no configure acknowledged yet
            made = [surface, xdg, toplevel, pool, buffer]
        case .zeroSizePositioner:
            let positioner = display.wmBase.createPositioner()
            positioner.setSize(width: 0, height: 0)
            made = [positioner]
        case .secondRole:
            let surface = display.compositor.createSurface()
            let xdg = display.wmBase.getXdgSurface(surface: surface)
            let first = xdg.getToplevel()
            let second = xdg.getToplevel()
            made = [surface, xdg, first, second]
        }
        try display.connection.flush()
        return made
    }
}
