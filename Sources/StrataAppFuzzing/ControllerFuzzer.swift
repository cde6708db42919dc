import Strata
import StrataFuzzing
import StrataTesting
import WaylandClient

/// Turns fuzzer bytes into a program over Strata's view controllers — a
/// navigation controller as a window's root, pushes and pops (also from the
/// leading edge by touch), presentations in every style and alerts from any
/// controller, dismissals, containment edits (cycles among them), keys
/// (Return, Escape, Tab) and clicks, on a manual clock — and checks what
/// ``AppFuzzer`` checks: no crash, finite presentation frames, a consistent tree,
/// steps within the budget, and nothing alive after the window closed.
/// `strata-fuzz controllers` runs it; the tests replay `Tests/Fuzz/controller-corpus`.
@MainActor
public enum ControllerFuzzer {
    public static let maximumSteps = 100
    static let maximumControllers = 24

    public static func run(_ bytes: [UInt8], stepBudget: Double = AppFuzzer.stepBudget,
                           trace: ((String) -> Void)? = nil) throws(AppFuzzer.Violation) {
        try AppFuzzer.session { window, clock, made throws(AppFuzzer.Violation) in
            var input = FuzzReader(bytes: bytes)
            let driver = InputDriver(window: window)
            let nav = NavigationController(rootViewController: FuzzController(number: 0))
            // The stack is a split view's primary column (issue 27), beside a detail.
            let split = SplitViewController()
            split.setViewController(nav, for: .primary)
            window.rootViewController = split
            made(nav)
            made(split)
            var controllers: [ViewController] = [nav, nav.topViewController!]
            @MainActor func pick() -> ViewController { controllers[input.index(controllers.count)] }
            func name(_ c: ViewController) -> String { (c as? FuzzController).map { "c\($0.number)" } ?? "nav" }
            @MainActor func fresh() -> ViewController {
                let c = FuzzController(number: controllers.count)
                if controllers.count < maximumControllers { controllers.append(c) }
                made(c)
                return c
            }
            var steps = 0
            while !input.isAtEnd, steps < maximumSteps {
                steps += 1
                let op = input.byte() % 11
                let animated = input.byte() % 2 == 0
                trace?("step \(steps): op \(op), animated \(animated)")
                let started = MonotonicClock.now
                switch op {
                case 0:
                    let c = input.byte() % 4 == 0 ? pick() : fresh()
                    c.modalPresentationStyle = [.automatic, .pageSheet, .formSheet, .fullScreen, .popover][input.index(5)]
                    c.preferredContentSize = Size(width: input.number(), height: input.number())
                    let presenter = pick()
                    trace?("  \(name(presenter)) presents \(name(c)) as \(c.modalPresentationStyle)")
                    presenter.present(c, animated: animated)
                case 1:
                    let c = pick()
                    trace?("  dismiss from \(name(c))")
                    c.dismiss(animated: animated)
                case 2:
                    let c = input.byte() % 4 == 0 ? pick() : fresh()
                    trace?("  push \(name(c))")
                    nav.pushViewController(c, animated: animated)
                case 3:
                    switch input.byte() % 3 {
                    case 0: trace?("  pop"); nav.popViewController(animated: animated)
                    case 1: trace?("  pop to root"); nav.popToRootViewController(animated: animated)
                    default:
                        let stack = (0..<Int(input.byte() % 4)).map { _ in input.byte() % 3 == 0 ? pick() : fresh() }
                        trace?("  set \(stack.map(name))")
                        nav.setViewControllers(stack, animated: animated)
                    }
                case 4:
                    let alert = AlertController(title: input.text(4), message: input.text(8),
                                                preferredStyle: input.byte() % 2 == 0 ? .alert : .actionSheet)
                    for _ in 0..<Int(input.byte() % 5) {
                        let style: AlertAction.Style = [.default, .cancel, .destructive][input.index(3)]
                        alert.addAction(AlertAction(title: input.text(2), style: style) { [weak nav] _ in
                            nav?.popViewController(animated: false)
                        })
                    }
                    if input.byte() % 2 == 0 { alert.addTextField { $0.text = "x" } }
                    made(alert)
                    pick().present(alert, animated: animated)
                case 5:
                    let keys: [UInt32] = [0xff0d, Key.escape, Key.tab, 0x61]
                    let key = keys[input.index(keys.count)]
                    driver.pressKey(keysym: key)
                    driver.releaseKey(keysym: key)
                case 6:
                    let parent = pick(), child = input.byte() % 2 == 0 ? pick() : fresh()
                    let adds = input.byte() % 2 == 0
                    trace?("  \(adds ? "add" : "remove") child \(name(child)) \(adds ? "to" : "from") \(name(parent))")
                    if adds {
                        parent.addChild(child)
                        parent.view.addSubview(child.view)
                        child.didMove(toParent: parent)
                    } else {
                        child.willMove(toParent: nil)
                        child.viewIfLoaded?.removeFromSuperview()
                        child.removeFromParent()
                    }
                case 7:
                    let a = input.point(), b = input.point()
                    switch input.byte() % 3 {
                    case 0: driver.click(at: a)
                    case 1:
                        // From the leading edge: an interactive pop, maybe released half way.
                        driver.touchDown(1, at: Point(x: 2, y: a.y))
                        driver.touchMove(1, to: Point(x: 20, y: a.y))
                        driver.touchMove(1, to: b)
                        if input.byte() % 3 != 0 { driver.touchUp(1) }
                    default: driver.touchUp(1)
                    }
                case 8:
                    let step = [0, 1.0 / 60, 0.1, 0.2, 0.5, 1e6][input.index(6)]
                    Transaction.flush()
                    clock.advance(by: step)
                case 9:
                    // The split view: details shown, columns replaced, the window resized
                    // across the collapse width, the primary column hidden or resized.
                    switch input.byte() % 5 {
                    case 0:
                        let c = input.byte() % 4 == 0 ? pick() : fresh()
                        trace?("  show detail \(name(c))")
                        split.showDetailViewController(c, sender: nil)
                    case 1:
                        let c: ViewController? = input.byte() % 4 == 0 ? nil : input.byte() % 2 == 0 ? pick() : fresh()
                        let column: SplitViewController.Column = input.byte() % 3 == 0 ? .primary : .secondary
                        trace?("  \(column) column: \(c.map(name) ?? "none")")
                        split.setViewController(c, for: column)
                    case 2:
                        let size = Size(width: 200 + Double(input.byte()) * 4, height: 200 + Double(input.byte()))
                        trace?("  window \(size)")
                        window.size = size
                        window.layoutIfNeeded()
                    case 3:
                        split.preferredDisplayMode = [.automatic, .oneBesideSecondary, .secondaryOnly][input.index(3)]
                    default:
                        split.preferredPrimaryColumnWidth = input.number()
                    }
                default:
                    var views: [View] = []
                    window.rootView.forEachSubview { views.append($0) }
                    try AppFuzzer.check(window, views, at: clock.now)
                }
                let took = MonotonicClock.now - started
                if took > stepBudget { throw AppFuzzer.Violation(description: "step \(steps) (op \(op)) took \(took) s") }
            }
            // Transitions may chain (a push asked for during one starts when it ends,
            // and opens a transaction then): commit and run them out, as turns would
            // (at most one request a step is waiting).
            for _ in 0...maximumSteps {
                Transaction.flush()
                clock.advance(by: 10)
            }
            var views: [View] = []
            window.rootView.forEachSubview { views.append($0) }
            try AppFuzzer.check(window, views, at: clock.now)
            for c in controllers {
                trace?("  end: \(name(c)) parent \(c.parent.map(name) ?? "-") presenting \(c.presentingViewController.map(name) ?? "-") presented \(c.presentedViewController.map(name) ?? "-") children \(c.children.map(name))")
            }
            trace?("  end: stack \(nav.viewControllers.map(name))")
        }
    }
}

/// A controller with a coloured view and a subview, numbered for traces.
@MainActor
final class FuzzController: ViewController {
    let number: Int
    init(number: Int) {
        self.number = number
        super.init()
        title = "c\(number)"
    }

    override func viewDidLoad() {
        view.backgroundColor = Color(red: Double(number % 5) / 4, green: 0.5, blue: 1, alpha: 1)
        view.addSubview(Label(frame: Rect(x: 4, y: 4, width: 80, height: 20)))
    }
}

extension View {
    /// Every view below this one, depth first.
    func forEachSubview(_ body: (View) -> Void) {
        for sub in subviews {
            body(sub)
            sub.forEachSubview(body)
        }
    }
}
