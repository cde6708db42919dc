/// A layer's animations in the order they were added. The first is kept in the
/// layer itself, the rest in an array: most animating layers have one animation,
/// and the change that adds it then reads no memory outside the layer (with
/// 100,000 layers, a separate buffer per layer is a cache miss per change).
struct AnimationEntryList: RandomAccessCollection {
    private var head: AnimationEntry?
    /// Empty (the shared empty array, no buffer) unless a layer has two or more.
    private var tail: [AnimationEntry] = []

    var startIndex: Int { 0 }
    var endIndex: Int { head == nil ? 0 : 1 + tail.count }
    var isEmpty: Bool { head == nil }

    subscript(position: Int) -> AnimationEntry {
        position == 0 ? head! : tail[position - 1]
    }

    mutating func append(_ entry: consuming AnimationEntry) {
        if head == nil { head = entry } else { tail.append(entry) }
    }

    /// The entry added under `key` (anonymous ones have none).
    @MainActor
    func entry(forKey key: String) -> AnimationEntry? {
        for entry in self where !entry.isAnonymous && entry.key == key { return entry }
        return nil
    }

    mutating func remove(_ entry: AnimationEntry) {
        if head === entry {
            head = tail.isEmpty ? nil : tail.removeFirst()
        } else if let i = tail.firstIndex(where: { $0 === entry }) {
            tail.remove(at: i)
        }
        if tail.isEmpty { tail = [] }   // let the buffer go
    }
}
