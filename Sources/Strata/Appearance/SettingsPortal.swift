import CGio
import Dispatch
import Glibc
import LayerKit
import Synchronization

/// The desktop's appearance settings as xdg-desktop-portal's Settings interface
/// serves them (`org.freedesktop.portal.Settings`: `ReadAll` once, then
/// `SettingChanged`), on a GLib main loop of its own thread; changes arrive on
/// the main queue. GTK 4 and Qt read the same keys.
///
/// Keys read: `org.freedesktop.appearance` `color-scheme` (0 no preference,
/// 1 dark, 2 light) and `contrast` (1 high); GNOME's `org.gnome.desktop.interface`
/// `color-scheme` (`prefer-dark`), `text-scaling-factor` and `enable-animations`,
/// `org.gnome.desktop.a11y.interface` `high-contrast`, and KDE's window background
/// (`org.kde.kdeglobals.Colors:Window` `BackgroundNormal`, what KDE apps paint
/// with: dark when its luminance is under a half). Keys it does not know, and
/// known keys with values of the wrong type, are ignored. KDE's backend (5.27)
/// serves no contrast setting.
final class SettingsPortal: @unchecked Sendable {
    /// What the desktop says; nil where it says nothing.
    struct Settings: Equatable, Sendable {
        var colorScheme: UInt32?
        var gnomeColorScheme: String?
        var contrast: UInt32?
        var highContrast: Bool?
        var textScalingFactor: Double?
        var enableAnimations: Bool?
        /// KDE's window background, `r,g,b` (0–255).
        var kdeWindowBackground: String?

        /// Whether KDE's window background is dark; nil when it says nothing readable.
        var kdeIsDark: Bool? {
            guard let parts = kdeWindowBackground?.split(separator: ",").map({ Double($0.filter { !$0.isWhitespace }) }),
                  parts.count >= 3, let r = parts[0], let g = parts[1], let b = parts[2] else { return nil }
            return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255 < 0.5
        }

        /// The traits these settings give (unspecified where they say nothing).
        var traits: TraitCollection {
            var t = TraitCollection()
            // KDE's colours first: its backend reports a colour scheme only through
            // its own palette, which a backend without Plasma's theme computes light.
            if let dark = kdeIsDark {
                t.userInterfaceStyle = dark ? .dark : .light
            } else if colorScheme == 1 || colorScheme == 2 {
                t.userInterfaceStyle = colorScheme == 1 ? .dark : .light
            } else if let g = gnomeColorScheme {
                t.userInterfaceStyle = g == "prefer-dark" ? .dark : .light
            }
            if contrast == 1 || highContrast == true { t.accessibilityContrast = .high } else if contrast != nil || highContrast != nil { t.accessibilityContrast = .normal }
            if let f = textScalingFactor { t.preferredContentSizeCategory = ContentSizeCategory(textScalingFactor: f) }
            return t
        }

        /// GNOME's settings read directly through GSettings (what the GTK backend
        /// would serve), for a session with no portal: nil when their schemas are
        /// not installed or the only backend is GSettings' in-memory one (nothing
        /// the person set). `backend`: another backend (a test's keyfile).
        static func readGSettings(backend: UnsafeMutablePointer<GSettingsBackend>? = nil) -> Settings? {
            guard let source = g_settings_schema_source_get_default() else { return nil }
            if backend == nil, let b = g_settings_backend_get_default() {
                let type = String(cString: g_type_name_from_instance(UnsafeMutablePointer<GTypeInstance>(OpaquePointer(b))))
                g_object_unref(UnsafeMutableRawPointer(b))
                if type == "GMemorySettingsBackend" { return nil }
            }
            var settings = Settings(), found = false
            for (id, keys) in [("org.gnome.desktop.interface", ["color-scheme", "text-scaling-factor", "enable-animations"]),
                               ("org.gnome.desktop.a11y.interface", ["high-contrast"])] {
                guard let schema = g_settings_schema_source_lookup(source, id, 1) else { continue }
                defer { g_settings_schema_unref(schema) }
                let object = g_settings_new_full(schema, backend, nil)
                defer { g_object_unref(UnsafeMutableRawPointer(object)) }
                for key in keys where g_settings_schema_has_key(schema, key) != 0 {
                    guard let value = g_settings_get_value(object, key) else { continue }
                    if settings.take(namespace: id, key: key, value: value) { found = true }
                    g_variant_unref(value)
                }
            }
            return found ? settings : nil
        }

        /// Takes one setting; false when the key is unknown or its value has another type.
        mutating func take(namespace: String, key: String, value: OpaquePointer) -> Bool {
            let type = String(cString: g_variant_get_type_string(value))
            switch (namespace, key, type) {
            case ("org.freedesktop.appearance", "color-scheme", "u"): colorScheme = g_variant_get_uint32(value)
            case ("org.freedesktop.appearance", "contrast", "u"): contrast = g_variant_get_uint32(value)
            case ("org.gnome.desktop.interface", "color-scheme", "s"): gnomeColorScheme = String(cString: g_variant_get_string(value, nil))
            case ("org.gnome.desktop.interface", "text-scaling-factor", "d"):
                let f = g_variant_get_double(value)
                textScalingFactor = f.isFinite && f > 0 ? f : nil
            case ("org.gnome.desktop.interface", "enable-animations", "b"): enableAnimations = g_variant_get_boolean(value) != 0
            case ("org.gnome.desktop.a11y.interface", "high-contrast", "b"): highContrast = g_variant_get_boolean(value) != 0
            case ("org.kde.kdeglobals.Colors:Window", "BackgroundNormal", "s"): kdeWindowBackground = String(cString: g_variant_get_string(value, nil))
            default: return false
            }
            return true
        }
    }

