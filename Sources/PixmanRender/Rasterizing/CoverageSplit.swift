import CPixman

/// Splits trapezoid coverage into what pixman's rasterizer must compute and what
/// can be filled directly: rows crossed only by upright rectangles (trapezoids
/// whose sides are vertical, as an axis-aligned layer's body and the straight part
/// of a rounded one are). There each column's coverage is the same all the way
/// down, so a span becomes at most three boxes — a partly covered column on each
/// side at its exact coverage, full pixels between. pixman's rasterizer samples
/// every pixel of a shape 15 times a row; this leaves it the edge rows and curved
/// parts only.
///
/// A pixel is never drawn by both halves, and never by two boxes, so nothing is
/// blended twice along a seam.
struct CoverageSplit {
    /// Trapezoids (cut to rows) left for the rasterizer.
    var rasterized: [pixman_trapezoid_t] = []
    /// Boxes of uniform coverage (0…1].
    var boxes: [(box: PixelBox, coverage: Double)] = []

    /// Upright rectangles considered at most; shapes with more go to the rasterizer whole.
    static let maximumRectangles = 64

    init(_ traps: [pixman_trapezoid_t]) {
        var upright: [Int] = []
        for (i, t) in traps.enumerated() where t.left.p1.x == t.left.p2.x && t.right.p1.x == t.right.p2.x && t.left.p1.x < t.right.p1.x {
            upright.append(i)
        }
        guard !upright.isEmpty, upright.count <= Self.maximumRectangles else {
            rasterized = traps
            return
        }
        var y0 = Int.max, y1 = Int.min
        for t in traps where t.bottom > t.top {
            y0 = min(y0, Int(t.top >> 16))
            y1 = max(y1, ceilRow(t.bottom))
        }
        guard y1 > y0 else { return }
        // Rows the rasterizer must draw: any row a slanted or curved edge crosses, and
        // the partly covered rows at the top and bottom of upright rectangles.
        var raster = [Bool](repeating: false, count: y1 - y0)
        func mark(_ from: Int, _ to: Int) {
            for row in max(from, y0)..<max(max(from, y0), min(to, y1)) { raster[row - y0] = true }
        }
        var isUpright = [Bool](repeating: false, count: traps.count)
        for i in upright { isUpright[i] = true }
        for (i, t) in traps.enumerated() where t.bottom > t.top {
            let top = Int(t.top >> 16), bottom = ceilRow(t.bottom)
            if !isUpright[i] {
                mark(top, bottom)
            } else {
                if t.top & 0xFFFF != 0 { mark(top, top + 1) }
                if t.bottom & 0xFFFF != 0 { mark(Int(t.bottom >> 16), Int(t.bottom >> 16) + 1) }
            }
        }
        // Two rectangles sharing a column in the same rows would blend twice: rasterize those rows.
        for a in 0..<upright.count {
            for b in (a + 1)..<upright.count {
                let s = traps[upright[a]], t = traps[upright[b]]
                let sx0 = Int(s.left.p1.x >> 16), sx1 = ceilRow(s.right.p1.x)
                let tx0 = Int(t.left.p1.x >> 16), tx1 = ceilRow(t.right.p1.x)
                guard sx0 < tx1, tx0 < sx1 else { continue }
                mark(Int(max(s.top, t.top) >> 16), ceilRow(min(s.bottom, t.bottom)))
            }
        }
        for (i, t) in traps.enumerated() where t.bottom > t.top {
            let top = Int(t.top >> 16), bottom = ceilRow(t.bottom)
            // Runs of rows, each either rasterized or filled directly.
            var row = top
            while row < bottom {
                let r = raster[row - y0] || !isUpright[i]
                var end = row + 1
                while end < bottom && (raster[end - y0] || !isUpright[i]) == r { end += 1 }
                if r {
                    var cut = t
                    cut.top = max(t.top, pixman_fixed_t(clamping: row << 16))
                    cut.bottom = min(t.bottom, pixman_fixed_t(clamping: end << 16))
                    rasterized.append(cut)
                } else {
                    addSpan(left: t.left.p1.x, right: t.right.p1.x, rows: row, end)
                }
                row = end
            }
        }
    }

    /// The whole pixel at or after a 16.16 value (in `Int`: no overflow near the ends of `Int32`).
    private func ceilRow(_ v: pixman_fixed_t) -> Int { (Int(v) + 0xFFFF) >> 16 }

    /// Columns of one upright rectangle over whole rows: partly covered edge
    /// columns at their exact coverage, full pixels between.
    private mutating func addSpan(left: pixman_fixed_t, right: pixman_fixed_t, rows y0: Int, _ y1: Int) {
        let one = 65536.0
        let l = Double(left) / one, r = Double(right) / one
        let c0 = Int(l.rounded(.down)), c1 = Int(r.rounded(.up))
        func add(_ x0: Int, _ x1: Int, _ coverage: Double) {
            if x1 > x0 && coverage > 0 { boxes.append((PixelBox(x0: x0, y0: y0, x1: x1, y1: y1), min(1, coverage))) }
        }
        if c1 - c0 <= 1 {
            add(c0, c0 + 1, r - l)
            return
        }
        let inner0 = Int(l.rounded(.up)), inner1 = Int(r.rounded(.down))
        if inner0 > c0 { add(c0, inner0, Double(inner0) - l) }
        add(inner0, inner1, 1)
        if c1 > inner1 { add(inner1, c1, r - Double(inner1)) }
    }
}
