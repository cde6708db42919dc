/// Input a compositor lets a test put into its seat — a pointer, touch screen
/// and keyboard that clients see as real devices (issue: input injection):
/// kwin's fake input (``KWinFakeInput``), mutter's RemoteDesktop
/// (``MutterRemoteInput``). Coordinates are the output's logical pixels;
/// buttons and keys are evdev codes. Each call returns once the compositor has
/// taken the event; when a client sees it is up to the compositor (an
/// ``InputDriver`` made with ``InputDriver/init(window:injecting:origin:loop:)`` or ``InputDriver/init(window:on:loop:)``
/// waits for that).
@MainActor
public protocol InjectedInput: AnyObject {
    func movePointer(toX x: Double, y: Double) throws
    /// Presses or releases a pointer button (`PointerButton.code`).
    func button(_ button: UInt32, pressed: Bool) throws
    /// Smooth scrolling (positive: down, right), in the compositor's scroll units.
    func scroll(dx: Double, dy: Double) throws
    func touchDown(_ id: UInt32, x: Double, y: Double) throws
    func touchMove(_ id: UInt32, x: Double, y: Double) throws
    func touchUp(_ id: UInt32) throws
    /// Presses or releases a key by its evdev code (`KEY_A` is 30), typed
    /// through the compositor's keymap.
    func key(_ code: UInt32, pressed: Bool) throws
    func wheel(steps: Int, horizontal: Bool) throws
}

extension InjectedInput {
    /// Wheel steps (positive: down, right); where the compositor takes no
    /// discrete steps, smooth scrolling of 10 units a step.
    public func wheel(steps: Int, horizontal: Bool) throws {
        try scroll(dx: horizontal ? Double(steps) * 10 : 0, dy: horizontal ? 0 : Double(steps) * 10)
    }

    /// Moves to `x`, `y`, presses and releases the left button.
    public func click(atX x: Double, y: Double) throws {
        try movePointer(toX: x, y: y)
        try button(PointerButton.left.code, pressed: true)
        try button(PointerButton.left.code, pressed: false)
    }
}

/// The compositor offers no way to inject input that reaches clients; the
/// description says what is missing.
public struct InputUnavailable: Error, CustomStringConvertible {
    public let description: String
    public init(description: String) { self.description = description }
}
