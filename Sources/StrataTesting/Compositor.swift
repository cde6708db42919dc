import Glibc
import PixmanRender
import Strata
import WaylandClient

/// A Wayland compositor a test or a probe talks to: one started headless for the
/// run (`HeadlessWeston`, `HeadlessSway`), or one already running
/// (``AttachedCompositor``). Each stops what it started.
@MainActor
public protocol Compositor: AnyObject {
    /// A short name: `weston`, `sway`, or what `WAYLAND_DISPLAY` names.
    var name: String { get }
    /// The socket clients connect to (a name in ``runtimeDirectory``, or a path).
    var socketName: String { get }
    var runtimeDirectory: String { get }
    /// Connects a new client.
    func connect() throws(WaylandError) -> Display
    /// The whole output as the compositor shows it, where it can capture.
    func screenshot(timeout: Double) throws(CompositorError) -> RenderedImage
    /// Stops it, if this process started it. Safe to call more than once.
    func stop()
    /// Input injected into its seat that reaches clients (kwin's fake input,
    /// mutter's RemoteDesktop), made on first use and kept; throws
    /// ``InputUnavailable`` naming what is missing where there is none.
    func injectedInput() throws -> InjectedInput
    /// Starts a client program of this compositor, in its runtime directory,
    /// and returns at once: its process and the log its output goes to (there too).
    /// `WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR` and the compositor's session bus,
    /// where it has one, are set; `environment` adds to them.
    func startClient(_ arguments: [String], environment: [String: String]) throws(CompositorError) -> (process: Subprocess, logPath: String)
    /// The toplevel windows on screen, with their places, titles and app ids,
    /// where the compositor can tell (sway's IPC, kwin's scripting); nil where
    /// it cannot (weston, cage, mutter without GNOME Shell).
    func windows() throws(CompositorError) -> [ScreenWindow]?
    /// Asks the compositor to close a window as its close button would; false
    /// where the compositor offers no way to.
    func closeWindow(_ window: ScreenWindow) throws(CompositorError) -> Bool
    /// True for a kiosk (cage): every window fills the output, so a window
    /// found on the screen is the whole screen.
    var fillsOutputWithEveryWindow: Bool { get }
    /// The keys the compositor closes the focused window with by default (alt+F4
    /// for GNOME's and KDE's), typed through its injected keyboard where it can
    /// close a window no other way; nil where it binds none (wlroots-based ones).
    var closeWindowKeys: (key: String, modifiers: [String])? { get }
}

extension Compositor {
    public func injectedInput() throws -> InjectedInput {
        throw InputUnavailable(description: "\(name) offers no input injection that reaches clients (kwin's fake input, mutter's RemoteDesktop and wlroots' virtual pointer do)")
    }

    public func startClient(_ arguments: [String], environment: [String: String] = [:]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        try spawnClient(arguments, environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName].merging(environment) { $1 },
                        logDirectory: runtimeDirectory)
    }

    public func windows() throws(CompositorError) -> [ScreenWindow]? { nil }

    /// Starts a client as ``startClient(_:environment:)`` does, in `directory`
    /// rather than the runtime directory (a user's relative paths mean theirs).
    public func startClient(_ arguments: [String], environment: [String: String], inDirectory directory: String) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        try startClient(["env", "-C", directory] + arguments, environment: environment)
    }

    public func closeWindow(_ window: ScreenWindow) throws(CompositorError) -> Bool { false }

    public var fillsOutputWithEveryWindow: Bool { false }

    public var closeWindowKeys: (key: String, modifiers: [String])? { ("F4", ["alt"]) }
}

/// Starts a client (it gets SIGTERM if this process dies first), its output to
/// a new log in `logDirectory` named after the program.
func spawnClient(_ arguments: [String], environment: [String: String], logDirectory: String,
                 wrap: ([String]) -> [String] = { ["setpriv", "--pdeathsig", "TERM", "--"] + $0 }) throws(CompositorError) -> (process: Subprocess, logPath: String) {
    guard let program = arguments.first else { throw .launchFailed(command: "(no program)", errno: EINVAL) }
    let log = logDirectory + "/client-\(Int(now() * 1000))-\(program.split(separator: "/").last.map(String.init) ?? "").log"
    let p = try Subprocess.spawn(wrap(arguments), environment: environment, directory: logDirectory, logPath: log)
    return (p, log)
}

extension HeadlessWeston: Compositor {
    public var name: String { "weston" }
}

extension HeadlessSway: Compositor {
    public var name: String { "sway" }
}

/// The compositor of the session this process runs in (`WAYLAND_DISPLAY`,
/// `XDG_RUNTIME_DIR`), attached to rather than started: stopping it does nothing.
@MainActor
public final class AttachedCompositor: Compositor {
    public let socketName: String
    public let runtimeDirectory: String
    public var name: String { socketName }

