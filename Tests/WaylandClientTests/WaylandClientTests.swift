import LayerKitTesting
import CPixman
import Dispatch
import Glibc
import PixmanRender
import StrataTesting
import Testing
@testable import WaylandClient

/// Fills a buffer with one opaque colour and a 20×20 marker square at (10, 10).
@MainActor
func paint(_ ctx: DrawContext, rgb: UInt32, marker: UInt32 = 0xFF00FF00) {
    func color(_ argb: UInt32) -> pixman_color_t {
        func c(_ s: UInt32) -> UInt16 { UInt16((argb >> s) & 0xff) * 257 }
        return pixman_color_t(red: c(16), green: c(8), blue: c(0), alpha: c(24))
    }
    var bg = color(0xFF00_0000 | rgb)
    var all = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(ctx.buffer.width), height: UInt16(ctx.buffer.height))
    pixman_image_fill_rectangles(PIXMAN_OP_SRC, ctx.buffer.image, &bg, 1, &all)
    var fg = color(marker)
    var square = pixman_rectangle16_t(x: 10, y: 10, width: 20, height: 20)
    pixman_image_fill_rectangles(PIXMAN_OP_SRC, ctx.buffer.image, &fg, 1, &square)
}

extension Integration {
/// Integration tests of WaylandClient against a real weston, headless (pixman renderer).
@MainActor
@Suite("WaylandClient on headless weston", .serialized, .mainLayerContext)
struct WaylandClientTests {
    @Test("a fullscreen window appears with the pixels it drew")
    func windowAppearsWithItsPixels() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "pixels", width: 200, height: 100)
        window.setFullscreen(true)
        window.onDraw = { ctx in paint(ctx, rgb: 0x3366CC); return .full }
        try display.connection.dispatch(until: { window.states.contains(.fullscreen) && window.frameNumber > 0 }, timeout: 5, what: "a fullscreen frame")
        #expect(window.width == 640 && window.height == 480)
        // One more frame callback: the compositor has repainted with our buffer.
        window.setNeedsDisplay()
        let callbacks = window.statistics.callbackCount
        try display.connection.dispatch(until: { window.statistics.callbackCount > callbacks }, timeout: 5, what: "a frame callback")
        let shot = try weston.screenshot()
        #expect(shot.width == 640 && shot.height == 480)
        let bg = shot.rgba8(x: 300, y: 300), mark = shot.rgba8(x: 15, y: 15)
        #expect(bg.r == 0x33 && bg.g == 0x66 && bg.b == 0xCC && bg.a == 255)
        #expect(mark.r == 0 && mark.g == 255 && mark.b == 0)
        #expect(shot.rgba8(x: 9, y: 9).g == 0x66)   // just outside the marker
    }

    @Test("configure round trips: the client's size, then maximized, then back")
    func configureRoundTrip() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "configure", width: 300, height: 200)
        var configures = 0
        window.onConfigure = { _ in configures += 1 }
        window.onDraw = { ctx in paint(ctx, rgb: 0x804020); return .full }
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        #expect(window.width == 300 && window.height == 200)   // 0×0 configure: the client chooses
        let framesBefore = window.frameNumber
        var drawnSizes: [(Int, Int)] = []
        window.onDraw = { ctx in
            drawnSizes.append((ctx.buffer.width, ctx.buffer.height))
            paint(ctx, rgb: 0x804020)
            return .full
        }
        window.setMaximized(true)
        try display.connection.dispatch(until: { window.states.contains(.maximized) }, timeout: 5, what: "maximize")
        #expect(window.width == 640 && window.height == 480)
        // The configure is acknowledged and answered with a buffer of the new size.
        #expect(window.frameNumber > framesBefore)
        #expect(drawnSizes.last.map { $0 == (640, 480) } == true)
        window.setMaximized(false)
        try display.connection.dispatch(until: { !window.states.contains(.maximized) }, timeout: 5, what: "unmaximize")
        #expect(window.width == 300 && window.height == 200)
        #expect(configures >= 3)
        try display.connection.roundtrip()
        #expect(display.connection.error == nil)
    }

    @Test("frames are drawn at frame callbacks and paced by them")
    func framesArePacedByCallbacks() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "paced")
        window.isAnimating = { true }
        window.onDraw = { ctx in paint(ctx, rgb: UInt32(ctx.frame % 200)); return .full }
        let start = MonotonicClock.now
        try display.connection.dispatch(until: { MonotonicClock.now - start > 1.5 }, timeout: 10)
        let stats = window.statistics
        #expect(stats.frames.count > 20)
        // Every frame but the first (drawn for the configure) was started by a callback.
        #expect(stats.frames.dropFirst().allSatisfy { $0.callbackTime != nil })
        #expect(UInt64(stats.callbackCount) >= window.frameNumber - 1)
        let median = try #require(FrameStatistics.percentile(stats.callbackIntervals, 50))
        #expect(median > 0.010 && median < 0.060, "median callback interval \(median)")
        // weston 10 headless reports presentation times for committed frames.
        #expect(stats.frames.contains { $0.presentedTime != nil || $0.discarded })
    }

    @Test("an idle window requests no frames and commits nothing")
    func idleWindowRequestsNoFrames() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "idle")
        window.onDraw = { ctx in paint(ctx, rgb: 0x224466); return .full }
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        try display.connection.roundtrip()
        let idle = try WaylandTraffic.recording {
            let start = MonotonicClock.now
            while MonotonicClock.now - start < 1 { try display.connection.dispatch(timeout: 0.1) }
        }
        #expect(idle.filter { $0.direction == .request }.isEmpty, "\(idle)")
        #expect(window.frameNumber == 1)
        // One change: one frame request, then one frame drawn at its callback, then quiet again.
        let change = try WaylandTraffic.recording {
            window.setNeedsDisplay()
            let start = MonotonicClock.now
            while MonotonicClock.now - start < 0.5 { try display.connection.dispatch(timeout: 0.05) }
        }
        let names = change.filter { $0.direction == .request && $0.interface == "wl_surface" }.map(\.name)
        #expect(names.filter { $0 == "frame" }.count == 1)
        #expect(names.filter { $0 == "attach" }.count == 1)
        #expect(window.frameNumber == 2)
    }

    @Test("buffers are reused after release: a steady animation allocates no new ones")
    func buffersAreReused() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "reuse")
        window.isAnimating = { true }
        window.onDraw = { ctx in paint(ctx, rgb: 0x101010 * UInt32(ctx.frame % 10)); return .full }
        try display.connection.dispatch(until: { window.frameNumber >= 10 }, timeout: 10)
        let allocated = window.pool.allocationCount
        try display.connection.dispatch(until: { window.frameNumber >= 50 }, timeout: 10)
        #expect(allocated <= 3)
        #expect(window.pool.allocationCount == allocated)
        #expect(window.pool.bufferCount <= 3)
    }

    @Test("a crashed compositor gives a disconnected error, not a crash or a busy loop")
    func compositorCrash() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        weston.crash()
        var caught: WaylandError?
        do {
            for _ in 0..<50 { try display.connection.dispatch(timeout: 0.1) }
        } catch { caught = error }
        guard case .disconnected? = caught else {
            Issue.record("expected .disconnected, got \(String(describing: caught))")
            return
        }
    }

    @Test("a compositor stopped for a while loses no requests; one stopped past the stall timeout is reported as stalled, not as closed (issue 30, item 11)")
    func stalledCompositor() throws {
        let weston = try HeadlessWeston()
        defer { weston.resume() }
        let display = try weston.connect()
        let surface = display.compositor.createSurface()
        try display.connection.roundtrip()
        // Stopped for a second while 50,000 requests (about 1 MB) are sent: the
        // socket fills, the client waits, and nothing is lost.
        weston.pause()
        let pid = weston.processID ?? 0
        DispatchQueue.global().asyncAfter(deadline: .now() + 1) { _ = kill(pid, SIGCONT) }
        let start = MonotonicClock.now
        for _ in 0..<50_000 { surface.damage(x: 0, y: 0, width: 1, height: 1) }
        try display.connection.roundtrip()
        #expect(MonotonicClock.now - start >= 0.9)   // it did wait for the compositor
        // Stopped for longer than the client waits: a stall, named as one.
        display.connection.stallTimeout = 0.5
        weston.pause()
        var caught: WaylandError?
        do {
            for _ in 0..<50_000 { surface.damage(x: 0, y: 0, width: 1, height: 1) }
            try display.connection.roundtrip(timeout: 2)
        } catch { caught = error }
        #expect(caught == .compositorStalled(seconds: 0.5), "got \(String(describing: caught))")
        #expect(weston.isRunning)
    }

    @Test("a protocol error names the interface, object, code and message")
    func protocolErrorIsReported() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let surface = display.compositor.createSurface()
        let first = display.wmBase.getXdgSurface(surface: surface)
        let second = display.wmBase.getXdgSurface(surface: surface)   // a second role object: not allowed
        var caught: WaylandError?
        do { try display.connection.roundtrip() } catch { caught = error }
        guard case let .protocolError(interface, objectID, _, message)? = caught else {
            Issue.record("expected a protocol error, got \(String(describing: caught))")
            return
        }
        #expect(["xdg_wm_base", "xdg_surface", "wl_surface"].contains(interface))
        #expect(objectID > 0)
        #expect(!message.isEmpty)
        #expect(display.connection.error == caught)
        _ = (first, second)
    }

    @Test("missing globals, old versions and unreachable sockets are clear errors")
    func missingGlobalsAndSockets() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        #expect(throws: WaylandError.missingGlobal(interface: "wp_single_pixel_buffer_manager_v1")) {
            _ = try display.registry.bind(WpSinglePixelBufferManagerV1.self)
        }
        #expect(throws: WaylandError.unsupportedVersion(interface: "wl_compositor", required: 99, available: 4)) {
            _ = try display.registry.bind(WlCompositor.self, minVersion: 99)
        }
        #expect(throws: WaylandError.self) { _ = try Display(socket: "/nonexistent/strata-socket") }
        #expect(display.outputs.count == 1)
        #expect(display.shmFormats.contains(WlShm.Format.argb8888.rawValue))
    }

    @Test("buffer sizes that cannot be allocated are refused with a clear error")
    func absurdBufferSizes() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let pool = ShmBufferPool(shm: display.shm)
        #expect(throws: ShmError.invalidSize(width: 0, height: 10)) { _ = try pool.nextBuffer(width: 0, height: 10) }
        #expect(throws: ShmError.invalidSize(width: 100_000, height: 10)) { _ = try pool.nextBuffer(width: 100_000, height: 10) }
        #expect(throws: ShmError.invalidSize(width: 10, height: -5)) { _ = try pool.nextBuffer(width: 10, height: -5) }
        #expect(pool.allocationCount == 0)
        let ok = try pool.nextBuffer(width: 64, height: 32)
        #expect(ok.stride == 256 && ok.width == 64)
    }

    @Test("a pipe transfer under way does not keep its connection: the connection goes when its owner lets go, not when the transfer's thread does")
    func transferDoesNotKeepItsConnection() throws {
        let weston = try HeadlessWeston()
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        defer { close(fds[1]) }
        weak var connection: Connection?
        var transfer: PipeTransfer?
        do {
            let display = try weston.connect()
            connection = display.connection
            // The writer stays open: the transfer waits on its thread for up to 5 s.
            transfer = PipeTransfer.read(fds[0], timeout: 5, deliver: display.connection.poster) { _ in }
        }
        #expect(connection == nil, "the connection outlived its display while a transfer was under way")
        transfer?.cancel()
    }

    @Test("requests on destroyed objects are refused, not sent")
    func requestAfterDestroy() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        var misuse: [String] = []
        WaylandTraffic.misuseHandler = { misuse.append($0) }
        defer { WaylandTraffic.misuseHandler = nil }
        let surface = display.compositor.createSurface()
        surface.destroy()
        surface.commit()
        try display.connection.roundtrip()
        #expect(misuse.count == 1)
        #expect(display.connection.error == nil)
    }
}
}

