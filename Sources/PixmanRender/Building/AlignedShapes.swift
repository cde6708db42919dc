import CPixman
import LayerKit

/// Fast paths for the common case: a layer whose device transform only scales and
/// translates, with edges, corner radius and border width on whole pixels.
/// Straight parts are plain rectangle fills; corners come from cached coverage
/// masks, rasterized once per radius (and border width) instead of every frame.
@MainActor
final class AlignedShapes {
    private struct Key: Hashable { let radius: Int; let border: Int }
    /// Corner masks by radius and border width, least recently used first past 16 MiB.
    private var masks = LRUCache<Key, SharedImage>(limit: 16 << 20)
    /// Radii (device pixels) up to which corners come from masks; a larger one is
    /// rare and its mask big, so such a layer takes the general path.
    static let largestMaskedRadius = 512
    /// Masks kept now.
    var maskCount: Int { masks.count }
    /// Shapes drawn through the fast path (for tests).
    private(set) var fastFills = 0

    /// The device rectangle of `p`'s bounds under `m`, when `m` is a pure scale and
    /// translation, the result lies on whole pixels, and so do radius and border.
    func pixelRect(_ p: Layer, _ m: AffineTransform) -> (x0: Int, y0: Int, x1: Int, y1: Int, r: Int, bw: Int)? {
        guard m.b == 0, m.c == 0, m.a > 0, m.a == m.d else { return nil }
        let b = p.bounds
        let x0 = b.minX * m.a + m.tx, x1 = b.maxX * m.a + m.tx, y0 = b.minY * m.d + m.ty, y1 = b.maxY * m.d + m.ty
        let r = max(0, min(p.cornerRadius, b.width / 2, b.height / 2)) * m.a   // a spring may overshoot below 0
        let bw = min(p.borderWidth, b.width / 2, b.height / 2) * m.a
        func whole(_ v: Double) -> Int? { abs(v - v.rounded()) < 1e-6 && abs(v) < 1e7 ? Int(v.rounded()) : nil }
        guard let ix0 = whole(x0), let ix1 = whole(x1), let iy0 = whole(y0), let iy1 = whole(y1),
              let ir = whole(r), let ibw = whole(bw), ix1 > ix0, iy1 > iy0, ir <= Self.largestMaskedRadius else { return nil }
        return (ix0, iy0, ix1, iy1, ir, ibw)
    }

    /// The rounded rectangle (`border` 0) or the border ring of width `border`, as
    /// boxes for the straight parts and corner masks; nil when the shape does not fit.
    func fill(_ rect: (x0: Int, y0: Int, x1: Int, y1: Int, r: Int, bw: Int), border: Int, color: pixman_color_t) -> [DisplayItem]? {
        let (x0, y0, x1, y1, r) = (rect.x0, rect.y0, rect.x1, rect.y1, rect.r)
        guard border == 0 || r == 0 || r >= border else { return nil }
        let boxes: [PixelBox]
        if border == 0 {
            boxes = [PixelBox(x0: x0 + r, y0: y0, x1: x1 - r, y1: y1), PixelBox(x0: x0, y0: y0 + r, x1: x0 + r, y1: y1 - r),
                     PixelBox(x0: x1 - r, y0: y0 + r, x1: x1, y1: y1 - r)]
        } else if r == 0 {
            boxes = [PixelBox(x0: x0, y0: y0, x1: x1, y1: y0 + border), PixelBox(x0: x0, y0: y1 - border, x1: x1, y1: y1),
                     PixelBox(x0: x0, y0: y0 + border, x1: x0 + border, y1: y1 - border),
                     PixelBox(x0: x1 - border, y0: y0 + border, x1: x1, y1: y1 - border)]
        } else {
            boxes = [PixelBox(x0: x0 + r, y0: y0, x1: x1 - r, y1: y0 + border), PixelBox(x0: x0 + r, y0: y1 - border, x1: x1 - r, y1: y1),
                     PixelBox(x0: x0, y0: y0 + r, x1: x0 + border, y1: y1 - r), PixelBox(x0: x1 - border, y0: y0 + r, x1: x1, y1: y1 - r)]
        }
        fastFills += 1
        var items: [DisplayItem] = [.boxes(boxes.nonEmpty, color)]
        if r > 0, let mask = cornerMask(radius: r, border: border) {
            items.append(.maskedColor(mask, corners(rect), color))
        }
        return items
    }

    /// The four r×r corners of `rect`, each from its quadrant of a corner mask.
    private func corners(_ rect: (x0: Int, y0: Int, x1: Int, y1: Int, r: Int, bw: Int)) -> [MaskPlacement] {
        let (x0, y0, x1, y1, r) = (rect.x0, rect.y0, rect.x1, rect.y1, rect.r)
        func corner(_ mx: Int, _ my: Int, _ dx: Int, _ dy: Int) -> MaskPlacement {
            MaskPlacement(maskX: mx, maskY: my, device: PixelBox(x0: dx, y0: dy, x1: dx + r, y1: dy + r))
        }
        return [corner(0, 0, x0, y0), corner(r, 0, x1 - r, y0), corner(0, r, x0, y1 - r), corner(r, r, x1 - r, y1 - r)]
    }

