/// A field to type a search into (`UISearchTextField`): a magnifying glass at
/// the leading edge, "Search" until something is typed, the clear button while
/// editing, a rounded grey fill without a border.
///
/// Escape empties it, as a desktop's search fields do (sending
/// `editingChanged`, as the clear button does); Escape in an empty field is
/// left to the responders after it (a sheet or popover closes). Assistive
/// technologies see a text field with the `.searchField` trait.
@MainActor
public final class SearchTextField: TextField {
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union(.searchField) }

    public override init(frame: Rect) {
        super.init(frame: frame)
        placeholder = "Search"
        layer.borderWidth = 0
        layer.cornerRadius = 10
        backgroundColor = .tertiarySystemFill
        leftView = MagnifyingGlass()
        leftViewMode = .always
        clearButtonMode = .whileEditing
    }

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        if isFirstResponder, hasText, presses.first?.key?.keysym == 0xff1b {   // Escape
            return clearTapped()
        }
        super.pressesBegan(presses, with: event)
    }
}

/// The search field's icon: a magnifying glass stroked in the secondary label colour.
@MainActor
final class MagnifyingGlass: View {
    override class var layerClass: Layer.Type { ShapeLayer.self }

    init() {
        super.init(frame: Rect(x: 0, y: 0, width: 16, height: 16))
        isUserInteractionEnabled = false   // a tap on it lands on the field
        let shape = layer as! ShapeLayer
        let path = Path()
        path.addArc(center: Point(x: 6.5, y: 6.5), radius: 5, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        path.move(to: Point(x: 10.3, y: 10.3))
        path.addLine(to: Point(x: 14.5, y: 14.5))
        shape.path = path
        shape.fillColor = nil
        shape.lineWidth = 1.8
        shape.lineCap = .round
        setColor(.secondaryLabel, of: shape, \.strokeColor)
    }
}
