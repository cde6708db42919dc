/// The views inside a text field (`leftView`, `rightView`, the clear button):
/// which show, where, and how much room they leave the text.
extension TextField {
    /// Space between the field's edge, its views and the text.
    private static let accessoryMargin = 6.0, accessoryGap = 4.0

    func accessoryViewChanged(from old: View?, to new: View?) {
        if old !== new {
            old?.removeFromSuperview()
            if let new { addSubview(new) }
        }
        updateAccessoryVisibility()
        setNeedsLayout()
        textRectChanged()
    }

    private func shows(_ mode: ViewMode) -> Bool {
        switch mode {
        case .never: false
        case .always: true
        case .whileEditing: isEditing
        case .unlessEditing: !isEditing
        }
    }

    private var showsLeftView: Bool { leftView != nil && shows(leftViewMode) }
    private var showsRightView: Bool { rightView != nil && shows(rightViewMode) }
    private var showsClearButton: Bool { hasText && isEnabled && shows(clearButtonMode) }

    /// The room the shown views take at the leading and trailing edges (0 where none shows).
    var accessoryWidths: (leading: Double, trailing: Double) {
        let m = Self.accessoryMargin, gap = Self.accessoryGap
        var leading = 0.0, trailing = 0.0
        if showsLeftView, let v = leftView { leading = m + v.bounds.width + gap }
        if showsRightView, let v = rightView { trailing = m + v.bounds.width + gap }
        if showsClearButton { trailing += (trailing == 0 ? m : 0) + TextFieldClearButton.size + gap }
        return (leading, trailing)
    }

    /// Shows and hides the views as their modes say; the text moves over when that changes.
    func updateAccessories() {
        if updateAccessoryVisibility() { textRectChanged() }
    }

    /// Shows and hides the views as their modes say (laid out again when that
    /// changed); true when it changed, so the text has another rect.
    @discardableResult
    func updateAccessoryVisibility() -> Bool {
        let before = (leftView?.isHidden, rightView?.isHidden, clearButton?.isHidden)
        leftView?.isHidden = !showsLeftView
        rightView?.isHidden = !showsRightView
        if showsClearButton && clearButton == nil {
            let button = TextFieldClearButton(field: self)
            clearButton = button
            addSubview(button)
        }
        clearButton?.isHidden = !showsClearButton
        guard before != (leftView?.isHidden, rightView?.isHidden, clearButton?.isHidden) else { return false }
        setNeedsLayout()
        return true
    }

    /// Places the shown views at their edges, mirrored right to left.
    func layoutAccessories() {
        let m = Self.accessoryMargin, gap = Self.accessoryGap
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        // x of a view `offset` in from the leading or trailing edge, mirrored right to left.
        func place(_ v: View, fromLeading: Bool, offset: Double) {
            let w = v.bounds.width, h = v.bounds.height
            let fromLeft = fromLeading != rtl
            let x = fromLeft ? bounds.minX + offset : bounds.maxX - offset - w
            v.frame = Rect(x: x, y: bounds.midY - h / 2, width: w, height: h)
        }
        View.performWithoutAnimation {
            if showsLeftView, let v = leftView { place(v, fromLeading: true, offset: m) }
            var trailing = m
            if showsRightView, let v = rightView {
                place(v, fromLeading: false, offset: trailing)
                trailing += v.bounds.width + gap
            }
            if let clearButton, showsClearButton { place(clearButton, fromLeading: false, offset: trailing) }
        }
    }

    /// The clear button's tap: empties the field as the person's edit, if ``shouldClear`` agrees.
    func clearTapped() {
        guard isEnabled, hasText, shouldClear?(self) ?? true else { return }
        if !isFirstResponder { becomeFirstResponder() }
        selectAll()
        deleteBackward()
    }
}

/// A text field's clear button: a grey circle with a white ×, 17 points across.
@MainActor
final class TextFieldClearButton: Control {
    static let size = 17.0
    private unowned let field: TextField

    init(field: TextField) {
        self.field = field
        super.init(frame: Rect(x: 0, y: 0, width: Self.size, height: Self.size))
        backgroundColor = .systemGray2
        layer.cornerRadius = Self.size / 2
        for angle in [Double.pi / 4, -Double.pi / 4] {
            let bar = View(frame: Rect(x: 0, y: 0, width: 1.6, height: 8.5))
            bar.center = Point(x: Self.size / 2, y: Self.size / 2)
            bar.backgroundColor = .white
            bar.transform = AffineTransform(rotationAngle: angle)
            bar.isUserInteractionEnabled = false
            addSubview(bar)
        }
        accessibilityLabel = "Clear text"
    }

    override var defaultIsAccessibilityElement: Bool { false }   // the field's own Escape or select-and-delete do it by keyboard

    override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        guard let touch, isInsideForTracking(touch.location(in: self)) else { return }
        field.clearTapped()
    }

    /// Not a Tab stop: inside the field, which has the focus.
    override var canBecomeFirstResponder: Bool { false }
}
