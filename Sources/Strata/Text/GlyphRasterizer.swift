import CPango
import CPixman
import LayerKit
import PixmanRender

/// Glyphs rasterized by FreeType at the device scale and kept in pixman's glyph
/// cache, bounded by bytes (rule X3). Outlines are hinted lightly (vertically
/// only, so shapes keep their widths) and placed at quarter-pixel horizontal
/// positions, each phase rasterized on its own; baselines sit on whole device
/// pixels. Colour glyphs (Noto Color Emoji's bitmaps) are scaled from their
/// strike to the size asked for and kept as images. Used under `TextSystem`'s lock.
final class GlyphRasterizer {
    /// A glyph ready to composite: pixman's cache entry, or a colour image.
    enum Entry {
        case mask(UnsafeRawPointer)
        case color(image: OpaquePointer, left: Int32, top: Int32)
    }

    /// The size of a font at a device scale, as FreeType draws it.
    struct SizedFace: Hashable {
        var face: FaceKey
        var pixelsPerEm: Double
    }

    static let subpixelPhases = 4
    /// Bytes of glyph pixels kept; the oldest go first past it.
    static let byteBudget = 16 << 20
    /// Glyphs larger than this (bytes) are drawn and dropped, not kept.
    static let largestCachedGlyph = 1 << 20

    private var library: FT_Library?
    private var faces: [String: FT_Face?] = [:]   // "file#index"; nil: could not be opened
    let cache: OpaquePointer
    private var fontKeys: [SizedFace: UnsafeMutableRawPointer] = [:]
    private var colorGlyphs: [ColorKey: (image: OpaquePointer, left: Int32, top: Int32, bytes: Int)] = [:]
    private var order: [(font: UnsafeMutableRawPointer, glyph: UnsafeMutableRawPointer?, color: ColorKey?, bytes: Int)] = []
    private var orderStart = 0
    private(set) var cachedBytes = 0
    /// What went wrong since last asked (reported by the caller, on the main actor).
    var problems: [String] = []
    /// Rasterizations so far (tests count them to see the cache work).
    private(set) var rasterizations = 0

    private struct ColorKey: Hashable { var face: SizedFace; var glyph: UInt32 }

    init() {
        var lib: FT_Library?
        FT_Init_FreeType(&lib)
        library = lib
        cache = pixman_glyph_cache_create()
    }

    /// A font at one size, ready to look glyphs up in: made once per face and
    /// draw, so looking a glyph up hashes two pointers, not the face's file name.
    final class SizedFont {
        let sized: SizedFace
        let key: UnsafeMutableRawPointer
        let face: FT_Face?
        let isColor: Bool
        init(sized: SizedFace, key: UnsafeMutableRawPointer, face: FT_Face?) {
            self.sized = sized
            self.key = key
            self.face = face
            isColor = face.map { strata_ft_has_color($0) != 0 } ?? false
        }
    }

    private var sizedFonts: [SizedFace: SizedFont] = [:]

    func font(_ sized: SizedFace) -> SizedFont {
        if let f = sizedFonts[sized] { return f }
        let f = SizedFont(sized: sized, key: key(for: sized), face: face(for: sized.face))
        sizedFonts[sized] = f
        return f
    }

