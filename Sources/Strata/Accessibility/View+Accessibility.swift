extension View {
    /// Whether this view, not being an element, is a node of its own holding its
    /// elements: a list, a scroll pane, a group.
    var isAccessibilityContainerNode: Bool {
        accessibilityContainerType != .none || shouldGroupAccessibilityChildren || (!isAccessibilityElement && accessibilityRole != nil)
    }

    /// Something about the element changed: the app's exporter, when one runs,
    /// sends the event at the end of the turn.
    func accessibilityDidChange(_ change: AccessibilityChange) {
        Application.shared.accessibilityExporter?.changed(self, change)
    }
}
