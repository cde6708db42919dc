import Glibc

/// Waits, at most `timeout` seconds, until `socket()` names the compositor's
/// socket, polling every 20 ms: the one wait every headless compositor here
/// starts with. A compositor that exits first, or a socket that never comes,
/// throws `.notReady` with the tail of its log.
@MainActor
func waitForSocket(of process: Subprocess, timeout: Double, logPath: String,
                   _ socket: () -> String?) throws(CompositorError) -> String {
    let deadline = now() + timeout
    while true {
        if let found = socket() { return found }
        if process.wait(timeout: 0) != nil { throw .notReady(tail(of: logPath)) }
        guard now() < deadline else { throw .notReady("no socket after \(timeout) s; " + tail(of: logPath)) }
        usleep(20_000)
    }
}

/// Waits for the socket at a known path (see the other form).
@MainActor
func waitForSocket(_ socketPath: String, of process: Subprocess, timeout: Double, logPath: String) throws(CompositorError) {
    _ = try waitForSocket(of: process, timeout: timeout, logPath: logPath) { access(socketPath, F_OK) == 0 ? socketPath : nil }
}
