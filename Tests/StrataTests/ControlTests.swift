@testable import Strata
import StrataTesting
import Testing
import LayerKitTesting

/// Keysyms the tests press.
enum Keysym {
    static let space: UInt32 = 0x20, returnKey: UInt32 = 0xff0d, tab: UInt32 = 0xff09
    static let left: UInt32 = 0xff51, right: UInt32 = 0xff53, home: UInt32 = 0xff50, end: UInt32 = 0xff57
    static let up: UInt32 = 0xff52, down: UInt32 = 0xff54, backspace: UInt32 = 0xff08, delete: UInt32 = 0xffff
    static let shift: UInt32 = 0xffe1, control: UInt32 = 0xffe3, pageUp: UInt32 = 0xff55, pageDown: UInt32 = 0xff56
}

/// Presses and releases a key, with Shift and Ctrl held around it when asked.
@MainActor
func key(_ input: InputDriver, _ keysym: UInt32, shift: Bool = false, control: Bool = false) {
    if shift { input.pressKey(keysym: Keysym.shift) }
    if control { input.pressKey(keysym: Keysym.control) }
    input.pressKey(keysym: keysym)
    input.releaseKey(keysym: keysym)
    if control { input.releaseKey(keysym: Keysym.control) }
    if shift { input.releaseKey(keysym: Keysym.shift) }
}

@MainActor
@Suite("Controls (rule H6)", .serialized, .isolatedLayerContext)
struct ControlTests {
    /// A control in a window, a driver, and a log of the events it sent.
    func setUp<C: Control>(_ control: C) -> (ViewFixture, InputDriver, C, () -> [String]) {
        let f = ViewFixture()
        f.window.rootView.addSubview(control)
        Transaction.flush()
        var log: [String] = []
        let names: [(Control.Event, String)] = [(.touchDown, "down"), (.touchDownRepeat, "repeat"), (.touchDragInside, "dragIn"),
            (.touchDragOutside, "dragOut"), (.touchDragEnter, "enter"), (.touchDragExit, "exit"), (.touchUpInside, "upIn"),
            (.touchUpOutside, "upOut"), (.touchCancel, "cancel"), (.valueChanged, "value"), (.primaryActionTriggered, "primary")]
        for (event, name) in names { control.addAction(for: event) { _ in log.append(name) } }
        return (f, InputDriver(window: f.window), control, { defer { log = [] }; return log })
    }

    @Test("H6: touchDown, touchUpInside within the tolerance, touchUpOutside beyond it, highlighted while inside")
    func trackingEvents() {
        let (_, input, button, events) = setUp(Button(title: "OK"))
        button.frame = Rect(x: 100, y: 100, width: 80, height: 40)
        input.movePointer(to: Point(x: 120, y: 120))
        input.press(.left)
        #expect(button.isHighlighted && button.isTracking)
        #expect(events() == ["down"])
        input.movePointer(to: Point(x: 240, y: 120))   // 60 points out: still inside
        #expect(button.isHighlighted)
        #expect(events() == ["dragIn"])
        input.movePointer(to: Point(x: 300, y: 120))   // 120 points out
        #expect(!button.isHighlighted)
        #expect(events() == ["dragOut", "exit"])
        input.movePointer(to: Point(x: 130, y: 130))
        #expect(events() == ["dragIn", "enter"])
        input.release(.left)
        #expect(!button.isHighlighted && !button.isTracking)
        #expect(events() == ["upIn", "primary"])
        // Released far outside: touchUpOutside, no action.
        input.movePointer(to: Point(x: 120, y: 120))
        input.press(.left)
        input.movePointer(to: Point(x: 400, y: 290))
        input.release(.left)
        #expect(events() == ["down", "dragOut", "exit", "upOut"])
        // A cancelled touch.
        input.touchDown(1, at: Point(x: 120, y: 120))
        input.cancelTouches()
        #expect(events() == ["down", "cancel"])
        #expect(!button.isHighlighted)
        // A double click: the second down is a repeat.
        input.click(at: Point(x: 120, y: 120))
        input.click(at: Point(x: 120, y: 120))
        #expect(events() == ["down", "upIn", "primary", "down", "repeat", "upIn", "primary"])
    }

