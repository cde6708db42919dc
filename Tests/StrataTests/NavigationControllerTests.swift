@testable import Strata
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// Navigation controllers (issue 27, item 2): push and pop in UIKit's call
/// order, the slide with parallax on the media clock, the bar, and the
/// interactive pop from the leading edge, cancelled and completed.
@MainActor
@Suite("Navigation controllers", .serialized, .isolatedLayerContext)
struct NavigationControllerTests {
    let log = CallLog()

    /// A navigation controller as the root of a 400 × 300 window, with A at its root.
    func setUp() -> (ViewFixture, NavigationController, Recording) {
        let f = ViewFixture()
        let a = Recording("A", color: .green, log: log)
        a.title = "Inbox"
        let nav = NavigationController(rootViewController: a)
        f.window.rootViewController = nav
        _ = f.window.snapshot()
        _ = log.take()
        return (f, nav, a)
    }

    func tx(_ f: ViewFixture, _ view: View) -> Double { (f.shown(view, "transform") as? Transform3D)?.m41 ?? .nan }

    @Test("push and pop, animated: UIKit's call order; the new view slides in while the old one moves a third of the way")
    func pushAndPop() {
        let (f, nav, a) = setUp()
        #expect(a.view.frame == Rect(x: 0, y: 0, width: 400, height: 256), "below the 44-point bar")
        let b = Recording("B", color: .blue, log: log)
        b.title = "Message"
        nav.pushViewController(b, animated: true)
        Transaction.flush()
        _ = log.take()
        f.advance(0.175)
        #expect(close(tx(f, b.view), 200, 1) && close(tx(f, a.view), -200.0 / 3, 1), "half way: B at \(tx(f, b.view)), A at \(tx(f, a.view))")
        f.advance(0.2)
        #expect(nav.viewControllers.count == 2 && nav.topViewController === b && b.navigationController === nav)
        #expect(a.view.superview == nil && b.parent === nav)
        #expect(nav.navigationBar.titleLabel.text == "Message")
        #expect(nav.navigationBar.backButton?.title(for: .normal) == "‹ Inbox")
        var shot = f.window.snapshot()
        #expect(shot.pixel(x: 200, y: 200) == .blue)
        _ = log.take()
        #expect(nav.popViewController(animated: true) === b)
        Transaction.flush()
        #expect(log.take() == ["B.willMove(nil)", "B.willDisappear", "A.willAppear"])
        f.advance(0.4)
        #expect(log.take() == ["B.didDisappear", "A.didAppear", "B.didMove(nil)"])
        #expect(nav.viewControllers.count == 1 && b.parent == nil && b.view.superview == nil)
        shot = f.window.snapshot()
        #expect(shot.pixel(x: 200, y: 200) == .green && nav.navigationBar.backButton == nil)
    }

    @Test("the push's calls in order, and the back button pops")
    func pushOrderAndBackButton() {
        let (f, nav, _) = setUp()
        let b = Recording("B", log: log)
        nav.pushViewController(b, animated: true)
        Transaction.flush()
        #expect(log.take() == ["B.willMove(NavigationController)", "B.loadView", "B.viewDidLoad", "A.willDisappear", "B.willAppear"])
        f.advance(0.4)
        #expect(log.take() == ["A.didDisappear", "B.didAppear", "B.didMove(NavigationController)"])
        let back = try! #require(nav.navigationBar.backButton)
        let center = back.convert(Point(x: back.bounds.midX, y: back.bounds.midY), to: nil)
        InputDriver(window: f.window).click(at: center)
        Transaction.flush()
        f.advance(0.4)
        #expect(nav.viewControllers.count == 1)
    }

    @Test("rule P3: right to left, a push slides in from the left, the back button (its arrow pointing right) is at the right and a right item at the left, and the pop's pan starts at the right edge")
    func rightToLeft() {
        let (f, nav, a) = setUp()
        f.window.traitOverrides.layoutDirection = .rightToLeft
        let b = Recording("B", color: .blue, log: log)
        b.navigationItem.rightBarButtonItem = BarButtonItem(title: "Edit") { _ in }
        nav.pushViewController(b, animated: true)
        Transaction.flush()
        f.advance(0.175)
        #expect(close(tx(f, b.view), -200, 1) && close(tx(f, a.view), 200.0 / 3, 1), "half way, from the left: B at \(tx(f, b.view)), A at \(tx(f, a.view))")
        f.advance(0.2)
        f.window.layoutIfNeeded()
        let back = try! #require(nav.navigationBar.backButton), edit = try! #require(nav.navigationBar.rightButtons.first)
        #expect(back.frame.maxX == 392 && edit.frame.minX == 8, "back \(back.frame), Edit \(edit.frame)")
        #expect(back.title(for: .normal) == "\u{200F}‹ Inbox", "a right-to-left mark: bidi mirrors the arrow to point right")
        _ = log.take()
        let driver = InputDriver(window: f.window)
        driver.touchDown(1, at: Point(x: 5, y: 150))
        driver.touchMove(1, to: Point(x: 105, y: 150))
        Transaction.flush()
        #expect(log.take().isEmpty, "the left edge does not pop right to left")
        driver.touchUp(1)
        driver.touchDown(1, at: Point(x: 395, y: 150))
        driver.touchMove(1, to: Point(x: 370, y: 150))
        driver.touchMove(1, to: Point(x: 295, y: 150))
        Transaction.flush()
        #expect(close(tx(f, b.view), -100, 1), "B follows the finger to the left: \(tx(f, b.view))")
        driver.touchMove(1, to: Point(x: 95, y: 150))
        driver.touchUp(1)
        Transaction.flush()
        f.advance(0.4)
        #expect(nav.topViewController === a)
    }

