import CWayland
import Glibc

/// The base of every generated protocol object: a `wl_proxy` with its interface,
/// version and event dispatch.
///
/// The Swift object owns the proxy: when it goes away, so does the proxy (a
/// destructor request destroys it earlier). Events arrive through one dispatcher
/// (`wl_proxy_add_dispatcher`) that decodes the argument array into the
/// generated `Event` enum of the object's class.
///
/// What generated bindings use is `@_spi(Bindings)`: the testing kit generates
/// its own protocols over it; apps never need it.
@MainActor
open class WaylandProxy {
    /// The libwayland proxy (`struct wl_proxy *`).
    public let proxy: OpaquePointer
    /// The version the object was created with.
    public let version: UInt32
    /// True once a destructor request was sent.
    public private(set) var isDestroyed = false
    /// Keeps the display connection open while any of its objects exists.
    @_spi(Bindings) public let owner: DisplayHandle

    open class var interfaceName: String { "" }
    open class var interfaceVersion: UInt32 { 0 }

    /// The `wl_interface` table of the class (bindings outside this module
    /// override it with their own tables).
    open class var interfacePointer: UnsafePointer<wl_interface> {
        InterfaceTable.pointer(named: interfaceName)
    }

    /// Wraps a proxy libwayland created for this class's interface and starts
    /// receiving its events.
    public required init(adopting proxy: OpaquePointer, version: UInt32, owner: DisplayHandle) {
        self.proxy = proxy
        self.version = version
        self.owner = owner
        wl_proxy_add_dispatcher(proxy, waylandDispatcher, nil, Unmanaged.passUnretained(self).toOpaque())
    }

    isolated deinit {
        if !isDestroyed { wl_proxy_destroy(proxy) }
    }

    /// The protocol object id.
    public var id: UInt32 { wl_proxy_get_id(proxy) }

    /// The proxy as a `struct wl_object *`, for object arguments.
    public var wlObject: OpaquePointer { proxy }

    /// Decodes and delivers an event; generated classes override it.
    @_spi(Bindings) open func dispatch(opcode: UInt32, args: UnsafeMutablePointer<wl_argument>) {}

    /// The Swift object of a proxy that came as an event argument, if it is of the expected class.
    @_spi(Bindings) public static func existing<T: WaylandProxy>(_ object: OpaquePointer?, as: T.Type) -> T? {
        guard let object, let data = wl_proxy_get_user_data(object) else { return nil }
        return Unmanaged<WaylandProxy>.fromOpaque(data).takeUnretainedValue() as? T
    }

    /// Sends a request.
    @_spi(Bindings) public func marshal(opcode: UInt32, args: inout [wl_argument], since: UInt32, destroying: Bool) {
        guard !isDestroyed else {
            return WaylandTraffic.misuse("\(Self.interfaceName)#\(id): request \(opcode) after destruction ignored")
        }
        guard version >= since else {
            return WaylandTraffic.misuse("\(Self.interfaceName) request \(opcode) needs version \(since), object has \(version); not sent")
        }
        WaylandTraffic.record(.request, proxy: self, opcode: opcode)
        owner.willSend(arguments: args.count)
        args.withUnsafeMutableBufferPointer { buffer in
            _ = wl_proxy_marshal_array_flags(proxy, opcode, nil, version, destroying ? UInt32(WL_MARSHAL_FLAG_DESTROY) : 0, buffer.baseAddress)
        }
        if destroying { isDestroyed = true }
    }

    /// Sends a request that creates an object; returns the new proxy.
    @_spi(Bindings) public func marshalConstructor(opcode: UInt32, args: inout [wl_argument], interface: UnsafePointer<wl_interface>, version: UInt32) -> OpaquePointer {
        WaylandTraffic.record(.request, proxy: self, opcode: opcode)
        owner.willSend(arguments: args.count)
        let created = args.withUnsafeMutableBufferPointer { buffer in
            wl_proxy_marshal_array_flags(proxy, opcode, interface, version, 0, buffer.baseAddress)
        }
        // libwayland returns NULL only when it cannot allocate; nothing sensible can follow.
        guard let created else { fatalError("wl_proxy_marshal_array_flags could not create a \(String(cString: interface.pointee.name))") }
        return created
    }
}

