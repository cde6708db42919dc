@testable import Strata
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// Lifecycle calls in the order they came, one log per test.
@MainActor
final class CallLog {
    var entries: [String] = []

    /// The calls since the last take, without layout calls unless asked.
    func take(layout: Bool = false) -> [String] {
        defer { entries = [] }
        return layout ? entries : entries.filter { !$0.hasSuffix("Layout") }
    }
}

/// A controller that records its lifecycle calls, prefixed with its name.
@MainActor
final class Recording: ViewController {
    let name: String
    let color: Color
    let log: CallLog

    init(_ name: String, color: Color = .blue, log: CallLog) {
        self.name = name
        self.color = color
        self.log = log
        super.init()
    }

    private func note(_ s: String) { log.entries.append("\(name).\(s)") }
    override func loadView() {
        note("loadView")
        view = View(frame: .zero)
        view.backgroundColor = color
    }
    override func viewDidLoad() { note("viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { note("willAppear") }
    override func viewDidAppear(_ animated: Bool) { note("didAppear") }
    override func viewWillDisappear(_ animated: Bool) { note("willDisappear") }
    override func viewDidDisappear(_ animated: Bool) { note("didDisappear") }
    override func viewWillLayoutSubviews() { note("willLayout") }
    override func viewDidLayoutSubviews() { note("didLayout") }
    override func willMove(toParent parent: ViewController?) { note("willMove(\(Self.name(parent)))") }
    override func didMove(toParent parent: ViewController?) { note("didMove(\(Self.name(parent)))") }
    private static func name(_ c: ViewController?) -> String {
        c.map { ($0 as? Recording)?.name ?? String(describing: type(of: $0)) } ?? "nil"
    }
}

/// View controllers (issue 27, item 1; rule C1): UIKit's lifecycle order,
/// containment, the responder chain, and modal presentation.
@MainActor
@Suite("View controllers", .serialized, .isolatedLayerContext)
struct ViewControllerTests {
    let log = CallLog()

    @Test("rule C1: loadView and viewDidLoad run once, when view is first read")
    func loading() {
        let c = Recording("a", log: log)
        #expect(!c.isViewLoaded && c.viewIfLoaded == nil && log.entries.isEmpty)
        let v1: View = c.view
        let v2: View = c.view
        #expect(v1 === v2 && c.isViewLoaded)
        #expect(log.take() == ["a.loadView", "a.viewDidLoad"])
        let plain = ViewController()
        #expect(plain.view != nil, "the default loadView makes a plain view")
    }

    @Test("a window's root controller: its view fills the window and follows it; it appears on show, lays out, and disappears on close")
    func rootController() {
        let f = ViewFixture()
        let c = Recording("root", color: .green, log: log)
        f.window.rootViewController = c
        #expect(log.take(layout: true) == ["root.loadView", "root.viewDidLoad", "root.willAppear", "root.didAppear"])
        let shot = f.window.snapshot()
        #expect(log.take(layout: true) == ["root.willLayout", "root.didLayout"])
        #expect(shot.pixel(x: 200, y: 150) == .green && shot.pixel(x: 399, y: 299) == .green)
        f.window.size = Size(width: 500, height: 320)
        f.window.layoutIfNeeded()
        #expect(c.view.frame == Rect(x: 0, y: 0, width: 500, height: 320))
        f.window.close()
        #expect(log.take() == ["root.willDisappear", "root.didDisappear"])
        let d = Recording("next", log: log)
        f.window.show()
        f.window.rootViewController = d
        #expect(log.take() == ["root.willAppear", "root.didAppear", "root.willDisappear", "root.didDisappear",
                                      "next.loadView", "next.viewDidLoad", "next.willAppear", "next.didAppear"])
        #expect(c.viewIfLoaded?.superview == nil)
    }

    @Test("W3: a window never shown shows its root controller when first snapshotted")
    func offscreenAppearance() {
        _ = ViewFixture()
        let window = Window(title: "never shown", size: Size(width: 100, height: 80))
        let c = Recording("c", log: log)
        window.rootViewController = c
        #expect(log.take() == ["c.loadView", "c.viewDidLoad"])
        _ = window.snapshot()
        #expect(log.take() == ["c.willAppear", "c.didAppear"])
        _ = window.snapshot()
        #expect(log.take().isEmpty)
    }

