import WaylandClient

/// An open menu and its open submenus, each in a popup that grabs input (rules
/// M1–M3): what a ``ContextMenuInteraction`` or a button with a menu shows.
///
/// The menu fades and scales in (0.15 s) and fades out (0.1 s), as UIKit's do.
/// Choosing an action closes every level, then runs its handler once (rule M3);
/// a single-selection group turns the chosen action on and the rest off first;
/// an action that ``MenuAction/Attributes-swift.struct/keepsMenuPresented`` runs
/// its handler and the menu stays. Submenus open to the trailing side of their
/// row (on hover, a click, or Right) and close with Left or Escape; a click
/// outside every level, `popup_done`, or the window losing focus closes them all.
@MainActor
final class MenuSession {
    /// The menus shown, the first one opened first.
    private(set) var levels: [(popup: Popup, view: MenuView)] = []
    /// Called once when the last level has gone.
    var onDismiss: (() -> Void)?
    /// Called when an action or key command is chosen, before its handler runs.
    var onChoose: ((MenuElement) -> Void)?
    /// The window the menu opened on: standard edit commands go to its focus.
    private(set) weak var window: Window?
    /// The view the menu opened for: its traits are the menu's (right to left mirrors it).
    private weak var source: View?
    private var isRightToLeft: Bool { (source ?? window?.rootView)?.effectiveUserInterfaceLayoutDirection == .rightToLeft }
    private(set) var isClosing = false
    /// The tallest a menu's popup asks to be (the rows scroll past it).
    static let maximumHeight = 600.0
    /// Submenus nest this deep at most; deeper ones do not open.
    static let maximumDepth = 32

    /// Opens `menu` on `window` against `anchorRect` (content coordinates):
    /// at a pointer's place (a 1×1 rect: the menu's corner at it) or under a view.
    /// Nil when the menu has nothing to show or the window is not shown.
    /// A pop-up button's menu is at least `minimumWidth` wide and opens with the
    /// row of `aligning` over the anchor (a rect `over` tall) instead of below it.
    /// Placements are for left to right; a menu whose `source` lays out right to
    /// left opens mirrored (rule P3): leftwards from a point, under a view's right
    /// edge, submenus to the left.
    static func open(_ menu: Menu, on window: Window, from source: View? = nil, anchorRect: Rect,
                     anchor: PopupPositioner.Direction = .bottomLeft, gravity: PopupPositioner.Direction = .bottomRight,
                     minimumWidth: Double = 0, aligning: MenuElement? = nil, over height: Double = 0) -> MenuSession? {
        let session = MenuSession()
        session.window = window
        session.source = source
        guard session.openLevel(menu, on: window, anchorRect: anchorRect, anchor: anchor, gravity: gravity,
                                minimumWidth: minimumWidth, aligning: aligning, over: height) else { return nil }
        return session
    }

    private func openLevel(_ menu: Menu, on window: Window, anchorRect: Rect,
                           anchor: PopupPositioner.Direction, gravity: PopupPositioner.Direction, offset: Point = .zero,
                           minimumWidth: Double = 0, aligning: MenuElement? = nil, over height: Double = 0) -> Bool {
        guard window.isVisible, levels.count < Self.maximumDepth else { return false }
        let view = MenuView(menu: menu, level: levels.count)
        guard !view.rows.isEmpty else { return false }
        view.session = self
        var size = view.preferredSize()
        size.height = min(size.height, Self.maximumHeight)
        size.width = max(size.width, min(480, minimumWidth.rounded(.up)))
        var anchor = anchor, offset = offset
        if let aligning, let row = view.rows.firstIndex(where: { if case let .item(e, _) = $0 { e === aligning } else { false } }) {
            // The chosen row over the button: from the anchor's top, up by the row's place.
            anchor = .topLeft
            offset.y -= view.frame(ofRow: row).minY - ((height - MenuView.rowHeight) / 2).rounded()
            view.highlight(row)
        }
        var gravity = gravity
        if isRightToLeft {
            (anchor, gravity, offset.x) = (anchor.flippedX, gravity.flippedX, -offset.x)
        }
        let popup = Popup(on: window, placement: Popup.Placement(size: size, anchorRect: anchorRect, anchor: anchor, gravity: gravity, offset: offset),
                          grabsInput: true, traitsFrom: levels.last?.view ?? source)
        let root = popup.window.rootView
        view.frame = root.bounds
        view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        root.addSubview(view)
        let level = levels.count
        popup.onDismiss = { [weak self] in self?.levelWasDismissed(level) }
        levels.append((popup, view))
        popup.open()
        guard popup.isOpen else {
            levels.removeLast()
            return false
        }
        view.becomeFirstResponder()
        // A short fade and scale in, as UIKit's menus open (a fade alone with reduce motion).
        View.performWithoutAnimation {
            root.alpha = 0
            if !root.reducesMotion { root.transform = AffineTransform(scaleX: 0.96, y: 0.96) }
        }
        View.animate(duration: 0.15, options: [.curveEaseOut, .allowUserInteraction]) {
            root.alpha = 1
            root.transform = .identity
        }
        return true
    }

