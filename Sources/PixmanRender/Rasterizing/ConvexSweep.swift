import CPixman
import LayerKit

/// Trapezoids of convex outlines — a layer's rounded bounds, its border ring, a
/// projected quad — by walking down their left and right sides at once: linear in
/// the number of points, where the general sweep (`PolygonFill`) sorts and looks
/// for crossings.
enum ConvexSweep {
    /// A side's edge: the line through (x0, y0)–(x1, y1), used from `top` to `bottom`.
    struct Edge {
        var x0, y0, x1, y1: Double
        var top, bottom: Double
    }

    /// The left and right sides of a convex polygon, top to bottom; nil when it has
    /// no height, too few points or a point that is not finite.
    static func sides(_ polygon: [Point]) -> (left: [Edge], right: [Edge])? {
        let n = polygon.count
        guard n >= 3 else { return nil }
        var top = 0, bottom = 0
        for i in 0..<n {
            let p = polygon[i]
            guard p.x.isFinite, p.y.isFinite else { return nil }
            if p.y < polygon[top].y { top = i }
            if p.y > polygon[bottom].y { bottom = i }
        }
        guard polygon[bottom].y > polygon[top].y else { return nil }
        func chain(_ step: Int) -> [Edge] {
            var edges: [Edge] = []
            var i = top
            var y = polygon[top].y
            while i != bottom {
                let j = (i + step + n) % n
                let a = polygon[i], b = polygon[j]
                // Rounding can make a point a hair higher than the one before it: never go up.
                let by = max(y, b.y)
                if by > y { edges.append(Edge(x0: a.x, y0: y, x1: b.x, y1: by, top: y, bottom: by)) }
                y = by
                i = j
            }
            return edges
        }
        let forward = chain(1), backward = chain(-1)
        // The side further left halfway down is the left side.
        let mid = (polygon[top].y + polygon[bottom].y) / 2
        func x(_ side: [Edge]) -> Double {
            guard let e = side.first(where: { $0.bottom >= mid }) else { return 0 }
            return e.x0 + (e.x1 - e.x0) * (mid - e.y0) / (e.y1 - e.y0)
        }
        return x(forward) <= x(backward) ? (forward, backward) : (backward, forward)
    }

    /// The convex polygon's coverage.
    static func convex(_ polygon: [Point]) -> [pixman_trapezoid_t] {
        guard let s = sides(polygon) else { return [] }
        var out: [pixman_trapezoid_t] = []
        between(s.left, s.right, into: &out)
        return out
    }

    /// The band between a convex outline and a convex outline inside it.
    static func ring(outer: [Point], inner: [Point]) -> [pixman_trapezoid_t] {
        guard let o = sides(outer) else { return [] }
        var out: [pixman_trapezoid_t] = []
        guard let i = sides(inner) else {
            between(o.left, o.right, into: &out)
            return out
        }
        let top = i.left.first!.top, bottom = i.left.last!.bottom
        between(cut(o.left, -.infinity, top), cut(o.right, -.infinity, top), into: &out)
        between(cut(o.left, top, bottom), i.left, into: &out)
        between(i.right, cut(o.right, top, bottom), into: &out)
        between(cut(o.left, bottom, .infinity), cut(o.right, bottom, .infinity), into: &out)
        return out
    }

    /// A side used only between heights `top` and `bottom`.
    private static func cut(_ side: [Edge], _ top: Double, _ bottom: Double) -> [Edge] {
        var out: [Edge] = []
        for var e in side where e.bottom > top && e.top < bottom {
            e.top = max(e.top, top)
            e.bottom = min(e.bottom, bottom)
            out.append(e)
        }
        return out
    }

    /// One trapezoid for each stretch where neither side changes edge.
    private static func between(_ left: [Edge], _ right: [Edge], into out: inout [pixman_trapezoid_t]) {
        var i = 0, j = 0
        while i < left.count && j < right.count {
            let l = left[i], r = right[j]
            let top = max(l.top, r.top), bottom = min(l.bottom, r.bottom)
            if bottom > top {
                out.append(pixman_trapezoid_t(
                    top: PolygonFill.fixed(top), bottom: PolygonFill.fixed(bottom),
                    left: pixman_line_fixed_t(p1: PolygonFill.point(l.x0, l.y0), p2: PolygonFill.point(l.x1, l.y1)),
                    right: pixman_line_fixed_t(p1: PolygonFill.point(r.x0, r.y0), p2: PolygonFill.point(r.x1, r.y1))))
            }
            if l.bottom <= r.bottom { i += 1 } else { j += 1 }
        }
    }
}
