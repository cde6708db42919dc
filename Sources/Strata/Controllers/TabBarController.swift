import LayerKit

/// What a tab bar shows for a view controller (`UITabBarItem`).
@MainActor
public final class TabBarItem {
    /// The tab's title; nil: the controller's ``ViewController/title`` (a
    /// navigation controller's: its root controller's).
    public var title: String? { didSet { bar?.itemsChanged() } }
    public var image: Image? { didSet { bar?.itemsChanged() } }
    /// A badge on the tab (a count, "New"…); nil: none.
    public var badgeValue: String? { didSet { bar?.itemsChanged() } }
    public var tag = 0
    weak var bar: TabBar?

    public init(title: String? = nil, image: Image? = nil, tag: Int = 0) {
        self.title = title
        self.image = image
        self.tag = tag
    }
}

/// The bar of a ``TabBarController`` (`UITabBar`): a tab per controller, equal
/// widths, the selected one in the tint colour, badges at the top right of
/// their tab's label.
@MainActor
public final class TabBar: View {
    public static let height = 49.0
    /// The selected tab's colour, and the others'.
    public var selectedColor = Color.systemBlue, unselectedColor = Color.systemGray
    private(set) var tabs: [Button] = []
    private(set) var badges: [Label?] = []
    private let hairline = View()
    var items: [(TabBarItem, fallbackTitle: String?)] = [] { didSet { itemsChanged() } }
    var selectedIndex = 0 { didSet { updateColors() } }
    var onSelect: ((Int) -> Void)?
    // A list of tabs, the selected one selected, each read with its badge (rule Y2).
    override var accessibilityRole: AccessibilityRole? { .tabList }

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .systemGray6
        hairline.backgroundColor = .systemGray3
        addSubview(hairline)
    }

    func itemsChanged() {
        for t in tabs { t.removeFromSuperview() }
        for b in badges { b?.removeFromSuperview() }
        tabs = []
        badges = []
        for (i, (item, fallback)) in items.enumerated() {
            item.bar = self
            let button = Button(title: item.title ?? fallback ?? "")
            if let image = item.image { button.setImage(image, for: .normal) }
            button.addAction(for: .primaryActionTriggered) { [weak self] _ in self?.onSelect?(i) }
            button.accessibility.role = .tab
            button.accessibilityValue = item.badgeValue
            addSubview(button)
            tabs.append(button)
            var badge: Label?
            if let value = item.badgeValue {
                let label = Label(frame: .zero)
                label.text = value
                label.font = .systemFont(ofSize: 12)
                label.textColor = .white
                label.textAlignment = .center
                label.backgroundColor = .systemRed
                label.layer.cornerRadius = 9
                label.clipsToBounds = true
                label.isAccessibilityElement = false   // the tab's value
                addSubview(label)
                badge = label
            }
            badges.append(badge)
        }
        updateColors()
        setNeedsLayout()
    }

    private func updateColors() {
        for (i, tab) in tabs.enumerated() {
            tab.setTitleColor(i == selectedIndex ? selectedColor : unselectedColor, for: .normal)
            tab.isSelected = i == selectedIndex
        }
    }

    public override func layoutSubviews() {
        hairline.frame = Rect(x: 0, y: 0, width: bounds.width, height: 0.5)
        guard !tabs.isEmpty else { return }
        let width = bounds.width / Double(tabs.count)
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft   // the first tab at the right (rule P3)
        for (i, tab) in tabs.enumerated() {
            tab.frame = Rect(x: Double(rightToLeft ? tabs.count - 1 - i : i) * width, y: 0, width: width, height: bounds.height)
            if let badge = badges[i] {
                let text = badge.intrinsicContentSize
                let w = max(18, text.width + 10)
                let titleRight = tab.frame.midX + min(width / 2, tab.titleLabel.intrinsicContentSize.width / 2)
                badge.frame = Rect(x: min(titleRight - 4, bounds.width - w), y: 4, width: w, height: 18)
            }
        }
    }
}

/// Controllers side by side, one shown at a time, chosen with a tab bar at the
/// bottom (`UITabBarController`). A tab's controller is often a
/// ``NavigationController``, keeping its own stack. Switching tabs is
/// immediate, with the appearance calls of rule C1: the old tab's
/// `viewWillDisappear`, the new one's `viewWillAppear`, then `viewDidDisappear`
/// and `viewDidAppear`.
@MainActor
open class TabBarController: ViewController {
    public let tabBar = TabBar(frame: .zero)
    let content = View()

