/// Items in lines, left to right then down, wrapping at the collection view's
/// width, with section headers and footers (`UICollectionViewFlowLayout`,
/// vertical scrolling). Full lines are justified (the spare width shared between
/// the gaps); the last line of a section keeps the minimum gaps. With an
/// ``estimatedItemSize`` the cells size themselves (their preferred attributes).
@MainActor
open class CollectionViewFlowLayout: CollectionViewLayout {
    /// The size of every item, unless the cells size themselves.
    public var itemSize = Size(width: 50, height: 50) { didSet { invalidateLayout() } }
    /// Not zero: cells size themselves, starting from this guess.
    public var estimatedItemSize = Size.zero { didSet { invalidateLayout() } }
    public var minimumLineSpacing = 10.0 { didSet { invalidateLayout() } }
    public var minimumInteritemSpacing = 10.0 { didSet { invalidateLayout() } }
    public var sectionInset = EdgeInsets.zero { didSet { invalidateLayout() } }
    /// Height of each section's header (0: none); headers span the width.
    public var headerReferenceSize = Size.zero { didSet { invalidateLayout() } }
    public var footerReferenceSize = Size.zero { didSet { invalidateLayout() } }

    private var items: [[CollectionViewLayoutAttributes]] = []
    private var headers: [CollectionViewLayoutAttributes?] = []
    private var footers: [CollectionViewLayoutAttributes?] = []
    private var contentSize = Size.zero
    /// Sizes cells measured for themselves.
    var measured: [IndexPath: Size] = [:]

    public override init() { super.init() }

    /// The size item `indexPath` takes before it is laid out in a line.
    func size(at indexPath: IndexPath, width: Double) -> Size {
        if estimatedItemSize != .zero { return measured[indexPath] ?? estimatedItemSize }
        return itemSize
    }

    open override func prepare() {
        items = []; headers = []; footers = []
        guard let cv = collectionView else { contentSize = .zero; return }
        let width = cv.bounds.width
        var y = 0.0
        /// A header or footer across the width at `y` (moved past it), or nil when its height is 0.
        func supplementary(_ kind: String, _ height: Double, _ section: Int) -> CollectionViewLayoutAttributes? {
            guard height > 0 else { return nil }
            let a = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: kind, with: IndexPath(item: 0, section: section))
            a.frame = Rect(x: 0, y: y, width: width, height: height)
            a.zIndex = 1
            y += height
            return a
        }
        for section in 0..<cv.numberOfSections {
            headers.append(supplementary(CollectionView.elementKindSectionHeader, headerReferenceSize.height, section))
            y += sectionInset.top
            let left = sectionInset.left, right = width - sectionInset.right
            var line: [CollectionViewLayoutAttributes] = []
            var placed: [CollectionViewLayoutAttributes] = []
            func finish(_ line: [CollectionViewLayoutAttributes], last: Bool) -> Double {
                guard !line.isEmpty else { return 0 }
                let height = line.map(\.frame.height).max()!
                let used = line.map(\.frame.width).reduce(0, +)
                let gap = line.count > 1 && !last ? max(minimumInteritemSpacing, (right - left - used) / Double(line.count - 1)) : minimumInteritemSpacing
                var x = left
                for a in line {
                    a.frame.origin = Point(x: x, y: y + (height - a.frame.height) / 2)
                    x += a.frame.width + gap
                }
                return height
            }
            for item in 0..<cv.numberOfItems(inSection: section) {
                let path = IndexPath(item: item, section: section)
                let a = CollectionViewLayoutAttributes(forCellWith: path)
                var s = size(at: path, width: right - left)
                s.width = min(max(0, s.width), max(0, right - left))
                s.height = max(0, s.height.isFinite ? s.height : 0)
                a.frame.size = s
                let lineWidth = line.map(\.frame.width).reduce(0, +) + Double(line.count) * minimumInteritemSpacing
                if !line.isEmpty && left + lineWidth + s.width > right + 1e-9 {
                    y += finish(line, last: false) + minimumLineSpacing
                    line = []
                }
                line.append(a)
                placed.append(a)
            }
            y += finish(line, last: true)
            y += sectionInset.bottom
            items.append(placed)
            footers.append(supplementary(CollectionView.elementKindSectionFooter, footerReferenceSize.height, section))
        }
        contentSize = Size(width: width, height: y)
    }

    open override var collectionViewContentSize: Size { contentSize }

    open override func layoutAttributesForElements(in rect: Rect) -> [CollectionViewLayoutAttributes] {
        var found: [CollectionViewLayoutAttributes] = []
        for section in items.indices {
            if let h = headers[section], h.frame.intersects(rect) { found.append(h) }
            // Items are in reading order, their tops never decreasing: a binary search finds the first in reach.
            let list = items[section]
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if list[mid].frame.maxY < rect.minY - 1e-9 { lo = mid + 1 } else { hi = mid }
            }
            var i = max(0, lo - 1)
            while i < list.count, list[i].frame.minY <= rect.maxY {
                if list[i].frame.intersects(rect) { found.append(list[i]) }
                i += 1
            }
            if let f = footers[section], f.frame.intersects(rect) { found.append(f) }
        }
        return found
    }

    open override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard items.indices.contains(indexPath.section), items[indexPath.section].indices.contains(indexPath.item) else { return nil }
        return items[indexPath.section][indexPath.item]
    }

    open override func layoutAttributesForSupplementaryView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard headers.indices.contains(indexPath.section) else { return nil }
        return kind == CollectionView.elementKindSectionHeader ? headers[indexPath.section] : kind == CollectionView.elementKindSectionFooter ? footers[indexPath.section] : nil
    }

    open override var sizesCellsToContent: Bool { estimatedItemSize != .zero }
    /// A flow layout's cells size themselves in both directions, no wider than a line.
    override var selfSizingWidthLimit: Double? {
        collectionView.map { max(0, $0.bounds.width - sectionInset.left - sectionInset.right) }
    }

    open override func shouldInvalidateLayout(forPreferredLayoutAttributes preferred: CollectionViewLayoutAttributes,
                                              withOriginalAttributes original: CollectionViewLayoutAttributes) -> Bool {
        sizesCellsToContent && (abs(preferred.frame.height - original.frame.height) > 0.5 || abs(preferred.frame.width - original.frame.width) > 0.5)
    }

    open override func preferredSizeMeasured(_ size: Size, at indexPath: IndexPath) {
        measured[indexPath] = size
        invalidateLayout()
    }

    open override func itemsMoved(_ map: (IndexPath) -> IndexPath?) {
        var moved: [IndexPath: Size] = [:]
        for (path, size) in measured { if let new = map(path) { moved[new] = size } }
        measured = moved
    }
}
