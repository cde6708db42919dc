/// One message between a client and its compositor as a ``ProtocolProxy`` saw
/// it on the wire, decoded by the protocol XML the kit knows (or kept raw).
public struct WireMessage: Sendable, CustomStringConvertible {
    public enum Direction: Sendable { case request, event }

    public enum Argument: Sendable, Equatable, CustomStringConvertible {
        case int(Int32)
        case uint(UInt32)
        case fixed(Double)
        case string(String?)
        /// An object (0: null), with its interface where known.
        case object(UInt32, String?)
        /// A new object made by the message.
        case newID(UInt32, String?)
        /// An array of this many bytes.
        case array(Int)
        /// A file descriptor, passed beside the bytes.
        case fd

        public var description: String {
            switch self {
            case let .int(v): "\(v)"
            case let .uint(v): "\(v)"
            case let .fixed(v): "\(v)"
            case let .string(s): s.map { JSON.string($0) } ?? "nil"
            case let .object(id, iface): id == 0 ? "nil" : "\(iface ?? "?")#\(id)"
            case let .newID(id, iface): "new \(iface ?? "?")#\(id)"
            case let .array(n): "array[\(n)]"
            case .fd: "fd"
            }
        }
    }

    /// CLOCK_MONOTONIC seconds when the proxy read it.
    public let time: Double
    /// Which client connection of the proxy (1 for the first).
    public let connection: Int
    public let direction: Direction
    public let objectID: UInt32
    /// The object's interface; nil for an object the trace never saw made.
    public let interface: String?
    public let opcode: Int
    /// The message's name; nil where the interface or the opcode is not in the schema.
    public let name: String?
    /// The decoded arguments (empty for a message kept raw).
    public let arguments: [Argument]
    /// Bytes on the wire, header included.
    public let size: Int
    /// File descriptors it carries (as its signature says; 0 for a raw message).
    public let fileDescriptors: Int

    /// `-> wl_surface#3.commit`, as ``WaylandClient/WaylandTraffic`` prints a client's own messages.
    public var key: String {
        "\(direction == .request ? "->" : "<-") \(interface ?? "?")#\(objectID).\(name ?? "opcode \(opcode)")"
    }

    public var description: String { key + "(" + arguments.map(\.description).joined(separator: ", ") + ")" }

    /// Whether this is `interface.name` (`"wl_surface.commit"`).
    public func `is`(_ qualifiedName: String) -> Bool {
        guard let interface, let name else { return false }
        return qualifiedName.count == interface.count + 1 + name.count && qualifiedName.hasPrefix(interface) && qualifiedName.hasSuffix("." + name)
    }
}
