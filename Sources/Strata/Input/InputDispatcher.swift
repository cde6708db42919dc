/// Input as a seat delivers it to a window, in window coordinates (points):
/// from the compositor, or from `InputDriver` — the same path either way (rule W3).
public enum WindowInput: Sendable {
    case pointerMoved(Point)
    case pointerLeft
    case pointerButton(PointerButton, pressed: Bool)
    /// A scroll in points (positive `dy`: towards the end of the content).
    case scroll(dx: Double, dy: Double)
    case touchDown(id: Int, at: Point)
    case touchMoved(id: Int, to: Point)
    case touchUp(id: Int)
    /// The compositor took every touch back (`wl_touch.cancel`).
    case touchesCancelled
    /// A key went down or up; `repeats` says whether the keymap repeats it.
    case key(Key, pressed: Bool, repeats: Bool)
    /// Keyboard focus left the window: held keys are cancelled, repeat stops.
    case keyboardLeft
    /// An input method's update for the focused text (text-input's `done`): the
    /// old composition goes, `deleteBefore`/`deleteAfter` bytes around the caret
    /// are deleted, `commit` is inserted, `preedit` is shown as the new composition.
    case composition(preedit: String?, commit: String?, deleteBefore: Int, deleteAfter: Int)
}

/// A window's input path (rules H1–H5): hit testing, touches that stay with
/// their view, gesture recognizers that see touches first, key presses to the
/// first responder, key repeat, hover.
@MainActor
final class InputDispatcher {
    unowned let window: Window
    /// Touches in progress by seat id (the pointer's primary button is −1).
    private var touches: [Int: Touch] = [:]
    private(set) var pointerLocation: Point?
    private var pointerButtons: Set<PointerButton> = []
    /// The last tap's end, to count taps in a row.
    private var lastTap: (time: Double, point: Point, count: Int)?
    /// The cursor for where the pointer is (the arrow when nothing says otherwise).
    private(set) var cursor = Cursor.arrow
    /// Told when ``cursor`` changes (the application shows it on the seat's pointer).
    var onCursorChange: ((Cursor) -> Void)?
    /// Hover recognizers the pointer is over.
    private var hovering: [GestureRecognizer] = []
    /// Keys held, by key code.
    private var presses: [UInt32: Press] = [:]
    private var repeatTimer: MediaTimer?
    /// The key code that repeats now.
    private var repeatingKey: UInt32?
    /// Key repeat: presses per second (0: none) and the delay before the first.
    var repeatRate = 25.0
    var repeatDelay = 0.6

    init(window: Window) { self.window = window }

    func handle(_ input: WindowInput) {
        let now = currentMediaTime()
        defer { if let id = grabPending { endGrab(of: id, time: now) } }
        if let drag = localDrag { followLocalDrag(drag, input) }
        switch input {
        case let .pointerMoved(p):
            pointerLocation = p
            if touches[-1] != nil { move(id: -1, to: p, time: now) }
            updateHover(at: p)
            updateCursor()
        case .pointerLeft:
            pointerLocation = nil
            updateHover(at: nil)
            // Secondary buttons held are forgotten: their release goes to the surface
            // the pointer is on now (a menu that grabbed it), never here.
            pointerButtons = []
            menuButtons = []
        case let .pointerButton(button, pressed):
            let p = pointerLocation ?? .zero
            if button == .left {
                if pressed, touches[-1] == nil { begin(id: -1, type: .indirectPointer, at: p, time: now) }
                if !pressed { end(id: -1, time: now) }
            } else if pressed != pointerButtons.contains(button) {
                if pressed { pointerButtons.insert(button) } else { pointerButtons.remove(button) }
                // A secondary click on a view with a context menu opens it; the
                // click and its release go nowhere else (rule M4).
                if menuButtons.remove(button) != nil { return }
                if button == .right, pressed, let interaction = hitView(at: p)?.nearestContextMenuInteraction,
                   let view = interaction.view, interaction.present(at: view.convert(p, from: nil)) {
                    menuButtons.insert(button)
                    return
                }
                hitView(at: p)?.pointerButton(button, pressed: pressed, with: Event(type: .touches, timestamp: now))
            }
        case let .scroll(dx, dy):
            let p = pointerLocation ?? .zero
            let target: Responder = hitView(at: p) ?? window
            target.scrollWheel(with: ScrollEvent(dx: dx, dy: dy, location: p, timestamp: now))
        case let .touchDown(id, p):
            guard id != -1, touches[id] == nil else { return }
            begin(id: id, type: .direct, at: p, time: now)
        case let .touchMoved(id, p):
            move(id: id, to: p, time: now)
        case let .touchUp(id):
            end(id: id, time: now)
        case .touchesCancelled:
            cancelAllTouches(time: now)
        case let .key(key, pressed, repeats):
            pressed ? keyDown(key, repeats: repeats, time: now) : keyUp(key, time: now)
        case .keyboardLeft:
            cancelAllPresses(time: now)
        case let .composition(preedit, commit, before, after):
            (window.firstResponder as? TextInputClient)?.applyComposition(preedit: preedit, commit: commit, deleteBefore: before, deleteAfter: after)
        }
    }

