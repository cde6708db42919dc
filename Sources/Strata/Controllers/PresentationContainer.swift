import LayerKit

/// What shows a presented view controller in its window: a dimming view over
/// the presenter (sheets) and a card holding the controller's view, laid out
/// by the presentation style. It covers the window's root view and takes the
/// clicks outside the card. A custom transition's container holds the
/// controller's view itself, where the transition's animator puts it.
@MainActor
final class PresentationContainer: View {
    /// Dimming of the presenter behind a sheet (black at this alpha).
    static let dimmingAlpha = 0.4
    /// How long presenting and dismissing slide (the card's transform and the dimming).
    static let duration = 0.35
    /// A page sheet's largest width and its distance from the window's top.
    static let pageWidth = 700.0, pageTop = 40.0
    /// A form sheet's size when the controller prefers none, and its margin from the window's edges.
    static let formSize = Size(width: 540, height: 620), formMargin = 20.0

    let style: ModalPresentationStyle
    unowned let presented: ViewController
    /// The `.custom` style, or a transitioning delegate's animator: no card, no
    /// dimming; the controller's view is the container's, its frame the animator's.
    let isCustom: Bool
    /// An alert or action sheet: its own size, fading in, modal.
    let alertStyle: AlertController.Style?
    /// The focus before the presentation, given back after it.
    weak var previousFirstResponder: Responder?
    let dimming = View()
    let card = View()
    var isDismissing = false
    /// While a sheet is dragged down, and until it settles: the dismissal the finger scrubs.
    var dragAnimator: ViewPropertyAnimator?
    /// A click outside the card (on the dimming).
    var onClickOutside: (() -> Void)?
    /// A popover's popup, while it shows.
    var popup: Popup?
    /// A popover's arrow: the side of the card it is on, named by where it points,
    /// and its tip's place along that edge.
    var arrow: (direction: PopoverArrowDirection, tip: Double)? {
        didSet { setNeedsLayout() }
    }
    private lazy var arrowLayer: ShapeLayer = {
        let l = ShapeLayer()
        setColor(.secondarySystemGroupedBackground, of: l, \.fillColor)
        setColor(.separator, of: l, \.strokeColor)
        l.lineWidth = 1
        layer.addSublayer(l)
        return l
    }()

    init(presenting presented: ViewController, style: ModalPresentationStyle, custom: Bool = false) {
        self.presented = presented
        self.style = style.resolved
        alertStyle = presented.presentsAsAlert ? (presented as? AlertController)?.preferredStyle ?? .alert : nil
        isCustom = alertStyle == nil && (custom || style == .custom)
        super.init(frame: .zero)
        autoresizingMask = [.flexibleWidth, .flexibleHeight]
        if isCustom {
            presented.view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            addSubview(presented.view)
            return
        }
        dimming.backgroundColor = .black
        dimming.alpha = 0
        dimming.isHidden = (!self.style.isSheet || self.style == .popover) && alertStyle == nil
        addSubview(dimming)
        if self.style.isSheet || alertStyle != nil {
            card.layer.cornerRadius = alertStyle == nil ? 10 : 14
            card.clipsToBounds = true
        }
        if self.style == .popover {
            card.layer.borderWidth = 1
            card.setColor(.separator, of: card.layer, \.borderColor)
            card.backgroundColor = .secondarySystemGroupedBackground
        }
        addSubview(card)
        card.addSubview(presented.view)
        // What a sheet or an alert covers is out of reach until it goes (rule Y3).
        accessibilityViewIsModal = (self.style.isSheet && self.style != .popover) || alertStyle != nil
    }

