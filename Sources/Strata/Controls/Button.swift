/// A button (`UIButton`, rule H6): a title and an optional image, per state.
///
/// `.plain` buttons draw their title in the tint colour; `.filled` ones draw it
/// in white on a rounded tinted background. While highlighted the content fades
/// to 35 % at once and comes back over 0.25 s when released, as UIKit's system
/// buttons do. A tap inside, or Space/Return while focused, sends
/// `touchUpInside` and `primaryActionTriggered`.
@MainActor
public final class Button: Control {
    // A button read by its title, else its image's label (rule Y2).
    override var defaultAccessibilityLabel: String? { currentTitle ?? imageView.accessibilityLabel }
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union(.button) }

    public enum Style: Hashable, Sendable { case plain, filled }

    public let style: Style
    /// The label that shows the title for the current state.
    public let titleLabel = Label(frame: .zero)
    /// The view that shows the image for the current state.
    public let imageView = ImageView(image: nil)
    /// Room between the content and the edges.
    public var contentInsets = (top: 7.0, left: 12.0, bottom: 7.0, right: 12.0) {
        didSet { invalidateIntrinsicContentSize(); setNeedsLayout() }
    }
    /// Space between the image and the title.
    public var imagePadding = 6.0 { didSet { setNeedsLayout() } }

    private var titles: [State: String] = [:]
    private var titleColors: [State: Color] = [:]
    private var images: [State: Image] = [:]

    public init(title: String, style: Style = .plain) {
        self.style = style
        super.init(frame: .zero)
        setUp()
        setTitle(title, for: .normal)
        sizeToFit()
    }

    public override init(frame: Rect) {
        style = .plain
        super.init(frame: frame)
        setUp()
    }

    private func setUp() {
        titleLabel.textAlignment = .center
        addSubview(imageView)
        addSubview(titleLabel)
        if style == .filled {
            layer.cornerRadius = 8
            titleLabel.font = .systemFont(ofSize: Font.labelFontSize, weight: .semibold)
        }
        updateLook(animated: false)
    }

    // MARK: Per-state content (UIKit falls back to the normal state's)

    public func setTitle(_ title: String?, for state: State) {
        titles[state] = title
        updateLook(animated: false)
        accessibilityDidChange(.name)
    }

    public func title(for state: State) -> String? { titles[state] ?? titles[.normal] }

    public func setTitleColor(_ color: Color?, for state: State) {
        titleColors[state] = color
        updateLook(animated: false)
    }

    /// The title colour for a state: set, or the normal state's, or the style's.
    public func titleColor(for state: State) -> Color {
        if let color = titleColors[state] ?? titleColors[.normal] { return color }
        switch style {
        case .filled: return state.contains(.disabled) ? Color(white: 0.55) : .white
        case .plain: return tintColor
        }
    }

    public func setImage(_ image: Image?, for state: State) {
        images[state] = image
        updateLook(animated: false)
    }

    public func image(for state: State) -> Image? { images[state] ?? images[.normal] }

    /// The title shown now.
    public var currentTitle: String? { title(for: displayState) }

    // MARK: Look

    /// The state for looking up content: focus plays no part.
    private var displayState: State { state.subtracting(.focused) }

    public override func stateDidChange() { updateLook(animated: !isHighlighted) }
    public override func tintColorDidChange() { updateLook(animated: false) }

    private func updateLook(animated: Bool) {
        let s = displayState
        let newTitle = title(for: s)
        if titleLabel.text != newTitle {
            titleLabel.text = newTitle
            invalidateIntrinsicContentSize()
            setNeedsLayout()
        }
        let newImage = image(for: s)
        if imageView.image !== newImage {
            imageView.image = newImage
            invalidateIntrinsicContentSize()
            setNeedsLayout()
        }
        titleLabel.textColor = titleColor(for: s)
        let alpha = !isEnabled ? 0.35 : isHighlighted ? 0.35 : 1
        let background: Color? = style == .filled ? (isEnabled ? tintColor : .systemGray4) : nil
        let apply = {
            self.titleLabel.alpha = self.style == .filled ? 1 : alpha
            self.imageView.alpha = self.titleLabel.alpha
            self.indicator?.alpha = self.titleLabel.alpha
            self.backgroundColor = background
            if self.style == .filled { self.alpha = self.isHighlighted ? 0.7 : 1 }
        }
        if animated {
            View.animate(duration: 0.25, options: [.allowUserInteraction, .beginFromCurrentState], apply)
        } else {
            apply()
        }
    }

    // MARK: Size and layout

    public override var intrinsicContentSize: Size {
        let title = titleLabel.text == nil ? .zero : titleLabel.intrinsicContentSize
        let image = imageView.image?.size ?? .zero
        let gap = title.width > 0 && image.width > 0 ? imagePadding : 0
        return Size(width: contentInsets.left + image.width + gap + title.width + indicatorSpace + contentInsets.right,
                    height: contentInsets.top + max(image.height, title.height) + contentInsets.bottom)
    }

    /// A pop-up button's indicator after its title (UIKit shows up and down chevrons).
    private var indicator: Label?
    private func indicatorLabel() -> Label {
        if let indicator { return indicator }
        let l = Label(frame: .zero)
        l.text = "▾"
        l.isUserInteractionEnabled = false
        addSubview(l)
        indicator = l
        return l
    }
    /// The room the indicator takes, with its gap: none unless a pop-up button.
    private var indicatorSpace: Double { changesSelectionAsPrimaryAction ? 6 + indicatorLabel().intrinsicContentSize.width : 0 }

    public override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let title = titleLabel.text == nil ? .zero : titleLabel.intrinsicContentSize
        let image = imageView.image?.size ?? .zero
        let gap = title.width > 0 && image.width > 0 ? imagePadding : 0
        let content = bounds
        let space = indicatorSpace
        let titleWidth = min(title.width, max(0, content.width - contentInsets.left - contentInsets.right - image.width - gap - space))
        var x = content.midX - (image.width + gap + titleWidth + space) / 2
        imageView.frame = Rect(x: x.rounded(), y: (content.midY - image.height / 2).rounded(), width: image.width, height: image.height)
        x += image.width + gap
        titleLabel.frame = Rect(x: x.rounded(), y: (content.midY - title.height / 2).rounded(), width: titleWidth.rounded(.up), height: title.height)
        if changesSelectionAsPrimaryAction {
            let l = indicatorLabel()
            l.isHidden = false
            l.font = titleLabel.font
            l.textColor = titleLabel.textColor
            l.alpha = titleLabel.alpha
            let size = l.intrinsicContentSize
            l.frame = Rect(x: (x + titleWidth + 6).rounded(), y: (content.midY - size.height / 2).rounded(), width: size.width, height: size.height)
        } else {
            indicator?.isHidden = true
        }
    }

    // MARK: Menus (rule M3)

    /// The menu the button shows (`menu`): on a click, or Space/Return, when
    /// ``showsMenuAsPrimaryAction`` or ``changesSelectionAsPrimaryAction`` (a
    /// pull-down or pop-up button); otherwise on a secondary click or a long press,
    /// as a context menu.
    public var menu: Menu? {
        didSet { menuChanged() }
    }
    /// A click shows the menu instead of sending `primaryActionTriggered` (a pull-down button).
    public var showsMenuAsPrimaryAction = false {
        didSet { menuChanged() }
    }
    /// A pop-up button: the menu's actions are choices, exactly one of them on
    /// (the first, when none is), the button shows the chosen one's title, and the
    /// menu opens with the chosen item over the button.
    public var changesSelectionAsPrimaryAction = false {
        didSet { menuChanged() }
    }
    private var menuSession: MenuSession?
    private var menuInteraction: ContextMenuInteraction?

    /// A button whose click opens its menu is expandable, expanded while the menu is open.
    override var accessibilityIsExpanded: Bool? { menu != nil && menuIsPrimary ? isMenuVisible : nil }

    /// Whether the button's menu is open now.
    public var isMenuVisible: Bool { menuSession != nil || menuInteraction?.isMenuVisible == true }

    private var menuIsPrimary: Bool { showsMenuAsPrimaryAction || changesSelectionAsPrimaryAction }

    private func menuChanged() {
        if menu != nil, !menuIsPrimary {
            if menuInteraction == nil {
                let i = ContextMenuInteraction { [weak self] _ in self?.menu }
                addInteraction(i)
                menuInteraction = i
            }
        } else if let i = menuInteraction {
            removeInteraction(i)
            menuInteraction = nil
        }
        invalidateIntrinsicContentSize()
        setNeedsLayout()
        guard changesSelectionAsPrimaryAction, let menu else { return }
        let choices = menu.actions(includingHidden: false)
        if !choices.contains(where: { $0.state == .on }), let first = choices.first { first.state = .on }
        var seen = false
        for c in choices where c.state == .on {   // exactly one on
            if seen { c.state = .off }
            seen = true
        }
        if let title = choices.first(where: { $0.state == .on })?.title { setTitle(title, for: .normal) }
    }

    /// A button that leaves its window closes its menu.
    public override func didMoveToWindow() {
        super.didMoveToWindow()
        if window == nil { dismissMenu() }
    }

    /// Closes the button's menu, if open.
    func dismissMenu() {
        menuSession?.dismiss(animated: false)
        menuSession = nil
        menuInteraction?.dismissMenu()
    }

    override func touchUpInsideTriggered() {
        guard let menu, menuIsPrimary else { return sendActions(for: .primaryActionTriggered) }
        guard menuSession == nil, let window else { return }
        let shown = changesSelectionAsPrimaryAction ? Menu(options: .singleSelection, children: menu.children) : menu
        let selected = changesSelectionAsPrimaryAction ? menu.actions(includingHidden: false).first { $0.state == .on } : nil
        let session = MenuSession.open(shown, on: window, from: self, anchorRect: convert(bounds, to: window.rootView),
                                       minimumWidth: bounds.width, aligning: selected, over: bounds.height)
        session?.onChoose = { [weak self] _ in self?.menuChanged() }   // the choice, on the button
        session?.onDismiss = { [weak self] in
            self?.menuSession = nil
            self?.accessibilityDidChange(.states)
        }
        menuSession = session
        accessibilityDidChange(.states)
    }
}

