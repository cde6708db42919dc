@testable import Strata
import LayerKitTesting
import StrataTesting
import Testing

/// Split views (issue 27, item 2): two columns when wide, one navigation stack when
/// narrow, details shown in either, the primary column hidden and mirrored, and
/// the appearance calls of rule C1.
@MainActor
@Suite("Split view controller", .serialized, .isolatedLayerContext)
struct SplitViewControllerTests {
    let log = CallLog()

    func make(_ f: ViewFixture) -> (SplitViewController, NavigationController, Recording, Recording) {
        let list = Recording("list", color: .white, log: log), detail = Recording("detail", color: .blue, log: log)
        let split = SplitViewController()
        let nav = NavigationController(rootViewController: list)
        split.setViewController(nav, for: .primary)
        split.setViewController(detail, for: .secondary)
        f.window.rootViewController = split
        f.window.layoutIfNeeded()
        return (split, nav, list, detail)
    }

    @Test("wide: the primary column at its width on the leading side, a hairline, the detail beside it; both appear")
    func expanded() {
        let f = ViewFixture(size: Size(width: 900, height: 600))
        let (split, nav, list, detail) = make(f)
        #expect(!split.isCollapsed)
        #expect(nav.view.frame == Rect(x: 0, y: 0, width: 320, height: 600))
        #expect(detail.view.frame == Rect(x: 321, y: 0, width: 579, height: 600))
        #expect(split.separator.frame == Rect(x: 320, y: 0, width: 1, height: 600) && !split.separator.isHidden)
        #expect(list.isAppearingOrVisible && detail.isAppearingOrVisible)
        #expect(detail.splitViewController === split && detail.parent === split)
        split.preferredPrimaryColumnWidth = 1_000        // held to the maximum
        #expect(nav.view.frame.width == 420)
        split.preferredPrimaryColumnWidth = .nan
        #expect(split.preferredPrimaryColumnWidth == 1_000 && f.diagnostics.contains { "\($0)".contains("preferredPrimaryColumnWidth") })
    }

    @Test("narrow: the detail is pushed onto the primary's stack; wide again, it is back in its column, with the appearance calls")
    func collapseAndExpand() {
        let f = ViewFixture(size: Size(width: 900, height: 600))
        let (split, nav, list, detail) = make(f)
        _ = log.take()
        f.window.size = Size(width: 500, height: 600)
        f.window.layoutIfNeeded()
        #expect(split.isCollapsed && split.separator.isHidden)
        #expect(nav.viewControllers.map { ($0 as? Recording)?.name } == ["list", "detail"])
        #expect(nav.view.frame == Rect(x: 0, y: 0, width: 500, height: 600))
        #expect(detail.navigationController === nav && detail.view.window != nil)
        #expect(!list.isAppearingOrVisible && detail.isAppearingOrVisible)
        _ = log.take()
        f.window.size = Size(width: 900, height: 600)
        f.window.layoutIfNeeded()
        #expect(!split.isCollapsed && nav.viewControllers.count == 1 && detail.parent === split)
        #expect(detail.view.frame == Rect(x: 321, y: 0, width: 579, height: 600))
        #expect(list.isAppearingOrVisible && detail.isAppearingOrVisible)
        let calls = log.take()
        #expect(calls.contains("list.willAppear") && calls.contains("list.didAppear") && calls.contains("detail.didMove(SplitViewController)"))
    }

    @Test("showDetailViewController: replaces the detail column when wide (old one disappears), pushes when narrow")
    func showDetail() {
        let f = ViewFixture(size: Size(width: 900, height: 600))
        let (split, nav, _, detail) = make(f)
        _ = log.take()
        let other = Recording("other", color: .green, log: log)
        split.showDetailViewController(other, sender: nil)
        #expect(split.viewController(for: .secondary) === other && detail.parent == nil)
        let calls = log.take()
        #expect(calls.firstIndex(of: "detail.willDisappear")! < calls.firstIndex(of: "detail.didDisappear")!)
        #expect(calls.contains("other.willAppear") && calls.contains("other.didAppear"))
        #expect(other.view.frame == Rect(x: 321, y: 0, width: 579, height: 600))
        f.window.size = Size(width: 400, height: 600)
        f.window.layoutIfNeeded()
        let third = Recording("third", color: .red, log: log)
        split.showDetailViewController(third, sender: nil)
        f.advance(1)
        f.window.layoutIfNeeded()
        #expect(nav.viewControllers.map { ($0 as? Recording)?.name } == ["list", "third"])   // replaced "other" on the stack
        f.window.size = Size(width: 900, height: 600)
        f.window.layoutIfNeeded()
        #expect(split.viewController(for: .secondary) === third && third.parent === split && nav.viewControllers.count == 1)
    }

