extension Layer {
    /// The layer's rectangle in its superlayer's coordinates (rule L2): derived,
    /// never stored. The bounds size is placed so that the anchor point lies at
    /// `position`, then `transform` is applied about the anchor point; with a
    /// rotating or projective transform this is the bounding box.
    ///
    /// Setting it sets `position` and `bounds.size` (keeping `bounds.origin`),
    /// with the transform taken back out, so those properties' actions run; the
    /// frame itself has no action (rule B2). Negative sizes are standardised.
    public var frame: Rect {
        get {
            let s = state
            let w = s.bounds.size.width, h = s.bounds.size.height
            let box = Rect(x: -s.anchorPoint.x * w, y: -s.anchorPoint.y * h, width: w, height: h)
            if s.transform.isIdentity {
                return box.offsetBy(dx: s.position.x, dy: s.position.y)
            }
            let t = s.transform
            let projected = box.corners.map { p -> Point in
                let z = -s.anchorPointZ
                let w4 = p.x * t.m14 + p.y * t.m24 + z * t.m34 + t.m44
                let x = p.x * t.m11 + p.y * t.m21 + z * t.m31 + t.m41
                let y = p.x * t.m12 + p.y * t.m22 + z * t.m32 + t.m42
                let d = w4 == 0 ? 1 : w4
                return Point(x: x / d + s.position.x, y: y / d + s.position.y)
            }
            return Rect.boundingBox(of: projected)
        }
        set {
            let r = newValue.standardized
            guard r.origin.x.isFinite, r.origin.y.isFinite, r.width.isFinite, r.height.isFinite else {
                return Diagnostics.report(.invalidValue(key: "frame", reason: "not finite: \(newValue)"))
            }
            let s = state
            var size = r.size
            let a = s.transform.affineTransform
            if !s.transform.isIdentity {
                // The size whose transformed bounding box has the frame's size.
                let inverse = AffineTransform(a: a.a, b: a.b, c: a.c, d: a.d, tx: 0, ty: 0).inverted()
                let back = Rect(origin: .zero, size: r.size).applying(inverse)
                size = Size(width: back.width, height: back.height)
            }
            // The frame's centre is where the bounds' centre lands after the transform.
            let offset = Point(x: (0.5 - s.anchorPoint.x) * size.width, y: (0.5 - s.anchorPoint.y) * size.height)
            let moved = Point(x: a.a * offset.x + a.c * offset.y + a.tx, y: a.b * offset.x + a.d * offset.y + a.ty)
            position = Point(x: r.midX - moved.x, y: r.midY - moved.y)
            bounds = Rect(origin: s.bounds.origin, size: size)
        }
    }

    // MARK: Time (rule L3)

    /// Maps a root time (`currentMediaTime()`) into this layer's local time: each
    /// layer from the root down applies `(t − beginTime) · speed + timeOffset`.
    /// Iterative, as every tree walk is: no tree is too deep for it.
    func localTime(fromRoot t: Double) -> Double {
        if hasNoTimingOnPath { return t }   // the common tree: nothing to convert, nothing built
        var time = t
        for timing in timingsFromRoot() {
            time = Self.localTime(fromParent: time, beginTime: timing.beginTime, speed: timing.speed, timeOffset: timing.timeOffset)
        }
        return time
    }

    /// A layer's time from its superlayer's (rule L3); the timeline's pass uses it
    /// with timing it keeps, so both give exactly the same times.
    @inline(__always)
    static func localTime(fromParent t: Double, beginTime: Double, speed: Double, timeOffset: Double) -> Double {
        (t - beginTime) * speed + timeOffset
    }

    /// `localTime(fromRoot:)` as an affine map, local = scale · root + shift.
    var timeMapFromRoot: (scale: Double, shift: Double) {
        var map = (scale: 1.0, shift: 0.0)
        if hasNoTimingOnPath { return map }
        for timing in timingsFromRoot() {
            map = (map.scale * timing.speed, (map.shift - timing.beginTime) * timing.speed + timing.timeOffset)
        }
        return map
    }

    /// True when neither this layer nor any superlayer has timing of its own: a
    /// plain walk up, borrowing model layers' links, with nothing allocated.
    private var hasNoTimingOnPath: Bool {
        if modelLayer != nil {
            var layer: Layer? = self
            while let l = layer {
                if l.state.beginTime != 0 || l.state.speed != 1 || l.state.timeOffset != 0 { return false }
                layer = l.superlayer
            }
            return true
        }
        var layer: Unmanaged<Layer>? = Unmanaged.passUnretained(self)
        while let l = layer {
            let plain = Layer.borrowing(l) { $0.state.beginTime == 0 && $0.state.speed == 1 && $0.state.timeOffset == 0 }
            if !plain { return false }
            layer = Layer.borrowing(l) { $0.superlayerReference }
        }
        return true
    }

