import CPixman
import LayerKit

/// Fast paths for the common case: a layer whose device transform only scales and
/// translates, with edges, corner radius and border width on whole pixels.
/// Straight parts are plain rectangle fills; corners come from cached coverage
/// masks, rasterized once per radius (and border width) instead of every frame.
@MainActor
final class AlignedShapes {
    private struct Key: Hashable { let radius: Int; let border: Int }
    private var masks: [Key: OpaquePointer] = [:]
    /// Masks kept at most; the cache is dropped when full (radii rarely vary much).
    private let capacity = 256
    /// Shapes drawn through the fast path (for tests).
    private(set) var fastFills = 0

    isolated deinit {
        for m in masks.values { pixman_image_unref(m) }
    }

    /// The device rectangle of `p`'s bounds under `m`, when `m` is a pure scale and
    /// translation, the result lies on whole pixels, and so do radius and border.
    func pixelRect(_ p: Layer, _ m: AffineTransform) -> (x0: Int, y0: Int, x1: Int, y1: Int, r: Int, bw: Int)? {
        guard m.b == 0, m.c == 0, m.a > 0, m.a == m.d else { return nil }
        let b = p.bounds
        let x0 = b.minX * m.a + m.tx, x1 = b.maxX * m.a + m.tx, y0 = b.minY * m.d + m.ty, y1 = b.maxY * m.d + m.ty
        let r = min(p.cornerRadius, b.width / 2, b.height / 2) * m.a
        let bw = min(p.borderWidth, b.width / 2, b.height / 2) * m.a
        func whole(_ v: Double) -> Int? { abs(v - v.rounded()) < 1e-6 && abs(v) < 1e7 ? Int(v.rounded()) : nil }
        guard let ix0 = whole(x0), let ix1 = whole(x1), let iy0 = whole(y0), let iy1 = whole(y1),
              let ir = whole(r), let ibw = whole(bw), ix1 > ix0, iy1 > iy0 else { return nil }
        return (ix0, iy0, ix1, iy1, ir, ibw)
    }

    /// Fills the rounded rectangle (`border` 0) or the border ring of width `border`.
    func fill(_ rect: (x0: Int, y0: Int, x1: Int, y1: Int, r: Int, bw: Int), border: Int, color: pixman_color_t, onto dst: OpaquePointer) -> Bool {
        let (x0, y0, x1, y1, r) = (rect.x0, rect.y0, rect.x1, rect.y1, rect.r)
        guard border == 0 || r == 0 || r >= border else { return false }
        var c = color
        guard let src = pixman_image_create_solid_fill(&c) else { return false }
        defer { pixman_image_unref(src) }
        var boxes: [pixman_box32_t] = []
        func box(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            if c > a && d > b { boxes.append(pixman_box32_t(x1: Int32(a), y1: Int32(b), x2: Int32(c), y2: Int32(d))) }
        }
        if border == 0 {
            box(x0 + r, y0, x1 - r, y1)
            box(x0, y0 + r, x0 + r, y1 - r)
            box(x1 - r, y0 + r, x1, y1 - r)
        } else if r == 0 {
            box(x0, y0, x1, y0 + border)
            box(x0, y1 - border, x1, y1)
            box(x0, y0 + border, x0 + border, y1 - border)
            box(x1 - border, y0 + border, x1, y1 - border)
        } else {
            box(x0 + r, y0, x1 - r, y0 + border)
            box(x0 + r, y1 - border, x1 - r, y1)
            box(x0, y0 + r, x0 + border, y1 - r)
            box(x1 - border, y0 + r, x1, y1 - r)
        }
        fastFills += 1
        for b in boxes {
            pixman_image_composite32(PIXMAN_OP_OVER, src, nil, dst, 0, 0, 0, 0, b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1)
        }
        guard r > 0, let mask = cornerMask(radius: r, border: border) else { return true }
        for (mx, my, dx, dy) in [(0, 0, x0, y0), (r, 0, x1 - r, y0), (0, r, x0, y1 - r), (r, r, x1 - r, y1 - r)] {
            pixman_image_composite32(PIXMAN_OP_OVER, src, mask, dst, 0, 0, Int32(mx), Int32(my), Int32(dx), Int32(dy), Int32(r), Int32(r))
        }
        return true
    }

