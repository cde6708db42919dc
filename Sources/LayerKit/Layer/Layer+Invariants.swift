extension Layer {
    /// Checks the tree below this layer: every sublayer names this layer as its
    /// superlayer, appears once, and no layer is its own ancestor. Returns what is
    /// wrong, in words; empty when all is well. Used by tests and debug checks.
    public func checkInvariants() -> [String] {
        var problems: [String] = []
        var seen = Set<ObjectIdentifier>()
        func visit(_ layer: Layer, depth: Int) {
            guard depth < 100_000 else { return problems.append("tree deeper than 100000") }
            guard seen.insert(ObjectIdentifier(layer)).inserted else {
                return problems.append("\(layer.name ?? "a layer") appears twice in the tree")
            }
            for s in layer.sublayerStorage {
                if s.superlayer !== layer { problems.append("\(s.name ?? "a sublayer") does not point back to its superlayer") }
                visit(s, depth: depth + 1)
            }
        }
        visit(self, depth: 0)
        return problems
    }
}
