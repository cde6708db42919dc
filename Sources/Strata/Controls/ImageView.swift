/// A view that shows an image (`UIImageView`): the image is the layer's
/// contents, fitted by ``View/contentMode`` (scale to fill by default). PNG files
/// load with `Image(contentsOfFile:)` (libpng). Image views take no input, as UIKit's.
@MainActor
public final class ImageView: View {
    // An image is an element once it has a label (rule Y1).
    override var defaultIsAccessibilityElement: Bool { accessibility.label != nil }
    override var defaultAccessibilityTraits: AccessibilityTraits { .image }

    /// The image shown; nil shows nothing. One image pixel is one point.
    public var image: Image? {
        didSet {
            guard image != oldValue else { return }
            layer.contents = image
            invalidateIntrinsicContentSize()
        }
    }

    public init(image: Image?) {
        super.init(frame: Rect(origin: .zero, size: image?.size ?? .zero))
        isUserInteractionEnabled = false
        self.image = image
        layer.contents = image
    }

    public override init(frame: Rect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    /// The image's size (zero without one).
    public override var intrinsicContentSize: Size { image?.size ?? .zero }

    public override func sizeThatFits(_ size: Size) -> Size { image?.size ?? .zero }
}
