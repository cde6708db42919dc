import LayerKit

/// A stack of view controllers shown one at a time under a navigation bar
/// (`UINavigationController`): push slides the new one in from the trailing
/// edge while the old one moves a third of the way out (parallax); pop is the
/// reverse, also by a pan from the leading edge that follows the finger and can
/// be cancelled (rule C1 for the appearance calls).
///
/// Order of calls in a push of B over A: B's `loadView`/`viewDidLoad` (if not
/// made yet), B's `willMove(toParent:)`, A's `viewWillDisappear`, B's
/// `viewWillAppear`; after the slide, A's `viewDidDisappear`, B's
/// `viewDidAppear`, B's `didMove(toParent:)`. A pop of B: B's
/// `willMove(toParent: nil)`, B's `viewWillDisappear`, A's `viewWillAppear`;
/// after the slide B's `viewDidDisappear`, A's `viewDidAppear`, B's
/// `didMove(toParent: nil)`. Pushes and pops asked for during a transition wait
/// for it to end.
@MainActor
open class NavigationController: ViewController {
    /// How long a push or pop slides.
    public static let transitionDuration = 0.35
    /// How far the controller underneath moves, as a fraction of the width.
    static let parallax = 1.0 / 3
    /// The width of the leading edge a pan must start in to pop (points).
    static let edgeWidth = 20.0

    /// The stack, the root first and the top last.
    public internal(set) var viewControllers: [ViewController] = []
    public var topViewController: ViewController? { viewControllers.last }
    /// The top controller, or what it presents.
    public var visibleViewController: ViewController? {
        var c = topViewController
        while let presented = c?.presentedViewController { c = presented }
        return c
    }

    public let navigationBar = NavigationBar(frame: .zero)
    /// Hides the bar; the controllers' views then fill the whole view.
    public var isNavigationBarHidden = false {
        didSet {
            navigationBar.isHidden = isNavigationBarHidden
            viewIfLoaded?.setNeedsLayout()
        }
    }

    /// The bar at the bottom with the top controller's ``ViewController/toolbarItems``.
    public let toolbar = Toolbar(frame: .zero)
    /// Hides the toolbar (the default, as in UIKit).
    public var isToolbarHidden = true {
        didSet {
            toolbar.isHidden = isToolbarHidden
            viewIfLoaded?.setNeedsLayout()
        }
    }

    /// The pan from the leading edge that pops (`interactivePopGestureRecognizer`).
    public private(set) lazy var interactivePopGestureRecognizer: PanGestureRecognizer = {
        let pan = PanGestureRecognizer { [weak self] in self?.interactivePop($0 as! PanGestureRecognizer) }
        pan.shouldBegin = { [weak self] recognizer in
            guard let self, viewControllers.count > 1, transition == nil, let pan = recognizer as? PanGestureRecognizer else { return false }
            // The leading edge: the right one right to left (rule P3), the pan away from it.
            let sign = leadingSign
            let start = pan.location(in: view).x - pan.translation(in: view).x
            let fromEdge = sign > 0 ? start : view.bounds.width - start
            return fromEdge <= Self.edgeWidth && pan.translation(in: view).x * sign > 0
        }
        return pan
    }()

    /// +1 left to right; −1 right to left, where pushes come from the left and the
    /// pop's pan starts at the right edge (rule P3).
    var leadingSign: Double { view.effectiveUserInterfaceLayoutDirection == .rightToLeft ? -1 : 1 }

    /// The controllers' views go here, below the bar.
    let content = View()
    /// The transition under way, if any.
    var transition: Transition?
    /// What was asked during a transition, run after it.
    var pending: [() -> Void] = []

    struct Transition {
        let from: ViewController
        let to: ViewController
        let isPush: Bool
        var animator: ViewPropertyAnimator?
    }

    public init(rootViewController: ViewController) {
        super.init()
        setViewControllers([rootViewController], animated: false)
    }

    open override func loadView() {
        let view = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        view.backgroundColor = .systemBackground
        content.clipsToBounds = true
        view.addSubview(content)
        view.addSubview(navigationBar)
        toolbar.isHidden = isToolbarHidden
        view.addSubview(toolbar)
        navigationBar.onLargeTitlesChanged = { [weak self] in self?.viewIfLoaded?.setNeedsLayout() }
        view.addGestureRecognizer(interactivePopGestureRecognizer)
        navigationBar.onBack = { [weak self] in self?.popViewController(animated: true) }
        self.view = view
    }

