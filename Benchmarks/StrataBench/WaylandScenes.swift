import AllocationCounter
import CPixman
import Glibc
import Strata
import StrataTesting
import WaylandClient

/// CPU seconds (user + system) this process has used.
func cpuTime() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

/// Fills the buffer and composites 8 translucent squares, as a small animated scene.
@MainActor
func drawCards(_ ctx: DrawContext) {
    var bg = pixman_color_t(red: 0x2020, green: 0x2424, blue: 0x2828, alpha: 0xffff)
    var all = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(ctx.buffer.width), height: UInt16(ctx.buffer.height))
    pixman_image_fill_rectangles(PIXMAN_OP_SRC, ctx.buffer.image, &bg, 1, &all)
    for i in 0..<8 {
        var c = pixman_color_t(red: UInt16(i * 8000), green: 0x6000, blue: 0x9000, alpha: 0xb000)
        let src = pixman_image_create_solid_fill(&c)
        let x = Int32((Int(ctx.frame) * 4 + i * 150) % max(1, ctx.buffer.width - 200))
        pixman_image_composite32(PIXMAN_OP_OVER, src, nil, ctx.buffer.image, 0, 0, 0, 0, x, Int32(40 + i * 70), 200, 160)
        pixman_image_unref(src)
    }
}

/// Issue-2 figures on a headless weston: frame callback → commit at 1280×720,
/// buffers allocated in steady state, and CPU used by an idle window (scene S5).
@MainActor
func sceneWindow720p() throws -> [Figure] {
    let weston = try HeadlessWeston(width: 1280, height: 720, repaintWindow: 15)
    let display = try weston.connect()
    let window = ToplevelWindow(display: display, title: "bench", width: 1280, height: 720)
    window.setFullscreen(true)
    var animating = true
    window.isAnimating = { animating }
    window.onDraw = { ctx in drawCards(ctx); return .full }
    let warm = MonotonicClock.now
    try display.connection.dispatch(until: { MonotonicClock.now - warm > 1 }, timeout: 10)
    let allocatedBefore = window.pool.allocationCount
    let framesBefore = window.statistics.frames.count
    let allocationsBefore = strata_allocation_count()
    let start = MonotonicClock.now
    try display.connection.dispatch(until: { MonotonicClock.now - start > 3 }, timeout: 10)
    let frames = Array(window.statistics.frames.dropFirst(framesBefore))
    let latencies = FrameStatistics.callbackToCommit(frames)
    let newBuffers = window.pool.allocationCount - allocatedBefore
    let heapAllocations = Double(strata_allocation_count() - allocationsBefore) / Double(max(1, frames.count))

    animating = false
    try display.connection.dispatch(until: { MonotonicClock.now - start > 3.2 }, timeout: 10)
    let cpu0 = cpuTime(), idleStart = MonotonicClock.now
    while MonotonicClock.now - idleStart < 5 { try display.connection.dispatch(timeout: 5 - (MonotonicClock.now - idleStart)) }
    let idleCPU = cpuTime() - cpu0
    return [
        Figure(scene: "window-1280x720", metric: "callback→commit p50", value: (FrameStatistics.percentile(latencies, 50) ?? .nan) * 1e3, unit: "ms", repetitions: latencies.count),
        Figure(scene: "window-1280x720", metric: "callback→commit p99", value: (FrameStatistics.percentile(latencies, 99) ?? .nan) * 1e3, unit: "ms", repetitions: latencies.count),
        Figure(scene: "window-1280x720", metric: "frames per second", value: Double(frames.count) / 3, unit: "fps", repetitions: 1),
        Figure(scene: "window-1280x720", metric: "new wl_buffers in steady state", value: Double(newBuffers), unit: "buffers", repetitions: frames.count),
        Figure(scene: "window-1280x720", metric: "heap allocations per frame", value: heapAllocations, unit: "allocations", repetitions: frames.count),
        Figure(scene: "S5 idle", metric: "CPU over 5 s idle", value: idleCPU * 1e3, unit: "ms", repetitions: 1),
    ]
}

