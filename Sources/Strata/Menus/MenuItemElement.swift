/// A menu's row as assistive technologies see it (rule Y2): a menu item named
/// by its title, selected when its state is on, not enabled when it cannot be
/// chosen, focused while highlighted; activating it chooses it, as a click does.
@MainActor
final class MenuItemElement: AccessibilityElement {
    unowned let menuView: MenuView
    let row: Int

    init(menuView: MenuView, row: Int) {
        self.menuView = menuView
        self.row = row
        super.init(accessibilityContainer: menuView)
    }

    override var accessibilityRole: AccessibilityRole? { .menuItem }

    override var accessibilityLabel: String? {
        get { super.accessibilityLabel ?? menuView.element(ofRow: row)?.title }
        set { super.accessibilityLabel = newValue }
    }

    override var accessibilityTraits: AccessibilityTraits {
        get {
            var traits = super.accessibilityTraits
            if (menuView.element(ofRow: row) as? MenuAction)?.state == .on { traits.insert(.selected) }
            if !menuView.isChoosable(row) { traits.insert(.notEnabled) }
            return traits
        }
        set { super.accessibilityTraits = newValue }
    }

    override var accessibilityFrameInContainerSpace: Rect {
        get { menuView.frame(ofRow: row) }
        set {}
    }

    override var accessibilityIsFocused: Bool { menuView.highlightedRow == row }
    /// The keyboard's highlight moves through the items.
    override var accessibilityIsFocusable: Bool { true }

    /// A submenu's row: expanded while its submenu is open.
    override var accessibilityIsExpanded: Bool? {
        guard let submenu = menuView.element(ofRow: row) as? Menu else { return nil }
        guard let levels = menuView.session?.levels, levels.count > menuView.level + 1 else { return false }
        return levels[menuView.level + 1].view.menu === submenu
    }

    override func accessibilityActivate() -> Bool {
        guard menuView.isChoosable(row), let session = menuView.session else { return false }
        session.choose(onLevel: menuView.level, row: row)
        return true
    }
}
