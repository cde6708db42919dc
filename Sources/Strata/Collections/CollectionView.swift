/// What a collection view shows (`UICollectionViewDataSource`).
@MainActor
public protocol CollectionViewDataSource: AnyObject {
    func numberOfSections(in collectionView: CollectionView) -> Int
    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int
    /// A cell for the item, from ``CollectionView/dequeueReusableCell(withReuseIdentifier:for:)``.
    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell
    /// A header or footer, from ``CollectionView/dequeueReusableSupplementaryView(ofKind:withReuseIdentifier:for:)``; nil: none.
    func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView?
}

extension CollectionViewDataSource {
    public func numberOfSections(in collectionView: CollectionView) -> Int { 1 }
    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView? { nil }
}

/// What a collection view tells and asks about selection (`UICollectionViewDelegate`).
@MainActor
public protocol CollectionViewDelegate: AnyObject {
    func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool
    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath)
    func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath)
}

extension CollectionViewDelegate {
    public func collectionView(_ collectionView: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { true }
    public func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {}
    public func collectionView(_ collectionView: CollectionView, didDeselectItemAt indexPath: IndexPath) {}
}

/// Items in sections, placed by a layout, scrolled, with cells made only for
/// what is in view and reused (`UICollectionView`). Updates —
/// ``performBatchUpdates(_:completion:)`` or a diffable data source's `apply` —
/// move the cells in view to their new places, fade inserted ones in and deleted
/// ones out (rule C4). Selection by click or tap, and from the keyboard: the arrow
/// keys move the focus (up and down by place in a grid), Return or Space selects.
/// Not open: ``ListView`` is the one subclass, the list of rows of one height.
@MainActor
public class CollectionView: ScrollView {
    public static let elementKindSectionHeader = "UICollectionElementKindSectionHeader"
    public static let elementKindSectionFooter = "UICollectionElementKindSectionFooter"

    /// The layout; setting it lays everything out again.
    public var collectionViewLayout: CollectionViewLayout {
        didSet {
            oldValue.collectionView = nil
            collectionViewLayout.collectionView = self
            collectionViewLayout.invalidateLayout()
        }
    }
    public weak var dataSource: CollectionViewDataSource? { didSet { reloadData() } }
    public weak var delegate: CollectionViewDelegate?
    /// Whether items can be selected (`allowsSelection`): turned off, the selection is cleared.
    public var allowsSelection = true {
        didSet { if !allowsSelection { setSelection([], animated: false) } }
    }
    /// Whether several items can be selected at once (`allowsMultipleSelection`):
    /// a click then selects an item or, on a selected one, deselects it.
    public var allowsMultipleSelection = false {
        didSet { if !allowsMultipleSelection, selection.count > 1 { setSelection([selection.min()!], animated: false) } }
    }

    /// Items per section, as the data source last said.
    private var counts: [Int] = []
    private var cells: [IndexPath: CollectionViewCell] = [:]
    private var supplementary: [SupplementaryKey: CollectionReusableView] = [:]
    private var reusable: [String: [CollectionReusableView]] = [:]
    private var cellClasses: [String: CollectionViewCell.Type] = [:]
    private var supplementaryClasses: [String: CollectionReusableView.Type] = [:]
    private var selection: Set<IndexPath> = []
    public internal(set) var focusedIndexPath: IndexPath?
    /// Cells and supplementary views made so far (reuse keeps this near a screenful).
    public private(set) var viewsMade = 0
    private var laidOutWidth: Double?

    private struct SupplementaryKey: Hashable { let kind: String; let indexPath: IndexPath }

    public init(frame: Rect, collectionViewLayout layout: CollectionViewLayout) {
        collectionViewLayout = layout
        super.init(frame: frame)
        layout.collectionView = self
        alwaysBounceVertical = true
    }

    public convenience override init(frame: Rect) {
        self.init(frame: frame, collectionViewLayout: CollectionViewFlowLayout())
    }

    override var defaultAccessibilityContainerType: AccessibilityContainerType { .list }
    override var accessibilityRole: AccessibilityRole? { .list }

    // MARK: Counts

    public var numberOfSections: Int { counts.count }
    public func numberOfItems(inSection section: Int) -> Int { counts.indices.contains(section) ? counts[section] : 0 }

    private func readCounts() -> [Int] {
        guard let dataSource else { return [] }
        let sections = max(0, min(dataSource.numberOfSections(in: self), 1_000_000))
        return (0..<sections).map { max(0, dataSource.collectionView(self, numberOfItemsInSection: $0)) }
    }