/// Owns a `wl_display`: it is disconnected when the connection and every proxy
/// made on it are gone, so no proxy outlives its display.
@MainActor
public final class DisplayHandle {
    public let display: OpaquePointer
    /// How long a request waits for the compositor to read when its socket is full
    /// (``Connection/stallTimeout``).
    var stallTimeout = 10.0
    /// Set when the compositor read nothing for `stallTimeout` seconds.
    private(set) var stalled = false
    /// Bytes queued since the last flush made here (an estimate: strings count as
    /// one word).
    private var queued = 0
    /// Set when a request was queued and not yet flushed.
    var needsFlush = false
    /// Called when requests are queued, so the loop driving this connection
    /// flushes them at the end of its turn (each connection its own).
    var flushScheduler: (@MainActor () -> Void)?

    init(_ display: OpaquePointer) { self.display = display }
    isolated deinit { wl_display_disconnect(display) }

    /// libwayland keeps requests in a 4 KB buffer and, when a request does not fit
    /// and the socket is full, fails the whole connection with EAGAIN — as if the
    /// compositor had hung up. So every kilobyte or so of requests is flushed here
    /// first, waiting (up to `stallTimeout`) while the socket is full: a
    /// compositor that is only slow or stopped for a while loses nothing.
    ///
    /// Also schedules the end-of-turn flush of the loop driving this connection.
    func willSend(arguments count: Int) {
        if !needsFlush {
            needsFlush = true
            flushScheduler?()
        }
        queued += 8 + 4 * count
        guard queued > 1024, !stalled else { return }
        let deadline = MonotonicClock.now + stallTimeout
        while wl_display_flush(display) < 0 {
            guard errno == EAGAIN else { return }   // a real hang-up: the next read reports it
            let left = deadline - MonotonicClock.now
            guard left > 0 else { stalled = true; return }
            var p = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLOUT), revents: 0)
            _ = poll(&p, 1, Int32((left * 1000).rounded(.up)))
        }
        queued = 0
    }
}

/// The single C entry point for every event of every Strata proxy.
private let waylandDispatcher: wl_dispatcher_func_t = { _, target, opcode, _, args in
    guard let target, let eventArgs = args, let userData = wl_proxy_get_user_data(OpaquePointer(target)) else { return 0 }
    // libwayland calls this on the thread that dispatches: the main thread.
    nonisolated(unsafe) let argv = eventArgs
    nonisolated(unsafe) let data = userData
    MainActor.assumeIsolated {
        let object = Unmanaged<WaylandProxy>.fromOpaque(data).takeUnretainedValue()
        WaylandTraffic.record(.event, proxy: object, opcode: opcode)
        object.dispatch(opcode: opcode, args: argv)
    }
    return 0
}

/// A `wl_array` for an array argument of a request (bindings generated into
/// other modules use it too).
@_spi(Bindings) public struct WaylandArray {
    public let pointer: UnsafeMutablePointer<wl_array>

    public init(_ bytes: [UInt8]) {
        pointer = .allocate(capacity: 1)
        wl_array_init(pointer)
        if !bytes.isEmpty, let dst = wl_array_add(pointer, bytes.count) {
            bytes.withUnsafeBytes { dst.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        }
    }

    public mutating func release() {
        wl_array_release(pointer)
        pointer.deallocate()
    }

    public static func bytes(_ array: UnsafeMutablePointer<wl_array>?) -> [UInt8] {
        guard let array, array.pointee.size > 0, let data = array.pointee.data else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: array.pointee.size))
    }
}
