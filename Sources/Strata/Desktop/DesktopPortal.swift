import CGio
import Glibc
import Synchronization

/// Why a portal interaction did not give an answer.
public enum PortalError: Error, Equatable, CustomStringConvertible {
    /// No session bus, or xdg-desktop-portal (or the interface) did not answer the call in time.
    case unavailable(String)
    /// The person cancelled (response 1), or the task asking was cancelled (the portal's dialog is closed too).
    case cancelled
    /// The portal ended the interaction some other way (response 2): GTK's
    /// backend says so when its dialog is dismissed with Escape or its close
    /// button, and the open-URI portal when nothing could open the link.
    case ended
    /// The portal answered with something this client does not understand.
    case malformed(String)

    public var description: String {
        switch self {
        case let .unavailable(why): "the desktop portal is not available: \(why)"
        case .cancelled: "cancelled"
        case .ended: "the desktop portal ended the interaction without a result"
        case let .malformed(what): "the desktop portal answered with \(what)"
        }
    }
}

/// xdg-desktop-portal's request/response protocol, for the interfaces whose
/// methods answer later (`FileChooser`, `OpenURI`): the caller names the
/// request with a `handle_token`, listens for `org.freedesktop.portal.Request`
/// `Response (u code, a{sv} results)` on the object path that token gives
/// *before* calling (so no answer is missed), and closes the request with
/// `Request.Close` when it gives up. The method call itself is bounded by a
/// timeout; the dialog it opens is the person's and is waited for as long as it
/// is shown, or until the asking task is cancelled.
package final class DesktopPortal: @unchecked Sendable {
    /// What a request answered: the `uris` of its results (file chooser), if any.
    package struct Response: Sendable {
        package var uris: [String]
    }

    package let bus: DBusConnection
    private let nextToken = Atomic(0)

    package init(address: String?) throws(PortalError) {
        do { bus = try DBusConnection(address: address) } catch { throw .unavailable(error.description) }
    }

    /// A request in flight holds the portal (its task does): the connection
    /// closes once nothing waits on it.
    deinit { bus.close() }

    /// Calls `interface`.`method` on the portal with `arguments` (made on the
    /// bus thread; the last one is the options dictionary, to which the handle
    /// token is added) and waits for the request's response.
    package func request(_ interface: String, _ method: String, timeout: Double = 10, fileDescriptor: Int32? = nil,
                         arguments: @escaping @Sendable (_ options: UnsafeMutablePointer<GVariantDict>) -> [OpaquePointer?]) async throws(PortalError) -> Response {
        let token = "strata\(nextToken.add(1, ordering: .relaxed).newValue)"
        let pending = PendingRequest(bus: bus)
        let result: Result<Response, PortalError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                bus.perform { [bus] in
                    guard pending.begin(continuation) else { return }
                    let sender = bus.uniqueName.dropFirst().replacing(".", with: "_")
                    pending.listen(on: "/org/freedesktop/portal/desktop/request/\(sender)/\(token)")
                    let options = g_variant_dict_new(nil)!
                    g_variant_dict_insert_value(options, "handle_token", g_variant_new_string(token))
                    var values = arguments(options)
                    values.append(g_variant_dict_end(options))
                    g_variant_dict_unref(options)
                    let parameters = g_variant_new_tuple(&values, gsize(values.count))
                    var fds: UnsafeMutablePointer<GUnixFDList>?
                    if let fileDescriptor {
                        fds = g_unix_fd_list_new()
                        _ = g_unix_fd_list_append(fds, fileDescriptor, nil)
                    }
                    defer { if let fds { g_object_unref(UnsafeMutableRawPointer(fds)) } }
                    g_dbus_connection_call_with_unix_fd_list(bus.raw, "org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", interface, method,
                                                             parameters, variantType("(o)"), G_DBUS_CALL_FLAGS_NONE,
                                                             gint(max(1, min(600_000, timeout * 1000))), fds, nil, { source, result, data in
                        let pending = Unmanaged<PendingRequest>.fromOpaque(data!).takeRetainedValue()
                        var error: UnsafeMutablePointer<GError>?
                        guard let reply = g_dbus_connection_call_with_unix_fd_list_finish(OpaquePointer(source), nil, result, &error) else {
                            pending.finish(.failure(.unavailable(DBusConnection.message(error))))
                            return
                        }
                        defer { g_variant_unref(reply) }
                        let path = g_variant_get_child_value(reply, 0)!
                        defer { g_variant_unref(path) }
                        pending.called(handle: String(cString: g_variant_get_string(path, nil)))
                    }, Unmanaged.passRetained(pending).toOpaque())
                }
            }
        } onCancel: {
            pending.cancel()
        }
        return try result.get()
    }

    /// One request in flight; its state is touched on the bus thread, except
    /// `cancel`, which hops there.
    private final class PendingRequest: @unchecked Sendable {
        let bus: DBusConnection
        private var continuation: CheckedContinuation<Result<Response, PortalError>, Never>?
        private var subscription: guint = 0
        private var path = ""
        private var handle: String?
        private var cancelled = false

        init(bus: DBusConnection) { self.bus = bus }

        /// Takes the waiting task (on the bus thread); false when it was cancelled already.
        func begin(_ continuation: CheckedContinuation<Result<Response, PortalError>, Never>) -> Bool {
            self.continuation = continuation
            if cancelled { finish(.failure(.cancelled)) }
            return !cancelled
        }

        /// Listens for `Response` on `path` (on the bus thread).
        func listen(on path: String) {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(bus.raw, subscription) }
            self.path = path
            subscription = g_dbus_connection_signal_subscribe(bus.raw, "org.freedesktop.portal.Desktop", "org.freedesktop.portal.Request", "Response",
                                                              path, nil, G_DBUS_SIGNAL_FLAGS_NONE, { _, _, _, _, _, parameters, data in
                guard let data, let parameters else { return }
                Unmanaged<PendingRequest>.fromOpaque(data).takeUnretainedValue().responded(parameters)
            }, Unmanaged.passRetained(self).toOpaque(), { data in Unmanaged<PendingRequest>.fromOpaque(data!).release() })
        }

        /// The method answered with the request's handle (an older portal may
        /// not honour the token: then it is listened for there).
        func called(handle: String) {
            self.handle = handle
            if cancelled { close(); return }
            if handle != path, continuation != nil { listen(on: handle) }
        }

        private func responded(_ parameters: OpaquePointer) {
            guard String(cString: g_variant_get_type_string(parameters)) == "(ua{sv})" else {
                finish(.failure(.malformed("a response of type \(String(cString: g_variant_get_type_string(parameters)))")))
                return
            }
            let code = g_variant_get_child_value(parameters, 0)!, results = g_variant_get_child_value(parameters, 1)!
            defer { g_variant_unref(code); g_variant_unref(results) }
            switch g_variant_get_uint32(code) {
            case 0:
                var uris: [String] = []
                if let list = g_variant_lookup_value(results, "uris", variantType("as")) {
                    for i in 0..<g_variant_n_children(list) {
                        let uri = g_variant_get_child_value(list, i)!
                        uris.append(String(cString: g_variant_get_string(uri, nil)))
                        g_variant_unref(uri)
                    }
                    g_variant_unref(list)
                }
                finish(.success(Response(uris: uris)))
            case 1: finish(.failure(.cancelled))
            case 2: finish(.failure(.ended))
            case let other: finish(.failure(.malformed("response \(other)")))
            }
        }

        func cancel() {
            bus.perform { [self] in
                cancelled = true
                if handle != nil { close() }
                finish(.failure(.cancelled))
            }
        }

        /// `Request.Close`: the portal closes its dialog.
        private func close() {
            guard let handle else { return }
            g_dbus_connection_call(bus.raw, "org.freedesktop.portal.Desktop", handle, "org.freedesktop.portal.Request", "Close",
                                   nil, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil, nil)
        }

        /// Resumes the waiting task once (on the bus thread).
        func finish(_ result: Result<Response, PortalError>) {
            if subscription != 0 { g_dbus_connection_signal_unsubscribe(bus.raw, subscription) }
            subscription = 0
            continuation?.resume(returning: result)
            continuation = nil
        }
    }
}
