/// How `contents` is placed in the bounds (`CALayerContentsGravity`).
public enum ContentsGravity: String, Hashable, Sendable {
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight
    case resize, resizeAspect, resizeAspectFill
}

/// The model values of a layer's standard properties, with Core Animation's
/// defaults (rule L1). A presentation copy copies this struct whole.
struct LayerState {
    var bounds = Rect.zero
    var position = Point.zero
    var anchorPoint = Point(x: 0.5, y: 0.5)
    var anchorPointZ = 0.0
    var zPosition = 0.0
    var transform = Transform3D.identity
    var sublayerTransform = Transform3D.identity

    var opacity = 1.0
    var isHidden = false
    var backgroundColor: Color? = nil
    var cornerRadius = 0.0
    var borderWidth = 0.0
    var borderColor: Color? = .black
    var masksToBounds = false
    var mask: Layer? = nil
    var isDoubleSided = true

    var contents: Image? = nil
    var contentsRect = Rect(x: 0, y: 0, width: 1, height: 1)
    var contentsCenter = Rect(x: 0, y: 0, width: 1, height: 1)
    var contentsGravity = ContentsGravity.resize
    var contentsScale = 1.0

    var shadowColor: Color? = .black
    var shadowOpacity = 0.0
    var shadowOffset = Size(width: 0, height: -3)
    var shadowRadius = 3.0
    var shadowPath: Path? = nil

    var beginTime = 0.0
    var speed = 1.0
    var timeOffset = 0.0

    var name: String? = nil
    /// Custom properties set by key (`setValue(_:forKey:)` on a key that is not a standard property).
    var custom: [String: Any] = [:]
}
