@testable import Strata
import StrataTesting
import Testing
import WaylandClient
import LayerKitTesting

@MainActor
@Suite("TextField", .serialized, .isolatedLayerContext)
struct TextFieldTests {
    func setUp(_ text: String = "") -> (ViewFixture, InputDriver, TextField, () -> [String]) {
        let f = ViewFixture()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 300, height: 34))
        field.text = text
        f.window.rootView.addSubview(field)
        Transaction.flush()
        var log: [String] = []
        for (event, name) in [(Control.Event.editingDidBegin, "begin"), (.editingChanged, "changed"), (.editingDidEnd, "end"),
                              (.editingDidEndOnExit, "exit"), (.primaryActionTriggered, "primary")] {
            field.addAction(for: event) { _ in log.append(name) }
        }
        return (f, InputDriver(window: f.window), field, { defer { log = [] }; return log })
    }

    /// The x (window points) of the caret after `prefix` of the field's text.
    func x(after prefix: String, in field: TextField) -> Double {
        let layout = TextLayout(AttributedText(prefix), style: TextStyle(font: field.font, color: .black, numberOfLines: 1), width: nil)
        return field.convert(Point(x: 7 + layout.size.width, y: 0), to: nil).x
    }

    @Test("Typing through the keymap, with events; Backspace and Delete; Return sends its actions")
    func typing() {
        let (_, input, field, events) = setUp()
        input.click(at: Point(x: 100, y: 37))
        #expect(field.isFirstResponder)
        #expect(events() == ["begin"])
        input.type("Hello, World!")
        #expect(field.text == "Hello, World!")
        #expect(events().allSatisfy { $0 == "changed" })
        key(input, Keysym.backspace)
        #expect(field.text == "Hello, World")
        key(input, Keysym.home)
        key(input, Keysym.delete)
        #expect(field.text == "ello, World")
        events()
        key(input, Keysym.returnKey)
        #expect(events() == ["exit", "primary"])   // handlers run in the order added
        #expect(field.isFirstResponder)
        field.shouldReturn = { _ in true }
        key(input, Keysym.returnKey)
        #expect(!field.isFirstResponder)
        #expect(events() == ["exit", "primary", "end"])
        // Code sets the text: no event.
        field.text = "set"
        #expect(events().isEmpty)
    }

    @Test("Caret: movement by characters and (with Ctrl) words, Home/End, Shift extends the selection")
    func caretAndSelection() {
        let (_, input, field, _) = setUp("one two three")
        field.becomeFirstResponder()
        key(input, Keysym.home)
        key(input, Keysym.right, control: true)
        key(input, Keysym.right, shift: true, control: true)
        #expect(field.selectedText == " two")
        key(input, Keysym.right, shift: true)
        #expect(field.selectedText == " two ")
        key(input, Keysym.left)
        #expect(field.selectedText.isEmpty)
        key(input, Keysym.end, shift: true)
        #expect(field.selectedText == " two three")
        key(input, Keysym.left, control: true)
        key(input, Keysym.backspace, control: true)
        #expect(field.text == "one three" || field.text == "one  three" || field.text == "three")
        field.text = "one two three"
        key(input, Keysym.end)
        key(input, Keysym.backspace, control: true)
        #expect(field.text == "one two ")
        // Grapheme clusters move and delete whole: an emoji with a skin tone, é decomposed.
        field.text = "a👍🏽e\u{301}"
        key(input, Keysym.backspace)
        #expect(field.text == "a👍🏽")
        key(input, Keysym.left)
        key(input, Keysym.backspace)
        #expect(field.text == "👍🏽")
    }

    @Test("Pointer: click places the caret, drag selects, double click a word, triple click the line")
    func pointerSelection() {
        let (f, input, field, _) = setUp("alpha beta gamma")
        let y = 37.0
        input.click(at: Point(x: x(after: "alpha be", in: field) + 0.5, y: y))
        #expect(field.selectedTextRange.lowerBound == field.text!.index(field.text!.startIndex, offsetBy: 8))
        f.advance(1)
        input.drag(from: Point(x: x(after: "al", in: field), y: y), to: Point(x: x(after: "alpha bet", in: field), y: y), steps: 4, clock: f.clock)
        #expect(field.selectedText == "pha bet")
        f.advance(1)
        input.click(at: Point(x: x(after: "alpha be", in: field), y: y))
        input.click(at: Point(x: x(after: "alpha be", in: field), y: y))
        #expect(field.selectedText == "beta")
        input.click(at: Point(x: x(after: "alpha be", in: field), y: y))
        #expect(field.selectedText == "alpha beta gamma")
        // The selection is drawn in the tint colour.
        let image = f.window.snapshot()
        let p = image.rgba8(x: Int(x(after: "alp", in: field)), y: 30)
        #expect(p.b > 200 && p.r < 230)
    }

    @Test("Copy, cut and paste through the clipboard; undo and redo; typing undoes in one step")
    func clipboardAndUndo() async {
        let (_, input, field, _) = setUp("copy me")
        field.becomeFirstResponder()
        key(input, 0x61, control: true)   // Ctrl+A
        key(input, 0x63, control: true)   // Ctrl+C
        #expect(Pasteboard.general.string == "copy me")
        key(input, 0x78, control: true)   // Ctrl+X
        #expect(field.text == "")
        key(input, 0x76, control: true)   // Ctrl+V
        key(input, 0x76, control: true)
        await Task.yield()
        #expect(field.text == "copy mecopy me")
        key(input, 0x7a, control: true)   // undo the second paste
        #expect(field.text == "copy me")
        key(input, 0x7a, shift: true, control: true)   // redo
        #expect(field.text == "copy mecopy me")
        field.text = ""
        input.type("typed words")
        key(input, 0x7a, control: true)
        #expect(field.text == "")
        #expect(!field.canUndo)
        key(input, 0x79, control: true)   // Ctrl+Y redoes
        #expect(field.text == "typed words")
        // Pasted line breaks and NUL become a single line.
        Pasteboard.general.string = "two\nlines\u{0}!"
        field.paste()
        await Task.yield()
        #expect(field.text == "typed wordstwo lines!")
    }

    @Test("Input method preedit shows underlined at the caret and is inserted on commit")
    func preedit() {
        let (f, _, field, events) = setUp("ab")
        field.becomeFirstResponder()
        events()
        field.setMarkedText("にほ")
        #expect(field.text == "ab")
        #expect(field.markedText == "にほ")
        let image = f.window.snapshot()
        #expect(inkBounds(image, in: (Int(x(after: "ab", in: field)) + 2..<Int(x(after: "ab", in: field)) + 30, 20..<54)) != nil)
        field.setMarkedText("日本")
        field.unmarkText()
        #expect(field.text == "ab日本")
        #expect(field.markedText == nil)
        #expect(events() == ["changed"])
    }

    @Test("Placeholder while empty; secure entry shows bullets and refuses to copy")
    func placeholderAndSecure() {
        let (f, input, field, _) = setUp()
        field.placeholder = "Name"
        let empty = f.window.snapshot()
        let ink = inkBounds(empty, in: (27..<120, 20..<54))
        #expect(ink == nil)   // the placeholder is light: no dark ink
        var placeholderPixels = 0
        for x in 27..<120 { for y in 20..<54 { let p = empty.rgba8(x: x, y: y); if p.r < 235 && p.r > 150 { placeholderPixels += 1 } } }
        #expect(placeholderPixels > 20)
        field.isSecureTextEntry = true
        field.becomeFirstResponder()
        input.type("secret")
        #expect(field.text == "secret")
        Pasteboard.general.string = "before"
        field.selectAll()
        field.copy()
        #expect(Pasteboard.general.string == "before")
        let shown = TextLayout(AttributedText("••••••"), style: TextStyle(font: field.font, color: .black, numberOfLines: 1), width: nil)
        let secretImage = f.window.snapshot()
        let bullets = inkBounds(secretImage, in: (27..<300, 20..<54))
        #expect(bullets.map { Double($0.maxX - $0.minX) } ?? 0 < shown.size.width + 2)
    }

    @Test("The caret blinks on the media clock and stays solid while typing")
    func caretBlink() {
        let (f, input, field, _) = setUp()
        field.becomeFirstResponder()
        #expect(field.isCaretVisible)
        f.advance(0.5)
        #expect(!field.isCaretVisible)
        f.advance(0.5)
        #expect(field.isCaretVisible)
        f.advance(0.4)
        input.type("a")
        f.advance(0.3)
        #expect(field.isCaretVisible)   // typing restarted the rhythm
        f.advance(0.25)
        #expect(!field.isCaretVisible)
        field.resignFirstResponder()
        #expect(!field.isCaretVisible)
    }

    @Test("Long text scrolls to keep the caret in view")
    func scrolling() {
        let (f, input, field, _) = setUp()
        field.becomeFirstResponder()
        input.type(String(repeating: "wide text ", count: 8))
        let image = f.window.snapshot()
        // The end of the text is visible near the right edge.
        let ink = inkBounds(image, in: (20..<320, 20..<54))
        #expect((ink?.maxX ?? 0) > 280)
        key(input, Keysym.home)
        let start = f.window.snapshot()
        #expect((inkBounds(start, in: (20..<60, 20..<54))?.minX ?? 100) < 32)
    }
}

