import Glibc
import PixmanRender
import WaylandClient

/// Why a compositor could not be started or used.
public enum CompositorError: Error, Equatable, CustomStringConvertible {
    case launchFailed(command: String, errno: Int32)
    /// It exited or never opened its socket; the end of its log says why.
    case notReady(String)
    case screenshotFailed(String)
    /// A compositor was named (`--socket`, `WAYLAND_DISPLAY`) but does not answer.
    case unreachable(socket: String, runtimeDirectory: String, reason: String)

    public var description: String {
        switch self {
        case let .unreachable(socket, dir, reason):
            "the compositor named \(socket) does not answer in \(dir) (\(reason)); start it, or unset WAYLAND_DISPLAY to use a headless weston"

        case let .launchFailed(c, e): "cannot start \(c): \(String(cString: strerror(e))) (is it installed?)"
        case .notReady(let log): "compositor did not start: \(log)"
        case .screenshotFailed(let why): "screenshot failed: \(why)"
        }
    }
}

/// A weston running headless for a test or a demo: pixman renderer, its own
/// runtime directory and socket, the debug protocols (screenshots) enabled, no
/// panel (so screenshots do not change with the clock), and a known background.
///
/// It is stopped — and its directory removed — by ``stop()`` or when the object
/// goes away, also when a test fails. Frame callbacks come at about 39 Hz on
/// weston 10's headless output, or ~57 Hz with `repaintWindow: 15`.
@MainActor
public final class HeadlessWeston {
    /// The background colour of the desktop, opaque.
    public static let backgroundRGB: (r: UInt8, g: UInt8, b: UInt8) = (0x10, 0x20, 0x30)

    public let width: Int
    public let height: Int
    /// The private `XDG_RUNTIME_DIR` (mode 0700).
    public let runtimeDirectory: String
    public let socketName: String
    /// Where weston's output goes.
    public var logPath: String { runtimeDirectory + "/weston.log" }
    private var process: Subprocess?

    /// Starts weston and waits (up to `timeout` seconds) for its socket. `width`
    /// and `height` are the output's logical size; with an integer `scale` it has
    /// `width·scale × height·scale` pixels (and screenshots that size).
    public init(width: Int = 640, height: Int = 480, scale: Int = 1, repaintWindow: Int? = nil, timeout: Double = 15) throws(CompositorError) {
        self.width = width
        self.height = height
        runtimeDirectory = try makePrivateDirectory("weston")
        socketName = "strata-test-0"
        let ini = """
            [core]
            idle-time=0
            \(repaintWindow.map { "repaint-window=\($0)" } ?? "")
            [shell]
            panel-position=none
            background-color=0xff\(Self.hex(Self.backgroundRGB.r))\(Self.hex(Self.backgroundRGB.g))\(Self.hex(Self.backgroundRGB.b))
            animation=none
            startup-animation=none
            close-animation=none
            focus-animation=none

            """
        let iniPath = runtimeDirectory + "/weston.ini"
        writeText(ini, to: iniPath)
        // setpriv: weston gets SIGTERM if this process dies without stopping it.
        process = try Subprocess.spawn(
            ["setpriv", "--pdeathsig", "TERM", "--", "weston", "--backend=headless-backend.so", "--use-pixman", "--debug", "--idle-time=0",
             "--socket=\(socketName)", "--width=\(width)", "--height=\(height)", "--scale=\(max(1, scale))", "--config=\(iniPath)"],
            environment: ["XDG_RUNTIME_DIR": runtimeDirectory], directory: runtimeDirectory, logPath: logPath)
        do {
            try waitForSocket(socketPath, of: process!, timeout: timeout, logPath: logPath)
        } catch {
            stop()
            throw error
        }
        // The shell client starts after the socket appears; give it a moment to map the background.
        usleep(300_000)
    }

    isolated deinit { stop() }

    /// The socket's absolute path: pass it to `Display(socket:)`.
    public var socketPath: String { runtimeDirectory + "/" + socketName }

    /// True while weston runs.
    public var isRunning: Bool { process.map { kill($0.pid, 0) == 0 && $0.wait(timeout: 0) == nil } ?? false }

    /// Connects a client.
    public func connect() throws(WaylandError) -> Display {
        try Display(socket: socketPath)
    }

