import CPixman
import LayerKit

/// Renders a layer tree into an image at any media time, without a compositor —
/// the controllable twin of a window, for tests, documentation pictures and
/// compositor test authors.
///
/// Setting ``rootLayer`` makes its tree presented (rule B5: after the next commit
/// its changes animate). ``render(atTime:)`` draws presentation values at that
/// time (rule R5), deterministically: the same tree and time give the same pixels.
@MainActor
public final class OffscreenRenderer {
    /// Size in pixels; clamped to 1…16384.
    public let width: Int
    public let height: Int
    /// Pixels per layer unit.
    public let scale: Double
    /// What is behind the root layer.
    public var backgroundColor: Color = .clear
    let renderer = LayerRenderer()
    /// Kept between frames: a frame repaints only what changed since the last one.
    private var canvas: Canvas?
    /// The rectangles the last `render` repainted (device pixels); the whole image for the first.
    public private(set) var lastDamage: [Rect] = []

    public init(width: Int, height: Int, scale: Double = 1) {
        self.width = min(16_384, max(1, width))
        self.height = min(16_384, max(1, height))
        self.scale = scale.isFinite && scale > 0 ? scale : 1
    }

    isolated deinit {
        if let rootLayer { PresentationHosts.detach(rootLayer) }
    }

    /// The tree drawn; it counts as presented while set.
    public var rootLayer: Layer? {
        didSet {
            guard oldValue !== rootLayer else { return }
            if let oldValue { PresentationHosts.detach(oldValue) }
            if let rootLayer { PresentationHosts.attach(rootLayer) }
        }
    }

    /// Draws the tree as it is shown at `time` (root media time; default now).
    /// Layout and display run first, as before a frame.
    public func render(atTime time: Double? = nil) -> RenderedImage {
        let target = canvas ?? Canvas(width: width, height: height)
        let age = canvas == nil || rootLayer !== lastRoot || backgroundColor != lastBackground ? 0 : 1
        canvas = target
        lastRoot = rootLayer
        lastBackground = backgroundColor
        if let root = rootLayer {
            lastDamage = renderer.render(root, into: target.image, scale: scale, atTime: time ?? currentMediaTime(),
                                         background: backgroundColor, bufferAge: age)
                ?? [Rect(x: 0, y: 0, width: Double(width), height: Double(height))]
        } else {
            target.clear(to: backgroundColor)
            lastDamage = [Rect(x: 0, y: 0, width: Double(width), height: Double(height))]
        }
        return RenderedImage(width: width, height: height, pixels: target.words)
    }

    private weak var lastRoot: Layer?
    private var lastBackground: Color?
}

/// Draws layer trees into pixman images that belong to someone else — a window's
/// shared-memory buffer. What `OffscreenRenderer` does, minus owning the pixels.
@MainActor
public final class LayerRenderer {
    private let contents = ContentsCache()
    let aligned = AlignedShapes()
    private let damage = DamageTracker()

    public init() {
        // Layers that draw themselves (setNeedsDisplay + draw(in:)) get pixman backing stores.
        if Layer.backingStoreRenderer == nil { Layer.backingStoreRenderer = PixmanDrawingContext.backingStore(for:) }
    }

    /// Makes the next frame repaint everything (after a change the layers do not
    /// show, such as the background colour).
    public func repaintEverything() {
        damage.reset()
    }

    /// Draws `root` at media time `time` into `image` (`pixman_image_t *`,
    /// premultiplied ARGB32), `scale` pixels per layer unit, over `background`.
    /// Layout and display run first.
    ///
    /// `bufferAge` says how many frames old the image's contents are (1: what the
    /// previous call drew; 0: unknown). Only what changed since then is repainted;
    /// the return value is those rectangles in device pixels — empty when nothing
    /// changed — or nil when the whole image was painted.
    @discardableResult
    public func render(_ root: Layer, into image: OpaquePointer, scale: Double, atTime time: Double, background: Color,
                       bufferAge: Int = 0) -> [Rect]? {
        let canvas = Canvas(wrapping: image)
        root.layoutIfNeeded()
        displayIfNeeded(root)
        let changed = damage.damage(root: root, time: time, scale: scale, width: canvas.width, height: canvas.height)
        if changed.isEmpty && bufferAge > 0 { return [] }
        let region = damage.damage(forBufferAge: bufferAge)
        if let region {
            guard !region.isEmpty else { return [] }
            var boxes = region.map { pixman_box32_t(x1: Int32($0.minX), y1: Int32($0.minY), x2: Int32($0.maxX), y2: Int32($0.maxY)) }
            var clip = pixman_region32_t()
            pixman_region32_init_rects(&clip, &boxes, Int32(boxes.count))
            pixman_image_set_clip_region32(canvas.image, &clip)
            pixman_region32_fini(&clip)
        }
        canvas.clear(to: background)
        var compositor = LayerCompositor(width: canvas.width, height: canvas.height, scale: scale, time: time,
                                         contents: contents, aligned: aligned)
        compositor.repaintArea = region.map { Rect.boundingBox(of: $0.flatMap(\.corners)) }
        compositor.presentations = damage.presentations
        compositor.draw(root, into: canvas)
        if region != nil { pixman_image_set_clip_region32(canvas.image, nil) }
        contents.purge()
        return region
    }

    private func displayIfNeeded(_ layer: Layer) {
        layer.displayIfNeeded()
        for s in layer.sublayers { displayIfNeeded(s) }
    }
}