    /// A translucent layer with a background and a border, drawn as group opacity
    /// without a group the size of the layer: the straight parts of the background,
    /// of the border (over the background) and the four corners are disjoint, so
    /// each can take the opacity itself; only the corners, where the border's
    /// anti-aliased inner edge meets the background, are composed in small r×r
    /// groups first. Nil when the shape does not fit.
    func translucentCard(_ rect: (x0: Int, y0: Int, x1: Int, y1: Int, r: Int, bw: Int), background: Color, border: Color,
                         opacity: Double) -> [DisplayItem]? {
        let (x0, y0, x1, y1, r, bw) = rect
        guard bw > 0, r == 0 || r >= bw, x1 - x0 >= 2 * max(r, bw), y1 - y0 >= 2 * max(r, bw) else { return nil }
        // The border over the background, as one straight colour.
        let bg = background.clamped, bd = border.clamped
        let a = bd.alpha + bg.alpha * (1 - bd.alpha)
        let over = a > 0 ? Color(red: (bd.red * bd.alpha + bg.red * bg.alpha * (1 - bd.alpha)) / a,
                                 green: (bd.green * bd.alpha + bg.green * bg.alpha * (1 - bd.alpha)) / a,
                                 blue: (bd.blue * bd.alpha + bg.blue * bg.alpha * (1 - bd.alpha)) / a, alpha: a) : .clear
        let inner = pixmanColor(bg, alpha: opacity), band = pixmanColor(over, alpha: opacity)
        fastFills += 1
        if r == 0 {
            return [.boxes([PixelBox(x0: x0 + bw, y0: y0 + bw, x1: x1 - bw, y1: y1 - bw)].nonEmpty, inner),
                    .boxes([PixelBox(x0: x0, y0: y0, x1: x1, y1: y0 + bw), PixelBox(x0: x0, y0: y1 - bw, x1: x1, y1: y1),
                            PixelBox(x0: x0, y0: y0 + bw, x1: x0 + bw, y1: y1 - bw),
                            PixelBox(x0: x1 - bw, y0: y0 + bw, x1: x1, y1: y1 - bw)].nonEmpty, band)]
        }
        var items: [DisplayItem] = [
            .boxes([PixelBox(x0: x0 + r, y0: y0 + bw, x1: x1 - r, y1: y1 - bw), PixelBox(x0: x0 + bw, y0: y0 + r, x1: x0 + r, y1: y1 - r),
                    PixelBox(x0: x1 - r, y0: y0 + r, x1: x1 - bw, y1: y1 - r)].nonEmpty, inner),
            .boxes([PixelBox(x0: x0 + r, y0: y0, x1: x1 - r, y1: y0 + bw), PixelBox(x0: x0 + r, y0: y1 - bw, x1: x1 - r, y1: y1),
                    PixelBox(x0: x0, y0: y0 + r, x1: x0 + bw, y1: y1 - r), PixelBox(x0: x1 - bw, y0: y0 + r, x1: x1, y1: y1 - r)]
                .nonEmpty, band),
        ]
        guard let fillMask = cornerMask(radius: r, border: 0), let ringMask = cornerMask(radius: r, border: bw) else { return items }
        for corner in corners(rect) {
            items.append(.group(Group(bounds: corner.device, items: [.maskedColor(fillMask, [corner], pixmanColor(bg)),
                                                                   .maskedColor(ringMask, [corner], pixmanColor(bd))],
                                      opacity: opacity)))
        }
        return items
    }

    /// Coverage of a 2r×2r rounded square (radius r), or of its ring of width
    /// `border`: its four quadrants are the four corners.
    private func cornerMask(radius r: Int, border: Int) -> SharedImage? {
        let key = Key(radius: r, border: border)
        if let m = masks.value(for: key) { return m }
        let side = Double(2 * r)
        let segments = ShapeRasterizer.segments(forRadius: Double(r), scale: 1)
        let square = Rect(x: 0, y: 0, width: side, height: side)
        let outer = ShapeRasterizer.roundedRect(square, radius: Double(r), segments: segments)
        let coverage = border == 0
            ? ShapeRasterizer.convex(outer)
            : ShapeRasterizer.ring(outer: outer, inner: ShapeRasterizer.roundedRect(square.insetBy(dx: Double(border), dy: Double(border)),
                                                                                   radius: Double(r - border), segments: segments))
        guard let image = ShapeRasterizer.mask(coverage, width: 2 * r, height: 2 * r), let m = SharedImage(adopting: image) else { return nil }
        masks.insert(m, for: key, cost: 4 * r * r)
        return m
    }
}