    @Test("secondary only: the primary column slides away (animated in a block); right to left the primary is on the right")
    func displayModeAndMirroring() {
        let f = ViewFixture(size: Size(width: 900, height: 600))
        let (split, nav, _, detail) = make(f)
        Transaction.flush()
        View.animate(duration: 1, options: .curveLinear) { split.preferredDisplayMode = .secondaryOnly }
        Transaction.flush()
        #expect(detail.view.frame == Rect(x: 0, y: 0, width: 900, height: 600) && nav.view.frame.maxX <= 0)
        f.advance(0.5)
        let mid = f.shownPoint(nav.view).x   // from 160 towards −161
        #expect(mid < 150 && mid > -150)
        split.preferredDisplayMode = .automatic
        split.view.semanticContentAttribute = .forceRightToLeft
        f.window.layoutIfNeeded()
        #expect(nav.view.frame == Rect(x: 580, y: 0, width: 320, height: 600) && detail.view.frame == Rect(x: 0, y: 0, width: 579, height: 600))
    }

    @Test("bad input: the same controller in both columns, the split view in itself, a primary that is not a stack when narrow")
    func badInput() {
        let f = ViewFixture(size: Size(width: 900, height: 600))
        let split = SplitViewController()
        let a = Recording("a", log: log), b = Recording("b", log: log)
        split.setViewController(a, for: .primary)
        split.setViewController(a, for: .secondary)
        #expect(split.viewController(for: .secondary) == nil)
        split.setViewController(split, for: .secondary)
        #expect(split.viewController(for: .secondary) == nil)
        #expect(f.diagnostics.count >= 2)
        split.setViewController(b, for: .secondary)
        f.window.rootViewController = split
        f.window.size = Size(width: 400, height: 600)
        f.window.layoutIfNeeded()
        // No stack to push onto: the detail takes the whole width in the primary's place.
        #expect(split.isCollapsed && a.view.isHidden && b.view.frame == Rect(x: 0, y: 0, width: 400, height: 600))
        f.window.size = Size(width: 900, height: 600)
        f.window.layoutIfNeeded()
        #expect(!a.view.isHidden && a.view.frame.width == 320 && b.view.frame.minX == 321)
    }
}

extension SplitViewControllerTests {
    @Test("the sidebar button (displayModeButtonItem) in the detail's bar: a click slides the primary column away over 0.35 s and says Show Sidebar; again brings it back; narrow, it leaves the bar")
    func sidebarButton() {
        let f = ViewFixture(size: Size(width: 900, height: 600))
        let list = Recording("list", color: .white, log: log), detail = Recording("detail", color: .blue, log: log)
        let split = SplitViewController()
        let detailNav = NavigationController(rootViewController: detail)
        split.setViewController(NavigationController(rootViewController: list), for: .primary)
        split.setViewController(detailNav, for: .secondary)
        detail.navigationItem.leftBarButtonItem = split.displayModeButtonItem
        f.window.rootViewController = split
        f.window.layoutIfNeeded()
        Transaction.flush()
        #expect(split.displayMode == .oneBesideSecondary && split.displayModeButtonItem.title == "Hide Sidebar")
        let bar = detailNav.navigationBar
        let button = try! #require(bar.subviews.compactMap { $0 as? Button }.first { $0.currentTitle == "Hide Sidebar" })
        let input = InputDriver(window: f.window)
        input.click(at: button.convert(Point(x: button.bounds.midX, y: button.bounds.midY), to: nil))
        #expect(split.displayMode == .secondaryOnly && split.displayModeButtonItem.title == "Show Sidebar")
        #expect(detailNav.view.frame.minX == 0 && split.viewController(for: .primary)!.view.frame.maxX <= 0)
        Transaction.flush()
        f.advance(0.175)
        let mid = f.shownPoint(split.viewController(for: .primary)!.view).x   // from 160 towards −161, eased
        #expect(mid < 120 && mid > -120, "\(mid)")
        f.advance(0.2)
        let shown = try! #require(bar.subviews.compactMap { $0 as? Button }.first { $0.currentTitle == "Show Sidebar" })
        input.click(at: shown.convert(Point(x: shown.bounds.midX, y: shown.bounds.midY), to: nil))
        f.window.layoutIfNeeded()
        #expect(split.displayMode == .oneBesideSecondary && split.viewController(for: .primary)!.view.frame.minX == 0)
        // Narrow: one column, no sidebar button in the bar.
        f.window.size = Size(width: 500, height: 600)
        f.window.layoutIfNeeded()
        #expect(split.isCollapsed && split.displayModeButtonItem.isHidden)
        #expect(!bar.subviews.contains { ($0 as? Button)?.currentTitle?.hasSuffix("Sidebar") == true })
    }
}