    @Test("Disabled controls send nothing, swallow touches and take no focus")
    func disabled() {
        let (f, input, button, events) = setUp(Button(title: "OK"))
        let behind = RecordingView(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        f.window.rootView.insertSubview(behind, at: 0)
        button.frame = Rect(x: 100, y: 100, width: 80, height: 40)
        button.isEnabled = false
        #expect(button.state.contains(.disabled))
        input.click(at: Point(x: 120, y: 120))
        #expect(events().isEmpty)
        #expect(behind.log.isEmpty)
        #expect(!button.becomeFirstResponder())
        // Disabling mid-touch cancels it.
        button.isEnabled = true
        f.advance(1)
        input.movePointer(to: Point(x: 120, y: 120))
        input.press(.left)
        button.isEnabled = false
        input.release(.left)
        #expect(events() == ["down", "cancel"])
    }

    @Test("H5, H6: Tab focuses controls in order; Space and Return trigger the focused one; a focus ring shows")
    func keyboard() {
        let (f, input, button, events) = setUp(Button(title: "One"))
        let second = Switch(frame: Rect(x: 10, y: 200, width: 0, height: 0))
        f.window.rootView.addSubview(second)
        input.pressKey(keysym: Keysym.tab); input.releaseKey(keysym: Keysym.tab)
        #expect(button.isFirstResponder && button.state.contains(.focused))
        #expect(button.layer.sublayers.contains { $0.borderWidth == 2 })
        input.pressKey(keysym: Keysym.space)
        #expect(button.isHighlighted)
        input.releaseKey(keysym: Keysym.space)
        #expect(events() == ["upIn", "primary"])
        input.pressKey(keysym: Keysym.returnKey); input.releaseKey(keysym: Keysym.returnKey)
        #expect(events() == ["upIn", "primary"])
        input.pressKey(keysym: Keysym.tab); input.releaseKey(keysym: Keysym.tab)
        #expect(second.isFirstResponder)
        #expect(!button.layer.sublayers.contains { $0.borderWidth == 2 })
        input.pressKey(keysym: Keysym.space); input.releaseKey(keysym: Keysym.space)
        #expect(second.isOn)
    }

    @Test("Button: title and colour per state with the normal state's as fallback; highlight fades back over 0.25 s")
    func button() throws {
        let (f, input, button, _) = setUp(Button(title: "Normal"))
        button.frame = Rect(x: 100, y: 100, width: 120, height: 40)
        button.setTitle("Pressed", for: .highlighted)
        button.setTitleColor(.red, for: .disabled)
        #expect(button.currentTitle == "Normal")
        #expect(button.titleLabel.textColor == .systemBlue)
        input.movePointer(to: Point(x: 120, y: 120))
        input.press(.left)
        #expect(button.currentTitle == "Pressed")
        #expect(button.titleLabel.alpha == 0.35)
        Transaction.flush()
        input.release(.left)
        Transaction.flush()
        #expect(button.currentTitle == "Normal")
        #expect(button.titleLabel.alpha == 1)
        f.advance(0.125)
        let midway = f.shownDouble(button.titleLabel, "opacity")
        #expect(midway > 0.4 && midway < 0.95)
        f.advance(0.2)
        #expect(f.shownDouble(button.titleLabel, "opacity") == 1)
        button.isEnabled = false
        #expect(button.titleLabel.textColor == .red)
        // Intrinsic size: the title's plus the insets.
        let title = button.titleLabel.intrinsicContentSize
        #expect(button.intrinsicContentSize == Size(width: title.width + 24, height: title.height + 14))
        // Pixels: a filled button is tinted behind white text.
        let filled = Button(title: "Go", style: .filled)
        filled.frame.origin = Point(x: 10, y: 200)
        f.window.rootView.addSubview(filled)
        Transaction.flush()
        let image = f.window.snapshot()
        let corner = image.rgba8(x: 14, y: 206 + Int(filled.bounds.height / 2) - 6)
        #expect(corner.b > 200 && corner.r < 40)
    }

    @Test("Switch: a tap flips it and sends valueChanged; setOn sends nothing; the thumb slides and the colour fades")
    func switchControl() {
        let (f, input, toggle, events) = setUp(Switch(frame: Rect(x: 100, y: 100, width: 0, height: 0)))
        #expect(toggle.bounds.size == Switch.size)
        #expect(!toggle.isOn)
        input.click(at: Point(x: 120, y: 115))
        #expect(toggle.isOn)
        #expect(events() == ["down", "value", "primary", "upIn"])
        Transaction.flush()
        let thumb = toggle.subviews[0]
        #expect(thumb.frame.maxX == 51 - 2)
        f.advance(0.125)
        let x = f.shownPoint(thumb).x
        #expect(x > 15.5 && x < 35.5)
        f.advance(0.2)
        #expect(f.shownPoint(thumb).x == 35.5)
        toggle.setOn(false, animated: true)
        #expect(events().isEmpty)
        #expect(toggle.backgroundColor == .systemGray5)
        toggle.isOn = true
        #expect(events().isEmpty)
        #expect(toggle.backgroundColor == .systemGreen)
    }

    @Test("Switch: dragging the thumb decides by where it is let go, inside or out")
    func switchDrag() {
        let (f, input, toggle, events) = setUp(Switch(frame: Rect(x: 100, y: 100, width: 0, height: 0)))
        input.drag(from: Point(x: 112, y: 115), to: Point(x: 150, y: 115), steps: 5, clock: f.clock)
        #expect(toggle.isOn)
        #expect(events().contains("value"))
        // Dragged part of the way back, not past the middle: stays on.
        input.drag(from: Point(x: 140, y: 115), to: Point(x: 130, y: 115), steps: 3, clock: f.clock)
        #expect(toggle.isOn)
        #expect(!events().contains("value"))
        // Dragged off far to the left and released outside: off.
        input.drag(from: Point(x: 140, y: 115), to: Point(x: 20, y: 115), steps: 6, clock: f.clock)
        #expect(!toggle.isOn)
        #expect(events().contains("value"))
    }

    @Test("Slider: dragging the thumb, clicking the track, arrows and Home/End; continuous and not")
    func slider() {
        let (f, input, slider, events) = setUp(Slider(frame: Rect(x: 100, y: 100, width: 228, height: 31)))
        // The track runs from x 114 to 314 (thumb radius 14): 200 points for 0…1.
        slider.layoutIfNeeded()
        input.movePointer(to: Point(x: 114, y: 115))
        input.press(.left)
        #expect(events() == ["down"])
        input.movePointer(to: Point(x: 164, y: 115))
        #expect(close(slider.value, 0.25))
        input.movePointer(to: Point(x: 214, y: 115))
        #expect(close(slider.value, 0.5))
        input.release(.left)
        #expect(events() == ["value", "dragIn", "value", "dragIn", "upIn"])
        // A click on the track moves the thumb there.
        input.click(at: Point(x: 294, y: 115))
        #expect(close(slider.value, 0.9))
        #expect(events() == ["down", "value", "upIn"])
        // Keys step by a twentieth; Home and End.
        slider.becomeFirstResponder()
        input.pressKey(keysym: Keysym.left); input.releaseKey(keysym: Keysym.left)
        #expect(close(slider.value, 0.85))
        input.pressKey(keysym: Keysym.end); input.releaseKey(keysym: Keysym.end)
        #expect(slider.value == 1)
        #expect(events() == ["value", "value"])
        input.pressKey(keysym: Keysym.up); input.releaseKey(keysym: Keysym.up)
        #expect(slider.value == 1)
        #expect(events().isEmpty)
        // Not continuous: one valueChanged when the touch ends.
        slider.isContinuous = false
        input.drag(from: Point(x: 314, y: 115), to: Point(x: 114, y: 115), steps: 4, clock: f.clock)
        #expect(slider.value == 0)
        #expect(events().filter { $0 == "value" }.count == 1)
        // Code sets: no event, clamped.
        slider.value = 7
        #expect(slider.value == 1)
        #expect(events().isEmpty)
    }

    @Test("Slider and ProgressView bad input: NaN refused, ranges with min > max reordered, infinities refused")
    func badValues() {
        let (f, _, slider, _) = setUp(Slider(frame: Rect(x: 0, y: 0, width: 200, height: 31)))
        slider.value = 0.4
        slider.value = .nan
        #expect(slider.value == 0.4)
        slider.maximumValue = .infinity
        #expect(slider.maximumValue == 1)
        slider.minimumValue = 5
        #expect(slider.maximumValue == 5 && slider.value == 5)
        slider.maximumValue = -1
        #expect(slider.minimumValue == -1 && slider.value == -1)
        let progress = ProgressView()
        progress.progress = .nan
        #expect(progress.progress == 0)
        progress.progress = 3
        #expect(progress.progress == 1)
        #expect(f.diagnostics.filter { "\($0)".contains("NaN") }.count == 2)
    }

    @Test("ProgressView: setProgress(animated:) grows the bar over 0.25 s")
    func progress() {
        let f = ViewFixture()
        let progress = ProgressView(frame: Rect(x: 10, y: 10, width: 200, height: 4))
        f.window.rootView.addSubview(progress)
        Transaction.flush()
        progress.setProgress(0.5, animated: true)
        Transaction.flush()
        let bar = progress.subviews[0]
        #expect(bar.frame.width == 100)
        f.advance(0.125)
        let width = (f.shown(bar, "bounds") as? Rect)?.width ?? -1
        #expect(width > 10 && width < 90)
        f.advance(0.2)
        #expect((f.shown(bar, "bounds") as? Rect)?.width == 100)
        let image = f.window.snapshot()
        #expect(image.rgba8(x: 50, y: 12).b > 200)
        #expect(image.rgba8(x: 150, y: 12).b < 240 && image.rgba8(x: 150, y: 12).r > 200)
    }

    @Test("ImageView: shows the image fitted by contentMode; its intrinsic size is the image's")
    func imageView() throws {
        let f = ViewFixture()
        let image = Image(width: 20, height: 10, color: .red)
        let view = ImageView(image: image)
        #expect(view.intrinsicContentSize == Size(width: 20, height: 10))
        #expect(view.bounds.size == Size(width: 20, height: 10))
        view.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        view.contentMode = .scaleAspectFit
        f.window.rootView.addSubview(view)
        Transaction.flush()
        let shot = f.window.snapshot()
        #expect(shot.rgba8(x: 50, y: 50).r == 255 && shot.rgba8(x: 50, y: 50).g == 0)
        #expect(shot.rgba8(x: 50, y: 10).g == 255)   // letterboxed: white above
        // A PNG through libpng.
        try f.window.snapshot().writePNG(to: "/tmp/strata-imageview.png")
        let loaded = try #require(Image(contentsOfFile: "/tmp/strata-imageview.png"))
        #expect(loaded.width == 400)
        #expect(Image(contentsOfFile: "/nonexistent.png") == nil)
    }
}