    open override func viewDidLoad() {
        if let top = topViewController { content.addSubview(top.view) }
        updateBar()
    }

    open override func viewWillLayoutSubviews() {
        let size = view.bounds.size
        // A large title: collapsed as far as the top controller's scroll view has
        // scrolled into it; without one, shown whole above the content.
        let large = !isNavigationBarHidden && showsLargeTitle
        track(large ? topViewController?.viewIfLoaded.flatMap(Self.trackingScrollView(in:)) : nil)
        var collapse = 0.0
        if large, let scroll = tracked {
            collapse = min(1, max(0, (scroll.contentOffset.y + scroll.contentInset.top) / NavigationBar.largeTitleHeight))
        }
        navigationBar.largeTitleCollapse = large ? collapse : nil
        let bar = isNavigationBarHidden ? 0 : NavigationBar.height + (large ? NavigationBar.largeTitleHeight * (1 - collapse) : 0)
        let top = isNavigationBarHidden ? 0 : tracked != nil ? NavigationBar.height : bar
        let bottom = isToolbarHidden ? 0 : Toolbar.height
        navigationBar.frame = Rect(x: 0, y: 0, width: size.width, height: bar)
        toolbar.frame = Rect(x: 0, y: max(0, size.height - bottom), width: size.width, height: bottom)
        content.frame = Rect(x: 0, y: top, width: size.width, height: max(0, size.height - top - bottom))
        for c in viewControllers where c.viewIfLoaded?.superview === content {
            c.view.bounds = Rect(origin: c.view.bounds.origin, size: content.bounds.size)   // a scroll view keeps its offset
            c.view.center = Point(x: content.bounds.midX, y: content.bounds.midY)
        }
    }

    // MARK: The stack

    /// Pushes `controller` on top (`pushViewController(_:animated:)`). A
    /// controller already in a stack, presented or a window's root is refused
    /// (with a diagnostic).
    public func pushViewController(_ controller: ViewController, animated: Bool) {
        // This one or one containing it can never be pushed: refused before it waits
        // for a transition, where the request would hold it (a cycle through itself).
        guard !isHeld(by: controller) else {
            return Diagnostics.report(.invalidView("pushViewController: a navigation controller cannot push itself or a controller containing it"))
        }
        if transition != nil { return pending.append { [weak self] in self?.pushViewController(controller, animated: animated) } }
        guard controller.parent == nil, controller.presentingViewController == nil, controller.hostWindow == nil else {
            return Diagnostics.report(.invalidView("pushViewController: the controller is already shown (in a stack, presented or a window's root)"))
        }
        guard let from = topViewController else { return setViewControllers([controller], animated: false) }
        addChild(controller)
        viewControllers.append(controller)
        run(Transition(from: from, to: controller, isPush: true), animated: animated, interactive: false)
    }

    /// Pops the top controller (`popViewController(animated:)`); nil at the root
    /// (nothing to pop past).
    @discardableResult
    public func popViewController(animated: Bool) -> ViewController? {
        if transition != nil {
            pending.append { [weak self] in self?.popViewController(animated: animated) }
            return nil
        }
        guard viewControllers.count > 1 else { return nil }
        let popped = viewControllers[viewControllers.count - 1]
        startPop(to: viewControllers[viewControllers.count - 2], animated: animated, interactive: false)
        return popped
    }

    /// Pops every controller above the root (`popToRootViewController(animated:)`).
    @discardableResult
    public func popToRootViewController(animated: Bool) -> [ViewController]? {
        guard let root = viewControllers.first else { return nil }
        return popToViewController(root, animated: animated)
    }

    /// Pops the controllers above `controller` (`popToViewController(_:animated:)`);
    /// nil when it is not in the stack. Only the top one slides.
    @discardableResult
    public func popToViewController(_ controller: ViewController, animated: Bool) -> [ViewController]? {
        guard transition == nil, let i = viewControllers.firstIndex(where: { $0 === controller }) else { return nil }
        guard i < viewControllers.count - 1 else { return [] }
        let popped = Array(viewControllers[(i + 1)...])
        // Those between leave without being seen.
        for c in popped.dropLast() {
            c.willMove(toParent: nil)
            c.removeFromParent()
        }
        viewControllers.removeSubrange((i + 1)..<(viewControllers.count - 1))
        startPop(to: controller, animated: animated, interactive: false)
        return popped
    }

