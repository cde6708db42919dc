/// What a ``ListView`` shows (`UITableViewDataSource`).
@MainActor
public protocol ListDataSource: AnyObject {
    func numberOfRows(in list: ListView) -> Int
    /// Fills a (possibly reused) cell for a row.
    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int)
}

/// A vertical list of rows of one height that shows any number of rows by
/// reusing a few row views (`UITableView`): only the rows in view (and one
/// beyond each end) have a ``ListCell``. ``insertRows(at:animated:)`` and
/// ``deleteRows(at:animated:)`` animate the other rows into place and fade the
/// changed ones in or out. A swipe to the left (right to left: to the right) on a row offers to delete it
/// (``onDeleteRow``); a tap selects it (``onSelectRow``), and the selection stays
/// until deselected, as in UIKit (an app that pushes details on a tap deselects
/// the row). From the keyboard the list is one Tab stop: the arrows, Home, End
/// and Page Up/Down move a focused row, Return selects it, Space toggles its
/// switch (or selects it), Delete deletes it.
@MainActor
public final class ListView: ScrollView {
    // A list of its rows, each an element made when asked for (rule Y1; ListView+Accessibility).
    override var defaultAccessibilityContainerType: AccessibilityContainerType { .list }
    override var accessibilityRole: AccessibilityRole? { .list }
    /// Focus events name the focused row's element while the list has the focus.
    override var accessibilityFocusObject: AnyObject { focusedRow.map(rowElement(_:)) ?? self }

    public weak var dataSource: ListDataSource? { didSet { reloadData() } }
    /// The height of every row: at least ``minimumRowHeight``; a smaller, NaN or
    /// infinite height is refused with a diagnostic and the old one kept.
    public var rowHeight = 44.0 {
        didSet {
            if !(rowHeight.isFinite && rowHeight >= Self.minimumRowHeight) {
                Diagnostics.report(.invalidView("ListView rowHeight \(rowHeight) refused (at least \(Self.minimumRowHeight) point); it stays \(oldValue)"))
                rowHeight = oldValue
            }
            reloadData()
        }
    }
    /// The shortest row: one point, a pixel or more at every scale. Shorter rows
    /// would make a cell per sub-pixel.
    public static let minimumRowHeight = 1.0
    /// Outside a window nothing of a list is shown: it makes cells for at most
    /// this much of its height (enough for code that reads cells before the list
    /// is shown; 16,384 points of 1-point rows took seconds, found by the fuzzer).
    static let heightShownOutsideAWindow = 1_024.0
    /// A row was selected by a tap, the keyboard or an assistive technology
    /// (`tableView(_:didSelectRowAt:)`); not called for ``selectRow(_:animated:)``.
    public var onSelectRow: ((ListView, Int) -> Void)?
    /// A row was deselected by a tap (in a list that allows several selected rows)
    /// or an assistive technology (`tableView(_:didDeselectRowAt:)`).
    public var onDeselectRow: ((ListView, Int) -> Void)?
    /// A row was swiped away, or deleted from the keyboard or by an assistive
    /// technology: update the data and call ``deleteRows(at:animated:)``.
    public var onDeleteRow: ((ListView, Int) -> Void)?

    /// Whether a tap selects a row (`allowsSelection`): when false rows are not
    /// selected and ``onSelectRow`` is not called.
    public var allowsSelection = true {
        didSet { if !allowsSelection { setSelection([], animated: false) } }
    }
    /// Whether several rows can be selected at once (`allowsMultipleSelection`):
    /// a tap then selects a row or, on a selected row, deselects it.
    public var allowsMultipleSelection = false {
        didSet { if !allowsMultipleSelection, selection.count > 1 { setSelection([selection.min()!], animated: false) } }
    }
    /// The selected row, the first of them when several are (`indexPathForSelectedRow`).
    public var selectedRow: Int? { selection.min() }
    /// The selected rows, top to bottom (`indexPathsForSelectedRows`).
    public var selectedRows: [Int] { selection.sorted() }
    /// The row the keyboard is on while the list has the focus.
    public private(set) var focusedRow: Int?
    private var selection: Set<Int> = []
    /// The rows' elements an assistive technology has asked for (ListView+Accessibility).
    var rowElements: [Int: ListRowElement] = [:]
    /// The row the off-screen cell holds now.
    var offscreenCellRow: Int?
    /// A cell outside the list, filled to read a row that has no cell of its own.
    lazy var offscreenCell: ListCell = {
        let cell = ListCell()
        cell.list = self
        return cell
    }()

