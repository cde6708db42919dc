import Dispatch
import Glibc
import Strata

/// One running instance of a small shell app, as wob and mako are: the first
/// call listens on a Unix socket in the session's runtime directory; later calls
/// hand their message (one line) to it and exit. A socket left by an instance
/// that died is taken over.
@MainActor
public final class SingleInstance {
    public let path: String
    private let fd: Int32
    private let source: DispatchSourceRead

    /// The socket for `name` in this session: `$XDG_RUNTIME_DIR/strata-NAME.<WAYLAND_DISPLAY>.sock`.
    public static func path(for name: String) -> String {
        let env = { (n: String) in getenv(n).map { String(cString: $0) } }
        let display = (env("WAYLAND_DISPLAY") ?? "wayland-0").split(separator: "/").last.map(String.init) ?? "wayland-0"
        return "\(env("XDG_RUNTIME_DIR") ?? "/tmp")/strata-\(name).\(display).sock"
    }

    /// Sends `message` to the instance listening at `path`: false when none listens.
    public nonisolated static func send(_ message: String, to path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard var address = unixAddress(path) else { return false }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { return false }
        let line = message + "\n"
        return line.withCString { write(fd, $0, strlen($0)) } == line.utf8.count
    }

    /// Listens at `path`; each line a later instance sends reaches `receive` on
    /// the main actor (at most 4 KiB a connection). Throws when the path cannot be
    /// bound (too long, or the directory not writable).
    public init(path: String, receive: @escaping @MainActor (String) -> Void) throws {
        self.path = path
        guard var address = Self.unixAddress(path) else { throw SingleInstanceError.pathTooLong(path) }
        unlink(path)   // only reached when nothing answered there: a dead instance's socket
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            let e = errno
            if fd >= 0 { close(fd) }
            throw SingleInstanceError.cannotListen(path, errno: e)
        }
        self.fd = fd
        let listener = fd
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue.global())
        source.setEventHandler { @Sendable in
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                // A client that connects and sends nothing is given a second, then dropped.
                var timeout = timeval(tv_sec: 1, tv_usec: 0)
                setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                let bytes = SystemStatus.readBytes(client, limit: 4096)
                close(client)
                let text = String(decoding: bytes, as: UTF8.self)
                for line in text.split(whereSeparator: \.isNewline) {
                    let message = String(line)
                    DispatchQueue.main.async { MainActor.assumeIsolated { receive(message) } }
                }
            }
        }
        source.resume()
    }

    /// Stops listening and removes the socket.
    public func stop() {
        source.cancel()
        close(fd)
        unlink(path)
    }

    nonisolated static func unixAddress(_ path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        return address
    }
}

public enum SingleInstanceError: Error, CustomStringConvertible {
    case pathTooLong(String)
    case cannotListen(String, errno: Int32)
    public var description: String {
        switch self {
        case let .pathTooLong(p): "the socket path is too long for a Unix socket: \(p)"
        case let .cannotListen(p, e): "cannot listen at \(p): \(String(cString: strerror(e)))"
        }
    }
}
