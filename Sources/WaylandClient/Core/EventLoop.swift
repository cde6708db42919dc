import CShims
import CWayland
import Dispatch
import Glibc

/// The main thread's loop: Wayland events, timers, and the main dispatch queue —
/// so `@MainActor` code, `Task { @MainActor in … }` and `await` in apps just work
/// while the loop runs.
///
/// Two ways to run it. ``run()`` owns the main thread: it sleeps in `poll` and
/// serves the main dispatch queue itself (through libdispatch's run-loop handle,
/// as CoreFoundation does). ``runAsync()`` is for when the main queue is already
/// served — an `async` `main`, or a test runner — and drives the same turns from
/// dispatch sources on the main queue.
///
/// Each turn: dispatch queued Wayland events, flush requests (waiting for room
/// when the socket is full), sleep in `poll` until the compositor writes, a timer
/// is due or the main queue has work, then read and dispatch, run due timers and
/// main-queue work, and finally the end-of-turn hooks (LayerKit commits its
/// implicit transaction there).
@MainActor
public final class EventLoop {
    public let connection: Connection
    private var running = false
    private var timers: [(id: Int, deadline: Double, body: @MainActor () -> Void)] = []
    private var nextTimerID = 0
    private var endOfTurn: [@MainActor () -> Void] = []
    private let mainQueueFD: Int32
    /// Turns run so far.
    public private(set) var turns = 0
    // Dispatch-driven mode (runAsync).
    private var readSource: DispatchSourceRead?
    private var mailSource: DispatchSourceRead?
    private var timerSource: DispatchSourceTimer?
    private var finish: CheckedContinuation<WaylandError?, Never>?
    private var turnScheduled = false

    public init(connection: Connection) {
        self.connection = connection
        mainQueueFD = strata_main_queue_fd()
    }

    /// A token for cancelling a timer.
    public struct TimerToken: Hashable, Sendable { let id: Int }

    /// Runs `body` once at `deadline` (CLOCK_MONOTONIC seconds, the default media clock).
    @discardableResult
    public func schedule(at deadline: Double, _ body: @escaping @MainActor () -> Void) -> TimerToken {
        nextTimerID += 1
        timers.append((nextTimerID, deadline, body))
        rearmTimerSource()
        return TimerToken(id: nextTimerID)
    }

    /// Runs `body` after `delay` seconds.
    @discardableResult
    public func schedule(after delay: Double, _ body: @escaping @MainActor () -> Void) -> TimerToken {
        schedule(at: MonotonicClock.now + max(0, delay), body)
    }

    public func cancel(_ token: TimerToken) {
        timers.removeAll { $0.id == token.id }
    }

    /// Runs `body` at the end of the current turn (once).
    public func atEndOfTurn(_ body: @escaping @MainActor () -> Void) {
        endOfTurn.append(body)
        scheduleTurn()
    }

    /// Runs on the calling (main) thread until ``stop()`` is called or the
    /// connection fails (which throws). Needs the main dispatch queue to be free
    /// (not under `dispatchMain()`); use ``runAsync()`` otherwise.
    public func run() throws(WaylandError) {
        guard mainQueueFD >= 0 else {
            throw .loopUnavailable("the main dispatch queue is served elsewhere (dispatchMain or an async main): use runAsync()")
        }
        running = true
        defer { running = false }
        while running {
            try turn(timeout: nil)
        }
    }

    /// Runs from dispatch sources on the main queue until ``stop()`` is called or
    /// the connection fails (which throws). Other main-actor work runs between turns.
    public func runAsync() async throws(WaylandError) {
        running = true
        let source = DispatchSource.makeReadSource(fileDescriptor: connection.fileDescriptor, queue: .main)
        source.setEventHandler { [unowned self] in MainActor.assumeIsolated { dispatchTurn() } }
        readSource = source
        let mail = DispatchSource.makeReadSource(fileDescriptor: connection.mailbox.fileDescriptor, queue: .main)
        mail.setEventHandler { [unowned self] in MainActor.assumeIsolated { dispatchTurn() } }
        mailSource = mail
        let timer = DispatchSource.makeTimerSource(queue: .main)
        timer.setEventHandler { [unowned self] in MainActor.assumeIsolated { dispatchTurn() } }
        timerSource = timer
        rearmTimerSource()
        source.resume()
        mail.resume()
        timer.resume()
        connection.flushScheduler = { [weak self] in self?.scheduleTurn() }
        scheduleTurn()
        let error = await withCheckedContinuation { finish = $0 }
        connection.flushScheduler = nil
        source.cancel()
        mail.cancel()
        timer.cancel()
        readSource = nil
        mailSource = nil
        timerSource = nil
        running = false
        if let error { throw error }
    }

