import LayerKit

/// Mutually exclusive segments in a row (`UISegmentedControl`): a tap on a
/// segment selects it, the selection indicator slides there (0.25 s, as the
/// switch's thumb), and `valueChanged` is sent; Left and Right move the
/// selection to the segment on that side while it is focused (mirrored right
/// to left, as the segments are). ``selectedSegmentIndex`` set in code moves the
/// indicator without animation and sends nothing; ``noSegment`` (-1) is none.
@MainActor
public final class SegmentedControl: Control {
    public static let noSegment = -1
    /// The control's height, in points.
    public static let height = 32.0

    private var titles: [String]
    private var labels: [Label] = []
    private var dividers: [View] = []
    private let indicator = View(frame: .zero)
    private var selected = SegmentedControl.noSegment

    public var numberOfSegments: Int { titles.count }

    // Each segment is a button of its own, selected when chosen, as VoiceOver
    // reads UIKit's; the control groups them (rules Y1, Y2).
    override var defaultIsAccessibilityElement: Bool { false }
    override var defaultAccessibilityContainerType: AccessibilityContainerType { .semanticGroup }
    private var segmentElements: [SegmentElement] = []
    public override var accessibilityElements: [Any]? {
        get { super.accessibilityElements ?? segmentElements }
        set { super.accessibilityElements = newValue }
    }

    /// A segment to assistive technologies: activating it selects it as a tap does.
    private final class SegmentElement: AccessibilityElement {
        unowned let control: SegmentedControl
        let index: Int
        init(control: SegmentedControl, index: Int) {
            self.control = control
            self.index = index
            super.init(accessibilityContainer: control)
        }
        override var accessibilityLabel: String? {
            get { super.accessibilityLabel ?? control.titleForSegment(at: index) }
            set { super.accessibilityLabel = newValue }
        }
        override var accessibilityTraits: AccessibilityTraits {
            get {
                var traits = super.accessibilityTraits.union(.button)
                if control.selected == index { traits.insert(.selected) }
                if !control.isEnabled { traits.insert(.notEnabled) }
                return traits
            }
            set { super.accessibilityTraits = newValue }
        }
        override var accessibilityFrameInContainerSpace: Rect {
            get { Rect(x: control.segmentX(index), y: 0, width: control.segmentWidth, height: control.bounds.height) }
            set {}
        }
        override func accessibilityActivate() -> Bool {
            guard control.isEnabled else { return false }
            control.userSelect(index)
            return true
        }
    }

    /// The selected segment, or ``noSegment``; an index out of range is refused
    /// (with a diagnostic).
    public var selectedSegmentIndex: Int {
        get { selected }
        set { select(newValue, animated: false) }
    }

    public init(items: [String]) {
        titles = items
        super.init(frame: .zero)
        backgroundColor = .systemGray5
        layer.cornerRadius = 8
        indicator.backgroundColor = Color(light: .white, dark: Color(rgba8: 99, 99, 102))
        indicator.layer.cornerRadius = 7
        indicator.layer.shadowOpacity = 0.15
        indicator.layer.shadowRadius = 2
        indicator.isUserInteractionEnabled = false
        indicator.isHidden = true
        addSubview(indicator)
        rebuild()
        frame = Rect(origin: .zero, size: intrinsicContentSize)
    }

    public func titleForSegment(at index: Int) -> String? { titles.indices.contains(index) ? titles[index] : nil }

    /// Changes a segment's title (an index out of range does nothing, with a diagnostic).
    public func setTitle(_ title: String, forSegmentAt index: Int) {
        guard titles.indices.contains(index) else {
            return Diagnostics.report(.invalidView("setTitle(_:forSegmentAt:): no segment \(index)"))
        }
        titles[index] = title
        labels[index].text = title
        invalidateIntrinsicContentSize()
        setNeedsLayout()
    }

    /// Adds a segment at `index` (clamped into range); the selection stays on its segment.
    public func insertSegment(withTitle title: String, at index: Int) {
        let i = min(max(0, index), titles.count)
        titles.insert(title, at: i)
        if selected >= i { selected += 1 }
        rebuild()
    }

