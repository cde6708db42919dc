/// Two columns in a wide window — a primary one (a list, a sidebar) beside a
/// secondary one (the detail) — that become one navigation stack when the window
/// is narrow (`UISplitViewController`, two columns).
///
/// Expanded, the primary column is ``preferredPrimaryColumnWidth`` wide (held to
/// the minimum and maximum) on the leading side, a hairline between, the
/// secondary column takes the rest. Narrower than ``collapseWidth`` the split view
/// is *collapsed*: one column the whole width. As UIKit does by default, the
/// secondary controller is then pushed onto the primary when the primary is a
/// ``NavigationController`` (the back button returns to the list); expanding again
/// takes it back into its column. ``showDetailViewController(_:sender:)`` replaces
/// the secondary column when expanded and pushes when collapsed.
///
/// ``preferredDisplayMode`` `.secondaryOnly` hides the primary column (animated
/// inside an animation block); `.oneBesideSecondary` and `.automatic` show both
/// when expanded. ``displayModeButtonItem``, put in the secondary's navigation
/// item, hides and shows the primary column with a slide, as iPadOS's sidebar
/// button does; it leaves its bar while the split view is collapsed. Appearance calls follow rule C1 for every controller that comes
/// or goes.
@MainActor
open class SplitViewController: ViewController {
    public enum Column: Hashable, Sendable { case primary, secondary }
    public enum DisplayMode: Hashable, Sendable { case automatic, oneBesideSecondary, secondaryOnly }

    /// The primary column's width when expanded (default 320; NaN or less than 0 refused).
    public var preferredPrimaryColumnWidth = 320.0 { didSet { if !preferredPrimaryColumnWidth.isFinite || preferredPrimaryColumnWidth < 0 { refuse("preferredPrimaryColumnWidth", &preferredPrimaryColumnWidth, oldValue) } else { relayout() } } }
    public var minimumPrimaryColumnWidth = 240.0 { didSet { if !minimumPrimaryColumnWidth.isFinite || minimumPrimaryColumnWidth < 0 { refuse("minimumPrimaryColumnWidth", &minimumPrimaryColumnWidth, oldValue) } else { relayout() } } }
    public var maximumPrimaryColumnWidth = 420.0 { didSet { if !maximumPrimaryColumnWidth.isFinite || maximumPrimaryColumnWidth < 0 { refuse("maximumPrimaryColumnWidth", &maximumPrimaryColumnWidth, oldValue) } else { relayout() } } }
    /// Narrower than this, the columns collapse into one (default 640 points).
    public var collapseWidth = 640.0 { didSet { if !collapseWidth.isFinite { refuse("collapseWidth", &collapseWidth, oldValue) } else { relayout() } } }
    /// Whether the primary column is shown when expanded.
    public var preferredDisplayMode = DisplayMode.automatic { didSet { relayout(); updateDisplayModeButton() } }

    /// What shows now (`displayMode`): `.secondaryOnly` while the primary column
    /// is hidden or the split view is collapsed, else `.oneBesideSecondary`.
    public var displayMode: DisplayMode { isCollapsed || preferredDisplayMode == .secondaryOnly ? .secondaryOnly : .oneBesideSecondary }

    /// A bar button that hides the primary column when it shows and shows it when
    /// hidden, sliding it over 0.35 s (`displayModeButtonItem`); titled "Hide
    /// Sidebar" or "Show Sidebar" as it would act, hidden while collapsed.
    public var displayModeButtonItem: BarButtonItem {
        if let made = displayModeButton { return made }
        let item = BarButtonItem(title: "Hide Sidebar") { [weak self] _ in self?.toggleSidebar() }
        displayModeButton = item
        updateDisplayModeButton()
        return item
    }
    private var displayModeButton: BarButtonItem?

    private func toggleSidebar() {
        guard !isCollapsed else { return }
        let hide = displayMode == .oneBesideSecondary
        View.animate(duration: 0.35, options: .curveEaseInOut) { self.preferredDisplayMode = hide ? .secondaryOnly : .oneBesideSecondary }
    }

