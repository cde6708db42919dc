import Glibc

/// A private D-Bus session bus (`dbus-daemon --session`) at
/// `unix:path=DIRECTORY/bus`, killed with this process if it dies first: for
/// one compositor (kwin and mutter serve their test interfaces on it), or for a
/// test of a session service (a notification daemon driven by `notify-send`).
@MainActor
public struct SessionBus {
    /// What `DBUS_SESSION_BUS_ADDRESS` is for its clients.
    public let address: String
    private let directory: String
    private var process: Subprocess?

    /// Starts the bus and waits (at most `timeout` seconds) until it accepts
    /// connections: its socket file exists a moment before it listens, and a
    /// client connecting in between is refused. Services the bus starts on
    /// demand (a portal, dconf) get this process's environment plus `environment`.
    public init(in directory: String, environment: [String: String] = [:], timeout: Double = 10) throws(CompositorError) {
        address = "unix:path=\(directory)/bus"
        self.directory = directory
        let process = try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--", "dbus-daemon", "--session", "--nofork", "--address=\(address)"],
                                           environment: environment, directory: directory, logPath: directory + "/dbus.log")
        self.process = process
        let path = directory + "/bus"
        _ = try waitForSocket(of: process, timeout: timeout, logPath: directory + "/dbus.log") { Self.accepts(path) ? path : nil }
    }

    /// Whether something listens at the Unix socket `path`.
    private static func accepts(_ path: String) -> Bool {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// Calls `method` (`interface.member`) on `destination`'s object at `path` with
    /// `gdbus`, as a desktop's tools do, waiting at most `timeout` seconds (the bus
    /// may first start the service): its exit status, nil when it did not end
    /// (then it is stopped), and the last lines it printed. `onBusAt`: another
    /// bus's address (the accessibility bus at-spi's launcher names).
    public func call(_ destination: String, _ path: String, _ method: String, _ arguments: [String] = [],
                     timeout: Double = 30, environment: [String: String] = [:], onBusAt other: String? = nil) throws(CompositorError) -> (status: Int32?, output: String) {
        let log = directory + "/gdbus-call.log"
        let p = try Subprocess.spawn(["gdbus", "call", "--address", other ?? address, "--timeout", "\(Int(timeout.rounded(.up)))", "--dest", destination,
                                      "--object-path", path, "--method", method] + arguments,
                                     environment: environment, directory: directory, logPath: log)
        let status = p.wait(timeout: timeout + 10)
        if status == nil { p.terminate() }
        return (status, tail(of: log, lines: 5))
    }

    /// Ends the bus and what it started that would outlive it: at-spi2-core's
    /// accessibility bus (its dbus-daemon ignores SIGTERM) and registry keep
    /// running after the session bus is gone (other services exit with it).
    /// They are told by this bus's directory in their environment.
    public mutating func stop() {
        process?.terminate()
        process = nil
        let marker = Array("/\(directory.split(separator: "/").last ?? "")/".utf8), atSpi = Array("at-spi".utf8)
        for name in listDirectory("/proc") {
            guard let pid = pid_t(name), pid != getpid(), Self.contents(of: "/proc/\(name)/cmdline").contains(atSpi),
                  Self.contents(of: "/proc/\(name)/environ").contains(marker) else { continue }
            kill(pid, SIGKILL)
        }
    }

    /// A file's bytes (a process's environment: NUL-separated `NAME=value`).
    private static func contents(of path: String) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(fd, &buffer, buffer.count)
            if n <= 0 { return bytes }
            bytes += buffer[..<n]
        }
    }
}
