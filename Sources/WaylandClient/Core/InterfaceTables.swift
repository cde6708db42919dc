import CWayland
import Glibc

/// A message (request or event) of an interface, as the generator describes it.
struct MessageDescription {
    let name: String
    let signature: String
    /// One entry per argument: the interface of an object or new_id argument, else nil.
    let types: [String?]
}

/// An interface, as the generator describes it.
struct InterfaceDescription {
    let name: String
    let version: Int32
    let requests: [MessageDescription]
    let events: [MessageDescription]
}

/// The `wl_interface` tables libwayland reads, built once from the generated
/// descriptions in heap memory that lives as long as the process.
///
/// They are built here rather than taken from libwayland's exported
/// `wl_*_interface` symbols: Swift cannot take a stable address of an extern C
/// constant (it passes a copy, which crashes in release builds), and the
/// extension protocols have no exported tables at all.
@MainActor
enum InterfaceTable {
    static let pointers: [String: UnsafePointer<wl_interface>] = build(generatedInterfaceTable)

    static func pointer(named name: String) -> UnsafePointer<wl_interface> {
        guard let p = pointers[name] else { fatalError("no interface table for \(name): regenerate the bindings") }
        return p
    }

    private static func build(_ descriptions: [InterfaceDescription]) -> [String: UnsafePointer<wl_interface>] {
        var table: [String: UnsafeMutablePointer<wl_interface>] = [:]
        for d in descriptions {
            table[d.name] = UnsafeMutablePointer<wl_interface>.allocate(capacity: 1)
        }
        let addresses = table.mapValues { UnsafePointer($0) }
        for d in descriptions {
            table[d.name]!.initialize(to: wl_interface(
                name: UnsafePointer(strdup(d.name)), version: d.version,
                method_count: Int32(d.requests.count), methods: messages(d.requests, addresses),
                event_count: Int32(d.events.count), events: messages(d.events, addresses)))
        }
        return addresses
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
