import LayerKitTesting
import Testing
import CPixman
import PixmanRender
import WaylandClient
@testable import Strata
@testable import StrataTesting

/// GNOME's mutter, headless, with real input through its RemoteDesktop API and
/// captures through its ScreenCast stream (PipeWire). GNOME offers no
/// server-side decorations: windows draw their own title bar and edges (W1).
@MainActor
@Suite("mutter: real input, client-side decorations, screen cast", .serialized, .mainLayerContext)
struct MutterTests {
    @Test("rules H1, H5, H6 end to end on mutter through InputDriver: a click presses a button, keys type into a field, the screen shows it")
    func inputDriverOnMutter() throws {
        let (mutter, _) = try appOnMutter()
        defer { withExtendedLifetime(mutter) { Application.shared.disconnect() } }
        let scene = PressAndTypeWindow(title: "input")
        let (window, field) = (scene.window, scene.field)
        let marker = View(frame: Rect(x: 400, y: 300, width: 50, height: 50))
        marker.backgroundColor = .red
        window.rootView.addSubview(marker)
        window.show()
        window.isFullscreen = true   // at the output's origin: output coordinates are the window's
        try wait(until: { window.isFullscreen && window.size.width == 640 && (window.frameNumber) > 0 }, "the fullscreen window")
        // The client's frame is not yet the screen's: click once mutter shows the window fullscreen.
        try eventually("the fullscreen window on the screen") { try mutter.screenshot(timeout: 10).rgba8(x: 425, y: 325) == (255, 0, 0, 255) }
        let driver = InputDriver(window: window, injecting: try mutter.input())
        driver.click(at: Point(x: 100, y: 60))
        #expect(scene.presses == 1)
        driver.click(at: Point(x: 425, y: 325))   // not on the button
        #expect(scene.presses == 1)
        driver.click(at: Point(x: 140, y: 136))
        #expect(field.isFirstResponder)
        driver.type("Hi!")
        #expect(field.text == "Hi!")
        #expect(driver.errors.isEmpty, "\(driver.errors)")
        let shot = try mutter.screenshot(timeout: 10)
        #expect(shot.width == 640 && shot.height == 480)
        #expect(shot.rgba8(x: 425, y: 325) == (255, 0, 0, 255) && shot.rgba8(x: 20, y: 300) == (0x33, 0x66, 0xcc, 255))
    }

    @Test("rule W1 end to end on mutter: dragging the client-side title bar moves the window; its corner resizes it")
    func decorationsMoveAndResizeOnMutter() throws {
        let (mutter, _) = try appOnMutter()
        defer { withExtendedLifetime(mutter) { Application.shared.disconnect() } }
        let window = Window(title: "drag me", size: Size(width: 240, height: 160))
        window.backgroundColor = Color(rgba8: 0xcc, 0x33, 0x99)
        window.show()
        try wait(until: { window.decorations != nil && (window.frameNumber) > 0 }, "the window with its own decorations (\(window.decorations != nil) \(window.frameNumber) \(window.size))")
        let input = try mutter.input()
        var shown: (x: Int, y: Int, width: Int, height: Int)?
        try eventually("the window on the screen") {
            shown = contentBox(in: try mutter.screenshot(timeout: 10))
            return shown?.width == 240 && shown?.height == 160
        }
        let before = try #require(shown)

        // Press on the title bar, drag 80 right and 60 down, release.
        let title = (x: Double(before.x + 60), y: Double(before.y) - WindowDecorations.titleBarHeight / 2)
        try drag(input, from: title, by: (80, 60))
        var after = before
        try eventually("the window moved by the drag") {
            after = contentBox(in: try mutter.screenshot(timeout: 10)) ?? after
            return after.x == before.x + 80 && after.y == before.y + 60
        }
        #expect(after.width == 240 && after.height == 160)

        // The bottom-right corner, in the resize margin outside the content.
        let corner = (x: Double(after.x + after.width) + WindowDecorations.margin / 2, y: Double(after.y + after.height) + WindowDecorations.margin / 2)
        try drag(input, from: corner, by: (50, 30))
        try wait(until: { window.size == Size(width: 290, height: 190) }, "the window resized by its corner (\(window.size), \(String(describing: window.onscreen?.lastDecorationRequest)))")
        try eventually("the screen showing the resized window") {
            guard let box = contentBox(in: try mutter.screenshot(timeout: 10)) else { return false }
            return box.x == after.x && box.y == after.y && box.width == 290 && box.height == 190
        }
    }

