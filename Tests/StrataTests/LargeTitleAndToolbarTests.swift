@testable import Strata
import LayerKitTesting
import StrataTesting
import Testing

/// Large titles that collapse as the content scrolls, the items' display modes,
/// toolbars with flexible spaces, and scroll views' content insets (issue 27).
@MainActor
@Suite("Large titles and toolbars", .serialized, .isolatedLayerContext)
struct LargeTitleAndToolbarTests {
    /// A controller whose view is a tall scroll view.
    final class Scrolling: ViewController {
        override func loadView() {
            let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 400, height: 500))
            scroll.contentSize = Size(width: 400, height: 2_000)
            view = scroll
        }
        var scroll: ScrollView { view as! ScrollView }
    }

    @Test("a large title below the bar's row collapses as the content scrolls into it; the row's title comes in at the end")
    func collapsing() {
        let f = ViewFixture(size: Size(width: 400, height: 600))
        let list = Scrolling()
        list.title = "Inbox"
        let nav = NavigationController(rootViewController: list)
        nav.navigationBar.prefersLargeTitles = true
        f.window.rootViewController = nav
        f.window.layoutIfNeeded()
        let bar = nav.navigationBar
        #expect(bar.frame.height == 96 && bar.largeTitleLabel.text == "Inbox" && !bar.largeTitleLabel.isHidden)
        #expect(bar.titleLabel.alpha == 0 && bar.largeTitleLabel.alpha == 1)
        // The scroll view starts under the bar's row, its content below the large title.
        #expect(list.scroll.contentInset.top == 52, "\(list.scroll.contentInset)")
        #expect(list.scroll.contentOffset.y == -52, "\(list.scroll.contentOffset)")
        #expect(nav.content.frame.minY == 44)
        list.scroll.setContentOffset(Point(x: 0, y: -26), animated: false)
        #expect(bar.frame.height == 70 && abs(bar.largeTitleLabel.alpha - 0.5) < 1e-9 && bar.titleLabel.alpha == 0)
        list.scroll.setContentOffset(Point(x: 0, y: 300), animated: false)
        #expect(bar.frame.height == 44 && bar.largeTitleLabel.alpha == 0 && bar.titleLabel.alpha == 1)
        // Pixels: the large title's dark text at the leading margin, expanded again.
        list.scroll.setContentOffset(Point(x: 0, y: -52), animated: false)
        Transaction.flush()
        let shot = f.window.snapshot()
        var ink = 0
        for y in 50..<92 { for x in 16..<120 where shot.rgba8(x: x, y: y).r < 100 { ink += 1 } }
        #expect(ink > 100)
    }

    @Test("display modes: .never shows a pushed controller's title in the row; .automatic follows the item below; popping brings the large title back")
    func displayModes() {
        let f = ViewFixture(size: Size(width: 400, height: 600))
        let root = ViewController(), plain = ViewController(), inherit = ViewController()
        root.title = "Root"
        plain.navigationItem.largeTitleDisplayMode = .never
        let nav = NavigationController(rootViewController: root)
        nav.navigationBar.prefersLargeTitles = true
        f.window.rootViewController = nav
        f.window.layoutIfNeeded()
        #expect(nav.navigationBar.frame.height == 96 && nav.content.frame.minY == 96)   // no scroll view: the content below the large title
        nav.pushViewController(plain, animated: false)
        f.window.layoutIfNeeded()
        #expect(nav.navigationBar.frame.height == 44 && nav.navigationBar.largeTitleCollapse == nil)
        nav.pushViewController(inherit, animated: false)
        f.window.layoutIfNeeded()
        #expect(nav.navigationBar.frame.height == 44)                                     // as the item below: never
        nav.popToRootViewController(animated: false)
        f.window.layoutIfNeeded()
        #expect(nav.navigationBar.frame.height == 96)
        nav.navigationBar.prefersLargeTitles = false
        f.window.layoutIfNeeded()
        #expect(nav.navigationBar.frame.height == 44 && nav.content.frame.minY == 44)
    }

    @Test("a toolbar shows the top controller's items, flexible spaces sharing the rest; it shortens the content; a click runs an item; mirrored right to left")
    func toolbar() {
        let f = ViewFixture(size: Size(width: 400, height: 600))
        let top = ViewController()
        var pressed: [String] = []
        top.toolbarItems = [BarButtonItem(title: "Edit") { _ in pressed.append("edit") }, .flexibleSpace(),
                            BarButtonItem(title: "Share") { _ in pressed.append("share") }]
        let nav = NavigationController(rootViewController: top)
        f.window.rootViewController = nav
        f.window.layoutIfNeeded()
        #expect(nav.toolbar.isHidden && nav.content.frame.maxY == 600)
        nav.isToolbarHidden = false
        f.window.layoutIfNeeded()
        #expect(nav.toolbar.frame == Rect(x: 0, y: 556, width: 400, height: 44) && nav.content.frame.maxY == 556)
        let buttons = nav.toolbar.buttons.compactMap { $0 }
        #expect(buttons.count == 2 && buttons[0].frame.minX == 16 && abs(buttons[1].frame.maxX - 384) < 1)
        Transaction.flush()
        let share = nav.toolbar.convert(buttons[1].frame, to: nil)
        InputDriver(window: f.window).click(at: Point(x: share.midX, y: share.midY))
        #expect(pressed == ["share"])
        nav.toolbar.semanticContentAttribute = .forceRightToLeft
        nav.toolbar.layoutIfNeeded()
        #expect(abs(buttons[0].frame.maxX - 384) < 1 && abs(buttons[1].frame.minX - 16) < 1)
        // A pushed controller without items empties the toolbar.
        nav.pushViewController(ViewController(), animated: false)
        #expect(nav.toolbar.items.isEmpty && nav.toolbar.buttons.isEmpty)
    }

    @Test("content insets: the offset reaches past the content's edges by the insets, clamped there; a rect is shown clear of them; NaN refused")
    func contentInsets() {
        let f = ViewFixture()
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        scroll.contentSize = Size(width: 200, height: 300)
        f.window.rootView.addSubview(scroll)
        scroll.contentInset = EdgeInsets(top: 30, left: 0, bottom: 20, right: 0)
        #expect(scroll.minimumContentOffset == Point(x: 0, y: -30) && scroll.maximumContentOffset == Point(x: 0, y: 220))
        scroll.setContentOffset(Point(x: 0, y: -100), animated: false)
        #expect(scroll.contentOffset.y == -30)
        scroll.setContentOffset(Point(x: 0, y: 1_000), animated: false)
        #expect(scroll.contentOffset.y == 220)
        scroll.scrollRectToVisible(Rect(x: 0, y: 10, width: 10, height: 10), animated: false)
        #expect(scroll.contentOffset.y == -20)   // the rect's top just below the top inset
        scroll.contentInset = EdgeInsets(top: .nan, left: 0, bottom: 0, right: 0)
        #expect(scroll.contentInset.top == 30 && f.diagnostics.contains { "\($0)".contains("contentInset") })
        // A fling past the inset's edge comes to rest on it.
        let input = InputDriver(window: f.window)
        input.touchDown(1, at: Point(x: 100, y: 20))
        for y in stride(from: 30.0, through: 90, by: 10) {
            f.advance(1.0 / 60)
            input.touchMove(1, to: Point(x: 100, y: y))
        }
        #expect(scroll.contentOffset.y < -30)   // pulled past the inset's edge, rubber-banded
        input.touchUp(1)
        for _ in 0..<240 { f.advance(1.0 / 60) }
        #expect(abs(scroll.contentOffset.y - -30) < 0.5)
    }
}

