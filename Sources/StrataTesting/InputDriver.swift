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
///
/// Made with ``init(window:injecting:origin:loop:)``, the same calls go
/// through a compositor's seat instead (kwin's fake input, mutter's
/// RemoteDesktop): each is injected, and the call returns once the window has
/// received the event from the compositor. What the compositor does not
/// deliver in time (five seconds; the first motion up to about sixteen) is
/// recorded in ``errors``.
@MainActor
public final class InputDriver {
    public let window: Window
    /// The keymap keys are typed with; nil when none compiles (typing then says so).
    public let keyboard: Keyboard?
    private var injection: Injection?
    /// Events a compositor did not deliver, and why (injected input only).
    public private(set) var errors: [String] = []

    private struct Injection {
        let input: InjectedInput
        let origin: Point
        let loop: EventLoop?
        var pointer: Point?
    }

    /// A driver with a US keymap (or `keyboard`).
    public init(window: Window, keyboard: Keyboard? = nil) {
        self.window = window
        self.keyboard = keyboard ?? (try? Keyboard(layout: "us"))
        injection = nil
    }

    /// A driver whose events travel through the compositor the app is connected
    /// to (turning `loop`, by default the application's, while it waits),
    /// injected by `input`. `origin` is where the window's content (its
    /// point 0, 0) is on the output — (0, 0) for a fullscreen window;
    /// ``init(window:on:loop:)`` finds it for any window. Keys are typed as the US keymap's codes,
    /// the compositors' default.
    public init(window: Window, injecting input: InjectedInput, origin: Point = Point(x: 0, y: 0), loop: EventLoop? = nil) {
        self.window = window
        keyboard = try? Keyboard(layout: "us")
        injection = Injection(input: input, origin: origin, loop: loop ?? Application.shared.loop)
    }

    /// A driver injecting through `compositor`'s seat at the place its screen
    /// shows the window (``Window/placeOnScreen(of:timeout:)``): a normal,
    /// decorated window wherever the compositor put it. The window must keep
    /// that place while the driver is used.
    public convenience init(window: Window, on compositor: any Compositor, loop: EventLoop? = nil) throws {
        let input = try compositor.injectedInput()
        let surface = try window.placeOnScreen(of: compositor)
        let content = window.contentOrigin
        self.init(window: window, injecting: input, origin: Point(x: surface.x + content.x, y: surface.y + content.y), loop: loop)
    }

    /// Injects an event and waits for the window to receive it (`expected` says
    /// which it is: the compositor may send others between). A first pointer
    /// move is tried again, a second apart, from a point beside it (either side, in turn): kwin adds its
    /// fake pointer with the first input, which that input does not reach, and
    /// mutter, busy mapping a window that just went fullscreen, may show it under
    /// a pointer that has stopped without telling the window until the pointer
    /// moves again (seen once in CI).
    private func inject(_ what: String, attempts: Int = 1, expected: @escaping (WindowInput) -> Bool,
                        _ send: (InjectedInput) throws -> Void) {
        guard let injection else { return }
        guard let loop = injection.loop else { return errors.append("\(what): the application is not connected to a compositor") }
        var arrived = false
        window.inputWitness = { if expected($0) { arrived = true } }
        defer { window.inputWitness = nil }
        for attempt in 1...attempts {
            do {
                try send(injection.input)
                if try loop.turn(until: { arrived }, timeout: attempt < attempts ? 1 : 5) { return }
                if attempt == attempts { errors.append("\(what): the window did not receive it within 5 s") }
            } catch {
                return errors.append("\(what): \(error)")
            }
        }
    }

    // MARK: Pointer

    public func movePointer(to point: Point) {
        guard let origin = injection?.origin else { return window.handle(.pointerMoved(point)) }
        guard injection?.pointer != point else { return }
        let first = injection?.pointer == nil
        injection?.pointer = point
        var tries = 0
        // The first motion is tried for up to about 16 s: a compositor busy beside
        // other test suites (mutter draws in software) can take that long to show a
        // window that just went fullscreen under the pointer.
        inject("the pointer moving to \(point)", attempts: first ? 12 : 1, expected: { if case .pointerMoved = $0 { true } else { false } }) { input in
            tries += 1
            if tries > 1 { try input.movePointer(toX: origin.x + point.x + Double(tries % 2 == 0 ? 1 : -1), y: origin.y + point.y) }
            try input.movePointer(toX: origin.x + point.x, y: origin.y + point.y)
        }
    }

    public func press(_ button: PointerButton) {
        guard injection != nil else { return window.handle(.pointerButton(button, pressed: true)) }
        inject("\(button) pressed", expected: { if case .pointerButton(button, true) = $0 { true } else { false } }) {
            try $0.button(button.code, pressed: true)
        }
    }

