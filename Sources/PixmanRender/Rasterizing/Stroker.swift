import Glibc
import LayerKit

/// Turns stroked polylines into fillable polygons: a quadrilateral per segment,
/// a join at each inner vertex (miter within the limit, else bevel; or round),
/// caps at open ends (butt, square, round). Every polygon is oriented the same
/// way, so filling them together with non-zero winding unions them.
enum Stroker {
    static func outline(_ polylines: [[Point]], width: Double, cap: LineCap, join: LineJoin, miterLimit: Double) -> [[Point]] {
        let h = width / 2
        guard h > 0, h.isFinite else { return [] }
        var pieces: [[Point]] = []
        for raw in polylines {
            // Drop repeated points; a closed polyline ends where it starts.
            var line: [Point] = []
            for p in raw where line.last.map({ $0.distance(to: p) > 1e-9 }) ?? true { line.append(p) }
            let closed = line.count > 2 && line.first!.distance(to: line.last!) < 1e-9
            if closed { line.removeLast() }
            guard line.count >= 2 else {
                if let p = line.first, cap != .butt { pieces.append(dot(p, h, square: cap == .square)) }
                continue
            }
            let n = line.count
            let segmentCount = closed ? n : n - 1
            for i in 0..<segmentCount {
                let a = line[i], b = line[(i + 1) % n]
                let (nx, ny) = normal(a, b)
                pieces.append(oriented([Point(x: a.x + nx * h, y: a.y + ny * h), Point(x: b.x + nx * h, y: b.y + ny * h),
                                        Point(x: b.x - nx * h, y: b.y - ny * h), Point(x: a.x - nx * h, y: a.y - ny * h)]))
            }
            let joints = closed ? Array(0..<n) : Array(1..<(n - 1))
            for i in joints {
                let prev = line[(i - 1 + n) % n], p = line[i], next = line[(i + 1) % n]
                pieces.append(contentsOf: joinPieces(prev, p, next, h, join, miterLimit))
            }
            if !closed && cap != .butt {
                pieces.append(capPiece(line[1], line[0], h, cap))
                pieces.append(capPiece(line[n - 2], line[n - 1], h, cap))
            }
        }
        return pieces
    }

    /// Cuts polylines to the part between fractions `start` and `end` of their total length.
    static func trim(_ polylines: [[Point]], start: Double, end: Double) -> [[Point]] {
        let s = min(1, max(0, start)), e = min(1, max(0, end))
        guard e > s else { return [] }
        let total = polylines.reduce(0.0) { acc, l in zip(l, l.dropFirst()).reduce(acc) { $0 + $1.0.distance(to: $1.1) } }
        guard total > 0, s > 0 || e < 1 else { return polylines }
        let from = s * total, to = e * total
        var result: [[Point]] = []
        var walked = 0.0
        for line in polylines {
            var current: [Point] = []
            for (a, b) in zip(line, line.dropFirst()) {
                let d = a.distance(to: b)
                let (t0, t1) = ((from - walked) / max(d, 1e-12), (to - walked) / max(d, 1e-12))
                if t1 > 0 && t0 < 1 && d > 0 {
                    let p0 = a.interpolated(to: b, fraction: max(0, t0)), p1 = a.interpolated(to: b, fraction: min(1, t1))
                    if current.isEmpty { current.append(p0) }
                    current.append(p1)
                }
                walked += d
            }
            if current.count >= 2 { result.append(current) }
        }
        return result
    }

    private static func normal(_ a: Point, _ b: Point) -> (Double, Double) {
        let dx = b.x - a.x, dy = b.y - a.y, len = (dx * dx + dy * dy).squareRoot()
        return len > 0 ? (-dy / len, dx / len) : (0, 0)
    }

    /// The polygon with a positive signed area (clockwise on a y-down screen).
    private static func oriented(_ poly: [Point]) -> [Point] {
        var area = 0.0
        for i in 0..<poly.count {
            let a = poly[i], b = poly[(i + 1) % poly.count]
            area += a.x * b.y - b.x * a.y
        }
        return area < 0 ? poly.reversed() : poly
    }

    private static func circle(_ c: Point, _ r: Double) -> [Point] {
        let n = Int(min(64, max(8, (r * 2).rounded(.up))))   // in Double first: a huge width's r·2 is ∞
        return oriented((0..<n).map { k in
            let a = Double(k) / Double(n) * 2 * .pi
            return Point(x: c.x + cos(a) * r, y: c.y + sin(a) * r)
        })
    }

    private static func dot(_ p: Point, _ h: Double, square: Bool) -> [Point] {
        square ? oriented([Point(x: p.x - h, y: p.y - h), Point(x: p.x + h, y: p.y - h), Point(x: p.x + h, y: p.y + h), Point(x: p.x - h, y: p.y + h)])
               : circle(p, h)
    }

    private static func joinPieces(_ prev: Point, _ p: Point, _ next: Point, _ h: Double, _ join: LineJoin, _ limit: Double) -> [[Point]] {
        if join == .round { return [circle(p, h)] }
        let (n1x, n1y) = normal(prev, p), (n2x, n2y) = normal(p, next)
        // The outer side of the turn.
        let cross = (p.x - prev.x) * (next.y - p.y) - (p.y - prev.y) * (next.x - p.x)
        let side = cross > 0 ? -1.0 : 1.0
        let a = Point(x: p.x + side * n1x * h, y: p.y + side * n1y * h)
        let b = Point(x: p.x + side * n2x * h, y: p.y + side * n2y * h)
        var piece = [p, a, b]
        if join == .miter {
            let cosTheta = n1x * n2x + n1y * n2y
            let miterLength = 1 / max(1e-9, ((1 + cosTheta) / 2).squareRoot())   // in half-widths
            if miterLength <= limit {
                let mx = n1x + n2x, my = n1y + n2y, ml = (mx * mx + my * my).squareRoot()
                if ml > 1e-9 {
                    let tip = Point(x: p.x + side * mx / ml * h * miterLength, y: p.y + side * my / ml * h * miterLength)
                    piece = [p, a, tip, b]
                }
            }
        }
        return [oriented(piece)]
    }

    private static func capPiece(_ inner: Point, _ end: Point, _ h: Double, _ cap: LineCap) -> [Point] {
        if cap == .round { return circle(end, h) }
        let dx = end.x - inner.x, dy = end.y - inner.y, len = (dx * dx + dy * dy).squareRoot()
        guard len > 0 else { return [] }
        let (ux, uy) = (dx / len * h, dy / len * h)
        let (nx, ny) = (-uy, ux)
        return oriented([Point(x: end.x + nx, y: end.y + ny), Point(x: end.x + nx + ux, y: end.y + ny + uy),
                         Point(x: end.x - nx + ux, y: end.y - ny + uy), Point(x: end.x - nx, y: end.y - ny)])
    }
}
