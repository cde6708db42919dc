/// An on/off switch (`UISwitch`, rule H6), 51 × 31 points.
///
/// A tap (or Space/Return while focused) flips it; the thumb can also be
/// dragged, and where it is let go decides. The thumb slides and the track's
/// colour fades (0.25 s); while pressed the thumb stretches, as UIKit's does.
/// `valueChanged` is sent for the user's flips only: ``setOn(_:animated:)`` sends nothing.
@MainActor
public final class Switch: Control {
    // A toggle button whose value is "1" or "0", as UIKit's (rule Y2).
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union([.button, .toggleButton]) }
    override var defaultAccessibilityValue: String? { on ? "1" : "0" }

    public static let size = Size(width: 51, height: 31)

    /// Whether the switch is on; setting it moves the thumb without animation.
    public var isOn: Bool {
        get { on }
        set { setOn(newValue, animated: false) }
    }
    /// The track's colour when on (system green).
    public var onTintColor: Color = .systemGreen { didSet { updateLook() } }
    /// The track's colour when off.
    public var offTintColor: Color = .systemGray5 { didSet { updateLook() } }
    public var thumbTintColor: Color = .white { didSet { thumb.backgroundColor = thumbTintColor } }

    private var on = false
    private let thumb = View(frame: .zero)
    /// While dragging: the thumb's travel (0 off … 1 on) under the finger.
    private var dragFraction: Double?
    private var touchStartX = 0.0

    public override init(frame: Rect) {
        super.init(frame: Rect(origin: frame.origin, size: Switch.size))
        layer.cornerRadius = Switch.size.height / 2
        thumb.backgroundColor = thumbTintColor
        thumb.isUserInteractionEnabled = false
        thumb.layer.shadowOpacity = 0.25
        thumb.layer.shadowRadius = 2
        thumb.layer.shadowOffset = Size(width: 0, height: 2)
        addSubview(thumb)
        updateLook()
        layoutThumb()
    }

    public convenience init() { self.init(frame: .zero) }

    /// Sets the state; animated, the thumb slides and the colour fades. Sends no event.
    public func setOn(_ newValue: Bool, animated: Bool) {
        if newValue != on { accessibilityDidChange(.states) }
        on = newValue
        dragFraction = nil
        if animated {
            animateLook(duration: 0.25)
        } else {
            View.performWithoutAnimation { self.updateLook(); self.layoutThumb() }
        }
    }

    public override var intrinsicContentSize: Size { Switch.size }
    public override func sizeThatFits(_ size: Size) -> Size { Switch.size }

    public override func layoutSubviews() {
        super.layoutSubviews()
        layoutThumb()
    }

    /// The thumb: 27 points round, 2 from the edge; 35 wide while pressed.
    private func layoutThumb() {
        let inset = 2.0, diameter = bounds.height - 2 * inset
        let width = isHighlighted ? diameter + 8 : diameter
        let travel = bounds.width - 2 * inset - width
        let fraction = dragFraction ?? (on ? 1 : 0)
        // Right to left the switch is mirrored: on is at the left (rule P3).
        let along = effectiveUserInterfaceLayoutDirection == .rightToLeft ? 1 - fraction : fraction
        thumb.frame = Rect(x: inset + travel * along, y: inset, width: width, height: diameter)
        thumb.layer.cornerRadius = diameter / 2
    }

    private func updateLook() {
        let showsOn = (dragFraction ?? (on ? 1 : 0)) >= 0.5
        backgroundColor = isEnabled ? (showsOn ? onTintColor : offTintColor) : (showsOn ? onTintColor : offTintColor).withAlpha(0.5)
        thumb.alpha = isEnabled ? 1 : 0.6
    }

    public override func stateDidChange() { animateLook(duration: 0.2) }

    /// The colour fades and the thumb slides; with reduce motion the thumb jumps (rule P4).
    private func animateLook(duration: Double) {
        if reducesMotion { View.performWithoutAnimation { layoutThumb() } }
        View.animate(duration: duration, options: [.allowUserInteraction, .beginFromCurrentState]) {
            self.updateLook()
            self.layoutThumb()
        }
    }

    // MARK: Tracking: tap flips, drag decides by where the thumb is let go

    public override func beginTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        touchStartX = touch.location(in: self).x
        return true
    }

    public override func continueTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        let x = touch.location(in: self).x
        if dragFraction == nil, abs(x - touchStartX) < 4 { return true }
        let travel = bounds.width - bounds.height
        let start = on ? 1.0 : 0.0
        let moved = (x - touchStartX) * (effectiveUserInterfaceLayoutDirection == .rightToLeft ? -1 : 1)
        let fraction = min(1, max(0, start + moved / max(1, travel)))
        if fraction != dragFraction {
            dragFraction = fraction
            View.performWithoutAnimation {
                updateLook()
                layoutThumb()
            }
        }
        return true
    }

    public override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        let wasDragged = dragFraction != nil
        let target: Bool
        if let fraction = dragFraction {
            target = fraction >= 0.5
        } else {
            target = touch.map { isInsideForTracking($0.location(in: self)) } ?? false ? !on : on
        }
        dragFraction = nil
        userSet(target, alwaysAnimate: wasDragged)
    }

    public override func cancelTracking(with event: Strata.Event?) {
        guard dragFraction != nil else { return }
        dragFraction = nil
        setOn(on, animated: true)
    }

    override func keyboardActivated() {
        super.keyboardActivated()
        userSet(!on, alwaysAnimate: true)
    }

    private func userSet(_ value: Bool, alwaysAnimate: Bool) {
        let changed = value != on
        if changed || alwaysAnimate { setOn(value, animated: true) }
        if changed {
            sendActions(for: [.valueChanged, .primaryActionTriggered])
        }
    }
}
