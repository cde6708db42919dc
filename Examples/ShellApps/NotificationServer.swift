import CGio
import Dispatch
import Glibc
import Strata

/// The freedesktop Notifications interface (`org.freedesktop.Notifications` at
/// `/org/freedesktop/Notifications`) served on a D-Bus bus through GLib's GDBus,
/// on the bus connection's own GLib thread. Calls reach ``onCall`` on
/// the main actor; replies and signals may be sent from there.
public final class NotificationServer: @unchecked Sendable {
    public static let busName = "org.freedesktop.Notifications"
    static let objectPath = "/org/freedesktop/Notifications"

    /// A `Notify` call's arguments.
    public struct Request: Sendable {
        public var appName: String
        public var replacesID: UInt32
        public var appIcon: String
        public var summary: String
        public var body: String
        /// Pairs of action key and label, flattened as the specification sends them.
        public var actions: [String]
        /// The `urgency` hint: 0 low, 1 normal, 2 critical.
        public var urgency: UInt8
        /// The `image-path` hint.
        public var imagePath: String?
        public var expireTimeout: Int32
        public init(appName: String = "", replacesID: UInt32 = 0, appIcon: String = "", summary: String, body: String = "",
                    actions: [String] = [], urgency: UInt8 = 1, imagePath: String? = nil, expireTimeout: Int32 = -1) {
            (self.appName, self.replacesID, self.appIcon, self.summary, self.body) = (appName, replacesID, appIcon, summary, body)
            (self.actions, self.urgency, self.imagePath, self.expireTimeout) = (actions, urgency, imagePath, expireTimeout)
        }
    }

    /// A call from a client.
    public enum Call: Sendable {
        /// `Notify`: answer with the notification's ID.
        case notify(Request, reply: Reply<UInt32>)
        /// `CloseNotification`: answer true when it existed (an error goes back otherwise, as the specification says).
        case close(UInt32, reply: Reply<Bool>)
    }

    /// Sends one answer to a waiting call (from any thread).
    public struct Reply<Value>: @unchecked Sendable {
        let send: (Value) -> Void
        public func callAsFunction(_ value: Value) { send(value) }
    }

    /// Why the server could not start.
    public enum StartError: Error, CustomStringConvertible {
        case bus(String)
        case nameTaken
        public var description: String {
            switch self {
            case let .bus(why): "cannot use the session bus: \(why)"
            case .nameTaken: "another notification daemon owns \(NotificationServer.busName) on this bus"
            }
        }
    }

    /// The capabilities `GetCapabilities` answers.
    public var capabilities = ["body", "body-markup", "actions", "icon-static", "persistence"]
    /// Receives the calls, on the main actor.
    public let onCall: @MainActor (Call) -> Void
    /// Told, on the main actor, when the bus closes the connection (the session ended).
    public var onClosed: (@MainActor () -> Void)?

