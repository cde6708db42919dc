/// The compositor's globals (`wl_registry`): what is offered, at which version,
/// as globals come and go.
@MainActor
public final class Registry {
    /// An advertised global.
    public struct Global: Hashable, Sendable {
        public let name: UInt32
        public let interface: String
        public let version: UInt32
    }

    public let registry: WlRegistry
    /// The globals currently offered, by registry name.
    public private(set) var globals: [UInt32: Global] = [:]
    /// Called when a global appears after the first round trip (outputs, seats).
    public var onGlobalAdded: ((Global) -> Void)?
    /// Called when a global disappears.
    public var onGlobalRemoved: ((Global) -> Void)?

    public init(connection: Connection) {
        registry = connection.getRegistry()
        registry.onEvent = { [unowned self] event in
            switch event {
            case let .global(name, interface, version):
                let g = Global(name: name, interface: interface, version: version)
                globals[name] = g
                onGlobalAdded?(g)
            case let .globalRemove(name):
                if let g = globals.removeValue(forKey: name) { onGlobalRemoved?(g) }
            }
        }
    }

    /// The first global offered for an interface.
    public func global(for interface: String) -> Global? {
        globals.values.filter { $0.interface == interface }.min { $0.name < $1.name }
    }

    /// Binds the global for `T`'s interface at the highest version both sides
    /// support (at most `maxVersion`), or throws if it is missing or older than
    /// `minVersion`.
    public func bind<T: WaylandProxy>(_ type: T.Type, minVersion: UInt32 = 1, maxVersion: UInt32 = .max) throws(WaylandError) -> T {
        guard let g = global(for: T.interfaceName) else { throw .missingGlobal(interface: T.interfaceName) }
        return try bind(g, type, minVersion: minVersion, maxVersion: maxVersion)
    }

    /// Binds a specific global (e.g. one of several outputs).
    public func bind<T: WaylandProxy>(_ global: Global, _ type: T.Type, minVersion: UInt32 = 1, maxVersion: UInt32 = .max) throws(WaylandError) -> T {
        guard global.version >= minVersion else {
            throw .unsupportedVersion(interface: global.interface, required: minVersion, available: global.version)
        }
        let version = min(global.version, T.interfaceVersion, maxVersion)
        return registry.bind(name: global.name, T.self, version: version)
    }

    /// Binds the global if offered, else nil (for optional features).
    public func bindIfOffered<T: WaylandProxy>(_ type: T.Type, maxVersion: UInt32 = .max) -> T? {
        try? bind(type, maxVersion: maxVersion)
    }
}
