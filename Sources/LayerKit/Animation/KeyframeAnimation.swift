import Glibc

/// How keyframe values are joined (`CAAnimationCalculationMode`, rule K4).
public enum CalculationMode: String, Hashable, Sendable {
    /// Straight interpolation between neighbouring values.
    case linear
    /// Each value holds until the next key time.
    case discrete
    /// Constant speed over the whole distance; key times and timing functions are ignored.
    case paced
    /// A Catmull-Rom style spline through the values (tension, continuity, bias when given).
    case cubic
    /// The cubic spline at constant speed.
    case cubicPaced
}

/// How a layer turns while it follows a path (`CAAnimationRotationMode`).
public enum RotationMode: String, Hashable, Sendable {
    /// Along the direction of travel.
    case rotateAuto
    /// Against it (turned by half a turn).
    case rotateAutoReverse
}

/// An animation through a series of values, or along a path (`CAKeyframeAnimation`,
/// rules K1–K5).
///
/// `path` (for point properties: `position`, `anchorPoint`) wins over `values`,
/// and is followed along its real curves. `keyTimes` (0…1, non-decreasing, one per
/// value) say when each value is reached, else they are spread evenly;
/// `timingFunctions` (one per segment) pace each segment.
///
/// Bad input falls back as documented, with a ``LayerKitDiagnostic``: `keyTimes`
/// of the wrong length, decreasing or outside 0…1 are replaced by even spacing;
/// `timingFunctions` of the wrong length are ignored; values of mixed types keep
/// the animation from being added; no values and no usable path leave the
/// property alone.
@MainActor
public final class KeyframeAnimation: PropertyAnimation {
    public var values: [Any]?
    /// Followed by point properties; wins over `values`. The animation keeps a copy.
    public var path: Path?
    public var keyTimes: [Double]?
    public var timingFunctions: [MediaTimingFunction]?
    public var calculationMode = CalculationMode.linear
    public var rotationMode: RotationMode?
    public var tensionValues: [Double]?
    public var continuityValues: [Double]?
    public var biasValues: [Double]?

    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    public required init(copying other: Animation) {
        if let o = other as? KeyframeAnimation {
            values = o.values
            path = o.path?.copy()
            keyTimes = o.keyTimes
            timingFunctions = o.timingFunctions
            calculationMode = o.calculationMode
            rotationMode = o.rotationMode
            tensionValues = o.tensionValues
            continuityValues = o.continuityValues
            biasValues = o.biasValues
        }
        super.init(copying: other)
    }

    override var animationValues: [Any] { path == nil ? (values ?? []) : [] }

    override func problem(for layer: Layer) -> LayerKitDiagnostic? {
        guard let keyPath, !keyPath.isEmpty else { return .missingKeyPath }
        if let path {
            guard layer.value(forKeyPath: keyPath) is Point else {
                return .typeMismatch(keyPath: keyPath, expected: AnyValue.typeName(layer.value(forKeyPath: keyPath)), got: "Path")
            }
            if path.refusedElementCount > 0 || !path.polylines.allSatisfy({ $0.allSatisfy { $0.x.isFinite && $0.y.isFinite } }) {
                return .invalidValue(key: keyPath, reason: "keyframe path has points that are not finite; not added")
            }
            if path.polylines.allSatisfy({ $0.count < 2 }) {
                Diagnostics.report(.invalidTiming("keyframe path for '\(keyPath)' has no segments; it has no effect"))
            }
            return nil
        }
        let vs = (values ?? []).map { AnyValue.normalized($0)! }
        if vs.isEmpty {
            Diagnostics.report(.invalidTiming("keyframe animation of '\(keyPath)' has no values; it has no effect"))
        }
        // Each value against the property's own type first, so the diagnostic names
        // the type the property wants; then values of mixed types (custom properties).
        if let problem = super.problem(for: layer) { return problem }
        if let first = vs.first, let odd = vs.first(where: { !AnyValue.sameType($0, first) }) {
            return .typeMismatch(keyPath: keyPath, expected: AnyValue.typeName(first), got: AnyValue.typeName(odd))
        }
        return nil
    }

