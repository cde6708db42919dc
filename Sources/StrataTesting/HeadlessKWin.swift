import Glibc
import PixmanRender
import WaylandClient

/// KDE's compositor, kwin 5.27, running headless for a test: `--virtual` output
/// (llvmpipe), its own session bus, runtime directory, home and socket, fake
/// input allowed (`KWIN_WAYLAND_NO_PERMISSION_CHECKS`), so ``KWinFakeInput``
/// can move the pointer, press buttons, touch and type — input that reaches
/// clients, which no other compositor here offers for the pointer.
///
/// The installed binary carries a file capability this container refuses to
/// execute; a copy in the runtime directory (same name, no capability) runs.
/// Screenshots come from kwin's D-Bus ScreenShot2, which writes the pixels into
/// a pipe passed as a file descriptor: a helper in C (GIO, `kwin-screenshot.c` of
/// the StrataTestingTools target) does that. Stopped — with its bus — by ``stop()`` or when the
/// object goes away; killed if this process dies first (kwin can hang in its
/// own shutdown when its parent is gone, so it gets SIGKILL, not SIGTERM).
@MainActor
public final class HeadlessKWin: Compositor {
    public var name: String { "kwin" }
    public let width: Int
    public let height: Int
    public let runtimeDirectory: String
    public let socketName = "strata-kwin-0"
    private var bus: SessionBus?
    /// kwin's private session bus.
    var busAddress: String { bus?.address ?? "" }
    private var process: Subprocess?
    public var logPath: String { runtimeDirectory + "/kwin.log" }

    /// Starts a session bus and kwin, and waits (up to `timeout` seconds) for kwin's socket.
    public init(width: Int = 640, height: Int = 480, timeout: Double = 20) throws(CompositorError) {
        self.width = width
        self.height = height
        runtimeDirectory = try makePrivateDirectory("kwin")
        let binary = runtimeDirectory + "/kwin_wayland"
        guard copyFile("/usr/bin/kwin_wayland", to: binary) else {
            removeTree(runtimeDirectory)
            throw .launchFailed(command: "kwin_wayland", errno: ENOENT)
        }
        let home = runtimeDirectory + "/home"
        mkdir(home, 0o700)
        let session = ["XDG_RUNTIME_DIR": runtimeDirectory, "HOME": home,
                       "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache"]
        // What the bus starts (a client's portal, its accessibility bus) runs in this session, on this display.
        let bus = try SessionBus(in: runtimeDirectory, environment: session.merging(["WAYLAND_DISPLAY": socketName, "DISPLAY": ""]) { $1 })
        self.bus = bus
        process = try Subprocess.spawn(
            ["setpriv", "--pdeathsig", "KILL", "--", binary, "--virtual", "--socket", socketName, "--width", "\(width)", "--height", "\(height)",
             "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"],
            environment: session.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address, "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1", "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS": "1",
                                          "QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": "", "DISPLAY": ""]) { $1 },
            directory: runtimeDirectory, logPath: logPath)
        do {
            try waitForSocket(socketPath, of: process!, timeout: timeout, logPath: logPath)
        } catch {
            stop()
            throw error
        }
        usleep(500_000)   // its output and seat come up just after the socket
    }

    isolated deinit { stop() }

    public var socketPath: String { runtimeDirectory + "/" + socketName }

    public func connect() throws(WaylandError) -> Display {
        try Display(socket: socketPath)
    }

    /// Starts a client program against kwin (`WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`
    /// and kwin's session bus set), its output to a log in the runtime directory.
    public func startClient(_ arguments: [String], environment: [String: String] = [:]) throws(CompositorError) -> (process: Subprocess, logPath: String) {
        var env = ["XDG_RUNTIME_DIR": runtimeDirectory, "WAYLAND_DISPLAY": socketName]
        if let bus { env["DBUS_SESSION_BUS_ADDRESS"] = bus.address }
        return try spawnClient(arguments, environment: env.merging(environment) { $1 }, logDirectory: runtimeDirectory)
    }

    /// The whole output, through kwin's ScreenShot2 D-Bus interface; `timeout`
    /// is generous because a loaded machine (the parallel test suite) has been
    /// seen to take more than 10 s to start the helper and get kwin's answer.
    public func screenshot(timeout: Double = 30) throws(CompositorError) -> RenderedImage {
        let tool = HelperTool.kwinScreenshot
        let output = runtimeDirectory + "/shot-\(Int(now() * 1000)).raw"
        defer { unlink(output) }
        let run = try Subprocess.spawn(tool.command([output]), environment: tool.environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus?.address ?? ""]) { $1 },
                                       directory: runtimeDirectory, logPath: runtimeDirectory + "/helper.log")
        guard let status = waitKeepingAppAlive(run, timeout: timeout) else {
            run.terminate()
            throw .screenshotFailed("kwin did not answer within \(timeout) s")
        }
        guard status == 0 else { throw .screenshotFailed(tail(of: runtimeDirectory + "/helper.log")) }
        return try Self.image(fromRaw: output)
    }

    /// Reads the helper's output: a header line "width height stride format" (a
    /// QImage format: 4 RGB32, 5 ARGB32, 6 ARGB32 premultiplied) and the rows.
    private static func image(fromRaw path: String) throws(CompositorError) -> RenderedImage {
        guard let f = fopen(path, "rb") else { throw .screenshotFailed("no output") }
        defer { fclose(f) }
        var header = [CChar](repeating: 0, count: 128)
        guard fgets(&header, 128, f) != nil else { throw .screenshotFailed("no header") }
        let line = String(decoding: header.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let numbers = line.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
        guard numbers.count == 4, numbers[0] > 0, numbers[1] > 0, numbers[2] >= numbers[0] * 4, [4, 5, 6].contains(numbers[3]) else {
            throw .screenshotFailed("unexpected header \(numbers)")
        }
        let width = numbers[0], height = numbers[1], stride = numbers[2], format = numbers[3]
        var row = [UInt32](repeating: 0, count: stride / 4)
        var pixels: [UInt32] = []
        pixels.reserveCapacity(width * height)
        for _ in 0..<height {
            guard fread(&row, 4, row.count, f) == row.count else { throw .screenshotFailed("short image") }
            for p in row.prefix(width) {
                switch format {
                case 4: pixels.append(p | 0xff00_0000)
                case 5:   // straight alpha: premultiply
                    let a = p >> 24
                    func ch(_ shift: UInt32) -> UInt32 { ((((p >> shift) & 0xff) * a + 127) / 255) << shift }
                    pixels.append(a << 24 | ch(16) | ch(8) | ch(0))
                default: pixels.append(p)
                }
            }
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }

    /// kwin's fake input (``KWinFakeInput``), made on first use and kept.
    public func injectedInput() throws -> InjectedInput {
        if let fakeInput { return fakeInput }
        let made = try KWinFakeInput(on: self)
        fakeInput = made
        return made
    }
    private var fakeInput: KWinFakeInput?

    public func stop() {
        fakeInput = nil
        process?.terminate()
        process = nil
        bus?.stop()
        bus = nil
        if access(runtimeDirectory, F_OK) == 0 { removeTree(runtimeDirectory) }
    }
}

/// Copies a program's bytes, not its extended attributes (file capabilities).
func copyFile(_ from: String, to: String) -> Bool {
    guard let bytes = try? PNGCodec.readFile(from), (try? PNGCodec.writeFile(bytes, to: to)) != nil else { return false }
    return chmod(to, 0o755) == 0
}
