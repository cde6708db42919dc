import WaylandClient

/// A lock of the session, as swaylock makes (`ext_session_lock_v1`; rule S4):
/// ``lock(content:)`` puts a lock window on every screen — filled by `content`,
/// with the same views, text, input and animation as any window — and returns
/// once the compositor reports the session locked, which it does only when every
/// screen shows its lock window, so no frame of the desktop is seen. Nothing
/// ends the lock but ``unlock()`` (after the app has checked a password, say): a
/// lock app that crashes leaves the session locked, as the compositor's rules
/// say. A screen that appears while locked gets its lock window too.
///
/// Where the compositor offers no session lock (none of the compositors Debian
/// 12 packages does) ``lock(content:)`` throws ``SessionLockError/unsupported``.
@MainActor
public final class SessionLock {
    private let locker: SessionLocker
    private let content: (Window, Screen) -> Void
    /// The lock windows, one per screen.
    public var windows: [Window] { lockWindows }
    private var lockWindows: [LockWindow] = []
    /// True from the compositor's `locked` until ``unlock()`` (or the compositor ends it).
    public var isLocked: Bool { locker.state == .locked }
    /// Called if the compositor ends the lock itself.
    public var onFinished: (() -> Void)?
    /// The application's screen handlers while this lock put its own in front, given back at unlock.
    private var previousHandlers: (added: ((Screen) -> Void)?, removed: ((Screen) -> Void)?)?

    /// Locks the session: a lock window per screen made by `content`, shown,
    /// and the compositor's answer awaited. Throws `.unsupported` where the
    /// compositor offers no session lock (and offscreen), `.noScreens` without
    /// an output, `.refused` when another client holds the lock.
    public static func lock(content: @escaping (Window, Screen) -> Void = { _, _ in }) async throws(SessionLockError) -> SessionLock {
        let result = await withCheckedContinuation { done in lock(content: content) { done.resume(returning: $0) } }
        return try result.get()
    }

    /// ``lock(content:)`` with a completion instead of `await`: `completion`
    /// runs when the compositor answers (at once for an error found here).
    public static func lock(content: @escaping (Window, Screen) -> Void = { _, _ in },
                            completion: @escaping (Result<SessionLock, SessionLockError>) -> Void) {
        guard let display = Application.shared.display else { return completion(.failure(.unsupported)) }
        let screens = Screen.screens
        guard !screens.isEmpty else { return completion(.failure(.noScreens)) }
        let locker: SessionLocker
        do throws(SessionLockError) { locker = try SessionLocker(display: display) } catch { return completion(.failure(error)) }
        let lock = SessionLock(locker: locker, content: content)
        for screen in screens { lock.addWindow(on: screen) }
        // Until the compositor answers, these two hold the lock (and through it the
        // locker): a cycle each answer breaks.
        locker.onLocked = {
            lock.locked()
            completion(.success(lock))
        }
        locker.onFinished = {
            lock.closeWindows()
            lock.locker.onLocked = nil
            lock.locker.onFinished = nil
            completion(.failure(.refused))
        }
    }

    /// Granted: from now on the compositor may end it, and screens that come and
    /// go while locked get or lose a lock window.
    private func locked() {
        locker.onLocked = nil
        locker.onFinished = { [weak self] in
            self?.unlock()   // the compositor ended it: the same tidying as an unlock
            self?.onFinished?()
        }
        let app = Application.shared
        let previous = (added: app.onScreenAdded, removed: app.onScreenRemoved)
        previousHandlers = previous
        app.onScreenAdded = { [weak self] screen in
            previous.added?(screen)
            self?.addWindow(on: screen)
        }
        app.onScreenRemoved = { [weak self] screen in
            previous.removed?(screen)
            self?.removeWindow(on: screen)
        }
    }

    private init(locker: SessionLocker, content: @escaping (Window, Screen) -> Void) {
        self.locker = locker
        self.content = content
    }

    private func addWindow(on screen: Screen) {
        let window = LockWindow(locker: locker, screen: screen)
        window.backgroundColor = Color(rgba8: 0x10, 0x12, 0x16)
        content(window, screen)
        lockWindows.append(window)
        window.show()
    }

    private func removeWindow(on screen: Screen) {
        for w in lockWindows where w.screen === screen { w.close() }
        lockWindows.removeAll { $0.screen === screen }
    }

    /// Unlocks the session and closes the lock windows.
    public func unlock() {
        locker.unlock()
        closeWindows()
        if let previous = previousHandlers {
            Application.shared.onScreenAdded = previous.added
            Application.shared.onScreenRemoved = previous.removed
        }
        previousHandlers = nil
    }

    private func closeWindows() {
        for w in lockWindows { w.close() }
        lockWindows = []
    }
}

/// A lock window: its surface is a session lock's, on one screen.
@MainActor
final class LockWindow: Window {
    let locker: SessionLocker
    let screen: Screen

    init(locker: SessionLocker, screen: Screen) {
        self.locker = locker
        self.screen = screen
        super.init(title: "lock", size: screen.bounds.size)
    }

    override func makeOnscreen(display: Display, loop: EventLoop?) -> OnscreenWindow? {
        OnscreenWindow(window: self, lock: locker.makeSurface(output: screen.output), loop: loop)
    }
}
