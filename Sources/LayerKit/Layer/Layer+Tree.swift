extension Layer {
    /// The sublayers, back to front in insertion order (drawing sorts by
    /// `zPosition` first, rule R1). On a presentation copy, the presentations of its
    /// model's sublayers at the same time (rule E12).
    public var sublayers: [Layer] {
        guard let model = modelLayer else { return sublayerStorage }
        let t = presentedAt ?? currentMediaTime()
        return model.sublayerStorage.map { $0.presentation(atTime: t) }
    }

    /// Appends a sublayer (`addSublayer(_:)`). A layer already elsewhere moves here.
    public func addSublayer(_ layer: Layer) {
        insertSublayer(layer, at: sublayerStorage.count)
    }

    /// Inserts a sublayer at `index`; an index past the end appends (with a diagnostic).
    /// Inserting a layer into itself or into its own subtree is refused with a diagnostic.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        guard !isPresentationCopy, !layer.isPresentationCopy else {
            return Diagnostics.report(.invalidTree("presentation copies cannot be put in a tree"))
        }
        guard !isWithin(layer) else {
            return Diagnostics.report(.invalidTree("a layer cannot be inserted into its own subtree (or its mask's)"))
        }
        var index = index
        if index < 0 || index > sublayerStorage.count - (layer.superlayer === self ? 1 : 0) {
            Diagnostics.report(.invalidTree("sublayer index \(index) out of range 0...\(sublayerStorage.count); appended"))
            index = sublayerStorage.count - (layer.superlayer === self ? 1 : 0)
        }
        if let owner = layer.maskOwner { owner.mask = nil }   // a mask becoming a sublayer stops being a mask
        let wasVisible = layer.isInVisibleTree
        let sublayersAction = actionToRunIfVisible(forKey: "sublayers")
        if let sublayersAction { captureTransitionSnapshot(for: sublayersAction) }
        layer.detachFromSuperlayer()
        sublayerStorage.insert(layer, at: index)
        sublayerVersions.insert(layer.subtreeVersion, at: index)
        layer.indexHint = index
        layer.superlayerLink = self
        adoptPending(of: layer)
        treeDidChange()
        sublayersAction?.run(forKey: "sublayers", object: self, arguments: nil)
        if !wasVisible, !layer.state.isHidden { layer.orderEvent(Layer.onOrderIn) }
    }

    /// Inserts a sublayer just below `sibling` (or at the bottom when nil; a sibling
    /// that is not a sublayer puts it at the bottom too, with a diagnostic).
    public func insertSublayer(_ layer: Layer, below sibling: Layer?) {
        let found = sibling.flatMap(indexOfSublayer)
        if sibling != nil && found == nil {
            Diagnostics.report(.invalidTree("insertSublayer(_:below:): the sibling is not a sublayer; inserted at the bottom"))
        }
        let i = found ?? 0
        insertSublayer(layer, at: adjustedIndex(i, moving: layer))
    }

    /// Inserts a sublayer just above `sibling` (or at the top when nil; a sibling
    /// that is not a sublayer puts it at the top too, with a diagnostic).
    public func insertSublayer(_ layer: Layer, above sibling: Layer?) {
        let found = sibling.flatMap(indexOfSublayer)
        if sibling != nil && found == nil {
            Diagnostics.report(.invalidTree("insertSublayer(_:above:): the sibling is not a sublayer; inserted at the top"))
        }
        let i = found.map { $0 + 1 } ?? sublayerStorage.count
        insertSublayer(layer, at: adjustedIndex(i, moving: layer))
    }

    private func adjustedIndex(_ i: Int, moving layer: Layer) -> Int {
        guard layer.superlayer === self, let current = indexOfSublayer(layer) else { return i }
        return current < i ? i - 1 : i
    }

    /// Replaces `old` with `new` at the same place. In a visible tree the new
    /// layer runs its `transition` action (rule A7). Refused with a diagnostic when
    /// `old` is not a sublayer.
    public func replaceSublayer(_ old: Layer, with new: Layer) {
        guard let i = indexOfSublayer(old) else {
            return Diagnostics.report(.invalidTree("replaceSublayer: the old layer is not a sublayer"))
        }
        guard old !== new else { return }
        guard !isDescendant(of: new), !new.isPresentationCopy else {
            return Diagnostics.report(.invalidTree("replaceSublayer: the new layer would make a cycle"))
        }
        let sublayersAction = actionToRunIfVisible(forKey: "sublayers")
        if let sublayersAction { captureTransitionSnapshot(for: sublayersAction) }
        new.detachFromSuperlayer()
        let index = indexOfSublayer(old) ?? i
        sublayerStorage[index] = new
        sublayerVersions[index] = new.subtreeVersion
        new.indexHint = index
        old.superlayerLink = nil
        new.superlayerLink = self
        adoptPending(of: new)
        treeDidChange()
        sublayersAction?.run(forKey: "sublayers", object: self, arguments: nil)
        new.orderEvent(Layer.transition, replacing: old)
    }

    /// Removes the layer from its superlayer. In a visible tree it runs its
    /// `onOrderOut` action, and the superlayer its `sublayers` action (rule A7).
    public func removeFromSuperlayer() {
        guard let parent = superlayer else { return }
        let wasVisible = isInVisibleTree
        let sublayersAction = parent.actionToRunIfVisible(forKey: "sublayers")
        if let sublayersAction { parent.captureTransitionSnapshot(for: sublayersAction) }
        let orderOut = wasVisible && !state.isHidden ? actionToRun(forKey: Layer.onOrderOut) : nil
        detachFromSuperlayer()
        parent.treeDidChange()
        sublayersAction?.run(forKey: "sublayers", object: parent, arguments: nil)
        orderOut?.run(forKey: Layer.onOrderOut, object: self, arguments: nil)
    }

    private func detachFromSuperlayer() {
        guard let parent = superlayer else { return }
        if let i = parent.indexOfSublayer(self) {
            parent.sublayerStorage.remove(at: i)
            parent.sublayerVersions.remove(at: i)
        }
        superlayerLink = nil
        parent.noteSubtreeChange()   // also when the layer moves to another superlayer
    }

    private func actionToRunIfVisible(forKey key: String) -> (any Action)? {
        // With actions disabled there is nothing to find (and, with no trace to
        // tell, no need to walk to the root to learn whether the tree is shown).
        if context.actionsDisabled, context.actionTraceSink == nil { return nil }
        return isInVisibleTree ? actionToRun(forKey: key) : nil
    }

    private func treeDidChange() {
        Transaction.ensureOpen(in: context)
        Transaction.noteTreeChange(in: context)
        context.timeline.invalidate()   // a moved layer's animations keep other times
        propertyDidChange("sublayers", mayBeTiming: false)
    }

    /// True when `ancestor` is this layer or one of its superlayers.
    public func isDescendant(of ancestor: Layer) -> Bool {
        var current: Layer? = self
        while let l = current {
            if l === ancestor { return true }
            current = l.superlayer
        }
        return false
    }

    /// True when this layer is `other` or lies under it through sublayers and
    /// masks: making `other` a sublayer or the mask of this layer would close a
    /// loop that every tree walk would follow forever.
    /// (A layer may be both a sublayer and a mask: both ways up are followed.)
    func isWithin(_ other: Layer) -> Bool {
        // Nothing lies under a layer with no sublayers and no mask: the common case
        // of a new leaf, answered without walking up a deep tree.
        if other.sublayerStorage.isEmpty, other.state.mask == nil { return self === other }
        var stack: [Layer] = [self]
        var seen = Set<ObjectIdentifier>()
        while let l = stack.popLast() {
            if l === other { return true }
            guard seen.insert(ObjectIdentifier(l)).inserted else { continue }
            if let s = l.superlayer { stack.append(s) }
            if let o = l.maskOwner { stack.append(o) }
        }
        return false
    }

    /// The root of the layer's tree.
    public var rootLayer: Layer {
        if modelLayer != nil {
            var l = self
            while let p = l.superlayer { l = p }
            return l
        }
        // A model layer's superlayers are borrowed through their stored links on the
        // way up (every insertion asks, at any depth): no retain and release per level.
        var l = Unmanaged.passUnretained(self)
        while let p = Layer.borrowing(l, { $0.superlayerReference }) { l = p }
        return l.takeUnretainedValue()
    }

    /// True when the layer is in a tree that a window or renderer shows (a
    /// "visible layer tree" of rule A7).
    public var isInVisibleTree: Bool {
        rootLayer.presenterCount > 0
    }

    /// Visits the layer, its mask and its subtree, depth first — iteratively, so
    /// no tree is too deep for it.
    func forEachInSubtree(_ body: (Layer) -> Void) {
        var stack: [Layer] = [self]
        while let layer = stack.popLast() {
            body(layer)
            stack.append(contentsOf: layer.sublayerStorage.reversed())
            if let mask = layer.state.mask { stack.append(mask) }
        }
    }

    /// The index of `layer` among the sublayers, found by address alone (no
    /// reference counting per sibling: a layer with 100,000 siblings is found fast).
    /// The layer's own index hint is tried first: it is right unless siblings were
    /// inserted or removed before it since, so appending after the last sublayer
    /// (how views add subviews) finds its sibling at once.
    func indexOfSublayer(_ layer: Layer) -> Int? {
        let hint = layer.indexHint
        if hint >= 0, hint < sublayerStorage.count, sublayerStorage[hint] === layer { return hint }
        let target = UInt(bitPattern: Unmanaged.passUnretained(layer).toOpaque())
        return sublayerStorage.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt.self)
            var i = 0
            while i < words.count {
                if words[i] == target { return i }
                i += 1
            }
            return nil
        }
    }
}

extension Layer {
    /// The indices of the sublayers that are not `ids[i]` with subtree version
    /// `versions[i]` — what changed below this layer since a renderer last looked,
    /// found by comparing numbers side by side (`sublayerVersions`) without reading
    /// the sublayers, for renderers whose layers have thousands of siblings.
    package func changedSublayers(ids: [ObjectIdentifier], versions: [UInt64]) -> [Int] {
        guard ids.count == sublayerStorage.count, versions.count == sublayerStorage.count else { return Array(sublayerStorage.indices) }
        var changed: [Int] = []
        for i in sublayerVersions.indices where sublayerVersions[i] != versions[i] || ObjectIdentifier(sublayerStorage[i]) != ids[i] {
            changed.append(i)
        }
        return changed
    }
}
