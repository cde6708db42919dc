import WaylandClient

/// Reads one connection's messages off the wire: frames them by their
/// headers, decodes their arguments by the schema, and follows which object
/// has which interface (new_id arguments make objects, `wl_display.delete_id`
/// ends them). A request that cannot be a message — a size under 8, over
/// 4096 or not a multiple of 4, an object never made, arguments running past
/// its end — is a ``Malformed`` error, so the proxy can stop it before the
/// compositor sees it.
struct WireDecoder {
    let schema: ProtocolSchema
    let connection: Int
    /// Interfaces of live objects (`""`: made by a message the schema does not know).
    private(set) var objects: [UInt32: String] = [1: "wl_display"]

    init(schema: ProtocolSchema, connection: Int) {
        self.schema = schema
        self.connection = connection
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// The largest message libwayland sends or takes.
    static let maximumSize = 4096

    /// The size of the message at the front of `bytes`, once all of it is
    /// there (nil before); a malformed header throws.
    static func messageSize(_ bytes: ArraySlice<UInt8>) throws(Malformed) -> Int? {
        guard bytes.count >= 8 else { return nil }
        let size = Int(word(bytes, at: bytes.startIndex + 4) >> 16)
        guard size >= 8, size % 4 == 0, size <= maximumSize else {
            throw Malformed(description: "a message of \(size) bytes (a message is 8 to \(maximumSize) bytes, a multiple of 4)")
        }
        return bytes.count >= size ? size : nil
    }

    /// Decodes one whole message (`bytes` is exactly it).
    mutating func decode(_ bytes: ArraySlice<UInt8>, direction: WireMessage.Direction, time: Double) throws(Malformed) -> WireMessage {
        let start = bytes.startIndex
        let id = Self.word(bytes, at: start)
        let opcode = Int(Self.word(bytes, at: start + 4) & 0xffff)
        guard let interfaceName = objects[id] else {
            if direction == .request {
                throw Malformed(description: id == 0 ? "a request to object 0" : "a request to object \(id), which was never made")
            }
            // An event for an object this trace did not see made: kept raw.
            return WireMessage(time: time, connection: connection, direction: direction, objectID: id, interface: nil, opcode: opcode,
                               name: nil, arguments: [], size: bytes.count, fileDescriptors: 0)
        }
        let interface = schema.interfaces[interfaceName]
        let list = direction == .request ? interface?.requests : interface?.events
        guard let list, opcode < list.count else {
            // An interface, or a message of a newer version, the schema does not know: raw.
            return WireMessage(time: time, connection: connection, direction: direction, objectID: id, interface: interfaceName.isEmpty ? nil : interfaceName,
                               opcode: opcode, name: nil, arguments: [], size: bytes.count, fileDescriptors: 0)
        }
        let message = list[opcode]
        var arguments: [WireMessage.Argument] = []
        var at = start + 8
        var fds = 0
        let what = "\(interfaceName).\(message.name)"
        func need(_ n: Int) throws(Malformed) {
            guard at + n <= bytes.endIndex else { throw Malformed(description: "\(what)'s arguments run past its \(bytes.count) bytes") }
        }
        for (index, kind) in message.kinds.enumerated() {
            let type = index < message.types.count ? message.types[index] : nil
            switch kind {
            case "h":
                fds += 1
                arguments.append(.fd)
                continue
            case "s", "a":
                try need(4)
                let length = Int(Self.word(bytes, at: at))
                at += 4
                let padded = (length + 3) & ~3
                try need(padded)
                if kind == "a" {
                    arguments.append(.array(length))
                } else if length == 0 {
                    arguments.append(.string(nil))
                } else {
                    guard bytes[at + length - 1] == 0 else { throw Malformed(description: "\(what) has a string without its terminating NUL") }
                    arguments.append(.string(String(decoding: bytes[at..<(at + length - 1)], as: UTF8.self)))
                }
                at += padded
                continue
            default:
                try need(4)
            }
            let value = Self.word(bytes, at: at)
            at += 4
            switch kind {
            case "i": arguments.append(.int(Int32(bitPattern: value)))
            case "u": arguments.append(.uint(value))
            case "f": arguments.append(.fixed(Double(Int32(bitPattern: value)) / 256))
            case "o": arguments.append(.object(value, value == 0 ? nil : objects[value].flatMap { $0.isEmpty ? nil : $0 }))
            default:   // "n"
                // An untyped new_id (wl_registry.bind) names its interface in the string before it.
                let made = type ?? arguments.reversed().lazy.compactMap { if case let .string(s) = $0 { return s } else { return nil } }.first ?? ""
                objects[value] = made
                arguments.append(.newID(value, made.isEmpty ? nil : made))
            }
        }
        if id == 1, direction == .event, message.name == "delete_id", case let .uint(gone) = arguments.first {
            objects[gone] = nil
        }
        return WireMessage(time: time, connection: connection, direction: direction, objectID: id, interface: interfaceName, opcode: opcode,
                           name: message.name, arguments: arguments, size: bytes.count, fileDescriptors: fds)
    }

    /// A little-endian 32-bit word (the wire is the host's order; hosts here are little-endian).
    static func word(_ bytes: ArraySlice<UInt8>, at i: Int) -> UInt32 {
        UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
    }
}