    private func isValid(_ path: IndexPath, in counts: [Int]? = nil) -> Bool {
        let counts = counts ?? self.counts
        return counts.indices.contains(path.section) && path.item >= 0 && path.item < counts[path.section]
    }

    /// `path`, or the last item of its section when it is past the end (the focus
    /// stays where it was when its item goes); nil when its section is empty or gone.
    private func nearestValid(_ path: IndexPath) -> IndexPath? {
        guard counts.indices.contains(path.section), counts[path.section] > 0 else { return nil }
        return IndexPath(item: min(max(0, path.item), counts[path.section] - 1), section: path.section)
    }

    // MARK: Registration and reuse

    /// The class made for `identifier` when no cell waits for reuse (`register(_:forCellWithReuseIdentifier:)`).
    public func register(_ cellClass: CollectionViewCell.Type, forCellWithReuseIdentifier identifier: String) {
        cellClasses[identifier] = cellClass
    }

    public func register(_ viewClass: CollectionReusableView.Type, forSupplementaryViewOfKind kind: String, withReuseIdentifier identifier: String) {
        supplementaryClasses[kind + "\u{0}" + identifier] = viewClass
    }

    /// A cell for the data source to configure: one that left the view, or a new
    /// one of the registered class (a plain ``CollectionViewCell`` if none was
    /// registered, with a diagnostic).
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionViewCell {
        if let cell = reusable[identifier]?.popLast() as? CollectionViewCell {
            cell.indexPath = indexPath
            return cell
        }
        if cellClasses[identifier] == nil {
            Diagnostics.report(.invalidView("CollectionView: no cell class registered for '\(identifier)'; a plain cell is used"))
            cellClasses[identifier] = CollectionViewCell.self
        }
        // Made at its place, as UIKit makes cells (constraints made in init see their size).
        let cell = cellClasses[identifier]!.init(frame: collectionViewLayout.layoutAttributesForItem(at: indexPath)?.frame.size.asRect ?? .zero)
        cell.reuseIdentifier = identifier
        cell.indexPath = indexPath
        cell.collectionView = self
        viewsMade += 1
        return cell
    }

    public func dequeueReusableSupplementaryView(ofKind kind: String, withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionReusableView {
        let key = kind + "\u{0}" + identifier
        if let view = reusable[key]?.popLast() {
            view.indexPath = indexPath
            return view
        }
        let view = (supplementaryClasses[key] ?? CollectionReusableView.self).init(frame: .zero)
        view.reuseIdentifier = key
        view.indexPath = indexPath
        view.collectionView = self
        viewsMade += 1
        return view
    }

    private func recycle(_ view: CollectionReusableView) {
        view.prepareForReuse()
        View.performWithoutAnimation { view.isHidden = true }
        reusable[view.reuseIdentifier ?? "", default: []].append(view)
    }

    // MARK: Asking about items

    /// The cells in view, in index-path order.
    public var visibleCells: [CollectionViewCell] { cells.sorted { $0.key < $1.key }.map(\.value) }
    public func indexPathsForVisibleItems() -> [IndexPath] { cells.keys.sorted() }
    public func cellForItem(at indexPath: IndexPath) -> CollectionViewCell? { cells[indexPath] }
    public func supplementaryView(forElementKind kind: String, at indexPath: IndexPath) -> CollectionReusableView? {
        supplementary[SupplementaryKey(kind: kind, indexPath: indexPath)]
    }
    public func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        collectionViewLayout.prepareIfNeeded()
        return collectionViewLayout.layoutAttributesForItem(at: indexPath)
    }
    /// The item at a point in the content, if any.
    public func indexPathForItem(at point: Point) -> IndexPath? {
        collectionViewLayout.prepareIfNeeded()
        return collectionViewLayout.layoutAttributesForElements(in: Rect(x: point.x, y: point.y, width: 0.001, height: 0.001))
            .first { $0.representedElementKind == nil && $0.frame.contains(point) }?.indexPath
    }

    public func scrollToItem(at indexPath: IndexPath, animated: Bool) {
        guard let a = layoutAttributesForItem(at: indexPath) else { return }
        scrollRectToVisible(a.frame, animated: animated)
    }

    // MARK: Loading and showing

