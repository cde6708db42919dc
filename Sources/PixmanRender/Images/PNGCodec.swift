import CPNG
import Glibc
import LayerKit

/// Why PNG data could not be read or written.
public enum PNGError: Error, Equatable, CustomStringConvertible {
    /// libpng refused the data; its message says why.
    case invalid(String)
    /// The image is larger than ``PNGCodec/maximumPixels``.
    case tooLarge(width: Int, height: Int)
    /// A file could not be read or written.
    case file(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .invalid(let m): "not a usable PNG: \(m)"
        case let .tooLarge(w, h): "PNG of \(w)×\(h) is larger than allowed"
        case let .file(p, e): "\(p): \(String(cString: strerror(e)))"
        }
    }
}

/// PNG reading and writing with libpng's simplified API, to and from premultiplied
/// ARGB32 pixels (the layout of `PIXMAN_a8r8g8b8`).
public enum PNGCodec {
    /// Images with more pixels than this are refused rather than allocated.
    public static let maximumPixels = 16_384 * 16_384

    /// libpng's format code for bytes B, G, R, A in memory: an ARGB32 word on little-endian.
    private static let formatBGRA: UInt32 = 0x13

    /// Decodes PNG data into premultiplied ARGB32 words.
    public static func decode(_ data: [UInt8]) throws(PNGError) -> (width: Int, height: Int, pixels: [UInt32]) {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let began = data.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard began != 0 else { throw .invalid(message(of: &image)) }
        defer { png_image_free(&image) }
        let width = Int(image.width), height = Int(image.height)
        guard width > 0, height > 0, width * height <= maximumPixels else { throw .tooLarge(width: width, height: height) }
        image.format = formatBGRA
        var pixels = [UInt32](repeating: 0, count: width * height)
        let ok = pixels.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, Int32(width * 4), nil) }
        guard ok != 0 else { throw .invalid(message(of: &image)) }
        for i in pixels.indices { pixels[i] = premultiply(pixels[i]) }
        return (width, height, pixels)
    }

    /// Encodes premultiplied ARGB32 words as PNG (straight alpha, 8 bits per channel).
    public static func encode(width: Int, height: Int, pixels: [UInt32]) throws(PNGError) -> [UInt8] {
        guard width > 0, height > 0, pixels.count == width * height else { throw .invalid("\(width)×\(height) with \(pixels.count) pixels") }
        let straight = pixels.map(unpremultiply)
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = formatBGRA
        var size = 0
        let sized = straight.withUnsafeBytes { png_image_write_to_memory(&image, nil, &size, 0, $0.baseAddress, Int32(width * 4), nil) }
        guard sized != 0, size > 0 else { throw .invalid(message(of: &image)) }
        var out = [UInt8](repeating: 0, count: size)
        let ok = out.withUnsafeMutableBytes { dst in
            straight.withUnsafeBytes { png_image_write_to_memory(&image, dst.baseAddress, &size, 0, $0.baseAddress, Int32(width * 4), nil) }
        }
        guard ok != 0 else { throw .invalid(message(of: &image)) }
        return Array(out.prefix(size))
    }

    /// Reads a whole file.
    public static func readFile(_ path: String) throws(PNGError) -> [UInt8] {
        guard let f = fopen(path, "rb") else { throw .file(path: path, errno: errno) }
        defer { fclose(f) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&chunk, 1, chunk.count, f)
            if n > 0 { data.append(contentsOf: chunk[0..<n]) }
            if n < chunk.count { break }
        }
        return data
    }

    /// Writes a whole file.
    public static func writeFile(_ bytes: [UInt8], to path: String) throws(PNGError) {
        guard let f = fopen(path, "wb") else { throw .file(path: path, errno: errno) }
        defer { fclose(f) }
        guard fwrite(bytes, 1, bytes.count, f) == bytes.count else { throw .file(path: path, errno: errno) }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    static func premultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 { return p }
        if a == 0 { return 0 }
        func ch(_ shift: UInt32) -> UInt32 { ((((p >> shift) & 0xff) * a + 127) / 255) << shift }
        return a << 24 | ch(16) | ch(8) | ch(0)
    }

    static func unpremultiply(_ p: UInt32) -> UInt32 {
        let a = p >> 24
        if a == 255 || a == 0 { return a == 0 ? 0 : p }
        func ch(_ shift: UInt32) -> UInt32 { min(255, (((p >> shift) & 0xff) * 255 + a / 2) / a) << shift }
        return a << 24 | ch(16) | ch(8) | ch(0)
    }
}

extension Image {
    /// Decodes PNG data (`UIImage(data:)`); nil for data that is not a usable PNG.
    public convenience init?(pngData: [UInt8]) {
        guard let d = try? PNGCodec.decode(pngData) else { return nil }
        self.init(width: d.width, height: d.height, pixels: d.pixels)
    }

    /// Reads a PNG file (`UIImage(contentsOfFile:)`); nil when it cannot be read or decoded.
    public convenience init?(contentsOfFile path: String) {
        guard let data = try? PNGCodec.readFile(path) else { return nil }
        self.init(pngData: data)
    }
}