    @Test("C1: an interactive pop follows the finger, cancels past less than half way, and completes past it")
    func interactivePop() {
        let (f, nav, a) = setUp()
        let b = Recording("B", color: .blue, log: log)
        nav.pushViewController(b, animated: false)
        _ = log.take()
        let driver = InputDriver(window: f.window)
        driver.touchDown(1, at: Point(x: 5, y: 150))
        driver.touchMove(1, to: Point(x: 30, y: 150))
        driver.touchMove(1, to: Point(x: 105, y: 150))
        Transaction.flush()
        #expect(log.take() == ["B.willMove(nil)", "B.willDisappear", "A.willAppear"])
        // The finger went 100 of 400 points: a quarter, linearly.
        #expect(close(tx(f, b.view), 100, 1) && close(tx(f, a.view), -100, 1), "B at \(tx(f, b.view)), A at \(tx(f, a.view))")
        driver.touchUp(1)
        Transaction.flush()
        f.advance(0.4)
        #expect(log.take() == ["A.willDisappear", "B.willAppear", "A.didDisappear", "B.didAppear", "B.didMove(NavigationController)"])
        #expect(nav.topViewController === b && a.view.superview == nil && close(tx(f, b.view), 0))

        driver.touchDown(1, at: Point(x: 5, y: 150))
        driver.touchMove(1, to: Point(x: 30, y: 150))
        driver.touchMove(1, to: Point(x: 305, y: 150))
        driver.touchUp(1)
        Transaction.flush()
        f.advance(0.4)
        #expect(log.take() == ["B.willMove(nil)", "B.willDisappear", "A.willAppear", "B.didDisappear", "A.didAppear", "B.didMove(nil)"])
        #expect(nav.topViewController === a && b.parent == nil)
        // A pan that starts away from the edge does not pop.
        nav.pushViewController(Recording("C", log: log), animated: false)
        driver.touchDown(1, at: Point(x: 100, y: 150))
        driver.touchMove(1, to: Point(x: 350, y: 150))
        driver.touchUp(1)
        f.advance(0.4)
        #expect(nav.viewControllers.count == 2)
    }

    @Test("show(_:sender:) pushes inside a navigation controller and presents outside one")
    func show() {
        let (f, nav, a) = setUp()
        let b = Recording("B", log: log)
        a.show(b, sender: nil)
        Transaction.flush()
        f.advance(0.4)
        #expect(nav.topViewController === b && b.presentingViewController == nil)
        let loose = Recording("Loose", log: log)
        let window = Window(title: "other", size: Size(width: 200, height: 200))
        window.rootViewController = loose
        window.show()
        let c = Recording("C", log: log)
        loose.show(c, sender: nil)
        #expect(loose.presentedViewController === c)
    }

    @Test("bad input: popping past the root, pushing a controller already shown, requests during a transition wait")
    func badInput() {
        let (f, nav, a) = setUp()
        #expect(nav.popViewController(animated: true) == nil && nav.popToRootViewController(animated: false)?.isEmpty == true)
        nav.pushViewController(a, animated: false)
        nav.pushViewController(nav, animated: false)
        #expect(nav.viewControllers.count == 1 && f.diagnostics.count == 2)
        let b = Recording("B", log: log), c = Recording("C", log: log)
        nav.pushViewController(b, animated: true)
        nav.pushViewController(c, animated: true)
        #expect(nav.viewControllers.count == 2, "the second push waits for the first")
        Transaction.flush()
        f.advance(0.4)
        Transaction.flush()
        f.advance(0.4)
        #expect(nav.viewControllers.map { $0 as? Recording }.map { $0?.name } == ["A", "B", "C"])
        #expect(nav.popToRootViewController(animated: false)?.count == 2 && nav.topViewController === a)
        #expect(b.parent == nil && c.parent == nil && c.view.superview == nil)
        nav.setViewControllers([b, c], animated: false)
        #expect(nav.topViewController === c && a.parent == nil && f.window.snapshot().pixel(x: 200, y: 200) == .blue)
        // A child taken out from outside leaves the stack (found by the controller
        // fuzzer: the stack kept it, and adding the navigation controller to it made a cycle).
        c.willMove(toParent: nil)
        c.view.removeFromSuperview()
        c.removeFromParent()
        #expect(nav.viewControllers.count == 1 && nav.topViewController === b)
        c.addChild(nav)
        #expect(nav.parent == nil, "a window's root cannot become a child")
    }
}