    /// The rows the list knows of (the data source's count at the last reload or update).
    public private(set) var numberOfRows = 0
    /// Row views ever made: bounded by what fits on screen, not by the rows.
    public private(set) var cellsMade = 0
    private var visible: [Int: ListCell] = [:]
    private var reusable: [ListCell] = []

    public override init(frame: Rect) {
        super.init(frame: frame)
        alwaysBounceVertical = true
    }

    /// The cells on screen, top to bottom.
    public var visibleCells: [ListCell] { visible.sorted { $0.key < $1.key }.map(\.value) }

    /// The cell showing `row`, if it is in view.
    public func cellForRow(at row: Int) -> ListCell? { visible[row] }

    public func rectForRow(at row: Int) -> Rect {
        Rect(x: 0, y: Double(row) * rowHeight, width: bounds.width, height: rowHeight)
    }

    /// The row at a point (content coordinates), if any.
    public func row(at point: Point) -> Int? {
        let r = (point.y / rowHeight).rounded(.down)
        return r >= 0 && r < Double(numberOfRows) ? Int(r) : nil
    }

    /// Asks the data source again for everything; the selection is cleared, as
    /// UIKit's `reloadData` clears it.
    public func reloadData() {
        numberOfRows = max(0, dataSource?.numberOfRows(in: self) ?? 0)
        for cell in visible.values { recycle(cell) }
        visible = [:]
        selection = []
        focusedRow = focusedRow.map { min($0, numberOfRows - 1) }.flatMap { $0 >= 0 ? $0 : nil }
        forgetRowElements()
        updateContentSize()
        layoutRows()
    }

    public func scrollToRow(_ row: Int, animated: Bool) {
        guard row >= 0, row < numberOfRows else { return }
        scrollRectToVisible(rectForRow(at: row), animated: animated)
    }

    // MARK: Showing rows

    public override func didScroll() { layoutRows() }

    public override func layoutSubviews() {
        super.layoutSubviews()
        for (row, cell) in visible where cell.frame != rectForRow(at: row) {
            View.performWithoutAnimation { cell.frame = rectForRow(at: row) }
        }
        layoutRows()
    }

    /// The rows in view, one more at each end: those under the part of the list
    /// its window shows (a list far taller than its window makes cells for what
    /// can be seen, not for its whole height). Worked out in floating point and
    /// held to the rows there are, so no geometry traps converting to `Int`.
    private var rowsInView: Range<Int> {
        guard numberOfRows > 0, rowHeight > 0 else { return 0..<0 }
        var shown = bounds
        if let root = window?.rootView, root !== self {
            shown = shown.intersection(convert(root.bounds, from: root))
        } else {
            shown.size.height = min(shown.height, Self.heightShownOutsideAWindow)
        }
        guard !shown.isNull, shown.minY.isFinite, shown.maxY.isFinite else { return 0..<0 }
        let rows = Double(numberOfRows)
        let first = min(rows, max(0, (shown.minY / rowHeight).rounded(.down) - 1))
        // No more rows than the window has pixel rows (a list scaled down by its
        // transform still shows at most one row per pixel; found by the app fuzzer).
        let pixels = ((window?.size.height ?? Self.heightShownOutsideAWindow) * max(1, contentScaleFactor)).rounded(.up)
        let last = min(rows, first + pixels + 2, max(first, (shown.maxY / rowHeight).rounded(.up) + 1))
        return Int(first)..<Int(last)
    }

    /// Gives each row in view a cell, and takes cells from rows out of view.
    private func layoutRows(placing: ((Int) -> Rect)? = nil) {
        let wanted = rowsInView
        for (row, cell) in visible where !wanted.contains(row) {
            visible[row] = nil
            recycle(cell)
        }
        for row in wanted where visible[row] == nil {
            let cell = dequeue()
            cell.row = row
            View.performWithoutAnimation {
                cell.frame = placing?(row) ?? rectForRow(at: row)
                cell.isHidden = false
                cell.layoutIfNeeded()
            }
            dataSource?.listView(self, configure: cell, forRow: row)
            visible[row] = cell
            showState(of: cell)
        }
    }

    /// Shows on a cell whether its row is selected and has the keyboard focus.
    private func showState(of cell: ListCell, animated: Bool = false) {
        View.animate(duration: animated ? 0.25 : 0) {
            cell.isSelected = self.selection.contains(cell.row)
        }
        cell.showsFocus = isFirstResponder && focusedRow == cell.row
    }

    private func dequeue() -> ListCell {
        if let cell = reusable.popLast() { return cell }
        let cell = ListCell()
        cell.list = self
        cellsMade += 1
        insertSubview(cell, at: 0)
        return cell
    }

    private func recycle(_ cell: ListCell) {
        cell.prepareForReuse()
        View.performWithoutAnimation { cell.isHidden = true }
        reusable.append(cell)
    }

