@testable import Strata
import StrataTesting
import Testing
import WaylandClient
import LayerKitTesting

/// A view that records the touches and presses it gets.
@MainActor
final class RecordingView: View {
    var log: [String] = []
    var takesFocus = false
    var handlesKeys = true
    override var canBecomeFirstResponder: Bool { takesFocus }
    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) { log.append("began \(touches.first!.tapCount)") }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event?) { log.append("moved") }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event?) { log.append("ended") }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { log.append("cancelled") }
    override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard handlesKeys else { return super.pressesBegan(presses, with: event) }
        let p = presses.first!
        log.append("key \(p.key!.characters)\(p.isRepeat ? " repeat" : "")")
    }
    override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) {
        guard handlesKeys else { return super.pressesEnded(presses, with: event) }
        log.append("up \(presses.first!.key!.keysym)")
    }
    override func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent?) { log.append("key cancelled") }
    override func scrollWheel(with event: ScrollEvent) { log.append("scroll \(event.dy)") }
    override func pointerButton(_ button: PointerButton, pressed: Bool, with event: Event?) { log.append("\(button) \(pressed)") }
}

@MainActor
@Suite("Input: hit testing, touches, gestures, keys", .isolatedLayerContext)
struct InputTests {
    func setUp() -> (ViewFixture, InputDriver, RecordingView) {
        let f = ViewFixture()
        let view = RecordingView(frame: Rect(x: 100, y: 100, width: 100, height: 100))
        f.window.rootView.addSubview(view)
        return (f, InputDriver(window: f.window), view)
    }

    // MARK: H1, H2