extension Integration {
/// Scale and configure edge cases.
@MainActor
@Suite("Window scale and configure limits", .serialized, .mainLayerContext)
struct WindowScaleTests {
    @Test("on a scale-2 output the window draws at twice the pixels and says so")
    func integerOutputScale() throws {
        let weston = try HeadlessWeston(width: 320, height: 240, scale: 2)   // 640×480 pixels
        let display = try weston.connect()
        #expect(display.outputs.values.first?.scale == 2)
        let window = ToplevelWindow(display: display, title: "scale")
        window.setFullscreen(true)
        var sizes: [(Int, Int)] = []
        window.onDraw = { ctx in sizes.append((ctx.buffer.width, ctx.buffer.height)); paint(ctx, rgb: 0x446688); return .full }
        let traffic = try WaylandTraffic.recording {
            try display.connection.dispatch(until: { window.scale == 2 && sizes.last.map { $0 == (640, 480) } == true }, timeout: 5, what: "a scale-2 frame")
        }
        #expect(window.width == 320 && window.height == 240)   // logical size
        #expect(traffic.contains { $0.interface == "wl_surface" && $0.name == "set_buffer_scale" })
        window.setNeedsDisplay()
        let callbacks = window.statistics.callbackCount
        try display.connection.dispatch(until: { window.statistics.callbackCount > callbacks }, timeout: 5)
        let shot = try weston.screenshot()
        #expect(shot.rgba8(x: 15, y: 15).g == 255)     // the 20-pixel marker, at buffer pixels
        #expect(shot.rgba8(x: 35, y: 35).b == 0x88)
    }

