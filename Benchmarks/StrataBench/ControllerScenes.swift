import Strata
import StrataTesting
import WaylandClient

/// C1 `nav-push`: a 1280×720 fullscreen `Window` on headless weston whose root
/// is a `NavigationController`; a controller of 300 card views is pushed over
/// another of 300 and popped again, back to back (each a 0.35 s slide with the
/// one below moving in parallax), on the real clock; frames per second next to
/// the compositor's callback rate, callback→commit p50/p99, main thread per frame.
@MainActor
func sceneNavigationPush() throws -> [Figure] {
    let weston = try HeadlessWeston(width: 1280, height: 720, repaintWindow: 15)
    let display = try useApplication(on: weston)
    let app = Application.shared
    defer { app.disconnect() }
    final class Cards: ViewController {
        let first: Int
        init(first: Int) {
            self.first = first
            super.init()
        }
        override func loadView() {
            view = View(frame: Rect(x: 0, y: 0, width: 1280, height: 720))
            view.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
            for i in first..<first + 300 { view.addSubview(Card(i, 1280, 720).makeView()) }
        }
    }
    let window = Window(title: "C1", size: Size(width: 1280, height: 720))
    let navigation = NavigationController(rootViewController: Cards(first: 0))
    window.rootViewController = navigation
    window.show()
    window.isFullscreen = true
    Transaction.flush()
    let detail = Cards(first: 300)
    var timer: MediaTimer?
    var transitions = 0
    func next() {
        if navigation.topViewController === detail {
            _ = navigation.popViewController(animated: true)
        } else {
            navigation.pushViewController(detail, animated: true)
        }
        transitions += 1
        timer = MediaTimer.schedule(after: NavigationController.transitionDuration + 0.02) { next() }
    }
    next()
    defer { timer?.cancel() }
    var figures = try measureAnimatingWindow(window.toplevel!, display, scene: "C1 nav-push", loop: app.loop)
    figures.append(Figure(scene: "C1 nav-push", metric: "pushes and pops", value: Double(transitions), unit: "", repetitions: 1))
    return figures
}