    /// The timings of this layer and its superlayers that are not the identity
    /// (begin 0, speed 1, offset 0 change no time exactly), root first. Empty —
    /// no allocation — in the common tree where no layer has timing of its own.
    private func timingsFromRoot() -> [(beginTime: Double, speed: Double, timeOffset: Double)] {
        var timings: [(beginTime: Double, speed: Double, timeOffset: Double)] = []
        func note(_ l: Layer) {
            // Field by field: a copy of the whole state per level would cost more than the walk.
            let (begin, speed, offset) = (l.state.beginTime, l.state.speed, l.state.timeOffset)
            if begin != 0 || speed != 1 || offset != 0 { timings.append((begin, speed, offset)) }
        }
        if modelLayer != nil {
            // A presentation copy's superlayer is a presentation of its model's superlayer.
            var layer: Layer? = self
            while let l = layer { note(l); layer = l.superlayer }
        } else {
            // A model layer's superlayers are borrowed through their stored links, not retained.
            var layer: Unmanaged<Layer>? = Unmanaged.passUnretained(self)
            while let l = layer { layer = Layer.borrowing(l) { note($0); return $0.superlayerReference } }
        }
        timings.reverse()
        return timings
    }

    /// The inverse of `localTime(fromRoot:)`. Where a layer on the way has speed 0
    /// every parent time maps to the same local time; its `beginTime` is used.
    func rootTime(fromLocal t: Double) -> Double {
        var time = t
        var layer: Layer? = self
        while let l = layer {
            let (begin, speed, offset) = (l.state.beginTime, l.state.speed, l.state.timeOffset)
            time = speed == 0 ? begin : (time - offset) / speed + begin
            layer = l.superlayer
        }
        return time
    }

    /// Converts a time from `layer`'s time space (nil: root time, as
    /// `currentMediaTime()` returns) into this layer's (`convertTime(_:from:)`).
    public func convertTime(_ t: Double, from layer: Layer?) -> Double {
        localTime(fromRoot: layer?.rootTime(fromLocal: t) ?? t)
    }

    /// Converts a time in this layer's time space into `layer`'s (nil: root time).
    public func convertTime(_ t: Double, to layer: Layer?) -> Double {
        let root = rootTime(fromLocal: t)
        return layer?.localTime(fromRoot: root) ?? root
    }

    // MARK: Points

    /// The affine map from this layer's bounds coordinates to its superlayer's:
    /// bounds origin and anchor point, `transform` about the anchor, `position`,
    /// then the superlayer's `sublayerTransform` about its anchor (rule R1).
    /// Perspective is not part of it.
    public var affineTransformToSuperlayer: AffineTransform {
        Layer.affineTransform(of: self, in: superlayer)
    }

    /// The same map for any pair of layers — presentation copies too, which have no
    /// superlayer of their own: `layer`'s coordinates to `superlayer`'s (the z = 0
    /// plane of ``transform3D(of:in:)``, without the perspective divide).
    public static func affineTransform(of layer: Layer, in superlayer: Layer?) -> AffineTransform {
        transform3D(of: layer, in: superlayer).affineTransform
    }

    /// The full map from `layer`'s coordinates to `superlayer`'s, with depth and
    /// perspective (rule R1): anchor point, `transform`, `position` and
    /// `zPosition`, then the superlayer's `sublayerTransform` about its anchor point.
    public static func transform3D(of layer: Layer, in superlayer: Layer?) -> Transform3D {
        let s = layer.state
        let ax = s.bounds.origin.x + s.anchorPoint.x * s.bounds.size.width
        let ay = s.bounds.origin.y + s.anchorPoint.y * s.bounds.size.height
        var t = Transform3D(translationX: -ax, y: -ay, z: -s.anchorPointZ)
            .concatenating(s.transform)
            .concatenating(Transform3D(translationX: s.position.x, y: s.position.y, z: s.zPosition))
        if let p = superlayer?.state, !p.sublayerTransform.isIdentity {
            let cx = p.bounds.origin.x + p.anchorPoint.x * p.bounds.size.width
            let cy = p.bounds.origin.y + p.anchorPoint.y * p.bounds.size.height
            t = t.concatenating(Transform3D(translationX: -cx, y: -cy, z: 0))
                .concatenating(p.sublayerTransform)
                .concatenating(Transform3D(translationX: cx, y: cy, z: 0))
        }
        return t
    }

    /// The affine map from this layer's coordinates to its root layer's superlayer space.
    var affineTransformToRoot: AffineTransform {
        var m = AffineTransform.identity
        var current: Layer? = self
        while let l = current {
            m = m.concatenating(l.affineTransformToSuperlayer)
            current = l.superlayer
        }
        return m
    }

    /// Converts a point from this layer's coordinates to `layer`'s (nil: the space
    /// the root layer is placed in). Both layers should share a root.
    public func convert(_ point: Point, to layer: Layer?) -> Point {
        let p = point.applying(affineTransformToRoot)
        guard let layer else { return p }
        return p.applying(layer.affineTransformToRoot.inverted())
    }

    /// Converts a point from `layer`'s coordinates (nil: the root's placement space) to this layer's.
    public func convert(_ point: Point, from layer: Layer?) -> Point {
        let p = layer.map { point.applying($0.affineTransformToRoot) } ?? point
        return p.applying(affineTransformToRoot.inverted())
    }
}