/// Controls driven by a real seat: keys from a virtual keyboard (wtype) and the
/// selection of another client (wl-copy) on sway.
@MainActor
@Suite("Controls with real input", .serialized, .mainLayerContext)
struct ControlsOnSwayTests {
    @Test("type into a text field with a virtual keyboard, paste invalid UTF-8 from wl-copy, toggle a switch and step a slider by keys")
    func controlsOnSway() throws {
        let (sway, display) = try appOnSway()
        defer { withExtendedLifetime(sway) { Application.shared.disconnect() } }
        let window = Window(title: "controls", size: Size(width: 320, height: 160))
        let field = TextField(frame: Rect(x: 10, y: 10, width: 300, height: 34))
        let toggle = Switch(frame: Rect(x: 10, y: 60, width: 0, height: 0))
        let slider = Slider(frame: Rect(x: 10, y: 110, width: 300, height: 31))
        var switched = 0
        toggle.addAction(for: .valueChanged) { _ in switched += 1 }
        for v in [field, toggle, slider] as [View] { window.rootView.addSubview(v) }
        window.show()
        field.becomeFirstResponder()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        try display.connection.roundtrip()

        let (typing, _) = try sway.startClient(["wtype", "-s", "400", "Hi ✓"])
        defer { typing.terminate() }
        try display.connection.dispatch(until: { field.text == "Hi ✓" }, timeout: 10, what: "the typed text in the field (\(field.text ?? ""))")

        // Another client's selection, with bytes that are not UTF-8 (a lone surrogate's encoding, 0xFF).
        let (copy, _) = try sway.startClient(["sh", "-c", "printf 'ok\\355\\240\\200\\377!' | wl-copy"])
        defer { copy.terminate() }
        // Read it until it is wl-copy's (the offer may still be Strata's or incomplete at first).
        var offered: String?, reading = false
        try display.connection.dispatch(until: {
            if !reading, Pasteboard.general.hasStrings {
                reading = true
                Pasteboard.general.readString { offered = $0; reading = false }
            }
            return offered?.hasSuffix("!") == true
        }, timeout: 10, what: "wl-copy's selection")
        let (paste, _) = try sway.startClient(["wtype", "-s", "300", "-M", "ctrl", "v", "-m", "ctrl"])
        defer { paste.terminate() }
        try display.connection.dispatch(until: { field.text?.hasSuffix("!") == true }, timeout: 10, what: "the pasted text (\(field.text ?? ""))")
        #expect(field.text == "Hi ✓ok\u{FFFD}\u{FFFD}\u{FFFD}\u{FFFD}!")

        // Tab to the switch, Space flips it; Tab to the slider, Right steps it — a key
        // at a time, each waited for (a loaded machine may deliver them late).
        for (key, done, what) in [("Tab", { toggle.isFirstResponder }, "the switch to take the focus"),
                                  ("space", { toggle.isOn }, "the switch to flip"),
                                  ("Tab", { slider.isFirstResponder }, "the slider to take the focus"),
                                  ("Right", { slider.value > 0 }, "the slider to step")] as [(String, () -> Bool, String)] {
            // A new virtual keyboard's first key is lost if sent before the window has the keyboard: wait first.
            let (wtype, _) = try sway.startClient(["wtype", "-s", "300", "-k", key])
            defer { wtype.terminate() }
            // Its effect, and wtype's end (a key killed before its release would repeat).
            try display.connection.dispatch(until: { done() && wtype.wait(timeout: 0) != nil }, timeout: 10, what: what)
        }
        #expect(toggle.isOn && switched == 1)
        #expect(abs(slider.value - 0.05) < 1e-9)
        #expect(slider.isFirstResponder)
    }
}

