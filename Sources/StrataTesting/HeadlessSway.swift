import Glibc
import PixmanRender
import WaylandClient

/// A sway (wlroots) running headless for tests: pixman renderer, no input devices,
/// no Xwayland, one output, its own runtime directory, screenshots with `grim`.
///
/// sway refuses to run as root: when the tests run as root it runs as the user
/// ``HeadlessSway/user`` (created by `scripts/setup-system.sh`), through `runuser`.
/// sway offers what weston 10 lacks: a seat, xdg-decoration, screencopy; and it
/// releases buffers late, which exercises the buffer pool's growth.
@MainActor
public final class HeadlessSway {
    /// The unprivileged user sway runs as when the tests run as root.
    public nonisolated static let user = "strata-test"
    public let width: Int
    public let height: Int
    public let runtimeDirectory: String
    /// The socket sway chose (`wayland-N`).
    public private(set) var socketName = ""
    public var logPath: String { runtimeDirectory + "/sway.log" }
    private var process: Subprocess?

    public init(width: Int = 640, height: Int = 480, timeout: Double = 15) throws(CompositorError) {
        self.width = width
        self.height = height
        var template = Array("/tmp/strata-sway-XXXXXX".utf8CString)
        guard let dir = mkdtemp(&template) else { throw .launchFailed(command: "mkdtemp", errno: errno) }
        runtimeDirectory = String(cString: dir)
        let config = """
            output HEADLESS-1 resolution \(width)x\(height) position 0 0
            output * bg #102030 solid_color
            xwayland disable
            default_border none
            default_floating_border none
            focus_follows_mouse no

            """
        writeText(config, to: runtimeDirectory + "/config")
        try Self.handOver(runtimeDirectory)
        process = try Subprocess.spawn(Self.asUser(["env", "XDG_RUNTIME_DIR=\(runtimeDirectory)", "HOME=\(runtimeDirectory)",
                                                    "WLR_BACKENDS=headless", "WLR_RENDERER=pixman", "WLR_LIBINPUT_NO_DEVICES=1",
                                                    "sway", "-c", runtimeDirectory + "/config"]),
                                       environment: [:], directory: runtimeDirectory, logPath: logPath)
        let deadline = now() + timeout
        while true {
            if let s = listDirectory(runtimeDirectory).first(where: { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }) {
                socketName = s
                break
            }
            if let p = process, p.wait(timeout: 0) != nil { process = nil; throw .notReady(tail(of: logPath)) }
            guard now() < deadline else { stop(); throw .notReady("no socket after \(timeout) s; " + tail(of: logPath)) }
            usleep(20_000)
        }
        usleep(300_000)
    }

    isolated deinit { stop() }

    public var socketPath: String { runtimeDirectory + "/" + socketName }

    public func connect() throws(WaylandError) -> Display {
        try Display(socket: socketPath)
    }

    /// Captures the output with `grim`.
    public func screenshot(timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        let path = runtimeDirectory + "/shot-\(Int(now() * 1000)).png"
        let p = try Subprocess.spawn(Self.asUser(["env", "XDG_RUNTIME_DIR=\(runtimeDirectory)", "WAYLAND_DISPLAY=\(socketName)", "grim", path]),
                                     environment: [:], directory: runtimeDirectory, logPath: runtimeDirectory + "/grim.log")
        guard p.wait(timeout: timeout) == 0 else {
            p.terminate()
            throw .screenshotFailed("grim: \(tail(of: runtimeDirectory + "/grim.log"))")
        }
        defer { unlink(path) }
        do { return try RenderedImage(contentsOfFile: path) } catch { throw .screenshotFailed("\(error)") }
    }

    /// Sends a command to sway over its IPC socket (`swaymsg`), e.g. `"kill"`,
    /// `"fullscreen enable"`, `"create_output"`. Returns swaymsg's exit status and output.
    @discardableResult
    public func command(_ command: String, timeout: Double = 10) throws(CompositorError) -> (status: Int32?, output: String) {
        try swaymsg([command], timeout: timeout)
    }

    /// The layout tree as sway's IPC reports it (`swaymsg -t get_tree`, JSON).
    public func tree(timeout: Double = 10) throws(CompositorError) -> String {
        try swaymsg(["-t", "get_tree"], timeout: timeout, lines: 1_000_000).output
    }

    private func swaymsg(_ arguments: [String], timeout: Double, lines: Int = 50) throws(CompositorError) -> (status: Int32?, output: String) {
        guard let ipc = listDirectory(runtimeDirectory).first(where: { $0.hasPrefix("sway-ipc.") }) else {
            throw .notReady("no sway IPC socket in \(runtimeDirectory)")
        }
        let log = runtimeDirectory + "/swaymsg-\(Int(now() * 1000)).log"
        let p = try Subprocess.spawn(Self.asUser(["env", "SWAYSOCK=\(runtimeDirectory)/\(ipc)", "swaymsg"] + arguments),
                                     environment: [:], directory: runtimeDirectory, logPath: log)
        let status = p.wait(timeout: timeout)
        if status == nil { p.terminate() }
        return (status, tail(of: log, lines: lines))
    }

    /// Runs a client of this sway (as ``user`` when root), e.g. `["wtype", "hello"]`
    /// to type through a virtual keyboard. Returns its exit status and output.
    @discardableResult
    public func runClient(_ arguments: [String], timeout: Double = 10) throws(CompositorError) -> (status: Int32?, output: String) {
        let (p, log) = try startClient(arguments)
        let status = p.wait(timeout: timeout)
        if status == nil { p.terminate() }
        return (status, tail(of: log, lines: 50))
    }

    /// Starts a client of this sway and returns at once, with where its output goes
    /// (for clients whose effect the caller must dispatch events to see, as `wtype`'s keys).
    public func startClient(_ arguments: [String]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        let log = runtimeDirectory + "/client-\(Int(now() * 1000)).log"
        let p = try Subprocess.spawn(Self.asUser(["env", "XDG_RUNTIME_DIR=\(runtimeDirectory)", "WAYLAND_DISPLAY=\(socketName)"] + arguments),
                                     environment: [:], directory: runtimeDirectory, logPath: log)
        return (p, log)
    }

    public func stop() {
        process?.terminate()
        process = nil
        removeTree(runtimeDirectory)
    }

    /// As root, the command runs as ``user``; otherwise as is. Either way it gets
    /// SIGTERM if this process dies first (setpriv), so no compositor outlives a test run.
    private static func asUser(_ command: [String]) -> [String] {
        ["setpriv", "--pdeathsig", "TERM", "--"] + (getuid() == 0 ? ["runuser", "-u", user, "--"] + command : command)
    }

    /// As root, gives the runtime directory to ``user`` (mode 0700).
    private static func handOver(_ directory: String) throws(CompositorError) {
        chmod(directory, 0o700)
        guard getuid() == 0 else { return }
        guard let pw = getpwnam(user) else {
            throw .notReady("user '\(user)' is missing: run scripts/setup-system.sh (sway does not run as root)")
        }
        chown(directory, pw.pointee.pw_uid, pw.pointee.pw_gid)
        for name in listDirectory(directory) { chown(directory + "/" + name, pw.pointee.pw_uid, pw.pointee.pw_gid) }
    }
}
