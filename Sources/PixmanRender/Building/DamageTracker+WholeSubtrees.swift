import LayerKit

/// Replicators, transform layers and rasterized layers in the damage pass. A
/// replicator's copies, and the planes under a transform layer (kept in 3D, not in
/// their parent's plane), land where no record of their layers says; a rasterized
/// layer's bitmap, sampled onto the device, touches its whole extent at once (the
/// fuzzer found its blend reaching past a sublayer's record). So such a layer is
/// looked at as one whole: its drawing is bounded by everything its subtree draws
/// (every copy at its own time; planes by their projected corners), changes with
/// anything in the subtree (its subtree version), and with the time while anything
/// in it animates. Its sublayers get no records of their own.
extension DamageTracker {
    func wholeSubtreeDrawing(_ p: Layer, model: Layer, _ inputs: Inputs, full: Transform3D, _ m: AffineTransform, bounds own: Rect,
                             time: Double, animated: Bool) -> Drawing {
        var bounds = own
        if !inputs.inProjection {
            let spread = inputs.shadowSpread + (p is TransformLayer ? 0 : Self.contentShadowSpread(p, m))
            let below = Self.extentBelow(p, model: model, full: full, m, time: time, depth: 0)
            // A transform layer draws nothing of its own, and its planes are not in its plane.
            let mine: Rect? = p is TransformLayer ? nil : own
            // (A rasterized bitmap is sampled bilinearly: a pixel of slack around it.)
            let slack = p.shouldRasterize ? 2.0 : 0
            switch (mine, below.map { $0.insetBy(dx: -slack, dy: -slack) }) {
            case (let a?, let b?): bounds = a.union(b.insetBy(dx: -spread, dy: -spread))
            case (nil, let b?): bounds = b.insetBy(dx: -spread, dy: -spread)
            case (let a?, nil): bounds = a
            case (nil, nil): bounds = .zero
            }
            bounds = bounds.intersection(Self.everywhere)
        }
        return Drawing(bounds: bounds, transform: m, opacity: inputs.opacity * p.opacity, modelVersion: model.subtreeVersion,
                       maskVersion: p.modelMask?.subtreeVersion ?? 0, time: animated ? time : 0,
                       transitionPass: 0, clips: p.masksToBounds, masked: p.modelMask != nil)
    }

    /// Everything the sublayers of `p` (model `model`, map `full`, flattened `m`)
    /// draw: each copy of a replicator's, in 3D under a transform layer, else flat.
    static func extentBelow(_ p: Layer, model: Layer, full: Transform3D, _ m: AffineTransform, time: Double, depth: Int) -> Rect? {
        var union: Rect?
        func add(_ sublayers: [Layer], _ t: Transform3D, _ time: Double) {
            for s in sublayers where union != everywhere {
                guard let b = extent(of: s, parent: p, transform: t, time: time, depth: depth + 1) else { continue }
                union = union.map { $0.union(b) } ?? b
            }
        }
        if let r = p as? ReplicatorLayer {
            let device = Transform3D(m)
            for instance in r.instances { add(model.sublayers, instance.transform.concatenating(device), time - instance.delay) }
        } else {
            add(model.sublayers, p is TransformLayer ? full : Transform3D(m), time)
        }
        return union
    }

    /// Everything `layer`'s subtree can touch, under its parent's map `t`, at `time`.
    private static func extent(of layer: Layer, parent: Layer, transform t: Transform3D, time: Double, depth: Int) -> Rect? {
        guard depth < DisplayListBuilder.maximumDepth else { return nil }
        let p = layer.hasAnimations ? layer.presentation(atTime: time) : layer
        guard !p.isHidden, p.opacity > 0 else { return nil }
        let full = Layer.transform3D(of: p, in: parent).concatenating(t)
        if p.activeTransition != nil { return everywhere }
        if p is TransformLayer { return extentBelow(p, model: layer, full: full, full.affineTransform, time: time, depth: depth) }
        if DisplayListBuilder.isProjective(full) {
            // Drawn flat in its plane and clipped to its bounds (`drawInPerspective`).
            guard let corners = DisplayListBuilder.projectedCorners(p.bounds, full) else { return everywhere }
            let box = Rect.boundingBox(of: corners).insetBy(dx: -2, dy: -2)
            return [box.minX, box.minY, box.maxX, box.maxY].allSatisfy { abs($0) < 1e8 } ? box : everywhere
        }
        let m = full.affineTransform
        guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite else { return nil }
        var bounds = deviceBounds(p, m, time: time)
        if let below = extentBelow(p, model: layer, full: full, m, time: time, depth: depth) {
            let spread = contentShadowSpread(p, m)
            bounds = bounds.union(below.insetBy(dx: -spread, dy: -spread))
        }
        return bounds
    }
}
