// Strata's main demo: a layer tree in a window, animated the Core Animation way —
// implicit animations in transactions, a keyframe animation along a path, a
// push transition — redrawn only at frame callbacks while something moves.
// With no compositor to connect to, it starts a headless weston and saves a
// screenshot. Usage: strata-demo [--seconds N] [--socket NAME] [--screenshot PATH]
import Glibc
import Strata
import StrataTesting
import WaylandClient

@MainActor
final class Demo {
    let window: LayerWindow
    let loop: EventLoop
    var cards: [Layer] = []
    let badge = Layer()
    var step = 0

    init(display: Display) {
        loop = EventLoop(connection: display.connection)
        window = LayerWindow(display: display, loop: loop, title: "Strata demo", width: 640, height: 480)
        window.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
        let root = window.rootLayer
        let palette: [Color] = [.red, .orange, .yellow, .green, .cyan, .blue, .magenta, .white]
        for (i, color) in palette.enumerated() {
            let card = Layer()
            card.frame = Rect(x: 40 + Double(i % 4) * 145, y: 60 + Double(i / 4) * 150, width: 120, height: 120)
            card.backgroundColor = color.withAlpha(0.8)
            card.cornerRadius = 18
            card.borderWidth = i % 3 == 0 ? 3 : 0
            card.borderColor = .white
            root.addSublayer(card)
            cards.append(card)
        }
        badge.frame = Rect(x: 0, y: 0, width: 36, height: 36)
        badge.cornerRadius = 18
        badge.backgroundColor = .white
        badge.contents = Image(width: 2, height: 2, color: .red)
        badge.masksToBounds = true
        root.addSublayer(badge)
        // Actions for the badge: its contents are pushed in from the right.
        let push = Transition()
        push.type = .push
        push.subtype = .fromRight
        push.duration = 0.5
        badge.actions["contents"] = push

        // A ball travels a bounce path forever.
        let path = Path()
        path.move(to: Point(x: 40, y: 430))
        path.addCurve(to: Point(x: 320, y: 430), control1: Point(x: 40, y: 340), control2: Point(x: 320, y: 340))
        path.addCurve(to: Point(x: 600, y: 430), control1: Point(x: 320, y: 340), control2: Point(x: 600, y: 340))
        let bounce = KeyframeAnimation(keyPath: "position")
        bounce.path = path
        bounce.duration = 3
        bounce.repeatCount = .infinity
        bounce.autoreverses = true
        badge.add(bounce, forKey: "bounce")
    }

    /// Every 1.5 s: shuffle, turn and fade the cards in one transaction.
    func shuffle() {
        step += 1
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = .easeInEaseOut
        for (i, card) in cards.enumerated() {
            let slot = (i + step) % cards.count
            card.position = Point(x: 100 + Double(slot % 4) * 145, y: 120 + Double(slot / 4) * 150)
            card.transform = Transform3D(rotationAngle: Double((i + step) % 3 - 1) * 0.2, x: 0, y: 0, z: 1)
            card.opacity = (i + step) % 4 == 0 ? 0.4 : 1
            card.cornerRadius = step % 2 == 0 ? 18 : 40
        }
        badge.contents = Image(width: 2, height: 2, color: step % 2 == 0 ? .red : .blue)
        Transaction.commit()
        loop.schedule(after: 1.5) { [weak self] in self?.shuffle() }
    }
}

@MainActor
func run() throws {
    let options = ExampleCommandLine(program: "strata-demo", screenshot: "strata-demo.png")
    let (display, headless) = try HeadlessWeston.connectOrStart(socket: options.socket)
    let demo = Demo(display: display)
    demo.window.window.onCloseRequest = { _ in demo.loop.stop() }
    Transaction.flush()   // first commit: the tree is presented, from now on changes animate
    demo.loop.schedule(after: 0.4) { demo.shuffle() }
    ExampleCommandLine.stop(demo.loop, after: options.seconds ?? (headless == nil ? .infinity : 2.1))
    try demo.loop.run()
    let stats = demo.window.window.statistics
    print("frames: \(demo.window.window.frameNumber), callbacks: \(stats.callbackCount)")
    try headless?.saveScreenshot(to: options.screenshotPath)
}

do {
    try MainActor.assumeIsolated { try run() }
} catch {
    print("strata-demo: \(error)")
    exit(1)
}