    @Test("containment: willMove/didMove, and a child appears and disappears with its view in the visible parent")
    func containment() {
        let f = ViewFixture()
        let parent = Recording("p", log: log), child = Recording("c", log: log)
        f.window.rootViewController = parent
        _ = log.take()
        parent.addChild(child)
        #expect(log.take() == ["c.willMove(p)"])
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        #expect(log.take() == ["c.loadView", "c.viewDidLoad", "c.willAppear", "c.didAppear", "c.didMove(p)"])
        #expect(parent.children.map { $0 as? Recording }.map { $0?.name } == ["c"] && child.parent === parent)
        f.window.close()
        #expect(log.take() == ["p.willDisappear", "c.willDisappear", "p.didDisappear", "c.didDisappear"])
        f.window.show()
        _ = log.take()
        child.willMove(toParent: nil)
        child.view.removeFromSuperview()
        child.removeFromParent()
        #expect(log.take() == ["c.willMove(nil)", "c.willDisappear", "c.didDisappear", "c.didMove(nil)"])
        #expect(parent.children.isEmpty && child.parent == nil)
    }

    @Test("the responder chain runs view → its controller → the view's superview")
    func responderChain() {
        let f = ViewFixture()
        let parent = Recording("p", log: log), child = Recording("c", log: log)
        f.window.rootViewController = parent
        parent.addChild(child)
        parent.view.addSubview(child.view)
        child.didMove(toParent: parent)
        #expect(child.view.next === child)
        #expect(child.next === parent.view)
        #expect(parent.view.next === parent)
        #expect(parent.next === f.window.rootView)
    }

    @Test("bad input: a window's root controller's view moved into a controller its child presented leaves a chain that ends at the window — a touch there is not passed round forever (the controller fuzzer's stack overflow)")
    func responderChainWithoutLoops() {
        let f = ViewFixture()
        let nav = NavigationController(rootViewController: Recording("c0", log: log))
        f.window.rootViewController = nav
        let presented = Recording("c4", log: log)
        nav.topViewController!.present(presented, animated: false)
        f.window.layoutIfNeeded()
        presented.view.addSubview(nav.view)
        // Nothing visited twice, and the chain ends with the window and the app.
        var seen: [ObjectIdentifier] = []
        var r: Responder? = nav.topViewController!.view
        while let x = r, seen.count < 100 {
            #expect(!seen.contains(ObjectIdentifier(x)), "\(x) twice")
            seen.append(ObjectIdentifier(x))
            r = x.next
        }
        #expect(seen.count < 100 && seen.contains(ObjectIdentifier(f.window)) && seen.last == ObjectIdentifier(Application.shared))
        #expect(presented.next !== nav.topViewController, "the presenter is skipped: its chain comes back to the presented controller")
        InputDriver(window: f.window).click(at: Point(x: 20, y: 200))
        // Without the loop, unpresented as usual: the presenter is the chain's again.
        nav.view.removeFromSuperview()
        #expect(presented.next === nav.topViewController)
    }

    @Test("bad input: a controller cannot contain itself or an ancestor; a view moves to the controller that takes it")
    func cyclicContainment() {
        let f = ViewFixture()
        let a = Recording("a", log: log), b = Recording("b", log: log)
        a.addChild(a)
        a.addChild(b)
        b.addChild(a)
        #expect(a.children.count == 1 && b.children.isEmpty && a.parent == nil)
        #expect(f.diagnostics.count == 2)
        let shared = View()
        a.view = shared
        b.view = shared
        #expect(b.view === shared && !a.isViewLoaded && shared.next === b)
    }

    @Test("present full screen, animated: UIKit's call order; the card slides up on the media clock; dismiss reverses it")
    func presentFullScreen() {
        let f = ViewFixture()
        let a = Recording("a", color: .green, log: log), b = Recording("b", color: .blue, log: log)
        f.window.rootViewController = a
        _ = log.take()
        b.modalPresentationStyle = .fullScreen
        var done = 0
        a.present(b, animated: true) { done += 1 }
        Transaction.flush()
        #expect(log.take() == ["b.loadView", "b.viewDidLoad", "a.willDisappear", "b.willAppear"])
        #expect(a.presentedViewController === b && b.presentingViewController === a)
        let card = b.view.superview!
        // 0.35 s, ease in-out: half way in time is half way in place.
        f.advance(0.175)
        let moved = (f.shown(card, "transform") as? Transform3D)?.m42 ?? .nan
        #expect(close(moved, 300 / 2, 1), "the card \(moved) below its place, half way up")
        #expect(f.window.snapshot().pixel(x: 200, y: 10) == .green, "the presenter still shows above the card")
        f.advance(0.2)
        #expect(log.take() == ["a.didDisappear", "b.didAppear"] && done == 1)
        #expect(f.window.snapshot().pixel(x: 200, y: 10) == .blue)
        b.dismiss(animated: true) { done += 1 }
        Transaction.flush()
        #expect(log.take() == ["b.willDisappear", "a.willAppear"])
        f.advance(0.4)
        #expect(log.take() == ["b.didDisappear", "a.didAppear"] && done == 2)
        #expect(a.presentedViewController == nil && b.presentingViewController == nil && b.view.superview == nil)
        #expect(f.window.snapshot().pixel(x: 200, y: 10) == .green)
    }