    /// Asks the data source for everything again; the selection is cleared.
    public func reloadData() {
        counts = readCounts()
        for cell in cells.values { recycle(cell) }
        for view in supplementary.values { recycle(view) }
        cells = [:]
        supplementary = [:]
        selection = []
        focusedIndexPath = focusedIndexPath.flatMap(nearestValid)
        collectionViewLayout.itemsMoved { _ in nil }
        collectionViewLayout.invalidateLayout()
        showElements()
    }

    public override func didScroll() { showElements() }

    public override func layoutSubviews() {
        super.layoutSubviews()
        if laidOutWidth != bounds.width { collectionViewLayout.needsPrepare = true }
        showElements()
    }

    /// Outside a window nothing is shown: cells are made for at most this much of
    /// the view's height (enough for code that reads cells before the view is
    /// shown; 16,384 points of 1-point rows took seconds, found by the fuzzer).
    static let heightShownOutsideAWindow = 1_024.0

    /// What the window shows of the view (a view far taller than its window makes
    /// cells for what can be seen, not for its whole height); nil when nothing.
    var visibleContentRect: Rect? {
        var shown = bounds
        if let root = window?.rootView, root !== self { shown = shown.intersection(convert(root.bounds, from: root)) }
        else { shown.size.height = min(shown.height, Self.heightShownOutsideAWindow) }
        guard !shown.isNull, shown.minY.isFinite, shown.maxY.isFinite else { return nil }
        return shown
    }

    /// The part of the content cells are made for: what the window shows, and a little more.
    var shownRect: Rect { visibleContentRect?.insetBy(dx: 0, dy: -50) ?? .zero }

    /// Lays out, then gives each element in view a view and takes views from
    /// elements out of view; cells that size themselves are measured as they come.
    private func showElements(animatingFrom old: [IndexPath: Rect] = [:], appearing: Set<IndexPath> = []) {
        for _ in 0..<4 {   // self-sizing cells may move the layout a few times
            collectionViewLayout.prepareIfNeeded()
            laidOutWidth = bounds.width
            contentSize = collectionViewLayout.collectionViewContentSize
            let wanted = collectionViewLayout.layoutAttributesForElements(in: shownRect)
            var wantedCells: [IndexPath: CollectionViewLayoutAttributes] = [:], wantedViews: [SupplementaryKey: CollectionViewLayoutAttributes] = [:]
            for a in wanted {
                if let kind = a.representedElementKind { wantedViews[SupplementaryKey(kind: kind, indexPath: a.indexPath)] = a } else { wantedCells[a.indexPath] = a }
            }
            for (path, cell) in cells where wantedCells[path] == nil {
                cells[path] = nil
                recycle(cell)
            }
            for (key, view) in supplementary where wantedViews[key] == nil {
                supplementary[key] = nil
                recycle(view)
            }
            var remeasured = false
            for (path, a) in wantedCells.sorted(by: { $0.key < $1.key }) {
                if let cell = cells[path] {
                    if cell.frame != a.frame { cell.frame = a.frame }   // animates inside an update's block
                    continue
                }
                guard let dataSource else { break }
                let cell = dataSource.collectionView(self, cellForItemAt: path)
                cell.indexPath = path
                cell.collectionView = self
                place(cell, at: a, from: old[path], appearing: appearing.contains(path))
                cells[path] = cell
                cell.isSelected = selection.contains(path)
                cell.showsFocus = isFirstResponder && focusedIndexPath == path
                guard collectionViewLayout.sizesCellsToContent else { continue }
                let preferred = cell.preferredLayoutAttributesFitting(a)
                if collectionViewLayout.shouldInvalidateLayout(forPreferredLayoutAttributes: preferred, withOriginalAttributes: a) {
                    collectionViewLayout.preferredSizeMeasured(preferred.frame.size, at: path)
                    remeasured = true
                }
            }
            for (key, a) in wantedViews where supplementary[key] == nil {
                guard let view = dataSource?.collectionView(self, viewForSupplementaryElementOfKind: key.kind, at: key.indexPath) else { continue }
                view.indexPath = key.indexPath
                place(view, at: a, from: nil, appearing: false)
                supplementary[key] = view
            }
            for (key, view) in supplementary { if let a = wantedViews[key], view.frame != a.frame { view.frame = a.frame } }
            if !remeasured { return }
        }
    }

