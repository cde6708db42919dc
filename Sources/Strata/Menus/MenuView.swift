/// One level of an open menu, drawn in its popup (rule M3): the menu's visible
/// actions, key commands and submenus, inline groups between separators, the
/// first level's title as a header. Only the rows in view have views (a menu of 10,000 items
/// scrolls as fast as one of ten). It takes the keyboard: Up/Down move the
/// highlight (wrapping, skipping what cannot be chosen), Home/End, typing jumps
/// to the next item starting with what was typed, Return/Space choose, Right opens
/// a submenu, Left/Escape close this level; the pointer highlights what it is
/// over and a click chooses it. What choosing does is the ``MenuSession``'s.
@MainActor
final class MenuView: ScrollView {
    enum Row {
        case header(String)
        /// An action, key command or submenu; `group` is the menu it belongs to
        /// (an inline group's own menu: single selection is per group).
        case item(MenuElement, group: Menu)
        case separator
    }

    static let rowHeight = 28.0
    static let separatorHeight = 9.0
    static let headerHeight = 26.0
    static let padding = 5.0
    static let font = Font.systemFont(ofSize: 14)
    /// Inline groups inside inline groups this deep at most (deeper ones are left out).
    static let maximumInlineDepth = 16
    /// Titles measured to size the menu (past this many, the widest so far holds).
    static let measuredRows = 500

    let menu: Menu
    private(set) var rows: [Row] = []
    /// Each row's top in the content, and the content's height last.
    private var tops: [Double] = []
    weak var session: MenuSession?
    /// Which level of the session's menus this is (0: the menu that opened).
    let level: Int

    /// The row the highlight is on: to assistive technologies, the focused item.
    private(set) var highlighted: Int? {
        didSet {
            guard highlighted != oldValue else { return }
            updateVisibleRows()
            Application.shared.accessibilityExporter?.focusMoved(from: oldValue.flatMap(itemElement(at:)), to: highlighted.flatMap(itemElement(at:)))
        }
    }
    /// The items as accessibility elements, made when first asked for and again after the rows change.
    private var itemElements: [Int: MenuItemElement]?
    private var typed = ""
    private var typedAt = -Double.infinity
    private var rowViews: [MenuRowView] = []
    // Weak: the input dispatcher may still hold the recognizer (hovering) after the menu is gone.
    private lazy var hover = HoverGestureRecognizer { [weak self] r in
        guard let self else { return }
        let p = r.location(in: self)
        switch r.state {
        case .began, .changed: pointerOver(row(at: p))
        default: if session?.openSubmenuLevel(above: level) == nil { highlighted = nil }
        }
    }

    init(menu: Menu, level: Int) {
        self.menu = menu
        self.level = level
        super.init(frame: .zero)
        backgroundColor = Color(light: Color(rgba8: 250, 250, 252), dark: Color(rgba8: 44, 44, 46))
        layer.cornerRadius = 8
        layer.borderWidth = 1
        setColor(.separator, of: layer, \.borderColor)
        clipsToBounds = true
        showsHorizontalScrollIndicator = false
        addGestureRecognizer(hover)
        reloadRows()
    }

    /// Reads the menu's elements again (their states and attributes may have changed).
    func reloadRows() {
        rows = []
        if level == 0 && !menu.title.isEmpty { rows.append(.header(menu.title)) }   // a submenu's title is its row
        append(menu, depth: 0)
        if case .separator? = rows.last { rows.removeLast() }
        tops = [Self.padding]
        for row in rows { tops.append(tops[tops.count - 1] + Self.height(of: row)) }
        contentSize = Size(width: 0, height: (tops.last ?? 0) + Self.padding)
        if let h = highlighted, h >= rows.count || !isChoosable(h) { highlighted = nil }
        itemElements = nil
        updateVisibleRows()
    }

    // MARK: Accessibility (rule Y2): a menu of menu items, the highlighted one focused

    override var accessibilityRole: AccessibilityRole? { .menu }
    override var defaultAccessibilityLabel: String? { menu.title.isEmpty ? nil : menu.title }

    override var accessibilityElements: [Any]? {
        get { rows.indices.compactMap(itemElement(at:)) }
        set { super.accessibilityElements = newValue }
    }

    func itemElement(at row: Int) -> MenuItemElement? {
        guard rows.indices.contains(row), case .item = rows[row] else { return nil }
        if let element = itemElements?[row] { return element }
        let element = MenuItemElement(menuView: self, row: row)
        itemElements?[row] = element
        if itemElements == nil { itemElements = [row: element] }
        return element
    }

