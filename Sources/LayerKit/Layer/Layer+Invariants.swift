extension Layer {
    /// Checks the tree below this layer: every sublayer names this layer as its
    /// superlayer, appears once, and no layer is its own ancestor. Returns what is
    /// wrong, in words; empty when all is well. Used by tests and debug checks.
    public func checkInvariants() -> [String] {
        var problems: [String] = []
        var seen = Set<ObjectIdentifier>()
        // Iterative: a tree tens of thousands deep is checked without deep recursion.
        var stack: [Layer] = [self]
        while let layer = stack.popLast() {
            guard seen.insert(ObjectIdentifier(layer)).inserted else {
                problems.append("\(layer.name ?? "a layer") appears twice in the tree")
                continue
            }
            if layer.sublayerVersions != layer.sublayerStorage.map(\.subtreeVersion) {
                problems.append("\(layer.name ?? "a layer")'s record of its sublayers' versions is out of step")
            }
            for s in layer.sublayerStorage.reversed() {
                if s.superlayer !== layer { problems.append("\(s.name ?? "a sublayer") does not point back to its superlayer") }
                stack.append(s)
            }
        }
        return problems
    }
}
