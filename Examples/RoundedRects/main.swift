// Opens a window and animates semi-transparent rounded rectangles drawn with pixman,
// redrawing only at frame callbacks. With no compositor to connect to, it starts a
// headless weston, runs there and saves a screenshot.
// Usage: rounded-rects [--seconds N] [--socket NAME] [--screenshot PATH]
import CPixman
import Glibc
import StrataTesting
import WaylandClient

@MainActor
func run() throws {
    let options = ExampleCommandLine(program: "rounded-rects", screenshot: "rounded-rects.png")
    let (display, headless) = try HeadlessWeston.connectOrStart(socket: options.socket)
    let seconds = options.seconds ?? (headless == nil ? .infinity : 2)
    let window = ToplevelWindow(display: display, title: "Strata: rounded rectangles", appID: "strata.rounded-rects", width: 480, height: 320)
    window.isAnimating = { true }
    let start = MonotonicClock.now
    window.onDraw = { ctx in
        drawScene(into: ctx, time: ctx.targetTime - start)
        return .full
    }
    // The loop owns the main thread; a main-actor task ends the run after `seconds`.
    let loop = EventLoop(connection: display.connection)
    window.onCloseRequest = { _ in loop.stop() }
    ExampleCommandLine.stop(loop, after: seconds)
    try loop.run()
    let stats = window.statistics
    let intervals = stats.callbackIntervals
    print("frames: \(window.frameNumber), median callback interval: \(FrameStatistics.percentile(intervals, 50).map { "\(Int($0 * 1000)) ms" } ?? "n/a"), buffers allocated: \(window.pool.allocationCount)")
    try headless?.saveScreenshot(to: options.screenshotPath)
    window.close()
    try display.connection.roundtrip()
}

/// Background plus three rounded rectangles circling at different speeds.
@MainActor
func drawScene(into ctx: DrawContext, time: Double) {
    let img = ctx.buffer.image
    var bg = pixman_color_t(red: 0x2020, green: 0x2424, blue: 0x2828, alpha: 0xffff)
    var full = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(ctx.buffer.width), height: UInt16(ctx.buffer.height))
    pixman_image_fill_rectangles(PIXMAN_OP_SRC, img, &bg, 1, &full)
    let colors: [(Double, Double, Double, Double)] = [(0.95, 0.3, 0.3, 0.7), (0.3, 0.8, 0.4, 0.6), (0.3, 0.5, 0.95, 0.65)]
    for (i, c) in colors.enumerated() {
        let phase = time * (0.6 + 0.35 * Double(i)) + Double(i) * 2.1
        let w = Double(ctx.logicalWidth), h = Double(ctx.logicalHeight)
        let cx = w / 2 + cos(phase) * w * 0.25, cy = h / 2 + sin(phase) * h * 0.22
        fillRoundedRect(img, x: (cx - 80) * ctx.scale, y: (cy - 55) * ctx.scale, width: 160 * ctx.scale, height: 110 * ctx.scale,
                        radius: 22 * ctx.scale, color: c)
    }
}

/// A convex rounded rectangle as a triangle fan, composited OVER with anti-aliasing.
func fillRoundedRect(_ dst: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double,
                     color: (Double, Double, Double, Double)) {
    var points: [(Double, Double)] = []
    let r = min(radius, width / 2, height / 2)
    let corners = [(x + width - r, y + r, -Double.pi / 2), (x + width - r, y + height - r, 0.0),
                   (x + r, y + height - r, Double.pi / 2), (x + r, y + r, Double.pi)]
    for (cx, cy, a0) in corners {
        for k in 0...8 {
            let a = a0 + Double(k) / 8 * Double.pi / 2
            points.append((cx + cos(a) * r, cy + sin(a) * r))
        }
    }
    let center = (x + width / 2, y + height / 2)
    func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
    var triangles: [pixman_triangle_t] = []
    for i in 0..<points.count {
        let p = points[i], q = points[(i + 1) % points.count]
        triangles.append(pixman_triangle_t(p1: pixman_point_fixed_t(x: fixed(center.0), y: fixed(center.1)),
                                           p2: pixman_point_fixed_t(x: fixed(p.0), y: fixed(p.1)),
                                           p3: pixman_point_fixed_t(x: fixed(q.0), y: fixed(q.1))))
    }
    let a = color.3
    func ch(_ v: Double) -> UInt16 { UInt16((v * a * 65535).rounded()) }
    var c = pixman_color_t(red: ch(color.0), green: ch(color.1), blue: ch(color.2), alpha: UInt16((a * 65535).rounded()))
    let src = pixman_image_create_solid_fill(&c)
    pixman_composite_triangles(PIXMAN_OP_OVER, src, dst, PIXMAN_a8, 0, 0, 0, 0, Int32(triangles.count), &triangles)
    pixman_image_unref(src)
}

do {
    try MainActor.assumeIsolated { try run() }
} catch {
    ExampleCommandLine.printError("rounded-rects: \(error)")
    exit(1)
}
