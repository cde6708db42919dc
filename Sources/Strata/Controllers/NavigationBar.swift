import LayerKit

/// The bar at the top of a ``NavigationController`` (`UINavigationBar`): the top
/// item's title in the middle, a back button to the previous item at the leading
/// end (unless hidden or at the root), the items' bar buttons at either end,
/// and a hairline below.
@MainActor
public final class NavigationBar: View {
    /// The bar's height, in points (without a large title).
    public static let height = 44.0
    /// The height the large title adds below the bar's row.
    public static let largeTitleHeight = 52.0

    /// Shows the title large below the bar's row while the top item allows it
    /// (`prefersLargeTitles`); it collapses into the row as the content scrolls up.
    public var prefersLargeTitles = false { didSet { if prefersLargeTitles != oldValue { onLargeTitlesChanged?() } } }
    var onLargeTitlesChanged: (() -> Void)?
    /// The large title's label (34-point bold, at the leading margin).
    let largeTitleLabel = Label(frame: .zero)
    /// 0: the large title shown whole; 1: collapsed into the bar's row. Nil: no large title.
    var largeTitleCollapse: Double? { didSet { if largeTitleCollapse != oldValue { setNeedsLayout() } } }
    /// The back button's arrow, before the previous item's title.
    static let backArrow = "‹ "

    /// What the bar shows: the top item and the one below it (for the back button).
    public private(set) var topItem: NavigationItem?
    public private(set) var backItem: NavigationItem?
    /// Runs when the back button is pressed.
    var onBack: (() -> Void)?
    /// The titles of the items' controllers (an item without a title shows its controller's).
    var fallbackTitles: (top: String?, back: String?) = (nil, nil)

    let titleLabel = Label(frame: .zero)
    private(set) var backButton: Button?
    private(set) var leftButtons: [Button] = []
    private(set) var rightButtons: [Button] = []
    private let hairline = View()

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .systemGray6
        titleLabel.textAlignment = .center
        titleLabel.font = .boldSystemFont(ofSize: 17)
        addSubview(titleLabel)
        largeTitleLabel.font = .boldSystemFont(ofSize: 34)
        largeTitleLabel.accessibilityTraits = [.header]
        addSubview(largeTitleLabel)
        clipsToBounds = true
        hairline.backgroundColor = .systemGray3
        addSubview(hairline)
    }

    /// Shows `top` with `back` below it (nil at the root).
    func setItems(top: NavigationItem?, back: NavigationItem?, titles: (top: String?, back: String?)) {
        topItem?.bar = nil
        topItem = top
        backItem = back
        fallbackTitles = titles
        top?.bar = self
        itemsChanged()
    }

    /// An item changed: the labels and buttons are made again.
    func itemsChanged() {
        titleLabel.text = topItem?.title ?? fallbackTitles.top
        largeTitleLabel.text = titleLabel.text
        backButton?.removeFromSuperview()
        backButton = nil
        if let back = backItem, topItem?.hidesBackButton != true {
            // Right to left, a right-to-left mark first: the arrow is mirrored by bidi
            // to point back (right) and stays at the title's outer end, whatever its script.
            let mark = effectiveUserInterfaceLayoutDirection == .rightToLeft ? "\u{200F}" : ""
            let button = Button(title: mark + Self.backArrow + (back.backButtonTitle ?? back.title ?? fallbackTitles.back ?? "Back"))
            button.addAction(for: .primaryActionTriggered) { [weak self] _ in self?.onBack?() }
            addSubview(button)
            backButton = button
        }
        for b in leftButtons + rightButtons { b.removeFromSuperview() }
        leftButtons = (topItem?.leftBarButtonItems ?? []).filter { !$0.isHidden }.map(makeButton)
        rightButtons = (topItem?.rightBarButtonItems ?? []).filter { !$0.isHidden }.map(makeButton)
        setNeedsLayout()
    }

    private func makeButton(_ item: BarButtonItem) -> Button {
        item.bar = self
        let button = Button(title: item.title)
        button.isEnabled = item.isEnabled
        button.addAction(for: .primaryActionTriggered) { [weak item] _ in
            if let item { item.handler(item) }
        }
        addSubview(button)
        return button
    }

    override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        itemsChanged()
    }

    /// Laid out leading to trailing: the back button and left items at the
    /// leading edge, the right items at the trailing edge — mirrored right to
    /// left, as UIKit's bar (rule P3).
    public override func layoutSubviews() {
        let h = Self.height
        var leading = 8.0
        for button in (backButton.map { [$0] } ?? []) + leftButtons {
            let size = button.intrinsicContentSize
            button.frame = Rect(x: leading, y: (h - size.height) / 2, width: size.width, height: size.height)
            leading += size.width + 4
        }
        var trailing = bounds.width - 8
        for button in rightButtons {
            let size = button.intrinsicContentSize
            trailing -= size.width
            button.frame = Rect(x: trailing, y: (h - size.height) / 2, width: size.width, height: size.height)
            trailing -= 4
        }
        // The title is centred in the bar, and kept clear of the buttons.
        let inset = max(leading, bounds.width - trailing)
        titleLabel.frame = Rect(x: inset, y: 0, width: max(0, bounds.width - 2 * inset), height: h)
        for button in (backButton.map { [$0] } ?? []) + leftButtons + rightButtons {
            button.frame = mirroredForLayoutDirection(button.frame)
        }
        hairline.frame = Rect(x: 0, y: bounds.height - 0.5, width: bounds.width, height: 0.5)
        // The large title below the row, fading as it collapses; the row's title comes in at the end.
        // Going away inside an animation block (a push to a controller without one),
        // it fades with the bar's shrinking and is hidden at the next layout after.
        let collapse = largeTitleCollapse ?? 1
        if largeTitleCollapse != nil || AnimationBlock.stack.last?.animates != true { largeTitleLabel.isHidden = largeTitleCollapse == nil }
        largeTitleLabel.alpha = 1 - collapse
        largeTitleLabel.frame = mirroredForLayoutDirection(Rect(x: 16, y: h, width: max(0, bounds.width - 32), height: Self.largeTitleHeight - 8))
        largeTitleLabel.textAlignment = effectiveUserInterfaceLayoutDirection == .rightToLeft ? .right : .left
        titleLabel.alpha = largeTitleCollapse == nil || collapse >= 1 ? 1 : max(0, (collapse - 0.8) / 0.2)
    }

    public override var intrinsicContentSize: Size {
        Size(width: View.noIntrinsicMetric, height: Self.height + Self.largeTitleHeight * (1 - (largeTitleCollapse ?? 1)))
    }
}
