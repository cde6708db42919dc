/// What a ``ListView`` shows (`UITableViewDataSource`). It is the list's
/// collection view data source: the two collection view questions are answered
/// from these (a list has one section; its cells are ``ListCell``s).
@MainActor
public protocol ListDataSource: CollectionViewDataSource {
    func numberOfRows(in list: ListView) -> Int
    /// Fills a (possibly reused) cell for a row.
    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int)
}

extension ListDataSource {
    /// The rows, in the list's one section; nothing in any other collection view.
    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        guard section == 0, let list = collectionView as? ListView else { return 0 }
        return numberOfRows(in: list)
    }

    /// A reused ``ListCell``, configured for its row.
    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: ListCell.reuseIdentifier, for: indexPath)
        if let list = collectionView as? ListView, let cell = cell as? ListCell {
            listView(list, configure: cell, forRow: indexPath.item)
        }
        return cell
    }
}

/// A vertical list of rows of one height that shows any number of rows by
/// reusing a few row views (`UITableView`): a ``CollectionView`` with a
/// ``CollectionViewListLayout`` of one section, so only the rows in view (and
/// one beyond each end) have a ``ListCell``. ``insertRows(at:animated:)`` and
/// ``deleteRows(at:animated:)`` animate the other rows into place and fade the
/// changed ones in or out (the collection view's updates, rule C4). A swipe to
/// the left (right to left: to the right) on a row offers to delete it
/// (``onDeleteRow``); a tap selects it (``onSelectRow``), and the selection stays
/// until deselected, as in UIKit (an app that pushes details on a tap deselects
/// the row). From the keyboard the list is one Tab stop: the arrows, Home, End
/// and Page Up/Down move a focused row, Return selects it, Space toggles its
/// switch (or selects it), Delete deletes it.
@MainActor
public final class ListView: CollectionView {
    // A list of its rows, each an element made when asked for (rule Y1; ListView+Accessibility).
    /// Focus events name the focused row's element while the list has the focus.
    override var accessibilityFocusObject: AnyObject { focusedRow.map(rowElement(_:)) ?? self }

    /// The height of every row (44 points to begin with; its list layout's): at
    /// least ``minimumRowHeight``; a smaller, NaN or infinite height is refused
    /// with a diagnostic and the old one kept.
    public var rowHeight: Double {
        get { rows.rowHeight }
        set {
            guard newValue.isFinite && newValue >= Self.minimumRowHeight else {
                return Diagnostics.report(.invalidView("ListView rowHeight \(newValue) refused (at least \(Self.minimumRowHeight) point); it stays \(rowHeight)"))
            }
            rows.rowHeight = newValue
        }
    }
    /// The shortest row: one point, a pixel or more at every scale. Shorter rows
    /// would make a cell per sub-pixel.
    public static let minimumRowHeight = 1.0
    /// A row was selected by a tap, the keyboard or an assistive technology
    /// (`tableView(_:didSelectRowAt:)`); not called for ``selectRow(_:animated:)``.
    public var onSelectRow: ((ListView, Int) -> Void)?
    /// A row was deselected by the person: tapped again in a list that allows
    /// several selected rows, or left for another row (`tableView(_:didDeselectRowAt:)`).
    public var onDeselectRow: ((ListView, Int) -> Void)?
    /// A row was swiped away, or deleted from the keyboard or by an assistive
    /// technology: update the data and call ``deleteRows(at:animated:)``.
    public var onDeleteRow: ((ListView, Int) -> Void)?

    /// The selected row, the first of them when several are (`indexPathForSelectedRow`).
    public var selectedRow: Int? { selectedRows.first }
    /// The selected rows, top to bottom (`indexPathsForSelectedRows`).
    public var selectedRows: [Int] { indexPathsForSelectedItems.map(\.item) }
    /// The row the keyboard is on while the list has the focus.
    public var focusedRow: Int? { focusedIndexPath?.item }
    /// The rows' elements an assistive technology has asked for (ListView+Accessibility).
    var rowElements: [Int: ListRowElement] = [:]
    /// The row the off-screen cell holds now.
    var offscreenCellRow: Int?
    /// A cell outside the list, filled to read a row that has no cell of its own.
    lazy var offscreenCell: ListCell = {
        let cell = ListCell()
        cell.collectionView = self
        return cell
    }()

    /// The rows the list knows of (the data source's count at the last reload or update).
    public var numberOfRows: Int { numberOfItems(inSection: 0) }
    /// Row views ever made: bounded by what fits on screen, not by the rows.
    public var cellsMade: Int { viewsMade }
    private let rows: CollectionViewListLayout

    public init(frame: Rect) {
        rows = CollectionViewListLayout()
        rows.rowHeight = 44
        super.init(frame: frame, collectionViewLayout: rows)
        register(ListCell.self, forCellWithReuseIdentifier: ListCell.reuseIdentifier)
    }

    /// The cell showing `row`, if it is in view.
    public func cellForRow(at row: Int) -> ListCell? { cellForItem(at: IndexPath(item: row, section: 0)) as? ListCell }