    @Test("drag and drop through mutter: text dragged from one view to another with a real pointer travels as a Wayland drag (data device, pipe), and from another client")
    func dragAndDropOnMutter() throws {
        let (mutter, _) = try appOnMutter()
        defer { withExtendedLifetime(mutter) { Application.shared.disconnect() } }
        let window = Window(title: "drag", size: Size(width: 300, height: 200))
        window.backgroundColor = Color(rgba8: 0x20, 0x20, 0x20)
        let source = View(frame: Rect(x: 20, y: 20, width: 100, height: 100))
        source.backgroundColor = .red
        let target = View(frame: Rect(x: 300, y: 200, width: 200, height: 200))
        target.backgroundColor = .blue
        for v in [source, target] { window.rootView.addSubview(v) }
        var ended: [DropOperation] = []
        let interaction = DragInteraction { _ in [.text("from a view"), .files(["/tmp/dragged file.txt"])] }
        interaction.didEnd = { ended.append($0) }
        source.addInteraction(interaction)
        var dropped: [[DragItem]] = []
        target.addInteraction(DropInteraction { items, _ in dropped.append(items) })
        window.show()
        window.isFullscreen = true
        try wait(until: { window.isFullscreen && window.size.width == 640 && (window.frameNumber) > 0 }, "the fullscreen window")
        try eventually("the fullscreen window on the screen") { try mutter.screenshot(timeout: 10).rgba8(x: 400, y: 300) == (0, 0, 255, 255) }
        try drag(try mutter.input(), from: (70, 70), by: (330, 230))
        try wait(until: { !dropped.isEmpty && !ended.isEmpty }, "the drop (dropped \(dropped), ended \(ended))")
        #expect(dropped == [[.files(["/tmp/dragged file.txt"]), .text("from a view")]])
        #expect(ended == [.copy])
        #expect(Application.shared.dragAndDrop(for: try #require(window.onscreen?.latestPress?.seat))?.isDragging == false)
    }

