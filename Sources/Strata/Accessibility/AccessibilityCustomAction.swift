/// An action of an element beyond activating it (`UIAccessibilityCustomAction`),
/// such as "Delete" on a list row: exported as one more AT-SPI action by its name.
@MainActor
public final class AccessibilityCustomAction {
    /// The action's name, read to the person and used as the AT-SPI action's name.
    public var name: String
    /// Runs the action; returns whether it succeeded.
    public var actionHandler: (AccessibilityCustomAction) -> Bool

    /// An action called `name` that runs `actionHandler` (`init(name:actionHandler:)`).
    public init(name: String, actionHandler: @escaping (AccessibilityCustomAction) -> Bool) {
        self.name = name
        self.actionHandler = actionHandler
    }
}

/// Something an app tells assistive technologies (`UIAccessibility.Notification`),
/// with ``Accessibility/post(notification:argument:)``.
public enum AccessibilityNotification: Hashable, Sendable {
    /// Say the argument (a `String`) now (`announcement`).
    case announcement
    /// Part of the screen changed; the argument (an element, or nil) is where to go next (`layoutChanged`).
    case layoutChanged
    /// A new screen appeared; the argument (an element, or nil) is where to go next (`screenChanged`).
    case screenChanged
}
