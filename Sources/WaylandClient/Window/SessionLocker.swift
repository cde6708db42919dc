/// A lock of the session (`ext_session_lock_v1`): while it holds, the compositor
/// shows nothing of the desktop — only this client's lock surfaces, one per
/// output (``LockSurface``) — and sends input only to them. The compositor says
/// ``State-swift.enum/locked`` once every output shows a lock surface (so no
/// frame of the desktop is seen), or ``State-swift.enum/finished`` when it
/// refuses (another client holds the lock) or ends the lock itself.
///
/// Only ``unlock()`` ends a lock; a client that dies while locked leaves the
/// session locked (the compositor's rule, for safety).
@MainActor
public final class SessionLocker {
    public enum State: Hashable, Sendable {
        /// Asked for; not yet granted.
        case pending
        /// The session is locked: only lock surfaces show.
        case locked
        /// Refused or ended by the compositor; the object is spent.
        case finished
        /// Unlocked by this client; the object is spent.
        case unlocked
    }

    public let display: Display
    private let lock: ExtSessionLockV1
    public private(set) var state = State.pending
    /// Called when the compositor reports ``State-swift.enum/locked``.
    public var onLocked: (() -> Void)?
    /// Called when the compositor refuses or ends the lock.
    public var onFinished: (() -> Void)?

    /// Asks the compositor to lock the session. Throws where it offers no session lock.
    public init(display: Display) throws(SessionLockError) {
        guard let manager = display.sessionLockManager else { throw .unsupported }
        self.display = display
        lock = manager.lock()
        lock.onEvent = { [weak self] event in
            guard let self else { return }
            switch event {
            case .locked:
                guard state == .pending else { return }
                state = .locked
                onLocked?()
            case .finished:
                guard state == .pending || state == .locked else { return }
                state = .finished
                lock.destroy()
                onFinished?()
            }
        }
    }

    /// A lock surface for `output` (one per output; the compositor gives its size).
    public func makeSurface(output: Output) -> LockSurface {
        LockSurface(display: display, lock: lock, output: output)
    }

    /// Ends the lock: unlocks the session when it is locked, or withdraws a lock
    /// not yet granted. Safe to call more than once.
    public func unlock() {
        switch state {
        case .locked: lock.unlockAndDestroy()
        case .pending: lock.destroy()
        case .finished, .unlocked: return
        }
        state = .unlocked
    }
}

/// A surface of a session lock on one output (`ext_session_lock_surface_v1`):
/// the compositor sets its size (the output's) with each configure; nothing is
/// drawn before the first. Drawn and paced by a ``FramedSurface``.
@MainActor
public final class LockSurface {
    public let framed: FramedSurface
    public var surfaceID: SurfaceID { framed.surfaceID }
    private let lockSurface: ExtSessionLockSurfaceV1
    /// The size the compositor gave (1×1 until its first configure).
    public var width: Int { framed.size.width }
    public var height: Int { framed.size.height }
    public var isConfigured: Bool { framed.isConfigured }
    /// Called after each configure.
    public var onConfigure: ((LockSurface) -> Void)?

    init(display: Display, lock: ExtSessionLockV1, output: Output) {
        framed = FramedSurface(display: display)
        lockSurface = lock.getLockSurface(surface: framed.surface, output: output.proxy)
        lockSurface.onEvent = { [unowned self] event in
            guard case let .configure(serial, w, h) = event else { return }
            lockSurface.ackConfigure(serial: serial)
            framed.takeConfiguredSize(width: Int(clamping: w), height: Int(clamping: h)) { onConfigure?(self) }
        }
        framed.surface.commit()
    }

    public func setNeedsDisplay() { framed.setNeedsDisplay() }

    /// Destroys its objects; it must not be used afterwards.
    public func close() {
        lockSurface.destroy()
        framed.close()
    }
}

/// Why a session lock could not be had.
public enum SessionLockError: Error, Equatable, CustomStringConvertible {
    /// The compositor offers no `ext_session_lock_manager_v1` (none of weston 10,
    /// sway 1.7, kwin 5.27, mutter 43 or cage does; sway 1.8 and later, Hyprland,
    /// niri and river do).
    case unsupported
    /// The compositor refused (another client holds the lock) or ended it.
    case refused
    /// There is no output to show a lock surface on.
    case noScreens

    public var description: String {
        switch self {
        case .unsupported: "the compositor offers no ext_session_lock_manager_v1 (session locks)"
        case .refused: "the compositor refused the session lock (another client holds it) or ended it"
        case .noScreens: "there is no output to show a lock surface on"
        }
    }
}
