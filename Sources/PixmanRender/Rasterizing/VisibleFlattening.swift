import Glibc
import LayerKit

/// Flattens a path in device space, spending subdivision only where it can be
/// seen: a curve whose control hull (grown by `pad`, half a stroke) misses the
/// area is replaced by that hull's three sides — outside the area, and with the
/// same winding number at every point inside it, so fills and strokes are exact
/// in view — and a curve that reaches into it is halved until it is flat within
/// a tenth of a pixel. A circle of radius 10¹² costs what its visible arc costs
/// (about 43 halvings deep), where flattening it whole would either take
/// millions of segments or miss the view by kilometres.
enum VisibleFlattening {
    static let tolerance = 0.1
    /// Halvings at most per curve (2⁻⁶⁰ of a curve is below any device pixel).
    static let maximumDepth = 60
    /// Points at most per curve: the visible part of any finite curve needs far
    /// fewer; past it the rest of the curve is its chord.
    static let maximumPoints = 1 << 16

    /// The path's subpaths as device-space polylines (closed ones end where they began).
    static func polylines(_ path: Path, _ m: AffineTransform, area: Rect, pad: Double) -> [[Point]] {
        let view = area.insetBy(dx: -pad, dy: -pad)
        var result: [[Point]] = []
        var current: [Point] = []
        var start = Point.zero
        func flush() {
            if current.count > 1 { result.append(current) }
            current = []
        }
        for element in path.elements {
            switch element {
            case let .move(p):
                flush()
                start = p.applying(m)
                current = [start]
            case let .line(p):
                if current.isEmpty { current = [start] }
                current.append(p.applying(m))
            case let .quadCurve(to, c):
                if current.isEmpty { current = [start] }
                let p0 = current.last!
                let q = c.applying(m), p3 = to.applying(m)
                // As a cubic: control points two thirds of the way to the quadratic's.
                let c1 = Point(x: p0.x + (q.x - p0.x) * 2 / 3, y: p0.y + (q.y - p0.y) * 2 / 3)
                let c2 = Point(x: p3.x + (q.x - p3.x) * 2 / 3, y: p3.y + (q.y - p3.y) * 2 / 3)
                cubic(p0, c1, c2, p3, view: view, into: &current)
            case let .curve(to, c1, c2):
                if current.isEmpty { current = [start] }
                cubic(current.last!, c1.applying(m), c2.applying(m), to.applying(m), view: view, into: &current)
            case .close:
                if current.count > 1 { current.append(current[0]) }
                let first = current.first ?? start
                flush()
                start = first
            }
        }
        flush()
        return result
    }

    /// Appends a cubic's points after `p0` (iteratively: the depth is bounded, the stack is not used).
    private static func cubic(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, view: Rect, into out: inout [Point]) {
        var stack: [(Point, Point, Point, Point, Int)] = [(p0, p1, p2, p3, 0)]
        let budget = out.count + maximumPoints
        while let (a, b, c, d, depth) = stack.popLast() {
            let minX = min(a.x, b.x, c.x, d.x), maxX = max(a.x, b.x, c.x, d.x)
            let minY = min(a.y, b.y, c.y, d.y), maxY = max(a.y, b.y, c.y, d.y)
            // Written so a hull with a non-finite point counts as outside: halving it
            // would never make it flat.
            let inside = maxX >= view.minX && minX <= view.maxX && maxY >= view.minY && minY <= view.maxY
                && (maxX - minX).isFinite && (maxY - minY).isFinite
            if !inside {
                out += [b, c, d]   // the hull's sides: out of view, same winding inside it
                continue
            }
            if depth >= maximumDepth || out.count >= budget || isFlat(a, b, c, d) {
                out.append(d)
                continue
            }
            // De Casteljau at ½; the second half is pushed first so the first comes out first.
            let ab = mid(a, b), bc = mid(b, c), cd = mid(c, d)
            let abc = mid(ab, bc), bcd = mid(bc, cd), m = mid(abc, bcd)
            stack.append((m, bcd, cd, d, depth + 1))
            stack.append((a, ab, abc, m, depth + 1))
        }
    }

    /// Halfway, without overflowing for the largest doubles.
    private static func mid(_ a: Point, _ b: Point) -> Point { Point(x: a.x / 2 + b.x / 2, y: a.y / 2 + b.y / 2) }

    /// Control points within the tolerance of the chord (a bound on the curve's distance from it).
    /// (Along the chord's unit direction: products of coordinates near 10³⁰⁵
    /// overflowed to ∞, so a curve out there never counted as flat and was halved
    /// to 65,536 points — 0.6 s a frame in a debug build; found by the fuzzer.)
    private static func isFlat(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        let dx = d.x - a.x, dy = d.y - a.y
        let length = hypot(dx, dy)
        func distance(_ p: Point) -> Double {
            length > 0 ? abs((p.x - a.x) * (dy / length) - (p.y - a.y) * (dx / length)) : hypot(p.x - a.x, p.y - a.y)
        }
        return max(distance(b), distance(c)) <= tolerance
    }
}
