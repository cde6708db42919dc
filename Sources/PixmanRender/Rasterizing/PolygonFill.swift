import CPixman
import LayerKit

/// Any polygon set — concave, with holes, self-intersecting — as pixman
/// trapezoids, by sweeping horizontal bands between the heights of vertices and
/// of edge crossings (so no two edges cross inside a band). Non-zero or even-odd
/// winding.
///
/// The work is bands × edges. A pathological set — thousands of overlapping edges
/// crossing everywhere, as the stroke of a tight scribble with a huge line width
/// makes — would need millions of bands; past ``budget`` the bands are a grid
/// instead, as fine as the budget allows (never finer than 1/16 pixel), and the
/// coverage is exact except within a band where edges cross.
enum PolygonFill {
    private struct Edge { let x0, y0, x1, y1: Double; let winding: Int }

    /// Edges looked at, summed over the bands, at most (some tens of milliseconds
    /// in a release build).
    static let budget = 250_000
    /// Pairs of edges compared for crossings at most: the sweep of ordinary shapes
    /// (edges meeting their neighbours) compares far fewer.
    static let pairBudget = 250_000

    static func trapezoids(_ polylines: [[Point]], evenOdd: Bool) -> [pixman_trapezoid_t] {
        var edges: [Edge] = []
        var ys: Set<Double> = []
        for line in polylines where line.count > 2 {
            for i in 0..<line.count {
                let a = line[i], b = line[(i + 1) % line.count]
                guard a.y != b.y, a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { continue }
                edges.append(a.y < b.y ? Edge(x0: a.x, y0: a.y, x1: b.x, y1: b.y, winding: 1)
                                       : Edge(x0: b.x, y0: b.y, x1: a.x, y1: a.y, winding: -1))
                ys.insert(a.y)
                ys.insert(b.y)
            }
        }
        // Heights where two edges cross (edges sorted by top, so the inner loop stops
        // early): exact, unless that means comparing more pairs than the budget.
        var exact = true
        var pairs = 0
        let byTop = edges.sorted { $0.y0 < $1.y0 }
        search: for i in byTop.indices {
            let e = byTop[i]
            var j = i + 1
            while j < byTop.count && byTop[j].y0 < e.y1 {
                if let y = crossing(e, byTop[j]) { ys.insert(y) }
                j += 1
                pairs += 1
                if pairs > pairBudget {
                    exact = false
                    break search
                }
            }
        }
        let bands = ys.sorted()
        if exact, let traps = sweep(bands, byTop, evenOdd: evenOdd, work: budget) { return traps }
        guard let lo = bands.first, let hi = bands.last else { return [] }
        // A grid of bands, as fine as the budget allows.
        let count = max(16, budget / max(1, edges.count))
        let step = max((hi - lo) / Double(count), 1.0 / 16)
        return sweep(Array(stride(from: lo, to: hi, by: step)) + [hi], byTop, evenOdd: evenOdd, work: .max) ?? []
    }

    /// The trapezoids between consecutive `bands`, over edges sorted by top; nil
    /// once the work — the edges looked at in all bands — passes `work`.
    private static func sweep(_ bands: [Double], _ byTop: [Edge], evenOdd: Bool, work: Int) -> [pixman_trapezoid_t]? {
        var done = 0
        var traps: [pixman_trapezoid_t] = []
        // Bands top to bottom over the edges sorted by top: the edges crossing a
        // band are those begun above its middle and not yet ended (no search of
        // every edge, no arrays made per band).
        var next = 0
        var active: [Edge] = []
        var crossing: [(x: Double, edge: Edge)] = []
        for (top, bottom) in zip(bands, bands.dropFirst()) {
            let mid = (top + bottom) / 2
            while next < byTop.count && byTop[next].y0 <= mid {
                active.append(byTop[next])
                next += 1
            }
            active.removeAll { $0.y1 <= mid }
            done += active.count
            if done > work { return nil }
            crossing.removeAll(keepingCapacity: true)
            for e in active { crossing.append((x: e.x0 + (e.x1 - e.x0) * (mid - e.y0) / (e.y1 - e.y0), edge: e)) }
            crossing.sort { $0.x < $1.x }
            var winding = 0
            for (i, c) in crossing.enumerated() {
                let before = winding
                winding += evenOdd ? 1 : c.edge.winding
                let inside = evenOdd ? winding % 2 != 0 : winding != 0
                let wasInside = evenOdd ? before % 2 != 0 : before != 0
                guard inside, !wasInside || evenOdd, i + 1 < crossing.count else { continue }
                // Find where this span ends: the next crossing that leaves the inside.
                var w = winding
                var j = i + 1
                while j < crossing.count {
                    w += evenOdd ? 1 : crossing[j].edge.winding
                    if evenOdd ? w % 2 == 0 : w == 0 { break }
                    j += 1
                }
                guard j < crossing.count else { continue }
                let l = crossing[i].edge, r = crossing[j].edge
                traps.append(pixman_trapezoid_t(
                    top: fixed(top), bottom: fixed(bottom),
                    left: pixman_line_fixed_t(p1: point(l.x0, l.y0), p2: point(l.x1, l.y1)),
                    right: pixman_line_fixed_t(p1: point(r.x0, r.y0), p2: point(r.x1, r.y1))))
            }
        }
        return traps
    }

    /// The height at which two edges cross strictly inside both, if they do.
    private static func crossing(_ a: Edge, _ b: Edge) -> Double? {
        let top = max(a.y0, b.y0), bottom = min(a.y1, b.y1)
        guard bottom > top else { return nil }
        func x(_ e: Edge, _ y: Double) -> Double { e.x0 + (e.x1 - e.x0) * (y - e.y0) / (e.y1 - e.y0) }
        let d0 = x(a, top) - x(b, top), d1 = x(a, bottom) - x(b, bottom)
        guard d0 * d1 < 0 else { return nil }
        let y = top + (bottom - top) * d0 / (d0 - d1)
        return y > top && y < bottom ? y : nil
    }

    static func fixed(_ v: Double) -> pixman_fixed_t {
        pixmanFixed(max(-30000, min(30000, v)))
    }

    static func point(_ x: Double, _ y: Double) -> pixman_point_fixed_t {
        pixman_point_fixed_t(x: fixed(x), y: fixed(y))
    }

    /// Composites `source` through the polygons' coverage.
    static func composite(_ traps: [pixman_trapezoid_t], source: OpaquePointer, onto destination: OpaquePointer,
                          op: pixman_op_t = PIXMAN_OP_OVER) {
        guard !traps.isEmpty else { return }
        var t = traps
        pixman_composite_trapezoids(op, source, destination, PIXMAN_a8, 0, 0, 0, 0, Int32(t.count), &t)
    }
}