    /// Why the portal could not be read.
    enum PortalError: Error, CustomStringConvertible {
        case noBus
        case unavailable(String)
        var description: String {
            switch self {
            case .noBus: DBusConnection.ConnectError.noBus.description
            case let .unavailable(why): "the Settings portal did not answer: \(why)"
            }
        }
    }

    static let namespaces = ["org.freedesktop.appearance", "org.gnome.desktop.interface", "org.gnome.desktop.a11y.interface", "org.kde.kdeglobals.Colors:Window"]

    /// The settings as last read or changed, and whether a hop to main to tell of them is on its way.
    private let state = Mutex((settings: Settings(), changePending: false))
    /// Told on the main queue after each change (several changes in one turn of
    /// the loop arrive as one: the latest settings).
    private let onChange: @MainActor (Settings) -> Void
    private var bus: DBusConnection?
    private var subscription: guint = 0

    init(onChange: @escaping @MainActor (Settings) -> Void) {
        self.onChange = onChange
    }

    deinit { stop() }

    /// Connects, reads every setting (waiting at most `timeout` seconds) and
    /// starts following changes. Returns what it read.
    func start(address: String?, timeout: Double = 1) throws(PortalError) -> Settings {
        let bus: DBusConnection
        do { bus = try DBusConnection(address: address) } catch .noBus { throw .noBus } catch { throw .unavailable(error.description) }
        self.bus = bus
        let read: Result<Settings, PortalError> = bus.performAndWait { [self] in
            // Subscribe first, so no change between the read and the subscription is lost.
            subscription = g_dbus_connection_signal_subscribe(bus.raw, "org.freedesktop.portal.Desktop", "org.freedesktop.portal.Settings", "SettingChanged",
                                                              "/org/freedesktop/portal/desktop", nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                guard let data, let parameters else { return }
                Unmanaged<SettingsPortal>.fromOpaque(data).takeUnretainedValue().changed(parameters)
            }, Unmanaged.passUnretained(self).toOpaque(), nil)
            return readAll(bus, timeout: timeout)
        }
        do {
            let settings = try read.get()
            state.withLock { $0.settings = settings }
            return settings
        } catch {
            stop()
            throw error
        }
    }

    /// `ReadAll` of the namespaces this reads (on the bus thread).
    private func readAll(_ bus: DBusConnection, timeout: Double) -> Result<Settings, PortalError> {
        var error: UnsafeMutablePointer<GError>?
        var names = Self.namespaces.map { g_variant_new_string($0) }
        let array = g_variant_new_array(variantType("s"), &names, gsize(names.count))
        var args: [OpaquePointer?] = [array]
        guard let answer = g_dbus_connection_call_sync(bus.raw, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                                       "org.freedesktop.portal.Settings", "ReadAll", g_variant_new_tuple(&args, 1),
                                                       nil, G_DBUS_CALL_FLAGS_NONE, gint(max(1, min(30_000, timeout * 1000))), nil, &error) else {
            return .failure(.unavailable(DBusConnection.message(error)))
        }
        defer { g_variant_unref(answer) }
        var read = Settings()
        guard String(cString: g_variant_get_type_string(answer)) == "(a{sa{sv}})" else { return .success(read) }
        let all = g_variant_get_child_value(answer, 0)
        defer { g_variant_unref(all) }
        for i in 0..<g_variant_n_children(all) {
            let entry = g_variant_get_child_value(all, i)
            defer { g_variant_unref(entry) }
            let ns = g_variant_get_child_value(entry, 0), keys = g_variant_get_child_value(entry, 1)
            defer { g_variant_unref(ns); g_variant_unref(keys) }
            let namespace = String(cString: g_variant_get_string(ns, nil))
            for j in 0..<g_variant_n_children(keys) {
                let pair = g_variant_get_child_value(keys, j)
                let k = g_variant_get_child_value(pair, 0), boxed = g_variant_get_child_value(pair, 1)
                let value = g_variant_get_variant(boxed)
                _ = read.take(namespace: namespace, key: String(cString: g_variant_get_string(k, nil)), value: value!)
                g_variant_unref(value); g_variant_unref(boxed); g_variant_unref(k); g_variant_unref(pair)
            }
        }
        return .success(read)
    }

    /// Stops following: the subscription ends on the bus thread, then the loop and the connection.
    func stop() {
        guard let bus else { return }
        let subscription = subscription
        if subscription != 0 { bus.performAndWait { g_dbus_connection_signal_unsubscribe(bus.raw, subscription) } }
        self.subscription = 0
        bus.close()
        self.bus = nil
    }

    /// `SettingChanged (s namespace, s key, v value)`, on the portal's thread.
    private func changed(_ parameters: OpaquePointer) {
        guard String(cString: g_variant_get_type_string(parameters)) == "(ssv)" else { return }
        let ns = g_variant_get_child_value(parameters, 0), k = g_variant_get_child_value(parameters, 1), boxed = g_variant_get_child_value(parameters, 2)
        defer { g_variant_unref(ns); g_variant_unref(k); g_variant_unref(boxed) }
        guard let value = g_variant_get_variant(boxed) else { return }
        defer { g_variant_unref(value) }
        let namespace = String(cString: g_variant_get_string(ns, nil)), key = String(cString: g_variant_get_string(k, nil))
        let notify: Bool = state.withLock { state in
            guard state.settings.take(namespace: namespace, key: key, value: value) else { return false }
            let first = !state.changePending
            state.changePending = true
            return first
        }
        guard notify else { return }   // a hop to main is on its way: it reads the latest
        let onChange = onChange
        DispatchQueue.main.async { [self] in
            let latest = state.withLock { $0.changePending = false; return $0.settings }
            MainActor.assumeIsolated { onChange(latest) }
        }
    }
}
