import WaylandClient

/// Other clients' windows as a wlroots-based compositor lists them to a
/// taskbar (`zwlr_foreign_toplevel_manager_v1`): each window's title and app
/// id, and a way to ask it to close — but not where it is (the protocol says
/// nothing of places). ``ClientRunner`` names the windows it finds on the
/// screen with it, on compositors it has no recipe for.
@MainActor
final class ForeignToplevels {
    struct Toplevel: Equatable {
        /// This list's own number for the window (the order the compositor told them).
        let id: Int
        var title: String?
        var appID: String?
    }

    private let display: Display
    private let manager: ZwlrForeignToplevelManagerV1
    private var handles: [Int: ZwlrForeignToplevelHandleV1] = [:]
    /// Windows as of each one's last `done` (a title change is whole only then).
    private var done: [Int: Toplevel] = [:]
    private var pending: [Int: Toplevel] = [:]
    private var nextID = 0

    /// Nil when the compositor does not offer the list (or cannot be reached).
    init?(compositor: any Compositor) {
        guard let display = try? compositor.connect(),
              let manager = display.registry.bindIfOffered(ZwlrForeignToplevelManagerV1.self) else { return nil }
        self.display = display
        self.manager = manager
        manager.onEvent = { [unowned self] event in
            guard case let .toplevel(handle) = event else { return }
            nextID += 1
            let id = nextID
            handles[id] = handle
            pending[id] = Toplevel(id: id)
            handle.onEvent = { [unowned self] event in
                switch event {
                case let .title(t): pending[id]?.title = t
                case let .appId(a): pending[id]?.appID = a
                case .done: if let p = pending[id] { done[id] = p }
                case .closed:
                    handles[id]?.destroy()
                    (handles[id], pending[id], done[id]) = (nil, nil, nil)
                default: break
                }
            }
        }
    }

    /// The windows now: what the compositor has told so far, after a round trip.
    func windows() throws -> [Toplevel] {
        try display.connection.roundtrip(timeout: 5)
        return done.values.sorted { $0.id < $1.id }
    }

    /// Asks the compositor to close the window as its close button would;
    /// false when the window is gone already.
    func close(_ id: Int) throws -> Bool {
        guard let handle = handles[id] else { return false }
        handle.close()
        try display.connection.flush()
        return true
    }

    /// Whether the window is still listed.
    func isListed(_ id: Int) throws -> Bool {
        try display.connection.roundtrip(timeout: 5)
        return handles[id] != nil
    }
}
