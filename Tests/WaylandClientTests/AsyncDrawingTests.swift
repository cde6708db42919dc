import Dispatch
import StrataTesting
import Testing
@testable import WaylandClient

extension Integration {
/// Frames drawn off the main thread: results come back through the connection,
/// and the window keeps handling events while a frame is being drawn.
@MainActor
@Suite("Drawing off the main thread", .serialized)
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
