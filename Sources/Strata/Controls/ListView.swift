/// What a ``ListView`` shows (`UITableViewDataSource`).
@MainActor
public protocol ListDataSource: AnyObject {
    func numberOfRows(in list: ListView) -> Int
    /// Fills a (possibly reused) cell for a row.
    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int)
}

/// A row of a list (`UITableViewCell`): a ``textLabel`` and an optional
/// ``accessoryView`` in its ``contentView``, which slides aside when the row is
/// swiped. Cells are reused: configure everything the row shows each time.
@MainActor
public final class ListCell: View {
    // A list item read by its text; activating it selects the row, and a list
    // that deletes rows offers Delete (rules Y2, Y4).
    override var defaultIsAccessibilityElement: Bool { true }
    override var defaultAccessibilityLabel: String? { textLabel.text }
    override var defaultAccessibilityValue: String? { (accessoryView?.isAccessibilityElement ?? false) ? accessoryView?.accessibilityValue : nil }
    override var accessibilityRole: AccessibilityRole? { .listItem }
    /// A switch in the row makes the row a toggle as well (UIKit reads a cell
    /// with a switch as one element whose activation flips it).
    override var defaultAccessibilityTraits: AccessibilityTraits {
        accessoryView.map { $0.isAccessibilityElement ? $0.accessibilityTraits.intersection(.toggleButton) : [] } ?? []
    }
    override func accessibilityToggle() -> Bool { accessoryView?.accessibilityActivate() ?? false }
    public override func accessibilityActivate() -> Bool {
        guard let list, let select = list.onSelectRow else { return false }
        select(list, row)
        return true
    }
    public override var accessibilityCustomActions: [AccessibilityCustomAction]? {
        get {
            guard let list, list.onDeleteRow != nil else { return super.accessibilityCustomActions }
            let delete = AccessibilityCustomAction(name: "Delete") { [weak self] _ in
                guard let self, let list = self.list else { return false }
                list.onDeleteRow?(list, self.row)
                return true
            }
            return (super.accessibilityCustomActions ?? []) + [delete]
        }
        set { super.accessibilityCustomActions = newValue }
    }

    public let contentView = View(frame: .zero)
    public let textLabel = Label(frame: .zero)
    /// A view at the trailing edge (a switch, say).
    public var accessoryView: View? {
        didSet {
            oldValue?.removeFromSuperview()
            if let accessoryView { contentView.addSubview(accessoryView) }
            setNeedsLayout()
        }
    }
    /// The row it shows now.
    public internal(set) var row = 0
    weak var list: ListView?
    private let separator = View(frame: .zero)
    private let deleteBackground = View(frame: .zero)
    private let deleteLabel = Label(frame: .zero)
    private lazy var swipe: PanGestureRecognizer = {
        let pan = PanGestureRecognizer { [weak self] in self?.swiped($0 as! PanGestureRecognizer) }
        pan.shouldBegin = { [weak self] r in
            guard let self else { return false }
            let t = (r as! PanGestureRecognizer).translation(in: self)
            return list?.onDeleteRow != nil && t.x * swipeSign > 0 && abs(t.x) > abs(t.y)
        }
        return pan
    }()

    init() {
        super.init(frame: .zero)
        clipsToBounds = true
        deleteBackground.backgroundColor = .systemRed
        deleteLabel.text = "Delete"
        deleteLabel.textColor = .white
        deleteLabel.textAlignment = .right
        deleteBackground.addSubview(deleteLabel)
        addSubview(deleteBackground)
        contentView.backgroundColor = .systemBackground
        addSubview(contentView)
        contentView.addSubview(textLabel)
        separator.backgroundColor = .separator
        addSubview(separator)
        addGestureRecognizer(swipe)
    }

