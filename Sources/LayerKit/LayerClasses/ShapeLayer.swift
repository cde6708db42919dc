/// How a stroke ends (`CAShapeLayerLineCap`).
public enum LineCap: String, Hashable, Sendable { case butt, round, square }
/// How stroke segments join (`CAShapeLayerLineJoin`).
public enum LineJoin: String, Hashable, Sendable { case miter, round, bevel }
/// Which regions of a self-intersecting path are inside (`CAShapeLayerFillRule`).
public enum FillRule: String, Hashable, Sendable { case nonZero, evenOdd }

/// A layer that draws a path (`CAShapeLayer`): filled, stroked, with the stroke
/// trimmed to `strokeStart…strokeEnd`. Defaults as in Core Animation: opaque
/// black fill, no stroke, line width 1.
@MainActor
public final class ShapeLayer: Layer {
    /// The layer keeps a copy of the path. Animatable. Elements with a NaN or ∞
    /// point are not in it (`Path.refusedElementCount`); a diagnostic says when some were left out.
    public var path: Path? {
        get { shape.path }
        set {
            if let n = newValue?.refusedElementCount, n > 0 {
                Diagnostics.report(.invalidValue(key: "path", reason: "\(n) element(s) with a NaN or ∞ point were left out of the path"))
            }
            changeStored("path", \ShapeLayer.shape, \.path, newValue?.copy())
        }
    }
    public var fillColor: Color? {
        get { shape.fillColor }
        set { changeStored("fillColor", \ShapeLayer.shape, \.fillColor, newValue) }
    }
    public var fillRule: FillRule {
        get { shape.fillRule }
        set { changeStored("fillRule", \ShapeLayer.shape, \.fillRule, newValue) }
    }
    public var strokeColor: Color? {
        get { shape.strokeColor }
        set { changeStored("strokeColor", \ShapeLayer.shape, \.strokeColor, newValue) }
    }
    /// A length: negative values are refused with a diagnostic, as a border
    /// width's are (in animations too).
    public var lineWidth: Double {
        get { shape.lineWidth }
        set {
            guard !(newValue < 0) else {
                return Diagnostics.report(.invalidValue(key: "lineWidth", reason: "negative: \(newValue); kept \(shape.lineWidth)"))
            }
            changeStored("lineWidth", \ShapeLayer.shape, \.lineWidth, newValue)
        }
    }
    /// Start of the drawn part of the stroke, 0…1 of the path's length.
    public var strokeStart: Double {
        get { shape.strokeStart }
        set { changeStored("strokeStart", \ShapeLayer.shape, \.strokeStart, newValue) }
    }
    /// End of the drawn part of the stroke, 0…1 of the path's length.
    public var strokeEnd: Double {
        get { shape.strokeEnd }
        set { changeStored("strokeEnd", \ShapeLayer.shape, \.strokeEnd, newValue) }
    }
    public var lineCap: LineCap {
        get { shape.lineCap }
        set { changeStored("lineCap", \ShapeLayer.shape, \.lineCap, newValue) }
    }
    public var lineJoin: LineJoin {
        get { shape.lineJoin }
        set { changeStored("lineJoin", \ShapeLayer.shape, \.lineJoin, newValue) }
    }
    public var miterLimit: Double {
        get { shape.miterLimit }
        set { changeStored("miterLimit", \ShapeLayer.shape, \.miterLimit, newValue) }
    }

    struct ShapeState {
        var path: Path?
        var fillColor: Color? = .black
        var fillRule = FillRule.nonZero
        var strokeColor: Color?
        var lineWidth = 1.0
        var strokeStart = 0.0
        var strokeEnd = 1.0
        var lineCap = LineCap.butt
        var lineJoin = LineJoin.miter
        var miterLimit = 10.0
    }

    var shape = ShapeState()

    public required init() { super.init() }

    public required init(layer: Layer) {
        if let s = layer as? ShapeLayer { shape = s.shape }
        super.init(layer: layer)
    }


    private static let shapeProperties = PropertyDescriptor.layerProperties(adding: [
            .stored("path", \ShapeLayer.path, animatable: true),
            .stored("fillColor", \ShapeLayer.fillColor, animatable: true),
            .stored("fillRule", \ShapeLayer.fillRule, animatable: false),
            .stored("strokeColor", \ShapeLayer.strokeColor, animatable: true),
            .stored("lineWidth", \ShapeLayer.lineWidth, animatable: true),
            .stored("strokeStart", \ShapeLayer.strokeStart, animatable: true),
            .stored("strokeEnd", \ShapeLayer.strokeEnd, animatable: true),
            .stored("lineCap", \ShapeLayer.lineCap, animatable: false),
            .stored("lineJoin", \ShapeLayer.lineJoin, animatable: false),
            .stored("miterLimit", \ShapeLayer.miterLimit, animatable: true),
    ])

    public override class var propertyDescriptors: [String: PropertyDescriptor] { shapeProperties }
}
