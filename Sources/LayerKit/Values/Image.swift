/// A bitmap used as layer `contents`: premultiplied ARGB32 pixels in native byte
/// order (the layout of `PIXMAN_a8r8g8b8` and `WL_SHM_FORMAT_ARGB8888`), row by row.
///
/// LayerKit only holds pixels; decoding PNG lives in PixmanRender
/// (`Image(pngData:)`, `Image(contentsOfFile:)`), which uses libpng.
public final class Image: @unchecked Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width * height` premultiplied ARGB words, alpha in the high byte.
    public let pixels: [UInt32]

    /// Makes an image from pixels; nil unless `pixels.count == width * height` and both sizes are ≥ 0.
    public init?(width: Int, height: Int, pixels: [UInt32]) {
        guard width >= 0, height >= 0, width.multipliedReportingOverflow(by: height).overflow == false,
              pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image of one colour.
    public convenience init(width: Int, height: Int, color: Color) {
        let c = color.clamped
        let a = c.alpha
        func byte(_ v: Double) -> UInt32 { UInt32((v * 255).rounded()) }
        let word = byte(a) << 24 | byte(c.red * a) << 16 | byte(c.green * a) << 8 | byte(c.blue * a)
        self.init(width: max(0, width), height: max(0, height),
                  pixels: [UInt32](repeating: word, count: max(0, width) * max(0, height)))!
    }

    public var size: Size { Size(width: Double(width), height: Double(height)) }

    public static func == (l: Image, r: Image) -> Bool {
        l === r || (l.width == r.width && l.height == r.height && l.pixels == r.pixels)
    }

    public func hash(into h: inout Hasher) {
        h.combine(width); h.combine(height); h.combine(pixels.count)
    }
}
