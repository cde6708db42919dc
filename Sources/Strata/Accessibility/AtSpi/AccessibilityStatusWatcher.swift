import CGio
import Dispatch
import LayerKit

/// Watches whether an assistive technology wants the desktop's apps
/// (`org.a11y.Status`'s `IsEnabled` and `ScreenReaderEnabled` on the session
/// bus's `org.a11y.Bus`) and exports the app over AT-SPI only while it does:
/// until then no accessibility bus connection exists and nothing is sent. Orca
/// sets `ScreenReaderEnabled` when it starts; accerciser and test tools set
/// `IsEnabled`.
@MainActor
final class AccessibilityStatusWatcher {
    private let session: DBusConnection
    private let watch: Watch
    private(set) var exporter: AtSpiExporter?
    /// Told when the export starts or stops.
    var onChange: (() -> Void)?
    private var wanted = false

    /// Watches on the bus at `address` (nil: the session bus); nil when there is
    /// no bus, after one diagnostic (the app runs as before).
    init?(address: String?) {
        do { session = try DBusConnection(address: address) } catch {
            Diagnostics.report(.invalidView("accessibility: no session bus to find assistive technologies on (\(error)); nothing is exported"))
            return nil
        }
        watch = Watch(bus: session)
        watch.changed = { [weak self] enabled in self?.statusChanged(enabled) }
        session.perform { [watch] in watch.start() }
    }

    func stop() {
        exporter?.stop()
        exporter = nil
        session.performAndWait { [watch] in watch.stop() }
        session.close()
    }

    private func statusChanged(_ enabled: Bool) {
        guard enabled != wanted else { return }
        wanted = enabled
        if !enabled {
            exporter?.stop()
            exporter = nil
            onChange?()
            return
        }
        session.perform { [session, weak self] in
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_sync(session.raw, "org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress", nil,
                                                    variantType("(s)"), G_DBUS_CALL_FLAGS_NONE, 10_000, nil, &error)
            let address: Result<String, DBusConnection.ConnectError>
            if let reply {
                address = .success(Variant.string(reply, 0))
                g_variant_unref(reply)
            } else {
                address = .failure(.failed(DBusConnection.message(error)))
            }
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.connect(address) } }
        }
    }

    private func connect(_ address: Result<String, DBusConnection.ConnectError>) {
        guard wanted, exporter == nil else { return }
        do {
            exporter = try AtSpiExporter(address: address.get())
            onChange?()
        } catch {
            Diagnostics.report(.invalidView("accessibility: cannot reach the accessibility bus (\(error)); nothing is exported"))
        }
    }

    /// The status subscription, on the bus thread.
    private final class Watch: @unchecked Sendable {
        let bus: DBusConnection
        var changed: (@MainActor (Bool) -> Void)?
        private var subscription: guint = 0
        private var isEnabled = false, screenReaderEnabled = false

        init(bus: DBusConnection) { self.bus = bus }

        func start() {
            subscription = g_dbus_connection_signal_subscribe(bus.raw, "org.a11y.Bus", "org.freedesktop.DBus.Properties", "PropertiesChanged",
                                                              "/org/a11y/bus", "org.a11y.Status", G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                guard let parameters, let data else { return }
                let watch = Unmanaged<Watch>.fromOpaque(data).takeUnretainedValue()
                let changed = g_variant_get_child_value(parameters, 1)!
                watch.read(changed)
                g_variant_unref(changed)
                watch.tell()
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
            var arguments: [OpaquePointer?] = [g_variant_new_string("org.a11y.Status")]
            g_dbus_connection_call(bus.raw, "org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties", "GetAll",
                                   g_variant_new_tuple(&arguments, 1), variantType("(a{sv})"), G_DBUS_CALL_FLAGS_NONE, 10_000, nil, { source, result, data in
                let watch = Unmanaged<Watch>.fromOpaque(data!).takeRetainedValue()
                guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) else { return }   // no at-spi here: nothing to do
                let all = g_variant_get_child_value(reply, 0)!
                watch.read(all)
                g_variant_unref(all)
                g_variant_unref(reply)
                watch.tell()
            }, Unmanaged.passRetained(self).toOpaque())
        }

        func stop() {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(bus.raw, subscription) }
            subscription = 0
        }

        /// Takes `IsEnabled` and `ScreenReaderEnabled` from an `a{sv}`; values of another type are ignored.
        private func read(_ dictionary: OpaquePointer) {
            for (key, keep) in [("IsEnabled", { (v: Bool) in self.isEnabled = v }), ("ScreenReaderEnabled", { (v: Bool) in self.screenReaderEnabled = v })] {
                guard let value = g_variant_lookup_value(dictionary, key, variantType("b")) else { continue }
                keep(g_variant_get_boolean(value) != 0)
                g_variant_unref(value)
            }
        }

        private func tell() {
            let enabled = isEnabled || screenReaderEnabled
            DispatchQueue.main.async { MainActor.assumeIsolated { self.changed?(enabled) } }
        }
    }
}
