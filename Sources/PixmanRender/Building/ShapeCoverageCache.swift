import CPixman
import LayerKit

/// The trapezoids of `ShapeLayer` fills and strokes kept between frames: turning
/// a path into coverage (flattening, stroking, the polygon sweep) is the costly
/// part of drawing a shape. Keyed by the path's elements, the fill rule or the
/// stroke's style, and the device transform up to whole pixels of translation — a
/// shape that stays put or moves by whole pixels is swept once; any change to its
/// path or style is a new key. Bounded by bytes (least recently used first).
@MainActor
final class ShapeCoverageCache {
    struct Stroke: Hashable {
        let width: Double, miterLimit: Double, start: Double, end: Double
        let cap: LineCap, join: LineJoin
    }

    struct Key: Hashable {
        /// A copy of the path when kept: changing the layer's path later cannot change the key.
        let path: Path
        let a, b, c, d, fx, fy: Double
        let evenOdd: Bool
        let stroke: Stroke?
    }

    private var cache = LRUCache<Key, [pixman_trapezoid_t]>(limit: 8 << 20)
    /// Sweeps made (not found kept), for tests.
    private(set) var sweeps = 0

    var count: Int { cache.count }
    var heldBytes: Int { cache.cost }

    /// The fill (`stroke` nil) or the stroke of `path` under `m`, in device pixels.
    func trapezoids(_ path: Path, _ m: AffineTransform, evenOdd: Bool, stroke: Stroke?) -> [pixman_trapezoid_t] {
        let ix = m.tx.rounded(.down), iy = m.ty.rounded(.down)
        guard ix.isFinite, iy.isFinite, abs(ix) < 16_384, abs(iy) < 16_384 else { return Self.sweep(path, m, evenOdd: evenOdd, stroke: stroke) }
        let local = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx - ix, ty: m.ty - iy)
        let key = Key(path: path, a: m.a, b: m.b, c: m.c, d: m.d, fx: local.tx, fy: local.ty, evenOdd: evenOdd, stroke: stroke)
        let traps: [pixman_trapezoid_t]
        if let kept = cache.value(for: key) {
            traps = kept
        } else {
            sweeps += 1
            traps = Self.sweep(path, local, evenOdd: evenOdd, stroke: stroke)
            let copy = Key(path: path.copy(), a: key.a, b: key.b, c: key.c, d: key.d, fx: key.fx, fy: key.fy, evenOdd: evenOdd, stroke: stroke)
            cache.insert(traps, for: copy, cost: traps.count * MemoryLayout<pixman_trapezoid_t>.stride + 64)
        }
        return Self.offset(traps, x: Int32(ix), y: Int32(iy))
    }

    private static func sweep(_ path: Path, _ m: AffineTransform, evenOdd: Bool, stroke: Stroke?) -> [pixman_trapezoid_t] {
        let lines = path.polylines
        guard let s = stroke else { return PolygonFill.trapezoids(lines.applying(m), evenOdd: evenOdd) }
        let trimmed = Stroker.trim(lines, start: s.start, end: s.end)
        let pieces = Stroker.outline(trimmed, width: s.width, cap: s.cap, join: s.join, miterLimit: s.miterLimit)
        return PolygonFill.trapezoids(pieces.applying(m), evenOdd: false)
    }

    /// Trapezoids moved by whole pixels (exact in 16.16 fixed point).
    static func offset(_ traps: [pixman_trapezoid_t], x: Int32, y: Int32) -> [pixman_trapezoid_t] {
        guard x != 0 || y != 0 else { return traps }
        let fx = x &<< 16, fy = y &<< 16   // |x|, |y| < 16,384: exact
        func p(_ q: pixman_point_fixed_t) -> pixman_point_fixed_t { pixman_point_fixed_t(x: q.x &+ fx, y: q.y &+ fy) }
        var out = traps
        for i in out.indices {
            out[i].top &+= fy
            out[i].bottom &+= fy
            out[i].left = pixman_line_fixed_t(p1: p(out[i].left.p1), p2: p(out[i].left.p2))
            out[i].right = pixman_line_fixed_t(p1: p(out[i].right.p1), p2: p(out[i].right.p2))
        }
        return out
    }
}
