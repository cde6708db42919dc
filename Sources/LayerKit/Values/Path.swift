import Glibc
import Synchronization

/// A 2D path of lines, quadratic and cubic Bézier curves (matches `CGPath`/`UIBezierPath`).
///
/// Layers keep their own copy of a path they are given, so changing a path after
/// assigning it does not change the layer behind its back (a `CGPath` is immutable).
/// Arcs are stored as cubic curves. `length` and `point(atDistance:)` follow the real
/// curves, which paced keyframe animation and motion along a path use (rule K5).
///
/// A path may be shared between threads (render workers read them): its state is
/// guarded by a lock, so reading while another thread adds to it is safe.
public final class Path: Hashable, Sendable, CustomStringConvertible {
    public enum Element: Hashable, Sendable {
        case move(Point)
        case line(Point)
        case quadCurve(to: Point, control: Point)
        case curve(to: Point, control1: Point, control2: Point)
        case close

        /// False when a point is NaN or ∞.
        var isFinite: Bool {
            func ok(_ p: Point) -> Bool { p.x.isFinite && p.y.isFinite }
            switch self {
            case .move(let p), .line(let p): return ok(p)
            case .quadCurve(let p, let c): return ok(p) && ok(c)
            case .curve(let p, let c1, let c2): return ok(p) && ok(c1) && ok(c2)
            case .close: return true
            }
        }
    }

    private struct State: Sendable {
        var elements: [Element] = []
        var subpathStart: Point?
        var cachedPolyline: [[Point]]?
        /// Changes with every element added, so a flattening of older elements is not kept.
        var version = 0
        var refused = 0
    }
    private let state = Mutex(State())

    /// The elements, in order.
    public var elements: [Element] { state.withLock { $0.elements } }

    /// Elements left out because a point was NaN or ∞ (as a layer refuses such
    /// values): the rest of the path stays. A layer given such a path says so with
    /// a diagnostic.
    public var refusedElementCount: Int { state.withLock { $0.refused } }

    public init() {}

    public init(elements: [Element]) {
        for e in elements { append(e) }
    }

    public convenience init(rect: Rect) {
        self.init()
        let r = rect.standardized
        move(to: Point(x: r.minX, y: r.minY))
        addLine(to: Point(x: r.maxX, y: r.minY))
        addLine(to: Point(x: r.maxX, y: r.maxY))
        addLine(to: Point(x: r.minX, y: r.maxY))
        closeSubpath()
    }