    /// Captures the whole output with `weston-screenshooter`.
    public func screenshot(timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        let shotDir = runtimeDirectory + "/shots-\(Int(now() * 1000))"
        mkdir(shotDir, 0o700)
        defer { removeTree(shotDir) }
        return try captureScreen(["weston-screenshooter"], environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName],
                                 in: shotDir, timeout: timeout)
    }

    /// Runs a client program against this compositor (`WAYLAND_DISPLAY` and
    /// `XDG_RUNTIME_DIR` set) and waits up to `timeout` seconds for it to exit.
    /// Returns its exit status (nil if it had to be killed) and its output.
    public func runClient(_ arguments: [String], environment: [String: String] = [:],
                          timeout: Double = 30) throws(CompositorError) -> (status: Int32?, output: String) {
        let log = runtimeDirectory + "/client-\(Int(now() * 1000)).log"
        let p = try Subprocess.spawn(arguments, environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName]
                                        .merging(environment) { $1 },
                                     directory: nil, logPath: log)
        let status = p.wait(timeout: timeout)
        if status == nil { p.terminate() }
        return (status, tail(of: log, lines: 200))
    }

    /// Connects to the compositor at `socket` (or `WAYLAND_DISPLAY`). When neither
    /// names one, starts a headless weston and connects to it, so demos run
    /// anywhere (the weston is returned to keep it running); a named compositor
    /// that does not answer throws ``CompositorError/unreachable(socket:runtimeDirectory:reason:)``.
    public static func connectOrStart(socket: String? = nil, width: Int = 640, height: Int = 480) throws -> (Display, HeadlessWeston?) {
        let (display, started) = try ExampleCommandLine.connectOrStart(socket: socket) { try HeadlessWeston(width: width, height: height) }
        return (display, started as? HeadlessWeston)
    }

    /// weston's process id while it runs.
    public var processID: pid_t? { process?.pid }

    /// Stops weston without ending it (SIGSTOP), as a hung compositor is: it reads
    /// nothing until ``resume()``.
    public func pause() { if let p = process { kill(p.pid, SIGSTOP) } }

    /// Lets a paused weston go on (SIGCONT).
    public func resume() { if let p = process { kill(p.pid, SIGCONT) } }

    /// Kills weston at once (SIGKILL), as a crash would.
    public func crash() {
        guard let p = process else { return }
        kill(p.pid, SIGKILL)
        p.wait(timeout: 5)
        process = nil
    }

    /// Stops weston and removes its directory. Safe to call more than once.
    public func stop() {
        process?.terminate()
        process = nil
        removeTree(runtimeDirectory)
    }

    /// The last lines weston wrote.
    public func tailOfLog() -> String { tail(of: logPath) }

    private static func hex(_ v: UInt8) -> String {
        let s = String(v, radix: 16)
        return s.count == 1 ? "0" + s : s
    }
}

func writeText(_ text: String, to path: String) {
    guard let f = fopen(path, "w") else { return }
    fputs(text, f)
    fclose(f)
}

package func tail(of path: String, lines: Int = 8) -> String {
    guard let f = fopen(path, "r") else { return "(no log)" }
    defer { fclose(f) }
    var all: [String] = []
    var buf = [CChar](repeating: 0, count: 4096)
    while fgets(&buf, Int32(buf.count), f) != nil {
        all.append(String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return all.suffix(lines).joined()
}

package func listDirectory(_ path: String) -> [String] {
    guard let d = opendir(path) else { return [] }
    defer { closedir(d) }
    var names: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// A new directory `/tmp/strata-NAME-XXXXXX` only this user can enter (mkdtemp's mode 0700).
func makePrivateDirectory(_ name: String) throws(CompositorError) -> String {
    var template = Array("/tmp/strata-\(name)-XXXXXX".utf8CString)
    guard let dir = mkdtemp(&template) else { throw .launchFailed(command: "mkdtemp", errno: errno) }
    return String(cString: dir)
}

/// Removes a directory and the files and directories in it.
func removeTree(_ path: String) {
    for name in listDirectory(path) {
        let p = path + "/" + name
        var st = stat()
        if lstat(p, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { removeTree(p) } else { unlink(p) }
    }
    rmdir(path)
}
