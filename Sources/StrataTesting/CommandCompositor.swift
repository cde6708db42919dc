import Glibc
import PixmanRender
import WaylandClient

/// Any compositor, started from a command line for the run — one this kit has
/// no recipe for, or a built-in one started with options of your own:
///
/// ```
/// let c = try CommandCompositor(command: "weston --backend=headless-backend.so --debug --socket={socket}")
/// ```
///
/// `{socket}` becomes the socket's name and `{runtime}` the private runtime
/// directory; without `{socket}` the compositor names its socket itself
/// (`wayland-N`, as sway and labwc do). It runs like the wlroots recipes: a
/// private `XDG_RUNTIME_DIR`, the headless backend and pixman renderer for
/// wlroots (`WLR_BACKENDS`, `WLR_RENDERER`; other compositors ignore them), as
/// ``HeadlessSway/user`` when this process is root (sway refuses root), and
/// SIGTERM if this process dies. Captures go through the capture protocol the
/// compositor offers; input through wlroots' virtual pointer and keyboard
/// where it offers them (``WlrootsVirtualInput``).
@MainActor
public final class CommandCompositor: Compositor {
    /// The program's name (the command's first word).
    public let name: String
    public let command: [String]
    public var runtimeDirectory: String { session.runtimeDirectory }
    public var socketName: String { session.socketName }
    public var logPath: String { runtimeDirectory + "/compositor.log" }
    private var session: WlrootsSession
    private var process: Subprocess?

    /// Starts `command` (words split as a shell would split plain words and
    /// "quoted" or 'quoted' ones) and waits up to `timeout` seconds for its socket.
    public init(command line: String, timeout: Double = 20) throws(CompositorError) {
        var words = try Self.words(of: line)
        guard let first = words.first else { throw .launchFailed(command: "(an empty command)", errno: EINVAL) }
        name = String(first.split(separator: "/").last ?? Substring(first))
        session = try WlrootsSession(prefix: "command")
        let dir = session.runtimeDirectory
        words = words.map { $0.replacing("{socket}", with: "wayland-strata").replacing("{runtime}", with: dir) }
        command = words
        process = try session.launch(["env", "WAYLAND_DISPLAY=", "DISPLAY="] + words, logPath: dir + "/compositor.log", timeout: timeout)
    }

    isolated deinit { stop() }

    public var socketPath: String { session.socketPath }

    public func connect() throws(WaylandError) -> Display { try Display(socket: socketPath) }

    public func screenshot(timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        let dir = runtimeDirectory + "/capture-\(Int(now() * 1000))"
        mkdir(dir, 0o700)
        try WlrootsSession.handOver(dir)
        defer { removeTree(dir) }
        return try captureThroughProtocols(socketName: socketName, runtimeDirectory: runtimeDirectory, in: dir, timeout: timeout,
                                           wrap: WlrootsSession.asUser)
    }

    public func startClient(_ arguments: [String], environment: [String: String] = [:]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        try session.startClient(arguments, environment: environment)
    }

    /// wlroots' virtual pointer and keyboard, the pointer over the first output.
    public func injectedInput() throws -> InjectedInput {
        if let virtualInput { return virtualInput }
        let display = try connect()
        try display.connection.dispatch(until: { display.outputs.values.contains(where: \.isDescribed) }, timeout: 5, what: "an output")
        guard let output = display.outputs.values.first(where: \.isDescribed) else { throw InputUnavailable(description: "\(name) shows no output") }
        let size = output.shownSize
        let made = try WlrootsVirtualInput(socketPath: socketPath, width: Int(size.width / output.scale), height: Int(size.height / output.scale),
                                           compositorName: name)
        virtualInput = made
        return made
    }
    private var virtualInput: WlrootsVirtualInput?

    /// wlroots-based compositors bind no keys to close a window by default.
    public var closeWindowKeys: (key: String, modifiers: [String])? { nil }

    public func stop() {
        process?.terminate()
        process = nil
        removeTree(runtimeDirectory)
    }

    /// A command line's words: runs of non-blanks, "double" or 'single' quoted
    /// parts joined to them; an unterminated quote is an error.
    static func words(of line: String) throws(CompositorError) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for c in line {
            if let q = quote {
                if c == q { quote = nil } else { word!.append(c) }
            } else if c == "\"" || c == "'" {
                quote = c
                word = word ?? ""
            } else if c == " " || c == "\t" || c == "\n" {
                if let w = word { words.append(w) }
                word = nil
            } else {
                word = (word ?? "") + String(c)
            }
        }
        guard quote == nil else { throw .launchFailed(command: line + " (an unterminated quote)", errno: EINVAL) }
        if let w = word { words.append(w) }
        return words
    }
}
