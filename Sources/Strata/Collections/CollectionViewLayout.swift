/// Where one cell, header or footer goes (`UICollectionViewLayoutAttributes`).
@MainActor
public final class CollectionViewLayoutAttributes {
    public let indexPath: IndexPath
    /// Nil for a cell; the kind (``CollectionView/elementKindSectionHeader`` …) for a supplementary view.
    public let representedElementKind: String?
    public var frame: Rect
    public var alpha = 1.0
    public var zIndex = 0
    public var isHidden = false

    public init(forCellWith indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementKind = nil
        frame = .zero
    }

    public init(forSupplementaryViewOfKind kind: String, with indexPath: IndexPath) {
        self.indexPath = indexPath
        representedElementKind = kind
        frame = .zero
    }

    func copy() -> CollectionViewLayoutAttributes {
        let c = representedElementKind.map { CollectionViewLayoutAttributes(forSupplementaryViewOfKind: $0, with: indexPath) }
            ?? CollectionViewLayoutAttributes(forCellWith: indexPath)
        c.frame = frame
        c.alpha = alpha
        c.zIndex = zIndex
        c.isHidden = isHidden
        return c
    }
}

/// Decides where a collection view's items go (`UICollectionViewLayout`):
/// ``prepare()`` works the places out, the rest answers from them. Subclass it for
/// a layout of your own; ``CollectionViewFlowLayout`` and
/// ``CollectionViewListLayout`` are the two UIKit apps use most.
@MainActor
open class CollectionViewLayout {
    /// The collection view it lays out.
    public internal(set) weak var collectionView: CollectionView?

    public init() {}

    /// Works out every place; called before the collection view asks, after
    /// ``invalidateLayout()``.
    open func prepare() {}
    /// The size of everything laid out.
    open var collectionViewContentSize: Size { .zero }
    /// The cells and supplementary views whose frames meet `rect`.
    open func layoutAttributesForElements(in rect: Rect) -> [CollectionViewLayoutAttributes] { [] }
    open func layoutAttributesForItem(at indexPath: IndexPath) -> CollectionViewLayoutAttributes? { nil }
    open func layoutAttributesForSupplementaryView(ofKind kind: String, at indexPath: IndexPath) -> CollectionViewLayoutAttributes? { nil }
    /// Whether a cell's preferred attributes (self-sizing) should replace the laid-out ones.
    open func shouldInvalidateLayout(forPreferredLayoutAttributes preferred: CollectionViewLayoutAttributes,
                                     withOriginalAttributes original: CollectionViewLayoutAttributes) -> Bool { false }
    /// Whether cells are asked for their preferred attributes (self-sizing); the default is no.
    open var sizesCellsToContent: Bool { false }
    /// The widest a self-sizing cell may be when it sizes its width too (nil: its
    /// width is the layout's, only its height is its own).
    var selfSizingWidthLimit: Double? { nil }
    /// A cell measured itself: the layout keeps its size (self-sizing layouts).
    open func preferredSizeMeasured(_ size: Size, at indexPath: IndexPath) {}
    /// Item places moved (an update): measured sizes follow their items.
    open func itemsMoved(_ map: (IndexPath) -> IndexPath?) {}

    /// Marks the layout for ``prepare()`` before the next use.
    public func invalidateLayout() {
        needsPrepare = true
        collectionView?.setNeedsLayout()
    }

    var needsPrepare = true

    func prepareIfNeeded() {
        guard needsPrepare else { return }
        needsPrepare = false
        prepare()
    }
}
