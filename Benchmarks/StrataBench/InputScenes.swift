import Glibc
import Strata
import StrataTesting
import WaylandClient

/// A view that moves a marker on every key press and notes when the key arrived.
@MainActor
private final class KeyTarget: View {
    let marker: View
    var arrivals: [Double] = []
    init(marker: View) {
        self.marker = marker
        super.init(frame: Rect(x: 0, y: 0, width: 1280, height: 720))
    }
    override var canBecomeFirstResponder: Bool { true }
    override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        arrivals.append(MonotonicClock.now)
        marker.center.x = 20 + (marker.center.x + 8).truncatingRemainder(dividingBy: 1200)
    }
}

/// Input latency on headless sway: keys typed by a virtual keyboard (`wtype`,
/// 25 ms apart) move a marker over 500 card views in a 1280×720 window; from
/// each key's arrival to the commit of the first frame drawn after it (p50,
/// p99), and the client's CPU per second meanwhile. (sway's virtual pointer
/// reaches no client here, so keys stand in for pointer motion.)
@MainActor
func sceneInputLatency() throws -> [Figure] {
    let sway = try HeadlessSway(width: 1280, height: 720)
    let display = try useApplication(on: sway)
    let app = Application.shared
    defer { app.disconnect() }
    let marker = latencyMarker()
    let target = KeyTarget(marker: marker)
    let window = latencyWindow(title: "input", target: target, marker: marker, cardsTakeInput: true)
    target.becomeFirstResponder()
    try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
    let keys = 80
    let cpu0 = cpuTime(), t0 = MonotonicClock.now
    let (wtype, _) = try sway.startClient(["wtype", "-s", "400", "-d", "25", String(repeating: "a", count: keys)])
    defer { wtype.terminate() }
    // Turns of the app's loop (its end-of-turn commits are what ask for frames).
    let loop = app.loop!
    let deadline = MonotonicClock.now + 20
    while (target.arrivals.count < keys || MonotonicClock.now - (target.arrivals.last ?? 0) < 0.2) && MonotonicClock.now < deadline {
        try loop.turn(timeout: 0.02)
    }
    return latencyFigures(scene: "input latency (sway, keys)", event: "key", doing: "typing", arrivals: target.arrivals, window: window,
                          seconds: MonotonicClock.now - t0, cpu: cpuTime() - cpu0)
}

/// The red marker the latency scenes move.
@MainActor
private func latencyMarker() -> View {
    let marker = View(frame: Rect(x: 20, y: 340, width: 40, height: 40))
    marker.backgroundColor = .red
    return marker
}

/// A 1280×720 window, shown, whose `target` holds the 500 cards under `marker`.
@MainActor
private func latencyWindow(title: String, target: View, marker: View, cardsTakeInput: Bool) -> Window {
    let window = Window(title: title, size: Size(width: 1280, height: 720))
    window.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
    for i in 0..<500 {
        let card = Card(i, 1280, 720).makeView()
        card.isUserInteractionEnabled = cardsTakeInput
        target.addSubview(card)
    }
    target.addSubview(marker)
    window.rootView.addSubview(target)
    window.show()
    return window
}

/// From each event's arrival to the commit of the first frame drawn after it
/// (p50, p99), and the client's CPU per second over the run.
@MainActor
private func latencyFigures(scene: String, event: String, doing: String, arrivals: [Double], window: Window,
                            seconds: Double, cpu: Double) -> [Figure] {
    let frames = window.toplevel?.statistics.frames ?? []
    let latencies = arrivals.compactMap { arrival in
        frames.first { ($0.callbackTime ?? $0.commitTime) >= arrival }.map { $0.commitTime - arrival }
    }
    return [50.0, 99].map { p in
        Figure(scene: scene, metric: "\(event) arrival → commit p\(Int(p))", value: (FrameStatistics.percentile(latencies, p) ?? .nan) * 1e3,
               unit: "ms", repetitions: latencies.count)
    } + [Figure(scene: scene, metric: "client CPU per second while \(doing)", value: cpu / seconds * 1e3, unit: "ms/s", repetitions: 1)]
}

/// Pointer input latency on headless mutter, whose RemoteDesktop pointer
/// reaches clients: 80 motions 25 ms apart over 500 card views in a 1280×720
/// fullscreen window; a marker follows the pointer (a hover recognizer). From
/// each motion's arrival at the app to the commit of the first frame drawn
/// after it (p50, p99), and the client's CPU per second meanwhile.
@MainActor
func scenePointerLatency() throws -> [Figure] {
    let mutter = try HeadlessMutter(width: 1280, height: 720)
    let display = try useApplication(on: mutter)
    let app = Application.shared
    defer { app.disconnect() }
    let marker = latencyMarker()
    marker.isUserInteractionEnabled = false
    let target = View(frame: Rect(x: 0, y: 0, width: 1280, height: 720))
    var arrivals: [Double] = []
    target.addGestureRecognizer(HoverGestureRecognizer { r in
        arrivals.append(MonotonicClock.now)
        marker.center = r.location(in: target)
    })
    let window = latencyWindow(title: "pointer", target: target, marker: marker, cardsTakeInput: false)
    window.isFullscreen = true
    try display.connection.dispatch(until: { window.isFullscreen && (window.frameNumber) > 0 }, timeout: 10)
    let input = try mutter.input()
    let loop = app.loop!
    try loop.turn(for: 0.5)   // mutter shows the fullscreen window
    let motions = 80
    let cpu0 = cpuTime(), t0 = MonotonicClock.now
    for i in 0..<motions {
        try input.movePointer(toX: 100 + Double(i * 13 % 1000), y: 200 + Double(i * 7 % 300))
        try loop.turn(for: 0.025)
    }
    try loop.turn(for: 0.2)
    return latencyFigures(scene: "input latency (mutter, pointer)", event: "motion", doing: "moving", arrivals: arrivals, window: window,
                          seconds: MonotonicClock.now - t0, cpu: cpuTime() - cpu0)
}