    private var bus: DBusConnection?
    private var registration: guint = 0
    private var vtable = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)

    public init(onCall: @escaping @MainActor (Call) -> Void) {
        self.onCall = onCall
    }

    deinit {
        stop()
        vtable.deallocate()
    }

    /// Connects to the bus at `address` (default: the session bus), takes the
    /// name and serves it; throws when the bus cannot be reached or another daemon owns the name.
    public func start(address: String? = nil) throws(StartError) {
        let bus: DBusConnection
        do { bus = try DBusConnection(address: address, onClosed: { [weak self] in self?.onClosed?() }) } catch { throw .bus(error.description) }
        self.bus = bus
        let served: Result<Void, StartError> = bus.performAndWait { [self] in serve(on: bus) }
        do { try served.get() } catch {
            stop()
            throw error
        }
    }

    /// Registers the object and takes the name (on the bus thread).
    private func serve(on bus: DBusConnection) -> Result<Void, StartError> {
        var error: UnsafeMutablePointer<GError>?
        guard let node = g_dbus_node_info_new_for_xml(Self.introspection, &error) else { return .failure(.bus(DBusConnection.message(error))) }
        defer { g_dbus_node_info_unref(node) }
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = { _, _, _, _, method, parameters, invocation, data in
            guard let data, let method, let invocation else { return }
            Unmanaged<NotificationServer>.fromOpaque(data).takeUnretainedValue()
                .handle(String(cString: method), parameters, invocation)
        }
        registration = g_dbus_connection_register_object(bus.raw, Self.objectPath, node.pointee.interfaces[0], vtable,
                                                         Unmanaged.passUnretained(self).toOpaque(), nil, &error)
        guard registration != 0 else { return .failure(.bus(DBusConnection.message(error))) }
        switch bus.requestName(Self.busName) {
        case .success(true): return .success(())
        case .success(false): return .failure(.nameTaken)
        case let .failure(why): return .failure(.bus(why.description))
        }
    }

    /// Stops serving (the bus drops the name when the connection closes).
    public func stop() {
        guard let bus else { return }
        let registration = registration
        if registration != 0 { bus.performAndWait { _ = g_dbus_connection_unregister_object(bus.raw, registration) } }
        self.registration = 0
        bus.close()
        self.bus = nil
    }

    /// `NotificationClosed(id, reason)`: 1 expired, 2 dismissed by the user, 3 closed by a call, 4 undefined.
    public func notificationClosed(_ id: UInt32, reason: UInt32) {
        emit("NotificationClosed", [g_variant_new_uint32(id), g_variant_new_uint32(reason)])
    }

    /// `ActionInvoked(id, action_key)`.
    public func actionInvoked(_ id: UInt32, key: String) {
        emit("ActionInvoked", [g_variant_new_uint32(id), g_variant_new_string(key)])
    }

    private func emit(_ signal: String, _ values: [OpaquePointer?]) {
        guard let c = bus?.raw else { return }
        var args = values
        // Queued; GDBus's own thread writes it (no waiting on the main thread).
        g_dbus_connection_emit_signal(c, nil, Self.objectPath, Self.busName, signal, g_variant_new_tuple(&args, gsize(args.count)), nil)
    }

    // MARK: Calls, on the GLib thread

    private func handle(_ method: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer) {
        let inv = invocation
        switch method {
        case "GetCapabilities":
            var strings = capabilities.map { strdup($0) }
            defer { strings.forEach { free($0) } }
            let list = strings.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<gchar>?.self, capacity: buffer.count) {
                    g_variant_new_strv($0, gssize(buffer.count))
                }
            }
            Self.reply(inv, [list])
        case "GetServerInformation":
            Self.reply(inv, ["strata-notifyd", "Strata", "1.0", "1.2"].map { (s: String) in g_variant_new_string(s) })
        case "Notify":
            guard let p = parameters, g_variant_n_children(p) == 8 else { return Self.fail(inv, "Notify takes (susssasa{sv}i)") }
            var request = Request(summary: "")
            request.appName = Self.string(p, 0)
            request.replacesID = Self.child(p, 1, g_variant_get_uint32)
            request.appIcon = Self.string(p, 2)
            request.summary = Self.string(p, 3)
            request.body = Self.string(p, 4)
            request.actions = Self.child(p, 5) { actions in (0..<Int(g_variant_n_children(actions))).map { Self.string(actions, $0) } }
            Self.child(p, 6) { hints in
                for i in 0..<Int(g_variant_n_children(hints)) {
                    Self.child(hints, i) { entry in
                        let key = Self.string(entry, 0)
                        Self.child(entry, 1) { boxed in
                            let value = g_variant_get_variant(boxed)
                            defer { g_variant_unref(value) }
                            switch (key, String(cString: g_variant_get_type_string(value))) {
                            case ("urgency", "y"): request.urgency = g_variant_get_byte(value)
                            case ("urgency", "u"), ("urgency", "i"): request.urgency = UInt8(clamping: g_variant_get_int32(value))
                            case ("image-path", "s"), ("image_path", "s"): request.imagePath = String(cString: g_variant_get_string(value, nil))
                            default: break
                            }
                        }
                    }
                }
            }
            request.expireTimeout = Self.child(p, 7, g_variant_get_int32)
            let call = Call.notify(request, reply: Reply { id in Self.reply(inv, [g_variant_new_uint32(id)]) })
            deliver(call)
        case "CloseNotification":
            guard let p = parameters, g_variant_n_children(p) == 1 else { return Self.fail(inv, "CloseNotification takes (u)") }
            let id = Self.child(p, 0, g_variant_get_uint32)
            deliver(.close(id, reply: Reply { existed in
                if existed { Self.reply(inv, []) } else { Self.fail(inv, "no notification \(id)") }
            }))
        default:
            Self.fail(inv, "no method \(method)")
        }
    }

    private func deliver(_ call: Call) {
        let onCall = onCall
        DispatchQueue.main.async { MainActor.assumeIsolated { onCall(call) } }
    }

    /// `body` over child `i` of a container value (released afterwards).
    @discardableResult
    private static func child<T>(_ v: OpaquePointer?, _ i: Int, _ body: (OpaquePointer?) -> T) -> T {
        let child = g_variant_get_child_value(v, gsize(i))
        defer { g_variant_unref(child) }
        return body(child)
    }

    private static func string(_ v: OpaquePointer?, _ i: Int) -> String {
        child(v, i) { String(cString: g_variant_get_string($0, nil)) }
    }

    private static func reply(_ inv: OpaquePointer, _ values: [OpaquePointer?]) {
        var args = values
        g_dbus_method_invocation_return_value(inv, g_variant_new_tuple(&args, gsize(args.count)))
    }

    private static func fail(_ inv: OpaquePointer, _ message: String) {
        g_dbus_method_invocation_return_dbus_error(inv, "org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    /// The interface's methods and signals (the specification's signatures).
    static let introspection = """
    <node><interface name="org.freedesktop.Notifications">
      <method name="GetCapabilities"><arg direction="out" type="as"/></method>
      <method name="Notify"><arg direction="in" type="s"/><arg direction="in" type="u"/><arg direction="in" type="s"/>
        <arg direction="in" type="s"/><arg direction="in" type="s"/><arg direction="in" type="as"/>
        <arg direction="in" type="a{sv}"/><arg direction="in" type="i"/><arg direction="out" type="u"/></method>
      <method name="CloseNotification"><arg direction="in" type="u"/></method>
      <method name="GetServerInformation"><arg direction="out" type="s"/><arg direction="out" type="s"/>
        <arg direction="out" type="s"/><arg direction="out" type="s"/></method>
      <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
      <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
    </interface></node>
    """
}

