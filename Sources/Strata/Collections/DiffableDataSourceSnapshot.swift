/// The sections and items a collection view shows, by identity
/// (`NSDiffableDataSourceSnapshot`): build one, hand it to a diffable data
/// source's `apply`, and the differences animate (rule C4).
///
/// Identifiers must be unique across the snapshot (items) and among sections.
/// Adding one that is already there is refused with a diagnostic and leaves the
/// snapshot as it was, where UIKit raises an exception; so is naming a section or
/// item that is not there.
@MainActor
public struct DiffableDataSourceSnapshot<SectionIdentifierType: Hashable, ItemIdentifierType: Hashable> {
    public typealias Section = SectionIdentifierType
    public typealias Item = ItemIdentifierType

    public private(set) var sectionIdentifiers: [Section] = []
    private var items: [[Item]] = []
    private var sectionOf: [Item: Int] = [:]
    /// Items to reconfigure or reload when applied.
    private(set) var reloaded: Set<Item> = []

    public init() {}

    public var numberOfSections: Int { sectionIdentifiers.count }
    public var numberOfItems: Int { sectionOf.count }
    /// Every item, section by section.
    public var itemIdentifiers: [Item] { items.flatMap { $0 } }

    public func numberOfItems(inSection section: Section) -> Int { index(of: section).map { items[$0].count } ?? 0 }
    public func itemIdentifiers(inSection section: Section) -> [Item] { index(of: section).map { items[$0] } ?? [] }
    public func sectionIdentifier(containingItem item: Item) -> Section? { sectionOf[item].map { sectionIdentifiers[$0] } }
    public func indexOfItem(_ item: Item) -> Int? { itemIdentifiers.firstIndex(of: item) }
    public func indexOfSection(_ section: Section) -> Int? { index(of: section) }

    func index(of section: Section) -> Int? { sectionIdentifiers.firstIndex(of: section) }
    func indexPath(of item: Item) -> IndexPath? {
        guard let s = sectionOf[item], let i = items[s].firstIndex(of: item) else { return nil }
        return IndexPath(item: i, section: s)
    }
    func item(at path: IndexPath) -> Item? {
        items.indices.contains(path.section) && items[path.section].indices.contains(path.item) ? items[path.section][path.item] : nil
    }
    /// Per section: item → index, for diffing in linear time.
    func positions() -> [Item: IndexPath] {
        var map: [Item: IndexPath] = [:]
        map.reserveCapacity(sectionOf.count)
        for (s, list) in items.enumerated() { for (i, item) in list.enumerated() { map[item] = IndexPath(item: i, section: s) } }
        return map
    }
    var itemCounts: [Int] { items.map(\.count) }

    private static func refuse(_ what: String) {
        Diagnostics.report(.invalidView("diffable snapshot: \(what); the snapshot is unchanged"))
    }

    /// Items new to the snapshot and unique, else nil (with a diagnostic).
    private func checkedNew(_ new: [Item], _ call: String) -> [Item]? {
        var seen = Set<Item>()
        for item in new where sectionOf[item] != nil || !seen.insert(item).inserted {
            Self.refuse("\(call): item \(item) is already in the snapshot (identifiers must be unique)")
            return nil
        }
        return new
    }

    // MARK: Sections

    public mutating func appendSections(_ sections: [Section]) {
        insertSections(sections, at: sectionIdentifiers.count, "appendSections")
    }

    public mutating func insertSections(_ sections: [Section], beforeSection: Section) { insertSections(sections, next: beforeSection, after: false) }
    public mutating func insertSections(_ sections: [Section], afterSection: Section) { insertSections(sections, next: afterSection, after: true) }

    private mutating func insertSections(_ sections: [Section], next other: Section, after: Bool) {
        guard let i = index(of: other) else { return Self.refuse("insertSections: section \(other) is not in the snapshot") }
        insertSections(sections, at: i + (after ? 1 : 0), "insertSections")
    }

    private mutating func insertSections(_ sections: [Section], at index: Int, _ call: String) {
        var seen = Set(sectionIdentifiers)
        for s in sections where !seen.insert(s).inserted {
            return Self.refuse("\(call): section \(s) is already in the snapshot (identifiers must be unique)")
        }
        sectionIdentifiers.insert(contentsOf: sections, at: index)
        items.insert(contentsOf: sections.map { _ in [] }, at: index)
        reindex()
    }