    /// Attaches to `socket` (default: `WAYLAND_DISPLAY`); throws `.unreachable`,
    /// naming the socket and runtime directory, when nothing answers there.
    public init(socket: String? = nil) throws(CompositorError) {
        let env = { (n: String) in getenv(n).map { String(cString: $0) } }
        guard let socket = socket ?? env("WAYLAND_DISPLAY") else {
            throw .unreachable(socket: "(WAYLAND_DISPLAY unset)", runtimeDirectory: env("XDG_RUNTIME_DIR") ?? "", reason: "no compositor named")
        }
        socketName = socket
        runtimeDirectory = env("XDG_RUNTIME_DIR") ?? ""
        do {
            _ = try Display(socket: socket, timeout: 2)
        } catch {
            throw .unreachable(socket: socket, runtimeDirectory: runtimeDirectory, reason: "\(error)")
        }
    }

    public func connect() throws(WaylandError) -> Display { try Display(socket: socketName) }

    /// Captures the compositor's output through the capture protocol it offers
    /// (``captureThroughProtocols(socketName:runtimeDirectory:timeout:wrap:)``).
    public func screenshot(timeout: Double) throws(CompositorError) -> RenderedImage {
        let dir = try makePrivateDirectory("capture")
        defer { removeTree(dir) }
        return try captureThroughProtocols(socketName: socketName, runtimeDirectory: runtimeDirectory, in: dir, timeout: timeout)
    }

    /// kwin's fake input, when the compositor offers it.
    public func injectedInput() throws -> InjectedInput {
        if let fakeInput { return fakeInput }
        let made = try KWinFakeInput(socketPath: socketName, compositorName: socketName)
        fakeInput = made
        return made
    }
    private var fakeInput: KWinFakeInput?

    public func stop() {}
}

/// What a compositor offers a client: its globals and their versions, read as
/// features (rule: tests require or skip a feature with a stated reason).
public struct CompositorCapabilities: Sendable, CustomStringConvertible {
    /// Every global's interface and the highest version offered.
    public let globals: [String: UInt32]
    /// What the compositor's seats can do (pointer, keyboard, touch).
    public let seatCapabilities: WlSeat.Capability

    /// Reads them from a connected display (after its first round trips).
    @MainActor
    public init(_ display: Display) {
        var g: [String: UInt32] = [:]
        for global in display.registry.globals.values { g[global.interface] = max(g[global.interface] ?? 0, global.version) }
        globals = g
        seatCapabilities = display.seats.values.reduce(WlSeat.Capability()) { $0.union($1.capabilities) }
    }

    public func offers(_ interface: String) -> Bool { globals[interface] != nil }

    /// A feature a test may need, and the globals that provide it.
    public enum Feature: String, CaseIterable, Sendable {
        case xdgShell = "xdg-shell"
        case serverSideDecorations = "server-side decorations"
        case presentationFeedback = "presentation feedback"
        case viewporter
        case fractionalScale = "fractional scale"
        case cursorShape = "cursor shape"
        case seat
        case clipboard
        case primarySelection = "primary selection"
        case activation
        case textInput = "text input"
        case screencopy = "output capture"
        case virtualKeyboard = "virtual keyboard"
        case virtualPointer = "virtual pointer"

        /// The globals any one of which provides the feature.
        public var interfaces: [String] {
            switch self {
            case .xdgShell: ["xdg_wm_base"]
            case .serverSideDecorations: ["zxdg_decoration_manager_v1", "org_kde_kwin_server_decoration_manager"]
            case .presentationFeedback: ["wp_presentation"]
            case .viewporter: ["wp_viewporter"]
            case .fractionalScale: ["wp_fractional_scale_manager_v1"]
            case .cursorShape: ["wp_cursor_shape_manager_v1"]
            case .seat: ["wl_seat"]
            case .clipboard: ["wl_data_device_manager"]
            case .primarySelection: ["zwp_primary_selection_device_manager_v1"]
            case .activation: ["xdg_activation_v1"]
            case .textInput: ["zwp_text_input_manager_v3"]
            case .screencopy: ["zwlr_screencopy_manager_v1", "ext_image_copy_capture_manager_v1", "weston_screenshooter"]
            case .virtualKeyboard: ["zwp_virtual_keyboard_manager_v1"]
            case .virtualPointer: ["zwlr_virtual_pointer_manager_v1", "org_kde_kwin_fake_input"]
            }
        }
    }

    public func has(_ feature: Feature) -> Bool { feature.interfaces.contains(where: offers) }

    /// Why a test that needs `features` cannot run here, or nil when it can.
    public func missing(_ features: [Feature]) -> String? {
        let absent = features.filter { !has($0) }
        guard !absent.isEmpty else { return nil }
        return "the compositor offers no " + absent.map { "\($0.rawValue) (\($0.interfaces.joined(separator: " or ")))" }.joined(separator: ", ")
    }