    /// Makes ``run()`` or ``runAsync()`` return after the current turn.
    public func stop() {
        running = false
        finish?.resume(returning: nil)
        finish = nil
    }

    private func scheduleTurn() {
        guard readSource != nil, !turnScheduled else { return }
        turnScheduled = true
        DispatchQueue.main.async { MainActor.assumeIsolated { self.dispatchTurn() } }
    }

    private func dispatchTurn() {
        turnScheduled = false
        guard running, finish != nil else { return }
        do {
            try turn(timeout: 0)
            rearmTimerSource()
        } catch {
            finish?.resume(returning: error)
            finish = nil
        }
    }

    private func rearmTimerSource() {
        guard let timerSource else { return }
        if let next = timers.map(\.deadline).min() {
            let delay = max(0, next - MonotonicClock.now)
            timerSource.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)), leeway: .microseconds(500))
        } else {
            timerSource.schedule(deadline: .distantFuture)
        }
    }

    /// Turns the loop for `seconds` (events, timers, end-of-turn work), then returns.
    public func turn(for seconds: Double) throws(WaylandError) {
        let end = MonotonicClock.now + seconds
        while MonotonicClock.now < end { try turn(timeout: min(0.02, max(0, end - MonotonicClock.now))) }
    }

    /// Turns the loop until `condition` holds; false when `timeout` seconds passed first.
    @discardableResult
    public func turn(until condition: () -> Bool, timeout: Double) throws(WaylandError) -> Bool {
        let deadline = MonotonicClock.now + timeout
        while !condition() {
            guard MonotonicClock.now < deadline else { return false }
            try turn(timeout: 0.02)
        }
        return true
    }

    /// One turn of the loop, sleeping at most `timeout` seconds (nil: until something happens).
    public func turn(timeout: Double?) throws(WaylandError) {
        turns += 1
        let display = connection.display
        while wl_display_prepare_read(display) != 0 {
            try connection.dispatchPending()
        }
        var wantWrite = false
        if wl_display_flush(display) < 0 {
            guard errno == EAGAIN else { wl_display_cancel_read(display); throw connection.error ?? .disconnected(errno: errno) }
            wantWrite = true
        }
        var wait = timeout ?? -1
        if let next = timers.map(\.deadline).min() {
            let untilTimer = max(0, next - MonotonicClock.now)
            wait = wait < 0 ? untilTimer : min(wait, untilTimer)
        }
        if !endOfTurn.isEmpty { wait = 0 }
        var fds = [pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0), revents: 0)]
        fds.append(pollfd(fd: connection.mailbox.fileDescriptor, events: Int16(POLLIN), revents: 0))
        if mainQueueFD >= 0 { fds.append(pollfd(fd: mainQueueFD, events: Int16(POLLIN), revents: 0)) }
        let ms = wait < 0 ? Int32(-1) : Int32(min(Double(Int32.max), (wait * 1000).rounded(.up)))
        let ready = poll(&fds, nfds_t(fds.count), ms)
        if ready > 0 && fds[0].revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
            if wl_display_read_events(display) < 0 { throw connection.error ?? .disconnected(errno: errno) }
        } else {
            wl_display_cancel_read(display)
        }
        try connection.dispatchPending()
        connection.mailbox.runPosted(signalled: fds[1].revents != 0)
        if fds.count > 2 && fds[2].revents & Int16(POLLIN) != 0 {
            var value: UInt64 = 0
            _ = read(mainQueueFD, &value, 8)
            strata_main_queue_drain()
        }
        let now = MonotonicClock.now
        let due = timers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
        timers.removeAll { $0.deadline <= now }
        for t in due { t.body() }
        while !endOfTurn.isEmpty {
            let hooks = endOfTurn
            endOfTurn = []
            for h in hooks { h() }
        }
        if wl_display_flush(display) < 0 && errno != EAGAIN {
            throw connection.error ?? .disconnected(errno: errno)
        }
    }
}