    /// A level's rows changed (deferred elements loaded): its popup takes the new size.
    func levelChangedSize(_ view: MenuView) {
        guard let level = levels.firstIndex(where: { $0.view === view }), !isClosing else { return }
        let popup = levels[level].popup
        var placement = popup.placement
        let wanted = view.preferredSize()
        placement.size = Size(width: max(wanted.width, placement.size.width), height: min(wanted.height, Self.maximumHeight))
        popup.move(to: placement)
    }

    /// Whether a standard edit command can be chosen: some responder from the
    /// window's focus can perform it now.
    func canSend(_ action: StandardEditAction) -> Bool {
        guard let window else { return false }
        return (window.firstResponder ?? window).target(for: action) != nil
    }

    /// The level with an open submenu above `level`, if any.
    func openSubmenuLevel(above level: Int) -> Int? { levels.count > level + 1 ? level + 1 : nil }

    /// The pointer rests on a row: a submenu's opens, any other closes the levels above.
    func pointerRested(onLevel level: Int, row: Int) {
        guard !isClosing, level < levels.count else { return }
        if case let .item(element, _) = levels[level].view.rows[row], element is Menu {
            openSubmenu(fromLevel: level, row: row, selectingFirst: false)
        } else {
            closeLevels(above: level)
        }
    }

    /// Opens the submenu of row `row` on `level` to the trailing side of the row
    /// (flipped by the compositor when there is no room), closing deeper ones.
    func openSubmenu(fromLevel level: Int, row: Int, selectingFirst: Bool) {
        guard !isClosing, level < levels.count else { return }
        let view = levels[level].view
        guard view.isChoosable(row), case let .item(element, _) = view.rows[row], let submenu = element as? Menu else { return }
        if levels.count > level + 1, levels[level + 1].view.menu === submenu {
            if selectingFirst { levels[level + 1].view.highlightFirstItem(); levels[level + 1].view.becomeFirstResponder() }
            return
        }
        closeLevels(above: level)
        view.highlight(row)
        let window = levels[level].popup.window
        let rowRect = view.convert(view.frame(ofRow: row), to: window.rootView)
        // Its first item level with the row.
        guard openLevel(submenu, on: window, anchorRect: rowRect, anchor: .topRight, gravity: .bottomRight,
                        offset: Point(x: 0, y: -MenuView.padding)) else { return }
        if selectingFirst { levels[level + 1].view.highlightFirstItem() }
    }

    /// Closes the levels above `level` (the deepest first).
    func closeLevels(above level: Int) {
        while levels.count > level + 1 {
            let top = levels[levels.count - 1].popup
            if top.isOpen { top.dismiss() }
            if levels.last?.popup === top { levels.removeLast() }   // already gone without telling
        }
        if level < levels.count { levels[level].view.becomeFirstResponder() }
    }

    /// Left or Escape on `level`: that level closes (the first one: the whole menu).
    func close(level: Int) {
        if level == 0 { dismiss() } else { closeLevels(above: level - 1) }
    }

    /// A row was chosen (rule M3).
    func choose(onLevel level: Int, row: Int) {
        guard !isClosing, level < levels.count else { return }
        let view = levels[level].view
        guard view.isChoosable(row), case let .item(element, group) = view.rows[row] else { return }
        switch element {
        case is Menu:
            openSubmenu(fromLevel: level, row: row, selectingFirst: true)
        case let action as MenuAction:
            if group.options.contains(.singleSelection) {
                for case let other as MenuAction in group.children { other.state = .off }
                action.state = .on
            }
            onChoose?(action)
            if action.attributes.contains(.keepsMenuPresented) {
                action.handler(action)
                for l in levels { l.view.reloadRows() }
                return
            }
            dismiss()
            action.handler(action)
        case let command as KeyCommand:
            onChoose?(command)
            dismiss()
            command.run(from: window?.firstResponder ?? window)
        default:
            break
        }
    }

    /// Closes every level with a short fade; input to them is over at once.
    func dismiss(animated: Bool = true) {
        guard !isClosing, let first = levels.first else { return finish() }
        isClosing = true
        for l in levels { l.view.isUserInteractionEnabled = false }
        guard animated else { return first.popup.dismiss() }
        View.animate(duration: 0.1, options: [.curveEaseIn]) {
            for l in self.levels { l.popup.window.rootView.alpha = 0 }
        } completion: { _ in
            first.popup.dismiss()
        }
    }

    /// A level's popup went (closed here, by a click outside, or by the compositor).
    private func levelWasDismissed(_ level: Int) {
        guard level < levels.count else { return }
        levels.removeSubrange(level...)
        if level == 0 { finish() } else { levels[level - 1].view.becomeFirstResponder() }
    }

    private func finish() {
        guard let done = onDismiss else { return }
        onDismiss = nil
        if let first = levels.first { levels = []; first.popup.dismiss() }
        done()
    }
}
