import CPixman
import Glibc

/// A Gaussian blur as two one-dimensional pixman convolutions (horizontal, then
/// vertical): of an image's alpha for layer shadows, of its colours for backdrops.
enum ShadowBlur {
    /// How far (pixels) the blur spreads a pixel: its kernel's radius.
    static func reach(sigma: Double) -> Int {
        sigma > 0.25 ? Int(min(Double(maximumReach), (3 * sigma).rounded(.up))) : 0   // ∞ (a huge scale) reaches 200, NaN nothing
    }
    static let maximumReach = 200
    /// Above this, a blur is made at a smaller size (``blurred(_:width:height:sigma:format:repeat:)``).
    static let wideSigma = 24.0

    /// `source` drawn into a new image of `width` × `height`, scaled by `factor`
    /// about the origin; `source` is left as it was.
    private static func scaled(_ source: OpaquePointer, by factor: Double, width: Int, height: Int, format: pixman_format_code_t,
                               filter: pixman_filter_t, repeat mode: pixman_repeat_t) -> OpaquePointer? {
        guard let out = pixman_image_create_bits(format, Int32(max(1, width)), Int32(max(1, height)), nil, 0) else { return nil }
        // Target pixels → source pixels.
        var m = pixman_transform_t()
        pixman_transform_init_scale(&m, pixmanFixed(1 / factor), pixmanFixed(1 / factor))
        pixman_image_set_transform(source, &m)
        pixman_image_set_filter(source, filter, nil, 0)
        pixman_image_set_repeat(source, mode)
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, out, 0, 0, 0, 0, 0, 0, Int32(max(1, width)), Int32(max(1, height)))
        pixman_image_set_transform(source, nil)
        pixman_image_set_filter(source, PIXMAN_FILTER_NEAREST, nil, 0)
        pixman_image_set_repeat(source, PIXMAN_REPEAT_NONE)
        return out
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
        // A wide blur is made at a fraction of the size, its kernel shrunk with it,
        // and enlarged again: the cost stays about the image's instead of growing
        // with the kernel (a 4,096-pixel plane's shadow of the widest kernel, 401
        // taps a pass, took minutes). A kernel never reaches further than `reach`.
        if sigma > wideSigma {
            let limited = min(sigma, Double(maximumReach) / 3)
            let k = Int((limited / 8).rounded(.up))
            let (w, h) = ((width + k - 1) / k, (height + k - 1) / k)
            guard let small = scaled(source, by: 1 / Double(k), width: w, height: h, format: format, filter: PIXMAN_FILTER_GOOD, repeat: mode),
                  let blurredSmall = blurred(small, width: w, height: h, sigma: limited / Double(k), format: format, repeat: mode) else { return nil }
            pixman_image_unref(small)
            defer { pixman_image_unref(blurredSmall) }
            return scaled(blurredSmall, by: Double(k), width: width, height: height, format: format, filter: PIXMAN_FILTER_BILINEAR, repeat: mode)
        }
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