    override func prepare(for layer: Layer, entry: AnimationEntry) {
        values = values?.map { AnyValue.normalized($0)! }
        let count = path == nil ? (values?.count ?? 0) : segments().count + 1
        if let kt = keyTimes {
            let n = calculationMode == .discrete ? [count, count + 1] : [count]
            let sorted = zip(kt, kt.dropFirst()).allSatisfy { $0 <= $1 }
            if !n.contains(kt.count) || !sorted || kt.contains(where: { !($0 >= 0 && $0 <= 1) }) {
                Diagnostics.report(.invalidTiming("keyTimes \(kt) do not fit \(count) values (one each, 0…1, non-decreasing); spread evenly instead"))
                keyTimes = nil
            }
        }
        // Tension, continuity and bias shape the spline within −1…1; outside it (NaN,
        // 1e308) the curve's arithmetic overflows.
        for (name, values) in [("tensionValues", \KeyframeAnimation.tensionValues),
                               ("continuityValues", \KeyframeAnimation.continuityValues),
                               ("biasValues", \KeyframeAnimation.biasValues)] {
            guard let given = self[keyPath: values], given.contains(where: { !($0 >= -1 && $0 <= 1) }) else { continue }
            Diagnostics.report(.invalidTiming("\(name) \(given) are not all within −1…1; clamped (NaN is 0)"))
            self[keyPath: values] = given.map { $0.isNaN ? 0 : min(1, max(-1, $0)) }
        }
        if let tf = timingFunctions, tf.count != max(0, count - 1) {
            Diagnostics.report(.invalidTiming("\(tf.count) timingFunctions for \(max(0, count - 1)) segments; ignored"))
            timingFunctions = nil
        }
    }

    // MARK: Evaluation

    override func applyEffect(to presentation: Layer, model: Layer, fraction: Double, iteration: Int, entry: AnimationEntry) {
        guard let keyPath else { return }
        let t = eased(fraction)
        let target = entry.extras.target ?? ParsedKeyPath(keyPath, for: type(of: presentation))
        entry.extras.target = target
        var value: Any
        if path != nil {
            guard let (point, angle) = pointOnPath(at: t) else { return }
            value = point
            if let rotationMode {
                let a = rotationMode == .rotateAuto ? angle : angle + .pi
                presentation.state.transform = Transform3D(rotationAngle: a, x: 0, y: 0, z: 1).concatenating(presentation.state.transform)
            }
        } else {
            guard let vs = values, !vs.isEmpty, let v = valueAt(t, vs) else { return }
            value = v
        }
        if isCumulative && iteration > 0, let first = values?.first, let last = values?.last,
           let delta = AnyValue.subtract(last, first), let ops = ValueOps.of(value) {
            var shifted = value
            for _ in 0..<min(iteration, 10_000) { shifted = ops.add(shifted, delta) ?? shifted }
            value = shifted
        }
        if isAdditive { value = combine(value, base: target.read(presentation)) }
        target.write(value, to: presentation)
    }

    /// Key times for `count` values: the given ones, or evenly spaced.
    private func times(_ count: Int) -> [Double] {
        if let kt = keyTimes, kt.count >= count { return kt }
        guard count > 1 else { return [0] }
        return (0..<count).map { Double($0) / Double(count - 1) }
    }

    /// Finds the segment holding `t` and the eased position within it.
    private func segment(at t: Double, times kt: [Double]) -> (index: Int, local: Double) {
        let n = kt.count
        guard n > 1 else { return (0, 0) }
        var i = 0
        while i < n - 2 && t >= kt[i + 1] { i += 1 }
        let span = kt[i + 1] - kt[i]
        var local = span > 0 ? (t - kt[i]) / span : 1
        local = min(1, max(0, local))
        if let tf = timingFunctions, i < tf.count { local = tf[i].value(at: local) }
        return (i, local)
    }

