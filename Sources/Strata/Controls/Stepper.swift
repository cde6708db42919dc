/// A value stepped up and down by two buttons, − and + (`UIStepper`, rule H6),
/// 94 × 32 points.
///
/// A tap on + adds ``stepValue`` (on −, takes it away), held to
/// ``minimumValue``…``maximumValue`` — or, with ``wraps``, going round from one
/// end to the other. Held down, a button repeats (``autorepeat``): after half a
/// second, then ten times a second, on the media clock. `valueChanged` is sent
/// for each step (``isContinuous``), or once when the button is let go; never
/// for values set in code. With the focus, Up and Down (Right and Left) step,
/// Home and End go to the ends. A button that cannot step further is dimmed.
/// Bad values are refused with a diagnostic, as UIKit raises for them: NaN, a
/// step that is not above 0, a minimum above the maximum.
@MainActor
public final class Stepper: Control {
    // A spin button with its number, stepped by its step (rules Y2, Y4).
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union(.adjustable) }
    override var accessibilityRole: AccessibilityRole? { .spinButton }
    override var defaultAccessibilityValue: String? { Self.format(storedValue) }
    override var accessibilityNumericValue: AccessibilityNumericValue? {
        AccessibilityNumericValue(minimum: minimumValue, maximum: maximumValue, current: storedValue, step: stepValue)
    }
    public override func accessibilityIncrement() { if isEnabled { step(by: 1) } }
    public override func accessibilityDecrement() { if isEnabled { step(by: -1) } }
    /// Set by an assistive technology, as typed into a spin button: held to the range, `valueChanged` sent.
    override func accessibilitySetValue(_ value: Double) -> Bool {
        userSet(value)
        return true
    }

    public static let size = Size(width: 94, height: 32)
    /// How long a button is held before it repeats, and the time between repeats.
    public static let autorepeatDelay = 0.5, autorepeatInterval = 0.1

    public var value: Double {
        get { storedValue }
        set {
            guard !newValue.isNaN else { return Diagnostics.report(.invalidView("Stepper value NaN refused; it stays \(Self.format(storedValue))")) }
            set(newValue)
        }
    }
    /// The lowest value (`minimumValue`, 0); above the maximum it is refused.
    public var minimumValue = 0.0 {
        didSet { if !boundAccepted("minimum", minimumValue) { minimumValue = oldValue } }
    }
    /// The highest value (`maximumValue`, 100); below the minimum it is refused.
    public var maximumValue = 100.0 {
        didSet { if !boundAccepted("maximum", maximumValue) { maximumValue = oldValue } }
    }
    /// How much a step adds or takes (`stepValue`, 1); 0 or less is refused.
    public var stepValue = 1.0 {
        didSet {
            if !(stepValue > 0 && stepValue.isFinite) {
                Diagnostics.report(.invalidView("Stepper step \(stepValue) refused (it must be above 0); it stays \(oldValue)"))
                stepValue = oldValue
            }
        }
    }
    /// Whether a held button repeats (`autorepeat`).
    public var autorepeat = true
    /// Whether each step sends `valueChanged` (`isContinuous`), or only letting go does.
    public var isContinuous = true
    /// Whether stepping past an end goes round to the other (`wraps`).
    public var wraps = false { didSet { updateLook() } }

    private var storedValue = 0.0
    private let minus = Label(frame: .zero), plus = Label(frame: .zero)
    private let separator = View(frame: .zero)
    private let pressedHalf = View(frame: .zero)
    /// The button held: −1 or +1.
    private var held: Int?
    private var repeatTimer: MediaTimer?
    private var valueAtPress = 0.0

    public override init(frame: Rect) {
        super.init(frame: Rect(origin: frame.origin, size: Stepper.size))
        backgroundColor = .tertiarySystemFill
        layer.cornerRadius = 8
        clipsToBounds = true
        pressedHalf.backgroundColor = .systemGray4
        pressedHalf.isHidden = true
        separator.backgroundColor = .separator
        for (label, text) in [(minus, "−"), (plus, "+")] {
            label.text = text
            label.font = .systemFont(ofSize: 22)
            label.textAlignment = .center
        }
        for v in [pressedHalf, separator, minus, plus] {
            v.isUserInteractionEnabled = false
            addSubview(v)
        }
        updateLook()
    }

    public convenience init() { self.init(frame: .zero) }

    public override var intrinsicContentSize: Size { Stepper.size }
    public override func sizeThatFits(_ size: Size) -> Size { Stepper.size }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let b = bounds, half = b.width / 2
        View.performWithoutAnimation {
            // − at the leading side: at the right, right to left (rule P3).
            let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
            minus.frame = Rect(x: rtl ? half : 0, y: 0, width: half, height: b.height)
            plus.frame = Rect(x: rtl ? 0 : half, y: 0, width: half, height: b.height)
            separator.frame = Rect(x: half - 0.5, y: 8, width: 1, height: max(0, b.height - 16))
            if let held { pressedHalf.frame = held < 0 ? minus.frame : plus.frame }
        }
    }

    // MARK: Values

    private static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }

    private func boundAccepted(_ name: String, _ v: Double) -> Bool {
        guard minimumValue <= maximumValue, v.isFinite else {
            Diagnostics.report(.invalidView("Stepper \(name) \(v) refused (the minimum must not pass the maximum)"))
            return false
        }
        set(storedValue)
        return true
    }

    /// Sets the value held to the range; sends nothing.
    private func set(_ newValue: Double) {
        let old = storedValue
        storedValue = min(maximumValue, max(minimumValue, newValue))
        if storedValue != old { accessibilityDidChange(.value) }
        updateLook()
    }

    /// One step up (+1) or down (−1) as the person's: round the ends with
    /// ``wraps``; `valueChanged` while continuous. False when nothing changed.
    @discardableResult
    private func step(by direction: Int) -> Bool {
        let old = storedValue
        var next = storedValue + Double(direction) * stepValue
        if wraps {
            if next > maximumValue { next = minimumValue } else if next < minimumValue { next = maximumValue }
        }
        set(next)
        guard storedValue != old else { return false }
        if isContinuous || held == nil { sendActions(for: .valueChanged) }
        return true
    }

    private func canStep(_ direction: Int) -> Bool {
        wraps || (direction < 0 ? storedValue > minimumValue : storedValue < maximumValue)
    }

    private func updateLook() {
        minus.textColor = isEnabled && canStep(-1) ? tintColor : .tertiaryLabel
        plus.textColor = isEnabled && canStep(1) ? tintColor : .tertiaryLabel
    }

    public override func stateDidChange() { updateLook() }

    public override func tintColorDidChange() { updateLook() }

    // MARK: Touches: a press on a half steps, holding it repeats

    public override func beginTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        // − is the leading half (at the right, right to left).
        let leading = (touch.location(in: self).x < bounds.midX) != (effectiveUserInterfaceLayoutDirection == .rightToLeft)
        let direction = leading ? -1 : 1
        guard canStep(direction) else { return false }
        held = direction
        valueAtPress = storedValue
        pressedHalf.isHidden = false
        setNeedsLayout()
        layoutIfNeeded()
        step(by: direction)
        if autorepeat { scheduleRepeat(at: currentMediaTime() + Stepper.autorepeatDelay) }
        return true
    }

    /// The next repeat at `time`; each after the one before it by the interval
    /// (not after whenever it ran), so the cadence does not drift.
    private func scheduleRepeat(at time: Double) {
        repeatTimer = MediaTimer.schedule(at: time) { [weak self] in
            guard let self, let held, isTracking else { return }
            if step(by: held) { scheduleRepeat(at: time + Stepper.autorepeatInterval) }
        }
    }

    public override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        finishHold(sendChange: true)
    }

    public override func cancelTracking(with event: Strata.Event?) {
        finishHold(sendChange: true)
    }

    private func finishHold(sendChange: Bool) {
        repeatTimer?.cancel()
        repeatTimer = nil
        held = nil
        pressedHalf.isHidden = true
        if sendChange, !isContinuous, storedValue != valueAtPress { sendActions(for: .valueChanged) }
    }

    // MARK: Keys

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isEnabled, let key = presses.first?.key else { return super.pressesBegan(presses, with: event) }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        switch key.keysym {
        case 0xff52: step(by: 1)                                            // Up
        case 0xff54: step(by: -1)                                           // Down
        case 0xff53: step(by: rtl ? -1 : 1)                                 // Right
        case 0xff51: step(by: rtl ? 1 : -1)                                 // Left
        case 0xff50: userSet(minimumValue)                               // Home
        case 0xff57: userSet(maximumValue)                               // End
        default: super.pressesBegan(presses, with: event)
        }
    }

    /// Space and Return do nothing: a stepper has no one action to press.
    override func keyboardActivated() {}

    /// Sets the value as the person's input (an end from the keyboard): `valueChanged` when it changed.
    private func userSet(_ newValue: Double) {
        let old = storedValue
        set(newValue)
        if storedValue != old { sendActions(for: .valueChanged) }
    }
}
