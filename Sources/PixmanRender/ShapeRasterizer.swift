import CPixman
import Glibc
import LayerKit

/// Turns layer shapes — rounded rectangles and rings, in device space — into
/// anti-aliased coverage with pixman's triangle rasterizer.
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
        guard r > 0.5 else { return 1 }
        return min(64, max(2, Int((Double.pi / 2 / (2 * acos(max(0, 1 - 0.1 / r)))).rounded(.up))))
    }

    static func fixed(_ p: Point) -> pixman_point_fixed_t {
        func f(_ v: Double) -> pixman_fixed_t {
            pixman_fixed_t(clamping: Int64((max(-30000, min(30000, v)) * 65536).rounded()))
        }
        return pixman_point_fixed_t(x: f(p.x), y: f(p.y))
    }

    /// Triangles of a convex polygon (a fan from its first point).
    static func fan(_ polygon: [Point]) -> [pixman_triangle_t] {
        guard polygon.count >= 3 else { return [] }
        let p0 = fixed(polygon[0])
        return (1..<(polygon.count - 1)).map {
            pixman_triangle_t(p1: p0, p2: fixed(polygon[$0]), p3: fixed(polygon[$0 + 1]))
        }
    }

    /// Triangles of the band between two outlines with the same number of points.
    static func ring(outer: [Point], inner: [Point]) -> [pixman_triangle_t] {
        guard outer.count == inner.count, outer.count >= 3 else { return [] }
        var t: [pixman_triangle_t] = []
        t.reserveCapacity(outer.count * 2)
        for i in 0..<outer.count {
            let j = (i + 1) % outer.count
            t.append(pixman_triangle_t(p1: fixed(outer[i]), p2: fixed(outer[j]), p3: fixed(inner[i])))
            t.append(pixman_triangle_t(p1: fixed(inner[i]), p2: fixed(outer[j]), p3: fixed(inner[j])))
        }
        return t
    }

    /// Composites `source` through the coverage of `triangles` onto `destination`.
    static func composite(_ triangles: [pixman_triangle_t], source: OpaquePointer, onto destination: OpaquePointer,
                          op: pixman_op_t = PIXMAN_OP_OVER) {
        guard !triangles.isEmpty else { return }
        var tris = triangles
        pixman_composite_triangles(op, source, destination, PIXMAN_a8, 0, 0, 0, 0, Int32(tris.count), &tris)
    }

    /// Fills `triangles` with a solid colour.
    static func fill(_ triangles: [pixman_triangle_t], color: pixman_color_t, onto destination: OpaquePointer) {
        var c = color
        guard let src = pixman_image_create_solid_fill(&c) else { return }
        composite(triangles, source: src, onto: destination)
        pixman_image_unref(src)
    }

    /// An a8 mask of the triangles' coverage, `width × height`.
    static func mask(_ triangles: [pixman_triangle_t], width: Int, height: Int) -> OpaquePointer? {
        guard let m = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0) else { return nil }
        var white = pixman_color_t(red: 0xffff, green: 0xffff, blue: 0xffff, alpha: 0xffff)
        if let src = pixman_image_create_solid_fill(&white) {
            composite(triangles, source: src, onto: m, op: PIXMAN_OP_ADD)
            pixman_image_unref(src)
        }
        return m
    }
}
