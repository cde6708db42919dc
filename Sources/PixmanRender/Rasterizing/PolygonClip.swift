import LayerKit

/// Clips closed polygons to a rectangle before they are swept, so that geometry
/// reaching far outside the target costs what the visible part costs and stays
/// within pixman's 16.16 fixed-point range (beyond ±32768 pixels coordinates
/// overflow, and a shape would vanish).
///
/// Clipping each closed subpath by a convex region (Sutherland–Hodgman) keeps the
/// winding number of every point inside the region, so non-zero and even-odd
/// fills are exact there; the edges it adds lie on the rectangle's sides, outside
/// what is drawn when the rectangle is a little larger than the target.
enum PolygonClip {
    /// True when `polygons` reach well beyond `area` or beyond what 16.16 holds.
    static func needsClipping(_ polygons: [[Point]], to area: Rect) -> Bool {
        let limit = 16_000.0
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for line in polygons {
            for p in line {
                minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
            }
        }
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite else { return minX <= maxX }
        if minX < -limit || minY < -limit || maxX > limit || maxY > limit { return true }
        // More than four times the area's size: sweeping it would mostly work outside.
        return (maxX - minX) * (maxY - minY) > 4 * max(1, area.width * area.height)
    }

    /// `polygons` clipped to `r`, each as a closed polygon; empty results dropped.
    static func clip(_ polygons: [[Point]], to r: Rect) -> [[Point]] {
        polygons.compactMap { polygon -> [Point]? in
            var out = polygon
            out = clip(out) { $0.x >= r.minX } intersect: { a, b in Point(x: r.minX, y: a.y + (b.y - a.y) * (r.minX - a.x) / (b.x - a.x)) }
            out = clip(out) { $0.x <= r.maxX } intersect: { a, b in Point(x: r.maxX, y: a.y + (b.y - a.y) * (r.maxX - a.x) / (b.x - a.x)) }
            out = clip(out) { $0.y >= r.minY } intersect: { a, b in Point(x: a.x + (b.x - a.x) * (r.minY - a.y) / (b.y - a.y), y: r.minY) }
            out = clip(out) { $0.y <= r.maxY } intersect: { a, b in Point(x: a.x + (b.x - a.x) * (r.maxY - a.y) / (b.y - a.y), y: r.maxY) }
            return out.count > 2 ? out : nil
        }
    }

    /// One Sutherland–Hodgman pass against a half-plane.
    private static func clip(_ polygon: [Point], inside: (Point) -> Bool, intersect: (Point, Point) -> Point) -> [Point] {
        guard let last = polygon.last else { return [] }
        var out: [Point] = []
        out.reserveCapacity(polygon.count + 4)
        var previous = last
        for current in polygon {
            switch (inside(previous), inside(current)) {
            case (true, true): out.append(current)
            case (true, false): out.append(intersect(previous, current))
            case (false, true): out.append(intersect(previous, current)); out.append(current)
            case (false, false): break
            }
            previous = current
        }
        return out
    }
}
