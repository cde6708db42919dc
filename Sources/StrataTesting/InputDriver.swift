@_exported import Strata
import WaylandClient

/// Drives a `Window` with pointer, touch and keyboard input through the same
/// path a seat's events take (`Window.handle(_:)`), with or without a compositor
/// (rule W3): app authors write input tests that need no display.
///
/// Coordinates are window points, as `view.convert(_:to: nil)` gives them; each
/// call delivers its events before it returns. Text is typed through a real
/// keymap (xkbcommon; US by default), so keysyms, modifiers, compose sequences
/// and key repeat behave as a keyboard's would.
@MainActor
public final class InputDriver {
    public let window: Window
    /// The keymap keys are typed with; nil when none compiles (typing then says so).
    public let keyboard: Keyboard?

    /// A driver with a US keymap (or `keyboard`).
    public init(window: Window, keyboard: Keyboard? = nil) {
        self.window = window
        self.keyboard = keyboard ?? (try? Keyboard(layout: "us"))
    }

    // MARK: Pointer

    public func movePointer(to point: Point) { window.handle(.pointerMoved(point)) }
    public func press(_ button: PointerButton) { window.handle(.pointerButton(button, pressed: true)) }
    public func release(_ button: PointerButton) { window.handle(.pointerButton(button, pressed: false)) }

    /// Moves there, presses and releases the primary button.
    public func click(at point: Point) {
        movePointer(to: point)
        press(.left)
        release(.left)
    }

    /// Presses the primary button at `from`, moves in `steps` equal steps to `to`
    /// (advancing `clock` by `interval` between them when given), and releases.
    public func drag(from: Point, to: Point, steps: Int = 10, clock: ManualMediaClock? = nil, interval: Double = 1.0 / 60) {
        movePointer(to: from)
        press(.left)
        let n = max(1, steps)
        for i in 1...n {
            clock?.advance(by: interval)
            let t = Double(i) / Double(n)
            movePointer(to: Point(x: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t))
        }
        release(.left)
    }

    public func scroll(dx: Double, dy: Double) { window.handle(.scroll(dx: dx, dy: dy)) }
    public func leave() { window.handle(.pointerLeft) }

    // MARK: Touch

    public func touchDown(_ id: Int, at point: Point) { window.handle(.touchDown(id: id, at: point)) }
    public func touchMove(_ id: Int, to point: Point) { window.handle(.touchMoved(id: id, to: point)) }
    public func touchUp(_ id: Int) { window.handle(.touchUp(id: id)) }
    public func cancelTouches() { window.handle(.touchesCancelled) }

    // MARK: Keyboard

    /// Types `text` key by key, with Shift where the keymap needs it. A character
    /// no key of the keymap types is delivered as a key with that text, as an input
    /// method's commit would be.
    public func type(_ text: String) {
        let shift = Keyboard.keysym(named: "Shift_L")
        for scalar in text.unicodeScalars {
            let keysym = scalar == "\n" ? Keyboard.keysym(named: "Return") : scalar == "\t" ? Key.tab : Keyboard.keysym(for: scalar)
            guard let keyboard, keysym != 0, let (_, needsShift) = keyboard.keyCode(for: keysym) else {
                let key = Key(characters: String(scalar), charactersIgnoringModifiers: String(scalar), modifierFlags: [], keysym: keysym, keyCode: 0)
                window.handle(.key(key, pressed: true, repeats: false))
                window.handle(.key(key, pressed: false, repeats: false))
                continue
            }
            if needsShift { pressKey(keysym: shift) }
            pressKey(keysym: keysym)
            releaseKey(keysym: keysym)
            if needsShift { releaseKey(keysym: shift) }
        }
    }

    /// Presses the key that types `keysym` (nothing, when the keymap has none).
    public func pressKey(keysym: UInt32) {
        guard let keyboard, let (code, _) = keyboard.keyCode(for: keysym) else { return }
        let press = keyboard.press(keyCode: code)
        window.handle(.key(Key(press, modifiers: keyboard.modifiers), pressed: true, repeats: press.repeats))
    }

    /// Releases the key that types `keysym`.
    public func releaseKey(keysym: UInt32) {
        guard let keyboard, let (code, _) = keyboard.keyCode(for: keysym) else { return }
        let modifiers = keyboard.modifiers
        keyboard.release(keyCode: code)
        let key = Key(characters: "", charactersIgnoringModifiers: "", modifierFlags: KeyModifierFlags(modifiers), keysym: keysym, keyCode: code)
        window.handle(.key(key, pressed: false, repeats: false))
    }

    /// An input method's update for the focused text field, as text-input's
    /// `done` delivers it: shows `preedit` as the composition, or inserts `commit`.
    public func compose(preedit: String? = nil, commit: String? = nil, deleteBefore: Int = 0, deleteAfter: Int = 0) {
        window.handle(.composition(preedit: preedit, commit: commit, deleteBefore: deleteBefore, deleteAfter: deleteAfter))
    }

    /// The keyboard leaves the window (held keys are cancelled).
    public func leaveKeyboard() { window.handle(.keyboardLeft) }
}
