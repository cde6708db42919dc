import LayerKit

/// Layers kept in three dimensions: the sublayers of a transform layer (and of
/// the transform layers inside it), and the copies of a replicator that
/// preserves depth. Each is one plane, drawn flat with its own subtree; the
/// planes are sorted by the depth of their centres and drawn back to front.
extension DisplayListBuilder {
    /// A plane to draw in depth order: a model layer, under its parent's
    /// presentation and that parent's full map to the device, at a time (a delayed
    /// copy's), with the opacity and tint handed down to it.
    struct DepthEntry {
        let layer: Layer
        let parent: Layer
        let parent3D: Transform3D
        let time: Double
        let opacity: Double
        let tint: Color?
        /// z / w of the plane's centre on the device: larger is nearer.
        let depth: Double
    }

    /// The planes under transform layer `p` (model `layer`) whose map is `full`.
    static func depthEntries(below layer: Layer, _ p: Layer, full: Transform3D, time: Double, depth: Int) -> [DepthEntry] {
        var entries: [DepthEntry] = []
        collect(layer.sublayers, parent: p, parent3D: full, time: time, opacity: p.opacity, tint: nil, into: &entries, depth: depth)
        return entries
    }

    /// The planes of every copy of a replicator that preserves depth.
    static func depthEntries(copiesOf r: ReplicatorLayer, sublayers: [Layer], device: Transform3D, time: Double, depth: Int) -> [DepthEntry] {
        var entries: [DepthEntry] = []
        for instance in r.instances {
            if let tint = instance.tint, tint.alpha <= 0 { continue }
            collect(sublayers, parent: r, parent3D: instance.transform.concatenating(device), time: time - instance.delay,
                    opacity: 1, tint: instance.tint, into: &entries, depth: depth)
        }
        return entries
    }

    /// `sublayers` as planes; a transform layer among them gives its own sublayers instead.
    private static func collect(_ sublayers: [Layer], parent: Layer, parent3D: Transform3D, time: Double, opacity: Double, tint: Color?,
                                into entries: inout [DepthEntry], depth: Int) {
        guard depth + 1 < maximumDepth else { return }
        for s in drawingOrder(sublayers) {
            let ps = s.hasAnimations ? s.presentation(atTime: time) : s
            guard !ps.isHidden, ps.opacity > 0 else { continue }
            let full = Layer.transform3D(of: ps, in: parent).concatenating(parent3D)
            if ps is TransformLayer {
                collect(s.sublayers, parent: ps, parent3D: full, time: time, opacity: opacity * ps.opacity, tint: tint,
                        into: &entries, depth: depth + 1)
                continue
            }
            let b = ps.bounds
            let (x, y) = (b.midX, b.midY)
            let z = x * full.m13 + y * full.m23 + full.m43, w = x * full.m14 + y * full.m24 + full.m44
            entries.append(DepthEntry(layer: s, parent: parent, parent3D: parent3D, time: time, opacity: opacity, tint: tint,
                                      depth: w > 0 ? z / w : -.infinity))
        }
    }

    /// The planes back to front (equal depths in tree order), each with its
    /// opacity and tint as a group of its own.
    func drawInDepth(_ entries: [DepthEntry], into items: inout [DisplayItem], depth: Int) {
        let order = entries.indices.sorted { (entries[$0].depth, $0) < (entries[$1].depth, $1) }
        var copy = self
        copy.leaves = nil
        copy.damage = nil
        for i in order {
            let e = entries[i]
            copy.time = e.time
            var drawn: [DisplayItem] = []
            copy.draw(e.layer, parent: e.parent, parent3D: e.parent3D, into: &drawn, depth: depth + 1)
            guard e.opacity < 1 || e.tint != nil else { items += drawn; continue }
            let box = drawn.reduce(PixelBox.empty) { $0.union($1.bounds) }.intersection(frame)
            guard !box.isEmpty else { continue }
            items.append(.group(Group(bounds: box, items: drawn, opacity: e.opacity, tint: e.tint.map { pixmanColor($0) })))
        }
    }
}