    public func rectForRow(at row: Int) -> Rect {
        layoutAttributesForItem(at: IndexPath(item: row, section: 0))?.frame
            ?? Rect(x: 0, y: Double(row) * rowHeight, width: bounds.width, height: rowHeight)
    }

    /// The row at a point (content coordinates), if any.
    public func row(at point: Point) -> Int? {
        indexPathForItem(at: Point(x: bounds.width / 2, y: point.y))?.item
    }

    /// Asks the data source again for everything; the selection is cleared, as
    /// UIKit's `reloadData` clears it.
    public override func reloadData() {
        super.reloadData()
        forgetRowElements()
    }

    public func scrollToRow(_ row: Int, animated: Bool) {
        scrollToItem(at: IndexPath(item: row, section: 0), animated: animated)
    }

    /// The rows under the part of the list its window shows, one more at each
    /// end — and no more rows than the window has pixel rows (a list scaled down
    /// by its transform still shows at most one row per pixel; found by the app fuzzer).
    override var shownRect: Rect {
        guard var shown = visibleContentRect else { return .zero }
        let pixels = ((window?.size.height ?? Self.heightShownOutsideAWindow) * max(1, contentScaleFactor)).rounded(.up)
        shown = shown.insetBy(dx: 0, dy: -rowHeight)
        shown.size.height = min(shown.height, (pixels + 2) * rowHeight)
        return shown
    }

    // MARK: Animated updates

    /// Rows were inserted into the data (at these indices, after the insertion):
    /// the rows below move down and the new ones fade in. The data source must
    /// already count them; a count that disagrees reloads everything instead,
    /// with a diagnostic (UIKit raises an exception there).
    public func insertRows(at rows: [Int], animated: Bool) {
        apply(Batch(inserted: Set(rows.map { IndexPath(item: $0, section: 0) })), animated: animated)
    }

    /// Rows were deleted from the data (at these indices, before the deletion):
    /// they fade out and the rows below move up. The data source must already
    /// not count them (else everything reloads, with a diagnostic).
    public func deleteRows(at rows: [Int], animated: Bool) {
        apply(Batch(deleted: Set(rows.map { IndexPath(item: $0, section: 0) })), animated: animated)
    }

    /// The rows' elements follow their rows; when the focused row went, or
    /// another took its place, assistive technologies hear the focus is on the row now there.
    override func applyUpdate(map: (IndexPath) -> IndexPath?, inserted: Set<IndexPath>, reloaded: Set<IndexPath>, animated: Bool,
                              completion: ((Bool) -> Void)? = nil) {
        let focusedElement = focusedRow.flatMap { rowElements[$0] }
        moveRowElements { map(IndexPath(item: $0, section: 0))?.item }
        super.applyUpdate(map: map, inserted: inserted, reloaded: reloaded, animated: animated, completion: completion)
        if isFirstResponder, let row = focusedRow, rowElements[row] !== focusedElement {
            Application.shared.accessibilityExporter?.focusMoved(from: focusedElement, to: rowElement(row))
        }
    }

    // MARK: Selection

    /// Selects `row` (`selectRow(at:animated:scrollPosition:)`), deselecting
    /// the others unless several may be selected; nil deselects every row.
    /// ``onSelectRow`` is not called. Rows out of range are ignored.
    public func selectRow(_ row: Int?, animated: Bool) {
        guard let row else { return selectItem(at: nil, animated: animated) }
        guard allowsSelection else { return }
        selectItem(at: IndexPath(item: row, section: 0), animated: animated)
    }

    /// Deselects `row` (`deselectRow(at:animated:)`): animated, its colour fades.
    public func deselectRow(_ row: Int, animated: Bool) {
        deselectItem(at: IndexPath(item: row, section: 0), animated: animated)
    }

    override func selectionChanged(_ changed: Set<IndexPath>) {
        for path in changed {
            if let element = rowElements[path.item] { Application.shared.accessibilityExporter?.changed(element, .states) }
        }
        Application.shared.accessibilityExporter?.selectionChanged(in: self)
    }

    override func didSelectItem(at path: IndexPath) {
        super.didSelectItem(at: path)
        onSelectRow?(self, path.item)
    }

    override func didDeselectItem(at path: IndexPath) {
        super.didDeselectItem(at: path)
        onDeselectRow?(self, path.item)
    }

    /// A tap, Return, or an assistive technology chose `row`: selected (or, in
    /// a list of several, deselected when it was) and the app told.
    func didTap(row: Int) { choose(IndexPath(item: row, section: 0)) }

    /// A selected row was deselected by the person (or an assistive technology): the app is told.
    func didUntap(row: Int) {
        guard selectedRows.contains(row) else { return }
        deselectRow(row, animated: false)
        didDeselectItem(at: IndexPath(item: row, section: 0))
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

    /// The focus starts on the selected row, else the first row in view.
    @discardableResult
    public override func becomeFirstResponder() -> Bool {
        if !isFirstResponder, focusedIndexPath == nil, let row = selectedRow ?? row(at: Point(x: 0, y: max(0, bounds.minY))) {
            focusedIndexPath = IndexPath(item: row, section: 0)
        }
        return super.becomeFirstResponder()
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
        guard row != focusedRow else { return }
        focus(IndexPath(item: row, section: 0))
    }
}
