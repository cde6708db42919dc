import CGio
import Dispatch

/// The events assistive technologies have asked the registry for
/// (`org.a11y.atspi.Registry`'s `GetRegisteredEvents`, kept up to date by its
/// `EventListenerRegistered`/`Deregistered` signals), so the exporter sends only
/// events someone listens to, as GTK's and Qt's bridges do. Until the registry
/// answers, or when it cannot say, every event is sent.
@MainActor
final class AtSpiEventListeners {
    /// One listener's event: `Category:Member:Detail` as the registry keeps it,
    /// an empty part matching anything, compared without case and dashes.
    struct Pattern: Hashable {
        var category: String
        var member: String
        var detail: String

        init(_ registered: String) {
            let parts = registered.split(separator: ":", omittingEmptySubsequences: false).map { Self.normalized(String($0)) }
            category = parts.first ?? ""
            member = parts.count > 1 ? parts[1] : ""
            detail = parts.count > 2 ? parts[2] : ""
        }

        func matches(category: String, member: String, detail: String) -> Bool {
            (self.category.isEmpty || self.category == category) && (self.member.isEmpty || self.member == member)
                && (self.detail.isEmpty || self.detail == detail)
        }

        /// "StateChanged", "state-changed" and "state_changed" are one name.
        static func normalized(_ name: String) -> String { name.lowercased().filter { $0 != "-" && $0 != "_" } }
    }

    /// Every bus's events; nil while the registry has not said.
    private(set) var registered: [String: Set<Pattern>]?
    private let watch: Watch

    init(bus: DBusConnection) {
        watch = Watch(bus: bus)
        watch.onList = { [weak self] list in
            var all: [String: Set<Pattern>] = [:]
            for (name, event) in list { all[name, default: []].insert(Pattern(event)) }
            self?.registered = all
        }
        watch.onChange = { [weak self] name, event, added in
            guard let self, registered != nil else { return }
            if added { registered![name, default: []].insert(Pattern(event)) } else { registered![name]?.remove(Pattern(event)) }
        }
        bus.perform { [watch] in watch.start() }
    }

    func stop() { watch.bus.performAndWait { [watch] in watch.stop() } }

    /// Whether anyone listens to the event `interface`'s `member` with `detail`
    /// (`org.a11y.atspi.Event.Object`, `StateChanged`, `focused`).
    func wants(_ interface: String, _ member: String, detail: String) -> Bool {
        guard let registered else { return true }
        let category = Pattern.normalized(String(interface.split(separator: ".").last ?? "")), member = Pattern.normalized(member)
        let detail = Pattern.normalized(detail)
        return registered.values.contains { $0.contains { $0.matches(category: category, member: member, detail: detail) } }
    }

    /// The registry calls and signals, on the bus thread.
    private final class Watch: @unchecked Sendable {
        let bus: DBusConnection
        var onList: (@MainActor ([(String, String)]) -> Void)?
        var onChange: (@MainActor (String, String, Bool) -> Void)?
        private var subscriptions: [guint] = []

        init(bus: DBusConnection) { self.bus = bus }

        func start() {
            // Subscribed before asking, so no change between the two is lost.
            for (member, added) in [("EventListenerRegistered", true), ("EventListenerDeregistered", false)] {
                let box = Unmanaged.passRetained(SignalBox(watch: self, added: added)).toOpaque()
                subscriptions.append(g_dbus_connection_signal_subscribe(bus.raw, "org.a11y.atspi.Registry", "org.a11y.atspi.Registry", member,
                                                                        "/org/a11y/atspi/registry", nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                    guard let parameters, let data, g_variant_n_children(parameters) >= 2 else { return }
                    let box = Unmanaged<SignalBox>.fromOpaque(data).takeUnretainedValue()
                    let name = Variant.string(parameters, 0), event = Variant.string(parameters, 1), added = box.added
                    DispatchQueue.main.async { MainActor.assumeIsolated { box.watch?.onChange?(name, event, added) } }
                }, box, { data in data.map { Unmanaged<SignalBox>.fromOpaque($0).release() } }))
            }
            g_dbus_connection_call(bus.raw, "org.a11y.atspi.Registry", "/org/a11y/atspi/registry", "org.a11y.atspi.Registry", "GetRegisteredEvents",
                                   nil, variantType("(a(ss))"), G_DBUS_CALL_FLAGS_NONE, 10_000, nil, { source, result, data in
                let watch = Unmanaged<Watch>.fromOpaque(data!).takeRetainedValue()
                // No answer (an old registry): every event stays wanted.
                guard let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) else { return }
                let array = g_variant_get_child_value(reply, 0)!
                var list: [(String, String)] = []
                for i in 0..<g_variant_n_children(array) {
                    let pair = g_variant_get_child_value(array, i)!
                    list.append((Variant.string(pair, 0), Variant.string(pair, 1)))
                    g_variant_unref(pair)
                }
                g_variant_unref(array)
                g_variant_unref(reply)
                DispatchQueue.main.async { MainActor.assumeIsolated { watch.onList?(list) } }
            }, Unmanaged.passRetained(self).toOpaque())
        }

        func stop() {
            for id in subscriptions { g_dbus_connection_signal_unsubscribe(bus.raw, id) }
            subscriptions = []
        }

        private final class SignalBox: @unchecked Sendable {
            weak var watch: Watch?
            let added: Bool
            init(watch: Watch, added: Bool) { self.watch = watch; self.added = added }
        }
    }
}
