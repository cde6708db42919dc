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
    public nonisolated static let user = WlrootsSession.user
    public let width: Int
    public let height: Int
    public var runtimeDirectory: String { session.runtimeDirectory }
    /// The socket sway chose (`wayland-N`).
    public var socketName: String { session.socketName }
    public var logPath: String { runtimeDirectory + "/sway.log" }
    private var session: WlrootsSession
    private var process: Subprocess?

    public init(width: Int = 640, height: Int = 480, timeout: Double = 15) throws(CompositorError) {
        self.width = width
        self.height = height
        session = try WlrootsSession(prefix: "sway")
        let config = """
            output HEADLESS-1 resolution \(width)x\(height) position 0 0
            output * bg #102030 solid_color
            xwayland disable
            default_border none
            default_floating_border none
            focus_follows_mouse no

            """
        writeText(config, to: session.runtimeDirectory + "/config")
        process = try session.launch(["sway", "-c", session.runtimeDirectory + "/config"], logPath: session.runtimeDirectory + "/sway.log", timeout: timeout)
    }

    isolated deinit { stop() }

    public var socketPath: String { session.socketPath }

    public func connect() throws(WaylandError) -> Display {
        try Display(socket: socketPath)
    }

    /// A pointer and keyboard through wlroots' virtual devices (``WlrootsVirtualInput``).
    public func injectedInput() throws -> InjectedInput {
        if let virtualInput { return virtualInput }
        let made = try WlrootsVirtualInput(socketPath: socketPath, width: width, height: height, compositorName: name)
        virtualInput = made
        return made
    }
    private var virtualInput: WlrootsVirtualInput?

    /// wlroots-based compositors bind no keys to close a window by default.
    public var closeWindowKeys: (key: String, modifiers: [String])? { nil }

    /// Captures the output with `grim`.
    public func screenshot(timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        try session.screenshot(timeout: timeout)
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

    /// The type of the first node in ``tree()`` whose JSON has `member` (such as
    /// `"name": "Open"`): `con` for a tiled window, `floating_con` for a floating
    /// one (a child window: a dialog with a parent); nil when there is none.
    public func nodeType(with member: String) throws(CompositorError) -> String? {
        let tree = try tree()
        guard let node = tree.firstRange(of: member) else { return nil }
        // Each node's own type comes before its other members in sway's JSON, and
        // the objects in between (its rectangles) have no type.
        guard let type = tree[..<node.lowerBound].ranges(of: "\"type\": \"").last else { return nil }
        return String(tree[type.upperBound...].prefix { $0 != "\"" })
    }

    private func swaymsg(_ arguments: [String], timeout: Double, lines: Int = 50) throws(CompositorError) -> (status: Int32?, output: String) {
        guard let ipc = listDirectory(runtimeDirectory).first(where: { $0.hasPrefix("sway-ipc.") }) else {
            throw .notReady("no sway IPC socket in \(runtimeDirectory)")
        }
        let log = runtimeDirectory + "/swaymsg-\(Int(now() * 1000)).log"
        let p = try Subprocess.spawn(WlrootsSession.asUser(["env", "SWAYSOCK=\(runtimeDirectory)/\(ipc)", "swaymsg"] + arguments),
                                     environment: [:], directory: runtimeDirectory, logPath: log)
        let status = p.wait(timeout: timeout)
        if status == nil { p.terminate() }
        return (status, tail(of: log, lines: lines))
    }

    /// Runs a client of this sway (as ``user`` when root), e.g. `["wtype", "hello"]`
    /// to type through a virtual keyboard. Returns its exit status and output.
    @discardableResult
    public func runClient(_ arguments: [String], timeout: Double = 10) throws(CompositorError) -> (status: Int32?, output: String) {
        try session.runClient(arguments, timeout: timeout)
    }

    /// Starts a client of this sway and returns at once, with where its output goes
    /// (for clients whose effect the caller must dispatch events to see, as `wtype`'s keys).
    public func startClient(_ arguments: [String], environment: [String: String] = [:]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        try session.startClient(arguments, environment: environment)
    }

    public func stop() {
        process?.terminate()
        process = nil
        removeTree(runtimeDirectory)
    }
}