    /// Where the card goes in `bounds`, by style.
    func cardFrame(in bounds: Rect) -> Rect {
        if let alertStyle {
            let size = presented.preferredContentSize
            let width = min(size.width, bounds.width), height = min(size.height, bounds.height)
            let y = alertStyle == .alert ? bounds.midY - height / 2 : bounds.maxY - height - 8
            return Rect(x: bounds.midX - width / 2, y: y, width: width, height: height)
        }
        switch style {
        case .popover:
            // The popup is the popover's size, with room for the arrow on its side.
            let a = PopoverPresentationController.arrowLength
            switch arrow?.direction {
            case .up?: return Rect(x: 0, y: a, width: bounds.width, height: max(0, bounds.height - a))
            case .down?: return Rect(x: 0, y: 0, width: bounds.width, height: max(0, bounds.height - a))
            case .left?: return Rect(x: a, y: 0, width: max(0, bounds.width - a), height: bounds.height)
            case .right?: return Rect(x: 0, y: 0, width: max(0, bounds.width - a), height: bounds.height)
            default: return bounds
            }
        case .pageSheet:
            let width = min(bounds.width, Self.pageWidth)
            let top = min(Self.pageTop, bounds.height / 10)
            return Rect(x: bounds.midX - width / 2, y: top, width: width, height: max(0, bounds.height - top))
        case .formSheet:
            let preferred = presented.preferredContentSize
            let wanted = preferred.width > 0 && preferred.height > 0 && preferred.width.isFinite && preferred.height.isFinite
                ? preferred : Self.formSize
            let width = max(0, min(wanted.width, bounds.width - 2 * Self.formMargin))
            let height = max(0, min(wanted.height, bounds.height - 2 * Self.formMargin))
            return Rect(x: bounds.midX - width / 2, y: bounds.midY - height / 2, width: width, height: height)
        default:
            return bounds
        }
    }

    /// The card's transform while out of the window: moved down past the bottom edge.
    var offscreenTransform: AffineTransform {
        AffineTransform(translationX: 0, y: max(0, bounds.height - cardFrame(in: bounds).minY))
    }

    override func layoutSubviews() {
        guard !isCustom else { return }   // the animator's frames; the view resizes with the window
        dimming.frame = bounds
        let frame = cardFrame(in: bounds)
        if let arrow { layOutArrow(arrow, card: frame) }
        // The frame of a transformed view is its transformed box: set the untransformed one.
        card.bounds = Rect(origin: .zero, size: frame.size)
        card.center = Point(x: frame.midX, y: frame.midY)
        presented.view.frame = card.bounds
    }

    /// The arrow: a triangle from the card's edge to its tip, its base over the
    /// card's border.
    private func layOutArrow(_ arrow: (direction: PopoverArrowDirection, tip: Double), card: Rect) {
        let a = PopoverPresentationController.arrowLength, t = arrow.tip
        let (base1, tip, base2): (Point, Point, Point) = switch arrow.direction {
        case .up: (Point(x: t - a, y: card.minY + 1), Point(x: t, y: card.minY - a), Point(x: t + a, y: card.minY + 1))
        case .down: (Point(x: t - a, y: card.maxY - 1), Point(x: t, y: card.maxY + a), Point(x: t + a, y: card.maxY - 1))
        case .left: (Point(x: card.minX + 1, y: t - a), Point(x: card.minX - a, y: t), Point(x: card.minX + 1, y: t + a))
        default: (Point(x: card.maxX - 1, y: t - a), Point(x: card.maxX + a, y: t), Point(x: card.maxX - 1, y: t + a))
        }
        let path = Path()
        path.move(to: base1)
        path.addLine(to: tip)
        path.addLine(to: base2)
        Transaction.withoutActions {
            arrowLayer.frame = bounds
            arrowLayer.path = path
        }
    }

    /// Shows the card in place (`true`) or out of the window, and the dimming
    /// with it. An alert fades instead, from 1.2× its size when `entering`; with
    /// reduce motion every card fades in place (rule P4).
    func setShown(_ shown: Bool, entering: Bool = false) {
        if isCustom {
            // Without an animator: up from the bottom edge and back (faded with reduce motion).
            if reducesMotion { presented.view.alpha = shown ? 1 : 0 } else {
                presented.view.transform = shown ? .identity : AffineTransform(translationX: 0, y: bounds.height)
            }
            return
        }
        dimming.alpha = shown ? Self.dimmingAlpha : 0
        if style == .popover {
            alpha = shown ? 1 : 0   // the card and its arrow
        } else if alertStyle == .alert || reducesMotion {
            card.alpha = shown ? 1 : 0
            card.transform = shown || !entering || reducesMotion ? .identity : AffineTransform(scaleX: 1.2, y: 1.2)
        } else {
            card.transform = shown ? .identity : offscreenTransform
        }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        guard let touch = touches.first, !isCustom, style.isSheet || alertStyle != nil, style != .popover, !card.frame.contains(touch.location(in: self)) else {
            return super.touchesEnded(touches, with: event)
        }
        onClickOutside?()
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        guard !isCustom, style.isSheet || alertStyle != nil else { return super.touchesBegan(touches, with: event) }
    }
}