    var highlightedRow: Int? { highlighted }

    /// The element of row `row`, when it is an item.
    func element(ofRow row: Int) -> MenuElement? {
        guard rows.indices.contains(row), case let .item(element, _) = rows[row] else { return nil }
        return element
    }

    /// Deferred elements' elements, as they loaded for this menu.
    private var deferredLoaded: [ObjectIdentifier: [MenuElement]] = [:]
    private var deferredLoading: Set<ObjectIdentifier> = []

    private func append(_ group: Menu, depth: Int) {
        append(group.children, of: group, depth: depth)
    }

    private func append(_ children: [MenuElement], of group: Menu, depth: Int) {
        for child in children {
            if let deferred = child as? DeferredMenuElement {
                guard depth < Self.maximumInlineDepth else { continue }
                if let elements = deferredElements(deferred) {
                    append(elements, of: group, depth: depth + 1)
                } else {
                    rows.append(.item(deferred, group: group))   // "Loading…", dimmed
                }
                continue
            }
            if let action = child as? MenuAction, action.attributes.contains(.hidden) { continue }
            if let inline = child as? Menu, inline.options.contains(.displayInline) {
                guard depth < Self.maximumInlineDepth else { continue }
                if !rows.isEmpty, !isSeparator(rows.count - 1) { rows.append(.separator) }
                if !inline.title.isEmpty { rows.append(.header(inline.title)) }
                let before = rows.count
                append(inline, depth: depth + 1)
                if rows.count > before { rows.append(.separator) }
                continue
            }
            rows.append(.item(child, group: group))
        }
    }

    /// A deferred element's elements for this menu, loading them the first time.
    private func deferredElements(_ d: DeferredMenuElement) -> [MenuElement]? {
        let id = ObjectIdentifier(d)
        if let loaded = deferredLoaded[id] { return loaded }
        guard !deferredLoading.contains(id) else { return nil }
        if let now = d.load(then: { [weak self] elements in
            guard let self else { return }   // the menu closed first
            deferredLoading.remove(id)
            deferredLoaded[id] = elements
            reloadRows()
            session?.levelChangedSize(self)
        }) {
            deferredLoaded[id] = now
            return now
        }
        deferredLoading.insert(id)
        return nil
    }

    private func isSeparator(_ i: Int) -> Bool { if case .separator = rows[i] { true } else { false } }

    private static func height(of row: Row) -> Double {
        switch row {
        case .header: headerHeight
        case .item: rowHeight
        case .separator: separatorHeight
        }
    }

    /// Whether row `i` can be chosen (an item that is not disabled).
    func isChoosable(_ i: Int) -> Bool {
        guard i >= 0, i < rows.count, case let .item(element, _) = rows[i], !(element is DeferredMenuElement) else { return false }
        if let edit = (element as? KeyCommand)?.editAction { return session?.canSend(edit) ?? false }
        return !((element as? MenuAction)?.attributes.contains(.disabled) ?? false)
    }

    /// The size that shows every row (the session caps the height; the popup may be
    /// shrunk further by the compositor, and the rows scroll).
    func preferredSize() -> Size {
        let measure = Label(frame: .zero)
        measure.font = Self.font
        var widest = 0.0
        for row in rows.prefix(Self.measuredRows) {
            switch row {
            case let .header(t):
                measure.text = t
                widest = max(widest, measure.intrinsicContentSize.width)
            case let .item(element, _):
                measure.text = element.title
                var w = measure.intrinsicContentSize.width
                if let shortcut = MenuRowView.trailingText(for: element) {
                    measure.text = shortcut
                    w += 24 + measure.intrinsicContentSize.width
                }
                widest = max(widest, w)
            case .separator: break
            }
        }
        return Size(width: min(480, max(160, (MenuRowView.leading + widest + MenuRowView.trailing).rounded(.up))),
                    height: contentSize.height)
    }