    /// The tabs' controllers; setting them selects the first (or keeps the
    /// selected one if it stays). Controllers that cannot be tabs — this one, one
    /// containing it, one presented or a window's root, a second copy — are left
    /// out (with a diagnostic).
    public var viewControllers: [ViewController]? {
        get { tabs.isEmpty ? nil : tabs }
        set { setViewControllers(newValue ?? []) }
    }
    private var tabs: [ViewController] = []
    private var selected = 0

    /// The selected tab; an index out of range is refused (with a diagnostic).
    public var selectedIndex: Int {
        get { selected }
        set { select(newValue) }
    }

    public var selectedViewController: ViewController? { tabs.indices.contains(selected) ? tabs[selected] : nil }

    public override init() { super.init() }

    open override func loadView() {
        let view = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        view.backgroundColor = .systemBackground
        view.addSubview(content)
        view.addSubview(tabBar)
        tabBar.onSelect = { [weak self] in self?.selectedIndex = $0 }
        self.view = view
    }

    open override func viewDidLoad() {
        if let shown = selectedViewController { content.addSubview(shown.view) }
        updateBar()
    }

    open override func viewWillLayoutSubviews() {
        let h = TabBar.height
        tabBar.frame = Rect(x: 0, y: max(0, view.bounds.height - h), width: view.bounds.width, height: h)
        content.frame = Rect(x: 0, y: 0, width: view.bounds.width, height: max(0, view.bounds.height - h))
        selectedViewController?.viewIfLoaded?.frame = content.bounds
    }

    private func setViewControllers(_ controllers: [ViewController]) {
        let kept = containable(controllers, as: "viewControllers")
        let old = selectedViewController
        let leaving = tabs.filter { c in !kept.contains { $0 === c } }
        tabs = kept   // first: the children leaving below are no longer tabs (childWillLeave)
        for c in leaving {
            c.willMove(toParent: nil)
            if c === old, isViewLoaded { c.viewIfLoaded?.removeFromSuperview() }
            c.removeFromParent()
        }
        for c in kept where c.parent !== self {
            addChild(c)
            c.didMove(toParent: self)
        }
        selected = old.flatMap { o in kept.firstIndex { $0 === o } } ?? 0
        if isViewLoaded, let shown = selectedViewController, shown !== old || shown.view.superview !== content {
            show(shown, replacing: nil)
        }
        updateBar()
    }

    private func select(_ index: Int) {
        guard tabs.indices.contains(index) else {
            return Diagnostics.report(.invalidView("selectedIndex \(index) is out of range 0..<\(tabs.count); ignored"))
        }
        guard index != selected else { return }
        let old = selectedViewController
        selected = index
        tabBar.selectedIndex = index
        if isViewLoaded { show(tabs[index], replacing: old) }
    }

    /// Shows `controller` in the content area in place of `old`, with the appearance calls.
    private func show(_ controller: ViewController, replacing old: ViewController?) {
        controller.loadViewIfNeeded()
        let visible = isAppearingOrVisible
        if visible {
            old?.beginAppearanceTransition(false, animated: false)
            controller.beginAppearanceTransition(true, animated: false)
        }
        Transaction.withoutActions {
            controller.view.frame = content.bounds
            content.addSubview(controller.view)
            old?.viewIfLoaded?.removeFromSuperview()
        }
        if visible {
            old?.endAppearanceTransition()
            controller.endAppearanceTransition()
        }
    }

    /// A child removed from outside leaves the tabs too; the selection stays on its tab if it can.
    override func childWillLeave(_ child: ViewController) {
        guard let i = tabs.firstIndex(where: { $0 === child }) else { return }
        let shown = selectedViewController
        tabs.remove(at: i)
        selected = shown.flatMap { s in tabs.firstIndex { $0 === s } } ?? 0
        if isViewLoaded, shown === child, let next = selectedViewController { show(next, replacing: nil) }
        updateBar()
    }

    func updateBar() {
        // A navigation controller's tab is named after its root, as UIKit names it.
        tabBar.items = tabs.map { ($0.tabBarItem, $0.title ?? ($0 as? NavigationController)?.viewControllers.first?.title) }
        tabBar.selectedIndex = selected
    }
}

extension ViewController {
    /// The nearest tab bar controller above this controller (`tabBarController`).
    public var tabBarController: TabBarController? { nearestAncestor(TabBarController.self) }
}
