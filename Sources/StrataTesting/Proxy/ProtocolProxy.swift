import CShims
import Dispatch
import Foundation
import Glibc
import WaylandClient

/// A Wayland protocol proxy between clients and a compositor, for measuring
/// and checking any client: it listens on a socket of its own, connects each
/// client that comes to the compositor, and passes every message on — file
/// descriptors included — after reading it. The trace (``messages``) holds
/// every message decoded by the protocol XML the kit knows (interfaces it does
/// not know pass through raw), with the time it went by; ``ProxyTrace`` reads
/// pacing and rules from it.
///
/// A client that sends what cannot be a message (a malformed header, an object
/// never made, arguments past the end) is cut off there: the bytes before go
/// to the compositor, the rest does not, and ``problems`` says at which byte.
/// The compositor sees the client disconnect, nothing worse.
///
/// The proxy runs on a thread of its own, so a client in this process (a
/// Strata window on `Display(socket: proxy.socketPath)`) works through it; it
/// runs until ``stop()``.
public final class ProtocolProxy: @unchecked Sendable {
    /// Where clients connect (`WAYLAND_DISPLAY` may name it: it is absolute).
    public let socketPath: String
    public let upstreamPath: String
    private let schema: ProtocolSchema
    private let lock = NSLock()
    private var trace: [WireMessage] = []
    private var problemList: [String] = []
    private var connectionCount = 0
    private var droppedMessages = 0
    private let listener: Int32
    private let wake: [Int32]
    private let finished = DispatchSemaphore(value: 0)
    private var running = true
    /// Messages kept at most; later ones are counted in ``dropped``.
    public static let capacity = 2_000_000

