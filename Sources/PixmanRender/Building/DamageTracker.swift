import CPixman
import LayerKit

/// Works out which device pixels a frame must repaint: for every layer that
/// draws, its device bounds and a signature of what it draws with; a layer
/// whose signature or bounds changed — or that appeared or went away — damages
/// its old and its new bounds. Animating layers change every frame.
///
/// The signature covers the layer's transform to the device, its accumulated
/// opacity, its place among its siblings, its own model changes and those of its
/// ancestors and mask. Bounds include borders, shadows, shape strokes and contents.
@MainActor
final class DamageTracker {
    /// What a layer drew with: compared field by field (cheaper than hashing them).
    private struct Record: Equatable {
        var bounds: Rect
        var transform: AffineTransform
        var opacity: Double
        var index: Int
        var changeCount: Int
        var ancestry: Int
        var maskChanges: Int
        var time: Double
    }

    private var previous: [ObjectIdentifier: Record] = [:]
    /// The presentation copies the last pass made, for the compositor to reuse.
    private(set) var presentations: [ObjectIdentifier: Layer] = [:]
    /// Damage of recent frames, newest last, for buffers of some age.
    private var history: [[Rect]] = []
    private let historyLength = 8

    /// The damaged rectangles (device pixels, whole) of this frame.
    func damage(root: Layer, time: Double, scale: Double, width: Int, height: Int) -> [Rect] {
        var current: [ObjectIdentifier: Record] = .init(minimumCapacity: previous.count)
        presentations.removeAll(keepingCapacity: true)
        collect(root, parent: nil, parentTransform: AffineTransform(scaleX: scale, y: scale), opacity: 1,
                ancestry: 0, index: 0, time: time, into: &current, depth: 0)
        var rects: [Rect] = []
        for (id, now) in current {
            guard let before = previous[id] else { rects.append(now.bounds); continue }
            if before != now { rects.append(before.bounds); rects.append(now.bounds) }
        }
        for (id, before) in previous where current[id] == nil { rects.append(before.bounds) }
        previous = current
        let canvas = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        var damage = rects.map { $0.intersection(canvas) }.filter { !$0.isEmpty }.map(Self.pixelAligned)
        if damage.count > 64 { damage = [damage.dropFirst().reduce(damage[0]) { $0.union($1) }] }
        // Frames without damage are not drawn or committed: they leave no mark on any buffer.
        if !damage.isEmpty { history.append(damage) }
        if history.count > historyLength { history.removeFirst() }
        return damage
    }

    /// What to repaint in a buffer whose contents are `age` frames old (1: the last
    /// frame's). Nil when the buffer must be painted whole.
    func damage(forBufferAge age: Int) -> [Rect]? {
        guard age > 0, age <= history.count else { return nil }
        return Array(history.suffix(age).joined())
    }

    /// Forgets everything: the next frame is painted whole.
    func reset() {
        previous.removeAll()
        history.removeAll()
    }

    private static func pixelAligned(_ r: Rect) -> Rect {
        let x0 = r.minX.rounded(.down), y0 = r.minY.rounded(.down)
        return Rect(x: x0, y: y0, width: r.maxX.rounded(.up) - x0, height: r.maxY.rounded(.up) - y0)
    }

    /// What a layer passes down to its sublayers.
    private struct Visit {
        let presentation: Layer
        let transform: AffineTransform
        let opacity: Double
        let ancestry: Int
    }

    /// Walks the tree; the per-layer work is in `record`, so each level of a deep
    /// tree costs little stack.
    private func collect(_ layer: Layer, parent: Layer?, parentTransform: AffineTransform, opacity: Double, ancestry: Int,
                         index: Int, time: Double, into records: inout [ObjectIdentifier: Record], depth: Int) {
        guard depth < 4096,
              let visit = record(layer, parent: parent, parentTransform: parentTransform, opacity: opacity,
                                 ancestry: ancestry, index: index, time: time, into: &records) else { return }
        for (i, s) in layer.sublayers.enumerated() {
            collect(s, parent: visit.presentation, parentTransform: visit.transform, opacity: visit.opacity,
                    ancestry: visit.ancestry, index: i, time: time, into: &records, depth: depth + 1)
        }
    }

    /// Records one layer's bounds and signature; nil when it draws nothing.
    @inline(never)
    private func record(_ layer: Layer, parent: Layer?, parentTransform: AffineTransform, opacity: Double, ancestry: Int,
                        index: Int, time: Double, into records: inout [ObjectIdentifier: Record]) -> Visit? {
        let p: Layer
        if layer.hasAnimations {
            p = layer.presentation(atTime: time)
            presentations[ObjectIdentifier(layer)] = p
        } else {
            p = layer
        }
        guard !p.isHidden, p.opacity > 0 else { return nil }
        let full = Layer.transform3D(of: p, in: parent).concatenating(Transform3D(parentTransform))
        let m = full.affineTransform
        guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite else { return nil }
        // A transition also draws the state before the change, whose sublayers may be
        // gone from the tree, and a projected layer is warped: either may touch anything.
        let projective = DisplayListBuilder.isProjective(full)
        let bounds = p.activeTransition == nil && !projective ? Self.deviceBounds(p, m) : Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
        let animated = layer.hasAnimations || (p.mask?.hasAnimations ?? false)
        records[ObjectIdentifier(layer)] = Record(bounds: bounds, transform: m, opacity: opacity * p.opacity, index: index,
                                                  changeCount: layer.changeCount, ancestry: ancestry,
                                                  maskChanges: p.mask?.changeCount ?? -1, time: animated ? time : 0)
        guard !layer.sublayers.isEmpty else { return Visit(presentation: p, transform: m, opacity: opacity * p.opacity, ancestry: 0) }
        var childAncestry = Hasher()
        childAncestry.combine(ancestry)
        childAncestry.combine(layer.changeCount)
        childAncestry.combine(layer.hasAnimations ? time : 0)
        return Visit(presentation: p, transform: m, opacity: opacity * p.opacity, ancestry: childAncestry.finalize())
    }

    /// Everything the layer itself can touch on the device, with a pixel of slack
    /// for anti-aliasing.
    static func deviceBounds(_ p: Layer, _ m: AffineTransform) -> Rect {
        var local = p.bounds
        if let image = p.contents { local = local.union(DisplayListBuilder.contentsFrame(p, imageSize: image.size)) }
        if let shape = p as? ShapeLayer, let path = shape.path {
            let reach = shape.lineWidth * max(1, shape.miterLimit)
            local = local.union(path.boundingBox.insetBy(dx: -reach, dy: -reach))
        }
        if p.shadowOpacity > 0 {
            let blur = 3 * max(0, p.shadowRadius) / 2 + 2
            let source = p.shadowPath?.boundingBox ?? local
            local = local.union(source.offsetBy(dx: p.shadowOffset.width, dy: p.shadowOffset.height).insetBy(dx: -blur, dy: -blur))
        }
        return local.applying(m).insetBy(dx: -1, dy: -1)
    }
}