    private func updateContentSize() {
        contentSize = Size(width: bounds.width, height: Double(numberOfRows) * rowHeight)
    }

    // MARK: Animated updates

    /// Rows were inserted into the data (at these indices, after the insertion):
    /// the rows below move down and the new ones fade in. The data source must
    /// already count them; a count that disagrees reloads everything instead,
    /// with a diagnostic (UIKit raises an exception there).
    public func insertRows(at rows: [Int], animated: Bool) {
        let inserted = Set(rows).sorted()
        let newCount = dataSource?.numberOfRows(in: self) ?? 0
        guard newCount == numberOfRows + inserted.count, inserted.allSatisfy({ $0 >= 0 && $0 < newCount }) else {
            return inconsistentUpdate("insertRows(at: \(rows))", expected: numberOfRows + inserted.count, got: newCount)
        }
        update(newCount: newCount, animated: animated, appearing: Set(inserted), disappearing: []) { old in
            var new = old
            for i in inserted where i <= new { new += 1 }
            return new
        }
    }

    /// Rows were deleted from the data (at these indices, before the deletion):
    /// they fade out and the rows below move up. The data source must already
    /// not count them (else everything reloads, with a diagnostic).
    public func deleteRows(at rows: [Int], animated: Bool) {
        let deleted = Set(rows)
        let newCount = dataSource?.numberOfRows(in: self) ?? 0
        guard newCount == numberOfRows - deleted.count, deleted.allSatisfy({ $0 >= 0 && $0 < numberOfRows }) else {
            return inconsistentUpdate("deleteRows(at: \(rows))", expected: numberOfRows - deleted.count, got: newCount)
        }
        update(newCount: newCount, animated: animated, appearing: [], disappearing: deleted) { old in
            deleted.contains(old) ? nil : old - deleted.filter { $0 < old }.count
        }
    }

    private func inconsistentUpdate(_ what: String, expected: Int, got: Int) {
        Diagnostics.report(.invalidView("ListView \(what): the data source has \(got) rows where \(expected) were expected (or a row is out of range); reloaded instead"))
        reloadData()
    }

    /// Moves the cells in view to their rows' new places (animated), fading out
    /// the cells of deleted rows and fading in those of inserted ones.
    private func update(newCount: Int, animated: Bool, appearing: Set<Int>, disappearing: Set<Int>, map: (Int) -> Int?) {
        let oldCount = numberOfRows
        let focusedElement = focusedRow.flatMap { rowElements[$0] }
        var leaving: [ListCell] = []
        var moved: [Int: ListCell] = [:]
        for (old, cell) in visible {
            if let new = map(old) {
                cell.row = new
                moved[new] = cell
            } else {
                leaving.append(cell)
            }
        }
        numberOfRows = newCount
        visible = moved
        selection = Set(selection.compactMap(map))
        focusedRow = focusedRow.flatMap { map($0) ?? min($0, newCount - 1) }.flatMap { $0 >= 0 ? $0 : nil }
        moveRowElements(map)
        // The focused row went, or another took its place: the focus is on the row now there.
        if isFirstResponder, let row = focusedRow, rowElements[row] !== focusedElement {
            Application.shared.accessibilityExporter?.focusMoved(from: focusedElement, to: rowElement(row))
        }
        updateContentSize()
        // Rows that come into view start from where they were before the change.
        let range = rowsInView
        var oldY: [Int: Double] = [:]
        for old in max(0, range.lowerBound - appearing.count)..<max(0, min(oldCount, range.upperBound + disappearing.count)) {
            if let new = map(old) { oldY[new] = Double(old) * rowHeight }
        }
        layoutRows { [rowHeight, bounds] row in
            let y = appearing.contains(row) ? Double(row) * rowHeight : oldY[row] ?? Double(row) * rowHeight
            return Rect(x: 0, y: y, width: bounds.width, height: rowHeight)
        }
        for cell in visible.values { showState(of: cell) }
        for row in appearing { if let cell = visible[row] { View.performWithoutAnimation { cell.alpha = 0 } } }
        View.animate(duration: animated ? 0.3 : 0, options: [.allowUserInteraction]) {
            for (row, cell) in self.visible {
                cell.frame = self.rectForRow(at: row)
                cell.alpha = 1
            }
            for cell in leaving { cell.alpha = 0 }
        } completion: { [weak self] _ in
            guard let self else { return }
            for cell in leaving where !self.visible.values.contains(where: { $0 === cell }) { self.recycle(cell) }
        }
    }

    // MARK: Selection