    private func valueAt(_ t: Double, _ vs: [Any]) -> Any? {
        if vs.count == 1 { return vs[0] }
        switch calculationMode {
        case .discrete:
            let kt = keyTimes ?? (0..<vs.count).map { Double($0) / Double(vs.count) }
            let i = kt.lastIndex { $0 <= t } ?? 0
            return vs[min(i, vs.count - 1)]
        case .linear:
            let (i, local) = segment(at: t, times: times(vs.count))
            return AnyValue.interpolate(vs[i], vs[i + 1], local) ?? (local < 0.5 ? vs[i] : vs[i + 1])
        case .paced:
            let kt = pacedTimes(vs)
            let (i, local) = segmentIgnoringFunctions(at: t, times: kt)
            return AnyValue.interpolate(vs[i], vs[i + 1], local) ?? (local < 0.5 ? vs[i] : vs[i + 1])
        case .cubic:
            guard let vectors = vs as? [any VectorValue] else { return valueAtLinearFallback(t, vs) }
            let (i, local) = segment(at: t, times: times(vs.count))
            return spline(vectors, segment: i, s: local)
        case .cubicPaced:
            guard let vectors = vs as? [any VectorValue] else { return valueAtLinearFallback(t, vs) }
            return splineAtDistance(vectors, fraction: t)
        }
    }

    private func valueAtLinearFallback(_ t: Double, _ vs: [Any]) -> Any? {
        let (i, local) = segment(at: t, times: times(vs.count))
        return AnyValue.interpolate(vs[i], vs[i + 1], local) ?? (local < 0.5 ? vs[i] : vs[i + 1])
    }

    private func segmentIgnoringFunctions(at t: Double, times kt: [Double]) -> (Int, Double) {
        var i = 0
        while i < kt.count - 2 && t >= kt[i + 1] { i += 1 }
        let span = kt[i + 1] - kt[i]
        return (i, span > 0 ? min(1, max(0, (t - kt[i]) / span)) : 1)
    }

    /// Key times proportional to the distance covered (rule K4, paced).
    private func pacedTimes(_ vs: [Any]) -> [Double] {
        var acc = [0.0]
        for (a, b) in zip(vs, vs.dropFirst()) { acc.append(acc.last! + (AnyValue.distance(a, b) ?? 0)) }
        let total = acc.last!
        guard total > 0 else { return times(vs.count) }
        return acc.map { $0 / total }
    }

    // MARK: Cubic splines (Kochanek–Bartels; Catmull–Rom with the defaults)

    private func spline(_ vs: [any VectorValue], segment i: Int, s: Double) -> Any {
        let p = vs.map(\.components)
        let n = p.count
        let p0 = p[max(0, i - 1)], p1 = p[i], p2 = p[min(n - 1, i + 1)], p3 = p[min(n - 1, i + 2)]
        let (t1, c1, b1) = (tensionValues?[safe: i] ?? 0, continuityValues?[safe: i] ?? 0, biasValues?[safe: i] ?? 0)
        let (t2, c2, b2) = (tensionValues?[safe: i + 1] ?? 0, continuityValues?[safe: i + 1] ?? 0, biasValues?[safe: i + 1] ?? 0)
        var out = [Double](repeating: 0, count: p1.count)
        let h00 = 2 * s * s * s - 3 * s * s + 1, h10 = s * s * s - 2 * s * s + s
        let h01 = -2 * s * s * s + 3 * s * s, h11 = s * s * s - s * s
        for k in 0..<p1.count {
            // Outgoing tangent at p1 and incoming tangent at p2.
            let d1 = (1 - t1) * (1 + b1) * (1 + c1) / 2 * (p1[k] - p0[k]) + (1 - t1) * (1 - b1) * (1 - c1) / 2 * (p2[k] - p1[k])
            let d2 = (1 - t2) * (1 + b2) * (1 - c2) / 2 * (p2[k] - p1[k]) + (1 - t2) * (1 - b2) * (1 + c2) / 2 * (p3[k] - p2[k])
            out[k] = h00 * p1[k] + h10 * d1 + h01 * p2[k] + h11 * d2
        }
        return type(of: vs[i]).init(components: out)
    }

