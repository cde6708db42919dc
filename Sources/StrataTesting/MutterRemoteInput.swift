import Glibc

/// Input through mutter's D-Bus RemoteDesktop session: a pointer at absolute
/// monitor coordinates, buttons, scrolling, touches and keys, arriving at
/// clients as a real seat's would. The session lives as long as the bus
/// connection that made it, so a small helper (``HelperTool``, `mutter-remote.c`) keeps it
/// and takes one call per line; each call returns after mutter answered.
/// Get one from ``HeadlessMutter/input()``.
@MainActor
public final class MutterRemoteInput: InjectedInput {
    /// The PipeWire node of the monitor's screen-cast stream (absolute motion
    /// and touch are relative to it; captures read it).
    public private(set) var node: UInt32
    private var helper: Subprocess?
    private var commands: Int32
    private var replies: PipeLines

    /// Starts the helper; `captureOnly` makes a screen-cast session of its own
    /// without input (its node is fresh; sending it input throws).
    init(environment: [String: String], directory: String, captureOnly: Bool = false) throws(CompositorError) {
        let toHelper = try closeOnExecPipe()   // the helper gets one end of each as stdin and stdout
        let fromHelper: [Int32]
        do { fromHelper = try closeOnExecPipe() } catch {
            for fd in toHelper { Glibc.close(fd) }
            throw error
        }
        let log = directory + (captureOnly ? "/mutter-capture.log" : "/mutter-remote.log")
        do {
            let tool = HelperTool.mutterRemote
            helper = try Subprocess.spawn(tool.command(captureOnly ? ["capture"] : []), environment: environment.merging(tool.environment) { $1 }, directory: directory, logPath: log,
                                          standardInput: toHelper[0], standardOutput: fromHelper[1])
        } catch {
            for fd in toHelper + fromHelper { Glibc.close(fd) }
            throw error
        }
        Glibc.close(toHelper[0])
        Glibc.close(fromHelper[1])
        commands = toHelper[1]
        replies = PipeLines(fd: fromHelper[0])
        node = 0
        guard let ready = replies.next(timeout: 15), ready.hasPrefix("ready "), let n = UInt32(ready.dropFirst(6)) else {
            close()
            throw .notReady("mutter's RemoteDesktop session did not start: " + tail(of: log))
        }
        node = n
    }

    isolated deinit { close() }

    /// Ends the session (the helper exits when its input closes).
    func close() {
        if commands >= 0 { Glibc.close(commands) }
        commands = -1
        helper?.terminate(grace: 2)
        helper = nil
        replies.close()
    }

    private func send(_ command: String) throws {
        guard commands >= 0 else { throw InputUnavailable(description: "mutter's RemoteDesktop session has ended") }
        let line = Array((command + "\n").utf8)
        guard write(commands, line, line.count) == line.count else {
            throw InputUnavailable(description: "mutter's RemoteDesktop helper is gone (errno \(errno))")
        }
        guard let reply = replies.next(timeout: 10) else { throw InputUnavailable(description: "mutter did not answer `\(command)` within 10 s") }
        guard reply == "ok" else { throw InputUnavailable(description: "mutter refused `\(command)`: \(reply)") }
    }

    public func movePointer(toX x: Double, y: Double) throws { try send("motion \(x) \(y)") }
    public func button(_ button: UInt32, pressed: Bool) throws { try send("button \(button) \(pressed ? 1 : 0)") }
    public func scroll(dx: Double, dy: Double) throws { try send("axis \(dx) \(dy)") }
    /// Discrete wheel steps, as a mouse wheel's clicks (positive: down or right).
    public func wheel(steps: Int, horizontal: Bool = false) throws { try send("wheel \(horizontal ? 1 : 0) \(steps)") }
    public func touchDown(_ id: UInt32, x: Double, y: Double) throws { try send("touch-down \(id) \(x) \(y)") }
    public func touchMove(_ id: UInt32, x: Double, y: Double) throws { try send("touch-motion \(id) \(x) \(y)") }
    public func touchUp(_ id: UInt32) throws { try send("touch-up \(id)") }
    public func key(_ code: UInt32, pressed: Bool) throws { try send("key \(code) \(pressed ? 1 : 0)") }
    /// Presses or releases the key mutter's keymap has for `keysym`.
    public func keysym(_ keysym: UInt32, pressed: Bool) throws { try send("keysym \(keysym) \(pressed ? 1 : 0)") }
}
