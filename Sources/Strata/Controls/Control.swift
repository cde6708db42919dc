/// A view that turns touches, pointer clicks and keys into actions (`UIControl`, rule H6).
///
/// A touch that begins on the control is tracked until it ends: `touchDown`
/// when it begins, `touchDragInside`/`Outside` (and `Enter`/`Exit` when it
/// crosses) as it moves, `touchUpInside` when it ends within the bounds grown by
/// ``touchTolerance``, else `touchUpOutside`; `touchCancel` when it is taken
/// back. ``isHighlighted`` is true while the touch is inside. `valueChanged`
/// follows only the user's changes, never code's. Controls take the keyboard
/// focus (Tab moves it) and Space or Return triggers their primary action.
/// Disabled controls swallow touches and take no focus.
@MainActor
open class Control: View {
    // An element whose traits follow its state; activated as Space or Return
    // would (rules Y2, Y4).
    override var defaultIsAccessibilityElement: Bool { true }
    override var defaultAccessibilityTraits: AccessibilityTraits {
        var traits: AccessibilityTraits = []
        if !isEnabled { traits.insert(.notEnabled) }
        if isSelected { traits.insert(.selected) }
        return traits
    }

    open override func accessibilityActivate() -> Bool {
        guard isEnabled else { return false }
        keyboardActivated()
        return true
    }

