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
/// and `org.gnome.desktop.a11y.interface` `high-contrast`. Keys it does not know,
/// and known keys with values of the wrong type, are ignored.
final class SettingsPortal: @unchecked Sendable {
    /// What the desktop says; nil where it says nothing.
    struct Settings: Equatable, Sendable {
        var colorScheme: UInt32?
        var gnomeColorScheme: String?
        var contrast: UInt32?
        var highContrast: Bool?
        var textScalingFactor: Double?
        var enableAnimations: Bool?

        /// The traits these settings give (unspecified where they say nothing).
        var traits: TraitCollection {
            var t = TraitCollection()
            switch colorScheme {
            case 1: t.userInterfaceStyle = .dark
            case 2: t.userInterfaceStyle = .light
            default: if let g = gnomeColorScheme { t.userInterfaceStyle = g == "prefer-dark" ? .dark : .light }
            }
            if contrast == 1 || highContrast == true { t.accessibilityContrast = .high } else if contrast != nil || highContrast != nil { t.accessibilityContrast = .normal }
            if let f = textScalingFactor { t.preferredContentSizeCategory = ContentSizeCategory(textScalingFactor: f) }
            return t
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
            case .noBus: "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus does not exist)"
            case let .unavailable(why): "the Settings portal did not answer: \(why)"
            }
        }
    }

    static let namespaces = ["org.freedesktop.appearance", "org.gnome.desktop.interface", "org.gnome.desktop.a11y.interface"]

    /// The settings as last read or changed, and whether a hop to main to tell of them is on its way.
    private let state = Mutex((settings: Settings(), changePending: false))
    /// Told on the main queue after each change (several changes in one turn of
    /// the loop arrive as one: the latest settings).
    private let onChange: @MainActor (Settings) -> Void
    private var context: OpaquePointer?
    private var loop: OpaquePointer?
    private var connection: OpaquePointer?
    private var subscription: guint = 0
    private var thread: pthread_t?

    init(onChange: @escaping @MainActor (Settings) -> Void) {
        self.onChange = onChange
    }

    deinit { stop() }

    /// The session bus's address, without GLib's X11 autolaunch (which would start a bus).
    static func sessionBusAddress(environment: [String: String]) -> String? {
        if let a = environment["DBUS_SESSION_BUS_ADDRESS"], !a.isEmpty { return a }
        if let dir = environment["XDG_RUNTIME_DIR"], access(dir + "/bus", F_OK) == 0 { return "unix:path=" + dir + "/bus" }
        return nil
    }

    /// Connects, reads every setting (waiting at most `timeout` seconds) and
    /// starts following changes. Returns what it read.
    func start(address: String?, timeout: Double = 1) throws(PortalError) -> Settings {
        guard let address else { throw .noBus }
        var error: UnsafeMutablePointer<GError>?
        let context = g_main_context_new()
        self.context = context
        g_main_context_push_thread_default(context)
        defer { g_main_context_pop_thread_default(context) }
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let c = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            let why = Self.take(error)
            stop()
            throw .unavailable(why)
        }
        connection = c
        g_dbus_connection_set_exit_on_close(c, 0)
        // Subscribe first, so no change between the read and the subscription is lost.
        subscription = g_dbus_connection_signal_subscribe(c, "org.freedesktop.portal.Desktop", "org.freedesktop.portal.Settings", "SettingChanged",
                                                          "/org/freedesktop/portal/desktop", nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
            guard let data, let parameters else { return }
            Unmanaged<SettingsPortal>.fromOpaque(data).takeUnretainedValue().changed(parameters)
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        var names = Self.namespaces.map { g_variant_new_string($0) }
        let array = g_variant_new_array(variantType("s"), &names, gsize(names.count))
        var args: [OpaquePointer?] = [array]
        guard let answer = g_dbus_connection_call_sync(c, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop",
                                                       "org.freedesktop.portal.Settings", "ReadAll", g_variant_new_tuple(&args, 1),
                                                       nil, G_DBUS_CALL_FLAGS_NONE, gint(max(1, min(30_000, timeout * 1000))), nil, &error) else {
            let why = Self.take(error)
            stop()
            throw .unavailable(why)
        }
        defer { g_variant_unref(answer) }
        var read = Settings()
        if String(cString: g_variant_get_type_string(answer)) == "(a{sa{sv}})" {
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
        }
        state.withLock { $0.settings = read }
        let loop = g_main_loop_new(context, 0)
        self.loop = loop
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        pthread_create(&thread, nil, { raw in
            let portal = Unmanaged<SettingsPortal>.fromOpaque(raw!).takeRetainedValue()
            g_main_context_push_thread_default(portal.context)
            g_main_loop_run(portal.loop)
            g_main_context_pop_thread_default(portal.context)
            return nil
        }, box)
        self.thread = thread
        return read
    }

    /// Stops following: the loop ends (its thread is joined), then the connection closes.
    func stop() {
        if let connection, subscription != 0 { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        subscription = 0
        if let loop { g_main_loop_quit(loop) }
        if let thread, pthread_equal(thread, pthread_self()) == 0 { pthread_join(thread, nil) }
        thread = nil
        if let loop { g_main_loop_unref(loop) }
        loop = nil
        if let connection { g_dbus_connection_close_sync(connection, nil, nil); g_object_unref(UnsafeMutableRawPointer(connection)) }
        connection = nil
        if let context { g_main_context_unref(context) }
        context = nil
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

    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { if let error { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }
}
