/// A layer that keeps its sublayers in three dimensions (`CATransformLayer`): they
/// are not flattened into its plane, but sorted by depth with each other (and with
/// the sublayers of transform layers inside it) and drawn back to front, each in
/// its own plane — a cube of six layers shows the faces that face the viewer.
///
/// As in Core Animation, a transform layer draws nothing of its own: its
/// background, contents, border, shadow, mask and `masksToBounds` are ignored,
/// and its `opacity` multiplies each sublayer separately (no group is made).
/// Sorting is by the depth of each plane's centre (the painter's order), so
/// planes that cut through each other are not split.
@MainActor
public final class TransformLayer: Layer {
    public required init() { super.init() }
    public required init(layer: Layer) { super.init(layer: layer) }
}
