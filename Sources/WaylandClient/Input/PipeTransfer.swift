import Dispatch
import Glibc
import Synchronization

/// Reads or writes a pipe of the clipboard off the main thread — bounded in
/// bytes and in time, cancellable — and hands the result back to the main actor
/// through `deliver` (a connection's `post`, which wakes a dispatching or
/// sleeping event loop), so a slow or hostile other app never blocks the app.
public final class PipeTransfer: Sendable {
    public enum Failure: Error, Equatable, Sendable {
        /// More than the bound came; what came is dropped.
        case tooLarge(limit: Int)
        /// The other side neither finished nor closed in time.
        case timedOut(seconds: Double)
        case cancelled
        case failed(errno: Int32)
    }

    public typealias Deliver = @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void

    /// Runs on the main actor from the main dispatch queue.
    public static let onMainQueue: Deliver = { body in DispatchQueue.main.async { MainActor.assumeIsolated { body() } } }

    private let cancelled = Atomic<Bool>(false)
    private let done = Atomic<Bool>(false)

    /// True once it completed, failed or was cancelled.
    public var isFinished: Bool { done.load(ordering: .acquiring) }

    /// Stops it at its next wait; the completion gets `.cancelled` (unless it finished first).
    public func cancel() { cancelled.store(true, ordering: .releasing) }

    /// Reads `fd` to its end (then closes it): at most `limit` bytes within `timeout` seconds.
    @discardableResult
    public static func read(_ fd: Int32, limit: Int = 16 << 20, timeout: Double = 5, deliver: @escaping Deliver = onMainQueue,
                            completion: @escaping @MainActor @Sendable (Result<[UInt8], Failure>) -> Void) -> PipeTransfer {
        let t = PipeTransfer()
        DispatchQueue.global().async {
            let result = t.transfer(fd, events: Int16(POLLIN), timeout: timeout) { data in
                var chunk = [UInt8](repeating: 0, count: 65_536)
                let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                if n > 0 {
                    data += chunk[0..<n]
                    return data.count > limit ? .failure(.tooLarge(limit: limit)) : nil
                }
                if n == 0 { return .success(data) }
                return errno == EAGAIN || errno == EINTR ? nil : .failure(.failed(errno: errno))
            }
            t.finish(fd, result, deliver, completion)
        }
        return t
    }

    /// Writes `bytes` to `fd` (then closes it) within `timeout` seconds; a reader
    /// that goes away ends it with `.failed(EPIPE)`, never with a signal.
    @discardableResult
    public static func write(_ bytes: [UInt8], to fd: Int32, timeout: Double = 5, deliver: @escaping Deliver = onMainQueue,
                             completion: @escaping @MainActor @Sendable (Result<[UInt8], Failure>) -> Void = { _ in }) -> PipeTransfer {
        signal(SIGPIPE, SIG_IGN)   // a reader that closes early is an error here, not the end of the app
        let t = PipeTransfer()
        DispatchQueue.global().async {
            var offset = 0
            let result = t.transfer(fd, events: Int16(POLLOUT), timeout: timeout) { _ in
                let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if n > 0 { offset += n }
                if offset >= bytes.count { return .success(bytes) }
                return n < 0 && errno != EAGAIN && errno != EINTR ? .failure(.failed(errno: errno)) : nil
            }
            t.finish(fd, result, deliver, completion)
        }
        return t
    }

    /// Waits for `fd` and calls `step` until it returns a result, the time is up or
    /// the transfer is cancelled.
    private func transfer(_ fd: Int32, events: Int16, timeout: Double,
                          step: (inout [UInt8]) -> Result<[UInt8], Failure>?) -> Result<[UInt8], Failure> {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        let deadline = Self.now() + max(0, timeout)
        var data: [UInt8] = []
        while true {
            if cancelled.load(ordering: .acquiring) { return .failure(.cancelled) }
            let left = deadline - Self.now()
            if left <= 0 { return .failure(.timedOut(seconds: timeout)) }
            var p = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&p, 1, Int32(min(left, 0.05) * 1000) + 1)   // wakes now and then to see a cancel
            if ready < 0 && errno != EINTR { return .failure(.failed(errno: errno)) }
            if ready > 0, let result = step(&data) { return result }
        }
    }

    private func finish(_ fd: Int32, _ result: Result<[UInt8], Failure>, _ deliver: Deliver,
                        _ completion: @escaping @MainActor @Sendable (Result<[UInt8], Failure>) -> Void) {
        close(fd)
        done.store(true, ordering: .releasing)
        deliver { completion(result) }
    }

    private static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
