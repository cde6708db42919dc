import CGio
import Dispatch
import LayerKit

/// The app's windows and views exported over AT-SPI 2 on the accessibility bus
/// (rules Y1–Y4), the way GTK 4 and Qt export theirs: the application object at
/// `/org/a11y/atspi/accessible/root`, embedded in the registry; every node at
/// `/org/a11y/atspi/accessible/N`. Calls arrive on the bus's thread and are
/// answered on the main actor from the views as they are then, so nothing is
/// copied or kept up to date ahead of time; a node whose view went away answers
/// as defunct. Events (focus, states, names, values, text) are sent once per
/// turn of the loop. Made by ``AccessibilityStatusWatcher`` only while an
/// assistive technology asks for it.
@MainActor
final class AtSpiExporter {
    let bus: DBusConnection
    private let server: Server
    /// Ids of the objects asked about so far, both ways; objects are held weakly.
    private var ids: [ObjectIdentifier: Int] = [:]
    private var objects: [Int: Weak] = [:]
    private var nextID = 1
    /// The registry's root: the application's parent.
    private(set) var registryRoot = (bus: "", path: AtSpiInterfaces.nullPath)
    /// The application's id, as the registry set it (`Application.Id`).
    var applicationID: Int32 = 0
    /// States last told or asked, to send only what changed.
    var knownStates: [Int: Set<AccessibilityState>] = [:]
    private var pendingChanges: [(Weak, AccessibilityChange)] = []
    /// Children worked out since the views last changed: an assistive technology
    /// asks for a node's children one index at a time, and working them out sorts
    /// every subview. Dropped at each commit (a view moved, came or went) and
    /// each change an element reports.
    private var childrenCache: [ObjectIdentifier: [AccessibilityNode]] = [:]
    private var flushScheduled = false
    /// What assistive technologies listen to: other events are not sent.
    let listeners: AtSpiEventListeners
    /// Event signals sent so far (a test's and a benchmark's measure of the traffic).
    private(set) var eventsSent = 0

    private struct Weak { weak var object: AnyObject? }

    /// Connects to the accessibility bus at `address`, serves the objects and
    /// embeds the application in the registry.
    init(address: String) throws(DBusConnection.ConnectError) {
        bus = try DBusConnection(address: address)
        server = Server(bus: bus)
        listeners = AtSpiEventListeners(bus: bus)
        server.exporter = self
        let served = bus.performAndWait { [server] in server.register() }
        if let why = served {
            bus.close()
            throw .failed(why)
        }
        embed()
    }

    func stop() {
        listeners.stop()
        bus.performAndWait { [server] in server.unregister() }
        bus.close()
    }