extension LargeTitleAndToolbarTests {
    @Test("a push from a large title to a controller without one shrinks the bar and fades the large title with the slide, read at manual times; the pop grows it back the same way")
    func largeTitleAnimatesWithPush() {
        let f = ViewFixture(size: Size(width: 400, height: 600))
        let root = ViewController(), plain = ViewController()
        root.title = "Root"
        plain.title = "Plain"
        plain.navigationItem.largeTitleDisplayMode = .never
        let nav = NavigationController(rootViewController: root)
        nav.navigationBar.prefersLargeTitles = true
        f.window.rootViewController = nav
        f.window.layoutIfNeeded()
        Transaction.flush()
        let bar = nav.navigationBar
        #expect(bar.frame.height == 96)
        nav.pushViewController(plain, animated: true)
        Transaction.flush()
        #expect(bar.frame.height == 44 && nav.content.frame.minY == 44, "the model takes the new layout at once")
        f.advance(NavigationController.transitionDuration / 2)
        let height = f.shownDouble(bar, "bounds.size.height"), alpha = f.shownDouble(bar.largeTitleLabel, "opacity")
        #expect(height > 50 && height < 90, "half way, the bar between 96 and 44: \(height)")
        #expect(alpha > 0.05 && alpha < 0.95, "the large title fading: \(alpha)")
        #expect(!bar.largeTitleLabel.isHidden)
        f.advance(NavigationController.transitionDuration)
        f.window.layoutIfNeeded()
        #expect(bar.largeTitleLabel.isHidden, "hidden once the push is over")
        // Back: the bar grows with the pop.
        nav.popViewController(animated: true)
        Transaction.flush()
        f.advance(NavigationController.transitionDuration / 2)
        let back = f.shownDouble(bar, "bounds.size.height")
        #expect(back > 50 && back < 90, "\(back)")
        f.advance(NavigationController.transitionDuration)
        #expect(bar.frame.height == 96 && !bar.largeTitleLabel.isHidden && bar.largeTitleLabel.alpha == 1)

        // A swipe back cancelled a quarter of the way: the bar grows with the finger, then is the pushed one's again.
        nav.pushViewController(plain, animated: false)
        f.window.layoutIfNeeded()
        let driver = InputDriver(window: f.window)
        driver.touchDown(1, at: Point(x: 5, y: 300))
        driver.touchMove(1, to: Point(x: 30, y: 300))
        driver.touchMove(1, to: Point(x: 105, y: 300))
        Transaction.flush()
        let growing = f.shownDouble(bar, "bounds.size.height")
        #expect(growing > 44 && growing < 96, "the bar a quarter of the way to the large title: \(growing)")
        driver.touchUp(1)
        Transaction.flush()
        f.advance(0.5)
        f.window.layoutIfNeeded()
        #expect(nav.topViewController === plain && bar.frame.height == 44 && bar.largeTitleLabel.isHidden, "\(bar.frame)")
    }
}
