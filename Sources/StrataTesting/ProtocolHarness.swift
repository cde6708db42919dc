import Glibc
import WaylandClient

/// A minimal Wayland server (`Tools/ProtocolHarness`, libwayland-server) for the
/// protocol paths no compositor on this machine offers — cursor shapes
/// (`wp_cursor_shape_v1`, in mutter 46, kwin 6 and wlroots 0.17), output
/// capture through `ext-image-copy-capture-v1` (wlroots 0.18) and session locks
/// (`ext_session_lock_v1`, sway 1.8), none of them here — and an output that
/// goes away under layer surfaces, which no compositor here can make happen. Not a compositor: it offers a compositor, shm, xdg_wm_base, a seat
/// with a pointer and the protocols under test, sends the pointer into the
/// client's first surface, and reports the requests a test asserts on
/// (``lines``). Its output (64×48) captures as a known pattern: pixel x, y is
/// red 4x, green 5y, blue 0x80, opaque. Runs as a ``HelperTool``.
@MainActor
public final class ProtocolHarness {
    public let runtimeDirectory: String
    public let socketPath: String
    private var process: Subprocess?
    private var output = PipeLines(fd: -1)
    /// What the harness reported so far, a request a line (`enter SERIAL`,
    /// `set_shape SERIAL SHAPE`, `set_cursor SERIAL`).
    public private(set) var lines: [String] = []

    /// How the harness offers output capture.
    public enum Capture: Sendable { case none, output, refusingBuffers }
    /// How the harness offers session locks.
    public enum SessionLocks: Sendable { case none, granted, refused }

    /// Starts it; `cursorShapes: false` leaves `wp_cursor_shape_manager_v1` out;
    /// `capture` adds an output and `ext-image-copy-capture-v1` (which fails every
    /// frame with `refusingBuffers`); `sessionLocks` adds an output and
    /// `ext_session_lock_manager_v1` (granting a lock once every lock surface is
    /// drawn, or refusing it); `layerShell` an output and `zwlr_layer_shell_v1`
    /// (each layer surface configured to its size, the output's on an axis left at
    /// 0; closed when its output goes) — both with ``addOutput()``/``removeOutput()``.
    public init(cursorShapes: Bool = true, capture: Capture = .none, sessionLocks: SessionLocks = .none,
                layerShell: Bool = false) throws(CompositorError) {
        runtimeDirectory = try makePrivateDirectory("harness")
        socketPath = runtimeDirectory + "/harness-0"
        do {
            let tool = HelperTool.protocolHarness
            let fds = try closeOnExecPipe()
            defer { Glibc.close(fds[1]) }
            output = PipeLines(fd: fds[0])
            let options = (cursorShapes ? [] : ["--no-cursor-shape"])
                + [.none: [], .output: ["--image-copy-capture"], .refusingBuffers: ["--image-copy-capture=bad"]][capture]!
                + [.none: [], .granted: ["--session-lock"], .refused: ["--session-lock=refuse"]][sessionLocks]!
                + (layerShell ? ["--layer-shell"] : [])
            process = try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--"] + tool.command([socketPath] + options),
                                           environment: tool.environment, directory: runtimeDirectory, logPath: runtimeDirectory + "/harness.log",
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
        var wait = timeout
        while let line = output.next(timeout: wait) {
            lines.append(line)
            wait = 0
        }
    }

    /// Adds a second output (with session locks offered), as a monitor plugged in.
    public func addOutput() { if let p = process { kill(p.pid, SIGUSR1) } }
    /// Removes the second output, as a monitor unplugged.
    public func removeOutput() { if let p = process { kill(p.pid, SIGUSR2) } }

    public func stop() {
        process?.terminate(grace: 1)
        process = nil
        output.close()
        if access(runtimeDirectory, F_OK) == 0 { removeTree(runtimeDirectory) }
    }
}