    private func place(_ view: CollectionReusableView, at a: CollectionViewLayoutAttributes, from old: Rect?, appearing: Bool) {
        View.performWithoutAnimation {
            if view.superview !== self { insertSubview(view, at: 0) }
            view.isHidden = a.isHidden
            view.frame = old ?? a.frame
            view.alpha = appearing ? 0 : a.alpha
            view.layer.zPosition = Double(a.zIndex)
            view.layoutIfNeeded()
        }
        if old != nil { view.frame = a.frame }         // inside an update's block: animates
        if appearing { view.alpha = a.alpha }
    }

    // MARK: Updates

    /// An update of the data already made: `map` takes each item's old place to its
    /// new one (nil: deleted); `inserted` and `reloaded` are new places. Cells in view
    /// move (animated when asked), new ones fade in, deleted ones fade out.
    func applyUpdate(map: (IndexPath) -> IndexPath?, inserted: Set<IndexPath>, reloaded: Set<IndexPath>, animated: Bool, completion: ((Bool) -> Void)? = nil) {
        let newCounts = readCounts()
        var oldFrames: [IndexPath: Rect] = [:]
        var leaving: [CollectionViewCell] = []
        var kept: [IndexPath: CollectionViewCell] = [:]
        // Where the items near the view were, so that those coming into view glide in
        // from there; items further off start where they will be.
        if animated {
            collectionViewLayout.prepareIfNeeded()
            let near = shownRect.insetBy(dx: 0, dy: -max(bounds.height, 200))
            for a in collectionViewLayout.layoutAttributesForElements(in: near) where a.representedElementKind == nil {
                if let new = map(a.indexPath) { oldFrames[new] = a.frame }
            }
        }
        for (old, cell) in cells {
            if let new = map(old), !reloaded.contains(new) {
                kept[new] = cell
                cell.indexPath = new
            } else {
                leaving.append(cell)
            }
        }
        selection = Set(selection.compactMap(map))
        let focused = focusedIndexPath
        collectionViewLayout.itemsMoved(map)
        counts = newCounts
        focusedIndexPath = focused.flatMap { map($0) ?? nearestValid($0) }
        cells = kept
        for view in supplementary.values { recycle(view) }
        supplementary = [:]
        collectionViewLayout.needsPrepare = true
        let work = {
            self.showElements(animatingFrom: oldFrames, appearing: inserted)
            for cell in leaving { cell.alpha = 0 }
        }
        View.animate(duration: animated ? 0.3 : 0, work) { [weak self] finished in
            for cell in leaving {
                cell.alpha = 1
                self?.recycle(cell)
            }
            completion?(finished)
        }
    }

    /// UIKit's batch updates: the data source is changed inside `updates` and the
    /// changes are told with ``insertItems(at:)``, ``deleteItems(at:)``,
    /// ``moveItem(at:to:)`` and ``reloadItems(at:)``; they animate together.
    public func performBatchUpdates(_ updates: () -> Void, completion: ((Bool) -> Void)? = nil) {
        batch = Batch()
        updates()
        let b = batch!
        batch = nil
        apply(b, animated: true, completion: completion)
    }

    /// Applies a batch of changes told of the data, or reloads everything with a
    /// diagnostic when the data source disagrees with them (UIKit raises an exception there).
    func apply(_ b: Batch, animated: Bool, completion: ((Bool) -> Void)? = nil) {
        let newCounts = readCounts()
        // Old places → new: deletions close their gaps, insertions open theirs, moves go where told.
        var expected = counts
        for d in b.deleted where expected.indices.contains(d.section) { expected[d.section] -= 1 }
        for i in b.inserted where expected.indices.contains(i.section) { expected[i.section] += 1 }
        for (from, to) in b.moved where expected.indices.contains(from.section) && expected.indices.contains(to.section) {
            expected[from.section] -= 1; expected[to.section] += 1
        }
        let inRange = b.deleted.allSatisfy { isValid($0) } && b.moved.allSatisfy { isValid($0.0) && isValid($0.1, in: newCounts) }
            && b.inserted.union(b.reloaded).allSatisfy { isValid($0, in: newCounts) }
        guard expected == newCounts, inRange else {
            Diagnostics.report(.invalidView("\(type(of: self)) batch update: the data source has \(newCounts) items per section where \(expected) were expected, or an item is out of range; reloaded instead"))
            reloadData()
            completion?(false)
            return
        }
        let movedFrom = Dictionary(b.moved.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a })
        let destinations = Set(b.moved.map(\.1)).union(b.inserted)
        var mapping: [IndexPath: IndexPath] = [:]
        for section in counts.indices {
            var survivors: [IndexPath] = []
            for item in 0..<counts[section] {
                let p = IndexPath(item: item, section: section)
                if !b.deleted.contains(p) && movedFrom[p] == nil { survivors.append(p) }
            }
            // Survivors fill the new section's places not taken by insertions and moves, in order.
            var next = 0
            for p in survivors {
                while destinations.contains(IndexPath(item: next, section: section)) { next += 1 }
                mapping[p] = IndexPath(item: next, section: section)
                next += 1
            }
        }
        for (from, to) in movedFrom { mapping[from] = to }
        applyUpdate(map: { mapping[$0] }, inserted: b.inserted, reloaded: b.reloaded, animated: animated, completion: completion)
    }

