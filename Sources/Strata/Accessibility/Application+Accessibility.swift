extension Application {
    /// Exports the app to assistive technologies (Orca, accerciser) over AT-SPI
    /// whenever one asks, from now on (rules Y1–Y4): watches `org.a11y.Status`
    /// on the session bus at `busAddress` (nil: `DBUS_SESSION_BUS_ADDRESS`).
    /// ``connect(socket:)`` calls it unless ``exportsAccessibility`` is false.
    /// With no bus there is one diagnostic and the app runs as before.
    public func followAccessibilityStatus(busAddress: String? = nil) {
        accessibilityWatcher?.stop()
        accessibilityWatcher = AccessibilityStatusWatcher(address: busAddress)
    }

    /// Whether the app is exported to assistive technologies now: one asked,
    /// and the accessibility bus took the app in.
    public var isAccessibilityExported: Bool { accessibilityExporter != nil }

    /// The export, while an assistive technology asks for it.
    var accessibilityExporter: AtSpiExporter? { accessibilityWatcher?.exporter }
}
