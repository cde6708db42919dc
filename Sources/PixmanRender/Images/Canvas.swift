import CPixman
import LayerKit

/// A premultiplied ARGB32 pixman image: its own pixels, or someone else's (a
/// window's shared-memory buffer).
final class Canvas {
    let width: Int
    let height: Int
    let image: OpaquePointer
    private let owned: UnsafeMutablePointer<UInt32>?

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        let pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: self.width * self.height)
        pixels.initialize(repeating: 0, count: self.width * self.height)
        owned = pixels
        image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(self.width), Int32(self.height), pixels, Int32(self.width * 4))!
    }

    /// Draws into an existing pixman image (not owned; it must outlive the canvas).
    init(wrapping image: OpaquePointer) {
        width = Int(pixman_image_get_width(image))
        height = Int(pixman_image_get_height(image))
        owned = nil
        pixman_image_ref(image)
        self.image = image
    }

    deinit {
        pixman_image_unref(image)
        owned?.deallocate()
    }

    var words: [UInt32] {
        guard let owned else { return [] }
        return Array(UnsafeBufferPointer(start: owned, count: width * height))
    }
}

/// An affine map as pixman's 16.16 fixed-point transform (pixman maps destination
/// pixels to source pixels: pass the device-to-image map).
/// Returns nil when an entry is not finite (a singular or enormous map): nothing
/// meaningful can be sampled through it, and the caller draws nothing.
func pixmanTransform(_ m: AffineTransform) -> pixman_transform_t? {
    guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite, m.tx.isFinite, m.ty.isFinite else { return nil }
    var t = pixman_transform_t()
    t.matrix.0 = (pixmanFixed(m.a), pixmanFixed(m.c), pixmanFixed(m.tx))
    t.matrix.1 = (pixmanFixed(m.b), pixmanFixed(m.d), pixmanFixed(m.ty))
    t.matrix.2 = (0, 0, pixmanFixed(1))
    return t
}

/// `pixmanTransform(m)` for sampling the device pixels of `box`: nil as well when an
/// entry, or where a corner of `box` lands, lies beyond pixman's 16.16 range. Such
/// a map would be clamped, and pixman's arithmetic with it then depends on where a
/// composite starts (a damage-tracked frame differed from a full one; found by the
/// fuzzer): what it would sample is not drawn.
func pixmanTransform(_ m: AffineTransform, sampling box: PixelBox) -> pixman_transform_t? {
    let limit = 32_000.0
    guard [m.a, m.b, m.c, m.d, m.tx, m.ty].allSatisfy({ abs($0) < limit }) else { return nil }
    for (x, y) in [(box.x0, box.y0), (box.x1, box.y0), (box.x0, box.y1), (box.x1, box.y1)] {
        let p = Point(x: Double(x), y: Double(y)).applying(m)
        guard abs(p.x) < limit, abs(p.y) < limit else { return nil }
    }
    return pixmanTransform(m)
}

/// A number as pixman's 16.16 fixed point, held within the format's range
/// (±32767.99998); NaN is 0. Every conversion to fixed point goes through here:
/// a plain `Int64(Double)` traps on NaN, ∞ and numbers past ±9.2e18, which
/// degenerate geometry and zero font sizes produce.
package func pixmanFixed(_ v: Double) -> pixman_fixed_t {
    guard !v.isNaN else { return 0 }
    return pixman_fixed_t((min(max(v, -32767.99998), 32767.99998) * 65536).rounded())
}

/// A straight-alpha colour as pixman's 16-bit premultiplied colour, with an extra alpha factor.
package func pixmanColor(_ color: Color, alpha factor: Double = 1) -> pixman_color_t {
    let c = color.clamped
    let a = c.alpha * min(1, max(0, factor))
    func ch(_ v: Double) -> UInt16 { UInt16((v * a * 65535).rounded()) }
    return pixman_color_t(red: ch(c.red), green: ch(c.green), blue: ch(c.blue), alpha: UInt16((a * 65535).rounded()))
}
