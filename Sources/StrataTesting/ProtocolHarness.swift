import Glibc
import WaylandClient

/// A minimal Wayland server (`Tools/ProtocolHarness`, libwayland-server) for the
/// protocol paths no compositor on this machine offers — cursor shapes
/// (`wp_cursor_shape_v1`, in mutter 46, kwin 6 and wlroots 0.17) and output
/// capture through `ext-image-copy-capture-v1` (wlroots 0.18), none of them
/// here. Not a compositor: it offers a compositor, shm, xdg_wm_base, a seat
/// with a pointer and the protocols under test, sends the pointer into the
/// client's first surface, and reports the requests a test asserts on
/// (``lines``). Its output (64×48) captures as a known pattern: pixel x, y is
/// red 4x, green 5y, blue 0x80, opaque. Compiled with `cc` and
/// `wayland-scanner` on first use.
@MainActor
public final class ProtocolHarness {
    public let runtimeDirectory: String
    public let socketPath: String
    private var process: Subprocess?
    private var output: Int32 = -1
    private var pending: [UInt8] = []
    /// What the harness reported so far, a request a line (`enter SERIAL`,
    /// `set_shape SERIAL SHAPE`, `set_cursor SERIAL`).
    public private(set) var lines: [String] = []

    /// How the harness offers output capture.
    public enum Capture: Sendable { case none, output, refusingBuffers }

    /// Starts it; `cursorShapes: false` leaves `wp_cursor_shape_manager_v1` out;
    /// `capture` adds an output and `ext-image-copy-capture-v1` (which fails every
    /// frame with `refusingBuffers`).
    public init(cursorShapes: Bool = true, capture: Capture = .none) throws(CompositorError) {
        runtimeDirectory = try makePrivateDirectory("harness")
        socketPath = runtimeDirectory + "/harness-0"
        do {
            let tool = try buildTool("protocol-harness", source: "ProtocolHarness/protocol-harness.c", packages: "wayland-server",
                                     protocols: ["/usr/share/wayland-protocols/stable/xdg-shell/xdg-shell.xml", "Protocols/cursor-shape-v1.xml",
                                                 "Protocols/ext-image-copy-capture-v1.xml"],
                                     in: runtimeDirectory)
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw CompositorError.launchFailed(command: "pipe", errno: errno) }
            for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            defer { Glibc.close(fds[1]) }
            output = fds[0]
            let options = (cursorShapes ? [] : ["--no-cursor-shape"])
                + [.none: [], .output: ["--image-copy-capture"], .refusingBuffers: ["--image-copy-capture=bad"]][capture]!
            process = try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--", tool, socketPath] + options,
                                           environment: [:], directory: runtimeDirectory, logPath: runtimeDirectory + "/harness.log",
                                           standardOutput: fds[1])
            let deadline = now() + 10
            while !lines.contains("ready") {
                guard now() < deadline else { throw CompositorError.notReady("the protocol harness did not start: " + tail(of: runtimeDirectory + "/harness.log")) }
                read(timeout: 0.1)
            }
        } catch let error as CompositorError {
            stop()
            throw error
        } catch {
            stop()
            throw .notReady("\(error)")
        }
    }

    isolated deinit { stop() }

    public func connect() throws(WaylandError) -> Display { try Display(socket: socketPath) }

    /// Reads what the harness has reported, waiting at most `timeout` seconds for more.
    public func read(timeout: Double = 0) {
        guard output >= 0 else { return }
        var p = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(timeout * 1000)) > 0 else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = Glibc.read(output, &chunk, chunk.count)
        guard n > 0 else { return }
        pending += chunk[..<n]
        while let newline = pending.firstIndex(of: 0x0a) {
            lines.append(String(decoding: pending[..<newline], as: UTF8.self))
            pending.removeSubrange(...newline)
        }
    }

    public func stop() {
        process?.terminate(grace: 1)
        process = nil
        if output >= 0 { Glibc.close(output) }
        output = -1
        if access(runtimeDirectory, F_OK) == 0 { removeTree(runtimeDirectory) }
    }
}
