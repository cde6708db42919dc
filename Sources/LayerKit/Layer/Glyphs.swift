/// One glyph of a run for ``DrawingContext/drawGlyphs(_:fonts:color:rasterizer:)``:
/// which glyph of which font, where its pen position on the baseline is (layer
/// units), and its colour.
public struct Glyph: Sendable {
    public var id: UInt32
    /// Index into the run's fonts.
    public var font: Int
    public var position: Point
    /// Nil: the run's colour.
    public var color: Color?

    public init(id: UInt32, font: Int, position: Point, color: Color? = nil) {
        self.id = id
        self.font = font
        self.position = position
        self.color = color
    }
}

/// A font of a glyph run: the rasterizer's name for the face and the size in
/// layer units per em (points, for text laid out in points).
public struct GlyphFont: Hashable, Sendable {
    public var face: Int
    public var size: Double

    public init(face: Int, size: Double) {
        self.face = face
        self.size = size
    }
}

/// A glyph's pixels as a font library makes them, placed against the glyph's
/// pen position: the bitmap's left edge `left` device pixels to its right, its
/// top edge `top` pixels above the baseline.
public struct GlyphBitmap {
    public enum Pixels {
        /// One byte of coverage per pixel, `width` bytes a row: drawn in the text's colour.
        case coverage([UInt8])
        /// A colour glyph (an emoji), drawn as it is and faded by the text's alpha.
        case color(Image)
    }

    public var width: Int
    public var height: Int
    public var pixels: Pixels
    public var left: Int
    public var top: Int

    public init(width: Int, height: Int, pixels: Pixels, left: Int, top: Int) {
        self.width = width
        self.height = height
        self.pixels = pixels
        self.left = left
        self.top = top
    }

    /// Bytes the pixels take (what caches count).
    public var byteCount: Int {
        switch pixels {
        case let .coverage(bytes): bytes.count
        case let .color(image): image.pixels.count * 4
        }
    }
}

/// The font library behind glyph drawing (Strata's is FreeType): a drawing
/// context asks it for the glyphs it has not kept, at the device size it draws at.
@MainActor
public protocol GlyphRasterizer: AnyObject {
    /// Horizontal positions a glyph is rasterized at within a device pixel (4:
    /// quarter pixels). Pen positions are rounded to them, baselines to whole pixels.
    var subpixelPhases: Int { get }
    /// Glyph `id` of `face` at `pixelsPerEm` device pixels, moved right by
    /// `phase / subpixelPhases` of a pixel; nil when the font cannot draw it.
    func rasterize(glyph id: UInt32, face: Int, pixelsPerEm: Double, phase: Int) -> GlyphBitmap?
}

extension DrawingContext {
    /// A plain way to draw glyphs for contexts without a glyph cache of their own:
    /// each glyph is rasterized at ``scale`` and drawn as an image at its pen
    /// position (no subpixel phases; a rotation of the context turns the glyphs'
    /// boxes, not their outlines).
    public func drawGlyphs(_ glyphs: [Glyph], fonts: [GlyphFont], color: Color, rasterizer: any GlyphRasterizer) {
        guard scale > 0, scale.isFinite else { return }
        for glyph in glyphs where fonts.indices.contains(glyph.font) {
            let font = fonts[glyph.font]
            guard let bitmap = rasterizer.rasterize(glyph: glyph.id, face: font.face, pixelsPerEm: font.size * scale, phase: 0),
                  let image = bitmap.image(color: glyph.color ?? color) else { continue }
            let rect = Rect(x: glyph.position.x + Double(bitmap.left) / scale, y: glyph.position.y - Double(bitmap.top) / scale,
                            width: Double(bitmap.width) / scale, height: Double(bitmap.height) / scale)
            draw(image, in: rect)
        }
    }
}

extension GlyphBitmap {
    /// The glyph as an image: coverage in `color`, a colour glyph faded by its alpha.
    func image(color: Color) -> Image? {
        let c = color.clamped
        switch pixels {
        case let .coverage(bytes):
            guard bytes.count == width * height else { return nil }
            let a = c.alpha
            let channels = [a, c.red * a, c.green * a, c.blue * a]
            return Image(width: width, height: height, pixels: bytes.map { coverage in
                let k = Double(coverage) / 255
                return channels.reduce(UInt32(0)) { $0 << 8 | UInt32(($1 * k * 255).rounded()) }
            })
        case let .color(image):
            guard c.alpha < 1 else { return image }
            let k = UInt32((c.alpha * 256).rounded())
            return Image(width: image.width, height: image.height, pixels: image.pixels.map { word in
                (0..<4).reduce(UInt32(0)) { sum, byte in
                    let shift = UInt32(byte * 8)
                    return sum | (((word >> shift & 0xFF) * k) >> 8) << shift
                }
            })
        }
    }
}
