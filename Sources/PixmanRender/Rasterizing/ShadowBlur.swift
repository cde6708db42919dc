import CPixman
import Glibc

/// A Gaussian blur as two one-dimensional pixman convolutions (horizontal, then
/// vertical): of an image's alpha for layer shadows, of its colours for backdrops.
enum ShadowBlur {
    /// How far (pixels) the blur spreads a pixel: its kernel's radius.
    static func reach(sigma: Double) -> Int {
        sigma > 0.25 ? Int(min(200, (3 * sigma).rounded(.up))) : 0   // ∞ (a huge scale) reaches 200, NaN nothing
    }

    /// The alpha of `source` (any format), blurred with standard deviation `sigma`
    /// pixels, as a new a8 image of the same size. The caller unrefs it.
    static func blurredAlpha(of source: OpaquePointer, width: Int, height: Int, sigma: Double) -> OpaquePointer? {
        blurred(source, width: width, height: height, sigma: sigma, format: PIXMAN_a8, repeat: PIXMAN_REPEAT_NONE)
    }

    /// `source` blurred with standard deviation `sigma` pixels, as a new image of
    /// `format` and the same size (the caller unrefs it); `repeat` says what lies
    /// beyond its edges (none: clear; pad: its edge pixels).
    static func blurred(_ source: OpaquePointer, width: Int, height: Int, sigma: Double, format: pixman_format_code_t,
                        repeat mode: pixman_repeat_t) -> OpaquePointer? {
        guard let alpha = pixman_image_create_bits(format, Int32(width), Int32(height), nil, 0) else { return nil }
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, alpha, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        let radius = reach(sigma: sigma)
        guard radius > 0 else { return alpha }
        var weights = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let sum = weights.reduce(0, +)
        weights = weights.map { $0 / sum }
        let taps = weights.map(pixmanFixed)
        let size = pixman_fixed_t(Int32(2 * radius + 1) << 16), one = pixman_fixed_t(1 << 16)
        func pass(_ input: OpaquePointer, _ params: [pixman_fixed_t]) -> OpaquePointer? {
            guard let out = pixman_image_create_bits(format, Int32(width), Int32(height), nil, 0) else { return nil }
            var p = params
            pixman_image_set_filter(input, PIXMAN_FILTER_CONVOLUTION, &p, Int32(p.count))
            pixman_image_set_repeat(input, mode)
            pixman_image_composite32(PIXMAN_OP_SRC, input, nil, out, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
            pixman_image_unref(input)
            return out
        }
        guard let horizontal = pass(alpha, [size, one] + taps) else { return nil }
        return pass(horizontal, [one, size] + taps)
    }
}