    /// Listens at `socketPath` (a new path) for clients of the compositor at
    /// `upstream` (a socket path). `schema`: the interfaces it decodes, by
    /// default WaylandClient's and this kit's.
    @MainActor
    public init(upstream: String, socketPath: String, schema: ProtocolSchema? = nil) throws(CompositorError) {
        self.socketPath = socketPath
        upstreamPath = upstream
        self.schema = schema ?? TestingInterfaceTable.schema
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .launchFailed(command: "the proxy's socket", errno: errno) }
        guard Self.withAddress(socketPath, { bind(fd, $0, $1) }) == 0, listen(fd, 16) == 0 else {
            let e = errno
            close(fd)
            throw .launchFailed(command: "the proxy's socket at \(socketPath)", errno: e)
        }
        // Clients may run as another user (sway's, when this process is root): the
        // socket is open to whoever reaches its directory.
        chmod(socketPath, 0o777)
        listener = fd
        do { wake = try closeOnExecPipe() } catch {
            close(fd)
            throw error
        }
        let thread = Thread { [self] in self.serve() }
        thread.name = "strata-proxy"
        thread.start()
    }

    /// Every message so far, in the order the proxy passed them on.
    public var messages: [WireMessage] { lock.withLock { trace } }
    /// Clients cut off for sending what cannot be a message, and connections that failed.
    public var problems: [String] { lock.withLock { problemList } }
    /// Clients that connected so far.
    public var connections: Int { lock.withLock { connectionCount } }
    /// Messages passed on but not kept (past ``capacity``).
    public var dropped: Int { lock.withLock { droppedMessages } }

    /// Stops listening, closes every connection and waits for the thread. Safe to call twice.
    public func stop() {
        guard lock.withLock({ let was = running; running = false; return was }) else { return }
        _ = write(wake[1], "x", 1)
        finished.wait()
        close(listener)
        close(wake[0])
        close(wake[1])
        unlink(socketPath)
    }

    // MARK: The thread

    private final class Connection {
        let number: Int
        let client: Int32
        let server: Int32
        var decoder: WireDecoder
        /// Bytes and descriptors read from each side, not yet passed on.
        var fromClient: [UInt8] = [], fromServer: [UInt8] = []
        var clientFDs: [Int32] = [], serverFDs: [Int32] = []
        /// Bytes of the client's passed on before `fromClient`.
        var clientOffset = 0
        init(number: Int, client: Int32, server: Int32, schema: ProtocolSchema) {
            (self.number, self.client, self.server) = (number, client, server)
            decoder = WireDecoder(schema: schema, connection: number)
        }
        func close() {
            Glibc.close(client)
            Glibc.close(server)
            for fd in clientFDs + serverFDs { Glibc.close(fd) }
        }
    }

    private func serve() {
        var connections: [Connection] = []
        defer {
            for c in connections { c.close() }
            finished.signal()
        }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var fds = [Int32](repeating: -1, count: 64)
        while lock.withLock({ running }) {
            var polled = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake[0], events: Int16(POLLIN), revents: 0)]
            for c in connections {
                polled.append(pollfd(fd: c.client, events: Int16(POLLIN), revents: 0))
                polled.append(pollfd(fd: c.server, events: Int16(POLLIN), revents: 0))
            }
            guard poll(&polled, nfds_t(polled.count), 1000) >= 0 || errno == EINTR else { return note("poll failed: errno \(errno)") }
            let watched = connections
            if polled[0].revents & Int16(POLLIN) != 0 { accept(into: &connections) }
            var ended: Set<Int> = []
            for (index, c) in watched.enumerated() {
                for (side, fromClient) in [(polled[2 + 2 * index], true), (polled[3 + 2 * index], false)] where side.revents != 0 {
                    var count: Int32 = 0
                    let n = strata_receive_with_fds(side.fd, &buffer, buffer.count, &fds, Int32(fds.count), &count)
                    guard n > 0 else {
                        ended.insert(c.number)
                        break
                    }
                    if fromClient {
                        c.fromClient += buffer[..<n]
                        c.clientFDs += fds[..<Int(count)]
                    } else {
                        c.fromServer += buffer[..<n]
                        c.serverFDs += fds[..<Int(count)]
                    }
                    if !pass(c, fromClient: fromClient) {
                        ended.insert(c.number)
                        break
                    }
                }
            }
            for c in connections where ended.contains(c.number) { c.close() }
            connections.removeAll { ended.contains($0.number) }
        }
    }

    private func accept(into connections: inout [Connection]) {
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { return }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        let number = lock.withLock { connectionCount += 1; return connectionCount }
        guard server >= 0, Self.withAddress(upstreamPath, { connect(server, $0, $1) }) == 0 else {
            note("client \(number): cannot reach the compositor at \(upstreamPath): errno \(errno)")
            close(client)
            if server >= 0 { close(server) }
            return
        }
        connections.append(Connection(number: number, client: client, server: server, schema: schema))
    }

    /// Decodes the whole messages read from one side, keeps them, and sends
    /// them on with their descriptors; false when the connection must end.
    private func pass(_ c: Connection, fromClient: Bool) -> Bool {
        // Taken out of the connection (and put back below), so changing them copies nothing.
        var bytes: [UInt8] = [], queue: [Int32] = []
        if fromClient {
            swap(&bytes, &c.fromClient)
            swap(&queue, &c.clientFDs)
        } else {
            swap(&bytes, &c.fromServer)
            swap(&queue, &c.serverFDs)
        }
        let target = fromClient ? c.server : c.client
        var start = 0
        var decoded: [WireMessage] = []
        var failure: String?
        let time = now()
        while true {
            let size: Int?
            do { size = try WireDecoder.messageSize(bytes[start...]) } catch {
                failure = "\(error)"
                break
            }
            guard let size else { break }
            do {
                decoded.append(try c.decoder.decode(bytes[start..<(start + size)], direction: fromClient ? .request : .event, time: time))
            } catch {
                failure = "\(error)"
                break
            }
            start += size
        }
        // What was whole goes on with its descriptors, in order, at most 28 a
        // send (what libwayland takes at once). A raw message takes all there
        // are: the receiver hands them to messages in order, whichever send
        // brought them, so only their order matters.
        var sentBytes = 0, sentFDs = 0
        var batchEnd = 0, batchFDs = 0
        func flush() -> Bool {
            guard batchEnd > sentBytes else { return true }
            let ok = send(target, Array(bytes[sentBytes..<batchEnd]), Array(queue[sentFDs..<(sentFDs + batchFDs)]))
            sentBytes = batchEnd
            sentFDs += batchFDs
            batchFDs = 0
            return ok
        }
        var delivered = true
        for m in decoded where delivered {
            let available = queue.count - sentFDs - batchFDs
            let carried = min(available, m.name == nil ? 28 : m.fileDescriptors)
            if batchFDs + carried > 28 { delivered = flush() }
            batchEnd += m.size
            batchFDs += carried
        }
        guard delivered && flush() else {
            for fd in queue { close(fd) }   // the connection ends: nothing is left to close later
            return false
        }
        for fd in queue[..<sentFDs] { close(fd) }
        queue.removeFirst(sentFDs)
        bytes.removeFirst(start)
        lock.withLock {
            let room = max(0, Self.capacity - trace.count)
            trace += decoded.prefix(room)
            droppedMessages += max(0, decoded.count - room)
        }
        if fromClient {
            c.fromClient = bytes
            c.clientFDs = queue
            if let failure {
                note("client \(c.number) sent what cannot be a message at byte \(c.clientOffset + start) of its stream: \(failure); it was cut off")
                return false
            }
            c.clientOffset += start
        } else {
            c.fromServer = bytes
            c.serverFDs = queue
            if let failure {
                note("the compositor sent what cannot be a message to client \(c.number): \(failure)")
                return false
            }
        }
        return true
    }

    private func send(_ fd: Int32, _ bytes: [UInt8], _ fds: [Int32]) -> Bool {
        var offset = 0
        var passing = fds
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { strata_send_with_fds(fd, $0.baseAddress, $0.count, passing, Int32(passing.count)) }
            guard n > 0 else { return false }
            offset += n
            passing = []
        }
        return true
    }

    private func note(_ problem: String) { lock.withLock { problemList.append(problem) } }

    private static func withAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return -1 }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in bytes.enumerated() { raw[i] = b } }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}