    /// Removes a segment; removing the selected one leaves none selected.
    public func removeSegment(at index: Int) {
        guard titles.indices.contains(index) else { return }
        titles.remove(at: index)
        if selected == index { selected = Self.noSegment } else if selected > index { selected -= 1 }
        rebuild()
    }

    private func rebuild() {
        segmentElements = titles.indices.map { SegmentElement(control: self, index: $0) }
        for v in labels + dividers { v.removeFromSuperview() }
        labels = titles.map { title in
            let label = Label(frame: .zero)
            label.text = title
            label.font = .systemFont(ofSize: 13, weight: .medium)
            label.textAlignment = .center
            label.isUserInteractionEnabled = false
            return label
        }
        dividers = (0..<max(0, titles.count - 1)).map { _ in
            let d = View()
            d.backgroundColor = .systemGray3
            d.isUserInteractionEnabled = false
            return d
        }
        for d in dividers { addSubview(d) }
        for l in labels { addSubview(l) }
        invalidateIntrinsicContentSize()
        setNeedsLayout()
        View.performWithoutAnimation { layoutIfNeeded() }
    }

    public override var intrinsicContentSize: Size {
        let widest = labels.map { $0.intrinsicContentSize.width }.max() ?? 0
        return Size(width: Double(max(1, titles.count)) * (widest + 24), height: Self.height)
    }

    private var segmentWidth: Double { bounds.width / Double(max(1, titles.count)) }

    /// Where segment `i` starts: from the left, or from the right right to left (rule P3).
    private func segmentX(_ i: Int) -> Double {
        let n = titles.count
        return Double(effectiveUserInterfaceLayoutDirection == .rightToLeft ? n - 1 - i : i) * segmentWidth
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let w = segmentWidth
        for (i, label) in labels.enumerated() {
            label.frame = Rect(x: segmentX(i), y: 0, width: w, height: bounds.height)
        }
        // Divider i is between segments i and i + 1.
        for (i, d) in dividers.enumerated() {
            d.frame = Rect(x: max(segmentX(i), segmentX(i + 1)) - 0.5, y: 8, width: 1, height: max(0, bounds.height - 16))
        }
        placeIndicator()
    }

    private func placeIndicator() {
        indicator.isHidden = !titles.indices.contains(selected)
        guard titles.indices.contains(selected) else { return }
        indicator.frame = Rect(x: segmentX(selected) + 2, y: 2, width: max(0, segmentWidth - 4), height: max(0, bounds.height - 4))
        // Dividers beside the selection hide, as UIKit's do.
        for (i, d) in dividers.enumerated() { d.alpha = i == selected || i == selected - 1 ? 0 : 1 }
    }

    private func select(_ index: Int, animated: Bool) {
        guard index == Self.noSegment || titles.indices.contains(index) else {
            return Diagnostics.report(.invalidView("selectedSegmentIndex \(index) is out of range; ignored"))
        }
        let wasHidden = indicator.isHidden
        selected = index
        if animated && !wasHidden && !reducesMotion {
            View.animate(duration: 0.25, options: [.allowUserInteraction, .beginFromCurrentState]) { self.placeIndicator() }
        } else {
            View.performWithoutAnimation { placeIndicator() }
        }
    }

    /// A user's choice: the indicator slides, and `valueChanged` when it changed.
    private func userSelect(_ index: Int) {
        guard index != selected, titles.indices.contains(index) else { return }
        select(index, animated: true)
        sendActions(for: [.valueChanged, .primaryActionTriggered])
    }

    public override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        guard let touch, isInsideForTracking(touch.location(in: self)) else { return }
        let column = Int(touch.location(in: self).x / max(1, segmentWidth))
        userSelect(effectiveUserInterfaceLayoutDirection == .rightToLeft ? titles.count - 1 - column : column)
    }

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isFirstResponder, let key = presses.first?.key else { return super.pressesBegan(presses, with: event) }
        // Left and Right go to the segment on that side: mirrored right to left, as the segments are.
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let previous = max(0, (selected == Self.noSegment ? 0 : selected) - 1), next = min(titles.count - 1, selected + 1)
        switch key.keysym {
        case 0xff51: userSelect(rtl ? next : previous)    // Left
        case 0xff53: userSelect(rtl ? previous : next)    // Right
        default: super.pressesBegan(presses, with: event)
        }
    }
}