    public mutating func deleteSections(_ sections: [Section]) {
        let gone = Set(sections)
        for (i, s) in sectionIdentifiers.enumerated().reversed() where gone.contains(s) {
            sectionIdentifiers.remove(at: i)
            items.remove(at: i)
        }
        reindex()
    }

    public mutating func moveSection(_ section: Section, beforeSection: Section) { moveSection(section, next: beforeSection, after: false) }
    public mutating func moveSection(_ section: Section, afterSection: Section) { moveSection(section, next: afterSection, after: true) }

    private mutating func moveSection(_ section: Section, next other: Section, after: Bool) {
        guard let from = index(of: section), index(of: other) != nil, section != other else {
            return Self.refuse("moveSection: \(section) or \(other) is not in the snapshot")
        }
        let list = items.remove(at: from)
        sectionIdentifiers.remove(at: from)
        let to = index(of: other)! + (after ? 1 : 0)
        sectionIdentifiers.insert(section, at: to)
        items.insert(list, at: to)
        reindex()
    }

    private mutating func reindex() {
        sectionOf = [:]
        for (s, list) in items.enumerated() { for item in list { sectionOf[item] = s } }
    }

    // MARK: Items

    /// Appends to `section`, or to the last section when nil.
    public mutating func appendItems(_ new: [Item], toSection section: Section? = nil) {
        guard let s = section.map(index(of:)) ?? (items.isEmpty ? nil : items.count - 1) else {
            return Self.refuse("appendItems: " + (section.map { "section \($0) is not in the snapshot" } ?? "there is no section to append to"))
        }
        guard let new = checkedNew(new, "appendItems") else { return }
        items[s] += new
        for item in new { sectionOf[item] = s }
    }

    public mutating func insertItems(_ new: [Item], beforeItem: Item) { insertItems(new, next: beforeItem, after: false) }
    public mutating func insertItems(_ new: [Item], afterItem: Item) { insertItems(new, next: afterItem, after: true) }

    private mutating func insertItems(_ new: [Item], next other: Item, after: Bool) {
        guard let at = indexPath(of: other) else { return Self.refuse("insertItems: item \(other) is not in the snapshot") }
        guard let new = checkedNew(new, "insertItems") else { return }
        items[at.section].insert(contentsOf: new, at: at.item + (after ? 1 : 0))
        for item in new { sectionOf[item] = at.section }
    }

    public mutating func deleteItems(_ gone: [Item]) {
        let set = Set(gone)
        for s in items.indices where items[s].contains(where: set.contains) { items[s].removeAll(where: set.contains) }
        for item in gone { sectionOf[item] = nil }
        reloaded.subtract(set)
    }

    public mutating func deleteAllItems() {
        self = Self()
    }

    public mutating func moveItem(_ item: Item, beforeItem: Item) { moveItem(item, next: beforeItem, after: false) }
    public mutating func moveItem(_ item: Item, afterItem: Item) { moveItem(item, next: afterItem, after: true) }

    private mutating func moveItem(_ item: Item, next other: Item, after: Bool) {
        guard let from = indexPath(of: item), indexPath(of: other) != nil, item != other else {
            return Self.refuse("moveItem: \(item) or \(other) is not in the snapshot")
        }
        items[from.section].remove(at: from.item)
        let to = indexPath(of: other)!
        items[to.section].insert(item, at: to.item + (after ? 1 : 0))
        sectionOf[item] = to.section
    }

    /// The items' cells are made again when applied (`reloadItems`).
    public mutating func reloadItems(_ changed: [Item]) {
        for item in changed where sectionOf[item] == nil { return Self.refuse("reloadItems: item \(item) is not in the snapshot") }
        reloaded.formUnion(changed)
    }

    /// The same as ``reloadItems(_:)`` here: the cell is configured again (`reconfigureItems`).
    public mutating func reconfigureItems(_ changed: [Item]) { reloadItems(changed) }

    mutating func clearReloads() { reloaded = [] }
}
