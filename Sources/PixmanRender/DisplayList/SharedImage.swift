import CPixman

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

    deinit { pixman_image_unref(image) }

    /// A new pixman image over these pixels, for one thread's use; the caller unrefs it.
    func header() -> OpaquePointer? {
        pixman_image_create_bits(format, Int32(width), Int32(height), bits, stride)
    }
}
