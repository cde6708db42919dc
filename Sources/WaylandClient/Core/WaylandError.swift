import Glibc

/// What can go wrong between Strata and a compositor.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// No compositor at the socket (`WAYLAND_DISPLAY`, or the name given).
    case connectFailed(socket: String, errno: Int32)
    /// The connection broke: the compositor exited or closed it.
    case disconnected(errno: Int32)
    /// The compositor reported a protocol error and closed the connection.
    case protocolError(interface: String, objectID: UInt32, code: UInt32, message: String)
    /// A global the client needs is not advertised.
    case missingGlobal(interface: String)
    /// A global is advertised at a lower version than the client needs.
    case unsupportedVersion(interface: String, required: UInt32, available: UInt32)
    /// Waited longer than allowed for the compositor.
    case timedOut(String)
    /// The compositor read no requests for this long while the client had more to
    /// send (its socket stayed full): it is stopped or hung, not gone.
    case compositorStalled(seconds: Double)
    /// The event loop cannot run this way here (e.g. `run()` while `dispatchMain()` serves the main queue).
    case loopUnavailable(String)

    public var description: String {
        switch self {
        case let .connectFailed(s, e): "cannot connect to Wayland socket '\(s)': \(String(cString: strerror(e)))"
        case let .disconnected(e): "the compositor closed the connection (\(String(cString: strerror(e))))"
        case let .protocolError(i, id, c, m): "protocol error on \(i)#\(id), code \(c): \(m)"
        case let .missingGlobal(i): "the compositor does not offer \(i)"
        case let .unsupportedVersion(i, r, a): "\(i) version \(r) needed, the compositor offers \(a)"
        case let .timedOut(what): "timed out waiting for \(what)"
        case let .compositorStalled(seconds): "the compositor read no requests for \(seconds) s (its socket stayed full): it has stalled"
        case let .loopUnavailable(why): "the event loop cannot run: \(why)"
        }
    }
}

/// Writes a line to standard error.
func printError(_ text: String) {
    let line = text + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
