/// A list: one full-width row per item, in sections with headers
/// (`UICollectionViewCompositionalLayout.list`). Rows size themselves to their
/// content (their constraints or `sizeThatFits`) from ``estimatedRowHeight``, or
/// all take ``rowHeight``. `.insetGrouped` insets the sections from the sides and
/// from each other, as the settings screens of UIKit apps look.
///
/// Rows of one height are placed by arithmetic: nothing is kept per item, so a
/// list of 100,000 rows (a ``ListView``) prepares in the time of its sections and
/// answers for the rows in view only.
@MainActor
public final class CollectionViewListLayout: CollectionViewFlowLayout {
    public enum Appearance: Hashable, Sendable { case plain, insetGrouped }

    public let appearance: Appearance
    /// Not zero: every row is this tall and rows do not measure themselves.
    public var rowHeight = 0.0 { didSet { invalidateLayout() } }
    /// The height rows start from before they measure themselves.
    public var estimatedRowHeight = 44.0 { didSet { invalidateLayout() } }

    /// With rows of one height: where each section starts, and its items.
    private var sections: [(top: Double, items: Int)] = []
    private var width = 0.0
    private var height = 0.0

    public init(appearance: Appearance = .plain) {
        self.appearance = appearance
        super.init()
        minimumLineSpacing = 0
        minimumInteritemSpacing = 0
        if appearance == .insetGrouped { sectionInset = EdgeInsets(top: 12, left: 20, bottom: 12, right: 20) }
    }

    override func size(at indexPath: IndexPath, width: Double) -> Size {
        Size(width: width, height: rowHeight > 0 ? rowHeight : measured[indexPath]?.height ?? estimatedRowHeight)
    }

    public override var sizesCellsToContent: Bool { rowHeight <= 0 }
    /// A list's rows are as wide as the list: only their height is their own.
    override var selfSizingWidthLimit: Double? { nil }

    // MARK: Rows of one height

    private var rowsOfOneHeight: Bool { rowHeight > 0 && rowHeight.isFinite }
    private var header: Double { max(0, headerReferenceSize.height.isFinite ? headerReferenceSize.height : 0) }
    private var footer: Double { max(0, footerReferenceSize.height.isFinite ? footerReferenceSize.height : 0) }
    /// From one row's top to the next's.
    private var pitch: Double { rowHeight + max(0, minimumLineSpacing.isFinite ? minimumLineSpacing : 0) }

    private func sectionHeight(items: Int) -> Double {
        header + sectionInset.top + Double(items) * pitch - (items > 0 ? pitch - rowHeight : 0) + sectionInset.bottom + footer
    }

    public override func prepare() {
        guard rowsOfOneHeight else { return super.prepare() }
        sections = []
        guard let cv = collectionView else { width = 0; height = 0; return }
        width = cv.bounds.width
        var y = 0.0
        for section in 0..<cv.numberOfSections {
            let items = cv.numberOfItems(inSection: section)
            sections.append((y, items))
            y += sectionHeight(items: items)
        }
        height = y
    }

    public override var collectionViewContentSize: Size {
        rowsOfOneHeight ? Size(width: width, height: height) : super.collectionViewContentSize
    }

    private func row(_ item: Int, of section: Int) -> CollectionViewLayoutAttributes {
        let a = CollectionViewLayoutAttributes(forCellWith: IndexPath(item: item, section: section))
        let left = sectionInset.left, right = width - sectionInset.right
        a.frame = Rect(x: left, y: sections[section].top + header + sectionInset.top + Double(item) * pitch, width: max(0, right - left), height: rowHeight)
        return a
    }

    private func supplementary(_ kind: String, of section: Int) -> CollectionViewLayoutAttributes? {
        let isHeader = kind == CollectionView.elementKindSectionHeader
        guard isHeader || kind == CollectionView.elementKindSectionFooter else { return nil }
        let h = isHeader ? header : footer
        guard h > 0 else { return nil }
        let a = CollectionViewLayoutAttributes(forSupplementaryViewOfKind: kind, with: IndexPath(item: 0, section: section))
        let top = sections[section].top
        a.frame = Rect(x: 0, y: isHeader ? top : top + sectionHeight(items: sections[section].items) - h, width: width, height: h)
        a.zIndex = 1
        return a
    }

    public override func layoutAttributesForElements(in rect: Rect) -> [CollectionViewLayoutAttributes] {
        guard rowsOfOneHeight else { return super.layoutAttributesForElements(in: rect) }
        guard rect.minY.isFinite || rect.maxY.isFinite, !rect.minY.isNaN, !rect.maxY.isNaN else { return [] }
        var found: [CollectionViewLayoutAttributes] = []
        for (section, s) in sections.enumerated() {
            if s.top > rect.maxY { break }
            guard s.top + sectionHeight(items: s.items) >= rect.minY else { continue }
            if let h = supplementary(CollectionView.elementKindSectionHeader, of: section), h.frame.intersects(rect) { found.append(h) }
            // The rows near the rect, worked out in floating point and held to the
            // rows there are before becoming an Int; then those that meet it.
            let itemsTop = s.top + header + sectionInset.top
            func clamped(_ row: Double) -> Int { Int(min(Double(s.items), max(0, row.isNaN ? 0 : row))) }
            let first = clamped(((rect.minY - itemsTop) / pitch).rounded(.down) - 1)
            let last = clamped(((rect.maxY - itemsTop) / pitch).rounded(.up) + 1)
            for item in first..<max(first, last) {
                let a = row(item, of: section)
                if a.frame.intersects(rect) { found.append(a) }
            }
            if let f = supplementary(CollectionView.elementKindSectionFooter, of: section), f.frame.intersects(rect) { found.append(f) }
        }
        return found
    }

    public override func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard rowsOfOneHeight else { return super.layoutAttributesForItem(at: indexPath) }
        guard sections.indices.contains(indexPath.section), (0..<sections[indexPath.section].items).contains(indexPath.item) else { return nil }
        return row(indexPath.item, of: indexPath.section)
    }

    public override func layoutAttributesForSupplementaryView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? {
        guard rowsOfOneHeight else { return super.layoutAttributesForSupplementaryView(ofKind: kind, at: indexPath) }
        return sections.indices.contains(indexPath.section) ? supplementary(kind, of: indexPath.section) : nil
    }
}