    /// The view at a point of the surface: the window's own frame first, then the content.
    private func hitView(at point: Point) -> View? {
        if let frame = window.decorations, let hit = frame.hitTest(frame.convert(point, from: nil), with: nil) { return hit }
        return window.rootView.hitTest(window.rootView.convert(point, from: nil), with: nil)
    }

    // MARK: Touches (rules H3, H4)

    private func begin(id: Int, type: Touch.TouchType, at p: Point, time: Double) {
        let view = hitView(at: p)
        var count = 1
        if let last = lastTap, time - last.time <= TapGestureRecognizer.tapInterval,
           GestureRecognizer.distance(last.point, p) <= TapGestureRecognizer.allowableMovement {
            count = last.count + 1
        }
        let touch = Touch(id: id, type: type, at: p, time: time, view: view, window: window, tapCount: count)
        var recognizers: [GestureRecognizer] = []
        var v = view
        while let current = v {
            recognizers += current.gestureRecognizers.filter {
                $0.isEnabled && !($0 is HoverGestureRecognizer) && $0.allowedTouchTypes.contains(type)
            }
            v = current.superview
        }
        touch.gestureRecognizers = recognizers
        touches[id] = touch
        let event = currentEvent(time)
        for r in recognizers {
            r.track(touch)
            r.touchesBegan([touch], with: event)
        }
        deliver(touch, event) { $0.touchesBegan($1, with: $2) }
    }

    private func move(id: Int, to p: Point, time: Double) {
        guard let touch = touches[id], touch.windowLocation != p else { return }
        touch.previousWindowLocation = touch.windowLocation
        touch.windowLocation = p
        touch.timestamp = time
        touch.phase = .moved
        let event = currentEvent(time)
        for r in touch.gestureRecognizers where r.isEnabled { r.touchesMoved([touch], with: event) }
        deliver(touch, event) { $0.touchesMoved($1, with: $2) }
    }

    private func end(id: Int, time: Double) {
        guard let touch = touches[id] else { return }
        touch.timestamp = time
        touch.phase = .ended
        let event = currentEvent(time)
        for r in touch.gestureRecognizers where r.isEnabled {
            r.touchesEnded([touch], with: event)
            r.untrack(touch)
        }
        deliver(touch, event) { $0.touchesEnded($1, with: $2) }
        touches[id] = nil
        lastTap = (time, touch.windowLocation, touch.tapCount)
        finishRecognizers(of: touch)
    }

    private func cancelAllTouches(time: Double) {
        for id in touches.keys { cancel(id: id, time: time) }
    }