    public func release(_ button: PointerButton) {
        guard injection != nil else { return window.handle(.pointerButton(button, pressed: false)) }
        inject("\(button) released", expected: { if case .pointerButton(button, false) = $0 { true } else { false } }) {
            try $0.button(button.code, pressed: false)
        }
    }

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

    public func scroll(dx: Double, dy: Double) {
        guard injection != nil else { return window.handle(.scroll(dx: dx, dy: dy)) }
        inject("a scroll by \(dx), \(dy)", expected: { if case .scroll = $0 { true } else { false } }) { try $0.scroll(dx: dx, dy: dy) }
    }

    public func leave() { window.handle(.pointerLeft) }

    // MARK: Drag and drop

    /// A drag from another app carrying `items`: it comes over the window at the
    /// first of `points`, moves through the rest, and is dropped at the last
    /// (or leaves, when `drop` is false) — the path a seat's drag takes. Returns
    /// what the drop did (`.cancel` when nothing took it, or it left).
    @discardableResult
    public func dragFromOtherApp(_ items: [DragItem], through points: [Point], allowed: Set<DropOperation> = [.copy], drop: Bool = true) -> DropOperation {
        guard let first = points.first else { return .cancel }
        let offers = DragItem.offers(items)
        window.handleDrop(.entered(first, types: offers.map(\.mimeType), allowed: allowed) { type, done in
            done(offers.first { $0.mimeType == type }?.bytes)
        })
        for p in points.dropFirst() { window.handleDrop(.moved(p)) }
        guard drop else {
            window.handleDrop(.left)
            return .cancel
        }
        var result = DropOperation.cancel
        window.handleDrop(.dropped { result = $0 })
        return result
    }

    // MARK: Touch

    public func touchDown(_ id: Int, at point: Point) {
        guard let origin = injection?.origin else { return window.handle(.touchDown(id: id, at: point)) }
        inject("touch \(id) down", expected: { if case .touchDown(id, _) = $0 { true } else { false } }) { try $0.touchDown(UInt32(truncatingIfNeeded: id), x: origin.x + point.x, y: origin.y + point.y) }
    }

    public func touchMove(_ id: Int, to point: Point) {
        guard let origin = injection?.origin else { return window.handle(.touchMoved(id: id, to: point)) }
        inject("touch \(id) moving", expected: { if case .touchMoved(id, _) = $0 { true } else { false } }) { try $0.touchMove(UInt32(truncatingIfNeeded: id), x: origin.x + point.x, y: origin.y + point.y) }
    }

    public func touchUp(_ id: Int) {
        guard injection != nil else { return window.handle(.touchUp(id: id)) }
        inject("touch \(id) up", expected: { if case .touchUp(id) = $0 { true } else { false } }) { try $0.touchUp(UInt32(truncatingIfNeeded: id)) }
    }
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
                if injection != nil {
                    errors.append("no key of the US keymap types \"\(scalar)\"")
                    continue
                }
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
        if injection != nil {
            return inject("key \(code) pressed", expected: { if case .key(let k, true, _) = $0 { k.keyCode == code } else { false } }) {
                try $0.key(code, pressed: true)
            }
        }
        let press = keyboard.press(keyCode: code)
        window.handle(.key(Key(press, modifiers: keyboard.modifiers), pressed: true, repeats: press.repeats))
    }

    /// Releases the key that types `keysym`.
    public func releaseKey(keysym: UInt32) {
        guard let keyboard, let (code, _) = keyboard.keyCode(for: keysym) else { return }
        if injection != nil {
            return inject("key \(code) released", expected: { if case .key(let k, false, _) = $0 { k.keyCode == code } else { false } }) {
                try $0.key(code, pressed: false)
            }
        }
        let modifiers = keyboard.modifiers
        keyboard.release(keyCode: code)
        let key = Key(characters: "", charactersIgnoringModifiers: "", modifierFlags: KeyModifierFlags(modifiers), keysym: keysym, keyCode: code)
        window.handle(.key(key, pressed: false, repeats: false))
    }

    /// Presses and releases the key that types `keysym`.
    public func tapKey(keysym: UInt32) {
        pressKey(keysym: keysym)
        releaseKey(keysym: keysym)
    }

    /// An input method's update for the focused text field, as text-input's
    /// `done` delivers it: shows `preedit` as the composition, or inserts `commit`.
    public func compose(preedit: String? = nil, commit: String? = nil, deleteBefore: Int = 0, deleteAfter: Int = 0) {
        window.handle(.composition(preedit: preedit, commit: commit, deleteBefore: deleteBefore, deleteAfter: deleteAfter))
    }

    /// The keyboard leaves the window (held keys are cancelled).
    public func leaveKeyboard() { window.handle(.keyboardLeft) }
}
