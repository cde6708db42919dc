/// Records protocol traffic: every request sent and event received by Strata's
/// proxies, in order. libwayland 1.21 has no client-side logger, so the
/// toolkit's own dispatch layer keeps the record. Tests read it to check what a
/// client said to the compositor (`WAYLAND_DEBUG=client` prints the same to stderr).
@MainActor
public enum WaylandTraffic {
    public enum Direction: Sendable { case request, event }

    public struct Message: Sendable, CustomStringConvertible {
        public let direction: Direction
        public let interface: String
        public let objectID: UInt32
        public let name: String
        public var description: String { "\(direction == .request ? "->" : "<-") \(interface)#\(objectID).\(name)" }
    }

    /// Receives every message while set. Nil (off, free) by default.
    // A process-wide tap, as `WAYLAND_DEBUG=client` is: it sees every connection.
    public static var observer: (@MainActor (Message) -> Void)?

    /// Receives descriptions of API misuse that was refused (requests after destruction,
    /// requests newer than the object's version). Printed to stderr when nil.
    // Process-wide with the observer: misuse is told wherever it happens, on any connection.
    public static var misuseHandler: (@MainActor (String) -> Void)?

    /// Runs `body` and returns the messages it produced.
    public static func recording(_ body: () throws -> Void) rethrows -> [Message] {
        let previous = observer
        var messages: [Message] = []
        observer = { messages.append($0); previous?($0) }
        defer { observer = previous }
        try body()
        return messages
    }

    static func record(_ direction: Direction, proxy: WaylandProxy, opcode: UInt32) {
        guard let observer else { return }
        let iface = type(of: proxy).interfacePointer.pointee
        let count = direction == .request ? iface.method_count : iface.event_count
        let table = direction == .request ? iface.methods : iface.events
        let name = Int32(opcode) < count ? table.map { String(cString: $0[Int(opcode)].name) } ?? "?" : "?"
        observer(Message(direction: direction, interface: type(of: proxy).interfaceName, objectID: proxy.id, name: name))
    }

    static func misuse(_ text: String) {
        if let misuseHandler { misuseHandler(text) } else { printError("WaylandClient: \(text)") }
    }
}