    /// The row at a point of the content (nil between rows or outside).
    func row(at p: Point) -> Int? {
        guard p.x >= 0, p.x < bounds.width, let last = tops.last, p.y >= tops[0], p.y < last else { return nil }
        var lo = 0, hi = rows.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if tops[mid] <= p.y { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Row `i`'s frame in the content.
    func frame(ofRow i: Int) -> Rect {
        Rect(x: 0, y: tops[i], width: bounds.width, height: tops[i + 1] - tops[i])
    }

    // MARK: Rows on screen

    override func layoutSubviews() {
        super.layoutSubviews()
        contentSize = Size(width: bounds.width, height: (tops.last ?? 0) + Self.padding)
        updateVisibleRows()
    }

    override func didScroll() {
        super.didScroll()
        updateVisibleRows()
    }

    /// Gives the rows in view a view each, reusing the ones that scrolled out.
    private func updateVisibleRows() {
        guard !rows.isEmpty, bounds.height > 0 else {
            for v in rowViews { v.isHidden = true }
            return
        }
        let top = row(at: Point(x: 0, y: max(tops[0], contentOffset.y))) ?? 0
        var visible: [Int] = []
        var i = top
        while i < rows.count, tops[i] < contentOffset.y + bounds.height {
            visible.append(i)
            i += 1
        }
        while rowViews.count < visible.count {
            let v = MenuRowView()
            rowViews.append(v)
            insertSubview(v, at: 0)
        }
        View.performWithoutAnimation {
            for (k, v) in rowViews.enumerated() {
                guard k < visible.count else { v.isHidden = true; continue }
                let r = visible[k]
                v.isHidden = false
                v.frame = frame(ofRow: r)
                v.show(rows[r], highlighted: r == highlighted, enabled: isChoosable(r))
            }
        }
    }

    // MARK: Input

    override var canBecomeFirstResponder: Bool { true }

    private func pointerOver(_ i: Int?) {
        guard let i, isChoosable(i) else { return }
        highlighted = i
        session?.pointerRested(onLevel: level, row: i)
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        if let t = touches.first, let i = row(at: t.location(in: self)), isChoosable(i) { highlighted = i }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        guard !isDragging, let t = touches.first, let i = row(at: t.location(in: self)) else { return }
        session?.choose(onLevel: level, row: i)
    }

    override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard let key = presses.first?.key, session?.isClosing == false else { return }
        // Right to left, submenus open to the left: the arrows swap (rule P3).
        let mirrored: [UInt32: UInt32] = [0xff53: 0xff51, 0xff51: 0xff53]
        let keysym = effectiveUserInterfaceLayoutDirection == .rightToLeft ? mirrored[key.keysym] ?? key.keysym : key.keysym
        switch keysym {
        case 0xff52, 0xff97: moveHighlight(by: -1)                       // Up
        case 0xff54, 0xff99: moveHighlight(by: 1)                        // Down
        case 0xff50, 0xff95, 0xff55: highlightFirst(from: 0, step: 1)     // Home, Page Up
        case 0xff57, 0xff9c, 0xff56: highlightFirst(from: rows.count - 1, step: -1)   // End, Page Down
        case 0xff0d, 0xff8d, 0x20:                                        // Return, Enter, Space
            if let h = highlighted { session?.choose(onLevel: level, row: h) }
        case 0xff53:                                                      // Right
            if let h = highlighted { session?.openSubmenu(fromLevel: level, row: h, selectingFirst: true) }
        case 0xff51, Key.escape:                                          // Left, Escape
            if keysym == Key.escape || level > 0 { session?.close(level: level) }
        default:
            typeAhead(key.characters, time: event?.timestamp ?? 0)
        }
    }

    private func moveHighlight(by step: Int) {
        guard !rows.isEmpty else { return }
        let start = highlighted ?? (step > 0 ? -1 : rows.count)
        var i = start
        for _ in 0..<rows.count {
            i = (i + step + rows.count) % rows.count
            if isChoosable(i) { return highlightAndShow(i) }
        }
    }

    private func highlightFirst(from start: Int, step: Int) {
        var i = start
        while i >= 0, i < rows.count {
            if isChoosable(i) { return highlightAndShow(i) }
            i += step
        }
    }

    private func highlightAndShow(_ i: Int) {
        highlighted = i
        if bounds.height > 0 { scrollRectToVisible(frame(ofRow: i), animated: false) }
        session?.closeLevels(above: level)
    }

    /// Typing jumps to the next item whose title starts with what was typed
    /// (within a second of the last key; after that typing starts again).
    private func typeAhead(_ characters: String, time: Double) {
        guard let c = characters.first, !c.isWhitespace, c.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else { return }
        typed = time - typedAt > 1 ? String(c) : typed + String(c)
        typedAt = time
        let prefix = typed.lowercased()
        let from = typed.count == 1 ? (highlighted ?? -1) + 1 : (highlighted ?? 0)
        for k in 0..<rows.count {
            let i = (from + k) % rows.count
            if isChoosable(i), case let .item(element, _) = rows[i], element.title.lowercased().hasPrefix(prefix) {
                return highlightAndShow(i)
            }
        }
    }

    /// Highlights row `i` (a submenu's first item when it opens from the keyboard).
    func highlight(_ i: Int?) {
        guard let i else { highlighted = nil; return }
        if isChoosable(i) { highlightAndShow(i) }
    }

    /// Highlights the first item that can be chosen.
    func highlightFirstItem() { highlightFirst(from: 0, step: 1) }
}

/// A row of a menu: a checkmark column, the title, and a shortcut or a submenu's
/// chevron at the trailing edge; a header in smaller secondary text; a separator line.
@MainActor
final class MenuRowView: View {
    static let leading = 30.0
    static let trailing = 14.0
    private let check = Label(frame: .zero)
    private let title = Label(frame: .zero)
    private let detail = Label(frame: .zero)
    private let line = View(frame: .zero)