    private func splineAtDistance(_ vs: [any VectorValue], fraction t: Double) -> Any {
        // Arc length by sampling each segment finely, then invert.
        let samplesPerSegment = 32
        var points: [(segment: Int, s: Double, length: Double)] = [(0, 0, 0)]
        var previous = vs[0].components
        for i in 0..<(vs.count - 1) {
            for j in 1...samplesPerSegment {
                let s = Double(j) / Double(samplesPerSegment)
                let c = (spline(vs, segment: i, s: s) as! any VectorValue).components
                let d = zip(c, previous).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
                points.append((i, s, points.last!.length + d))
                previous = c
            }
        }
        let total = points.last!.length
        guard total > 0 else { return vs[0] }
        let goal = min(1, max(0, t)) * total
        let k = points.firstIndex { $0.length >= goal } ?? points.count - 1
        guard k > 0 else { return spline(vs, segment: 0, s: 0) }
        let a = points[k - 1], b = points[k]
        let w = b.length > a.length ? (goal - a.length) / (b.length - a.length) : 0
        let s = a.segment == b.segment ? a.s + (b.s - a.s) * w : b.s * w
        return spline(vs, segment: b.segment, s: s)
    }

    // MARK: Paths (rules K1, K5)

    /// The path's drawing segments, each from its start point, as cubic-capable pieces.
    private func segments() -> [(from: Point, element: Path.Element)] {
        guard let path else { return [] }
        var result: [(Point, Path.Element)] = []
        var current = Point.zero, start = Point.zero
        for e in path.elements {
            switch e {
            case .move(let p): current = p; start = p
            case .line(let p): result.append((current, e)); current = p
            case .quadCurve(let p, _): result.append((current, e)); current = p
            case .curve(let p, _, _): result.append((current, e)); current = p
            case .close:
                if current != start { result.append((current, .line(start))) }
                current = start
            }
        }
        return result
    }

    private func pointOnPath(at t: Double) -> (Point, Double)? {
        guard let path else { return nil }
        if calculationMode == .paced || calculationMode == .cubicPaced {
            return path.point(atDistance: min(1, max(0, t)) * path.length).map { ($0.point, $0.angle) }
        }
        let segs = segments()
        guard !segs.isEmpty else { return nil }
        if calculationMode == .discrete {
            let ends = [segs[0].from] + segs.map { Self.end(of: $0.element) }
            let kt = keyTimes ?? (0..<ends.count).map { Double($0) / Double(ends.count) }
            let i = kt.lastIndex { $0 <= t } ?? 0
            return (ends[min(i, ends.count - 1)], 0)
        }
        let (i, s) = segment(at: t, times: times(segs.count + 1))
        return Self.point(on: segs[i], at: s)
    }

    private static func end(of e: Path.Element) -> Point {
        switch e {
        case .move(let p), .line(let p), .quadCurve(let p, _), .curve(let p, _, _): return p
        case .close: return .zero
        }
    }

    /// A point on one segment at curve parameter `s`, with the tangent's angle.
    private static func point(on seg: (from: Point, element: Path.Element), at s: Double) -> (Point, Double) {
        let p0 = seg.from
        func angle(_ dx: Double, _ dy: Double) -> Double { atan2Safe(dy, dx) }
        switch seg.element {
        case .line(let p):
            return (p0.interpolated(to: p, fraction: s), angle(p.x - p0.x, p.y - p0.y))
        case .quadCurve(let p, let c):
            let u = 1 - s
            let pt = Point(x: u * u * p0.x + 2 * u * s * c.x + s * s * p.x, y: u * u * p0.y + 2 * u * s * c.y + s * s * p.y)
            let d = Point(x: 2 * u * (c.x - p0.x) + 2 * s * (p.x - c.x), y: 2 * u * (c.y - p0.y) + 2 * s * (p.y - c.y))
            return (pt, angle(d.x, d.y))
        case .curve(let p, let c1, let c2):
            let u = 1 - s
            let pt = Path.cubic(p0, c1, c2, p, s)
            let dx = 3 * u * u * (c1.x - p0.x) + 6 * u * s * (c2.x - c1.x) + 3 * s * s * (p.x - c2.x)
            let dy = 3 * u * u * (c1.y - p0.y) + 6 * u * s * (c2.y - c1.y) + 3 * s * s * (p.y - c2.y)
            return (pt, angle(dx, dy))
        case .move(let p):
            return (p, 0)
        case .close:
            return (p0, 0)
        }
    }
}

private func atan2Safe(_ y: Double, _ x: Double) -> Double {
    (x == 0 && y == 0) ? 0 : atan2(y, x)
}

extension Array {
    subscript(safe i: Int) -> Element? { indices.contains(i) ? self[i] : nil }
}
