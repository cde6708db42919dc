@_spi(Bindings) import WaylandClient

extension TestingInterfaceTable {
    /// WaylandClient's interfaces and this kit's (fake input, input method), for reading the wire.
    static let schema = ProtocolSchema.standard.adding(descriptions)
}