    /// Replaces the stack (`setViewControllers(_:animated:)`); animated, the new
    /// top is pushed or popped to as it is new or was in the stack. Controllers
    /// that cannot be in it — this one or one containing it, one presented or a
    /// window's root, a second copy — are left out (with a diagnostic).
    public func setViewControllers(_ controllers: [ViewController], animated: Bool) {
        let controllers = containable(controllers, as: "setViewControllers")
        guard transition == nil else { return pending.append { [weak self] in self?.setViewControllers(controllers, animated: animated) } }
        let old = topViewController
        for c in viewControllers where !controllers.contains(where: { $0 === c }) {
            c.willMove(toParent: nil)
            if c !== old { c.viewIfLoaded?.removeFromSuperview() }
            c.removeFromParent()
        }
        for c in controllers where c.parent !== self { addChild(c) }
        viewControllers = controllers
        guard let top = controllers.last, top !== old else { return updateBar() }
        guard let old, isViewLoaded else {
            if isViewLoaded { content.addSubview(top.view) }
            top.didMove(toParent: self)
            return updateBar()
        }
        run(Transition(from: old, to: top, isPush: !controllers.contains { $0 === old }), animated: animated, interactive: false)
    }

    func startPop(to target: ViewController, animated: Bool, interactive: Bool) {
        guard let from = topViewController else { return }
        from.willMove(toParent: nil)
        run(Transition(from: from, to: target, isPush: false), animated: animated, interactive: interactive)
    }

    /// A child removed from outside leaves the stack too (UIKit's stack is its children).
    override func childWillLeave(_ child: ViewController) {
        guard viewControllers.contains(where: { $0 === child }) else { return }
        viewControllers.removeAll { $0 === child }
        updateBar()
    }

    /// The navigation bar shows the top controller's item, the one below for the back
    /// button; the toolbar the top controller's items.
    func updateBar() {
        let top = topViewController
        let back = viewControllers.count > 1 ? viewControllers[viewControllers.count - 2] : nil
        navigationBar.setItems(top: top?.navigationItem, back: back?.navigationItem, titles: (top?.title, back?.title))
        toolbar.items = top?.toolbarItems ?? []
        viewIfLoaded?.setNeedsLayout()
    }

    // MARK: Large titles

    /// Whether the top item's title is shown large: the bar prefers large titles and
    /// the nearest item from the top that says `.always` or `.never` allows it (the
    /// root, when all say `.automatic`).
    var showsLargeTitle: Bool {
        guard navigationBar.prefersLargeTitles else { return false }
        for c in viewControllers.reversed() {
            switch c.navigationItem.largeTitleDisplayMode {
            case .always: return true
            case .never: return false
            case .automatic: continue
            }
        }
        return true
    }

    /// The scroll view a large title collapses with: the top controller's view, or
    /// the first scroll view at the top of it (UIKit's tracked scroll view).
    static func trackingScrollView(in view: View) -> ScrollView? {
        if let s = view as? ScrollView { return s }
        var level = view.subviews
        for _ in 0..<3 {
            if let s = level.first(where: { $0 is ScrollView && $0.frame.minY <= 1 }) as? ScrollView { return s }
            level = level.flatMap(\.subviews)
        }
        return nil
    }

    /// The scroll view tracked now, which got the large title's height as an inset.
    private(set) weak var tracked: ScrollView?

    private func track(_ scroll: ScrollView?) {
        guard scroll !== tracked else { return }
        if let old = tracked {
            old.scrollTracker = nil
            old.contentInset.top -= NavigationBar.largeTitleHeight   // an offset in the inset is clamped back to the content
        }
        tracked = scroll
        guard let scroll else { return }
        // The content starts below the large title, which covers the inset.
        let atTop = scroll.contentOffset.y <= scroll.minimumContentOffset.y
        scroll.contentInset.top += NavigationBar.largeTitleHeight
        if atTop { scroll.setContentOffset(scroll.minimumContentOffset, animated: false) }
        scroll.scrollTracker = { [weak self] _ in
            guard let view = self?.viewIfLoaded else { return }
            view.setNeedsLayout()
            view.layoutIfNeeded()
        }
    }
}

extension ViewController {
    /// The nearest navigation controller above this controller (`navigationController`).
    public var navigationController: NavigationController? { nearestAncestor(NavigationController.self) }
}
