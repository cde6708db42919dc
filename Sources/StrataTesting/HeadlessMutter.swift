import Glibc
import PixmanRender
import WaylandClient

/// GNOME's compositor, mutter 43, running headless for a test: a virtual
/// monitor (software rendering), its own session bus, runtime directory, home
/// and socket. GNOME offers no server-side decorations, so windows draw their
/// own (rule W1) — the reason to test here.
///
/// Input and capture go through mutter's D-Bus RemoteDesktop and ScreenCast
/// interfaces (``input()``), which need PipeWire (and WirePlumber to link a
/// stream to its reader). They start with mutter: its seat has a pointer and
/// keyboard only once a session made them, and a client that connects later
/// finds them there, as on a desktop with a mouse. A screenshot is one frame of the monitor's screen-cast stream read
/// with GStreamer's `pipewiresrc`. Everything is stopped by ``stop()`` or when the
/// object goes away, and killed if this process dies first.
@MainActor
public final class HeadlessMutter: Compositor {
    public var name: String { "mutter" }
    public let width: Int
    public let height: Int
    public let runtimeDirectory: String
    public let socketName = "strata-mutter-0"
    public var logPath: String { runtimeDirectory + "/mutter.log" }
    private var bus: SessionBus?
    private var process: Subprocess?
    private var media: [Subprocess] = []
    private var remote: MutterRemoteInput?
    /// What mutter and its helpers run with: this directory for everything
    /// (runtime, home, configuration), the private bus, no other display.
    private var environment: [String: String] = [:]

    /// Starts a session bus and mutter, and waits (up to `timeout` seconds) for its socket.
    public init(width: Int = 640, height: Int = 480, timeout: Double = 20) throws(CompositorError) {
        self.width = width
        self.height = height
        runtimeDirectory = try makePrivateDirectory("mutter")
        do {
            let home = runtimeDirectory + "/home"
            mkdir(home, 0o700)
            let session = ["XDG_RUNTIME_DIR": runtimeDirectory, "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                           "XDG_CACHE_HOME": home + "/cache", "GSETTINGS_BACKEND": "memory"]
            // What the bus starts (a client's portal, its accessibility bus) runs in this session, on this display.
            let bus = try SessionBus(in: runtimeDirectory, environment: session.merging(["WAYLAND_DISPLAY": socketName, "DISPLAY": ""]) { $1 })
            self.bus = bus
            environment = session.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address, "WAYLAND_DISPLAY": "", "DISPLAY": ""]) { $1 }
            let process = try Subprocess.spawn(
                ["setpriv", "--pdeathsig", "KILL", "--", "mutter", "--headless", "--wayland", "--no-x11",
                 "--virtual-monitor", "\(width)x\(height)", "--wayland-display", socketName],
                environment: environment, directory: runtimeDirectory, logPath: logPath)
            self.process = process
            try waitForSocket(socketPath, of: process, timeout: timeout, logPath: logPath)
            _ = try input()
        } catch {
            stop()
            throw error
        }
    }

    isolated deinit { stop() }

    public var socketPath: String { runtimeDirectory + "/" + socketName }

    public func connect() throws(WaylandError) -> Display {
        try Display(socket: socketPath)
    }

    /// Mutter's RemoteDesktop session: pointer, keyboard and touch input that
    /// reaches clients (made with mutter).
    public func input() throws(CompositorError) -> MutterRemoteInput {
        if let remote { return remote }
        guard process != nil else { throw .notReady("mutter has been stopped") }
        if media.isEmpty {
            for (program, settle) in [("pipewire", 0.3), ("wireplumber", 0.0)] {
                media.append(try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--", program], environment: environment,
                                                  directory: runtimeDirectory, logPath: runtimeDirectory + "/\(program).log"))
                usleep(useconds_t(settle * 1e6))
            }
        }
        let made = try MutterRemoteInput(environment: environment, directory: runtimeDirectory)
        remote = made
        return made
    }

    public func injectedInput() throws -> InjectedInput { try input() }

    public func startClient(_ arguments: [String], environment: [String: String] = [:]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        var env = ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName]
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        return try spawnClient(arguments, environment: env.merging(environment) { $1 }, logDirectory: runtimeDirectory)
    }

    /// One frame of the monitor, read from the screen-cast stream with GStreamer.
    ///
    /// A frame that is black all over (mutter's bare screen, but twice in CI a
    /// stream that stayed black for seconds while a fullscreen window showed)
    /// is read once more from a screen-cast session made for it, and that frame
    /// is returned.
    public func screenshot(timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        let node: UInt32
        do { node = try input().node } catch { throw .screenshotFailed("no screen cast: \(error)") }
        let shot = try capture(node: node, timeout: timeout)
        guard shot.pixels.allSatisfy({ $0 & 0x00ff_ffff == 0 }) else { return shot }
        let fresh = try MutterRemoteInput(environment: environment, directory: runtimeDirectory, captureOnly: true)
        defer { fresh.close() }
        return try capture(node: fresh.node, timeout: timeout)
    }

    private func capture(node: UInt32, timeout: Double) throws(CompositorError) -> RenderedImage {
        let dir = runtimeDirectory + "/capture"
        mkdir(dir, 0o700)
        return try captureScreen(["gst-launch-1.0", "-q", "pipewiresrc", "path=\(node)", "num-buffers=1", "!", "videoconvert", "!",
                                  "pngenc", "!", "filesink", "location=\(dir)/shot.png"],
                                 environment: environment, in: dir, timeout: timeout)
    }

    public func stop() {
        remote?.close()
        remote = nil
        // mutter and WirePlumber take seconds over SIGTERM; nothing of theirs outlives the run.
        process?.terminate(grace: 0.3)
        process = nil
        for p in media.reversed() { p.terminate(grace: 0.3) }
        media = []
        bus?.stop()
        bus = nil
        if access(runtimeDirectory, F_OK) == 0 { removeTree(runtimeDirectory) }
    }
}
