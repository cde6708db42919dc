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
/// a pipe passed as a file descriptor: `Tools/KWinScreenshot/kwin-screenshot.c`
/// (GIO) does that, compiled with `cc` on first use. Stopped — with its bus — by ``stop()`` or when the
/// object goes away; killed if this process dies first (kwin can hang in its
/// own shutdown when its parent is gone, so it gets SIGKILL, not SIGTERM).
@MainActor
public final class HeadlessKWin: Compositor {
    public var name: String { "kwin" }
    public let width: Int
    public let height: Int
    public let runtimeDirectory: String
    public let socketName = "strata-kwin-0"
    private var bus: Subprocess?
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
        let busAddress = "unix:path=\(runtimeDirectory)/bus"
        bus = try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--", "dbus-daemon", "--session", "--nofork", "--address=\(busAddress)"],
                                   environment: [:], directory: runtimeDirectory, logPath: runtimeDirectory + "/dbus.log")
        let home = runtimeDirectory + "/home"
        mkdir(home, 0o700)
        process = try Subprocess.spawn(
            ["setpriv", "--pdeathsig", "KILL", "--", binary, "--virtual", "--socket", socketName, "--width", "\(width)", "--height", "\(height)",
             "--no-lockscreen", "--no-global-shortcuts", "--no-kactivities"],
            environment: ["XDG_RUNTIME_DIR": runtimeDirectory, "DBUS_SESSION_BUS_ADDRESS": busAddress, "HOME": home,
                          "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache",
                          "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1", "KWIN_SCREENSHOT_NO_PERMISSION_CHECKS": "1", "QT_QPA_PLATFORM": "wayland", "WAYLAND_DISPLAY": "", "DISPLAY": ""],
            directory: runtimeDirectory, logPath: logPath)
        let deadline = now() + timeout
        while access(socketPath, F_OK) != 0 {
            if let p = process, p.wait(timeout: 0) != nil {
                process = nil
                let log = tail(of: logPath)
                stop()
                throw .notReady(log)
            }
            guard now() < deadline else {
                let log = tail(of: logPath)
                stop()
                throw .notReady("no socket after \(timeout) s; " + log)
            }
            usleep(20_000)
        }
        usleep(500_000)   // its output and seat come up just after the socket
    }

    isolated deinit { stop() }

    public var socketPath: String { runtimeDirectory + "/" + socketName }

    public func connect() throws(WaylandError) -> Display {
        try Display(socket: socketPath)
    }

    public func screenshot(timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        let tool = runtimeDirectory + "/kwin-screenshot"
        if access(tool, X_OK) != 0 {
            let here = String(#filePath)
            guard let sources = here.firstRange(of: "/Sources/StrataTesting/") else { throw .screenshotFailed("the helper's source is not found") }
            let source = String(here[..<sources.lowerBound]) + "/Tools/KWinScreenshot/kwin-screenshot.c"
            let compile = "\"$(command -v cc || command -v clang)\" -O2 -o '\(tool)' '\(source)' $(pkg-config --cflags --libs gio-2.0 gio-unix-2.0)"
            let build = try Subprocess.spawn(["sh", "-c", compile],
                                             environment: [:], directory: runtimeDirectory, logPath: runtimeDirectory + "/helper-build.log")
            guard build.wait(timeout: 60) == 0 else {
                throw .screenshotFailed("cannot build the capture helper (needs cc and libglib2.0-dev): " + tail(of: runtimeDirectory + "/helper-build.log"))
            }
        }
        let output = runtimeDirectory + "/shot-\(Int(now() * 1000)).raw"
        defer { unlink(output) }
        let run = try Subprocess.spawn([tool, output], environment: ["DBUS_SESSION_BUS_ADDRESS": "unix:path=\(runtimeDirectory)/bus"],
                                       directory: runtimeDirectory, logPath: runtimeDirectory + "/helper.log")
        guard let status = run.wait(timeout: timeout) else {
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
        let numbers = String(cString: header).split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Int($0) }
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

    public func stop() {
        process?.terminate()
        process = nil
        bus?.terminate()
        bus = nil
        if access(runtimeDirectory, F_OK) == 0 { removeTree(runtimeDirectory) }
    }
}

/// Input through kwin's `org_kde_kwin_fake_input`: a pointer at absolute output
/// coordinates, its buttons and wheel, touches and keys (evdev codes), arriving
/// at clients as a real seat's would. A separate connection of its own.
@MainActor
public final class KWinFakeInput {
    /// Why there is no fake input.
    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public static let leftButton: UInt32 = 0x110   // BTN_LEFT
    /// A bare connection: only the registry and fake input (no seat of its own).
    private let connection: Connection
    private let registry: Registry
    private let input: OrgKdeKwinFakeInput

    /// Binds fake input on the compositor at `socketPath` (it must offer version 4
    /// or later: kwin 5.27). kwin adds its fake pointer, touch screen and keyboard
    /// to the seat on the first input, and clients bind them only then: wait for
    /// them (a pointer entering the window) before input that must not be lost.
    public init(socketPath: String, compositorName: String = "kwin") throws {
        connection = try Connection(socket: socketPath)
        registry = Registry(connection: connection)
        try connection.roundtrip()
        do {
            input = try registry.bind(OrgKdeKwinFakeInput.self, minVersion: 4)
        } catch {
            throw Unavailable(description: "\(compositorName) offers no org_kde_kwin_fake_input version 4 or later (\(error))")
        }
        input.authenticate(application: "strata tests", reason: "driving a test client's window")
        try connection.roundtrip()
    }

    public convenience init(on kwin: HeadlessKWin) throws {
        try self.init(socketPath: kwin.socketPath)
    }

    /// Moves the pointer to `x`, `y` on the output (logical pixels).
    public func movePointer(toX x: Double, y: Double) throws {
        input.pointerMotionAbsolute(x: x, y: y)
        try connection.roundtrip()
    }

    public func button(_ button: UInt32 = leftButton, pressed: Bool) throws {
        input.button(button: button, state: pressed ? 1 : 0)
        try connection.roundtrip()
    }

    /// Presses and releases the left button at `x`, `y`.
    public func click(atX x: Double, y: Double) throws {
        try movePointer(toX: x, y: y)
        try button(pressed: true)
        try button(pressed: false)
    }

    /// A vertical wheel turn (positive: down), in scroll units.
    public func scroll(by value: Double) throws {
        input.axis(axis: 0, value: value)
        try connection.roundtrip()
    }

    public func touchDown(_ id: UInt32, x: Double, y: Double) throws {
        input.touchDown(id: id, x: x, y: y)
        input.touchFrame()
        try connection.roundtrip()
    }

    public func touchMove(_ id: UInt32, x: Double, y: Double) throws {
        input.touchMotion(id: id, x: x, y: y)
        input.touchFrame()
        try connection.roundtrip()
    }

    public func touchUp(_ id: UInt32) throws {
        input.touchUp(id: id)
        input.touchFrame()
        try connection.roundtrip()
    }

    /// Presses or releases a key by its evdev code (`KEY_A` is 30).
    public func key(_ code: UInt32, pressed: Bool) throws {
        input.keyboardKey(button: code, state: pressed ? 1 : 0)
        try connection.roundtrip()
    }
}

/// Copies a program's bytes, not its extended attributes (file capabilities).
func copyFile(_ from: String, to: String) -> Bool {
    guard let bytes = try? PNGCodec.readFile(from), (try? PNGCodec.writeFile(bytes, to: to)) != nil else { return false }
    return chmod(to, 0o755) == 0
}