    /// Which way a swipe to delete moves a row: left (−1), or right in a right-to-left list (+1; rule P3).
    private var swipeSign: Double { effectiveUserInterfaceLayoutDirection == .rightToLeft ? 1 : -1 }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let b = bounds
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        // Laid out leading to trailing, then mirrored right to left.
        let placed = mirroredForLayoutDirection
        View.performWithoutAnimation {
            deleteBackground.frame = b
            deleteLabel.frame = placed(Rect(x: 0, y: 0, width: b.width - 16, height: b.height))
            deleteLabel.textAlignment = rightToLeft ? .left : .right
            contentView.frame = Rect(x: contentView.frame.minX, y: 0, width: b.width, height: b.height)
            var trailing = b.width - 16
            if let accessory = accessoryView {
                let size = accessory.intrinsicContentSize
                let w = size.width > 0 ? size.width : accessory.bounds.width, h = size.height > 0 ? size.height : accessory.bounds.height
                accessory.frame = placed(Rect(x: trailing - w, y: ((b.height - h) / 2).rounded(), width: w, height: h))
                trailing -= w + 8
            }
            textLabel.frame = placed(Rect(x: 16, y: 0, width: max(0, trailing - 16), height: b.height))
            separator.frame = placed(Rect(x: 16, y: b.height - 0.5, width: b.width - 16, height: 0.5))
        }
    }

    // MARK: Selection: a tap on the row (not on a control in it)

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        contentView.backgroundColor = .systemGray5
    }
    public override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {}
    public override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        contentView.backgroundColor = .systemBackground
        if let t = touches.first, bounds.contains(t.location(in: self)) { list?.didSelect(self) }
    }
    public override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) {
        contentView.backgroundColor = .systemBackground
    }

    // MARK: Swipe to delete

    private func swiped(_ pan: PanGestureRecognizer) {
        let width = bounds.width
        switch pan.state {
        case .began, .changed:
            // Towards the trailing edge only: left, or right in a right-to-left list.
            let x = swipeSign < 0 ? min(0, pan.translation(in: self).x) : max(0, pan.translation(in: self).x)
            View.performWithoutAnimation { contentView.frame.origin.x = x }
        case .ended:
            let x = contentView.frame.minX
            let flung = pan.velocity(in: self).x * swipeSign > 600
            if abs(x) > width * 0.4 || flung {
                let away = width * swipeSign
                View.animate(duration: 0.2, options: [.curveEaseOut]) { self.contentView.frame.origin.x = away }
                list?.didSwipeToDelete(self)
            } else {
                View.animate(duration: 0.25) { self.contentView.frame.origin.x = 0 }
            }
        case .cancelled, .failed:
            View.animate(duration: 0.25) { self.contentView.frame.origin.x = 0 }
        default: break
        }
    }

    /// Back to rest for reuse.
    func prepareForReuse() {
        View.performWithoutAnimation {
            contentView.frame.origin.x = 0
            contentView.backgroundColor = .systemBackground
            alpha = 1
        }
    }
}

/// A vertical list of rows of one height that shows any number of rows by
/// reusing a few row views (`UITableView`): only the rows in view (and one
/// beyond each end) have a ``ListCell``. ``insertRows(at:animated:)`` and
/// ``deleteRows(at:animated:)`` animate the other rows into place and fade the
/// changed ones in or out. A swipe to the left (right to left: to the right) on a row offers to delete it
/// (``onDeleteRow``); a tap selects it (``onSelectRow``).
@MainActor
public final class ListView: ScrollView {
    // A list of its visible rows (rule Y1).
    override var defaultAccessibilityContainerType: AccessibilityContainerType { .list }
    override var accessibilityRole: AccessibilityRole? { .list }

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
    public var onSelectRow: ((ListView, Int) -> Void)?
    /// A row was swiped away: update the data and call ``deleteRows(at:animated:)``.
    public var onDeleteRow: ((ListView, Int) -> Void)?

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

    /// Asks the data source again for everything.
    public func reloadData() {
        numberOfRows = max(0, dataSource?.numberOfRows(in: self) ?? 0)
        for cell in visible.values { recycle(cell) }
        visible = [:]
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
        }
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

    // MARK: From the cells

    func didSelect(_ cell: ListCell) {
        onSelectRow?(self, cell.row)
    }

    func didSwipeToDelete(_ cell: ListCell) {
        onDeleteRow?(self, cell.row)
    }
}