    /// `Socket.Embed` on the registry: the registry answers with its root, which
    /// is the application's parent, and tells assistive technologies the app is there.
    private func embed() {
        let bus = bus
        bus.perform { [weak self] in
            var reference: [OpaquePointer?] = [g_variant_new_string(bus.uniqueName), g_variant_new_object_path(AtSpiInterfaces.rootPath)]
            var argument: [OpaquePointer?] = [g_variant_new_tuple(&reference, 2)]
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_sync(bus.raw, "org.a11y.atspi.Registry", AtSpiInterfaces.rootPath, "org.a11y.atspi.Socket", "Embed",
                                                    g_variant_new_tuple(&argument, 1), variantType("((so))"), G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
            guard let reply else {
                let why = DBusConnection.message(error)
                DispatchQueue.main.async { MainActor.assumeIsolated { Diagnostics.report(.invalidView("accessibility: the registry did not take the app in (\(why))")) } }
                return
            }
            let root = g_variant_get_child_value(reply, 0)!
            let name = Variant.string(root, 0), path = Variant.string(root, 1)
            g_variant_unref(root)
            g_variant_unref(reply)
            DispatchQueue.main.async { MainActor.assumeIsolated { self?.registryRoot = (name, path) } }
        }
    }

    // MARK: Objects and references

    /// What an object path names.
    enum Target {
        case application
        case node(AccessibilityNode)
        /// Its view went away, or it never was.
        case defunct
    }

    func target(at path: String) -> Target {
        if path == AtSpiInterfaces.rootPath { return .application }
        guard path.hasPrefix(AtSpiInterfaces.basePath + "/"), let id = Int(path.dropFirst(AtSpiInterfaces.basePath.count + 1)),
              let object = objects[id]?.object else { return .defunct }
        switch object {
        case let w as Window: return .node(.window(w))
        case let v as View: return .node(.view(v))
        case let e as AccessibilityElement: return .node(.element(e))
        default: return .defunct
        }
    }

    func id(of object: AnyObject) -> Int {
        let key = ObjectIdentifier(object)
        if let id = ids[key], objects[id]?.object === object { return id }
        let id = nextID
        nextID += 1
        ids[key] = id
        objects[id] = Weak(object: object)
        if nextID % 1024 == 0 { forgetGoneObjects() }
        return id
    }

    private func forgetGoneObjects() {
        for (id, entry) in objects where entry.object == nil {
            objects[id] = nil
            knownStates[id] = nil
        }
        ids = ids.filter { objects[$0.value] != nil }
    }

    /// A node's children (``AccessibilityNode/children``), kept until the views change.
    func children(of node: AccessibilityNode) -> [AccessibilityNode] {
        let key = ObjectIdentifier(node.object)
        if let known = childrenCache[key] { return known }
        let children = node.children
        childrenCache[key] = children
        return children
    }

    /// How many children a node has: a list's rows are counted, not made.
    func childCount(of node: AccessibilityNode) -> Int { node.rows?.numberOfRows ?? children(of: node).count }

    /// A node's child at `index`, or nil past the end: a list's row made alone.
    func child(of node: AccessibilityNode, at index: Int) -> AccessibilityNode? {
        if let list = node.rows { return (0..<list.numberOfRows).contains(index) ? .element(list.rowElement(index)) : nil }
        let children = children(of: node)
        return children.indices.contains(index) ? children[index] : nil
    }

    /// A node's place among its parent's children, or -1.
    func indexInParent(_ node: AccessibilityNode) -> Int {
        switch node {
        case let .window(w): return windows.firstIndex { $0 === w } ?? -1
        case let .element(row as ListRowElement): return row.row
        default: return node.parent.flatMap { children(of: $0).firstIndex { $0.object === node.object } } ?? -1
        }
    }

    func path(of node: AccessibilityNode) -> String { AtSpiInterfaces.basePath + "/\(id(of: node.object))" }

    /// `(so)`: this connection's name and the node's path.
    func reference(_ node: AccessibilityNode?) -> OpaquePointer {
        guard let node else { return Variant.reference(bus.uniqueName, AtSpiInterfaces.rootPath) }
        return Variant.reference(bus.uniqueName, path(of: node))
    }

    /// The application's windows: the ones it shows, each followed by its open
    /// popups (menus, popovers, tooltips), as GTK lists its popup windows.
    var windows: [Window] { Application.shared.windows.filter(\.isVisible).flatMap { [$0] + $0.popupWindows } }

    var applicationName: String { Application.shared.applicationID }

    // MARK: Events (sent once per turn)

    /// A transaction committed: what the views show may have changed.
    func treeCommitted() { childrenCache = [:] }

    /// Something about `view` changed.
    func changed(_ object: AnyObject, _ change: AccessibilityChange) {
        childrenCache = [:]
        pendingChanges.append((Weak(object: object), change))
        scheduleFlush()
    }

    /// The first responder (or a menu's highlight) moved: focus events for both
    /// ends, at once and in order (a focus that came and went within one turn is still told).
    func focusMoved(from old: AnyObject?, to new: AnyObject?) {
        for (object, focused) in [(old, false), (new, true)] {
            let node: AccessibilityNode
            switch object {
            case let view as View where view.isAccessibilityElement || view.isAccessibilityContainerNode: node = .view(view)
            case let element as AccessibilityElement: node = .element(element)
            default: continue
            }
            let id = id(of: node.object)
            var states = knownStates[id] ?? node.states
            if focused { states.insert(.focused) } else { states.remove(.focused) }
            knownStates[id] = states
            emit(node, "org.a11y.atspi.Event.Object", "StateChanged", detail: "focused", detail1: focused ? 1 : 0)
        }
    }

    /// A window was shown or closed, or the app asked for its windows to be read again.
    func windowsChanged() {
        emit(path: AtSpiInterfaces.rootPath, "org.a11y.atspi.Event.Object", "ChildrenChanged", detail: "add", detail1: -1, data: reference(nil))
    }

    /// The keyboard focus moved between windows: `window:activate` and
    /// `deactivate`, which tell a screen reader which window it is in.
    func activeWindowChanged(from old: Window?, to new: Window?) {
        if let old {
            emit(.window(old), "org.a11y.atspi.Event.Window", "Deactivate", detail: "", data: g_variant_new_string(old.title))
            changed(old, .states)
        }
        if let new {
            emit(.window(new), "org.a11y.atspi.Event.Window", "Activate", detail: "", data: g_variant_new_string(new.title))
            changed(new, .states)
        }
    }

    /// A list's selection changed: `selection-changed` from the list (the rows
    /// tell their own `selected` states).
    func selectionChanged(in list: ListView) {
        emit(.view(list), "org.a11y.atspi.Event.Object", "SelectionChanged", detail: "")
    }

    /// Sends the screen reader to `target` while the keyboard focus stays put:
    /// `active-descendant-changed` from what has the focus (a screen reader reads
    /// the new descendant when its source is focused).
    func moveReader(to target: AccessibilityNode) {
        guard let window = Application.shared.keyboardFocusWindow ?? windows.first else { return }
        let focused: AccessibilityNode
        switch (window.firstResponder as? View)?.accessibilityFocusObject {
        case let view as View: focused = .view(view)
        case let element as AccessibilityElement: focused = .element(element)
        default: focused = .window(window)
        }
        emit(focused, "org.a11y.atspi.Event.Object", "ActiveDescendantChanged", detail: "", data: reference(target))
    }

    /// Says `text` now (`Accessibility.post(notification: .announcement, …)`).
    func announce(_ text: String) {
        guard let window = windows.first else { return }
        emit(.window(window), "org.a11y.atspi.Event.Object", "Announcement", detail: "", detail1: 1, data: g_variant_new_string(text))
    }

    private func scheduleFlush() {
        guard !flushScheduled else { return }
        flushScheduled = true
        DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.flush() } }
    }

    private func flush() {
        flushScheduled = false
        struct Told: Hashable { let object: ObjectIdentifier; let change: AccessibilityChange }
        var told = Set<Told>()
        let changes = pendingChanges
        pendingChanges = []
        for (entry, change) in changes {
            guard let object = entry.object, told.insert(Told(object: ObjectIdentifier(object), change: change)).inserted else { continue }
            let node: AccessibilityNode
            switch object {
            case let v as View: node = .view(v)
            case let e as AccessibilityElement: node = .element(e)
            case let w as Window: node = .window(w)
            default: continue
            }
            // Not in a shown window (being built, or gone): nobody can know it, and an
            // assistive technology that asked would remember it as defunct.
            guard node.isAttached else { continue }
            send(change, of: node)
        }
    }

    private func send(_ change: AccessibilityChange, of node: AccessibilityNode) {
        switch change {
        case .name: emit(node, "org.a11y.atspi.Event.Object", "PropertyChange", detail: "accessible-name", data: g_variant_new_string(node.name))
        case .description: emit(node, "org.a11y.atspi.Event.Object", "PropertyChange", detail: "accessible-description", data: g_variant_new_string(node.hint))
        case .value:
            let data = node.numericValue.map { g_variant_new_double($0.current) } ?? g_variant_new_string(node.value ?? "")
            emit(node, "org.a11y.atspi.Event.Object", "PropertyChange", detail: "accessible-value", data: data)
        case .states:
            let id = id(of: node.object)
            let now = node.states
            // Not known before: only what is now on among the states that come and go.
            let before = knownStates[id] ?? now.subtracting([.checked, .selected, .focused])
            knownStates[id] = now
            for state in now.symmetricDifference(before).sorted(by: { AtSpiMapping.state($0) < AtSpiMapping.state($1) }) {
                emit(node, "org.a11y.atspi.Event.Object", "StateChanged", detail: AtSpiMapping.stateName(state), detail1: now.contains(state) ? 1 : 0)
            }
        case .children:
            emit(node, "org.a11y.atspi.Event.Object", "ChildrenChanged", detail: "add", detail1: -1, data: reference(node))
        case .text:
            // The whole text, replaced: what was there is not kept.
            emit(node, "org.a11y.atspi.Event.Object", "TextChanged", detail: "insert", detail1: 0, detail2: Int32(node.text?.unicodeScalars.count ?? 0),
                 data: g_variant_new_string(node.text ?? ""))
            emit(node, "org.a11y.atspi.Event.Object", "PropertyChange", detail: "accessible-value", data: g_variant_new_string(node.value ?? ""))
        case let .textEdited(at, removed, inserted):
            for (kind, text) in [("delete", removed), ("insert", inserted)] where !text.isEmpty {
                emit(node, "org.a11y.atspi.Event.Object", "TextChanged", detail: kind, detail1: Int32(clamping: at),
                     detail2: Int32(clamping: text.unicodeScalars.count), data: g_variant_new_string(text))
            }
        case .appeared:
            emit(node, "org.a11y.atspi.Event.Object", "StateChanged", detail: "showing", detail1: 1)
        case .caret:
            if let caret = node.textSelection?.upperBound {
                emit(node, "org.a11y.atspi.Event.Object", "TextCaretMoved", detail: "", detail1: Int32(caret))
            }
        }
    }

    /// Sends an AT-SPI event signal `(siiva{sv})` from the node's object.
    private func emit(_ node: AccessibilityNode, _ interface: String, _ member: String, detail: String,
                      detail1: Int32 = 0, detail2: Int32 = 0, data: OpaquePointer? = nil) {
        emit(path: path(of: node), interface, member, detail: detail, detail1: detail1, detail2: detail2, data: data)
    }

    private func emit(path: String, _ interface: String, _ member: String, detail: String,
                      detail1: Int32 = 0, detail2: Int32 = 0, data: OpaquePointer? = nil) {
        guard listeners.wants(interface, member, detail: detail) else {
            if let data { g_variant_unref(g_variant_ref_sink(data)) }   // made floating for the signal: dropped
            return
        }
        eventsSent += 1
        var args: [OpaquePointer?] = [g_variant_new_string(detail), g_variant_new_int32(detail1), g_variant_new_int32(detail2),
                                      g_variant_new_variant(data ?? g_variant_new_int32(0)), Variant.emptyDictionary("a{sv}")]
        let parameters = Variant.Owned(g_variant_ref_sink(g_variant_new_tuple(&args, 5)))
        g_dbus_connection_emit_signal(bus.raw, nil, path, interface, member, parameters.raw, nil)
    }

    // MARK: The calls

    /// One call, handed from the bus thread to the main actor.
    struct Call: @unchecked Sendable {
        let path: String
        let interface: String
        let method: String
        let parameters: Variant.Owned
        let invocation: OpaquePointer
    }

    func handle(_ call: Call) {
        // Nothing is cached ahead: assistive technologies ask for what they read.
        if call.interface == AtSpiInterfaces.cache { return call.reply([Variant.emptyArray("a((so)(so)(so)iiassusau)")]) }
        let target = target(at: call.path)
        if case .defunct = target, !(call.interface == AtSpiInterfaces.accessible && call.method == "GetState") {
            return call.fail("org.freedesktop.DBus.Error.UnknownObject", "\(call.path) is gone")
        }
        switch call.interface {
        case AtSpiInterfaces.properties: handleProperties(call, target)
        default: handleMethod(call, target)
        }
    }
}

