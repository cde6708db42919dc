import CPixman
import LayerKit

/// Pixels that do not change once made — layer contents, cached coverage masks,
/// a perspective plane — read by several render threads at once.
///
/// A pixman image carries state that a draw sets (transform, filter, repeat), so
/// threads never share one: each draw asks for its own ``header()`` over the same
/// pixels.
final class SharedImage: @unchecked Sendable {
    let width: Int
    let height: Int
    private let image: OpaquePointer
    private let format: pixman_format_code_t
    private let bits: UnsafeMutablePointer<UInt32>
    private let stride: Int32

    /// Takes over `image` (one reference); nil for an image without pixel memory.
    init?(adopting image: OpaquePointer) {
        guard let data = pixman_image_get_data(image) else { pixman_image_unref(image); return nil }
        self.image = image
        bits = data
        width = Int(pixman_image_get_width(image))
        height = Int(pixman_image_get_height(image))
        stride = pixman_image_get_stride(image)
        format = pixman_image_get_format(image)
    }

    /// A copy of an `Image`'s pixels; nil for an empty image.
    convenience init?(_ image: Image) {
        guard let p = pixmanImage(copying: image) else { return nil }
        self.init(adopting: p)
    }

    deinit { pixman_image_unref(image) }

    /// A new pixman image over these pixels, for one thread's use; the caller unrefs it.
    func header() -> OpaquePointer? {
        pixman_image_create_bits(format, Int32(width), Int32(height), bits, stride)
    }
}

/// A new `PIXMAN_a8r8g8b8` image with a copy of `image`'s pixels (one reference
/// for the caller); nil for an empty image.
func pixmanImage(copying image: Image) -> OpaquePointer? {
    guard image.width > 0, image.height > 0,
          let p = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(image.width), Int32(image.height), nil, 0),
          let data = pixman_image_get_data(p) else { return nil }
    let stride = Int(pixman_image_get_stride(p)) / 4
    image.pixels.withUnsafeBufferPointer { src in
        for row in 0..<image.height {
            (data + row * stride).update(from: src.baseAddress! + row * image.width, count: image.width)
        }
    }
    return p
}