    struct Batch {
        var inserted: Set<IndexPath> = []
        var deleted: Set<IndexPath> = []
        var moved: [(IndexPath, IndexPath)] = []
        var reloaded: Set<IndexPath> = []
    }
    private var batch: Batch?

    public func insertItems(at indexPaths: [IndexPath]) { updateOrReload { $0.inserted.formUnion(indexPaths) } }
    public func deleteItems(at indexPaths: [IndexPath]) { updateOrReload { $0.deleted.formUnion(indexPaths) } }
    public func moveItem(at from: IndexPath, to: IndexPath) { updateOrReload { $0.moved.append((from, to)) } }
    public func reloadItems(at indexPaths: [IndexPath]) { updateOrReload { $0.reloaded.formUnion(indexPaths) } }

    /// Outside a batch, each call is a batch of its own.
    private func updateOrReload(_ change: (inout Batch) -> Void) {
        if batch != nil { return change(&batch!) }
        var b = Batch()
        change(&b)
        performBatchUpdates { batch = b }
    }

    // MARK: Selection

    public var indexPathsForSelectedItems: [IndexPath] { selection.sorted() }

    /// Selects an item (and scrolls to it when asked); nil deselects all. The delegate is not told, as in UIKit.
    public func selectItem(at indexPath: IndexPath?, animated: Bool, scrollToItem: Bool = false) {
        guard let indexPath else { return setSelection([], animated: animated) }
        guard isValid(indexPath) else { return }
        setSelection(allowsMultipleSelection ? selection.union([indexPath]) : [indexPath], animated: animated)
        if scrollToItem { self.scrollToItem(at: indexPath, animated: animated) }
    }

    public func deselectItem(at indexPath: IndexPath, animated: Bool) {
        setSelection(selection.subtracting([indexPath]), animated: animated)
    }

    private func setSelection(_ new: Set<IndexPath>, animated: Bool) {
        guard new != selection else { return }
        let changed = new.symmetricDifference(selection)
        selection = new
        View.animate(duration: animated ? 0.25 : 0) {
            for path in changed { self.cells[path]?.isSelected = new.contains(path) }
        }
        selectionChanged(changed)
    }

    /// The selection changed at these items (a list tells assistive technologies).
    func selectionChanged(_ changed: Set<IndexPath>) {}

    /// A click, tap or activation on a cell: UIKit's selection rules, the delegate told.
    func didTap(_ cell: CollectionViewCell) {
        guard let path = cell.indexPath, isValid(path) else { return }
        choose(path)
    }

    /// The person chose an item (a click, Return, an assistive technology): it is
    /// selected — or, where several may be, deselected when it was — and the app told.
    func choose(_ path: IndexPath) {
        guard allowsSelection, isValid(path) else { return }
        if allowsMultipleSelection && selection.contains(path) {
            deselectItem(at: path, animated: true)
            didDeselectItem(at: path)
            return
        }
        guard delegate?.collectionView(self, shouldSelectItemAt: path) ?? true else { return }
        let previous = allowsMultipleSelection ? [] : selection.subtracting([path])
        setSelection(allowsMultipleSelection ? selection.union([path]) : [path], animated: true)
        for p in previous.sorted() { didDeselectItem(at: p) }
        didSelectItem(at: path)
    }

    /// Tells the app an item was selected by the person (the delegate; a list's closures).
    func didSelectItem(at path: IndexPath) { delegate?.collectionView(self, didSelectItemAt: path) }
    func didDeselectItem(at path: IndexPath) { delegate?.collectionView(self, didDeselectItemAt: path) }

    // MARK: Keyboard

    public override var canBecomeFirstResponder: Bool { !isHidden && window != nil && counts.contains { $0 > 0 } }

    public override func becomeFirstResponder() -> Bool {
        // The item first, so the focus assistive technologies are told of is on it.
        if focusedIndexPath == nil { focusedIndexPath = firstItem }
        guard super.becomeFirstResponder() else { return false }
        showFocus()
        return true
    }

