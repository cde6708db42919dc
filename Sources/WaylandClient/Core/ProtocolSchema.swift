/// Every interface this library has bindings for, as its protocol XML describes
/// the messages: names, wire signatures and the interfaces of object arguments.
/// For tools that read the wire themselves (the testing kit's protocol proxy);
/// the generated bindings use the same descriptions.
public struct ProtocolSchema: Sendable {
    public struct Message: Sendable {
        public let name: String
        /// libwayland's signature: `i u f s o n a h`, `?` before a nullable
        /// argument, a leading number for the version that added the message.
        public let signature: String
        /// One entry per argument: the interface of an object or new_id, else nil.
        public let types: [String?]

        /// The argument kinds, without versions and nullability marks.
        public var kinds: [Character] { signature.filter { "iufsonah".contains($0) } }
    }

    public struct Interface: Sendable {
        public let name: String
        public let version: Int
        public let requests: [Message]
        public let events: [Message]
    }

    /// The interfaces by name.
    public let interfaces: [String: Interface]

    /// This library's interfaces.
    public static let standard = ProtocolSchema(generatedInterfaceTable)

    /// The interfaces of some generated descriptions (another module's) and this schema's.
    @_spi(Bindings) public func adding(_ descriptions: [InterfaceDescription]) -> ProtocolSchema {
        ProtocolSchema(interfaces: interfaces.merging(ProtocolSchema(descriptions).interfaces) { $1 })
    }

    init(_ descriptions: [InterfaceDescription]) {
        func messages(_ list: [MessageDescription]) -> [Message] {
            list.map { Message(name: $0.name, signature: $0.signature, types: $0.types) }
        }
        interfaces = Dictionary(descriptions.map { d in
            (d.name, Interface(name: d.name, version: Int(d.version), requests: messages(d.requests), events: messages(d.events)))
        }) { $1 }
    }

    init(interfaces: [String: Interface]) { self.interfaces = interfaces }
}
