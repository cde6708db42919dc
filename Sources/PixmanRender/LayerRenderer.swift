import CPixman
import Dispatch
import LayerKit

/// Draws layer trees into pixman images that belong to someone else — a window's
/// shared-memory buffer. What `OffscreenRenderer` does, minus owning the pixels.
@MainActor
public final class LayerRenderer {
    private let contents = ContentsCache()
    let aligned = AlignedShapes()
    let shadows = ShadowCache()
    let rasters = RasterCache()
    let shapes = ShapeCoverageCache()
    let leaves = LeafItemCache()
    let damage = DamageTracker()

    /// Threads a frame is drawn on at most (bands of the damaged area; default:
    /// one per core); 1 draws a frame on one thread. The pixels do not
    /// depend on it.
    public var maximumThreads = RenderWorkers.coreCount {
        didSet { maximumThreads = max(1, maximumThreads) }
    }
    /// How many bands the last frame was drawn in.
    public private(set) var lastBands = 0
    /// Damaged pixels below which a band is not worth a thread (tests lower it).
    var minimumBandArea = 96 * 1024
    /// The display list of the last frame (for tests).
    private(set) var lastItems: [DisplayItem] = []

    public init() {
        // Layers that draw themselves (setNeedsDisplay + draw(in:)) get pixman backing
        // stores, with one glyph cache for the context.
        if Layer.backingStoreRenderer == nil {
            let glyphs = GlyphCache()
            Layer.backingStoreRenderer = { PixmanDrawingContext.backingStore(for: $0, glyphCache: glyphs) }
        }
    }

    /// Makes the next frame repaint everything (after a change the layers do not
    /// show, such as the background colour).
    public func repaintEverything() {
        damage.reset()
        leaves.removeAll()
    }

    /// Draws `root` at media time `time` into `image` (`pixman_image_t *`,
    /// premultiplied ARGB32), `scale` pixels per layer unit, over `background`.
    /// Only turns layers into pixels: the caller has run layout and display (a
    /// frame loop, ``OffscreenRenderer``).
    ///
    /// `bufferAge` says how many frames old the image's contents are (1: what the
    /// previous call drew; 0: unknown). Only what changed since then is repainted;
    /// the return value is those rectangles in device pixels — empty when nothing
    /// changed — or nil when the whole image was painted.
    @discardableResult
    public func render(_ root: Layer, into image: OpaquePointer, scale: Double, atTime time: Double, background: Color,
                       bufferAge: Int = 0) -> [Rect]? {
        waitForFrameInFlight()
        guard let frame = prepare(root, image, scale, time, background, bufferAge) else { return [] }
        lastBands = frame.playback.play(frame.items, onto: image, region: frame.boxes, background: pixmanColor(background)).count
        finish()
        return frame.region
    }

    /// Like ``render(_:into:scale:atTime:background:bufferAge:)``, but only the part
    /// that reads the layers runs now; the pixels are drawn on the render workers
    /// while the caller goes on (a window's main thread back to its events), and
    /// `completion` gets the repainted rectangles on the main actor once `image`
    /// holds the frame. Layers changed meanwhile do not affect this frame. `image`
    /// must stay alive until then; a renderer draws one frame at a time (a
    /// synchronous `render` first waits for the frame in flight).
    ///
    /// `deliver` is how the completion gets back to the main actor, called from a
    /// render worker: by default the main dispatch queue; a window passes its
    /// connection's `post`, so a main thread asleep in the connection's `poll` wakes.
    public func renderAsync(_ root: Layer, into image: OpaquePointer, scale: Double, atTime time: Double, background: Color,
                            bufferAge: Int = 0,
                            deliver: @escaping @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void = LayerRenderer.onMainQueue,
                            completion: @escaping @MainActor ([Rect]?) -> Void) {
        waitForFrameInFlight()
        guard let frame = prepare(root, image, scale, time, background, bufferAge) else {
            completion([])
            return
        }
        let drawn = DispatchGroup()
        drawn.enter()
        inFlight = drawn
        let region = frame.region
        lastBands = frame.playback.playAsync(frame.items, onto: image, region: frame.boxes, background: pixmanColor(background)) {
            drawn.leave()
            deliver {
                self.finish()
                completion(region)
            }
        }.count
    }

    /// The last frame rendered was dropped instead of shown (a window's frame drawn
    /// ahead, `ToplevelWindow.onDiscardAhead`): its damage is repainted with the next.
    public func discardLastFrame() {
        waitForFrameInFlight()
        damage.discardLastFrame()
    }

    /// Runs `body` on the main actor from the main dispatch queue.
    public static let onMainQueue: @Sendable (@escaping @MainActor @Sendable () -> Void) -> Void = { body in
        DispatchQueue.main.async { MainActor.assumeIsolated { body() } }
    }

    /// The frame drawn asynchronously and not yet finished, if any.
    private var inFlight: DispatchGroup?

    private func waitForFrameInFlight() {
        inFlight?.wait()
        inFlight = nil
    }

    private struct Prepared {
        let items: [DisplayItem]
        let region: [Rect]?
        let boxes: [PixelBox]?
        let playback: BandedPlayback
    }

    /// Layout, display, damage and the display list; nil when nothing is to be drawn.
    private func prepare(_ root: Layer, _ image: OpaquePointer, _ scale: Double, _ time: Double, _ background: Color,
                         _ bufferAge: Int) -> Prepared? {
        let width = Int(pixman_image_get_width(image)), height = Int(pixman_image_get_height(image))
        let changed = damage.damage(root: root, time: time, scale: scale, width: width, height: height)
        if changed.isEmpty && bufferAge > 0 { return nil }
        let region = damage.damage(forBufferAge: bufferAge)
        if let region, region.isEmpty { return nil }
        var builder = DisplayListBuilder(frame: PixelBox(x0: 0, y0: 0, x1: width, y1: height), scale: scale, time: time,
                                         contents: contents, aligned: aligned, shadows: shadows, shapes: shapes, leaves: leaves)
        builder.repaintArea = region.map { Rect.boundingBox(of: $0.flatMap(\.corners)) }
        builder.damage = damage
        builder.rasters = rasters
        leaves.beginFrame()
        lastItems = builder.build(root)
        return Prepared(items: lastItems, region: region,
                        boxes: region?.map { PixelBox(x0: Int($0.minX), y0: Int($0.minY), x1: Int($0.maxX), y1: Int($0.maxY)) },
                        playback: BandedPlayback(maximumBands: maximumThreads, minimumBandArea: minimumBandArea))
    }

    /// After a frame is drawn: keep the masks it made, drop contents no longer used.
    private func finish() {
        shadows.collect()
        rasters.collect()
        contents.purge()
    }
}
