import CWayland
import Glibc

/// A connection to a compositor (`wl_display`): connecting, sending, reading and
/// dispatching events, round trips and errors.
///
/// Two ways to drive it: synchronously with ``dispatch(timeout:)`` and
/// ``roundtrip(timeout:)`` — what scripted test clients and tests do — or from an
/// ``EventLoop`` that serves it together with timers and the main actor.
@MainActor
public final class Connection {
    /// The libwayland display (`struct wl_display *`).
    public var display: OpaquePointer { handle.display }
    /// The socket name connected to.
    public let socketName: String
    let handle: DisplayHandle
    /// Work posted from other threads, run when the connection is next dispatched.
    nonisolated let mailbox = MainActorMailbox()

    /// Connects to `socket`, or to `WAYLAND_DISPLAY` (default `wayland-0`) in
    /// `XDG_RUNTIME_DIR`. An absolute path names a socket directly.
    public init(socket: String? = nil) throws(WaylandError) {
        LogCapture.install()
        let name = socket ?? ProcessEnvironment["WAYLAND_DISPLAY"] ?? "wayland-0"
        errno = 0
        guard let d = wl_display_connect(name) else {
            throw .connectFailed(socket: name, errno: errno == 0 ? ENOENT : errno)
        }
        handle = DisplayHandle(d)
        socketName = name
    }

    /// The connection's file descriptor, readable when events arrive.
    public var fileDescriptor: Int32 { wl_display_get_fd(display) }

    /// Runs `body` on the main actor the next time the connection is dispatched
    /// (``dispatch(timeout:)`` and everything built on it, or an ``EventLoop``
    /// turn), waking a dispatch asleep in `poll`. Callable from any thread: this is
    /// how work finished elsewhere — a frame drawn by render workers — comes back.
    public nonisolated func post(_ body: @escaping @MainActor @Sendable () -> Void) {
        mailbox.post(body)
    }

    /// ``post(_:)`` as a value for work on other threads (a pipe transfer, a
    /// frame's render workers) that holds the mailbox, not the connection: such
    /// work never becomes the connection's last owner, whose deinit (isolated)
    /// would then wait for the main queue — a client that drives its connection
    /// itself stayed connected, its windows on the screen, until the main queue
    /// next ran.
    package nonisolated var poster: PipeTransfer.Deliver { { [mailbox] body in mailbox.post(body) } }

    /// Sends a `wl_display.get_registry` request.
    public func getRegistry() -> WlRegistry {
        WlRegistry(adopting: displayConstructor(opcode: 1, WlRegistry.self), version: 1, owner: handle)
    }

    /// Sends a `wl_display.sync` request; its callback is done once the compositor
    /// has handled everything sent before it.
    public func sync() -> WlCallback {
        WlCallback(adopting: displayConstructor(opcode: 0, WlCallback.self), version: 1, owner: handle)
    }

    /// Sends a `wl_display` request whose only argument is a new object.
    private func displayConstructor<T: WaylandProxy>(opcode: UInt32, _ type: T.Type) -> OpaquePointer {
        var args = [wl_argument](repeating: wl_argument(), count: 1)
        args[0].n = 0
        let p = args.withUnsafeMutableBufferPointer {
            wl_proxy_marshal_array_flags(display, opcode, T.interfacePointer, 1, 0, $0.baseAddress)
        }
        guard let p else { fatalError("libwayland could not allocate a \(T.interfaceName)") }
        return p
    }

    /// Sends what is buffered. When the socket is full, waits up to `timeout`
    /// seconds (nil: ``stallTimeout``) for room, so a large burst of requests is
    /// never lost; past that the compositor has stalled.
    public func flush(timeout: Double? = nil) throws(WaylandError) {
        try flush(timeout: timeout ?? stallTimeout, readingOnHangUp: true)
    }

