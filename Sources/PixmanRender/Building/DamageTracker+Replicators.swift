import LayerKit

/// A replicator's copies in the damage pass. The copies of a sublayer land where
/// no record of the sublayer says, so a replicator is looked at as one whole: its
/// drawing is bounded by every copy of its subtree (at each copy's time), changes
/// with anything in the subtree (its subtree version), and with the time while
/// anything in it animates. Its sublayers get no records of their own.
extension DamageTracker {
    func replicatorDrawing(_ r: ReplicatorLayer, model: Layer, _ inputs: Inputs, _ m: AffineTransform, bounds own: Rect,
                           projected: Bool, time: Double, animated: Bool) -> Drawing {
        var bounds = own
        if !projected, own != Self.everywhere {
            let spread = inputs.shadowSpread + Self.contentShadowSpread(r, m)
            if let copies = Self.replicatedExtent(r, model: model, transform: m, time: time, depth: 0) {
                bounds = bounds.union(copies.insetBy(dx: -spread, dy: -spread)).intersection(Self.everywhere)
            }
        }
        return Drawing(bounds: bounds, transform: m, opacity: inputs.opacity * r.opacity, modelVersion: model.subtreeVersion,
                       maskVersion: r.modelMask?.subtreeVersion ?? 0, time: animated ? time : 0,
                       transitionPass: 0, clips: r.masksToBounds, masked: r.modelMask != nil)
    }

    /// Every device pixel the copies of `model`'s sublayers can touch; nil when they draw nothing.
    static func replicatedExtent(_ r: ReplicatorLayer, model: Layer, transform m: AffineTransform, time: Double, depth: Int) -> Rect? {
        var union: Rect?
        let device = Transform3D(m)
        for instance in r.instances {
            let t = instance.transform.concatenating(device)
            for s in model.sublayers {
                guard let b = extent(of: s, parent: r, transform: t, time: time - instance.delay, depth: depth + 1) else { continue }
                union = union.map { $0.union(b) } ?? b
                if union == everywhere { return union }
            }
        }
        return union
    }

    /// Everything `layer`'s subtree can touch, under its parent's map `t`, at `time`.
    private static func extent(of layer: Layer, parent: Layer, transform t: Transform3D, time: Double, depth: Int) -> Rect? {
        guard depth < DisplayListBuilder.maximumDepth else { return nil }
        let p = layer.hasAnimations ? layer.presentation(atTime: time) : layer
        guard !p.isHidden, p.opacity > 0 else { return nil }
        let full = Layer.transform3D(of: p, in: parent).concatenating(t)
        if DisplayListBuilder.isProjective(full) || p.activeTransition != nil { return everywhere }
        let m = full.affineTransform
        guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite else { return nil }
        var bounds = deviceBounds(p, m)
        var below: Rect?
        if let nested = p as? ReplicatorLayer {
            below = replicatedExtent(nested, model: layer, transform: m, time: time, depth: depth)
        } else {
            let device = Transform3D(m)
            for s in layer.sublayers {
                guard let b = extent(of: s, parent: p, transform: device, time: time, depth: depth + 1) else { continue }
                below = below.map { $0.union(b) } ?? b
            }
        }
        if let below {
            let spread = contentShadowSpread(p, m)
            bounds = bounds.union(below.insetBy(dx: -spread, dy: -spread))
        }
        return bounds
    }
}
