/// The shape of a gradient layer's colour ramp (`CAGradientLayerType`).
public enum GradientType: String, Hashable, Sendable {
    /// Along the line from `startPoint` to `endPoint`; constant across it.
    case axial
    /// Out from `startPoint` over an ellipse whose half-width and half-height are
    /// `endPoint − startPoint` along x and y.
    case radial
    /// Around `startPoint`, clockwise on screen from the direction of `endPoint`.
    case conic
}

/// A layer that fills its bounds with a colour gradient (`CAGradientLayer`).
///
/// Points are in the unit coordinate space of the bounds (0,0 top-left, 1,1
/// bottom-right); the defaults draw top to bottom, as Core Animation does. The
/// gradient is drawn after the background and before `contents`, over the bounds
/// rounded by `cornerRadius`. Colours, locations and points animate implicitly
/// (rule B2): arrays of the same count element by element, others switch half way.
/// Colours blend in premultiplied space, so a ramp to `.clear` never darkens.
///
/// Documented fallbacks for odd input: `locations` whose count is not the colours'
/// is ignored (the colours are spread evenly); locations are clamped to 0…1 and a
/// location below an earlier one is taken as the earlier one (a hard edge); one
/// colour fills the bounds; NaN or ∞ in a colour, location or point is refused with
/// a diagnostic and the property keeps its value.
@MainActor
public final class GradientLayer: Layer {
    /// The colours of the ramp, in order. Nil or empty draws nothing. Animatable.
    public var colors: [Color]? {
        get { gradient.colors }
        set { changeStored("colors", \GradientLayer.gradient, \.colors, newValue.map { $0.map { FixedColor($0).color } }) }
    }
    /// Where each colour sits, 0…1 along the ramp; nil spreads them evenly. Animatable.
    public var locations: [Double]? {
        get { gradient.locations }
        set { changeStored("locations", \GradientLayer.gradient, \.locations, newValue) }
    }
    /// Where the ramp starts, in unit coordinates (default 0.5, 0). Animatable.
    public var startPoint: Point {
        get { gradient.startPoint }
        set { changeStored("startPoint", \GradientLayer.gradient, \.startPoint, newValue) }
    }
    /// Where the ramp ends, in unit coordinates (default 0.5, 1). Animatable.
    public var endPoint: Point {
        get { gradient.endPoint }
        set { changeStored("endPoint", \GradientLayer.gradient, \.endPoint, newValue) }
    }
    /// Axial (default), radial or conic. Not animatable.
    public var type: GradientType {
        get { gradient.type }
        set { changeStored("type", \GradientLayer.gradient, \.type, newValue) }
    }

    struct GradientState {
        var colors: [Color]?
        var locations: [Double]?
        var startPoint = Point(x: 0.5, y: 0)
        var endPoint = Point(x: 0.5, y: 1)
        var type = GradientType.axial
    }

    var gradient = GradientState()

    public required init() { super.init() }

    public required init(layer: Layer) {
        if let g = layer as? GradientLayer { gradient = g.gradient }
        super.init(layer: layer)
    }

    /// The ramp as drawn: each colour with its location, after the fallbacks above
    /// (evenly spread, clamped, never decreasing). Empty when there is nothing to draw.
    public var resolvedStops: [(location: Double, color: Color)] {
        guard let colors = gradient.colors, !colors.isEmpty else { return [] }
        guard colors.count > 1 else { return [(0, colors[0])] }
        let given = gradient.locations.flatMap { $0.count == colors.count ? $0 : nil }
        var stops: [(location: Double, color: Color)] = []
        stops.reserveCapacity(colors.count)
        var floor = 0.0
        for (i, c) in colors.enumerated() {
            let wanted = given?[i] ?? Double(i) / Double(colors.count - 1)
            floor = max(floor, min(1, max(0, wanted)))
            stops.append((floor, c))
        }
        return stops
    }


    private static let gradientProperties = PropertyDescriptor.layerProperties(adding: [
            .stored("colors", \GradientLayer.colors, animatable: true),
            .stored("locations", \GradientLayer.locations, animatable: true),
            .stored("startPoint", \GradientLayer.startPoint, animatable: true),
            .stored("endPoint", \GradientLayer.endPoint, animatable: true),
            .stored("type", \GradientLayer.type, animatable: false),
    ])

    public override class var propertyDescriptors: [String: PropertyDescriptor] { gradientProperties }
}