    private func updateDisplayModeButton() {
        guard let item = displayModeButton else { return }
        let title = displayMode == .secondaryOnly ? "Show Sidebar" : "Hide Sidebar"
        if item.title != title { item.title = title }
        if item.isHidden != isCollapsed { item.isHidden = isCollapsed }
    }
    /// Whether the split view shows one column (the window is narrower than ``collapseWidth``).
    public private(set) var isCollapsed = false
    /// Whether collapsing shows the secondary controller (pushed onto the primary); as UIKit, true.
    public var showsSecondaryWhenCollapsed = true

    private var primary: ViewController?
    private var secondary: ViewController?
    /// The secondary controller while it is pushed onto the primary (collapsed).
    private weak var pushedSecondary: ViewController?
    let separator = View()

    public override init() { super.init() }

    /// The column controllers, primary first.
    public var viewControllers: [ViewController] { [primary, secondary].compactMap { $0 } }

    public func viewController(for column: Column) -> ViewController? { column == .primary ? primary : secondary }

    /// The primary column's width as laid out (0 when it is hidden or collapsed).
    public var primaryColumnWidth: Double {
        guard !isCollapsed, preferredDisplayMode != .secondaryOnly else { return 0 }
        return min(max(preferredPrimaryColumnWidth, minimumPrimaryColumnWidth), max(minimumPrimaryColumnWidth, maximumPrimaryColumnWidth))
    }

    private func refuse(_ name: String, _ value: inout Double, _ old: Double) {
        Diagnostics.report(.invalidValue(key: name, reason: "\(value) refused; kept \(old)"))
        value = old
    }

    private func relayout() {
        guard isViewLoaded else { return }
        view.setNeedsLayout()
        view.layoutIfNeeded()
    }

    open override func loadView() {
        let view = View(frame: Rect(x: 0, y: 0, width: 960, height: 600))
        view.backgroundColor = .systemBackground
        separator.backgroundColor = .separator
        view.addSubview(separator)
        self.view = view
    }

    open override func viewDidLoad() {
        for c in viewControllers { view.insertSubview(c.view, belowSubview: separator) }
    }

    /// Puts `controller` in a column (`setViewController(_:for:)`), replacing what was
    /// there. A controller that cannot be a child here (this one, one containing it,
    /// a presented one, a window's root, or the one in the other column) is refused.
    public func setViewController(_ controller: ViewController?, for column: Column) {
        let other = column == .primary ? secondary : primary
        if let controller {
            if controller === other {
                return Diagnostics.report(.invalidView("setViewController(_:for:): the controller is already in the other column"))
            }
            // One that cannot be a child here is refused (containable says why).
            if controller.parent !== self && containable([controller], as: "setViewController(_:for:)").isEmpty { return }
        }
        let old = column == .primary ? primary : secondary
        guard controller !== old else { return }
        if column == .secondary, isCollapsed, pushedSecondary != nil, let nav = primary as? NavigationController {
            // Collapsed: the old one leaves the primary's stack, the new one is pushed in its place.
            popPushedSecondary(from: nav)
            secondary = controller
            if let controller { push(controller, onto: nav, animated: false) }
            return
        }
        let visible = isViewLoaded && isAppearingOrVisible
        if let old {
            old.willMove(toParent: nil)
            if visible && old.viewIfLoaded?.window != nil { old.beginAppearanceTransition(false, animated: false) }
            old.viewIfLoaded?.removeFromSuperview()
            old.removeFromParent()
            if visible { old.endAppearanceTransition() }
        }
        if column == .primary { primary = controller } else { secondary = controller }
        guard let controller else { return relayout() }
        addChild(controller)
        if isViewLoaded {
            if visible { controller.beginAppearanceTransition(true, animated: false) }
            Transaction.withoutActions { view.insertSubview(controller.view, belowSubview: separator) }
            if visible { controller.endAppearanceTransition() }
        }
        controller.didMove(toParent: self)
        relayout()
    }

    /// Shows a detail (`showDetailViewController(_:sender:)`): in the secondary column
    /// when expanded; pushed onto the primary navigation controller when collapsed.
    public func showDetailViewController(_ controller: ViewController, sender: Any?) {
        showsSecondaryWhenCollapsed = true
        if isCollapsed, let nav = primary as? NavigationController {
            popPushedSecondary(from: nav)
            secondary = controller
            push(controller, onto: nav, animated: true)
        } else {
            setViewController(controller, for: .secondary)
        }
    }

