import Glibc
import Strata
import StrataTesting
import WaylandClient

extension Card {
    /// The card as a view (frame at its place).
    @MainActor
    func makeView() -> View {
        let v = View(frame: Rect(x: Double(x), y: Double(y), width: Double(size), height: Double(size)))
        v.backgroundColor = Color(rgba8: r, g, b)
        v.alpha = opacity
        v.layer.cornerRadius = radius
        if border {
            v.layer.borderWidth = 2
            v.layer.borderColor = .white
        }
        return v
    }
}

/// S7, part 1: the cost of one `View.animate` call that moves 1,000 views,
/// next to the same moves made on 1,000 plain (presented) layers in a
/// `Transaction` (implicit animations), in the same run.
@MainActor
func sceneViewAnimateCost(repetitions: Int) -> [Figure] {
    let clock = ManualMediaClock(now: 1000)
    MediaTime.clock = clock
    let window = Window(title: "S7", size: Size(width: 1280, height: 720))
    window.show()
    let views = (0..<1000).map { Card($0, 1280, 720).makeView() }
    for v in views { window.rootView.addSubview(v) }
    let plain = Layer()
    window.layer.addSublayer(plain)
    var layers: [Layer] = []
    Transaction.withoutActions {
        for i in 0..<1000 {
            let l = Card(i, 1280, 720).makeLayer()
            plain.addSublayer(l)
            layers.append(l)
        }
    }
    Transaction.flush()
    var block: [Double] = [], transaction: [Double] = []
    for r in 0..<repetitions {
        let dx = Double(r % 2 == 0 ? 40 : -40)
        let t0 = now()
        View.animate(duration: 0.5) {
            for v in views { v.center.x += dx }
        }
        let t1 = now()
        Transaction.begin()
        Transaction.animationDuration = 0.5
        for l in layers { l.position.x += dx }
        Transaction.commit()
        let t2 = now()
        block.append(t1 - t0)
        transaction.append(t2 - t1)
        Transaction.flush()
        clock.advance(by: 1)   // the animations finish and go (not timed)
    }
    window.close()
    let b = median(block) * 1e6, t = median(transaction) * 1e6
    return [
        Figure(scene: "S7 views-720p-500", metric: "View.animate moving 1,000 views", value: b, unit: "µs", repetitions: repetitions),
        Figure(scene: "S7 views-720p-500", metric: "Transaction moving 1,000 plain layers", value: t, unit: "µs", repetitions: repetitions),
        Figure(scene: "S7 views-720p-500", metric: "ratio block/transaction", value: b / t, unit: "x", repetitions: repetitions),
    ]
}

/// S7 `views-720p-500`: 500 card views in a 1280×720 `Window` on headless weston,
/// all moved by one repeating, autoreversing `View.animate` block; frames per
/// second next to the compositor's callback rate, p99 callback→commit.
@MainActor
func sceneViews720p500() throws -> [Figure] {
    let weston = try HeadlessWeston(width: 1280, height: 720, repaintWindow: 15)
    let display = try useApplication(on: weston)
    let app = Application.shared
    defer { app.disconnect() }
    let window = Window(title: "S7", size: Size(width: 1280, height: 720))
    window.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
    let views = (0..<500).map { Card($0, 1280, 720).makeView() }
    for v in views { window.rootView.addSubview(v) }
    window.show()
    window.isFullscreen = true
    Transaction.flush()
    View.animate(duration: 2, options: [.repeat, .autoreverse, .curveLinear]) {
        for v in views { v.center.x += 200 }
    }
    Transaction.flush()
    defer { for v in views { v.layer.removeAllAnimations() } }
    return try measureAnimatingWindow(window.toplevel!, display, scene: "S7 views-720p-500")
}

/// R4 `blur-sidebar` (issue 28): a 400×800 `VisualEffectView` (the system
/// material) at the left of a 1280×800 fullscreen window on headless weston, over
/// 100 card views that slide under it and back all the time; every frame repaints
/// the sidebar's blur of what moved beneath it.
@MainActor
func sceneBlurSidebar() throws -> [Figure] {
    let weston = try HeadlessWeston(width: 1280, height: 800, repaintWindow: 15)
    let display = try useApplication(on: weston)
    let app = Application.shared
    defer { app.disconnect() }
    let window = Window(title: "R4", size: Size(width: 1280, height: 800))
    window.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
    let views = (0..<100).map { Card($0, 1280, 800).makeView() }
    for v in views { window.rootView.addSubview(v) }
    let sidebar = VisualEffectView(effect: BlurEffect(style: .systemMaterial))
    sidebar.frame = Rect(x: 0, y: 0, width: 400, height: 800)
    window.rootView.addSubview(sidebar)
    window.show()
    window.isFullscreen = true
    Transaction.flush()
    View.animate(duration: 2, options: [.repeat, .autoreverse, .curveLinear]) {
        for v in views { v.center.x -= 300 }
    }
    Transaction.flush()
    defer { for v in views { v.layer.removeAllAnimations() } }
    return try measureAnimatingWindow(window.toplevel!, display, scene: "R4 blur-sidebar")
}
