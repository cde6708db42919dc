import CGio
import Dispatch
import Glibc

/// A connection to a D-Bus message bus, served by a GLib main loop on a thread
/// of its own: the app's main thread runs the Wayland loop, not GLib's, so
/// signals, method calls and call replies are handled on that thread and hop to
/// the main queue from there. Used by the Settings portal, the file chooser and
/// open-URI portals, and services such as the notification daemon example.
///
/// Everything that touches the connection after `init` runs on the loop thread,
/// through ``perform(_:)`` or ``performAndWait(_:)``: GDBus delivers signals
/// and replies to the main context that was the thread default when they were
/// asked for.
package final class DBusConnection: @unchecked Sendable {
    /// Why a bus could not be reached.
    package enum ConnectError: Error, CustomStringConvertible {
        case noBus
        case failed(String)
        package var description: String {
            switch self {
            case .noBus: "no session bus (DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus does not exist)"
            case let .failed(why): why
            }
        }
    }

    /// The `GDBusConnection`.
    package let raw: OpaquePointer
    private let context: OpaquePointer
    private let loop: OpaquePointer
    private var thread = pthread_t()
    private var closedHandler: UInt = 0
    private var closed = false
    /// Told on the main actor when the bus closes the connection (the session ended).
    private let onClosed: (@MainActor () -> Void)?

    /// Connects to the bus at `address` (nil: the session bus, from the
    /// environment, without GLib's X11 autolaunch) and starts the loop thread.
    package init(address: String?, onClosed: (@MainActor () -> Void)? = nil) throws(ConnectError) {
        guard let address = address ?? Self.sessionBusAddress() else { throw .noBus }
        var error: UnsafeMutablePointer<GError>?
        let context = g_main_context_new()!
        g_main_context_push_thread_default(context)
        let flags = GDBusConnectionFlags(rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        let c = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error)
        g_main_context_pop_thread_default(context)
        guard let c else {
            g_main_context_unref(context)
            throw .failed(Self.message(error))
        }
        raw = c
        self.context = context
        self.onClosed = onClosed
        loop = g_main_loop_new(context, 0)
        g_dbus_connection_set_exit_on_close(c, 0)
        if onClosed != nil {
            let closed: @convention(c) (OpaquePointer?, gboolean, UnsafeMutablePointer<GError>?, gpointer?) -> Void = { _, _, _, data in
                guard let data, let onClosed = Unmanaged<DBusConnection>.fromOpaque(data).takeUnretainedValue().onClosed else { return }
                DispatchQueue.main.async { MainActor.assumeIsolated { onClosed() } }
            }
            closedHandler = g_signal_connect_data(UnsafeMutableRawPointer(c), "closed", unsafeBitCast(closed, to: GCallback.self),
                                                  Unmanaged.passUnretained(self).toOpaque(), nil, G_CONNECT_DEFAULT)
        }
        pthread_create(&thread, nil, { raw in
            let bus = Unmanaged<DBusConnection>.fromOpaque(raw!).takeRetainedValue()
            g_main_context_push_thread_default(bus.context)
            g_main_loop_run(bus.loop)
            g_main_context_pop_thread_default(bus.context)
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
    }

    deinit { close() }

    /// The session bus's address (`DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`), without GLib's X11 autolaunch (which would start a bus).
    package static func sessionBusAddress() -> String? {
        if let a = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }), !a.isEmpty { return a }
        if let dir = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), access(dir + "/bus", F_OK) == 0 { return "unix:path=" + dir + "/bus" }
        return nil
    }

    /// This connection's unique name on the bus (`:1.42`).
    package var uniqueName: String { g_dbus_connection_get_unique_name(raw).map { String(cString: $0) } ?? "" }

    /// Asks the bus for the well-known `name` without queueing (`RequestName`
    /// with DO_NOT_QUEUE): true when this connection owns it now, false when
    /// another does.
    package func requestName(_ name: String) -> Result<Bool, ConnectError> {
        var error: UnsafeMutablePointer<GError>?
        var args: [OpaquePointer?] = [g_variant_new_string(name), g_variant_new_uint32(4)]
        guard let answer = g_dbus_connection_call_sync(raw, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                                                       g_variant_new_tuple(&args, 2), variantType("(u)"), G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error) else {
            return .failure(.failed(Self.message(error)))
        }
        defer { g_variant_unref(answer) }
        let reply = g_variant_get_child_value(answer, 0)!
        defer { g_variant_unref(reply) }
        return .success(g_variant_get_uint32(reply) == 1)   // 1: the primary owner
    }

    /// Runs `work` on the loop thread (at once when called there).
    package func perform(_ work: @escaping @Sendable () -> Void) {
        if isLoopThread { work(); return }
        let box = Unmanaged.passRetained(WorkBox(work)).toOpaque()
        g_main_context_invoke_full(context, G_PRIORITY_DEFAULT, { data in
            Unmanaged<WorkBox>.fromOpaque(data!).takeUnretainedValue().work()
            return 0
        }, box, { data in Unmanaged<WorkBox>.fromOpaque(data!).release() })
    }

    /// Runs `work` on the loop thread and waits for its result.
    package func performAndWait<T>(_ work: @escaping @Sendable () -> T) -> T {
        if isLoopThread { return work() }
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<T>()
        perform {
            result.value = work()
            done.signal()
        }
        done.wait()
        return result.value!
    }

    /// Ends the loop (joining its thread) and closes the connection. Signal
    /// subscriptions and registrations must have been removed first.
    package func close() {
        guard !closed else { return }
        closed = true
        if closedHandler != 0 { g_signal_handler_disconnect(UnsafeMutableRawPointer(raw), gulong(closedHandler)) }
        if isLoopThread {
            g_main_loop_quit(loop)
        } else {
            // Quit from inside the loop: a quit before the thread enters
            // g_main_loop_run would be lost.
            nonisolated(unsafe) let loop = loop
            perform { g_main_loop_quit(loop) }
            pthread_join(thread, nil)
        }
        g_dbus_connection_close_sync(raw, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(raw))
        g_main_loop_unref(loop)
        g_main_context_unref(context)
    }

    private var isLoopThread: Bool { g_main_context_is_owner(context) != 0 }

    /// A GError's message (freeing it).
    package static func message(_ error: UnsafeMutablePointer<GError>?) -> String {
        defer { if let error { g_error_free(error) } }
        return error.map { String(cString: $0.pointee.message) } ?? "unknown error"
    }

    private final class WorkBox {
        let work: @Sendable () -> Void
        init(_ work: @escaping @Sendable () -> Void) { self.work = work }
    }

    private final class ResultBox<T>: @unchecked Sendable {
        var value: T?
    }
}

/// A GVariant type from a literal: GLib keeps the pointer it is given, and a
/// Swift `String` literal bridged to C lives only for the call (short ones are
/// copied to a temporary), so the text must be a `StaticString`.
package func variantType(_ type: StaticString) -> OpaquePointer {
    g_variant_type_checked_(UnsafeRawPointer(type.utf8Start).assumingMemoryBound(to: gchar.self))
}