    @Test("the focus leaves with its view: a focused field taken out of the window resigns, even one that refuses, and keys reach it no more")
    func focusLeavesWithItsView() {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        let holder = View(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let field = TextField(frame: Rect(x: 10, y: 10, width: 150, height: 28))
        var ended = 0
        field.addAction(for: .editingDidEnd) { _ in ended += 1 }
        holder.addSubview(field)
        f.window.rootView.addSubview(holder)
        #expect(field.becomeFirstResponder())
        holder.removeFromSuperview()
        #expect(f.window.firstResponder == nil && !field.isFirstResponder && ended == 1)
        driver.type("x")
        #expect(field.text?.isEmpty ?? true)
        /// A responder that never gives the focus up still loses it with its window.
        final class Stubborn: View {
            override var canBecomeFirstResponder: Bool { true }
            override var canResignFirstResponder: Bool { false }
        }
        let stubborn = Stubborn(frame: .zero)
        f.window.rootView.addSubview(stubborn)
        #expect(stubborn.becomeFirstResponder())
        let other = View()
        other.addSubview(stubborn)
        #expect(f.window.firstResponder == nil)
    }

    @Test("rule H1: hidden, transparent and disabled views are not hit; front to back; through transforms")
    func hitTesting() {
        let (f, _, view) = setUp()
        let root = f.window.rootView
        let front = View(frame: Rect(x: 150, y: 150, width: 100, height: 100))
        root.addSubview(front)
        #expect(root.hitTest(Point(x: 160, y: 160), with: nil) === front)
        #expect(root.hitTest(Point(x: 120, y: 120), with: nil) === view)
        front.isHidden = true
        #expect(root.hitTest(Point(x: 160, y: 160), with: nil) === view)
        front.isHidden = false
        front.alpha = 0.01
        #expect(root.hitTest(Point(x: 160, y: 160), with: nil) === view)
        front.alpha = 1
        front.isUserInteractionEnabled = false
        #expect(root.hitTest(Point(x: 160, y: 160), with: nil) === view)
        // A subview's part outside its superview's bounds is not hit.
        let child = View(frame: Rect(x: 80, y: 80, width: 60, height: 60))
        view.addSubview(child)
        #expect(root.hitTest(Point(x: 190, y: 190), with: nil) === child)
        #expect(root.hitTest(Point(x: 230, y: 230), with: nil) === root)
        // Turned a quarter about its centre (150, 150): its child's local (90, 90) lands at (110, 190).
        view.transform = AffineTransform(rotationAngle: .pi / 2)
        #expect(root.hitTest(Point(x: 110, y: 190), with: nil) === child)
        #expect(root.hitTest(Point(x: 500, y: 500), with: nil) == nil)   // outside the root
    }

    @Test("rule H2: model geometry; views in a block animation are not hit unless it allows interaction")
    func hitTestingDuringAnimation() {
        let (f, _, view) = setUp()
        let root = f.window.rootView
        View.animate(duration: 1) { view.center = Point(x: 300, y: 150) }
        #expect(root.hitTest(Point(x: 300, y: 150), with: nil) === root)
        Transaction.flush()
        f.advance(1)
        View.animate(duration: 1, options: .allowUserInteraction) { view.center = Point(x: 150, y: 150) }
        Transaction.flush()
        f.advance(0.1)   // on screen it is still near x 290; the model says 150
        #expect(root.hitTest(Point(x: 150, y: 150), with: nil) === view)
        #expect(root.hitTest(Point(x: 290, y: 150), with: nil) === root)
    }

    // MARK: H3

    @Test("rule H3: a touch stays with the view it began on, even outside it; unhandled touches go up the chain")
    func touchOwnership() {
        let (f, driver, view) = setUp()
        driver.movePointer(to: Point(x: 150, y: 150))
        driver.press(.left)
        driver.movePointer(to: Point(x: 390, y: 290))   // far outside
        driver.release(.left)
        #expect(view.log == ["began 1", "moved", "ended"])
        let plain = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        view.addSubview(plain)
        view.log = []
        driver.click(at: Point(x: 115, y: 115))          // on the plain subview, which does not handle touches
        #expect(view.log == ["began 1", "ended"])
        _ = f
    }

    @Test("rule H3: taps in a row count up; a pointer's primary button is an indirect-pointer touch")
    func tapCount() {
        let (f, driver, view) = setUp()
        var types: [Touch.TouchType] = []
        final class TypeRecorder: View {
            var seen: (Touch.TouchType) -> Void = { _ in }
            override func touchesBegan(_ touches: Set<Touch>, with event: Event?) { seen(touches.first!.type) }
        }
        let recorder = TypeRecorder(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        recorder.seen = { types.append($0) }
        view.addSubview(recorder)
        driver.click(at: Point(x: 150, y: 150))
        f.advance(0.2)
        driver.click(at: Point(x: 152, y: 150))
        f.advance(1)
        driver.click(at: Point(x: 150, y: 150))
        #expect(view.log == ["began 1", "ended", "began 2", "ended", "began 1", "ended"])
        driver.click(at: Point(x: 110, y: 110))
        driver.touchDown(1, at: Point(x: 110, y: 110))
        driver.touchUp(1)
        #expect(types == [.indirectPointer, .direct])
    }

    @Test("rule H4: a recognized tap cancels the view's touch instead of ending it")
    func tapCancelsViewTouch() {
        let (_, driver, view) = setUp()
        var taps = 0
        view.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        driver.click(at: Point(x: 150, y: 150))
        #expect(taps == 1 && view.log == ["began 1", "cancelled"])
    }

    @Test("other buttons and the wheel reach the view under the pointer as events of their own")
    func buttonsAndWheel() {
        let (_, driver, view) = setUp()
        driver.movePointer(to: Point(x: 150, y: 150))
        driver.press(.right)
        driver.release(.right)
        driver.scroll(dx: 0, dy: 30)
        #expect(view.log == ["right true", "right false", "scroll 30.0"])
    }

    // MARK: H4

    @Test("rule H4: a tap recognizer recognizes on release; a double tap needs its second tap in time")
    func taps() {
        let (f, driver, view) = setUp()
        var singles = 0, doubles = 0
        let single = TapGestureRecognizer { _ in singles += 1 }
        let double = TapGestureRecognizer { _ in doubles += 1 }
        double.numberOfTapsRequired = 2
        view.addGestureRecognizer(single)
        view.addGestureRecognizer(double)
        driver.click(at: Point(x: 150, y: 150))
        f.advance(0.1)
        driver.click(at: Point(x: 150, y: 150))
        #expect(singles == 2 && doubles == 1)
        driver.click(at: Point(x: 150, y: 150))
        f.advance(0.5)                                   // too late for a second tap
        driver.click(at: Point(x: 150, y: 150))
        #expect(doubles == 1 && double.state == .possible)
        driver.drag(from: Point(x: 110, y: 110), to: Point(x: 190, y: 110))   // moved too far: no tap
        #expect(singles == 4)
    }

    @Test("rule H4: a recognized pan cancels the view's touch; translation and velocity in the view's coordinates")
    func pan() {
        let (f, driver, view) = setUp()
        var states: [GestureRecognizer.State] = []
        var translation = Point.zero, velocity = Point.zero
        let pan = PanGestureRecognizer { g in
            states.append(g.state)
            let p = g as! PanGestureRecognizer
            translation = p.translation(in: view)
            velocity = p.velocity(in: view)
        }
        view.addGestureRecognizer(pan)
        driver.movePointer(to: Point(x: 120, y: 150))
        driver.press(.left)
        f.advance(0.01)
        driver.movePointer(to: Point(x: 125, y: 150))   // 5 points: not yet
        #expect(states.isEmpty && view.log == ["began 1", "moved"])
        f.advance(0.01)
        driver.movePointer(to: Point(x: 140, y: 150))   // 20 points: the pan begins
        #expect(states == [.began])
        #expect(view.log == ["began 1", "moved", "cancelled"])
        f.advance(0.01)
        driver.movePointer(to: Point(x: 150, y: 150))
        driver.release(.left)
        #expect(states == [.began, .changed, .ended])
        #expect(translation == Point(x: 30, y: 0))
        #expect(abs(velocity.x - 1000) < 1)               // 10 points in 0.01 s at the end
        #expect(view.log.count == 3)                      // nothing after the cancel
        #expect(pan.state == .possible)                   // reset for the next gesture
    }

    @Test("rule H4: cancelsTouchesInView = false leaves the view its touches")
    func panWithoutCancelling() {
        let (_, driver, view) = setUp()
        let pan = PanGestureRecognizer { _ in }
        pan.cancelsTouchesInView = false
        view.addGestureRecognizer(pan)
        driver.drag(from: Point(x: 110, y: 150), to: Point(x: 190, y: 150), steps: 4)
        #expect(view.log == ["began 1", "moved", "moved", "moved", "moved", "ended"])
    }

    @Test("rule H4: a long press begins after its duration on the media clock, then follows the touch")
    func longPress() {
        let (f, driver, view) = setUp()
        var states: [GestureRecognizer.State] = []
        let press = LongPressGestureRecognizer { states.append($0.state) }
        press.minimumPressDuration = 0.5
        view.addGestureRecognizer(press)
        driver.movePointer(to: Point(x: 150, y: 150))
        driver.press(.left)
        f.advance(0.49)
        #expect(states.isEmpty)
        f.advance(0.01)
        #expect(states == [.began])
        driver.movePointer(to: Point(x: 160, y: 150))
        driver.release(.left)
        #expect(states == [.began, .changed, .ended])
        #expect(view.log == ["began 1", "cancelled"])
        // Moving too far first makes it fail.
        driver.press(.left)
        driver.movePointer(to: Point(x: 190, y: 150))
        f.advance(1)
        driver.release(.left)
        #expect(states.count == 3)
    }

    @Test("rule H4: hover begins over the view, changes as the pointer moves, ends when it leaves")
    func hover() {
        let (_, driver, view) = setUp()
        var states: [GestureRecognizer.State] = []
        var where_: [Point] = []
        let hover = HoverGestureRecognizer { g in
            states.append(g.state)
            where_.append(g.location(in: view))
        }
        view.addGestureRecognizer(hover)
        driver.movePointer(to: Point(x: 50, y: 50))
        driver.movePointer(to: Point(x: 110, y: 120))
        driver.movePointer(to: Point(x: 120, y: 120))
        driver.movePointer(to: Point(x: 300, y: 120))
        #expect(states == [.began, .changed, .ended])
        #expect(where_.first == Point(x: 10, y: 20))
    }

    @Test("rule H4: a pinch follows two fingers' distance")
    func pinch() {
        let (_, driver, view) = setUp()
        var scales: [Double] = []
        let pinch = PinchGestureRecognizer { g in scales.append((g as! PinchGestureRecognizer).scale) }
        view.addGestureRecognizer(pinch)
        driver.touchDown(1, at: Point(x: 140, y: 150))
        driver.touchDown(2, at: Point(x: 160, y: 150))
        driver.touchMove(2, to: Point(x: 180, y: 150))
        driver.touchMove(1, to: Point(x: 120, y: 150))
        driver.touchUp(1)
        driver.touchUp(2)
        #expect(scales == [2, 3, 3])
        #expect(view.log.prefix(2) == ["began 1", "began 1"])
    }

    // MARK: H5

    @Test("rule H5: key presses go to the first responder, then along the chain; Tab moves the focus")
    func keysAndFocus() {
        let (f, driver, view) = setUp()
        let other = RecordingView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let inner = RecordingView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        f.window.rootView.addSubview(other)
        view.addSubview(inner)
        view.takesFocus = true
        inner.takesFocus = true
        inner.handlesKeys = false
        #expect(inner.becomeFirstResponder() && inner.isFirstResponder)
        driver.type("Hi!")
        // Through inner, which does not handle keys, to view; Shift is a press of its own (keysym 65505).
        #expect(view.log == ["key ", "key H", "up 72", "up 65505", "key i", "up 105", "key ", "key !", "up 33", "up 65505"])
        #expect(!other.becomeFirstResponder())                                   // it does not take focus
        view.handlesKeys = false                                                 // now Tab reaches the window
        driver.type("\t")
        #expect(f.window.firstResponder === view)
        driver.pressKey(keysym: Keyboard.keysym(named: "Shift_L"))
        driver.type("\t")
        driver.releaseKey(keysym: Keyboard.keysym(named: "Shift_L"))
        #expect(f.window.firstResponder === inner)
        #expect(inner.resignFirstResponder() && f.window.firstResponder == nil)
    }

    @Test("rule H5: key repeat after the delay at the rate, on the media clock; it stops on release, leave and focus change")
    func keyRepeat() {
        let (f, driver, view) = setUp()
        view.takesFocus = true
        view.becomeFirstResponder()
        f.window.setKeyRepeat(rate: 10, delay: 0.5)
        let a = Keyboard.keysym(for: "a")
        driver.pressKey(keysym: a)
        f.advance(0.49)
        #expect(view.log == ["key a"])
        f.advance(0.31)                                  // repeats at 0.5, 0.6, 0.7, 0.8
        #expect(view.log == ["key a"] + Array(repeating: "key a repeat", count: 4))
        driver.releaseKey(keysym: a)
        f.advance(1)
        #expect(view.log.count == 6)
        driver.pressKey(keysym: a)
        driver.leaveKeyboard()
        f.advance(1)
        #expect(view.log.suffix(2) == ["key a", "key cancelled"])
        driver.pressKey(keysym: a)
        view.resignFirstResponder()
        f.advance(1)
        #expect(view.log.last == "key a")
        let shift = Keyboard.keysym(named: "Shift_L")
        driver.pressKey(keysym: shift)                 // modifiers do not repeat
        #expect(view.log.last == "key a")
        f.window.setKeyRepeat(rate: 0, delay: 0.1)     // rate 0: no repeat
        view.becomeFirstResponder()
        driver.pressKey(keysym: Keyboard.keysym(for: "b"))
        f.advance(1)
        #expect(view.log.last == "key B")
    }

    // MARK: Keymaps (xkbcommon)

    @Test("rule H5: text comes from the keymap: a German layout types z on the Y key")
    func germanLayout() throws {
        let german = try Keyboard(layout: "de")
        let keyY: UInt32 = 21   // KEY_Y, evdev
        #expect(german.press(keyCode: keyY).characters == "z")
        let us = try Keyboard(layout: "us")
        #expect(us.press(keyCode: keyY).characters == "y")
    }

    @Test("rule H5: a compose sequence (dead acute, e) types é")
    func compose() throws {
        let keyboard = try Keyboard(layout: "us", variant: "intl", locale: "en_US.UTF-8")
        #expect(keyboard.hasCompose)
        let (_, driver, view) = setUp()
        let composing = InputDriver(window: driver.window, keyboard: keyboard)
        view.takesFocus = true
        view.becomeFirstResponder()
        composing.pressKey(keysym: Keyboard.keysym(named: "dead_acute"))
        composing.releaseKey(keysym: Keyboard.keysym(named: "dead_acute"))
        composing.type("e")
        #expect(view.log.filter { $0.hasPrefix("key") } == ["key ", "key é"])
        composing.type("e")
        #expect(view.log.filter { $0.hasPrefix("key") }.last == "key e")
    }

    // MARK: Bad input

    @Test("bad input: a keymap that does not compile is a clear error")
    func badKeymap() {
        #expect(throws: KeymapError.self) { try Keyboard(keymapText: "xkb_keymap { garbage") }
        #expect(throws: KeymapError.self) { try Keyboard(layout: "no-such-layout-at-all") }
    }

    @Test("bad input: 10,000 touch points, a cancel, and a view removed during its own touch handling")
    func manyTouchesAndRemoval() {
        final class SelfRemoving: View {
            override func touchesBegan(_ touches: Set<Touch>, with event: Event?) { removeFromSuperview() }
        }
        let (f, driver, view) = setUp()
        for id in 0..<10_000 { driver.touchDown(id, at: Point(x: Double(id % 300), y: 150)) }
        driver.cancelTouches()
        #expect(view.log.filter { $0 == "cancelled" }.count == view.log.filter { $0.hasPrefix("began") }.count)
        let gone = SelfRemoving(frame: Rect(x: 300, y: 0, width: 50, height: 50))
        f.window.rootView.addSubview(gone)
        driver.click(at: Point(x: 310, y: 10))
        driver.movePointer(to: Point(x: 320, y: 20))
        #expect(gone.superview == nil)
        driver.touchUp(42)                             // a touch that is not there
        driver.touchMove(7, to: .zero)
    }
}

/// Keys typed through a real virtual keyboard on sway reach the first responder.
@MainActor
@Suite("Input from a real seat", .serialized, .mainLayerContext)
struct SeatInputTests {
    @Test("rule H5 end to end: text typed with wtype on sway arrives, through the compositor's keymap, at the first responder")
    func typingOnSway() throws {
        let (sway, display) = try appOnSway()
        defer { withExtendedLifetime(sway) { Application.shared.disconnect() } }
        let (_, field) = try showRecordingWindow("typing", display)
        try display.connection.roundtrip()
        // wtype makes a virtual keyboard and types; the seat's capabilities, keymap and focus come first.
        let (wtype, _) = try sway.startClient(["wtype", "-s", "500", "Hé!"])
        defer { wtype.terminate() }
        try display.connection.dispatch(until: { field.log.filter { $0.hasPrefix("up") }.count >= 3 }, timeout: 10,
                                        what: "three keys from wtype")
        let text = field.log.filter { $0.hasPrefix("key ") }.map { String($0.dropFirst(4)) }.joined()
        #expect(text == "Hé!", "\(field.log)")
    }
}


/// A real pointer, touch screen and keyboard on kwin (its fake input reaches
/// clients as a seat's devices do), and a pointer and keyboard on sway
/// (wlroots' virtual pointer and keyboard).
@MainActor
@Suite("Pointer from a real seat (kwin, sway)", .serialized, .mainLayerContext)
struct KWinInputTests {
    @Test("rules H1, H5, H6 end to end: a pointer click through kwin's seat presses a button; the wheel scrolls; a touch taps; keys type")
    func pointerOnKWin() throws {
        let (kwin, display) = try appOnKWin()
        defer { withExtendedLifetime(kwin) { Application.shared.disconnect() } }
        try pointerAndKeys(on: kwin, display, through: try KWinFakeInput(on: kwin), touch: true)
    }

    @Test("rules H1, H5, H6 end to end on sway: a click through its virtual pointer presses a button, the wheel scrolls, keys through its virtual keyboard type; touches are refused with the reason")
    func pointerOnSway() throws {
        let (sway, display) = try appOnSway()
        defer { withExtendedLifetime(sway) { Application.shared.disconnect() } }
        let input = try sway.injectedInput()
        #expect(throws: InputUnavailable.self) { try input.touchDown(1, x: 10, y: 10) }
        try pointerAndKeys(on: sway, display, through: input, touch: false)
    }

    /// A fullscreen window with a button and a view that records what reaches it,
    /// driven through the compositor's seat by `input`.
    func pointerAndKeys(on compositor: any Compositor, _ display: Display, through input: InjectedInput, touch: Bool) throws {
        let window = Window(title: "pointer", size: Size(width: 300, height: 200))
        let button = Button(frame: Rect(x: 40, y: 40, width: 120, height: 40))
        button.setTitle("Press", for: .normal)
        var presses = 0
        button.addAction(for: .touchUpInside) { _ in presses += 1 }
        let log = RecordingView(frame: Rect(x: 180, y: 40, width: 100, height: 100))
        log.backgroundColor = .red
        window.backgroundColor = Color(rgba8: 0x33, 0x66, 0xcc)
        window.rootView.addSubview(button)
        window.rootView.addSubview(log)
        window.show()
        window.isFullscreen = true   // at the output's origin: output coordinates are the window's
        try display.connection.dispatch(until: { window.isFullscreen && (window.frameNumber) > 0 }, timeout: 10,
                                        what: "the fullscreen window")
        // The compositor adds the injected devices to the seat on the first input and the app binds them; the
        // pointer enters then (kwin) or at the next motion (sway): moved until it has.
        let entered = { display.seats.values.contains { !$0.cursorNames.isEmpty } }
        for step in 0..<10 where !entered() {
            try input.movePointer(toX: 10 + Double(step), y: 10)
            _ = try? display.connection.dispatch(until: entered, timeout: 0.5)
        }
        #expect(entered(), "the injected pointer entering the window")
        try input.click(atX: 100, y: 60)
        try display.connection.dispatch(until: { presses == 1 }, timeout: 5, what: "the button's press through the seat")
        // A click outside the button does not press it; one on the other view reaches that view.
        try input.click(atX: 230, y: 90)
        try display.connection.dispatch(until: { log.log.contains { $0.hasPrefix("ended") } }, timeout: 5, what: "a touch on the other view")
        #expect(presses == 1, "\(log.log)")
        try input.scroll(dx: 0, dy: 15)
        try display.connection.dispatch(until: { log.log.contains { $0.hasPrefix("scroll") } }, timeout: 5, what: "the wheel over the other view")
        if touch {
            // A finger on the button presses it too.
            try input.touchDown(1, x: 100, y: 60)
            try input.touchUp(1)
            try display.connection.dispatch(until: { presses == 2 }, timeout: 5, what: "the button's press by a finger")
        }
        // Keys through the seat's keyboard reach the first responder, through its keymap (evdev 30 is A, 42 Shift).
        log.takesFocus = true
        log.becomeFirstResponder()
        for (code, pressed) in [(42, true), (30, true), (30, false), (42, false), (30, true), (30, false)] as [(UInt32, Bool)] {
            try input.key(code, pressed: pressed)
        }
        try display.connection.dispatch(until: { log.log.filter { $0.hasPrefix("key ") }.count >= 3 }, timeout: 5,
                                        what: "three keys from \(compositor.name)")
        #expect(log.log.filter { $0.hasPrefix("key ") } == ["key ", "key A", "key a"], "Shift (no characters), then A with it, a without: \(log.log)")
        // What the compositor shows: the window at the output's origin, the view where the clicks landed
        // (looked at away from the pointer, which sway draws into its captures).
        let shot = try compositor.screenshot(timeout: 10)
        #expect(shot.rgba8(x: 270, y: 130) == (255, 0, 0, 255) && shot.rgba8(x: 20, y: 180) == (0x33, 0x66, 0xcc, 255))
    }
}

extension KWinInputTests {
    @Test("rule W1 end to end on kwin: the client-side title bar takes a real double click (maximize toggles) and its close button a click")
    func decorationsOnKWin() throws {
        let (kwin, display) = try appOnKWin()
        defer { withExtendedLifetime(kwin) { Application.shared.disconnect() } }
        let window = Window(title: "decorated", size: Size(width: 300, height: 200))
        window.prefersServerSideDecorations = false
        var closeAsked = 0
        window.shouldClose = { _ in closeAsked += 1; return false }
        window.show()
        window.isMaximized = true   // at the output's origin: the title bar spans its top
        try display.connection.dispatch(until: { window.isMaximized && window.decorations != nil && (window.frameNumber) > 0 },
                                        timeout: 10, what: "the maximized window with its own decorations")
        let input = try KWinFakeInput(on: kwin)
        try input.movePointer(toX: 200, y: 100)
        try display.connection.dispatch(until: { display.seats.values.contains { !$0.cursorNames.isEmpty } }, timeout: 5,
                                        what: "the fake pointer entering the window")
        try input.click(atX: 320, y: 16)
        try input.click(atX: 320, y: 16)
        try display.connection.dispatch(until: { !window.isMaximized }, timeout: 5, what: "a double click on the title bar restoring the window")
        window.isMaximized = true
        try display.connection.dispatch(until: { window.isMaximized }, timeout: 5, what: "the window maximized again")
        // Its frame at the new size must be committed (and a round trip later, shown) before the click lands on it.
        try display.connection.dispatch(until: { window.toplevel?.lastCommittedBuffer?.width == 640 && window.toplevel?.isDrawing == false },
                                        timeout: 5, what: "a frame at the maximized size")
        try display.connection.roundtrip()
        try input.movePointer(toX: 300, y: 300)
        try display.connection.roundtrip()
        try input.click(atX: 640 - 6 - 12, y: 16)   // the close button, at the bar's right end
        try display.connection.dispatch(until: { closeAsked == 1 }, timeout: 5, what: "the close button asking to close")
    }
}

/// Cursors: which one the pointer shows over which view, and the theme's images.
@MainActor
@Suite("Cursors", .serialized, .mainLayerContext)
struct CursorTests {
    @Test("the cursor is the hit view's, else the nearest superview's, else the arrow; a change while hovered takes effect")
    func cursorResolution() {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        let field = View(frame: Rect(x: 10, y: 10, width: 100, height: 30))
        field.cursor = .text
        let button = View(frame: Rect(x: 10, y: 60, width: 100, height: 30))
        button.cursor = .pointingHand
        let icon = View(frame: Rect(x: 5, y: 5, width: 10, height: 10))   // inherits the hand
        button.addSubview(icon)
        f.window.rootView.addSubview(field)
        f.window.rootView.addSubview(button)
        var changes: [Cursor] = []
        f.window.input.onCursorChange = { changes.append($0) }
        driver.movePointer(to: Point(x: 20, y: 20))
        #expect(f.window.cursor == .text)
        driver.movePointer(to: Point(x: 20, y: 70))
        #expect(f.window.cursor == .pointingHand)
        driver.movePointer(to: Point(x: 200, y: 200))
        #expect(f.window.cursor == .arrow)
        driver.movePointer(to: Point(x: 20, y: 20))
        field.cursor = .crosshair
        #expect(f.window.cursor == .crosshair)
        #expect(changes == [.text, .pointingHand, .arrow, .text, .crosshair])
    }

    @Test("a window's own frame shows resize cursors on its edges; the theme has images for every cursor, bigger at scale 2")
    func frameCursorsAndTheme() throws {
        let (weston, display) = try appOnWeston()
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }   // the compositor lives to the end
        let window = Window(title: "cursors", size: Size(width: 300, height: 200))
        window.show()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        let driver = InputDriver(window: window)
        driver.movePointer(to: Point(x: 3, y: 120))
        #expect(window.cursor == .resizeLeft)
        driver.movePointer(to: Point(x: 313, y: 245))
        #expect(window.cursor == .resizeBottomRight)
        driver.movePointer(to: Point(x: 100, y: 100))
        #expect(window.cursor == .arrow)

        let theme = try #require(CursorTheme(shm: display.shm, size: 24, scale: 1))
        let big = try #require(CursorTheme(shm: display.shm, size: 24, scale: 2))
        let all: [Cursor] = [.arrow, .text, .pointingHand, .crosshair, .notAllowed, .openHand, .closedHand, .wait,
                             .resizeTop, .resizeBottom, .resizeLeft, .resizeRight,
                             .resizeTopLeft, .resizeTopRight, .resizeBottomLeft, .resizeBottomRight]
        for cursor in all {
            let image = try #require(theme.image(named: cursor.names), "\(cursor)")
            #expect(image.width > 0 && image.hotspotX <= image.width && image.hotspotY <= image.height)
        }
        let small = try #require(theme.image(named: Cursor.text.names)), large = try #require(big.image(named: Cursor.text.names))
        #expect(large.width > small.width)
    }
}

extension SeatInputTests {
    @Test("activating a window through xdg-activation: sway focuses it or marks it urgent")
    func activation() throws {
        let (sway, display) = try appOnSway()
        defer { withExtendedLifetime(sway) { Application.shared.disconnect() } }
        var fields: [RecordingView] = []
        var windows: [Window] = []
        for i in 0..<2 {
            let (window, field) = try showRecordingWindow("window \(i)", display)
            fields.append(field)
            windows.append(window)
        }
        try display.connection.roundtrip()
        let (first, _) = try sway.startClient(["wtype", "-s", "300", "a"])
        defer { first.terminate() }
        try display.connection.dispatch(until: { fields.contains { $0.log.contains("key a") } }, timeout: 10, what: "a key")
        #expect(fields[1].log.contains("key a"))            // the window shown last has the focus
        let traffic = try WaylandTraffic.recording {
            #expect(windows[0].activate())
            try? display.connection.dispatch(until: { false }, timeout: 0.5)   // half a second of events
        }
        let names = traffic.map(\.name)
        #expect(names.contains("get_activation_token") && names.contains("done") && names.contains("activate"), "\(names)")
        // sway gives the activated window the focus, or (when it does not trust the
        // request enough) marks it urgent; without the activation neither happens.
        let (second, _) = try sway.startClient(["wtype", "-s", "200", "b"])
        defer { second.terminate() }
        try display.connection.dispatch(until: { fields.contains { $0.log.contains("key b") } }, timeout: 10, what: "b key")
        let tree = try sway.tree()
        #expect(fields[0].log.contains("key b") || tree.contains("\"urgent\": true"), "\(tree.prefix(2000))")
        #expect(!Window(title: "offscreen", size: Size(width: 10, height: 10)).activate())
    }
}

extension SeatInputTests {
    @Test("bad input: a seat losing its devices stops key repeat and cancels touches; events for a closed window's surface are ignored")
    func devicesGoneAndStaleSurfaces() throws {
        Transaction.reset()
        Application.shared.disconnect()
        let clock = ManualMediaClock(now: 100)
        MediaTime.clock = clock
        defer { MediaTime.clock = MonotonicMediaClock() }
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        Application.shared.use(display)
        defer { Application.shared.disconnect() }
        let window = Window(title: "seat", size: Size(width: 200, height: 100))
        let field = RecordingView(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        field.takesFocus = true
        window.rootView.addSubview(field)
        window.show()
        field.becomeFirstResponder()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        let surface = try #require(window.surfaceID)
        let router = SeatRouter { [window] }
        let keyboard = try Keyboard(layout: "us")
        router.handle(.keyboardEntered(surface, keyCodes: [], serial: 1))
        router.handle(.repeatInfo(rate: 10, delay: 0.5))
        router.handle(.keyPressed(keyboard.press(keyCode: 30), []))          // KEY_A
        let inside = window.rootView.convert(Point(x: 50, y: 50), to: nil)
        router.handle(.touchDown(surface, id: 3, x: inside.x, y: inside.y))
        clock.advance(by: 0.65)
        #expect(field.log.filter { $0 == "key a repeat" }.count == 2)
        router.handle(.devicesGone)
        clock.advance(by: 2)
        #expect(field.log.filter { $0 == "key a repeat" }.count == 2)     // no stuck key
        #expect(field.log.contains("key cancelled") && field.log.contains("cancelled"))
        window.close()
        let before = field.log
        router.handle(.pointerEntered(surface, x: 10, y: 10, serial: 2))
        router.handle(.pointerButton(code: PointerButton.left.code, pressed: true, serial: 3))
        router.handle(.keyboardEntered(surface, keyCodes: [], serial: 4))
        router.handle(.keyPressed(keyboard.press(keyCode: 30), []))
        router.handle(.touchDown(surface, id: 4, x: 1, y: 1))
        #expect(field.log == before)
    }

    @Test("a key that closed its submenu on its press (Left) is released in the window under it, though the compositor still names the closed submenu's surface: not lost")
    func keyReleaseFollowsItsPress() throws {
        Transaction.reset()
        Application.shared.disconnect()
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        Application.shared.use(display)
        defer { Application.shared.disconnect() }
        let window = Window(title: "seat menus", size: Size(width: 300, height: 200))
        let target = View(frame: window.rootView.bounds)
        let interaction = ContextMenuInteraction { _ in
            Menu(children: [MenuAction(title: "One") { _ in }, Menu(title: "More", children: [MenuAction(title: "Two") { _ in }])])
        }
        target.addInteraction(interaction)
        window.rootView.addSubview(target)
        window.show()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        func shown(_ count: Int) throws -> Window {
            try display.connection.dispatch(until: {
                window.popupsInStackingOrder.count == count && window.popupsInStackingOrder.allSatisfy { $0.window.frameNumber > 0 }
            }, timeout: 5, what: "\(count) popups drawn")
            return window.popupsInStackingOrder[count - 1].window
        }
        #expect(interaction.present(at: Point(x: 20, y: 20)))
        let menu = try shown(1)
        let router = SeatRouter { [window] }
        let keyboard = try Keyboard(layout: "us")
        let (up, right, left) = (UInt32(103), UInt32(106), UInt32(105))   // evdev KEY_UP, KEY_RIGHT, KEY_LEFT
        let menuSurface = try #require(menu.surfaceID)
        router.handle(.keyboardEntered(menuSurface, keyCodes: [], serial: 1))
        for (code, keysym) in [(up, UInt32(0xff52)), (right, 0xff53)] {   // Up wraps to More; Right opens it
            router.handle(.keyPressed(keyboard.press(keyCode: code), []))
            router.handle(.keyReleased(keyCode: code, keysym: keysym, []))
        }
        let submenu = try shown(2)
        router.handle(.keyboardLeft(menuSurface))
        router.handle(.keyboardEntered(try #require(submenu.surfaceID), keyCodes: [], serial: 2))
        // Left closes the submenu on its press; its release comes before the
        // compositor has moved the focus off the submenu's surface.
        router.handle(.keyPressed(keyboard.press(keyCode: left), []))
        #expect(window.popupsInStackingOrder.count == 1 && !submenu.isVisible)
        let (topBefore, menuBefore) = (window.handledInputCount, menu.handledInputCount)
        router.handle(.keyReleased(keyCode: left, keysym: 0xff51, []))
        #expect(window.handledInputCount == topBefore + 1, "the release reached the window under the closed submenu")
        #expect(menu.isVisible && menu.handledInputCount == menuBefore, "Left closed the submenu alone; the menu took no press of it")
        interaction.dismissMenu()
    }
}

extension CursorTests {
    @Test("wp_cursor_shape_v1: every cursor a view asks for has the protocol's shape by its CSS name (values as the protocol defines them); other names fall back to the theme")
    func cursorShapes() {
        #expect(Seat.cursorShape(named: "default") == .default && WpCursorShapeDeviceV1.Shape.default.rawValue == 1)
        #expect(Seat.cursorShape(named: "text")?.rawValue == 9 && Seat.cursorShape(named: "pointer")?.rawValue == 4)
        #expect(Seat.cursorShape(named: "ew-resize") == .ewResize && Seat.cursorShape(named: "nwse-resize")?.rawValue == 29)
        #expect(Seat.cursorShape(named: "zoom-out")?.rawValue == 34 && Seat.cursorShape(named: "se-resize") == .seResize)
        let all: [Cursor] = [.arrow, .text, .pointingHand, .crosshair, .notAllowed, .openHand, .closedHand, .wait,
                             .resizeTop, .resizeBottom, .resizeLeft, .resizeRight, .resizeTopLeft, .resizeTopRight, .resizeBottomLeft, .resizeBottomRight]
        #expect(all.allSatisfy { Seat.cursorShape(named: $0.names[0]) != nil }, "each cursor's first name is a shape")
        #expect(Seat.cursorShape(named: "left_ptr") == nil && Seat.cursorShape(named: "") == nil && Seat.cursorShape(named: "Default") == nil)
    }

    @Test("wp_cursor_shape_v1 on the wire (a libwayland-server harness: no compositor here offers it): set_shape quotes the enter's serial; without the global, a themed cursor surface")
    func cursorShapesOnTheWire() throws {
        for offered in [true, false] {
            let harness = try ProtocolHarness(cursorShapes: offered)
            defer { harness.stop() }
            let display = try harness.connect()
            #expect((display.cursorShapeManager != nil) == offered)
            let seat = try #require(display.seats.values.first)
            var entered: UInt32?
            seat.onEvent = { if case let .pointerEntered(_, _, _, serial) = $0 { entered = serial } }
            let surface = display.compositor.createSurface()
            try display.connection.dispatch(until: { entered != nil }, timeout: 5, what: "the harness's pointer entering")
            seat.setCursor(Cursor.text.names)
            seat.setCursor(Cursor.resizeBottomRight.names)
            try display.connection.roundtrip()
            harness.read(timeout: 0.5)
            let serial = try #require(entered)
            #expect(harness.lines.contains("enter \(serial)"))
            if offered {
                #expect(harness.lines.filter { $0.hasPrefix("set_shape") } == ["set_shape \(serial) 9", "set_shape \(serial) 23"], "\(harness.lines)")
                #expect(!harness.lines.contains { $0.hasPrefix("set_cursor") })
                #expect(seat.cursorNames == ["se-resize"])
                // A name the protocol lacks falls back to the theme.
                seat.setCursor(["left_ptr"])
                try display.connection.roundtrip()
                harness.read(timeout: 0.5)
                #expect(harness.lines.last == "set_cursor \(serial)", "\(harness.lines)")
            } else {
                #expect(!harness.lines.contains { $0.hasPrefix("set_shape") })
                #expect(harness.lines.filter { $0 == "set_cursor \(serial)" }.count == 2, "\(harness.lines)")
                #expect(seat.cursorNames.first == "se-resize" || seat.cursorNames.first == "bottom_right_corner", "\(seat.cursorNames)")
            }
            withExtendedLifetime(surface) {}
        }
    }
}

extension KWinInputTests {
    final class Selections: CollectionViewDelegate {
        var selected: [IndexPath] = []
        func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) { selected.append(indexPath) }
    }

    @Test("rule C4 end to end on kwin: a collection view's item is selected by a real click, and another by the keyboard (Down, Down, Return)")
    func collectionViewOnKWin() throws {
        let (kwin, display) = try appOnKWin()
        defer { withExtendedLifetime(kwin) { Application.shared.disconnect() } }
        let window = Window(title: "collection", size: Size(width: 300, height: 200))
        let layout = CollectionViewListLayout()
        layout.rowHeight = 40
        let list = CollectionView(frame: Rect(x: 0, y: 0, width: 300, height: 400), collectionViewLayout: layout)
        list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        let registration = CellRegistration<CollectionViewCell, String> { cell, _, item in cell.textLabel.text = item }
        let source = CollectionViewDiffableDataSource<Int, String>(collectionView: list) { cv, path, item in
            cv.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
        }
        var snapshot = DiffableDataSourceSnapshot<Int, String>()
        snapshot.appendSections([0])
        snapshot.appendItems(["Alpha", "Beta", "Gamma", "Delta"])
        source.apply(snapshot, animatingDifferences: false)
        let delegate = Selections()
        list.delegate = delegate
        window.rootView.addSubview(list)
        window.show()
        window.isFullscreen = true
        try display.connection.dispatch(until: { window.isFullscreen && window.frameNumber > 0 }, timeout: 10, what: "the fullscreen window")
        let input = try KWinFakeInput(on: kwin)
        try input.movePointer(toX: 10, y: 10)
        try display.connection.dispatch(until: { display.seats.values.contains { !$0.cursorNames.isEmpty } }, timeout: 5,
                                        what: "the fake pointer entering the window")
        try input.click(atX: 100, y: 60)   // the second row (40–80)
        try display.connection.dispatch(until: { delegate.selected == [IndexPath(item: 1, section: 0)] }, timeout: 5,
                                        what: "the second row selected by the click: \(delegate.selected)")
        #expect(list.cellForItem(at: IndexPath(item: 1, section: 0))!.isSelected)
        #expect(list.becomeFirstResponder())
        for code in [108, 108, 28] as [UInt32] {   // evdev Down, Down, Enter: from the first row to the third
            try input.key(code, pressed: true)
            try input.key(code, pressed: false)
        }
        try display.connection.dispatch(until: { delegate.selected.count == 2 }, timeout: 5, what: "Down and Return from kwin's keyboard")
        #expect(delegate.selected.last == IndexPath(item: 2, section: 0))
        #expect(list.indexPathsForSelectedItems == [IndexPath(item: 2, section: 0)])
    }
}

extension KWinInputTests {
    @Test("a text view with kwin's real seat: a click places the caret in the paragraph under it, keys type and Return breaks the line, a drag selects across paragraphs, the wheel scrolls a long text")
    func textViewOnKWin() throws {
        let (kwin, display) = try appOnKWin()
        defer { withExtendedLifetime(kwin) { Application.shared.disconnect() } }
        let window = Window(title: "text view", size: Size(width: 400, height: 300))
        let view = TextView(frame: Rect(x: 20, y: 20, width: 360, height: 200))
        view.text = "first paragraph\nsecond paragraph\nthird"
        window.rootView.addSubview(view)
        window.show()
        window.isFullscreen = true
        try display.connection.dispatch(until: { window.isFullscreen && window.frameNumber > 0 }, timeout: 10, what: "the fullscreen window")
        let input = try KWinFakeInput(on: kwin)
        try input.movePointer(toX: 5, y: 5)
        try display.connection.dispatch(until: { display.seats.values.contains { !$0.cursorNames.isEmpty } }, timeout: 5,
                                        what: "the fake pointer entering the window")
        func screen(_ offset: Int) -> Point {
            let r = view.convert(view.caretRect(at: offset), to: nil)
            return Point(x: r.minX + 1, y: r.midY)
        }
        func caret() -> Int { view.text.utf8.distance(from: view.text.startIndex, to: view.selectedTextRange.lowerBound) }
        // A click in "second" (after "sec").
        let sec = "first paragraph\nsec".utf8.count
        let p = screen(sec)
        try input.click(atX: p.x, y: p.y)
        try display.connection.dispatch(until: { view.isFirstResponder && caret() == sec }, timeout: 5, what: "the caret after “sec”")
        // Keys through kwin's keymap: a, Return, b (evdev 30, 28, 48).
        for code in [30, 28, 48] as [UInt32] {
            try input.key(code, pressed: true)
            try input.key(code, pressed: false)
        }
        try display.connection.dispatch(until: { view.text.contains("seca\nbond") }, timeout: 5, what: "a, Return, b typed")
        #expect(view.text == "first paragraph\nseca\nbond paragraph\nthird")
        // A drag from "first" into "third" selects across the paragraphs.
        let from = screen(2), to = screen(view.text.utf8.count - 2)
        try input.movePointer(toX: from.x, y: from.y)
        try input.button(0x110, pressed: true)
        for step in 1...5 {
            let t = Double(step) / 5
            try input.movePointer(toX: from.x + (to.x - from.x) * t, y: from.y + (to.y - from.y) * t)
        }
        try input.button(0x110, pressed: false)
        try display.connection.dispatch(until: { view.selectedText == "rst paragraph\nseca\nbond paragraph\nthi" }, timeout: 5,
                                        what: "the dragged selection (\(view.selectedText.debugDescription))")
        // A long text scrolls under the wheel.
        view.text = (1...200).map { "line \($0)" }.joined(separator: "\n")
        try input.movePointer(toX: 200, y: 120)
        try input.scroll(dx: 0, dy: 60)
        try display.connection.dispatch(until: { view.contentOffset.y > 20 }, timeout: 5, what: "the wheel scrolling the text")
    }
}