/// An input method (a client of input-method-v2) composing into a text field
/// through the compositor's text-input-v3, on sway.
@MainActor
@Suite("Input methods", .serialized, .mainLayerContext)
struct InputMethodTests {
    @Test("an idle focused field on kwin — which answers each caret update with a text-input done — draws no more than its caret's blink (a done that changes nothing touches nothing: before, each redraw told the caret, kwin answered, and the field drew at 60 frames a second)")
    func idleFieldOnKWin() throws {
        let (kwin, display) = try appOnKWin()
        defer { withExtendedLifetime(kwin) { Application.shared.disconnect() } }
        try #require(display.textInputManager != nil, "kwin offers text-input-v3")
        let window = Window(title: "idle", size: Size(width: 320, height: 80))
        let field = TextField(frame: Rect(x: 10, y: 10, width: 300, height: 34))
        window.rootView.addSubview(field)
        window.show()
        let app = Application.shared
        func run(until condition: () -> Bool, _ what: String) throws {
            let began = MonotonicClock.now
            while !condition() {
                try #require(MonotonicClock.now - began < 10, "timed out waiting for \(what)")
                try app.loop?.turn(timeout: 0.01)
            }
        }
        try run(until: { window.frameNumber > 0 && window.textInput?.focusedSurface != nil }, "the window with the keyboard")
        field.becomeFirstResponder()
        try run(until: { window.textInput?.isEnabled == true }, "text input enabled")
        let start = window.frameNumber, began = MonotonicClock.now
        while MonotonicClock.now - began < 2 { try app.loop?.turn(timeout: 0.01) }
        #expect(window.frameNumber - start <= 8, "\(window.frameNumber - start) frames in 2 s of a blinking caret")
    }