/// S6 `window-720p-500`: `cards(500, 1280, 720)` in a window on headless weston,
/// every card animating `position`; frames per second next to the compositor's
/// callback rate, and the p99 time from frame callback to commit.
@MainActor
func sceneWindow720p500() throws -> [Figure] {
    let (w, h) = (1280, 720)
    MediaTime.clock = MonotonicMediaClock()
    let weston = try HeadlessWeston(width: w, height: h, repaintWindow: 15)
    let display = try weston.connect()
    let lw = LayerWindow(display: display, title: "S6", width: w, height: h)
    lw.window.setFullscreen(true)
    lw.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
    Transaction.withoutActions {
        for i in 0..<500 {
            let l = Card(i, w, h).makeLayer()
            lw.rootLayer.addSublayer(l)
            let move = BasicAnimation(keyPath: "position.x")
            move.byValue = 200.0
            move.duration = 2
            move.autoreverses = true
            move.repeatCount = .infinity
            l.add(move, forKey: "move")
        }
    }
    Transaction.flush()
    defer { for l in lw.rootLayer.sublayers { l.removeAllAnimations() } }
    return try measureAnimatingWindow(lw.window, display, scene: "S6 window-720p-500")
}

/// Frames per second next to the compositor's callback rate, callback→commit
/// p50/p99 and the main thread's share of each frame, over 3 s after 1 s of warm-up,
/// for a window whose content animates (S6, S7).
@MainActor
func measureAnimatingWindow(_ window: ToplevelWindow, _ display: Display, scene: String, loop: EventLoop? = nil) throws -> [Figure] {
    // With an event loop its timers run too (media timers, the windows' wake-ups); else Wayland events only.
    func run(for seconds: Double) throws {
        let start = MonotonicClock.now
        if let loop {
            try loop.turn(for: seconds)
        } else {
            try display.connection.dispatch(until: { MonotonicClock.now - start > seconds }, timeout: seconds + 7)
        }
    }
    // How long each frame keeps the main thread: reading the layers; the pixels are drawn on the render workers.
    var mainThread: [Double] = []
    if let draw = window.onDrawAsync {
        window.onDrawAsync = { ctx, finish in
            let t0 = MonotonicClock.now
            draw(ctx, finish)
            mainThread.append(MonotonicClock.now - t0)
        }
    }
    try run(for: 1)
    mainThread.removeAll()
    let framesBefore = window.statistics.frames.count, callbacksBefore = window.statistics.callbackCount
    let start = MonotonicClock.now
    try run(for: 3)
    let frames = Array(window.statistics.frames.dropFirst(framesBefore))
    let seconds = MonotonicClock.now - start
    let latencies = FrameStatistics.callbackToCommit(frames)
    let callbacks = window.statistics.callbackCount - callbacksBefore
    return [
        Figure(scene: scene, metric: "frames committed per second", value: Double(frames.count) / seconds, unit: "fps", repetitions: frames.count),
        Figure(scene: scene, metric: "frame callbacks per second", value: Double(callbacks) / seconds, unit: "Hz", repetitions: callbacks),
        Figure(scene: scene, metric: "callback→commit p50", value: (FrameStatistics.percentile(latencies, 50) ?? .nan) * 1e3, unit: "ms", repetitions: latencies.count),
        Figure(scene: scene, metric: "callback→commit p99", value: (FrameStatistics.percentile(latencies, 99) ?? .nan) * 1e3, unit: "ms", repetitions: latencies.count),
        Figure(scene: scene, metric: "main thread per frame (layers read), p50", value: median(mainThread) * 1e3, unit: "ms", repetitions: mainThread.count),
    ]
}

/// Connects the application to `compositor`, on the system clock with no
/// transaction open (the caller disconnects when done).
@MainActor
func useApplication(on compositor: any Compositor) throws -> Display {
    MediaTime.clock = MonotonicMediaClock()
    Transaction.reset()
    let display = try compositor.connect()
    Application.shared.use(display)
    return display
}
