import LayerKit

/// Pixels that were rendered or captured: premultiplied ARGB32, row by row, with
/// exact pixel access and PNG output.
public struct RenderedImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height` premultiplied ARGB words.
    public let pixels: [UInt32]

    public init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(pixels.count == width * height, "RenderedImage: \(pixels.count) pixels for \(width)×\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Decodes a PNG (a screenshot, a golden image).
    public init(pngData: [UInt8]) throws(PNGError) {
        let d = try PNGCodec.decode(pngData)
        self.init(width: d.width, height: d.height, pixels: d.pixels)
    }

    /// Reads a PNG file.
    public init(contentsOfFile path: String) throws(PNGError) {
        try self.init(pngData: PNGCodec.readFile(path))
    }

    /// The premultiplied word at (x, y); transparent outside the image.
    public func word(x: Int, y: Int) -> UInt32 {
        guard x >= 0, y >= 0, x < width, y < height else { return 0 }
        return pixels[y * width + x]
    }

    /// The colour at (x, y) with straight alpha; clear outside the image.
    public func pixel(x: Int, y: Int) -> Color {
        let p = word(x: x, y: y)
        let a = Double(p >> 24) / 255
        guard a > 0 else { return .clear }
        func ch(_ s: UInt32) -> Double { min(1, Double((p >> s) & 0xff) / 255 / a) }
        return Color(red: ch(16), green: ch(8), blue: ch(0), alpha: a)
    }

    /// The 8-bit straight RGBA at (x, y), for exact comparisons.
    public func rgba8(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let p = PNGCodec.unpremultiply(word(x: x, y: y))
        return (UInt8(p >> 16 & 0xff), UInt8(p >> 8 & 0xff), UInt8(p & 0xff), UInt8(p >> 24))
    }

    /// Images side by side, left to right, top-aligned (a filmstrip of frames);
    /// transparent where an image is shorter than the tallest.
    public init(strip images: [RenderedImage]) {
        let width = images.reduce(0) { $0 + $1.width }, height = images.map(\.height).max() ?? 0
        var pixels = [UInt32](repeating: 0, count: width * height)
        var x0 = 0
        for image in images {
            for row in 0..<image.height {
                let src = row * image.width, dst = row * width + x0
                pixels.replaceSubrange(dst..<(dst + image.width), with: image.pixels[src..<(src + image.width)])
            }
            x0 += image.width
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// This image with `top` drawn over it (premultiplied source-over) with its
    /// top-left corner at (x, y), clipped to this image: a popup's pixels on its
    /// window's snapshot.
    public func drawing(_ top: RenderedImage, atX x: Int, y: Int) -> RenderedImage {
        var out = pixels
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + top.width), y1 = min(height, y + top.height)
        guard x1 > x0, y1 > y0 else { return self }
        for row in y0..<y1 {
            for col in x0..<x1 {
                let s = top.pixels[(row - y) * top.width + (col - x)]
                let sa = s >> 24
                if sa == 255 { out[row * width + col] = s; continue }
                if sa == 0 && s == 0 { continue }
                let d = out[row * width + col], keep = 255 - sa
                var result: UInt32 = 0
                for shift: UInt32 in [0, 8, 16, 24] {
                    let v = ((s >> shift) & 0xff) + (((d >> shift) & 0xff) * keep + 127) / 255
                    result |= min(255, v) << shift
                }
                out[row * width + col] = result
            }
        }
        return RenderedImage(width: width, height: height, pixels: out)
    }

    /// A rectangle of the image (clipped to it).
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) -> RenderedImage {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x1 > x0, y1 > y0 else { return RenderedImage(width: 0, height: 0, pixels: []) }
        var out: [UInt32] = []
        out.reserveCapacity((x1 - x0) * (y1 - y0))
        for row in y0..<y1 { out.append(contentsOf: pixels[(row * width + x0)..<(row * width + x1)]) }
        return RenderedImage(width: x1 - x0, height: y1 - y0, pixels: out)
    }

    /// PNG bytes (libpng). Empty for an image with no pixels (0×0), which PNG cannot hold.
    public func pngData() -> [UInt8] {
        (try? PNGCodec.encode(width: width, height: height, pixels: pixels)) ?? []
    }

    /// Writes a PNG file; an image with no pixels is an error.
    public func writePNG(to path: String) throws(PNGError) {
        try PNGCodec.writeFile(PNGCodec.encode(width: width, height: height, pixels: pixels), to: path)
    }

    /// The largest difference of any channel (0…255) between two images of one size;
    /// nil when the sizes differ.
    public func maximumDifference(from other: RenderedImage) -> Int? {
        guard width == other.width, height == other.height else { return nil }
        var worst = 0
        for (a, b) in zip(pixels, other.pixels) where a != b {
            for s: UInt32 in [0, 8, 16, 24] {
                worst = max(worst, abs(Int(a >> s & 0xff) - Int(b >> s & 0xff)))
            }
        }
        return worst
    }
}