    /// Takes the pushed secondary controller, and what was pushed above it, off the primary's stack.
    private func popPushedSecondary(from nav: NavigationController) {
        if let pushed = pushedSecondary, let i = nav.viewControllers.firstIndex(where: { $0 === pushed }) {
            nav.setViewControllers(Array(nav.viewControllers[..<i]), animated: false)
        }
        pushedSecondary = nil
    }

    private func push(_ controller: ViewController, onto nav: NavigationController, animated: Bool) {
        pushedSecondary = controller
        nav.pushViewController(controller, animated: animated)
    }

    // MARK: Layout

    open override func viewWillLayoutSubviews() {
        let size = view.bounds.size
        let collapse = size.width < collapseWidth
        if collapse != isCollapsed {
            isCollapsed = collapse
            collapse ? collapseColumns() : expandColumns()
            updateDisplayModeButton()
        }
        let rtl = view.effectiveUserInterfaceLayoutDirection == .rightToLeft
        let width = primaryColumnWidth
        var primaryFrame = Rect(x: 0, y: 0, width: isCollapsed ? size.width : width, height: size.height)
        var secondaryFrame = Rect(x: width > 0 ? width + 1 : 0, y: 0, width: max(0, size.width - (width > 0 ? width + 1 : 0)), height: size.height)
        var line = Rect(x: width, y: 0, width: width > 0 && !isCollapsed ? 1 : 0, height: size.height)
        if preferredDisplayMode == .secondaryOnly && !isCollapsed { primaryFrame.origin.x = -primaryFrame.width - 1 }
        if rtl {
            primaryFrame.origin.x = size.width - primaryFrame.maxX
            secondaryFrame.origin.x = size.width - secondaryFrame.maxX
            line.origin.x = size.width - line.maxX
        }
        primary?.viewIfLoaded?.frame = primaryFrame
        if secondary?.parent === self { secondary?.viewIfLoaded?.frame = isCollapsed ? Rect(origin: .zero, size: size) : secondaryFrame }
        separator.frame = line
        separator.isHidden = isCollapsed || width == 0
    }

    /// One column: the secondary controller onto the primary's stack (or in its place
    /// when the primary is not a navigation controller).
    private func collapseColumns() {
        guard let secondary else { return }
        if showsSecondaryWhenCollapsed, !(primary is NavigationController) {
            // Without a stack to push onto, the detail takes the whole width in its place.
            primary?.viewIfLoaded?.isHidden = true
            return
        }
        let visible = isAppearingOrVisible
        secondary.willMove(toParent: nil)
        if visible { secondary.beginAppearanceTransition(false, animated: false) }
        secondary.viewIfLoaded?.removeFromSuperview()
        leaving = secondary
        secondary.removeFromParent()
        leaving = nil
        if visible { secondary.endAppearanceTransition() }
        if showsSecondaryWhenCollapsed, let nav = primary as? NavigationController {
            push(secondary, onto: nav, animated: false)
        }
    }

    /// Two columns again: the secondary controller back from the primary's stack.
    private func expandColumns() {
        primary?.viewIfLoaded?.isHidden = false
        var back = secondary
        if let nav = primary as? NavigationController, let pushed = pushedSecondary,
           let i = nav.viewControllers.firstIndex(where: { $0 === pushed }) {
            // The top of what was pushed from the detail on comes back to the column.
            back = nav.viewControllers.last
            nav.setViewControllers(Array(nav.viewControllers[..<i]), animated: false)
        }
        pushedSecondary = nil
        guard let back, back.parent !== self else { return }   // one that stood in for the primary stays a child
        secondary = back
        let visible = isAppearingOrVisible
        addChild(back)
        if visible { back.beginAppearanceTransition(true, animated: false) }
        Transaction.withoutActions { view.insertSubview(back.view, belowSubview: separator) }
        if visible { back.endAppearanceTransition() }
        back.didMove(toParent: self)
    }

    /// The secondary controller on its way to the primary's stack (collapsing): it stays the secondary.
    private weak var leaving: ViewController?

    override func childWillLeave(_ child: ViewController) {
        if child === primary { primary = nil }
        if child === secondary && child !== leaving { secondary = nil }
    }
}

extension ViewController {
    /// The nearest split view controller above this controller (`splitViewController`).
    public var splitViewController: SplitViewController? { nearestAncestor(SplitViewController.self) }
}
