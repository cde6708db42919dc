/// A collection view's data source driven by snapshots
/// (`UICollectionViewDiffableDataSource`): ``apply(_:animatingDifferences:completion:)``
/// works out, from item identity, what was inserted, deleted, moved and reloaded,
/// and animates it (rule C4).
@MainActor
public final class CollectionViewDiffableDataSource<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable>: CollectionViewDataSource {
    public typealias Snapshot = DiffableDataSourceSnapshot<SectionIdentifierType, ItemIdentifierType>
    public typealias CellProvider = (CollectionView, IndexPath, ItemIdentifierType) -> CollectionViewCell?
    public typealias SupplementaryViewProvider = (CollectionView, String, IndexPath) -> CollectionReusableView?

    /// What one apply changed (old places for deletions, new places for the rest).
    public struct Difference: Equatable {
        public var deleted: [IndexPath] = []
        public var inserted: [IndexPath] = []
        /// Items that changed places relative to the others (the fewest that explain the new order).
        public var moved: [IndexPath] = []
        public var reloaded: [IndexPath] = []
    }

    private weak var collectionView: CollectionView?
    private let cellProvider: CellProvider
    public var supplementaryViewProvider: SupplementaryViewProvider?
    private var current = Snapshot()
    private var applying = false
    private var queued: [(Snapshot, Bool, (@MainActor () -> Void)?)] = []
    /// What the last apply changed.
    public private(set) var lastDifference = Difference()

    public init(collectionView: CollectionView, cellProvider: @escaping CellProvider) {
        self.collectionView = collectionView
        self.cellProvider = cellProvider
        collectionView.dataSource = self
    }

    /// A copy of what is shown now.
    public func snapshot() -> Snapshot {
        var s = current
        s.clearReloads()
        return s
    }

    public func itemIdentifier(for indexPath: IndexPath) -> ItemIdentifierType? { current.item(at: indexPath) }
    public func indexPath(for item: ItemIdentifierType) -> IndexPath? { current.indexPath(of: item) }
    public func sectionIdentifier(for index: Int) -> SectionIdentifierType? {
        current.sectionIdentifiers.indices.contains(index) ? current.sectionIdentifiers[index] : nil
    }

    /// Shows `snapshot`: the differences from what is shown animate when asked
    /// (inserted items fade in, deleted ones fade out, the rest move to their
    /// places). An apply asked for while one is under way — from a cell provider,
    /// say — runs after it, in order.
    public func apply(_ snapshot: Snapshot, animatingDifferences: Bool = true, completion: (@MainActor () -> Void)? = nil) {
        guard !applying else {
            queued.append((snapshot, animatingDifferences, completion))
            return
        }
        applying = true
        defer {
            applying = false
            if !queued.isEmpty {
                let (s, a, c) = queued.removeFirst()
                apply(s, animatingDifferences: a, completion: c)
            }
        }
        let old = current
        let oldPlaces = old.positions(), newPlaces = snapshot.positions()
        lastDifference = Self.difference(from: old, oldPlaces, to: snapshot, newPlaces)
        current = snapshot
        guard let cv = collectionView else { return }
        let reloaded = Set(lastDifference.reloaded)
        cv.applyUpdate(map: { path in old.item(at: path).flatMap { newPlaces[$0] } },
                       inserted: Set(lastDifference.inserted), reloaded: reloaded, animated: animatingDifferences) { _ in completion?() }
        current.clearReloads()
    }

    /// Deletions, insertions, moves and reloads between two snapshots, in linear
    /// time and a longest-increasing-subsequence pass (the items that keep their
    /// order stay; the rest moved).
    static func difference(from old: Snapshot, _ oldPlaces: [ItemIdentifierType: IndexPath],
                           to new: Snapshot, _ newPlaces: [ItemIdentifierType: IndexPath]) -> Difference {
        var d = Difference()
        for (item, path) in oldPlaces where newPlaces[item] == nil { d.deleted.append(path) }
        var kept: [(new: IndexPath, old: Int)] = []   // in new order, with each one's position in the old flat order
        var oldFlat: [ItemIdentifierType: Int] = [:]
        oldFlat.reserveCapacity(oldPlaces.count)
        for (i, item) in old.itemIdentifiers.enumerated() { oldFlat[item] = i }
        for (s, section) in new.sectionIdentifiers.enumerated() {
            for (i, item) in new.itemIdentifiers(inSection: section).enumerated() {
                let path = IndexPath(item: i, section: s)
                if let o = oldFlat[item], old.sectionIdentifier(containingItem: item) == section { kept.append((path, o)) }
                else if oldFlat[item] != nil { d.moved.append(path) }       // to another section
                else { d.inserted.append(path) }
            }
        }
        let stay = Set(longestIncreasingRun(kept.map(\.old)))
        for (k, entry) in kept.enumerated() where !stay.contains(k) { d.moved.append(entry.new) }
        for item in new.reloaded { if let p = newPlaces[item] { d.reloaded.append(p) } }
        d.deleted.sort(); d.inserted.sort(); d.moved.sort(); d.reloaded.sort()
        return d
    }

    /// Indices (into `values`) of a longest strictly increasing subsequence (patience sorting).
    private static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = [], previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tails[lo - 1] }
            if lo == tails.count { tails.append(i) } else { tails[lo] = i }
        }
        var run: [Int] = []
        var k = tails.last ?? -1
        while k >= 0 { run.append(k); k = previous[k] }
        return run.reversed()
    }

    // MARK: CollectionViewDataSource

    public func numberOfSections(in collectionView: CollectionView) -> Int { current.numberOfSections }

    public func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        current.itemCounts.indices.contains(section) ? current.itemCounts[section] : 0
    }

    public func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        guard let item = current.item(at: indexPath), let cell = cellProvider(collectionView, indexPath, item) else {
            Diagnostics.report(.invalidView("diffable data source: the cell provider gave no cell for \(indexPath); an empty one is shown"))
            return collectionView.dequeueReusableCell(withReuseIdentifier: "strata.empty", for: indexPath)
        }
        return cell
    }

    public func collectionView(_ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: String, at indexPath: IndexPath) -> CollectionReusableView? {
        supplementaryViewProvider?(collectionView, kind, indexPath)
    }
}

/// A cell class and how to configure it for an item (`UICollectionView.CellRegistration`);
/// ``CollectionView/dequeueConfiguredReusableCell(using:for:item:)`` uses it.
@MainActor
public struct CellRegistration<Cell: CollectionViewCell, Item> {
    let identifier: String
    let handler: (Cell, IndexPath, Item) -> Void

    public init(handler: @escaping (Cell, IndexPath, Item) -> Void) {
        // Registrations of one class share its reuse queue: the handler configures every cell it hands out.
        identifier = "strata.registration." + String(reflecting: Cell.self)
        self.handler = handler
    }
}

extension CollectionView {
    /// A cell of the registration's class, configured by its handler for `item`.
    public func dequeueConfiguredReusableCell<Cell, Item>(using registration: CellRegistration<Cell, Item>, for indexPath: IndexPath, item: Item) -> Cell {
        register(Cell.self, forCellWithReuseIdentifier: registration.identifier)
        let cell = dequeueReusableCell(withReuseIdentifier: registration.identifier, for: indexPath) as! Cell
        registration.handler(cell, indexPath, item)
        return cell
    }
}