    @Test("drag and drop from another client through mutter: a plain Wayland client drags text onto a Strata window, which reads it and finishes the drop")
    func dropFromAnotherClientOnMutter() throws {
        let (mutter, _) = try appOnMutter()
        defer { withExtendedLifetime(mutter) { Application.shared.disconnect() } }
        let window = Window(title: "target", size: Size(width: 560, height: 400))
        window.backgroundColor = Color(rgba8: 0xcc, 0x33, 0x99)
        var dropped: [[DragItem]] = []
        window.rootView.addInteraction(DropInteraction { items, _ in dropped.append(items) })
        window.show()
        try wait(until: { (window.frameNumber) > 0 }, "the Strata window")
        var shown: (x: Int, y: Int, width: Int, height: Int)?
        try eventually("the Strata window on the screen") {
            shown = contentBox(in: try mutter.screenshot(timeout: 10))
            return shown?.width == 560
        }
        let content = try #require(shown)

        // The other client: a small green window (mutter centres it over ours), dragging text when pressed.
        let other = try mutter.connect()
        let source = ToplevelWindow(display: other, title: "source", width: 100, height: 100)
        source.onDraw = { ctx in
            var green = pixman_color_t(red: 0, green: 0xffff, blue: 0, alpha: 0xffff)
            var all = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(ctx.buffer.width), height: UInt16(ctx.buffer.height))
            pixman_image_fill_rectangles(PIXMAN_OP_SRC, ctx.buffer.image, &green, 1, &all)
            return .full
        }
        let seat = try #require(other.seats.values.first)
        let dnd = try #require(try Clipboard(display: other, seat: seat).dragAndDrop)
        var outcome: [DragAndDrop.Action?] = []
        seat.onEvent = { event in
            if case let .pointerButton(_, true, serial) = event {
                dnd.startDrag([("text/plain;charset=utf-8", Array("from another app".utf8))], origin: source.surface, serial: serial) { outcome.append($0) }
            }
        }
        try other.connection.dispatch(until: { source.frameNumber > 0 }, timeout: 10)
        var green: (x: Int, y: Int, width: Int, height: Int)?
        try eventually("the other client's window on the screen") {
            try other.connection.roundtrip()
            green = contentBox(in: try mutter.screenshot(timeout: 10), color: (0, 255, 0))
            return green?.width == 100 && green?.height == 100
        }
        let start = (x: Double(try #require(green).x + 50), y: Double(try #require(green).y + 50))
        let end = (x: Double(content.x + content.width / 2), y: Double(content.y + content.height / 2))
        let input = try mutter.input()
        try input.movePointer(toX: start.x, y: start.y)
        try other.connection.roundtrip()
        try input.button(PointerButton.left.code, pressed: true)
        try other.connection.dispatch(until: { dnd.isDragging }, timeout: 5, what: "the other client starting its drag")
        for i in 1...10 {   // onto the middle of the Strata window
            let t = Double(i) / 10
            try input.movePointer(toX: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t)
            try turn(0.03)
            try other.connection.roundtrip()
        }
        try input.button(PointerButton.left.code, pressed: false)
        let deadline = MonotonicMediaClock().now + 10
        while (dropped.isEmpty || outcome.isEmpty) && MonotonicMediaClock().now < deadline {
            try turn(0.02)
            try other.connection.roundtrip()
        }
        #expect(dropped == [[.text("from another app")]])
        #expect(outcome == [.copy])
        withExtendedLifetime(source) {}
    }

    /// Press, move in steps (mutter's grab follows motion), release; the app's
    /// connection dispatched between steps so it asks for the move or resize.
    private func drag(_ input: MutterRemoteInput, from start: (x: Double, y: Double), by delta: (Double, Double)) throws {
        try input.movePointer(toX: start.x, y: start.y)
        try turn(0.1)
        try input.button(PointerButton.left.code, pressed: true)
        try turn(0.1)
        for i in 1...10 {
            let t = Double(i) / 10
            try input.movePointer(toX: start.x + delta.0 * t, y: start.y + delta.1 * t)
            try turn(0.03)
        }
        try input.button(PointerButton.left.code, pressed: false)
        try turn(0.2)
    }

    private func wait(until condition: () -> Bool, _ what: @autoclosure () -> String) throws {
        try #require(try Application.shared.loop?.turn(until: condition, timeout: 10) == true, "\(what()) within 10 s")
    }

    private func turn(_ seconds: Double) throws { try Application.shared.loop?.turn(for: seconds) }

    @Test("a window the program keeps after Application.disconnect() does not keep the connection: the display goes (mutter would otherwise keep the client, and its window on screen)")
    func keptWindowLetsTheConnectionGo() throws {
        Application.shared.disconnect()
        let mutter = try HeadlessMutter()
        defer { mutter.stop() }
        weak var released: Display?
        var kept: Window?
        do {
            let display = try mutter.connect()
            released = display
            Application.shared.use(display)
            let window = Window(title: "kept", size: Size(width: 200, height: 100))
            let field = TextField(frame: Rect(x: 0, y: 0, width: 200, height: 30))
            window.rootView.addSubview(field)
            window.show()
            window.isFullscreen = true
            try display.connection.dispatch(until: { window.isFullscreen && window.frameNumber > 0 }, timeout: 10)
            // Input, so the seat's pointer, keyboard, cursor and text objects exist too.
            let driver = InputDriver(window: window, injecting: try mutter.injectedInput())
            driver.click(at: Point(x: 50, y: 15))
            driver.type("hi")
            #expect(field.text == "hi")
            kept = window
        }
        Application.shared.disconnect()
        #expect(released == nil, "the display outlived disconnect()")
        #expect(kept?.isVisible == false)
    }

    /// Retries `check` for up to five seconds (the compositor shows changes a frame or two later).
    private func eventually(_ what: String, _ check: () throws -> Bool) throws {
        let deadline = MonotonicMediaClock().now + 5
        while try !check() {
            guard MonotonicMediaClock().now < deadline else {
                Issue.record("\(what): not within 5 s")
                return
            }
            try turn(0.1)
        }
    }

    /// Where the window's content (its magenta background, or `color`) is on the screen, if it is.
    private func contentBox(in shot: RenderedImage, color: (UInt8, UInt8, UInt8) = (0xcc, 0x33, 0x99)) -> (x: Int, y: Int, width: Int, height: Int)? {
        var minX = Int.max, minY = Int.max, maxX = -1, maxY = -1
        for y in 0..<shot.height {
            for x in 0..<shot.width where shot.rgba8(x: x, y: y) == (color.0, color.1, color.2, 255) {
                minX = min(minX, x); maxX = max(maxX, x); minY = min(minY, y); maxY = max(maxY, y)
            }
        }
        guard maxX >= 0 else { return nil }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }
}
