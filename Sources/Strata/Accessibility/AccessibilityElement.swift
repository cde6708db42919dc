/// An accessibility element that is not a view (`UIAccessibilityElement`): a
/// row of something drawn in one view, a bar of a chart. Give a container view
/// a list of them in ``View/accessibilityElements``; subclass to act on
/// activation or increments.
@MainActor
open class AccessibilityElement {
    var accessibility = AccessibilityAttributes()

    /// The view (or element) that holds this element (`accessibilityContainer`).
    public weak var accessibilityContainer: AnyObject?

    /// An element of `container` (`init(accessibilityContainer:)`).
    public init(accessibilityContainer container: AnyObject) {
        accessibilityContainer = container
    }

    /// Whether assistive technologies see it; true unless set otherwise.
    open var isAccessibilityElement: Bool {
        get { accessibility.isElement ?? true }
        set { accessibility.isElement = newValue }
    }
    /// What it is called (`accessibilityLabel`).
    open var accessibilityLabel: String? {
        get { accessibility.label }
        set { accessibility.label = newValue }
    }
    /// What activating it does, when not obvious (`accessibilityHint`).
    open var accessibilityHint: String? {
        get { accessibility.hint }
        set { accessibility.hint = newValue }
    }
    /// Its value as text (`accessibilityValue`).
    open var accessibilityValue: String? {
        get { accessibility.value }
        set { accessibility.value = newValue }
    }
    /// What it is and how it behaves (`accessibilityTraits`).
    open var accessibilityTraits: AccessibilityTraits {
        get { accessibility.traits ?? [] }
        set { accessibility.traits = newValue }
    }
    /// A name for tests and tools, never read to the person (`accessibilityIdentifier`).
    open var accessibilityIdentifier: String? {
        get { accessibility.identifier }
        set { accessibility.identifier = newValue }
    }
    /// The language of its label and value, a BCP 47 tag (`accessibilityLanguage`).
    open var accessibilityLanguage: String? {
        get { accessibility.language }
        set { accessibility.language = newValue }
    }
    /// Where it is in its container's coordinates
    /// (`accessibilityFrameInContainerSpace`): follows the container when it moves.
    open var accessibilityFrameInContainerSpace: Rect = .zero
    /// Where it is, in window coordinates (rule Y3; UIKit's are the screen's):
    /// set, else ``accessibilityFrameInContainerSpace`` through the container view.
    open var accessibilityFrame: Rect {
        get {
            if let frame = accessibility.frame { return frame }
            if let view = accessibilityContainer as? View { return view.convert(accessibilityFrameInContainerSpace, to: nil) }
            return accessibilityFrameInContainerSpace
        }
        set { accessibility.frame = newValue }
    }
    /// Actions beyond activating it (`accessibilityCustomActions`).
    open var accessibilityCustomActions: [AccessibilityCustomAction]? {
        get { accessibility.customActions }
        set { accessibility.customActions = newValue }
    }
    /// The kind of element it is beyond its traits (a menu item), for the toolkit's own elements.
    var accessibilityRole: AccessibilityRole? { nil }
    /// Whether it has the keyboard focus, for the toolkit's own elements (a highlighted menu item).
    var accessibilityIsFocused: Bool { false }
    /// Whether it can take the keyboard focus, for the toolkit's own elements.
    var accessibilityIsFocusable: Bool { false }
    /// Whether it is still there, beyond its container being shown (a list's
    /// row that was deleted is not).
    var accessibilityIsAttached: Bool { true }
    /// Whether it is in view (a list's row scrolled away is not).
    var accessibilityIsShowing: Bool { true }
    /// Whether it opens something (a submenu): nil when it does not, else whether it is open.
    var accessibilityIsExpanded: Bool? { nil }
    /// Toggles what it holds that is on or off (a row's switch).
    func accessibilityToggle() -> Bool { accessibilityActivate() }

    /// Activates it (`accessibilityActivate()`): return true when handled.
    open func accessibilityActivate() -> Bool { false }
    /// Steps an adjustable element up (`accessibilityIncrement()`).
    open func accessibilityIncrement() {}
    /// Steps an adjustable element down (`accessibilityDecrement()`).
    open func accessibilityDecrement() {}
}
