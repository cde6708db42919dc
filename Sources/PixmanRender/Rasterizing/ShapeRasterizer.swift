import CPixman
import Glibc
import LayerKit

/// Turns layer shapes — rounded rectangles and rings, in device space — into
/// anti-aliased coverage with pixman's trapezoid rasterizer.
enum ShapeRasterizer {
    /// The outline of a rounded rectangle in its own coordinates, clockwise from the
    /// top-left corner's start. Every call with the same `segments` yields the same
    /// number of points, so an outer and an inner outline pair up into a ring.
    static func roundedRect(_ r: Rect, radius: Double, segments: Int) -> [Point] {
        let rad = max(0, min(radius, r.width / 2, r.height / 2))
        let corners: [(Double, Double, Double)] = [
            (r.minX + rad, r.minY + rad, Double.pi), (r.maxX - rad, r.minY + rad, 1.5 * Double.pi),
            (r.maxX - rad, r.maxY - rad, 0), (r.minX + rad, r.maxY - rad, 0.5 * Double.pi),
        ]
        var points: [Point] = []
        points.reserveCapacity(4 * (segments + 1))
        for (cx, cy, a0) in corners {
            for k in 0...segments {
                let a = a0 + Double(k) / Double(segments) * Double.pi / 2
                points.append(Point(x: cx + cos(a) * rad, y: cy + sin(a) * rad))
            }
        }
        return points
    }

    /// Enough segments per quarter circle that the chord error stays under ~0.1 device pixels.
    static func segments(forRadius radius: Double, scale: Double) -> Int {
        let r = radius * scale
        guard r > 0.5 else { return 1 }   // NaN too
        // Huge (or infinite) radii want the most; the count is bounded before it becomes an Int.
        let n = (Double.pi / 2 / (2 * acos(max(0, 1 - 0.1 / r)))).rounded(.up)
        return n.isFinite ? min(64, max(2, Int(min(n, 64)))) : 64
    }

    /// The coverage of a convex polygon, as trapezoids (one per stretch between
    /// vertex heights: the work is proportional to the area, unlike a triangle fan).
    static func convex(_ polygon: [Point]) -> [pixman_trapezoid_t] {
        ConvexSweep.convex(polygon)
    }

    /// The coverage of the band between a convex outline and a convex outline inside it.
    static func ring(outer: [Point], inner: [Point]) -> [pixman_trapezoid_t] {
        ConvexSweep.ring(outer: outer, inner: inner)
    }

    /// An a8 mask of the coverage of `traps`, `width × height`.
    static func mask(_ traps: [pixman_trapezoid_t], width: Int, height: Int) -> OpaquePointer? {
        guard let m = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0) else { return nil }
        var t = traps
        if !t.isEmpty { pixman_add_trapezoids(m, 0, 0, Int32(t.count), &t) }
        return m
    }
}
