// A list's rows to assistive technologies (rules Y1–Y4): one element per row,
// made only when asked for (100,000 rows are not 100,000 elements until read),
// read from the row's cell when it has one and from a cell filled off screen
// when it does not, as VoiceOver reads a table's rows beyond the screen.

extension ListView {
    /// The element of `row` (kept while the row is there: its identity follows
    /// the row through inserts and deletes above it).
    func rowElement(_ row: Int) -> ListRowElement {
        if let element = rowElements[row] { return element }
        let element = ListRowElement(list: self, row: row)
        rowElements[row] = element
        return element
    }

    /// The rows went away with a reload: their elements are defunct.
    func forgetRowElements() {
        rowElements = [:]
        offscreenCellRow = nil
        Application.shared.accessibilityExporter?.changed(self, .children)
    }

    /// Rows were inserted or deleted: `map` takes an old row to its new one (nil: deleted).
    func moveRowElements(_ map: (Int) -> Int?) {
        var moved: [Int: ListRowElement] = [:]
        for (old, element) in rowElements {
            guard let new = map(old) else { continue }
            element.row = new
            moved[new] = element
        }
        rowElements = moved
        offscreenCellRow = nil
        Application.shared.accessibilityExporter?.changed(self, .children)
    }

    /// The cell showing `row`, or the off-screen cell filled with it (once for
    /// all the properties read of one row, until the rows change).
    func cellForReading(_ row: Int) -> ListCell {
        if let cell = cellForRow(at: row) { return cell }
        if offscreenCellRow != row {
            offscreenCell.row = row
            offscreenCell.accessoryView = nil
            (dataSource as? ListDataSource)?.listView(self, configure: offscreenCell, forRow: row)
            offscreenCellRow = row
        }
        offscreenCell.isSelected = selectedRows.contains(row)
        return offscreenCell
    }

    /// The cell of `row`, scrolled into view so it is a real one: acting on a
    /// row acts on what the person would see.
    func cellForActing(_ row: Int) -> ListCell? {
        if cellForRow(at: row) == nil {
            scrollToRow(row, animated: false)
            layoutIfNeeded()
        }
        return cellForRow(at: row)
    }

    /// The row elements whose row is selected, top to bottom.
    var selectedRowElements: [ListRowElement] { selectedRows.map(rowElement(_:)) }
}

/// One row of a ``ListView`` to assistive technologies: a list item named by
/// its cell, selected with the row, with the cell's toggle and Delete.
@MainActor
final class ListRowElement: AccessibilityElement {
    private weak var list: ListView?
    var row: Int

    init(list: ListView, row: Int) {
        self.list = list
        self.row = row
        super.init(accessibilityContainer: list)
    }

    private var cell: ListCell? { list.map { $0.cellForReading(row) } }

    override var accessibilityRole: AccessibilityRole? { .listItem }
    override var accessibilityLabel: String? {
        get { cell?.accessibilityLabel }
        set {}
    }
    override var accessibilityValue: String? {
        get { cell?.accessibilityValue }
        set {}
    }
    override var accessibilityHint: String? {
        get { cell?.accessibilityHint }
        set {}
    }
    override var accessibilityTraits: AccessibilityTraits {
        get { (cell?.accessibilityTraits ?? []).union(list?.selectedRows.contains(row) == true ? .selected : []) }
        set {}
    }
    override var accessibilityCustomActions: [AccessibilityCustomAction]? {
        get { cell?.accessibilityCustomActions }
        set {}
    }
    override var accessibilityFrame: Rect {
        get { list.map { $0.convert($0.rectForRow(at: row), to: nil) } ?? .zero }
        set {}
    }
    override var accessibilityIsAttached: Bool { list.map { $0.rowElements[row] === self && row < $0.numberOfRows } ?? false }
    override var accessibilityIsShowing: Bool { list.map { $0.bounds.intersects($0.rectForRow(at: row)) } ?? false }
    override var accessibilityIsFocusable: Bool { list?.canBecomeFirstResponder ?? false }
    override var accessibilityIsFocused: Bool { list.map { $0.isFirstResponder && $0.focusedRow == row } ?? false }

    override func accessibilityActivate() -> Bool { list?.cellForActing(row)?.accessibilityActivate() ?? false }
    override func accessibilityToggle() -> Bool { list?.cellForActing(row)?.accessibilityToggle() ?? false }
}