    @Test("text-input-v3 end to end: a field with the focus enables it; an input method's preedit shows marked, its commit is inserted")
    func inputMethodOnSway() throws {
        let (sway, display) = try appOnSway()
        defer { withExtendedLifetime(sway) { Application.shared.disconnect() } }
        try #require(display.textInputManager != nil, "sway offers text-input-v3")
        // The input method: a second client on the same compositor.
        let im = try sway.connect()
        let manager = try #require(im.registry.bindIfOffered(ZwpInputMethodManagerV2.self), "sway offers input-method-v2")
        let seat = try #require(im.seats.values.first)
        let method = manager.getInputMethod(seat: seat.proxy)
        var active = false, dones: UInt32 = 0
        method.onEvent = { event in
            switch event {
            case .activate: active = true
            case .deactivate: active = false
            case .done: dones += 1
            default: break
            }
        }
        try im.connection.roundtrip()

        let window = Window(title: "ime", size: Size(width: 320, height: 80))
        let field = TextField(frame: Rect(x: 10, y: 10, width: 300, height: 34))
        field.text = "ab"
        window.rootView.addSubview(field)
        window.show()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        field.becomeFirstResponder()
        // Both clients' events, until the condition holds (10 s at most).
        func both(_ condition: () -> Bool, _ what: String) throws {
            let start = MonotonicClock.now
            while !condition() {
                try #require(MonotonicClock.now - start < 10, "timed out waiting for \(what)")
                _ = try display.connection.dispatch(timeout: 0.005)
                _ = try im.connection.dispatch(timeout: 0.005)
            }
        }
        try both({ active && dones > 0 }, "the input method to be activated by the focused field")
        #expect(window.textInput?.isEnabled == true)

        method.setPreeditString(text: "にほ", cursorBegin: 6, cursorEnd: 6)
        method.commit(serial: dones)
        try im.connection.flush()
        try both({ field.markedText == "にほ" }, "the preedit in the field")
        #expect(field.text == "ab")

        method.commitString(text: "日本")
        method.commit(serial: dones)
        try im.connection.flush()
        try both({ field.text == "ab日本" }, "the committed text (\(field.text ?? ""))")
        #expect(field.markedText == nil)

        // Focus leaves the field: the input method is deactivated.
        field.resignFirstResponder()
        try both({ !active }, "the input method to be deactivated")
        withExtendedLifetime(im) {}
    }

    @Test("compositions through the window's input path: preedit replaced, surrounding text deleted, commit inserted")
    func compositionOffscreen() {
        let f = ViewFixture()
        let field = TextField(frame: Rect(x: 0, y: 0, width: 300, height: 34))
        field.text = "hello world"
        f.window.rootView.addSubview(field)
        field.becomeFirstResponder()
        let input = InputDriver(window: f.window)
        input.compose(preedit: "wor")
        #expect(field.markedText == "wor" && field.text == "hello world")
        input.compose(preedit: "word")
        #expect(field.markedText == "word")
        // Delete "world" before the caret, commit "earth".
        input.compose(commit: "earth", deleteBefore: 5)
        #expect(field.text == "hello earth")
        #expect(field.markedText == nil)
        #expect(field.caretRectInWindow != nil)
        field.resignFirstResponder()
        input.compose(commit: "ignored")
        #expect(field.text == "hello earth")
    }
}