    /// What happened to a control (`UIControl.Event`).
    public struct Event: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let touchDown = Event(rawValue: 1 << 0)
        public static let touchDownRepeat = Event(rawValue: 1 << 1)
        public static let touchDragInside = Event(rawValue: 1 << 2)
        public static let touchDragOutside = Event(rawValue: 1 << 3)
        public static let touchDragEnter = Event(rawValue: 1 << 4)
        public static let touchDragExit = Event(rawValue: 1 << 5)
        public static let touchUpInside = Event(rawValue: 1 << 6)
        public static let touchUpOutside = Event(rawValue: 1 << 7)
        public static let touchCancel = Event(rawValue: 1 << 8)
        public static let valueChanged = Event(rawValue: 1 << 12)
        public static let primaryActionTriggered = Event(rawValue: 1 << 13)
        public static let editingDidBegin = Event(rawValue: 1 << 16)
        public static let editingChanged = Event(rawValue: 1 << 17)
        public static let editingDidEnd = Event(rawValue: 1 << 18)
        public static let editingDidEndOnExit = Event(rawValue: 1 << 19)
        public static let allTouchEvents = Event(rawValue: 0x0FFF)
        public static let allEditingEvents = Event(rawValue: 0x000F_0000)
        public static let allEvents = Event(rawValue: UInt.max)
    }

    /// The states a control's look depends on (`UIControl.State`).
    public struct State: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let normal: State = []
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
        public static let focused = State(rawValue: 1 << 3)
    }

    /// How far outside its bounds a touch still counts as inside (UIKit's ~70 points).
    public static let touchTolerance = 70.0

    /// A disabled control ignores touches and keys and looks dimmed.
    open var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            if !isEnabled {
                if isFirstResponder { resignFirstResponder() }
                if let t = trackingTouch { finishTracking(t, cancelled: true, event: nil) }
            }
            stateChanged()
        }
    }
    open var isSelected = false { didSet { if isSelected != oldValue { stateChanged() } } }
    open var isHighlighted = false { didSet { if isHighlighted != oldValue { stateChanged() } } }

    /// The control's state now.
    public var state: State {
        var s: State = []
        if isHighlighted { s.insert(.highlighted) }
        if !isEnabled { s.insert(.disabled) }
        if isSelected { s.insert(.selected) }
        if isFirstResponder { s.insert(.focused) }
        return s
    }

    /// True while a touch that began here is followed.
    public private(set) var isTracking = false
    /// True while the followed touch is inside (bounds grown by the tolerance).
    public private(set) var isTouchInside = false
    private weak var trackingTouch: Touch?
    private var actions: [(events: Event, handler: (Control) -> Void)] = []

    // MARK: Actions

    /// Calls `handler` whenever one of `events` happens (`addAction(_:for:)`).
    public func addAction(for events: Control.Event, _ handler: @escaping (Control) -> Void) {
        actions.append((events, handler))
    }

    /// Removes every handler added for any of `events`.
    public func removeActions(for events: Control.Event) {
        actions.removeAll { !$0.events.isDisjoint(with: events) }
    }

    /// Calls the handlers of `events` in the order they were added (`sendActions(for:)`).
    public func sendActions(for events: Control.Event) {
        for action in actions where !action.events.isDisjoint(with: events) { action.handler(self) }
    }

    // MARK: Tracking (rule H6)

    /// A touch begins; return false to stop following it (it still ends with up events).
    open func beginTracking(_ touch: Touch, with event: Strata.Event?) -> Bool { true }
    /// The followed touch moved; return false to stop following it.
    open func continueTracking(_ touch: Touch, with event: Strata.Event?) -> Bool { true }
    /// The followed touch ended.
    open func endTracking(_ touch: Touch?, with event: Strata.Event?) {}
    /// The followed touch was cancelled.
    open func cancelTracking(with event: Strata.Event?) {}

    /// The state changed (enabled, selected, highlighted, focus): subclasses update their look here.
    open func stateDidChange() {}

    private func stateChanged() {
        accessibilityDidChange(.states)
        updateFocusRing()
        stateDidChange()
    }

    // MARK: Focus ring

    /// Drawn around the control while it has the keyboard focus.
    private lazy var focusRing: Layer = {
        let ring = Layer()
        ring.borderWidth = 2
        ring.actions = ["bounds": NullAction(), "position": NullAction()]
        return ring
    }()

    private func updateFocusRing() {
        guard isFirstResponder else {
            if focusRing.superlayer != nil { focusRing.removeFromSuperlayer() }
            return
        }
        focusRing.frame = bounds.insetBy(dx: -3, dy: -3)
        focusRing.cornerRadius = layer.cornerRadius + 3
        focusRing.borderColor = tintColor.withAlpha(0.6)
        if focusRing.superlayer == nil { layer.addSublayer(focusRing) }
    }

    override func boundsSizeDidChange() { updateFocusRing() }

    /// Whether a point (own coordinates) counts as inside for a followed touch.
    public func isInsideForTracking(_ point: Point) -> Bool {
        bounds.insetBy(dx: -Control.touchTolerance, dy: -Control.touchTolerance).contains(point)
    }

    open override func touchesBegan(_ touches: Set<Touch>, with event: Strata.Event?) {
        guard isEnabled, trackingTouch == nil, let touch = touches.first else { return }
        trackingTouch = touch
        isTouchInside = true
        isHighlighted = true
        isTracking = true
        sendActions(for: touch.tapCount > 1 ? [.touchDown, .touchDownRepeat] : .touchDown)
        isTracking = beginTracking(touch, with: event)
    }

    open override func touchesMoved(_ touches: Set<Touch>, with event: Strata.Event?) {
        guard let touch = trackingTouch, touches.contains(touch) else { return }
        let inside = isInsideForTracking(touch.location(in: self))
        let crossed = inside != isTouchInside
        isTouchInside = inside
        isHighlighted = inside
        if isTracking { isTracking = continueTracking(touch, with: event) }
        var events: Event = inside ? .touchDragInside : .touchDragOutside
        if crossed { events.insert(inside ? .touchDragEnter : .touchDragExit) }
        sendActions(for: events)
    }

    open override func touchesEnded(_ touches: Set<Touch>, with event: Strata.Event?) {
        guard let touch = trackingTouch, touches.contains(touch) else { return }
        finishTracking(touch, cancelled: false, event: event)
    }

    open override func touchesCancelled(_ touches: Set<Touch>, with event: Strata.Event?) {
        guard let touch = trackingTouch, touches.contains(touch) else { return }
        finishTracking(touch, cancelled: true, event: event)
    }

    private func finishTracking(_ touch: Touch, cancelled: Bool, event: Strata.Event?) {
        let inside = !cancelled && isInsideForTracking(touch.location(in: self))
        trackingTouch = nil
        isTouchInside = false
        isHighlighted = false
        if isTracking {
            if cancelled { cancelTracking(with: event) } else { endTracking(touch, with: event) }
        }
        isTracking = false
        if cancelled {
            sendActions(for: .touchCancel)
        } else {
            sendActions(for: inside ? .touchUpInside : .touchUpOutside)
            if inside { touchUpInsideTriggered() }
        }
    }

    /// A touch ended inside: buttons, switches and others act here.
    func touchUpInsideTriggered() {}

    // MARK: Keyboard (focus, Space and Return)

    open override var canBecomeFirstResponder: Bool { isEnabled && !isHidden && window != nil }

    @discardableResult
    open override func becomeFirstResponder() -> Bool {
        let became = super.becomeFirstResponder()
        if became { stateChanged() }
        return became
    }

    @discardableResult
    open override func resignFirstResponder() -> Bool {
        let was = isFirstResponder
        let resigned = super.resignFirstResponder()
        if resigned && was { stateChanged() }
        return resigned
    }

    /// Space and Return (and keypad Enter) press the control; other keys travel on.
    open override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isEnabled, let key = presses.first?.key, Control.activationKeys.contains(key.keysym) else {
            return super.pressesBegan(presses, with: event)
        }
        if presses.first?.isRepeat == false { isHighlighted = true }
    }

    open override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isEnabled, let key = presses.first?.key, Control.activationKeys.contains(key.keysym) else {
            return super.pressesEnded(presses, with: event)
        }
        guard isHighlighted else { return }
        isHighlighted = false
        keyboardActivated()
    }

    open override func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent?) {
        if let key = presses.first?.key, Control.activationKeys.contains(key.keysym) { isHighlighted = false }
        super.pressesCancelled(presses, with: event)
    }

    /// Space or Return released on the focused control: by default what a tap inside does.
    func keyboardActivated() {
        sendActions(for: .touchUpInside)
        touchUpInsideTriggered()
    }

    /// Space, Return, keypad Enter.
    static let activationKeys: Set<UInt32> = [0x0020, 0xff0d, 0xff8d]
}
