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

    public init(bounds: Rect, scale: Double) {
        self.bounds = bounds
        self.scale = scale
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

    /// For drawing in this package that composites with pixman itself (text): the
    /// canvas (clipped to the current clip) and the transform from layer units to
    /// its pixels. Nothing runs when the clip is empty.
    package func withPixmanTarget(_ body: (_ image: OpaquePointer, _ transform: AffineTransform) -> Void) {
        withClip { body(canvas.image, transform) }
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
    static func backingStore(for layer: Layer) -> Image? {
        let b = layer.bounds
        let scale = max(0.1, min(8, layer.contentsScale))
        guard b.width > 0, b.height > 0, b.width * scale <= 16_384, b.height * scale <= 16_384 else { return nil }
        let context = PixmanDrawingContext(bounds: b, scale: scale)
        layer.draw(in: context)
        return context.image
    }
}