    /// Whether a missing feature skips a test (the default) or fails it:
    /// `STRATA_STRICT=1` makes every skip a failure, so a run on a compositor that
    /// should offer everything cannot pass by skipping.
    public static var isStrict: Bool { getenv("STRATA_STRICT").map { String(cString: $0) == "1" } ?? false }

    /// A feature a test needs is missing and skipping is not allowed (strict mode).
    public struct FeatureUnavailable: Error, CustomStringConvertible {
        public let description: String
    }

    /// For a test that needs `features`: nil when all are offered, else the reason
    /// to skip — or, in strict mode (``isStrict``, or `strict`), a thrown error.
    public func skipReason(for features: [Feature], strict: Bool = CompositorCapabilities.isStrict) throws(FeatureUnavailable) -> String? {
        guard let reason = missing(features) else { return nil }
        if strict { throw FeatureUnavailable(description: reason + " (strict mode: a missing feature fails)") }
        return reason
    }

    /// One line per feature (yes/no), then every global with its version.
    public var description: String {
        let features = Feature.allCases.map { "\(has($0) ? "yes" : "no ")  \($0.rawValue)" }
        let list = globals.keys.sorted().map { "  \($0) v\(globals[$0]!)" }
        return (features + ["globals:"] + list).joined(separator: "\n")
    }
}

/// Runs a capture tool (`grim`, `weston-screenshooter`) in `directory`, waits for
/// it (at most `timeout`), and reads the PNG it wrote there (then removes it).
@MainActor
func captureScreen(_ command: [String], environment: [String: String], in directory: String,
                   timeout: Double) throws(CompositorError) -> RenderedImage {
    let before = Set(listDirectory(directory))
    let log = directory + "/capture-\(Int(now() * 1000)).log"
    let p = try Subprocess.spawn(command, environment: environment, directory: directory, logPath: log)
    defer { unlink(log) }
    guard let status = waitKeepingAppAlive(p, timeout: timeout) else {
        p.terminate()
        throw .screenshotFailed("\(command.last { !$0.hasPrefix("/") } ?? command[0]) did not finish in \(timeout) s")
    }
    guard status == 0, let file = listDirectory(directory).first(where: { $0.hasSuffix(".png") && !before.contains($0) }) else {
        throw .screenshotFailed("capture exited with \(status): \(tail(of: log))")
    }
    defer { unlink(directory + "/" + file) }
    do { return try RenderedImage(contentsOfFile: directory + "/" + file) } catch { throw .screenshotFailed("\(error)") }
}

/// Captures a compositor's output through the capture protocol it offers:
/// `ext-image-copy-capture-v1` in this process (``ImageCopyCapture``), else
/// `grim` for wlroots' screencopy, `weston-screenshooter` for weston's (run
/// through `wrap`, as the compositor's user, writing into `directory`); an
/// error naming what is missing otherwise.
@MainActor
func captureThroughProtocols(socketName: String, runtimeDirectory: String, in dir: String, timeout: Double,
                             wrap: ([String]) -> [String] = { $0 }) throws(CompositorError) -> RenderedImage {
    let socket = socketName.hasPrefix("/") ? socketName : runtimeDirectory + "/" + socketName
    let display: Display
    do { display = try Display(socket: socket) } catch {
        throw .screenshotFailed("cannot connect to \(socketName): \(error)")
    }
    if ImageCopyCapture.isOffered(by: display) { return try ImageCopyCapture.capture(display, timeout: timeout) }
    let globals = CompositorCapabilities(display).globals
    let command: [String]
    if globals["zwlr_screencopy_manager_v1"] != nil {
        command = ["grim", dir + "/shot.png"]
    } else if globals["weston_screenshooter"] != nil {
        command = ["weston-screenshooter"]
    } else {
        throw .screenshotFailed("\(socketName) offers no capture protocol this kit speaks (ext-image-copy-capture, wlroots screencopy or weston's screenshooter)")
    }
    return try captureScreen(wrap(["env", "WAYLAND_DISPLAY=\(socketName)", "XDG_RUNTIME_DIR=\(runtimeDirectory)"] + command),
                             environment: [:], in: dir, timeout: timeout)
}

/// Waits for a capture tool (at most `timeout`) while the app in this process,
/// if one is connected, keeps answering its compositor: a capture can take
/// seconds on a loaded machine, and mutter takes a client that leaves its pings
/// unanswered for five for a hung one (and then drops its input).
@MainActor
func waitKeepingAppAlive(_ process: Subprocess, timeout: Double) -> Int32? {
    guard let loop = Application.shared.loop else { return process.wait(timeout: timeout) }
    let deadline = now() + timeout
    while true {
        if let status = process.wait(timeout: 0) { return status }
        guard now() < deadline else { return nil }
        _ = try? loop.turn(timeout: 0.02)
    }
}
