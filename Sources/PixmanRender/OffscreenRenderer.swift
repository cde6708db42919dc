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
    /// Size in pixels: 1…16384 each, at most ``maximumPixels`` in all (a larger
    /// request is scaled down, keeping its shape, with a diagnostic).
    public let width: Int
    public let height: Int
    /// The most pixels a renderer draws into: 64 Mpx, 256 MiB of canvas.
    public static let maximumPixels = 16_384 * 4_096
    /// Pixels per layer unit.
    public let scale: Double
    /// What is behind the root layer.
    public var backgroundColor: Color = .clear
    let renderer = LayerRenderer()
    /// Kept between frames: a frame repaints only what changed since the last one.
    /// The image `render` returns shares them (copy on write): a caller that has let
    /// go of the last image when it asks for the next pays for the damage only.
    private var pixels: [UInt32] = []
    /// Threads a frame is drawn on at most (see `LayerRenderer.maximumThreads`).
    public var maximumThreads: Int {
        get { renderer.maximumThreads }
        set { renderer.maximumThreads = newValue }
    }
    /// The rectangles the last `render` repainted (device pixels); the whole image for the first.
    public private(set) var lastDamage: [Rect] = []

    public init(width: Int, height: Int, scale: Double = 1) {
        var w = min(16_384, max(1, width)), h = min(16_384, max(1, height))
        if w * h > Self.maximumPixels {
            let shrink = (Double(Self.maximumPixels) / Double(w * h)).squareRoot()
            (w, h) = (max(1, Int(Double(w) * shrink)), max(1, Int(Double(h) * shrink)))
        }
        if w != width || h != height {
            Diagnostics.report(.invalidValue(key: "OffscreenRenderer size",
                                             reason: "\(width)×\(height) is outside 1…16384 a side or over \(Self.maximumPixels) pixels; \(w)×\(h) is used"))
        }
        self.width = w
        self.height = h
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
        let first = pixels.isEmpty
        if first { pixels = Array(repeating: 0, count: width * height) }
        let age = first || rootLayer !== lastRoot || backgroundColor != lastBackground ? 0 : 1
        lastRoot = rootLayer
        lastBackground = backgroundColor
        let whole = [Rect(x: 0, y: 0, width: Double(width), height: Double(height))]
        // Writing copies the pixels first when the last image returned still holds them.
        pixels.withUnsafeMutableBufferPointer { buffer in
            let image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), buffer.baseAddress, Int32(width * 4))!
            defer { pixman_image_unref(image) }
            if let root = rootLayer {
                root.layoutIfNeeded()
                root.displayIfNeededInSubtree()
                lastDamage = renderer.render(root, into: image, scale: scale, atTime: time ?? currentMediaTime(),
                                             background: backgroundColor, bufferAge: age) ?? whole
            } else {
                var c = pixmanColor(backgroundColor)
                var box = pixman_box32_t(x1: 0, y1: 0, x2: Int32(width), y2: Int32(height))
                pixman_image_fill_boxes(PIXMAN_OP_SRC, image, &c, 1, &box)
                lastDamage = whole
            }
        }
        return RenderedImage(width: width, height: height, pixels: pixels)
    }

    private weak var lastRoot: Layer?
    private var lastBackground: Color?
}
