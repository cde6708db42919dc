/// A dictionary with a budget: past `limit` (in whatever the costs count, bytes
/// here), the least recently used entries go first.
struct LRUCache<Key: Hashable, Value> {
    private var entries: [Key: (value: Value, cost: Int, lastUse: Int)] = [:]
    private var clock = 0
    /// The summed cost of what is held.
    private(set) var cost = 0
    var limit: Int

    init(limit: Int) { self.limit = limit }

    var count: Int { entries.count }

    mutating func value(for key: Key) -> Value? {
        guard let e = entries[key] else { return nil }
        clock += 1
        entries[key]?.lastUse = clock
        return e.value
    }

    mutating func insert(_ value: Value, for key: Key, cost: Int) {
        guard cost <= limit else { return }   // never worth keeping
        clock += 1
        if let old = entries.updateValue((value, cost, clock), forKey: key) { self.cost -= old.cost }
        self.cost += cost
        guard self.cost > limit else { return }
        // Evict down to three quarters of the budget at once, oldest first.
        for (key, e) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where self.cost > limit * 3 / 4 {
            entries[key] = nil
            self.cost -= e.cost
        }
    }

    mutating func removeAll() {
        entries.removeAll()
        cost = 0
    }
}
