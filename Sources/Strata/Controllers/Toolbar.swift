/// The bar at the bottom of a ``NavigationController`` showing its top
/// controller's ``ViewController/toolbarItems`` (`UIToolbar`): items from the
/// leading edge, 8 points apart; flexible spaces (``BarButtonItem/flexibleSpace()``)
/// share what is left; mirrored right to left.
@MainActor
public final class Toolbar: View {
    /// The bar's height, in points.
    public static let height = 44.0

    public var items: [BarButtonItem] = [] { didSet { itemsChanged() } }
    private(set) var buttons: [Button?] = []
    private let hairline = View()

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .systemGray6
        hairline.backgroundColor = .systemGray3
        addSubview(hairline)
    }

    func itemsChanged() {
        for b in buttons { b?.removeFromSuperview() }
        buttons = items.filter { !$0.isHidden }.map { item in
            guard !item.isFlexibleSpace else { return nil }
            let button = Button(title: item.title)
            button.isEnabled = item.isEnabled
            button.addAction(for: .primaryActionTriggered) { [weak item] _ in if let item { item.handler(item) } }
            addSubview(button)
            return button
        }
        setNeedsLayout()
    }

    public override func layoutSubviews() {
        let sizes = buttons.map { $0?.intrinsicContentSize }
        let fixed = sizes.compactMap { $0?.width }.reduce(0, +) + 8 * Double(max(0, items.count - 1))
        let flexible = sizes.filter { $0 == nil }.count
        let share = flexible > 0 ? max(0, bounds.width - 32 - fixed) / Double(flexible) : 0
        var x = 16.0
        for (button, size) in zip(buttons, sizes) {
            if let button, let size {
                button.frame = mirroredForLayoutDirection(Rect(x: x, y: (bounds.height - size.height) / 2, width: size.width, height: size.height))
                x += size.width + 8
            } else {
                x += share + 8
            }
        }
        hairline.frame = Rect(x: 0, y: 0, width: bounds.width, height: 0.5)
    }

    public override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: Self.height) }
}
