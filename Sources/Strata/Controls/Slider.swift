/// A continuous value chosen along a track (`UISlider`, rule H6).
///
/// Drag the thumb, or click the track to put the thumb there and go on
/// dragging; with the focus, the arrow keys step by a twentieth of the range
/// and Home/End go to the ends. `valueChanged` is sent as the value changes
/// (``isContinuous``) or once when the touch ends; never for values set in code.
/// Values outside the range are clamped into it; NaN is refused with a
/// diagnostic. A minimum set above the maximum raises the maximum to it (and
/// the other way round), so the range is never empty.
@MainActor
public final class Slider: Control {
    // Adjustable: its value as a percentage of the range, stepped by a tenth of
    // it as VoiceOver's swipes do (rules Y2, Y4).
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union(.adjustable) }
    override var defaultAccessibilityValue: String? { "\(Int((fraction * 100).rounded()))%" }
    override var accessibilityNumericValue: AccessibilityNumericValue? {
        AccessibilityNumericValue(minimum: minimumValue, maximum: maximumValue, current: storedValue, step: 0)
    }
    public override func accessibilityIncrement() { if isEnabled { userSet(storedValue + (maximumValue - minimumValue) / 10, animated: true) } }
    /// An assistive technology set the value (AT-SPI's `CurrentValue`), as a drag to it would.
    override func accessibilitySetValue(_ value: Double) -> Bool {
        userSet(value, animated: false)
        return true
    }
    public override func accessibilityDecrement() { if isEnabled { userSet(storedValue - (maximumValue - minimumValue) / 10, animated: true) } }

    public var value: Double {
        get { storedValue }
        set { setValue(newValue, animated: false) }
    }
    public var minimumValue = 0.0 {
        didSet { rangeChanged(\.minimumValue, old: oldValue) }
    }
    public var maximumValue = 1.0 {
        didSet { rangeChanged(\.maximumValue, old: oldValue) }
    }
    /// Send `valueChanged` while dragging (true) or only when the touch ends.
    public var isContinuous = true
    public var minimumTrackTintColor: Color? { didSet { updateColors() } }
    public var maximumTrackTintColor: Color = .systemGray4 { didSet { updateColors() } }
    public var thumbTintColor: Color = .white { didSet { updateColors() } }

    public static let thumbDiameter = 28.0
    public static let trackHeight = 4.0

    private var storedValue = 0.0
    private let minimumTrack = View(frame: .zero)
    private let maximumTrack = View(frame: .zero)
    private let thumb = View(frame: .zero)
    /// Where the touch holds the thumb, from its centre.
    private var grabOffset = 0.0
    private var valueAtTouchStart = 0.0

    public override init(frame: Rect) {
        super.init(frame: frame)
        for track in [maximumTrack, minimumTrack] {
            track.isUserInteractionEnabled = false
            track.layer.cornerRadius = Slider.trackHeight / 2
            addSubview(track)
        }
        thumb.isUserInteractionEnabled = false
        thumb.layer.cornerRadius = Slider.thumbDiameter / 2
        thumb.layer.shadowOpacity = 0.25
        thumb.layer.shadowRadius = 3
        thumb.layer.shadowOffset = Size(width: 0, height: 2)
        addSubview(thumb)
        updateColors()
    }

    public convenience init() { self.init(frame: Rect(x: 0, y: 0, width: 200, height: 31)) }

    /// Sets the value (clamped to the range); animated, the thumb glides there. Sends no event.
    public func setValue(_ newValue: Double, animated: Bool) {
        guard !newValue.isNaN else {
            return Diagnostics.report(.invalidView("Slider value NaN refused; it stays \(storedValue)"))
        }
        let old = storedValue
        storedValue = min(maximumValue, max(minimumValue, newValue))
        if storedValue != old { accessibilityDidChange(.value) }
        if animated {
            View.animate(duration: 0.25, options: [.allowUserInteraction, .beginFromCurrentState]) { self.layoutTrack() }
        } else {
            View.performWithoutAnimation { layoutTrack() }
        }
    }

    private func rangeChanged(_ key: ReferenceWritableKeyPath<Slider, Double>, old: Double) {
        let v = self[keyPath: key]
        guard v.isFinite else {
            Diagnostics.report(.invalidView("Slider range bound \(v) refused; it stays \(old)"))
            self[keyPath: key] = old
            return
        }
        if minimumValue > maximumValue {
            if key == \Slider.minimumValue { maximumValue = minimumValue } else { minimumValue = maximumValue }
        }
        setValue(storedValue, animated: false)
    }

    public override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 31) }
    public override func sizeThatFits(_ size: Size) -> Size { Size(width: max(size.width, Slider.thumbDiameter), height: 31) }

    public override func layoutSubviews() {
        super.layoutSubviews()
        layoutTrack()
    }

    /// The track runs between the thumb's centre at either end.
    private var trackRange: (start: Double, length: Double) {
        let r = Slider.thumbDiameter / 2
        return (bounds.minX + r, max(0, bounds.width - 2 * r))
    }

    private var fraction: Double {
        let span = maximumValue - minimumValue
        return span > 0 ? (storedValue - minimumValue) / span : 0
    }

    private func layoutTrack() {
        let (start, length) = trackRange
        // Right to left, the minimum is at the right end and the fill grows leftwards (rule P3).
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let x = start + length * (rightToLeft ? 1 - fraction : fraction)
        let y = bounds.midY - Slider.trackHeight / 2
        minimumTrack.frame = rightToLeft ? Rect(x: x, y: y, width: start + length - x, height: Slider.trackHeight)
                                         : Rect(x: start, y: y, width: x - start, height: Slider.trackHeight)
        maximumTrack.frame = Rect(x: start, y: y, width: length, height: Slider.trackHeight)
        let d = Slider.thumbDiameter
        thumb.frame = Rect(x: x - d / 2, y: bounds.midY - d / 2, width: d, height: d)
    }

    private func updateColors() {
        minimumTrack.backgroundColor = isEnabled ? (minimumTrackTintColor ?? tintColor) : .systemGray3
        maximumTrack.backgroundColor = maximumTrackTintColor
        thumb.backgroundColor = thumbTintColor
        thumb.alpha = isEnabled ? 1 : 0.6
    }

    public override func stateDidChange() { updateColors() }
    public override func tintColorDidChange() { updateColors() }

    // MARK: Tracking

    private func value(atX x: Double) -> Double {
        let (start, length) = trackRange
        var f = length > 0 ? min(1, max(0, (x - start) / length)) : 0
        if effectiveUserInterfaceLayoutDirection == .rightToLeft { f = 1 - f }
        return minimumValue + f * (maximumValue - minimumValue)
    }

    public override func beginTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        let p = touch.location(in: self)
        valueAtTouchStart = storedValue
        let thumbCenter = thumb.frame.midX
        if abs(p.x - thumbCenter) <= Slider.thumbDiameter / 2 + 4 {
            grabOffset = p.x - thumbCenter
        } else {
            // A click on the track puts the thumb there (and the drag goes on from it).
            grabOffset = 0
            userSet(value(atX: p.x), animated: true)
        }
        return true
    }

    public override func continueTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        userSet(value(atX: touch.location(in: self).x - grabOffset), animated: false)
        return true
    }

    public override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        if !isContinuous, storedValue != valueAtTouchStart { sendActions(for: .valueChanged) }
    }

    private func userSet(_ newValue: Double, animated: Bool) {
        let old = storedValue
        setValue(newValue, animated: animated)
        if storedValue != old, isContinuous || !isTracking { sendActions(for: .valueChanged) }
    }

    // MARK: Keys

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isEnabled, let key = presses.first?.key else { return super.pressesBegan(presses, with: event) }
        let step = (maximumValue - minimumValue) / 20
        switch key.keysym {
        case 0xff51, 0xff54: userSet(storedValue - step, animated: true)   // Left, Down
        case 0xff53, 0xff52: userSet(storedValue + step, animated: true)   // Right, Up
        case 0xff50: userSet(minimumValue, animated: true)                 // Home
        case 0xff57: userSet(maximumValue, animated: true)                 // End
        default: super.pressesBegan(presses, with: event)
        }
    }
}
