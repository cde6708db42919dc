import LayerKitTesting
import Dispatch
import StrataTesting
import Testing
@testable import WaylandClient

extension Integration {
/// Frames drawn off the main thread: results come back through the connection,
/// and the window keeps handling events while a frame is being drawn.
@MainActor
@Suite("Drawing off the main thread", .serialized, .mainLayerContext)
struct AsyncDrawingTests {
    @MainActor final class Log<T> { var items: [T] = [] }

    @Test("work posted from other threads wakes a waiting dispatch and runs on the main actor, in order")
    func postedWork() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let connection = display.connection
        let log = Log<Int>()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.1) {
            for i in 0..<5 { connection.post { log.items.append(i) } }
        }
        // Nothing comes from the compositor meanwhile: only the post can end the wait.
        try connection.dispatch(until: { log.items.count == 5 }, timeout: 5, what: "the posted work")
        #expect(log.items == [0, 1, 2, 3, 4])
    }

    @Test("while a frame is drawn elsewhere the window handles events; a frame finished after a resize is redrawn at the new size")
    func frameInFlightAcrossAResize() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "async", width: 300, height: 200)
        let frames = Log<(ctx: DrawContext, finish: @MainActor (FrameDamage) -> Void)>()
        window.onDrawAsync = { ctx, finish in frames.items.append((ctx, finish)) }
        try display.connection.dispatch(until: { frames.items.count == 1 }, timeout: 5, what: "the first frame")
        #expect(window.isDrawing && window.frameNumber == 0)
        #expect(frames.items[0].ctx.buffer.width == 300)

        // The frame is not finished, and the window goes on: a maximize round trip.
        window.setMaximized(true)
        try display.connection.dispatch(until: { window.states.contains(.maximized) }, timeout: 5, what: "maximize")
        #expect(window.width == 640 && window.height == 480)
        #expect(frames.items.count == 1, "no second frame while one is being drawn")

        // The 300×200 frame arrives too late: dropped, and the window draws at 640×480.
        paint(frames.items[0].ctx, rgb: 0x102030)
        frames.items[0].finish(.full)
        #expect(window.frameNumber == 0, "the stale frame is not committed")
        #expect(frames.items.count == 2)
        #expect(frames.items[1].ctx.buffer.width == 640 && frames.items[1].ctx.buffer.height == 480)
        #expect(frames.items[1].ctx.bufferAge == 0)
        frames.items[0].finish(.full)   // a second call for the same frame is ignored
        #expect(frames.items.count == 2)

        paint(frames.items[1].ctx, rgb: 0x3366CC)
        frames.items[1].finish(.full)
        #expect(window.frameNumber == 1 && !window.isDrawing)
        window.setNeedsDisplay()
        try display.connection.dispatch(until: { frames.items.count == 3 }, timeout: 5, what: "a frame callback")
        frames.items[2].finish(.none)
        let shot = try weston.screenshot()
        let bg = shot.rgba8(x: 300, y: 300)
        #expect(bg.r == 0x33 && bg.g == 0x66 && bg.b == 0xCC)
    }

    @Test("frames drawn ahead: the next frame starts when one is committed, aimed a refresh later, and is committed at its callback; a change meanwhile drops it")
    func drawingAhead() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "ahead", width: 200, height: 100)
        window.setFullscreen(true)   // so the screen shows it at a known place
        window.drawAhead = .always
        window.isAnimating = { true }
        var discarded = 0
        window.onDiscardAhead = { discarded += 1 }
        let frames = Log<(ctx: DrawContext, finish: @MainActor (FrameDamage) -> Void)>()
        window.onDrawAsync = { ctx, finish in frames.items.append((ctx, finish)) }
        let connection = display.connection
        try connection.dispatch(until: { frames.items.count == 1 }, timeout: 5, what: "the first frame")
        paint(frames.items[0].ctx, rgb: 0x101010)
        frames.items[0].finish(.full)   // the configure's frame: no callback to draw ahead of
        #expect(frames.items.count == 1 && window.frameNumber == 1)

        // At the callback a frame is drawn; once it is committed the next one starts at once.
        try connection.dispatch(until: { frames.items.count == 2 }, timeout: 5, what: "a frame at a callback")
        paint(frames.items[1].ctx, rgb: 0x202020)
        frames.items[1].finish(.full)
        #expect(window.frameNumber == 2)
        #expect(frames.items.count == 3, "the next frame is started ahead, without waiting for a callback")
        let lead = frames.items[2].ctx.targetTime - frames.items[1].ctx.targetTime
        #expect(lead > 0.005 && lead < 0.1, "aimed about one refresh after the frame before it (\(lead) s)")
        #expect(frames.items[2].ctx.frame == 3)

        // Drawn, it waits for its callback, and is committed then; the one after starts.
        paint(frames.items[2].ctx, rgb: 0x303030)
        frames.items[2].finish(.full)
        #expect(window.frameNumber == 2, "not committed before its callback")
        try connection.dispatch(until: { window.frameNumber == 3 }, timeout: 5, what: "the callback for the frame drawn ahead")
        #expect(frames.items.count == 4 && frames.items[3].ctx.frame == 4)

        // A change while the frame ahead is drawn: it is dropped at the callback and
        // a fresh frame 4 drawn then; its buffer counts as holding nothing.
        window.setNeedsDisplay()
        paint(frames.items[3].ctx, rgb: 0x404040)
        frames.items[3].finish(.full)
        try connection.dispatch(until: { frames.items.count == 5 }, timeout: 5, what: "the redraw after the change")
        #expect(discarded == 1)
        #expect(window.frameNumber == 3, "the dropped frame was not committed")
        #expect(frames.items[4].ctx.frame == 4)
        if frames.items[4].ctx.buffer === frames.items[3].ctx.buffer { #expect(frames.items[4].ctx.bufferAge == 0) }
        paint(frames.items[4].ctx, rgb: 0x3366CC)
        frames.items[4].finish(.full)
        #expect(window.frameNumber == 4)
        window.isAnimating = { false }
        // The callback after the commit: the compositor has shown frame 4.
        let callbacks = window.statistics.callbackCount
        try connection.dispatch(until: { window.statistics.callbackCount > callbacks }, timeout: 5, what: "the next callback")
        let shot = try weston.screenshot()
        let c = shot.rgba8(x: 300, y: 200)
        #expect(c.r == 0x33 && c.g == 0x66 && c.b == 0xCC, "the screen shows the fresh frame, not the dropped one: \(c)")
    }

    @Test("a window closed while a frame is drawn elsewhere ignores the frame when it arrives")
    func closedWhileDrawing() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "closing", width: 200, height: 100)
        let frames = Log<(ctx: DrawContext, finish: @MainActor (FrameDamage) -> Void)>()
        window.onDrawAsync = { ctx, finish in frames.items.append((ctx, finish)) }
        try display.connection.dispatch(until: { frames.items.count == 1 }, timeout: 5, what: "the first frame")
        window.close()
        #expect(!window.isDrawing)
        paint(frames.items[0].ctx, rgb: 0x112233)
        frames.items[0].finish(.full)
        #expect(window.frameNumber == 0 && frames.items.count == 1)
        try display.connection.roundtrip()
        #expect(display.connection.error == nil, "nothing was sent for the closed window")
    }
}
}