    /// `flush`; when the compositor has hung up (it does after sending a protocol
    /// error), reads what it sent first, so the error says what it was — unless
    /// the caller is in the middle of a read of its own.
    private func flush(timeout: Double, readingOnHangUp: Bool) throws(WaylandError) {
        let deadline = MonotonicClock.now + timeout
        while wl_display_flush(display) < 0 {
            guard errno == EAGAIN else {
                if errno == EPIPE && readingOnHangUp { readAfterHangUp() }
                throw connectionError()
            }
            let left = deadline - MonotonicClock.now
            guard left > 0 else { throw .compositorStalled(seconds: timeout) }
            var p = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32(left * 1000))
        }
        handle.needsFlush = false
    }

    /// Dispatches events already read, without blocking.
    @discardableResult
    public func dispatchPending() throws(WaylandError) -> Int {
        let n = wl_display_dispatch_pending(display)
        if n < 0 { throw connectionError() }
        return Int(n)
    }

    /// Flushes, waits up to `timeout` seconds (nil: forever) for events, reads and
    /// dispatches them. Returns the number of events dispatched.
    @discardableResult
    public func dispatch(timeout: Double?) throws(WaylandError) -> Int {
        var dispatched = 0
        while wl_display_prepare_read(display) != 0 {
            dispatched += try dispatchPending()
        }
        if dispatched > 0 {
            wl_display_cancel_read(display)
            try flush()
            return dispatched
        }
        do { try flush(timeout: stallTimeout, readingOnHangUp: false) } catch {
            wl_display_cancel_read(display)
            guard case .disconnected(EPIPE) = error else { throw error }
            readAfterHangUp()
            throw connectionError()
        }
        var fds = [pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: mailbox.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        let ms = timeout.map { Int32(max(0, min(Double(Int32.max), ($0 * 1000).rounded(.up)))) } ?? -1
        let ready = poll(&fds, 2, ms)
        if ready > 0 && fds[0].revents != 0 {
            if wl_display_read_events(display) < 0 { throw connectionError() }
        } else {
            wl_display_cancel_read(display)
            if ready < 0 && errno != EINTR { throw connectionError() }
        }
        dispatched = try dispatchPending()
        mailbox.runPosted(signalled: fds[1].revents != 0)
        return dispatched
    }

    /// Waits until the compositor has handled every request sent so far and its
    /// replies are dispatched (`wl_display_roundtrip`, with a time limit).
    public func roundtrip(timeout: Double = 5) throws(WaylandError) {
        var done = false
        let callback = sync()
        callback.onEvent = { _ in done = true }
        let deadline = MonotonicClock.now + timeout
        while !done {
            let left = deadline - MonotonicClock.now
            guard left > 0 else { throw .timedOut("a round trip to the compositor") }
            try dispatch(timeout: left)
        }
    }

    /// Dispatches until `condition` holds, or throws after `timeout` seconds.
    public func dispatch(until condition: () -> Bool, timeout: Double, what: String = "the compositor") throws(WaylandError) {
        let deadline = MonotonicClock.now + timeout
        while !condition() {
            let left = deadline - MonotonicClock.now
            guard left > 0 else { throw .timedOut(what) }
            try dispatch(timeout: left)
        }
    }

    /// Reads and dispatches what the compositor sent before closing the socket: a
    /// protocol error arrives as an event just before the hang-up, and libwayland
    /// keeps it only once it is read.
    private func readAfterHangUp() {
        while wl_display_prepare_read(display) != 0 {
            if wl_display_dispatch_pending(display) < 0 { return }
        }
        var p = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        if poll(&p, 1, 100) > 0 {
            _ = wl_display_read_events(display)
        } else {
            wl_display_cancel_read(display)
        }
        _ = wl_display_dispatch_pending(display)
    }

    /// The error that ended the connection, if any: a protocol error with the
    /// interface, object id, code and the compositor's message, or a broken connection.
    public var error: WaylandError? {
        let e = wl_display_get_error(display)
        guard e != 0 else { return nil }
        return connectionError()
    }

    private func connectionError() -> WaylandError {
        let e = wl_display_get_error(display)
        if e == EPROTO {
            var iface: UnsafePointer<wl_interface>?
            var id: UInt32 = 0
            let code = wl_display_get_protocol_error(display, &iface, &id)
            let name = iface.map { String(cString: $0.pointee.name) } ?? "unknown"
            return .protocolError(interface: name, objectID: id, code: code, message: LogCapture.lastMessage ?? "")
        }
        // libwayland fails a connection with EAGAIN when its buffer is full and the
        // socket stays full: the compositor stopped reading, it did not hang up.
        if e == EAGAIN || handle.stalled { return .compositorStalled(seconds: handle.stallTimeout) }
        return .disconnected(errno: e != 0 ? e : errno)
    }

    /// How long requests wait for a compositor that reads none (its socket is full:
    /// it is stopped, or busy) before the connection fails with
    /// ``WaylandError/compositorStalled(seconds:)``. 10 s by default.
    public var stallTimeout: Double {
        get { handle.stallTimeout }
        set { handle.stallTimeout = newValue.isFinite && newValue >= 0 ? newValue : 10 }
    }

    /// Called when requests are queued on this connection, so the event loop
    /// driving it (`EventLoop.runAsync`) flushes them at the end of its turn.
    var flushScheduler: (@MainActor () -> Void)? {
        get { handle.flushScheduler }
        set { handle.flushScheduler = newValue }
    }
}

/// Captures libwayland's log lines, where the compositor's protocol error message ends up.
@MainActor
enum LogCapture {
    // libwayland has one log handler per process (`wl_log_set_handler_client`).
    static var lastMessage: String?
    private static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        wl_log_set_handler_client { format, args in
            guard let format, let args else { return }
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, args)
            let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingSuffix("\n")
            MainActor.assumeIsolated { LogCapture.lastMessage = text }
        }
    }
}

extension String {
    func trimmingSuffix(_ s: String) -> String { hasSuffix(s) ? String(dropLast(s.count)) : self }
}

/// The process environment.
enum ProcessEnvironment {
    static subscript(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}

/// Seconds on CLOCK_MONOTONIC (the same clock as LayerKit's default media clock).
public enum MonotonicClock {
    public static var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