    /// The glyph `id` of a sized font at a quarter-pixel `phase`; nil when the font cannot draw it.
    func glyph(_ id: UInt32, of font: SizedFont, phase: Int) -> Entry? {
        if font.isColor {
            let colorKey = ColorKey(face: font.sized, glyph: id)
            if let color = colorGlyphs[colorKey] { return .color(image: color.image, left: color.left, top: color.top) }
            guard let face = font.face else { return nil }
            rasterizations += 1
            // fontconfig names a bitmap font's strike as its size and scales it by the matrix.
            let m = font.sized.face.matrix
            let size = font.sized.pixelsPerEm * abs(m[0] * m[3] - m[1] * m[2]).squareRoot()
            guard let (image, left, top) = colorGlyph(id, face: face, size: size) else { return nil }
            let bytes = Int(pixman_image_get_stride(image)) * Int(pixman_image_get_height(image))
            colorGlyphs[colorKey] = (image, left, top, bytes)
            remember(font: font.key, glyph: nil, color: colorKey, bytes: bytes)
            return .color(image: image, left: left, top: top)
        }
        let glyphKey = UnsafeMutableRawPointer(bitPattern: UInt(id) &* UInt(Self.subpixelPhases) &+ UInt(phase) &+ 1)!
        if let found = pixman_glyph_cache_lookup(cache, font.key, glyphKey) { return .mask(found) }
        guard let face = font.face else { return nil }
        rasterizations += 1
        guard let (image, left, top) = maskGlyph(id, face: face, sized: font.sized, phase: phase) else { return nil }
        defer { pixman_image_unref(image) }
        let bytes = Int(pixman_image_get_stride(image)) * Int(pixman_image_get_height(image))
        guard let entry = pixman_glyph_cache_insert(cache, font.key, glyphKey, -left, top, image) else { return nil }
        remember(font: font.key, glyph: glyphKey, color: nil, bytes: bytes)
        return .mask(entry)
    }

    /// Between drawing calls: drops the oldest glyphs past the budget.
    func trim() {
        while cachedBytes > Self.byteBudget, orderStart < order.count {
            let old = order[orderStart]
            orderStart += 1
            cachedBytes -= old.bytes
            if let g = old.glyph { pixman_glyph_cache_remove(cache, old.font, g) }
            if let c = old.color, let entry = colorGlyphs.removeValue(forKey: c) { pixman_image_unref(entry.image) }
        }
        if orderStart > 4096, orderStart * 2 > order.count {
            order.removeFirst(orderStart)
            orderStart = 0
        }
    }

    private func remember(font: UnsafeMutableRawPointer, glyph: UnsafeMutableRawPointer?, color: ColorKey?, bytes: Int) {
        order.append((font, glyph, color, bytes))
        cachedBytes += bytes
    }

    /// A distinct pointer per sized face: pixman's cache keys are pointers.
    private func key(for sized: SizedFace) -> UnsafeMutableRawPointer {
        if let k = fontKeys[sized] { return k }
        let k = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        fontKeys[sized] = k
        return k
    }

    private func face(for key: FaceKey) -> FT_Face? {
        let name = "\(key.file)#\(key.index)"
        if let known = faces[name] { return known }
        var face: FT_Face?
        if FT_New_Face(library, key.file, FT_Long(key.index), &face) != 0 { face = nil }
        if face == nil { problems.append("FreeType cannot open '\(key.file)'; its glyphs are not drawn") }
        faces[name] = face
        return face
    }

