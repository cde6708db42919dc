/// Which of this client's surfaces an input event is about: an identity to
/// compare with ``ToplevelWindow/surfaceID``, not the protocol object itself, so
/// code above WaylandClient routes input without touching `wl_surface`.
public struct SurfaceID: Hashable, Sendable {
    private let object: ObjectIdentifier

    init(_ surface: WlSurface) { object = ObjectIdentifier(surface) }
}

extension WlSurface {
    /// This surface's identity in input events.
    public var surfaceID: SurfaceID { SurfaceID(self) }
}
