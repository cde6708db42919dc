extension View {
    /// Whether this view, not being an element, is a node of its own holding its
    /// elements: a list, a scroll pane, a group.
    var isAccessibilityContainerNode: Bool {
        accessibilityContainerType != .none || shouldGroupAccessibilityChildren || (!isAccessibilityElement && accessibilityRole != nil)
    }

    /// A notification container came into a window: a screen reader is told it
    /// appeared (in a window not shown yet, it is told again when the window shows).
    func tellIfNotificationAppeared() {
        if accessibilityContainerType == .notification { accessibilityDidChange(.appeared) }
    }

    /// The notification containers here and below came into view with their
    /// window (ones added to a shown window tell it as they join).
    func tellNotificationsAppeared() {
        tellIfNotificationAppeared()
        for view in subviews { view.tellNotificationsAppeared() }
    }

    /// Something about the element changed: the app's exporter, when one runs,
    /// sends the event at the end of the turn.
    /// A view inside an element speaks through that element (a row's switch
    /// checks the row).
    func accessibilityDidChange(_ change: AccessibilityChange) {
        guard let exporter = Application.shared.accessibilityExporter else { return }
        var source: View = self
        var ancestor = superview
        while let view = ancestor {
            if view.isAccessibilityElement { source = view }
            ancestor = view.superview
        }
        if let object = source.accessibilityEventSource { exporter.changed(object, change) }
    }
}
