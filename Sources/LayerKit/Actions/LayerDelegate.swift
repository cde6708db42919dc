/// The object a layer asks for actions, drawing and layout (`CALayerDelegate`).
/// A `View` is its backing layer's delegate (rule V1).
@MainActor
public protocol LayerDelegate: AnyObject {
    /// Step 1 of the action search (rule A3): return an action, nil to let the search
    /// go on, or `NullAction()` to end it with no action (rule A4).
    func action(for layer: Layer, forKey event: String) -> (any Action)?
    /// Provides the layer's contents; called when the layer needs display. The
    /// default draws the layer into a backing image with `draw(_:in:)`.
    func display(_ layer: Layer)
    /// Draws the layer's content into `context` (`draw(_:in:)` of `CALayerDelegate`).
    func draw(_ layer: Layer, in context: any DrawingContext)
    /// Lays out the layer's sublayers; called by `layoutIfNeeded()`.
    func layoutSublayers(of layer: Layer)
}

extension LayerDelegate {
    public func action(for layer: Layer, forKey event: String) -> (any Action)? { nil }
    public func display(_ layer: Layer) { layer.displayIntoBackingStore() }
    public func draw(_ layer: Layer, in context: any DrawingContext) {}
    public func layoutSublayers(of layer: Layer) {}
}