    @Test("sheets: a page sheet and a form sheet over the dimmed presenter, which does not disappear; Escape and a click outside dismiss")
    func sheets() {
        let f = ViewFixture(size: Size(width: 800, height: 600))
        let a = Recording("a", color: .white, log: log), b = Recording("b", color: .blue, log: log)
        f.window.rootViewController = a
        _ = log.take()
        a.present(b, animated: false)
        #expect(log.take() == ["b.loadView", "b.viewDidLoad", "b.willAppear", "b.didAppear"], "the presenter stays")
        var shot = f.window.snapshot()
        #expect(b.view.superview!.frame == Rect(x: 50, y: 40, width: 700, height: 560), "a page sheet: 700 wide, 40 from the top")
        // White dimmed by black at 0.4: 153.
        #expect(abs(shot.pixel(x: 20, y: 300).red - 0.6) < 0.01 && shot.pixel(x: 400, y: 300) == .blue)
        let driver = InputDriver(window: f.window)
        driver.pressKey(keysym: Key.escape)
        driver.releaseKey(keysym: Key.escape)
        Transaction.flush()
        f.advance(0.4)
        #expect(log.take() == ["b.willDisappear", "b.didDisappear"] && a.presentedViewController == nil)

        let c = Recording("c", color: .red, log: log)
        c.modalPresentationStyle = .formSheet
        c.preferredContentSize = Size(width: 300, height: 200)
        a.present(c, animated: false)
        shot = f.window.snapshot()
        #expect(c.view.superview!.frame == Rect(x: 250, y: 200, width: 300, height: 200))
        #expect(shot.pixel(x: 400, y: 300) == .red)
        c.isModalInPresentation = true
        driver.click(at: Point(x: 20, y: 20))
        driver.pressKey(keysym: Key.escape)
        driver.releaseKey(keysym: Key.escape)
        Transaction.flush()
        f.advance(0.4)
        #expect(a.presentedViewController === c, "modal in presentation: neither dismisses")
        c.isModalInPresentation = false
        driver.click(at: Point(x: 400, y: 300))
        #expect(a.presentedViewController === c, "a click on the card does not dismiss")
        driver.click(at: Point(x: 20, y: 20))
        Transaction.flush()
        f.advance(0.4)
        #expect(a.presentedViewController == nil)
        #expect(f.window.snapshot().pixel(x: 20, y: 300) == .white)
    }

    @Test("C1: a sheet dragged down follows the finger; released before half way it stays, with the calls reversed; past it, it is dismissed")
    func dragToDismiss() {
        let f = ViewFixture(size: Size(width: 800, height: 600))
        let a = Recording("a", color: .white, log: log), b = Recording("b", color: .blue, log: log)
        f.window.rootViewController = a
        a.present(b, animated: false)
        _ = log.take()
        let card = try! #require(b.view.superview)
        let driver = InputDriver(window: f.window)
        driver.touchDown(1, at: Point(x: 400, y: 300))
        driver.touchMove(1, to: Point(x: 400, y: 320))
        driver.touchMove(1, to: Point(x: 400, y: 440))
        Transaction.flush()
        // 140 of the 560 points from the card's top to the bottom: a quarter, linearly.
        let moved = (f.shown(card, "transform") as? Transform3D)?.m42 ?? .nan
        #expect(close(moved, 140, 1), "the card moved \(moved)")
        #expect(log.take() == ["b.willDisappear"])
        driver.touchUp(1)
        Transaction.flush()
        f.advance(0.4)
        #expect(log.take() == ["b.willAppear", "b.didAppear"] && a.presentedViewController === b)
        driver.touchDown(1, at: Point(x: 400, y: 300))
        driver.touchMove(1, to: Point(x: 400, y: 320))
        driver.touchMove(1, to: Point(x: 400, y: 600))
        driver.touchUp(1)
        Transaction.flush()
        f.advance(0.4)
        #expect(log.take() == ["b.willDisappear", "b.didDisappear"] && a.presentedViewController == nil)
        // Modal in presentation: a drag does nothing.
        let c = Recording("c", log: log)
        c.isModalInPresentation = true
        a.present(c, animated: false)
        driver.touchDown(1, at: Point(x: 400, y: 300))
        driver.touchMove(1, to: Point(x: 400, y: 600))
        driver.touchUp(1)
        f.advance(0.4)
        #expect(a.presentedViewController === c)
    }