    public override func resignFirstResponder() -> Bool {
        guard super.resignFirstResponder() else { return false }
        showFocus()
        return true
    }

    private var firstItem: IndexPath? { counts.firstIndex { $0 > 0 }.map { IndexPath(item: 0, section: $0) } }
    private var lastItem: IndexPath? { counts.lastIndex { $0 > 0 }.map { IndexPath(item: counts[$0] - 1, section: $0) } }

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard let key = presses.first?.key, let focus = focusedIndexPath else { return super.pressesBegan(presses, with: event) }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        switch key.keysym {
        case 0xff53, 0xff98: move(from: focus, by: rtl ? -1 : 1)                 // Right
        case 0xff51, 0xff96: move(from: focus, by: rtl ? 1 : -1)                 // Left
        case 0xff54, 0xff99: moveVertically(from: focus, down: true)             // Down
        case 0xff52, 0xff97: moveVertically(from: focus, down: false)            // Up
        case 0xff50, 0xff95: if let first = firstItem { self.focus(first) }       // Home
        case 0xff57, 0xff9c: if let last = lastItem { self.focus(last) }          // End
        case 0xff0d, 0xff8d, 0x20: choose(focus)                                // Return, Enter, Space
        default: super.pressesBegan(presses, with: event)
        }
    }

    /// The next (or previous) item in reading order, across sections; stays at the ends.
    private func move(from path: IndexPath, by step: Int) {
        var s = path.section, i = path.item + step
        while counts.indices.contains(s), !(0..<counts[s]).contains(i) {
            s += step
            guard counts.indices.contains(s) else { return }
            i = step > 0 ? 0 : counts[s] - 1
        }
        if counts.indices.contains(s) { focus(IndexPath(item: i, section: s)) }
    }

    /// Up and down: the nearest item in the next line that way (by the middle of
    /// its frame), looked for in bands of growing height rather than among every item.
    private func moveVertically(from path: IndexPath, down: Bool) {
        collectionViewLayout.prepareIfNeeded()
        guard let here = collectionViewLayout.layoutAttributesForItem(at: path)?.frame else { return }
        let content = collectionViewLayout.collectionViewContentSize
        var reach = max(bounds.height, 200)
        while reach.isFinite {
            let band = down ? Rect(x: -.greatestFiniteMagnitude / 4, y: here.maxY - 0.5, width: .greatestFiniteMagnitude / 2, height: reach)
                : Rect(x: -.greatestFiniteMagnitude / 4, y: here.minY + 0.5 - reach, width: .greatestFiniteMagnitude / 2, height: reach)
            let candidates = collectionViewLayout.layoutAttributesForElements(in: band)
                .filter { $0.representedElementKind == nil && (down ? $0.frame.minY >= here.maxY - 0.5 : $0.frame.maxY <= here.minY + 0.5) }
            if let lineY = down ? candidates.map(\.frame.minY).min() : candidates.map(\.frame.minY).max() {
                let line = candidates.filter { abs($0.frame.minY - lineY) < 0.5 }
                if let best = line.min(by: { abs($0.frame.midX - here.midX) < abs($1.frame.midX - here.midX) }) { focus(best.indexPath) }
                return
            }
            // Nothing nearer: further, until the band covers the content that way.
            if down ? here.maxY + reach >= content.height : here.minY - reach <= 0 { return }
            reach *= 4
        }
    }

    func focus(_ path: IndexPath) {
        let old = accessibilityFocusObject
        focusedIndexPath = path
        scrollToItem(at: path, animated: false)
        showFocus()
        // Assistive technologies follow the focus from item to item, as they do a list's rows.
        if isFirstResponder, accessibilityFocusObject !== old {
            Application.shared.accessibilityExporter?.focusMoved(from: old, to: accessibilityFocusObject)
        }
    }

    /// The focused item's cell, when it is an element of its own (a cell with a
    /// text label, or one the app made an element), while the view has the focus.
    override var accessibilityFocusObject: AnyObject {
        guard let path = focusedIndexPath, let cell = cells[path], cell.isAccessibilityElement else { return self }
        return cell
    }

    private func showFocus() {
        for (path, cell) in cells { cell.showsFocus = isFirstResponder && path == focusedIndexPath }
    }
}

private extension Size {
    var asRect: Rect { Rect(x: 0, y: 0, width: width, height: height) }
}
