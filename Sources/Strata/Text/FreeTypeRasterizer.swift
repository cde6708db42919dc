import CPango
import CPixman
import LayerKit
import PixmanRender

/// Glyphs rasterized by FreeType at the device scale (rule X3), for the drawing
/// context that keeps them. Outlines are hinted lightly (vertically only, so
/// shapes keep their widths) and placed at quarter-pixel horizontal positions,
/// each phase rasterized on its own. Colour glyphs (Noto Color Emoji's bitmaps)
/// are scaled from their strike to the size asked for. Faces are named by
/// numbers the layouts get from ``faceNumber(_:)``.
@MainActor
final class FreeTypeRasterizer: LayerKit.GlyphRasterizer {
    let subpixelPhases = 4
    /// Glyphs larger than this many pixels are not drawn.
    static let largestGlyph = 16 << 20

    private var library: FT_Library?
    private var faces: [String: FT_Face?] = [:]   // "file#index"; nil: could not be opened
    /// Faces by number; a face is its file, index, emboldening and matrix (not its size).
    private var numbers: [FaceKey: Int] = [:]
    private var keys: [FaceKey] = []
    /// Rasterizations so far (tests count them to see the glyph cache work).
    private(set) var rasterizations = 0

    init() {
        var lib: FT_Library?
        FT_Init_FreeType(&lib)
        library = lib
    }

    /// The number a drawing context knows `face` by (its size aside).
    func faceNumber(_ face: FaceKey) -> Int {
        var key = face
        key.size = 0
        if let n = numbers[key] { return n }
        keys.append(key)
        numbers[key] = keys.count - 1
        return keys.count - 1
    }

    func rasterize(glyph id: UInt32, face number: Int, pixelsPerEm: Double, phase: Int) -> GlyphBitmap? {
        guard keys.indices.contains(number), let face = face(for: keys[number]) else { return nil }
        rasterizations += 1
        let key = keys[number]
        guard strata_ft_has_color(face) != 0 else { return maskGlyph(id, face: face, key: key, pixelsPerEm: pixelsPerEm, phase: phase) }
        // fontconfig names a bitmap font's strike as its size and scales it by the matrix.
        let m = key.matrix
        return colorGlyph(id, face: face, size: pixelsPerEm * abs(m[0] * m[3] - m[1] * m[2]).squareRoot())
    }

    private func face(for key: FaceKey) -> FT_Face? {
        let name = "\(key.file)#\(key.index)"
        if let known = faces[name] { return known }
        var face: FT_Face?
        if FT_New_Face(library, key.file, FT_Long(key.index), &face) != 0 { face = nil }
        if face == nil { reportTextProblem("FreeType cannot open '\(key.file)'; its glyphs are not drawn") }
        faces[name] = face
        return face
    }

    private func maskGlyph(_ id: UInt32, face: FT_Face, key: FaceKey, pixelsPerEm: Double, phase: Int) -> GlyphBitmap? {
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelsPerEm * 64).rounded()), 72, 72) == 0 else { return nil }
        let m = key.matrix
        var matrix = FT_Matrix(xx: FT_Fixed(pixmanFixed(m[0])), xy: FT_Fixed(pixmanFixed(m[1])), yx: FT_Fixed(pixmanFixed(m[2])), yy: FT_Fixed(pixmanFixed(m[3])))
        FT_Set_Transform(face, &matrix, nil)
        guard FT_Load_Glyph(face, id, strata_load_light | strata_load_no_bitmap) == 0, let slot = face.pointee.glyph else { return nil }
        if key.embolden { FT_GlyphSlot_Embolden(slot) }
        if slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE {
            FT_Outline_Translate(&slot.pointee.outline, FT_Pos(phase * 64 / subpixelPhases), 0)
        }
        guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bitmap = slot.pointee.bitmap
        let width = Int(bitmap.width), rows = Int(bitmap.rows)
        guard width > 0, rows > 0 else { return GlyphBitmap(width: 0, height: 0, pixels: .coverage([]), left: 0, top: 0) }
        guard width * rows <= Self.largestGlyph else { return nil }
        let mono = bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_MONO.rawValue)
        var bytes = [UInt8](repeating: 0, count: width * rows)
        for y in 0..<rows {
            let source = bitmap.buffer.advanced(by: y * Int(bitmap.pitch))
            for x in 0..<width {
                bytes[y * width + x] = mono ? ((source[x >> 3] >> (7 - UInt8(x & 7))) & 1) * 255 : source[x]
            }
        }
        return GlyphBitmap(width: width, height: rows, pixels: .coverage(bytes),
                           left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
    }

    /// A colour glyph: the strike nearest above the size, scaled to it with a
    /// box filter (a premultiplied a8r8g8b8 image, as FreeType's BGRA is).
    private func colorGlyph(_ id: UInt32, face: FT_Face, size: Double) -> GlyphBitmap? {
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
        guard Int(outWidth) * Int(outRows) <= Self.largestGlyph / 4,
              let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, outWidth, outRows, nil, 0) else { return nil }
        defer { pixman_image_unref(image) }
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
        let stride = Int(pixman_image_get_stride(image)) / 4
        let data = pixman_image_get_data(image)!
        var pixels = [UInt32](repeating: 0, count: Int(outWidth) * Int(outRows))
        for y in 0..<Int(outRows) {
            for x in 0..<Int(outWidth) { pixels[y * Int(outWidth) + x] = data[y * stride + x] }
        }
        guard let picture = Image(width: Int(outWidth), height: Int(outRows), pixels: pixels) else { return nil }
        return GlyphBitmap(width: picture.width, height: picture.height, pixels: .color(picture),
                           left: Int((Double(slot.pointee.bitmap_left) * factor).rounded()),
                           top: Int((Double(slot.pointee.bitmap_top) * factor).rounded()))
    }
}