    /// The compositor took the pointer (`touchID` -1) or a finger for an
    /// interactive move, resize or drag: the press that asked for it may never be
    /// released to the window (mutter sends no release after its grab), so its
    /// touch is cancelled once the event being handled is delivered, as UIKit
    /// cancels a touch the system takes over. It still counts as a tap, so a
    /// second press makes a double click (the title bar maximizes).
    func grabbed(touchID: Int = -1) { grabPending = touchID }
    private var grabPending: Int?

    private func endGrab(of id: Int, time: Double) {
        grabPending = nil
        guard let touch = touches[id] else { return }
        cancel(id: id, time: time)
        lastTap = (time, touch.windowLocation, touch.tapCount)
    }

    // MARK: Drags within the window (offscreen)

    /// A drag the window carries itself (no compositor): the touch or pointer
    /// moving it, and who to tell how it ended.
    struct LocalDrag {
        let touchID: Int
        let completion: (DropOperation) -> Void
    }
    var localDrag: LocalDrag?

    /// The pointer or finger of a local drag moves it over the window's drop
    /// targets and drops it where it is released.
    private func followLocalDrag(_ drag: LocalDrag, _ input: WindowInput) {
        switch input {
        case let .pointerMoved(p) where drag.touchID == -1: window.drop.handle(.moved(p))
        case let .touchMoved(id, p) where id == drag.touchID: window.drop.handle(.moved(p))
        case .pointerButton(.left, false) where drag.touchID == -1, .touchUp(drag.touchID) where drag.touchID != -1:
            localDrag = nil
            window.drop.handle(.dropped(completion: drag.completion))
        case .pointerLeft where drag.touchID == -1, .touchesCancelled:
            localDrag = nil
            window.drop.handle(.left)
            drag.completion(.cancel)
        default: break
        }
    }

    private func cancel(id: Int, time: Double) {
        if let touch = touches[id] {
            touch.phase = .cancelled
            touch.timestamp = time
            let event = currentEvent(time)
            for r in touch.gestureRecognizers {
                r.touchesCancelled([touch], with: event)
                r.untrack(touch)
            }
            if !touch.deliveredToViewEnded, let view = touch.view {
                touch.deliveredToViewEnded = true
                view.touchesCancelled([touch], with: event)
            }
            touches[id] = nil
            finishRecognizers(of: touch)
        }
    }

    /// Gives the touch to its view — unless a recognizer took it — then cancels
    /// the view's touch once a recognizer that cancels touches has recognized.
    private func deliver(_ touch: Touch, _ event: Event, _ send: (View, Set<Touch>, Event) -> Void) {
        guard !touch.deliveredToViewEnded, let view = touch.view else { return }
        if touch.gestureRecognizers.contains(where: { $0.hasRecognized && $0.cancelsTouchesInView }) {
            touch.deliveredToViewEnded = true
            if touch.phase != .began { view.touchesCancelled([touch], with: event) }
            return
        }
        send(view, [touch], event)
        if touch.phase == .ended { touch.deliveredToViewEnded = true }
    }

    /// After a touch sequence: recognizers that are done go back to `.possible`
    /// (a multi-tap waiting for its next tap keeps waiting).
    private func finishRecognizers(of touch: Touch) {
        for r in touch.gestureRecognizers where r.touches.isEmpty {
            if let tap = r as? TapGestureRecognizer, tap.isWaitingForNextTap { continue }
            if r.state == .began || r.state == .changed { r.cancel() }
            r.reset()
        }
    }

    private func currentEvent(_ time: Double) -> Event {
        Event(type: .touches, timestamp: time, touches: touches)
    }

    // MARK: Cursor and hover

    /// The cursor of the view under the pointer, or the nearest superview that says.
    func updateCursor() {
        guard let p = pointerLocation else { return }
        var found: Cursor?
        var v = hitView(at: p)
        while let current = v, found == nil {
            found = current.cursor(at: current.convert(p, from: nil))
            v = current.superview
        }
        let new = found ?? .arrow
        guard new != cursor else { return }
        cursor = new
        onCursorChange?(new)
    }