    init() {
        super.init(frame: .zero)
        isUserInteractionEnabled = false
        for l in [check, title, detail] {
            l.font = MenuView.font
            addSubview(l)
        }
        detail.textAlignment = .right
        line.backgroundColor = .separator
        addSubview(line)
    }

    /// What the trailing edge shows: a key command's shortcut, a submenu's chevron.
    static func trailingText(for element: MenuElement) -> String? {
        if element is Menu { return "›" }
        guard let command = element as? KeyCommand else { return nil }
        var s = ""
        if command.modifierFlags.contains(.control) { s += "Ctrl+" }
        if command.modifierFlags.contains(.alternate) { s += "Alt+" }
        if command.modifierFlags.contains(.shift) { s += "Shift+" }
        if command.modifierFlags.contains(.command) { s += "Super+" }
        let names = [KeyCommand.inputEscape: "Esc", KeyCommand.inputUpArrow: "↑", KeyCommand.inputDownArrow: "↓",
                     KeyCommand.inputLeftArrow: "←", KeyCommand.inputRightArrow: "→", KeyCommand.inputReturn: "Return",
                     KeyCommand.inputTab: "Tab"]
        return s + (names[command.input] ?? command.input.uppercased())
    }

    func show(_ row: MenuView.Row, highlighted: Bool, enabled: Bool) {
        let b = bounds
        switch row {
        case .separator:
            (check.isHidden, title.isHidden, detail.isHidden, line.isHidden) = (true, true, true, false)
            line.frame = Rect(x: 8, y: (b.height / 2).rounded(.down), width: max(0, b.width - 16), height: 1)
            backgroundColor = nil
        case let .header(text):
            (check.isHidden, title.isHidden, detail.isHidden, line.isHidden) = (true, false, true, true)
            title.text = text
            title.font = Font.systemFont(ofSize: 12, weight: .semibold)
            title.textColor = .secondaryLabel
            title.textAlignment = effectiveUserInterfaceLayoutDirection == .rightToLeft ? .right : .left
            title.frame = Rect(x: 12, y: 0, width: max(0, b.width - 24), height: b.height)
            backgroundColor = nil
        case let .item(element, group):
            (check.isHidden, title.isHidden, detail.isHidden, line.isHidden) = (false, false, false, true)
            let action = element as? MenuAction
            let destructive = (action?.attributes.contains(.destructive) ?? false) || group.options.contains(.destructive)
                || ((element as? Menu)?.options.contains(.destructive) ?? false)
            let color: Color = !enabled ? .systemGray : highlighted ? .white : destructive ? .systemRed : .label
            check.text = switch action?.state { case .on?: "✓"; case .mixed?: "–"; default: "" }
            check.textColor = color
            check.textAlignment = .center
            title.text = element.title
            title.font = MenuView.font
            title.textColor = color
            let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
            detail.text = Self.trailingText(for: element)   // a submenu's "›" is mirrored by bidi in a right-to-left row
            detail.textColor = highlighted && enabled ? .white : .secondaryLabel
            let detailWidth = detail.text == nil ? 0.0 : detail.intrinsicContentSize.width
            // Leading to trailing: the check column, the title, the shortcut or chevron (mirrored right to left, rule P3).
            let titleWidth = max(0, b.width - Self.leading - Self.trailing - detailWidth - (detailWidth > 0 ? 8 : 0))
            func placed(_ x: Double, _ width: Double) -> Rect { mirroredForLayoutDirection(Rect(x: x, y: 0, width: width, height: b.height)) }
            check.frame = placed(6, 20)
            detail.frame = placed(b.width - Self.trailing - detailWidth, detailWidth)
            detail.textAlignment = rightToLeft ? .left : .right
            title.textAlignment = rightToLeft ? .right : .left   // at the leading edge, whatever the title's script
            title.frame = placed(Self.leading, titleWidth)
            backgroundColor = highlighted && enabled ? .systemBlue : nil
        }
    }
}
