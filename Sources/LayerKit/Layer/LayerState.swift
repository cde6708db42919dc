/// How `contents` is placed in the bounds (`CALayerContentsGravity`).
public enum ContentsGravity: String, Hashable, Sendable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    case resize, resizeAspect, resizeAspectFill
}

/// How contents are sampled when drawn smaller or larger than their pixels
/// (`CALayerContentsFilter`).
public enum ContentsFilter: String, Hashable, Sendable {
    /// The nearest pixel: hard edges, no blending.
    case nearest
    /// Blended from neighbouring pixels (shrinking: pixman's GOOD filter).
    case linear
    /// Shrinking: from a mipmap level made by halving, the one nearest the scale,
    /// blended bilinearly; enlarging: as `linear`.
    case trilinear
}

/// Which edges of a layer's bounds are drawn anti-aliased (`CAEdgeAntialiasingMask`).
public struct EdgeAntialiasingMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The edge at the bounds' minimum x (`kCALayerLeftEdge`).
    public static let minXEdge = EdgeAntialiasingMask(rawValue: 1)
    public static let maxXEdge = EdgeAntialiasingMask(rawValue: 2)
    public static let minYEdge = EdgeAntialiasingMask(rawValue: 4)
    public static let maxYEdge = EdgeAntialiasingMask(rawValue: 8)
    public static let all: EdgeAntialiasingMask = [.minXEdge, .maxXEdge, .minYEdge, .maxYEdge]
}

/// The values of a layer's standard properties, with Core Animation's defaults
/// (rule L1): a layer's model, or what it shows at some time
/// (``Layer/presentationState(atTime:)``). A presentation copy copies this struct
/// whole. The properties mean what the `Layer` properties of the same names do.
public struct LayerState {
    public internal(set) var bounds = Rect.zero
    public internal(set) var position = Point.zero
    public internal(set) var anchorPoint = Point(x: 0.5, y: 0.5)
    public internal(set) var anchorPointZ = 0.0
    public internal(set) var zPosition = 0.0
    public internal(set) var transform = Transform3D.identity
    public internal(set) var sublayerTransform = Transform3D.identity

    public internal(set) var opacity = 1.0
    public internal(set) var isHidden = false
    public internal(set) var backgroundColor: Color? {
        get { backgroundComponents?.color }
        set { backgroundComponents = newValue.map(FixedColor.init) }
    }
    public internal(set) var cornerRadius = 0.0
    public internal(set) var borderWidth = 0.0
    public internal(set) var borderColor: Color? {
        get { borderComponents?.color }
        set { borderComponents = newValue.map(FixedColor.init) }
    }
    public internal(set) var masksToBounds = false
    var mask: Layer? {
        get { references?.mask }
        set { if newValue != nil || references != nil { uniqueReferences().mask = newValue } }
    }
    public internal(set) var isDoubleSided = true
    public internal(set) var shouldRasterize = false
    public internal(set) var allowsGroupOpacity = true
    public internal(set) var edgeAntialiasingMask = EdgeAntialiasingMask.all
    public internal(set) var minificationFilter = ContentsFilter.linear
    public internal(set) var magnificationFilter = ContentsFilter.linear

    public internal(set) var contents: Image? {
        get { references?.contents }
        set { if newValue != nil || references != nil { uniqueReferences().contents = newValue } }
    }
    public internal(set) var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    public internal(set) var contentsCenter = Rect(x: 0, y: 0, width: 1, height: 1)
    public internal(set) var contentsGravity = ContentsGravity.resize
    public internal(set) var contentsScale = 1.0
    public internal(set) var rasterizationScale = 1.0

    public internal(set) var shadowColor: Color? {
        get { shadowComponents?.color }
        set { shadowComponents = newValue.map(FixedColor.init) }
    }
    public internal(set) var shadowOpacity = 0.0
    public internal(set) var shadowOffset = Size(width: 0, height: -3)
    public internal(set) var shadowRadius = 3.0
    public internal(set) var shadowPath: Path? {
        get { references?.shadowPath }
        set { if newValue != nil || references != nil { uniqueReferences().shadowPath = newValue } }
    }

    public internal(set) var beginTime = 0.0
    public internal(set) var speed = 1.0
    public internal(set) var timeOffset = 0.0

    public internal(set) var name: String? {
        get { references?.name }
        set { if newValue != nil || references != nil { uniqueReferences().name = newValue } }
    }
    /// Custom properties set by key (`setValue(_:forKey:)` on a key that is not a standard property).
    var custom: [String: Any] {
        get { references?.custom ?? [:] }
        _modify { yield &uniqueReferences().custom }
    }

    /// The five properties that hold references, which most layers leave unset,
    /// apart: copying a state (a presentation copy copies it whole) then retains
    /// one box or nothing, not five references. Shared between copies until one
    /// of them changes (copy on write).
    private var references: LayerStateReferences?

    /// The state at `state` has no box of references: copying it retains nothing,
    /// and its bytes alone are a copy (`Layer`'s presentation copies use that: the
    /// box is a state's only field that is not plain data, which a test checks).
    @inline(__always)
    static func holdsNoReferences(_ state: UnsafePointer<LayerState>) -> Bool { state.pointee.references == nil }

    private mutating func uniqueReferences() -> LayerStateReferences {
        if references == nil {
            references = LayerStateReferences()
        } else if !isKnownUniquelyReferenced(&references!) {
            references = LayerStateReferences(references!)
        }
        return references!
    }

    // The colours as components only: a layer's colours are fixed (a view resolves
    // a dynamic one first, as a `CGColor` made from a dynamic `UIColor` is fixed),
    // so copying a state retains nothing for them.
    var backgroundComponents: FixedColor? = nil
    var borderComponents: FixedColor? = FixedColor(.black)
    var shadowComponents: FixedColor? = FixedColor(.black)
}

/// A ``LayerState``'s reference-holding properties, boxed.
final class LayerStateReferences {
    var mask: Layer?
    var contents: Image?
    var shadowPath: Path?
    var name: String?
    var custom: [String: Any] = [:]

    init() {}

    init(_ other: LayerStateReferences) {
        mask = other.mask
        contents = other.contents
        shadowPath = other.shadowPath
        name = other.name
        custom = other.custom
    }
}