    /// Selects `row` (`selectRow(at:animated:scrollPosition:)`), deselecting
    /// the others unless several may be selected; nil deselects every row.
    /// ``onSelectRow`` is not called. Rows out of range are ignored.
    public func selectRow(_ row: Int?, animated: Bool) {
        guard let row else { return setSelection([], animated: animated) }
        guard allowsSelection, row >= 0, row < numberOfRows else { return }
        setSelection(allowsMultipleSelection ? selection.union([row]) : [row], animated: animated)
    }

    /// Deselects `row` (`deselectRow(at:animated:)`): animated, its colour fades.
    public func deselectRow(_ row: Int, animated: Bool) {
        setSelection(selection.subtracting([row]), animated: animated)
    }

    private func setSelection(_ rows: Set<Int>, animated: Bool) {
        guard rows != selection else { return }
        let changed = rows.symmetricDifference(selection)
        selection = rows
        for row in changed {
            if let cell = visible[row] { showState(of: cell, animated: animated) }
            if let element = rowElements[row] { Application.shared.accessibilityExporter?.changed(element, .states) }
        }
        Application.shared.accessibilityExporter?.selectionChanged(in: self)
    }

    /// A tap, Return, or an assistive technology chose `row`: selected (or, in
    /// a list of several, deselected when it was) and the app told.
    func didTap(row: Int) {
        guard allowsSelection, row >= 0, row < numberOfRows else { return }
        if allowsMultipleSelection, selection.contains(row) {
            didUntap(row: row)
        } else {
            selectRow(row, animated: false)
            onSelectRow?(self, row)
        }
    }

    /// A selected row was deselected by the person (or an assistive technology): the app is told.
    func didUntap(row: Int) {
        deselectRow(row, animated: false)
        onDeselectRow?(self, row)
    }

    /// Asks the app to delete `row` (a swipe, the Delete key, an assistive
    /// technology): false when the list does not delete rows.
    @discardableResult
    func requestDelete(row: Int) -> Bool {
        guard let onDeleteRow, row >= 0, row < numberOfRows else { return false }
        onDeleteRow(self, row)
        return true
    }

    // MARK: Keyboard

    public override var canBecomeFirstResponder: Bool { !isHidden && window != nil && numberOfRows > 0 }

    @discardableResult
    public override func becomeFirstResponder() -> Bool {
        if !isFirstResponder, focusedRow == nil { focusedRow = selectedRow ?? row(at: Point(x: 0, y: max(0, bounds.minY))) ?? 0 }
        let became = super.becomeFirstResponder()
        for cell in visible.values { showState(of: cell) }
        return became
    }

    @discardableResult
    public override func resignFirstResponder() -> Bool {
        let resigned = super.resignFirstResponder()
        for cell in visible.values { showState(of: cell) }
        return resigned
    }

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard let key = presses.first?.key, numberOfRows > 0 else { return super.pressesBegan(presses, with: event) }
        let row = focusedRow ?? 0
        // Rows a page holds, held to the rows there are before becoming an Int (a list
        // 10³⁰⁰ points tall trapped here; found by the app fuzzer).
        let perPage = (bounds.height / rowHeight).rounded(.down)
        let page = max(1, Int(min(Double(numberOfRows), perPage.isFinite ? max(0, perPage) : 1)) - 1)
        switch key.keysym {
        case 0xff52, 0xff97: focus(row: row - 1)                       // Up
        case 0xff54, 0xff99: focus(row: row + 1)                       // Down
        case 0xff50, 0xff95: focus(row: 0)                             // Home
        case 0xff57, 0xff9c: focus(row: numberOfRows - 1)              // End
        case 0xff55, 0xff9a: focus(row: row - page)                    // Page Up
        case 0xff56, 0xff9b: focus(row: row + page)                    // Page Down
        case 0xff0d, 0xff8d: didTap(row: row)                          // Return, Enter
        case 0x20:                                                     // Space: the row's switch, else select
            scrollToRow(row, animated: false)
            if let cell = cellForRow(at: row), cell.accessibilityTraits.contains(.toggleButton) { _ = cell.accessibilityToggle() } else { didTap(row: row) }
        case 0xffff, 0xff08: requestDelete(row: row)                   // Delete, BackSpace
        default: super.pressesBegan(presses, with: event)
        }
    }

    /// Moves the keyboard's row (clamped), scrolled into view.
    private func focus(row: Int) {
        let row = min(max(0, row), numberOfRows - 1)
        let old = focusedRow
        guard row != old else { return }
        focusedRow = row
        scrollToRow(row, animated: false)
        for cell in visible.values { showState(of: cell) }
        if isFirstResponder {
            Application.shared.accessibilityExporter?.focusMoved(from: old.map(rowElement(_:)), to: rowElement(row))
        }
    }
}
