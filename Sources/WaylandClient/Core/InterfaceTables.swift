import CWayland
import Glibc

/// A message (request or event) of an interface, as the generator describes it.
@_spi(Bindings) public struct MessageDescription: Sendable {
    let name: String
    let signature: String
    /// One entry per argument: the interface of an object or new_id argument, else nil.
    let types: [String?]

    public init(name: String, signature: String, types: [String?]) {
        self.name = name
        self.signature = signature
        self.types = types
    }
}

/// An interface, as the generator describes it.
@_spi(Bindings) public struct InterfaceDescription: Sendable {
    let name: String
    let version: Int32
    let requests: [MessageDescription]
    let events: [MessageDescription]

    public init(name: String, version: Int32, requests: [MessageDescription], events: [MessageDescription]) {
        self.name = name
        self.version = version
        self.requests = requests
        self.events = events
    }
}

/// The `wl_interface` tables libwayland reads, built once from the generated
/// descriptions in heap memory that lives as long as the process.
///
/// They are built here rather than taken from libwayland's exported
/// `wl_*_interface` symbols: Swift cannot take a stable address of an extern C
/// constant (it passes a copy, which crashes in release builds), and the
/// extension protocols have no exported tables at all.
/// Process-wide: libwayland keeps pointers to them for as long as proxies live.
@MainActor
@_spi(Bindings) public enum InterfaceTable {
    static let pointers: [String: UnsafePointer<wl_interface>] = build(generatedInterfaceTable, others: [:])

    static func pointer(named name: String) -> UnsafePointer<wl_interface> {
        guard let p = pointers[name] else { fatalError("no interface table for \(name): regenerate the bindings") }
        return p
    }

    /// Tables for interfaces generated outside this module (the testing kit's);
    /// the interfaces they name from this module's protocols are this module's.
    public static func build(_ descriptions: [InterfaceDescription]) -> [String: UnsafePointer<wl_interface>] {
        build(descriptions, others: pointers)
    }

    private static func build(_ descriptions: [InterfaceDescription],
                              others: [String: UnsafePointer<wl_interface>]) -> [String: UnsafePointer<wl_interface>] {
        var table: [String: UnsafeMutablePointer<wl_interface>] = [:]
        for d in descriptions {
            table[d.name] = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        }
        let addresses = others.merging(table.mapValues { UnsafePointer($0) }) { $1 }
        for d in descriptions {
            table[d.name]!.initialize(to: wl_interface(
                name: UnsafePointer(strdup(d.name)), version: d.version,
                method_count: Int32(d.requests.count), methods: messages(d.requests, addresses),
                event_count: Int32(d.events.count), events: messages(d.events, addresses)))
        }
        return table.mapValues { UnsafePointer($0) }
    }

    /// A `wl_message` array; `types` entries point into `addresses`.
    private static func messages(_ list: [MessageDescription], _ addresses: [String: UnsafePointer<wl_interface>]) -> UnsafePointer<wl_message>? {
        guard !list.isEmpty else { return nil }
        let out = UnsafeMutablePointer<wl_message>.allocate(capacity: list.count)
        for (i, m) in list.enumerated() {
            let types = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(capacity: max(1, m.types.count))
            for (j, t) in m.types.enumerated() {
                types[j] = t.flatMap { addresses[$0] }
            }
            out[i] = wl_message(name: UnsafePointer(strdup(m.name)), signature: UnsafePointer(strdup(m.signature)),
                                types: UnsafeMutablePointer(types))
        }
        return UnsafePointer(out)
    }
}
