/// A layer that shows what is behind it, blurred (what a `UIVisualEffectView`'s
/// blur is made of): the part of the frame drawn before it, within its bounds
/// rounded by `cornerRadius`, blurred by `blurRadius` points and its colours'
/// saturation scaled by `saturation` — then its background (the tint), contents,
/// sublayers and border as any layer's.
///
/// The backdrop is everything drawn before the layer in the frame: layers below
/// it and earlier siblings, in the same window. Inside a replicator's copy or a
/// plane drawn in perspective, it is what that copy or plane drew before it.
/// A blur radius of 0 and saturation 1 show the backdrop unchanged; blur radii are
/// clamped to 0…100 points (documented bound), saturation to 0…4; NaN is refused.
@MainActor
public final class BackdropLayer: Layer {
    /// Points (the blur's standard deviation is half of it, as a shadow's). Animatable.
    public var blurRadius: Double {
        get { backdrop.blurRadius }
        set { setBackdrop("blurRadius", \.blurRadius, min(100, max(0, newValue)), newValue) }
    }
    /// 1 keeps the colours, 0 makes them grey, above 1 makes them vivid. Animatable.
    public var saturation: Double {
        get { backdrop.saturation }
        set { setBackdrop("saturation", \.saturation, min(4, max(0, newValue)), newValue) }
    }

    struct BackdropState {
        var blurRadius = 0.0
        var saturation = 1.0
    }

    var backdrop = BackdropState()

    public required init() { super.init() }

    public required init(layer: Layer) {
        if let b = layer as? BackdropLayer { backdrop = b.backdrop }
        super.init(layer: layer)
    }

    private func setBackdrop(_ key: String, _ slot: WritableKeyPath<BackdropState, Double>, _ value: Double, _ given: Double) {
        guard !given.isNaN else { return Diagnostics.report(.invalidValue(key: key, reason: "not a number")) }
        changeStored(key, \BackdropLayer.backdrop, slot, value)
    }

    private static let backdropProperties = PropertyDescriptor.layerProperties(adding: [
        .stored("blurRadius", \BackdropLayer.blurRadius, animatable: true),
        .stored("saturation", \BackdropLayer.saturation, animatable: true),
    ])

    public override class var propertyDescriptors: [String: PropertyDescriptor] { backdropProperties }
}
