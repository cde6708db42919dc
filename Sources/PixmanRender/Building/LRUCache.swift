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
        // Oldest first, down to the budget (the entry just kept is the newest).
        for (key, e) in entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) where self.cost > limit {
            entries[key] = nil
            self.cost -= e.cost
        }
    }

    /// Drops the entries `drop` picks.
    mutating func removeAll(where drop: (Value) -> Bool) {
        for (key, e) in entries where drop(e.value) {
            entries[key] = nil
            cost -= e.cost
        }
    }
}
