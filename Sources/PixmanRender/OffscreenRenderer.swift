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
        let canvas = Canvas(width: width, height: height)
        if let root = rootLayer {
            renderer.render(root, into: canvas.image, scale: scale, atTime: time ?? currentMediaTime(), background: backgroundColor)
        } else {
            canvas.clear(to: backgroundColor)
        }
        return RenderedImage(width: width, height: height, pixels: canvas.words)
    }
}

/// Draws layer trees into pixman images that belong to someone else — a window's
/// shared-memory buffer. What `OffscreenRenderer` does, minus owning the pixels.
@MainActor
public final class LayerRenderer {
    private let contents = ContentsCache()
    let aligned = AlignedShapes()

    public init() {}

    /// Clears `image` (`pixman_image_t *`, premultiplied ARGB32) to `background` and
    /// draws `root` at media time `time`, `scale` pixels per layer unit. Layout and
    /// display run first.
    public func render(_ root: Layer, into image: OpaquePointer, scale: Double, atTime time: Double, background: Color) {
        let canvas = Canvas(wrapping: image)
        canvas.clear(to: background)
        root.layoutIfNeeded()
        displayIfNeeded(root)
        LayerCompositor(width: canvas.width, height: canvas.height, scale: scale, time: time, contents: contents, aligned: aligned)
            .draw(root, into: canvas)
        contents.purge()
    }

    private func displayIfNeeded(_ layer: Layer) {
        layer.displayIfNeeded()
        for s in layer.sublayers { displayIfNeeded(s) }
    }
}