/// Tab bar controllers (issue 27, item 2): switching tabs in UIKit's call order,
/// per-tab navigation stacks, badges, and bad input.
@MainActor
@Suite("Tab bar controllers", .serialized, .isolatedLayerContext)
struct TabBarControllerTests {
    let log = CallLog()

    @Test("C1: a tab switch calls disappear on the old tab and appear on the new; each tab keeps its own navigation stack")
    func switching() {
        let f = ViewFixture()
        let mail = Recording("Mail", color: .green, log: log), notes = Recording("Notes", color: .blue, log: log)
        mail.title = "Mail"
        notes.tabBarItem.title = "Notes"
        let inbox = NavigationController(rootViewController: mail)
        let tabs = TabBarController()
        tabs.viewControllers = [inbox, notes]
        f.window.rootViewController = tabs
        #expect(log.take() == ["Mail.willMove(NavigationController)", "Mail.didMove(NavigationController)",
                               "Notes.willMove(TabBarController)", "Notes.didMove(TabBarController)",
                               "Mail.loadView", "Mail.viewDidLoad", "Mail.willAppear", "Mail.didAppear"])
        var shot = f.window.snapshot()
        #expect(shot.pixel(x: 200, y: 150) == .green && tabs.tabBar.frame == Rect(x: 0, y: 251, width: 400, height: 49))
        #expect(tabs.tabBar.tabs.map { $0.title(for: .normal) } == ["Mail", "Notes"])
        let message = Recording("Message", color: .red, log: log)
        inbox.pushViewController(message, animated: false)
        _ = log.take()
        // A click on the second tab.
        let driver = InputDriver(window: f.window)
        driver.click(at: Point(x: 300, y: 275))
        #expect(tabs.selectedIndex == 1 && tabs.selectedViewController === notes)
        #expect(log.take() == ["Notes.loadView", "Notes.viewDidLoad", "Message.willDisappear", "Notes.willAppear",
                               "Message.didDisappear", "Notes.didAppear"])
        shot = f.window.snapshot()
        #expect(shot.pixel(x: 200, y: 150) == .blue)
        tabs.selectedIndex = 0
        #expect(inbox.topViewController === message && f.window.snapshot().pixel(x: 200, y: 150) == .red, "the stack was kept")
        #expect(message.tabBarController === tabs && message.navigationController === inbox)
    }

    @Test("a badge sits on its tab; bad input: an index out of range, the controller itself, a controller twice")
    func badgesAndBadInput() {
        let f = ViewFixture()
        let a = Recording("A", log: log), b = Recording("B", log: log)
        let tabs = TabBarController()
        tabs.viewControllers = [a, b, a, tabs]
        #expect(tabs.viewControllers?.count == 2 && f.diagnostics.count == 2)
        f.window.rootViewController = tabs
        b.tabBarItem.badgeValue = "3"
        _ = f.window.snapshot()
        let badge = try! #require(tabs.tabBar.badges[1])
        #expect(badge.frame.minX > 200 && badge.frame.maxX <= 400 && badge.text == "3")
        #expect(tabs.tabBar.badges[0] == nil)
        tabs.selectedIndex = 5
        tabs.selectedIndex = -1
        #expect(tabs.selectedIndex == 0 && f.diagnostics.count == 4)
        let c = Recording("C", color: .green, log: log)
        tabs.viewControllers = [a, b, c]
        tabs.viewControllers = [c, b]
        #expect(tabs.selectedViewController === c && tabs.content.subviews.count == 1, "only the selected tab's view is shown")
        tabs.viewControllers = [b]
        #expect(tabs.selectedViewController === b && a.parent == nil && a.viewIfLoaded?.superview == nil)
        #expect(f.window.snapshot().pixel(x: 200, y: 150) == .blue)
    }
}

extension NavigationControllerTests {
    @Test("found by the controller fuzzer: pushing the navigation controller itself while an interactive pop is held is refused at once — it used to wait for the transition, holding the controller, which then outlived its closed window")
    func selfPushDuringInteractivePop() throws {
        let f = ViewFixture()
        weak var weakNav: NavigationController?
        var diagnostics: [String] = []
        Diagnostics.handler = { diagnostics.append("\($0)") }
        do {
            let window = Window(title: "t", size: Size(width: 400, height: 300))
            let nav = NavigationController(rootViewController: ViewController())
            weakNav = nav
            window.rootViewController = nav
            window.show()
            nav.setViewControllers([ViewController(), ViewController()], animated: false)
            Transaction.flush()
            let driver = InputDriver(window: window)
            driver.touchDown(1, at: Point(x: 2, y: 100))   // an edge pan, held half way
            driver.touchMove(1, to: Point(x: 20, y: 100))
            driver.touchMove(1, to: Point(x: 150, y: 120))
            nav.pushViewController(nav, animated: true)
            nav.setViewControllers([nav], animated: false)
            Transaction.flush()
            f.advance(1)
            #expect(diagnostics.contains { $0.contains("cannot push itself") } && diagnostics.contains { $0.contains("left out") })
            window.close()
            Transaction.flush()
            f.advance(10)
        }
        #expect(weakNav == nil, "the navigation controller went with its window")
    }
}
