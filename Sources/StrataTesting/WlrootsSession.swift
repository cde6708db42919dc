import Glibc
import PixmanRender
import WaylandClient

/// What the wlroots compositors here (sway, cage) — and compositors started
/// from a command line (``CommandCompositor``) — share when run headless for
/// tests: the environment (headless backend, pixman renderer, no input
/// devices), a private runtime directory, running as an unprivileged user when
/// this process is root (neither runs as root), waiting for the socket, clients
/// started inside the session, and screenshots through screencopy with `grim`.
@MainActor
struct WlrootsSession {
    /// The unprivileged user the compositors run as when the tests run as root.
    nonisolated static let user = "strata-test"
    let runtimeDirectory: String
    /// The socket the compositor chose (`wayland-N`).
    private(set) var socketName = ""

    /// A new private runtime directory, handed to ``user`` when root.
    init(prefix: String) throws(CompositorError) {
        runtimeDirectory = try makePrivateDirectory(prefix)
    }

    /// Starts `command` (the compositor) in the session and waits, at most
    /// `timeout`, for its socket; the log's tail comes with any failure.
    mutating func launch(_ command: [String], logPath: String, timeout: Double) throws(CompositorError) -> Subprocess {
        try Self.handOver(runtimeDirectory)
        let process = try Subprocess.spawn(Self.asUser(["env", "XDG_RUNTIME_DIR=\(runtimeDirectory)", "HOME=\(runtimeDirectory)",
                                                        "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1"] + command),
                                           environment: [:], directory: runtimeDirectory, logPath: logPath)
        // The compositor picks its socket's name (`wayland-N`).
        do {
            socketName = try waitForSocket(of: process, timeout: timeout, logPath: logPath) { [runtimeDirectory] in
                listDirectory(runtimeDirectory).first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            }
        } catch {
            process.terminate()
            removeTree(runtimeDirectory)
            throw error
        }
        usleep(300_000)
        return process
    }

    var socketPath: String { runtimeDirectory + "/" + socketName }

    /// Starts a client in the session (as ``user`` when root) and returns at once, with where its output goes.
    func startClient(_ arguments: [String], environment: [String: String] = [:]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        // The variables go on `env`'s command line, so they reach the program through runuser.
        let variables = ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName].merging(environment) { $1 }
        return try spawnClient(arguments, environment: [:], logDirectory: runtimeDirectory) { arguments in
            Self.asUser(["env"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" } + arguments)
        }
    }

    /// Runs a client in the session to its end (or `timeout`): its exit status and output.
    func runClient(_ arguments: [String], timeout: Double) throws(CompositorError) -> (status: Int32?, output: String) {
        let (p, log) = try startClient(arguments)
        let status = p.wait(timeout: timeout)
        if status == nil { p.terminate() }
        return (status, tail(of: log, lines: 50))
    }

    /// Captures the whole output with `grim` (screencopy), into the runtime directory ``user`` owns.
    func screenshot(timeout: Double) throws(CompositorError) -> RenderedImage {
        try captureScreen(Self.asUser(["env", "XDG_RUNTIME_DIR=\(runtimeDirectory)", "WAYLAND_DISPLAY=\(socketName)",
                                       "grim", runtimeDirectory + "/shot-\(Int(now() * 1000)).png"]),
                          environment: [:], in: runtimeDirectory, timeout: timeout)
    }

    /// As root, the command runs as ``user``; otherwise as is. Either way it gets
    /// SIGTERM if this process dies first (setpriv), so no compositor outlives a test run.
    static func asUser(_ command: [String]) -> [String] {
        ["setpriv", "--pdeathsig", "TERM", "--"] + (getuid() == 0 ? ["runuser", "-u", user, "--"] + command : command)
    }

    /// As root, gives the runtime directory (and what is in it) to ``user``; mode 0700.
    static func handOver(_ directory: String) throws(CompositorError) {
        chmod(directory, 0o700)
        guard getuid() == 0 else { return }
        guard let pw = getpwnam(user) else {
            throw .notReady("user '\(user)' is missing: run scripts/setup-system.sh (wlroots compositors do not run as root)")
        }
        chown(directory, pw.pointee.pw_uid, pw.pointee.pw_gid)
        for name in listDirectory(directory) { chown(directory + "/" + name, pw.pointee.pw_uid, pw.pointee.pw_gid) }
    }
}

/// A cage (wlroots' kiosk compositor) running headless for tests: every window
/// it shows fills its one 1280×720 output; no decorations are drawn by anyone but
/// the client; screenshots with `grim`. Cage lives as long as the program it was
/// started with: here a `sleep` that outlasts any test, so clients come and go.
@MainActor
public final class HeadlessCage: Compositor {
    public var name: String { "cage" }
    public var runtimeDirectory: String { session.runtimeDirectory }
    public var socketName: String { session.socketName }
    public var socketPath: String { session.socketPath }
    public var logPath: String { runtimeDirectory + "/cage.log" }
    public var fillsOutputWithEveryWindow: Bool { true }
    public var closeWindowKeys: (key: String, modifiers: [String])? { nil }
    private var session: WlrootsSession
    private var process: Subprocess?

    public init(timeout: Double = 15) throws(CompositorError) {
        session = try WlrootsSession(prefix: "cage")
        // The sleep goes with cage (else it outlives it by days).
        process = try session.launch(["cage", "--", "setpriv", "--pdeathsig", "KILL", "--", "sleep", "1000000"], logPath: runtimeDirectory + "/cage.log", timeout: timeout)
    }

    isolated deinit { stop() }

    public func connect() throws(WaylandError) -> Display { try Display(socket: socketPath) }

    public func screenshot(timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        try session.screenshot(timeout: timeout)
    }

    /// Starts a client of this cage (as ``HeadlessSway/user`` when root) and returns at once.
    public func startClient(_ arguments: [String], environment: [String: String] = [:]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        try session.startClient(arguments, environment: environment)
    }

    /// Runs a client of this cage to its end: its exit status and output.
    @discardableResult
    public func runClient(_ arguments: [String], timeout: Double = 10) throws(CompositorError) -> (status: Int32?, output: String) {
        try session.runClient(arguments, timeout: timeout)
    }

    public func stop() {
        process?.terminate()
        process = nil
        removeTree(runtimeDirectory)
    }
}
