import Glibc

/// A private D-Bus session bus for one compositor (kwin, mutter: both serve
/// their test interfaces on it), at `unix:path=DIRECTORY/bus`, killed with
/// this process if it dies first.
@MainActor
struct SessionBus {
    let address: String
    private var process: Subprocess?

    init(in directory: String) throws(CompositorError) {
        address = "unix:path=\(directory)/bus"
        process = try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--", "dbus-daemon", "--session", "--nofork", "--address=\(address)"],
                                       environment: [:], directory: directory, logPath: directory + "/dbus.log")
    }

    mutating func stop() {
        process?.terminate()
        process = nil
    }
}

/// Waits (at most `timeout` seconds) until `socketPath` exists; throws
/// `.notReady` with the end of `logPath` when the process exits first or time
/// runs out. The caller stops what it started.
func waitForSocket(_ socketPath: String, of process: Subprocess, timeout: Double, logPath: String) throws(CompositorError) {
    let deadline = now() + timeout
    while access(socketPath, F_OK) != 0 {
        if process.wait(timeout: 0) != nil { throw .notReady(tail(of: logPath)) }
        guard now() < deadline else { throw .notReady("no socket after \(timeout) s; " + tail(of: logPath)) }
        usleep(20_000)
    }
}