    private func updateHover(at p: Point?) {
        var over: [GestureRecognizer] = []
        var v = p.flatMap(hitView(at:))
        while let current = v {
            over += current.gestureRecognizers.filter { $0.isEnabled && $0 is HoverGestureRecognizer }
            v = current.superview
        }
        for r in hovering where !over.contains(where: { $0 === r }) { r.hover(.ended, at: p ?? .zero) }
        for r in over { r.hover(hovering.contains { $0 === r } ? .moved : .began, at: p ?? .zero) }
        hovering = over
    }

    // MARK: Keys (rule H5)

    private var keyTarget: Responder { window.firstResponder ?? window }
    /// Keys held whose press ran a key command: their release goes nowhere either.
    private var commandPresses: Set<UInt32> = []
    /// Buttons whose press opened a context menu: their release goes nowhere either.
    private var menuButtons: Set<PointerButton> = []

    private func keyDown(_ key: Key, repeats: Bool, time: Double) {
        if let held = presses[key.keyCode] { return keyUp(held.key ?? key, time: time) }
        let press = Press(key: key, time: time)
        presses[key.keyCode] = press
        // A key command takes the key: its press and release go nowhere else (rule M6).
        if keyTarget.performKeyCommand(for: key) || openContextMenu(for: key) {
            commandPresses.insert(key.keyCode)
            stopRepeat()
            return
        }
        keyTarget.pressesBegan([press], with: PressesEvent(presses: Set(presses.values), timestamp: time))
        stopRepeat()
        if repeats, repeatRate > 0, repeatRate.isFinite {
            repeatingKey = key.keyCode
            scheduleRepeat(press, at: time + max(0, repeatDelay.isFinite ? repeatDelay : 0.6))
        }
    }

    /// The Menu key, or Shift+F10, opens the context menu of the focused view or
    /// the nearest view around it that has one, under that view (rule M4).
    private func openContextMenu(for key: Key) -> Bool {
        guard key.keysym == Key.menu || (key.keysym == Key.f10 && key.modifierFlags.contains(.shift)),
              let interaction = (window.firstResponder as? View)?.nearestContextMenuInteraction else { return false }
        return interaction.presentFromKeyboard()
    }

    /// Repeats from the press time by whole periods, so the repeats never drift.
    private func scheduleRepeat(_ press: Press, at time: Double) {
        repeatTimer = MediaTimer.schedule(at: time) { [weak self, weak press] in
            guard let self, let press, press.phase == .began, self.presses[press.key?.keyCode ?? 0] === press else { return }
            press.isRepeat = true
            press.timestamp = time
            keyTarget.pressesBegan([press], with: PressesEvent(presses: Set(presses.values), timestamp: time))
            scheduleRepeat(press, at: time + 1 / repeatRate)
        }
    }

    func stopRepeat() {
        repeatTimer?.cancel()
        repeatTimer = nil
        repeatingKey = nil
    }

    private func keyUp(_ key: Key, time: Double) {
        guard let press = presses.removeValue(forKey: key.keyCode) else { return }
        press.phase = .ended
        press.timestamp = time
        if key.keyCode == repeatingKey { stopRepeat() }
        if commandPresses.remove(key.keyCode) != nil { return }
        keyTarget.pressesEnded([press], with: PressesEvent(presses: [press], timestamp: time))
    }

    private func cancelAllPresses(time: Double) {
        stopRepeat()
        let held = presses.values.filter { !commandPresses.contains($0.key?.keyCode ?? 0) }
        presses = [:]
        commandPresses = []
        for press in held {
            press.phase = .cancelled
            keyTarget.pressesCancelled([press], with: PressesEvent(presses: [press], timestamp: time))
        }
    }

    /// Keys held now.
    var heldKeys: [Key] { presses.values.compactMap(\.key) }
}
