import CPixman
import LayerKit

/// Glyphs already rasterized, kept for compositing: coverage masks in pixman's
/// glyph cache (drawn with `pixman_composite_glyphs`), colour glyphs as images.
/// Bounded by bytes; the oldest go first past it. One per layer context (the
/// renderer that installs the backing-store drawing makes it).
@MainActor
public final class GlyphCache {
    /// A glyph ready to composite.
    enum Entry {
        case mask(UnsafeRawPointer)
        case color(image: OpaquePointer, left: Int32, top: Int32)
    }

    /// Bytes of glyph pixels kept.
    public let byteBudget: Int
    /// Glyphs larger than this (bytes) are drawn and dropped, not kept.
    static let largestCachedGlyph = 1 << 20

    let pixmanCache: OpaquePointer
    /// A font at one device size: pixman's cache keys are pointers, one per size.
    final class SizedFont {
        let key = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        let name: SizedFontName
        var glyphs = 0
        init(name: SizedFontName) { self.name = name }
        deinit { key.deallocate() }
    }

    struct SizedFontName: Hashable {
        var rasterizer: ObjectIdentifier
        var face: Int
        var pixelsPerEm: Double
    }

    private struct ColorKey: Hashable {
        var font: UnsafeMutableRawPointer
        var glyph: UInt32
        var phase: Int
    }

    private var fonts: [SizedFontName: SizedFont] = [:]
    private var colorGlyphs: [ColorKey: (image: OpaquePointer, left: Int32, top: Int32)] = [:]
    private var order: [(font: SizedFont, glyph: UnsafeMutableRawPointer?, color: ColorKey?, bytes: Int)] = []
    private var orderStart = 0
    /// Rasterizers seen, held so that their identities are not reused by others.
    private var rasterizers: [ObjectIdentifier: any GlyphRasterizer] = [:]
    /// Bytes of glyph pixels held now.
    public private(set) var cachedBytes = 0

    public init(byteBudget: Int = 16 << 20) {
        self.byteBudget = byteBudget
        pixmanCache = pixman_glyph_cache_create()
    }

    isolated deinit {
        for (image, _, _) in colorGlyphs.values { pixman_image_unref(image) }
        pixman_glyph_cache_destroy(pixmanCache)
    }

    func font(_ face: Int, pixelsPerEm: Double, of rasterizer: any GlyphRasterizer) -> SizedFont {
        let id = ObjectIdentifier(rasterizer)
        if rasterizers[id] == nil { rasterizers[id] = rasterizer }
        let name = SizedFontName(rasterizer: id, face: face, pixelsPerEm: pixelsPerEm)
        if let font = fonts[name] { return font }
        let font = SizedFont(name: name)
        fonts[name] = font
        return font
    }

    /// Glyph `id` of `font` at a subpixel `phase`, rasterized when not kept; nil
    /// when the font cannot draw it.
    func glyph(_ id: UInt32, of font: SizedFont, phase: Int, rasterizer: any GlyphRasterizer) -> Entry? {
        let phases = rasterizer.subpixelPhases
        let glyphKey = UnsafeMutableRawPointer(bitPattern: UInt(id) &* UInt(max(1, phases)) &+ UInt(phase) &+ 1)!
        if let found = pixman_glyph_cache_lookup(pixmanCache, font.key, glyphKey) { return .mask(found) }
        let colorKey = ColorKey(font: font.key, glyph: id, phase: phase)
        if let color = colorGlyphs[colorKey] { return .color(image: color.image, left: color.left, top: color.top) }
        guard let bitmap = rasterizer.rasterize(glyph: id, face: font.name.face, pixelsPerEm: font.name.pixelsPerEm, phase: phase),
              bitmap.byteCount <= Self.largestCachedGlyph * 16 else { return nil }
        switch bitmap.pixels {
        case let .coverage(bytes):
            // A glyph with no ink (a space) is kept as one clear pixel, not asked for again.
            let width = bitmap.width > 0 && bitmap.height > 0 ? bitmap.width : 1
            let height = bitmap.width > 0 && bitmap.height > 0 ? bitmap.height : 1
            guard bytes.count == bitmap.width * bitmap.height || bytes.isEmpty,
                  let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(height), nil, 0) else { return nil }
            defer { pixman_image_unref(image) }
            let stride = Int(pixman_image_get_stride(image))
            let dest = UnsafeMutableRawPointer(pixman_image_get_data(image)!).assumingMemoryBound(to: UInt8.self)
            if bytes.count == width * height {
                bytes.withUnsafeBufferPointer { source in
                    for y in 0..<height {
                        (dest + y * stride).update(from: source.baseAddress! + y * width, count: width)
                    }
                }
            }
            guard let entry = pixman_glyph_cache_insert(pixmanCache, font.key, glyphKey, Int32(-bitmap.left), Int32(bitmap.top), image)
            else { return nil }
            remember(font: font, glyph: glyphKey, color: nil, bytes: stride * height)
            return .mask(entry)
        case let .color(picture):
            guard let image = pixmanImage(copying: picture) else { return nil }
            let entry = (image: image, left: Int32(bitmap.left), top: Int32(bitmap.top))
            colorGlyphs[colorKey] = entry
            remember(font: font, glyph: nil, color: colorKey, bytes: bitmap.byteCount)
            return .color(image: image, left: entry.left, top: entry.top)
        }
    }

    /// Between drawing calls: drops the oldest glyphs past the budget, and the
    /// sizes no glyph is kept of.
    func trim() {
        while cachedBytes > byteBudget, orderStart < order.count {
            let old = order[orderStart]
            orderStart += 1
            cachedBytes -= old.bytes
            if let g = old.glyph { pixman_glyph_cache_remove(pixmanCache, old.font.key, g) }
            if let c = old.color, let entry = colorGlyphs.removeValue(forKey: c) { pixman_image_unref(entry.image) }
            old.font.glyphs -= 1
            if old.font.glyphs == 0 { fonts[old.font.name] = nil }
        }
        if fonts.count > 4096 { fonts = fonts.filter { $0.value.glyphs > 0 } }
        if orderStart > 4096, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    private func remember(font: SizedFont, glyph: UnsafeMutableRawPointer?, color: ColorKey?, bytes: Int) {
        order.append((font, glyph, color, bytes))
        font.glyphs += 1
        cachedBytes += bytes
    }
}
