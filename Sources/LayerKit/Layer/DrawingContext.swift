/// A 2D drawing surface for a layer's own drawing (`CGContext` in
/// `CALayer.draw(in:)`), in the layer's coordinates: its bounds, y-down.
/// PixmanRender provides one over a pixman image; what is drawn becomes the
/// layer's `contents` until the next `setNeedsDisplay()`.
@MainActor
public protocol DrawingContext: AnyObject {
    /// The area drawn into, in layer coordinates (the layer's bounds).
    var bounds: Rect { get }
    /// Pixels per layer unit.
    var scale: Double { get }
    func fill(_ path: Path, color: Color, rule: FillRule)
    func stroke(_ path: Path, color: Color, lineWidth: Double, cap: LineCap, join: LineJoin)
    func draw(_ image: Image, in rect: Rect)
    /// Draws glyphs at their pen positions (layer units) through the current
    /// transform and clip, rasterized by `rasterizer` at the size the device shows
    /// them (rule X3). A default draws each glyph as an image.
    func drawGlyphs(_ glyphs: [Glyph], fonts: [GlyphFont], color: Color, rasterizer: any GlyphRasterizer)
    /// Restricts later drawing to a rectangle (intersected with the current clip).
    func clip(to rect: Rect)
    /// Applies a transform to later drawing.
    func concatenate(_ transform: AffineTransform)
    func saveState()
    func restoreState()
}

extension DrawingContext {
    public func fill(_ path: Path, color: Color) { fill(path, color: color, rule: .nonZero) }
    public func fill(_ rect: Rect, color: Color) { fill(Path(rect: rect), color: color, rule: .nonZero) }
    public func stroke(_ path: Path, color: Color, lineWidth: Double = 1) {
        stroke(path, color: color, lineWidth: lineWidth, cap: .butt, join: .miter)
    }
}

extension Layer {
    /// Makes the bitmap a layer draws itself into with ``draw(in:)`` (installed in
    /// the current context by the renderer: LayerKit has no pixels of its own).
    /// Nil: nothing is drawn.
    public static var backingStoreRenderer: (@MainActor (Layer) -> Image?)? {
        get { LayerContext.current.backingStoreRenderer }
        set { LayerContext.current.backingStoreRenderer = newValue }
    }

    /// Draws the layer with ``draw(in:)`` into a new backing image and makes it the
    /// contents (without actions) — the default of ``display()`` and of
    /// `LayerDelegate.display(_:)`, as Core Animation's backing store.
    public func displayIntoBackingStore() {
        guard let render = context.backingStoreRenderer else { return }
        let image = render(self)
        Transaction.withoutActions { contents = image }
    }
}