    @Test("bad input: a controller that presents, or whose view is in a window, cannot be presented (a presentation cycle the controller fuzzer found)")
    func presentingCycle() {
        let f = ViewFixture()
        let a = Recording("a", log: log), b = Recording("b", log: log), c = Recording("c", log: log)
        f.window.rootViewController = a
        a.present(b, animated: false)
        b.present(c, animated: false)
        let loose = Recording("loose", log: log)
        c.present(loose, animated: false)
        // loose presents nothing; now it tries to present b, which presents c: refused.
        loose.present(b, animated: false)
        #expect(loose.presentedViewController == nil && b.presentingViewController === a)
        // A controller shown in the window (the root's view) cannot be presented either.
        let inWindow = Recording("inWindow", log: log)
        a.view.addSubview(inWindow.view)
        loose.present(inWindow, animated: false)
        #expect(inWindow.presentingViewController == nil && f.diagnostics.count == 2)
        // Nor can a presented controller hold its presenter as a child (the fuzzer's third finding).
        let child = Recording("child", log: log), d = Recording("d", log: log)
        inWindow.addChild(child)
        inWindow.view.addSubview(child.view)
        child.present(d, animated: false)
        d.addChild(child)
        #expect(child.parent === inWindow && d.children.isEmpty && f.diagnostics.count == 3)
        // Nor can a controller be presented by one it holds (the split view's fuzzing): a
        // stack no longer in the window, whose child's view was put in the window.
        let stack = Recording("stack", log: log), inner = Recording("inner", log: log)
        stack.addChild(inner)
        a.view.addSubview(inner.view)
        inner.present(stack, animated: false)
        #expect(stack.presentingViewController == nil && f.diagnostics.count == 4)
        stack.addChild(Recording("more", log: log))   // the walk up ends: no cycle was made
        #expect(stack.children.count == 2)
        // Nor can a stack push or take the controller whose child presents it (the fuzzer's next finding).
        let nav = NavigationController(rootViewController: Recording("root", log: log))
        let holder = Recording("holder", log: log), presenter = Recording("presenter", log: log)
        holder.addChild(presenter)
        a.view.addSubview(presenter.view)
        presenter.present(nav, animated: false)
        #expect(nav.presentingViewController === presenter)
        let before = f.diagnostics.count
        nav.pushViewController(holder, animated: false)
        nav.setViewControllers([holder], animated: false)
        #expect(!nav.viewControllers.contains { $0 === holder } && holder.parent == nil && f.diagnostics.count == before + 2)
    }

    @Test("bad input: presenting twice, presenting oneself or a child, from a view in no window, dismissing nothing")
    func badPresentations() {
        let f = ViewFixture()
        let a = Recording("a", log: log), b = Recording("b", log: log), c = Recording("c", log: log)
        f.window.rootViewController = a
        a.present(b, animated: false)
        a.present(c, animated: false)
        #expect(a.presentedViewController === b && c.presentingViewController == nil)
        b.present(b, animated: false)
        b.present(a, animated: false)
        Recording("loose", log: log).present(c, animated: false)
        #expect(c.presentingViewController == nil && b.presentedViewController == nil)
        c.dismiss(animated: false)
        #expect(f.diagnostics.count == 5)
        // Dismissing the bottom of a stack takes the ones above with it.
        b.present(c, animated: false)
        var done = false
        a.dismiss(animated: true) { done = true }
        Transaction.flush()
        f.advance(0.4)
        #expect(done && a.presentedViewController == nil && b.presentedViewController == nil && c.presentingViewController == nil)
        #expect(f.window.presentations.isEmpty)
    }
}