    private func maskGlyph(_ id: UInt32, face: FT_Face, sized: SizedFace, phase: Int) -> (OpaquePointer, Int32, Int32)? {
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6((sized.pixelsPerEm * 64).rounded()), 72, 72) == 0 else { return nil }
        let m = sized.face.matrix
        var matrix = FT_Matrix(xx: FT_Fixed(pixmanFixed(m[0])), xy: FT_Fixed(pixmanFixed(m[1])), yx: FT_Fixed(pixmanFixed(m[2])), yy: FT_Fixed(pixmanFixed(m[3])))
        FT_Set_Transform(face, &matrix, nil)
        guard FT_Load_Glyph(face, id, strata_load_light | strata_load_no_bitmap) == 0, let slot = face.pointee.glyph else { return nil }
        if sized.face.embolden { FT_GlyphSlot_Embolden(slot) }
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(phase * 64 / Self.subpixelPhases), 0)
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        // A glyph with no ink (a space) is cached as one clear pixel, not drawn again.
        guard width > 0, rows > 0 else { return pixman_image_create_bits(PIXMAN_a8, 1, 1, nil, 0).map { ($0, 0, 0) } }
        guard width * rows <= Self.largestCachedGlyph * 16,
              let image = pixman_image_create_bits(PIXMAN_a8, Int32(width), Int32(rows), nil, 0) else { return nil }
        let stride = Int(pixman_image_get_stride(image))
        let dest = UnsafeMutableRawPointer(pixman_image_get_data(image)!).assumingMemoryBound(to: UInt8.self)
        for y in 0..<rows {
            let source = bitmap.buffer.advanced(by: y * Int(bitmap.pitch))
            for x in 0..<width {
                dest[y * stride + x] = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue)
                    ? ((source[x >> 3] >> (7 - UInt8(x & 7))) & 1) * 255 : source[x]
            }
        }
        return (image, slot.pointee.bitmap_left, slot.pointee.bitmap_top)
    }

    /// A colour glyph: the strike nearest above the size, scaled to it with a
    /// box filter (a premultiplied a8r8g8b8 image, as FreeType's BGRA is).
    private func colorGlyph(_ id: UInt32, face: FT_Face, size: Double) -> (OpaquePointer, Int32, Int32)? {
        let strikes = Int(face.pointee.num_fixed_sizes)
        if strata_ft_is_scalable(face) != 0 || strikes == 0 {
            guard FT_Set_Char_Size(face, 0, FT_F26Dot6((size * 64).rounded()), 72, 72) == 0 else { return nil }
        } else {
            let heights = (0..<strikes).map { Int(face.pointee.available_sizes[$0].y_ppem >> 6) }
            let best = heights.indices.filter { Double(heights[$0]) >= size }.min { heights[$0] < heights[$1] }
                ?? heights.indices.max { heights[$0] < heights[$1] }!
            FT_Select_Size(face, Int32(best))
        }
        FT_Set_Transform(face, nil, nil)
        guard FT_Load_Glyph(face, id, strata_load_color) == 0, let slot = face.pointee.glyph else { return nil }
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE { return nil }
        let bitmap = slot.pointee.bitmap
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), bitmap.width > 0, bitmap.rows > 0 else { return nil }
        let strike = Double(face.pointee.size.pointee.metrics.y_ppem)
        let factor = strike > 0 ? size / strike : 1
        // Below 1/32768 of its strike (a size of 0 among them) a glyph covers no pixel,
        // and 1/factor is past what pixman's fixed point can hold: nothing to draw.
        guard factor.isFinite, factor * 32767 > 1 else { return nil }
        let width = Int32(bitmap.width), rows = Int32(bitmap.rows)
        guard let source = pixman_image_create_bits(PIXMAN_a8r8g8b8, width, rows,
                                                   UnsafeMutableRawPointer(bitmap.buffer).assumingMemoryBound(to: UInt32.self),
                                                   bitmap.pitch) else { return nil }
        defer { pixman_image_unref(source) }
        let outWidth = max(1, Int32((Double(width) * factor).rounded(.up)))
        let outRows = max(1, Int32((Double(rows) * factor).rounded(.up)))
        guard let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, outWidth, outRows, nil, 0) else { return nil }
        var transform = pixman_transform()
        pixman_transform_init_scale(&transform, pixmanFixed(1 / factor), pixmanFixed(1 / factor))
        pixman_image_set_transform(source, &transform)
        if factor < 1 {
            var count: Int32 = 0
            let params = pixman_filter_create_separable_convolution(&count, pixmanFixed(1 / factor), pixmanFixed(1 / factor),
                                                                   PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_BOX, 4, 4)
            pixman_image_set_filter(source, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, count)
            free(params)
        } else {
            pixman_image_set_filter(source, PIXMAN_FILTER_BILINEAR, nil, 0)
        }
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, image, 0, 0, 0, 0, 0, 0, outWidth, outRows)
        let left = Int32((Double(slot.pointee.bitmap_left) * factor).rounded())
        let top = Int32((Double(slot.pointee.bitmap_top) * factor).rounded())
        return (image, left, top)
    }
}