    /// A rounded rectangle; the radius is clamped to half the shorter side.
    public convenience init(roundedRect rect: Rect, cornerRadius: Double) {
        let r = rect.standardized
        let radius = max(0, min(cornerRadius.isNaN ? 0 : cornerRadius, r.width / 2, r.height / 2))
        guard radius > 0 else { self.init(rect: r); return }
        self.init()
        move(to: Point(x: r.minX + radius, y: r.minY))
        addLine(to: Point(x: r.maxX - radius, y: r.minY))
        addArc(center: Point(x: r.maxX - radius, y: r.minY + radius), radius: radius, startAngle: -.pi / 2, endAngle: 0, clockwise: true)
        addLine(to: Point(x: r.maxX, y: r.maxY - radius))
        addArc(center: Point(x: r.maxX - radius, y: r.maxY - radius), radius: radius, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        addLine(to: Point(x: r.minX + radius, y: r.maxY))
        addArc(center: Point(x: r.minX + radius, y: r.maxY - radius), radius: radius, startAngle: .pi / 2, endAngle: .pi, clockwise: true)
        addLine(to: Point(x: r.minX, y: r.minY + radius))
        addArc(center: Point(x: r.minX + radius, y: r.minY + radius), radius: radius, startAngle: .pi, endAngle: 1.5 * .pi, clockwise: true)
        closeSubpath()
    }

    public convenience init(ellipseIn rect: Rect) {
        self.init()
        let r = rect.standardized
        let (cx, cy, rx, ry) = (r.midX, r.midY, r.width / 2, r.height / 2)
        let k = 0.5522847498307936  // 4/3·(√2 − 1): cubic approximation of a quarter circle
        move(to: Point(x: cx + rx, y: cy))
        addCurve(to: Point(x: cx, y: cy + ry), control1: Point(x: cx + rx, y: cy + k * ry), control2: Point(x: cx + k * rx, y: cy + ry))
        addCurve(to: Point(x: cx - rx, y: cy), control1: Point(x: cx - k * rx, y: cy + ry), control2: Point(x: cx - rx, y: cy + k * ry))
        addCurve(to: Point(x: cx, y: cy - ry), control1: Point(x: cx - rx, y: cy - k * ry), control2: Point(x: cx - k * rx, y: cy - ry))
        addCurve(to: Point(x: cx + rx, y: cy), control1: Point(x: cx + k * rx, y: cy - ry), control2: Point(x: cx + rx, y: cy - k * ry))
        closeSubpath()
    }

    /// Appends the elements of another path (a new subpath for each of its moves).
    public func append(_ other: Path) {
        for e in other.elements { append(e) }
    }

    /// An independent copy.
    public func copy() -> Path { Path(elements: elements) }

    public var isEmpty: Bool { state.withLock { $0.elements.isEmpty } }

    /// The point the next segment starts from.
    public var currentPoint: Point? { state.withLock { Self.currentPoint($0) } }

    private static func currentPoint(_ s: State) -> Point? {
        switch s.elements.last {
        case .move(let p)?, .line(let p)?, .quadCurve(let p, _)?, .curve(let p, _, _)?: return p
        case .close?: return s.subpathStart
        case nil: return nil
        }
    }

    private func append(_ e: Element) {
        state.withLock { s in
            guard e.isFinite else {
                s.refused += 1
                return
            }
            s.cachedPolyline = nil
            s.version += 1
            switch e {
            case .move(let p): s.subpathStart = p
            case .close: break
            default: if Self.currentPoint(s) == nil { s.elements.append(.move(.zero)); s.subpathStart = .zero }
            }
            s.elements.append(e)
        }
    }

    public func move(to p: Point) { append(.move(p)) }
    public func addLine(to p: Point) { append(.line(p)) }
    public func addQuadCurve(to p: Point, control: Point) { append(.quadCurve(to: p, control: control)) }
    public func addCurve(to p: Point, control1: Point, control2: Point) { append(.curve(to: p, control1: control1, control2: control2)) }
    public func closeSubpath() { if currentPoint != nil { append(.close) } }

    /// Adds an arc of a circle. Angles are in radians from the +x axis; on a y-down
    /// screen `clockwise: true` turns towards +y, as `UIBezierPath` does. A line joins
    /// the current point to the arc's start, if there is a current point.
    public func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        guard radius.isFinite, startAngle.isFinite, endAngle.isFinite, radius >= 0 else { return }
        var sweep = endAngle - startAngle
        let full = 2 * Double.pi
        if clockwise {
            sweep = sweep.truncatingRemainder(dividingBy: full); if sweep < 0 { sweep += full }
            if sweep == 0 && endAngle != startAngle { sweep = full }
        } else {
            sweep = sweep.truncatingRemainder(dividingBy: full); if sweep > 0 { sweep -= full }
            if sweep == 0 && endAngle != startAngle { sweep = -full }
        }
        let start = Point(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if currentPoint == nil { move(to: start) } else if currentPoint != start { addLine(to: start) }
        let pieces = max(1, Int((abs(sweep) / (Double.pi / 2)).rounded(.up)))
        let step = sweep / Double(pieces)
        let k = 4.0 / 3.0 * tan(step / 4)
        var a0 = startAngle
        for _ in 0..<pieces {
            let a1 = a0 + step
            let p0 = Point(x: center.x + radius * cos(a0), y: center.y + radius * sin(a0))
            let p1 = Point(x: center.x + radius * cos(a1), y: center.y + radius * sin(a1))
            addCurve(to: p1,
                     control1: Point(x: p0.x - k * radius * sin(a0), y: p0.y + k * radius * cos(a0)),
                     control2: Point(x: p1.x + k * radius * sin(a1), y: p1.y - k * radius * cos(a1)))
            a0 = a1
        }
    }

    /// The path flattened into polylines, one per subpath, with curves split finely
    /// enough that the chord error stays under about 0.01 units.
    public var polylines: [[Point]] {
        let (cached, elements, version) = state.withLock { ($0.cachedPolyline, $0.elements, $0.version) }
        if let cached { return cached }
        var result: [[Point]] = []
        var current: [Point] = []
        var start = Point.zero
        func flush() { if current.count > 0 { result.append(current) }; current = [] }
        for e in elements {
            let from = current.last ?? start
            switch e {
            case .move(let p): flush(); start = p; current = [p]
            case .line(let p): current.append(p)
            case .quadCurve(let p, let c):
                let n = Self.segmentCount(from, c, c, p)
                for i in 1...n {
                    let t = Double(i) / Double(n), u = 1 - t
                    current.append(Point(x: u * u * from.x + 2 * u * t * c.x + t * t * p.x,
                                         y: u * u * from.y + 2 * u * t * c.y + t * t * p.y))
                }
            case .curve(let p, let c1, let c2):
                let n = Self.segmentCount(from, c1, c2, p)
                for i in 1...n { current.append(Self.cubic(from, c1, c2, p, Double(i) / Double(n))) }
            case .close:
                if let first = current.first, current.last != first { current.append(first) }
                flush(); start = result.last?.first ?? start
            }
        }
        flush()
        state.withLock { if $0.version == version { $0.cachedPolyline = result } }
        return result
    }

    static func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
        let u = 1 - t
        let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
        return Point(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y)
    }