    /// A translucent layer with a background and a border, drawn as group opacity
    /// without a group canvas: the straight parts of the background, of the border
    /// (over the background) and the four corners are disjoint, so each can take
    /// the opacity itself; only the corners, where the border's anti-aliased inner
    /// edge meets the background, are composed in a small r×r canvas first.
    func fillTranslucentCard(_ rect: (x0: Int, y0: Int, x1: Int, y1: Int, r: Int, bw: Int), background: Color, border: Color,
                             opacity: Double, onto dst: OpaquePointer) -> Bool {
        let (x0, y0, x1, y1, r, bw) = rect
        guard bw > 0, r == 0 || r >= bw, x1 - x0 >= 2 * max(r, bw), y1 - y0 >= 2 * max(r, bw) else { return false }
        func solid(_ c: pixman_color_t) -> OpaquePointer? { var c = c; return pixman_image_create_solid_fill(&c) }
        func fill(_ src: OpaquePointer, _ boxes: [(Int, Int, Int, Int)]) {
            for (a, b, c, d) in boxes where c > a && d > b {
                pixman_image_composite32(PIXMAN_OP_OVER, src, nil, dst, 0, 0, 0, 0, Int32(a), Int32(b), Int32(c - a), Int32(d - b))
            }
        }
        // The border over the background, as one straight colour.
        let bg = background.clamped, bd = border.clamped
        let a = bd.alpha + bg.alpha * (1 - bd.alpha)
        let over = a > 0 ? Color(red: (bd.red * bd.alpha + bg.red * bg.alpha * (1 - bd.alpha)) / a,
                                 green: (bd.green * bd.alpha + bg.green * bg.alpha * (1 - bd.alpha)) / a,
                                 blue: (bd.blue * bd.alpha + bg.blue * bg.alpha * (1 - bd.alpha)) / a, alpha: a) : .clear
        guard let inner = solid(pixmanColor(bg, alpha: opacity)), let band = solid(pixmanColor(over, alpha: opacity)) else { return false }
        defer { pixman_image_unref(inner); pixman_image_unref(band) }
        fastFills += 1
        if r == 0 {
            fill(inner, [(x0 + bw, y0 + bw, x1 - bw, y1 - bw)])
            fill(band, [(x0, y0, x1, y0 + bw), (x0, y1 - bw, x1, y1), (x0, y0 + bw, x0 + bw, y1 - bw), (x1 - bw, y0 + bw, x1, y1 - bw)])
            return true
        }
        fill(inner, [(x0 + r, y0 + bw, x1 - r, y1 - bw), (x0 + bw, y0 + r, x0 + r, y1 - r), (x1 - r, y0 + r, x1 - bw, y1 - r)])
        fill(band, [(x0 + r, y0, x1 - r, y0 + bw), (x0 + r, y1 - bw, x1 - r, y1), (x0, y0 + r, x0 + bw, y1 - r), (x1 - bw, y0 + r, x1, y1 - r)])
        guard let fillMask = cornerMask(radius: r, border: 0), let ringMask = cornerMask(radius: r, border: bw),
              let bgSolid = solid(pixmanColor(bg)), let borderSolid = solid(pixmanColor(bd)),
              let fade = solid(pixmanColor(.white, alpha: opacity)) else { return true }
        defer { pixman_image_unref(bgSolid); pixman_image_unref(borderSolid); pixman_image_unref(fade) }
        let corner = Canvas(width: r, height: r)
        for (mx, my, dx, dy) in [(0, 0, x0, y0), (r, 0, x1 - r, y0), (0, r, x0, y1 - r), (r, r, x1 - r, y1 - r)] {
            corner.clear(to: .clear)
            pixman_image_composite32(PIXMAN_OP_OVER, bgSolid, fillMask, corner.image, 0, 0, Int32(mx), Int32(my), 0, 0, Int32(r), Int32(r))
            pixman_image_composite32(PIXMAN_OP_OVER, borderSolid, ringMask, corner.image, 0, 0, Int32(mx), Int32(my), 0, 0, Int32(r), Int32(r))
            pixman_image_composite32(PIXMAN_OP_OVER, corner.image, fade, dst, 0, 0, 0, 0, Int32(dx), Int32(dy), Int32(r), Int32(r))
        }
        return true
    }

    /// Coverage of a 2r×2r rounded square (radius r), or of its ring of width
    /// `border`: its four quadrants are the four corners.
    private func cornerMask(radius r: Int, border: Int) -> OpaquePointer? {
        let key = Key(radius: r, border: border)
        if let m = masks[key] { return m }
        if masks.count >= capacity {
            for m in masks.values { pixman_image_unref(m) }
            masks.removeAll()
        }
        let side = Double(2 * r)
        let segments = ShapeRasterizer.segments(forRadius: Double(r), scale: 1)
        let square = Rect(x: 0, y: 0, width: side, height: side)
        let outer = ShapeRasterizer.roundedRect(square, radius: Double(r), segments: segments)
        let coverage = border == 0
            ? ShapeRasterizer.convex(outer)
            : ShapeRasterizer.ring(outer: outer, inner: ShapeRasterizer.roundedRect(square.insetBy(dx: Double(border), dy: Double(border)),
                                                                                   radius: Double(r - border), segments: segments))
        guard let m = ShapeRasterizer.mask(coverage, width: 2 * r, height: 2 * r) else { return nil }
        masks[key] = m
        return m
    }
}
