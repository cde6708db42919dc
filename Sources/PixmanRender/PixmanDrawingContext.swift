import CPixman
import LayerKit

/// The drawing context of a layer's backing store: a pixman image of the
/// layer's bounds at `contentsScale`, with a transform stack and a rectangular clip.
@MainActor
public final class PixmanDrawingContext: DrawingContext {
    public let bounds: Rect
    public let scale: Double
    let canvas: Canvas
    private var transform: AffineTransform
    private var clipRect: Rect
    private var saved: [(AffineTransform, Rect)] = []

    private var glyphCache: GlyphCache?

    /// A context over a new image of `bounds` at `scale`; glyphs are kept in
    /// `glyphCache` (nil: one of its own, made when text is first drawn).
    public init(bounds: Rect, scale: Double, glyphCache: GlyphCache? = nil) {
        self.bounds = bounds
        self.scale = scale
        self.glyphCache = glyphCache
        canvas = Canvas(width: Int((bounds.width * scale).rounded(.up)), height: Int((bounds.height * scale).rounded(.up)))
        transform = AffineTransform(translationX: -bounds.minX, y: -bounds.minY).concatenating(AffineTransform(scaleX: scale, y: scale))
        clipRect = Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height))
    }

    /// What was drawn, as an image for `contents`.
    public var image: Image {
        Image(width: canvas.width, height: canvas.height, pixels: canvas.words)!
    }

    public func fill(_ path: Path, color: Color, rule: FillRule) {
        composite(color) { PolygonFill.trapezoids(path.polylines.applying(transform), evenOdd: rule == .evenOdd) }
    }

    public func stroke(_ path: Path, color: Color, lineWidth: Double, cap: LineCap, join: LineJoin) {
        let pieces = Stroker.outline(path.polylines, width: lineWidth, cap: cap, join: join, miterLimit: 10)
        composite(color) { PolygonFill.trapezoids(pieces.applying(transform), evenOdd: false) }
    }

    public func draw(_ image: Image, in rect: Rect) {
        guard rect.width > 0, rect.height > 0 else { return }
        guard let shared = SharedImage(image), let src = shared.header() else { return }
        defer { pixman_image_unref(src) }
        let imageToDevice = AffineTransform(scaleX: rect.width / Double(image.width), y: rect.height / Double(image.height))
            .concatenating(AffineTransform(translationX: rect.minX, y: rect.minY))
            .concatenating(transform)
        guard var t = pixmanTransform(imageToDevice.inverted()) else { return }
        pixman_image_set_transform(src, &t)
        pixman_image_set_filter(src, PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD)
        withClip {
            PolygonFill.composite(ShapeRasterizer.convex(rect.corners.applying(transform)), source: src, onto: canvas.image)
        }
    }

    public func clip(to rect: Rect) {
        let device = rect.applying(transform)
        clipRect = clipRect.intersection(device)
    }

    public func concatenate(_ t: AffineTransform) {
        transform = t.concatenating(transform)
    }

    public func saveState() { saved.append((transform, clipRect)) }

    public func restoreState() {
        guard let (t, c) = saved.popLast() else { return }
        transform = t
        clipRect = c
    }

    /// Glyphs at device pixels through the transform (baselines on whole pixels,
    /// pen positions at the rasterizer's subpixel phases; upright under a
    /// rotation), kept in the glyph cache and composited with
    /// `pixman_composite_glyphs`, one call per colour.
    public func drawGlyphs(_ glyphs: [Glyph], fonts: [GlyphFont], color: Color, rasterizer: any GlyphRasterizer) {
        let scale = abs(transform.a * transform.d - transform.b * transform.c).squareRoot()
        guard !glyphs.isEmpty, scale > 0, scale.isFinite else { return }
        let cache = glyphCache ?? GlyphCache()
        glyphCache = cache
        withClip { drawGlyphs(glyphs, fonts: fonts, color: color, scale: scale, rasterizer: rasterizer, cache: cache) }
        cache.trim()
    }

    private func drawGlyphs(_ glyphs: [Glyph], fonts: [GlyphFont], color: Color, scale: Double, rasterizer: any GlyphRasterizer,
                            cache: GlyphCache) {
        let target = canvas.image
        pixman_glyph_cache_freeze(cache.pixmanCache)
        defer { pixman_glyph_cache_thaw(cache.pixmanCache) }
        let sized = fonts.map { cache.font($0.face, pixelsPerEm: $0.size * scale, of: rasterizer) }
        let phases = max(1, rasterizer.subpixelPhases)
        // Only glyphs that can touch the target: pixman's glyph compositing works
        // in 16-bit extents, and a line 33,000 pixels long drew nothing at all.
        let reach = 4 * (fonts.map { $0.size * scale }.max() ?? 0)
        let visibleX = -reach...(Double(canvas.width) + reach)
        let visibleY = -reach...(Double(canvas.height) + reach)
        // Masks by colour, in the order the colours come (usually one).
        var masks: [(color: Color, glyphs: [pixman_glyph_t])] = []
        var colored: [(OpaquePointer, Int32, Int32)] = []
        for g in glyphs where sized.indices.contains(g.font) {
            let device = g.position.applying(transform)
            guard visibleX.contains(device.x), visibleY.contains(device.y) else { continue }
            let steps = (device.x * Double(phases)).rounded()
            let x = Int32((steps / Double(phases)).rounded(.down))
            let phase = Int(steps) - Int(x) * phases
            let y = Int32(device.y.rounded())
            switch cache.glyph(g.id, of: sized[g.font], phase: phase, rasterizer: rasterizer) {
            case let .mask(entry)?:
                let glyph = pixman_glyph_t(x: x, y: y, glyph: entry)
                let glyphColor = g.color ?? color
                if masks.last?.color == glyphColor {
                    masks[masks.count - 1].glyphs.append(glyph)
                } else if let i = masks.firstIndex(where: { $0.color == glyphColor }) {
                    masks[i].glyphs.append(glyph)
                } else {
                    masks.append((glyphColor, [glyph]))
                }
            case let .color(image, left, top)?: colored.append((image, x + left, y - top))
            case nil: break
            }
        }
        for (glyphColor, var list) in masks {
            var c = pixmanColor(glyphColor)
            guard let source = pixman_image_create_solid_fill(&c) else { continue }
            var box = pixman_box32_t()
            list.withUnsafeMutableBufferPointer { glyphs in
                pixman_glyph_get_extents(cache.pixmanCache, Int32(glyphs.count), glyphs.baseAddress, &box)
                pixman_composite_glyphs(PIXMAN_OP_OVER, source, target, PIXMAN_a8, 0, 0, box.x1, box.y1, box.x1, box.y1,
                                        box.x2 - box.x1, box.y2 - box.y1, cache.pixmanCache, Int32(glyphs.count), glyphs.baseAddress)
            }
            pixman_image_unref(source)
        }
        guard !colored.isEmpty else { return }
        // Emoji keep their own colours; the text's alpha fades them.
        var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((min(1, max(0, color.alpha)) * 65535).rounded()))
        let mask = color.alpha < 1 ? pixman_image_create_solid_fill(&alpha) : nil
        for (image, x, y) in colored {
            pixman_image_composite32(PIXMAN_OP_OVER, image, mask, target, 0, 0, 0, 0, x, y,
                                     pixman_image_get_width(image), pixman_image_get_height(image))
        }
        if let mask { pixman_image_unref(mask) }
    }

    private func composite(_ color: Color, _ coverage: () -> [pixman_trapezoid_t]) {
        var c = pixmanColor(color)
        guard let solid = pixman_image_create_solid_fill(&c) else { return }
        withClip { PolygonFill.composite(coverage(), source: solid, onto: canvas.image) }
        pixman_image_unref(solid)
    }

    private func withClip(_ body: () -> Void) {
        guard !clipRect.isNull, clipRect.width > 0, clipRect.height > 0 else { return }
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, Int32(clipRect.minX.rounded(.down)), Int32(clipRect.minY.rounded(.down)),
                                  UInt32(clipRect.width.rounded(.up)), UInt32(clipRect.height.rounded(.up)))
        pixman_image_set_clip_region32(canvas.image, &region)
        pixman_region32_fini(&region)
        body()
        pixman_image_set_clip_region32(canvas.image, nil)
    }

    /// Draws `layer` into a new backing image (Layer.backingStoreRenderer).
    static func backingStore(for layer: Layer, glyphCache: GlyphCache) -> Image? {
        let b = layer.bounds
        let scale = max(0.1, min(8, layer.contentsScale))
        guard b.width > 0, b.height > 0, b.width * scale <= 16_384, b.height * scale <= 16_384 else { return nil }
        let context = PixmanDrawingContext(bounds: b, scale: scale, glyphCache: glyphCache)
        layer.draw(in: context)
        return context.image
    }
}