    private static func segmentCount(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point) -> Int {
        // Bound on the second difference of the curve; enough pieces keep the chord error small.
        let ddx = max(abs(p0.x - 2 * p1.x + p2.x), abs(p1.x - 2 * p2.x + p3.x))
        let ddy = max(abs(p0.y - 2 * p1.y + p2.y), abs(p1.y - 2 * p2.y + p3.y))
        let dd = (ddx * ddx + ddy * ddy).squareRoot()
        guard dd.isFinite else { return 1 }
        return min(1000, max(1, Int((dd * 6 / 0.08).squareRoot().rounded(.up))))
    }

    /// The total length of all subpaths, along the curves.
    public var length: Double {
        polylines.reduce(0) { total, line in
            zip(line, line.dropFirst()).reduce(total) { $0 + $1.0.distance(to: $1.1) }
        }
    }

    /// The point at arc length `distance` from the start (clamped to the path), with
    /// the direction of travel there in radians. Nil for a path with no segments.
    public func point(atDistance distance: Double) -> (point: Point, angle: Double)? {
        let lines = polylines.filter { $0.count > 1 }
        guard let lastLine = lines.last else { return nil }
        var remaining = max(0, distance.isNaN ? 0 : distance)
        var lastAngle = 0.0
        for line in lines {
            for (a, b) in zip(line, line.dropFirst()) {
                let d = a.distance(to: b)
                if d == 0 { continue }
                lastAngle = atan2(b.y - a.y, b.x - a.x)
                if remaining <= d {
                    let t = remaining / d
                    return (Point(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), lastAngle)
                }
                remaining -= d
            }
        }
        return (lastLine.last!, lastAngle)
    }

    /// The bounding box of the flattened path (`.null` when empty).
    public var boundingBox: Rect { Rect.boundingBox(of: polylines.flatMap { $0 }) }

    public static func == (l: Path, r: Path) -> Bool { l === r || l.elements == r.elements }
    public func hash(into h: inout Hasher) { h.combine(elements) }
    public var description: String { "Path(\(elements.count) elements)" }
}
