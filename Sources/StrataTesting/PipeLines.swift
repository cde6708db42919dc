import Glibc

/// A pipe whose two ends close on exec (a child gets one of them only as the
/// descriptor it is handed): `[read end, write end]`.
func closeOnExecPipe() throws(CompositorError) -> [Int32] {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw .launchFailed(command: "pipe", errno: errno) }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    return fds
}

/// The lines a helper program writes into a pipe, read without waiting longer
/// than asked (the mutter helper's replies, the protocol harness's reports).
struct PipeLines {
    private(set) var fd: Int32
    private var pending: [UInt8] = []

    init(fd: Int32) { self.fd = fd }

    /// The next whole line, waiting at most `timeout` seconds for it; nil when
    /// none came in time or the writer is gone.
    mutating func next(timeout: Double) -> String? {
        let deadline = now() + timeout
        while true {
            if let newline = pending.firstIndex(of: 0x0a) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard fd >= 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(max(0, deadline - now()) * 1000)) > 0 else { return nil }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { return nil }
            pending += chunk[..<n]
        }
    }

    mutating func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }
}
