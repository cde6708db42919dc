import WaylandClient

/// Input through kwin's `org_kde_kwin_fake_input`: a pointer at absolute output
/// coordinates, its buttons and wheel, touches and keys (evdev codes), arriving
/// at clients as a real seat's would. A separate connection of its own.
@MainActor
public final class KWinFakeInput: InjectedInput {
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
            throw InputUnavailable(description: "\(compositorName) offers no org_kde_kwin_fake_input version 4 or later (\(error))")
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

    public func button(_ button: UInt32, pressed: Bool) throws {
        input.button(button: button, state: pressed ? 1 : 0)
        try connection.roundtrip()
    }

    public func scroll(dx: Double, dy: Double) throws {
        if dy != 0 { input.axis(axis: 0, value: dy) }
        if dx != 0 { input.axis(axis: 1, value: dx) }
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