extension AtSpiExporter.Call {
    /// Answers with the out arguments (taking floating references).
    func reply(_ values: [OpaquePointer]) {
        var items: [OpaquePointer?] = values
        g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&items, gsize(items.count)))
    }

    func fail(_ name: String, _ message: String) {
        g_dbus_method_invocation_return_dbus_error(invocation, name, message)
    }
}

extension AtSpiExporter {
    /// Serves the subtree on the bus thread and hands each call to the main actor.
    final class Server: @unchecked Sendable {
        let bus: DBusConnection
        weak var exporter: AtSpiExporter?
        private var subtree: guint = 0
        private var cache: guint = 0
        private let subtreeTable = UnsafeMutablePointer<GDBusSubtreeVTable>.allocate(capacity: 1)
        private let methods = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)

        init(bus: DBusConnection) { self.bus = bus }

        deinit {
            subtreeTable.deallocate()
            methods.deallocate()
        }

        /// Registers the objects (on the bus thread); nil, or why it failed.
        func register() -> String? {
            methods.initialize(to: GDBusInterfaceVTable())
            // No get_property/set_property: property calls come to method_call
            // too, so they can be answered on the main actor.
            methods.pointee.method_call = { _, _, path, interface, method, parameters, invocation, data in
                guard let data, let path, let interface, let method, let parameters, let invocation else { return }
                let server = Unmanaged<Server>.fromOpaque(data).takeUnretainedValue()
                let call = Call(path: String(cString: path), interface: String(cString: interface), method: String(cString: method),
                                parameters: Variant.Owned(g_variant_ref(parameters)), invocation: invocation)
                DispatchQueue.main.async {
                    MainActor.assumeIsolated {
                        guard let exporter = server.exporter else {
                            return call.fail("org.freedesktop.DBus.Error.Failed", "accessibility is off")
                        }
                        exporter.handle(call)
                    }
                }
            }
            subtreeTable.initialize(to: GDBusSubtreeVTable())
            subtreeTable.pointee.enumerate = { _, _, _, _ in
                let none = g_malloc0(gsize(MemoryLayout<UnsafeMutablePointer<gchar>?>.size))
                return none?.assumingMemoryBound(to: UnsafeMutablePointer<gchar>?.self)
            }
            subtreeTable.pointee.introspect = { _, _, _, node, _ in
                guard node != nil else { return nil }
                let names = [AtSpiInterfaces.accessible, AtSpiInterfaces.application, AtSpiInterfaces.component, AtSpiInterfaces.action,
                             AtSpiInterfaces.value, AtSpiInterfaces.text, AtSpiInterfaces.editableText, AtSpiInterfaces.selection]
                let array = g_malloc0(gsize(MemoryLayout<UnsafeMutablePointer<GDBusInterfaceInfo>?>.size * (names.count + 1)))!
                    .assumingMemoryBound(to: UnsafeMutablePointer<GDBusInterfaceInfo>?.self)
                for (i, name) in names.enumerated() { array[i] = g_dbus_interface_info_ref(AtSpiInterfaces.info(name)) }
                return array
            }
            subtreeTable.pointee.dispatch = { _, _, _, _, node, outData, data in
                guard node != nil else { return nil }
                let server = Unmanaged<Server>.fromOpaque(data!).takeUnretainedValue()
                outData?.pointee = data
                return UnsafePointer(server.methods)
            }
            var error: UnsafeMutablePointer<GError>?
            subtree = g_dbus_connection_register_subtree(bus.raw, AtSpiInterfaces.basePath, subtreeTable, G_DBUS_SUBTREE_FLAGS_DISPATCH_TO_UNENUMERATED_NODES,
                                                         Unmanaged.passUnretained(self).toOpaque(), nil, &error)
            guard subtree != 0 else { return DBusConnection.message(error) }
            cache = g_dbus_connection_register_object(bus.raw, AtSpiInterfaces.cachePath, AtSpiInterfaces.info(AtSpiInterfaces.cache), methods,
                                                      Unmanaged.passUnretained(self).toOpaque(), nil, &error)
            guard cache != 0 else { return DBusConnection.message(error) }
            return nil
        }

        func unregister() {
            if subtree != 0 { g_dbus_connection_unregister_subtree(bus.raw, subtree) }
            if cache != 0 { g_dbus_connection_unregister_object(bus.raw, cache) }
            subtree = 0
            cache = 0
        }
    }
}
