import CPixman

/// A backdrop layer's blur: the items drawn before it in the frame (`below`),
/// played again into a canvas of its outline's box grown by the blur's reach,
/// shrunk by `downscale`, blurred (pixman's separable convolution), its
/// saturation scaled, and drawn back at full size through the outline, replacing
/// what is there. The blurred picture is made once, by whichever band needs it
/// first, from the whole box: every band, and every frame whatever its damage,
/// gets the same pixels.
final class Backdrop: @unchecked Sendable {
    let below: [DisplayItem]
    let coverage: Coverage
    let sigma: Double
    let saturation: Double
    /// The box read: the outline's box grown by the reach, within the frame.
    let source: PixelBox
    let downscale: Int
    private let blurred = Locked<SharedImage?>(nil)

    var bounds: PixelBox { coverage.bounds }

    init(below: [DisplayItem], coverage: Coverage, sigma: Double, saturation: Double, frame: PixelBox) {
        self.below = below
        self.coverage = coverage
        self.sigma = sigma
        self.saturation = saturation
        // Shrunk so the blur left to do is about 2 pixels: most of it is in the shrinking.
        downscale = max(1, min(8, Int(sigma / 2)))
        let reach = ShadowBlur.reach(sigma: sigma) + 2 * downscale
        source = coverage.bounds.insetBy(-reach).intersection(frame)
    }

    /// The blurred picture at 1/`downscale` size, its pixel (0, 0) at the source's corner.
    func picture(play: ([DisplayItem], DisplayListPlayer.Target) -> Void) -> SharedImage? {
        blurred.get {
            let s = source, d = downscale
            guard !s.isEmpty, s.width <= 1 << 15, s.height <= 1 << 15,
                  let canvas = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(s.width), Int32(s.height), nil, 0) else { return nil }
            defer { pixman_image_unref(canvas) }
            play(below, DisplayListPlayer.Target(image: canvas, originX: s.x0, originY: s.y0, area: s))
            let (w, h) = ((s.width + d - 1) / d, (s.height + d - 1) / d)
            guard let small = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(w), Int32(h), nil, 0) else { return nil }
            defer { pixman_image_unref(small) }
            var shrink = pixman_transform_t()
            pixman_transform_init_scale(&shrink, pixman_fixed_t(d << 16), pixman_fixed_t(d << 16))
            pixman_image_set_transform(canvas, &shrink)
            pixman_image_set_filter(canvas, d > 1 ? PIXMAN_FILTER_GOOD : PIXMAN_FILTER_NEAREST, nil, 0)
            pixman_image_set_repeat(canvas, PIXMAN_REPEAT_PAD)
            pixman_image_composite32(PIXMAN_OP_SRC, canvas, nil, small, 0, 0, 0, 0, 0, 0, Int32(w), Int32(h))
            guard let out = ShadowBlur.blurred(small, width: w, height: h, sigma: sigma / Double(d), format: PIXMAN_a8r8g8b8,
                                               repeat: PIXMAN_REPEAT_PAD) else { return nil }
            if saturation != 1 { Self.saturate(out, width: w, height: h, by: saturation) }
            return SharedImage(adopting: out)
        }
    }

    /// Each pixel's colour pulled towards its grey (below 1) or pushed away (above 1),
    /// kept within its alpha (premultiplied).
    static func saturate(_ image: OpaquePointer, width: Int, height: Int, by s: Double) {
        guard let data = pixman_image_get_data(image) else { return }
        let stride = Int(pixman_image_get_stride(image)) / 4
        for y in 0..<height {
            let row = data + y * stride
            for x in 0..<width {
                let p = row[x]
                let a = Double(p >> 24), r = Double(p >> 16 & 0xff), g = Double(p >> 8 & 0xff), b = Double(p & 0xff)
                let grey = 0.2126 * r + 0.7152 * g + 0.0722 * b
                func ch(_ c: Double) -> UInt32 { UInt32(min(a, max(0, grey + (c - grey) * s)).rounded()) }
                row[x] = UInt32(a) << 24 | ch(r) << 16 | ch(g) << 8 | ch(b)
            }
        }
    }
}