    @Test("absurd configure sizes are clamped; zero or negative sizes mean the client's size")
    func absurdConfigure() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let window = ToplevelWindow(display: display, title: "limits", width: 200, height: 100)
        window.onDraw = { ctx in paint(ctx, rgb: 0x101010); return .full }
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        window.applyConfigure(size: (1_000_000, 2_000_000), states: [])
        #expect(window.width == ShmBufferPool.maximumDimension && window.height == ShmBufferPool.maximumDimension)
        window.applyConfigure(size: (-5, 0), states: [])
        #expect(window.width == 200 && window.height == 100)
        try display.connection.roundtrip()
        #expect(display.connection.error == nil)
    }
}
}

extension Integration.WindowScaleTests {
    /// No compositor on this machine offers wp_fractional_scale_manager_v1 (weston 10,
    /// sway 1.7), so the preferred-scale event is applied directly; weston's real
    /// wp_viewporter then maps the larger buffer back to the window's size.
    @Test("a fractional preferred scale draws bigger buffers mapped back by a viewport")
    func fractionalScaleThroughViewport() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        try #require(display.viewporter != nil)
        let window = ToplevelWindow(display: display, title: "fractional", width: 200, height: 100)
        window.setFullscreen(true)
        var sizes: [(Int, Int)] = []
        window.onDraw = { ctx in sizes.append((ctx.buffer.width, ctx.buffer.height)); paint(ctx, rgb: 0x5577AA); return .full }
        try display.connection.dispatch(until: { window.states.contains(.fullscreen) && window.frameNumber > 0 }, timeout: 5)
        let traffic = try WaylandTraffic.recording {
            window.applyPreferredScale(180)   // 1.5
            try display.connection.dispatch(until: { sizes.last.map { $0 == (960, 720) } == true }, timeout: 5, what: "a 1.5× frame")
            try display.connection.roundtrip()
        }
        #expect(window.scale == 1.5 && window.width == 640 && window.height == 480)
        #expect(traffic.contains { $0.interface == "wp_viewporter" && $0.name == "get_viewport" })
        #expect(traffic.contains { $0.interface == "wp_viewport" && $0.name == "set_destination" })
        #expect(display.connection.error == nil)
        window.setNeedsDisplay()
        let callbacks = window.statistics.callbackCount
        try display.connection.dispatch(until: { window.statistics.callbackCount > callbacks }, timeout: 5)
        let shot = try weston.screenshot()
        // The 20-buffer-pixel marker at (10, 10) shows at 1/1.5 of that size on screen.
        #expect(shot.rgba8(x: 10, y: 10).g == 255 && shot.rgba8(x: 25, y: 25).b == 0xAA)
        window.applyPreferredScale(0)          // nonsense: ignored
        #expect(window.scale == 1.5)
    }
}
