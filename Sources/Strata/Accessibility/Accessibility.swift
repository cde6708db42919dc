import LayerKit

/// The system's accessibility settings (`UIAccessibility`), for the current
/// context: the app's, or a test's own. Global in UIKit; here they belong to
/// the ``LayerContext`` the code runs in, which the Settings portal keeps up to
/// date for the app (``Application/followSystemAppearance(busAddress:timeout:)``).
@MainActor
public enum Accessibility {
    /// Whether the person asked for less motion (`isReduceMotionEnabled`):
    /// the toolkit's decorative motion becomes a cross-fade or a jump (rule P4).
    public static var isReduceMotionEnabled: Bool { LayerContext.current.systemReducesMotion }

    /// Whether the person asked for more contrast (`isDarkerSystemColorsEnabled`):
    /// the system colours take their high-contrast values.
    public static var isDarkerSystemColorsEnabled: Bool { LayerContext.current.systemTraits.accessibilityContrast == .high }

    /// Tells assistive technologies something (`UIAccessibility.post(notification:argument:)`):
    /// an ``AccessibilityNotification/announcement`` says its `String` argument;
    /// a layout or screen change has them read the window again, and with an
    /// element (a view, a list's cell, an ``AccessibilityElement``) as the argument
    /// the screen reader goes to that element and reads it, as VoiceOver does —
    /// told as AT-SPI's active descendant of what has the focus, so the keyboard
    /// stays where it is (a search field whose suggestions are chosen with the
    /// arrows). Nothing happens while no assistive technology listens.
    public static func post(notification: AccessibilityNotification, argument: Any?) {
        guard let exporter = Application.shared.accessibilityExporter else { return }
        switch notification {
        case .announcement: if let text = argument as? String { exporter.announce(text) }
        case .layoutChanged, .screenChanged:
            if notification == .screenChanged || argument == nil { exporter.windowsChanged() }
            if let target = node(for: argument) { exporter.moveReader(to: target) }
        }
    }

    /// The node standing for a notification's argument: a list's cell reads as its row's element.
    private static func node(for argument: Any?) -> AccessibilityNode? {
        switch argument {
        case let cell as ListCell: cell.list.map { .element($0.rowElement(cell.row)) }
        case let element as AccessibilityElement: .element(element)
        case let view as View: .view(view)
        default: nil
        }
    }
}
