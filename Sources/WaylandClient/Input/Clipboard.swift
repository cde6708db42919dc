import Glibc

/// A seat's selection — copy and paste of text (`wl_data_device`): what other
/// clients offer, read through a pipe without blocking, and text offered to
/// them, written when they ask.
@MainActor
public final class Clipboard {
    /// MIME types of text, best first.
    public static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    public let device: WlDataDevice
    private let manager: WlDataDeviceManager
    private let connection: Connection
    /// Offers announced but not yet the selection, with their MIME types.
    private var announced: [(offer: WlDataOffer, types: [String])] = []
    /// The selection's offer and MIME types (nil: empty, or our own).
    public private(set) var selection: (offer: WlDataOffer, types: [String])?
    private var source: WlDataSource?
    /// The text we offer while we hold the selection.
    public private(set) var ownText: String?
    /// Told when the selection changes.
    public var onChange: (() -> Void)?
    private var transfers: [PipeTransfer] = []

    public init(display: Display, seat: Seat) throws(WaylandError) {
        guard let manager = display.dataDeviceManager else { throw .missingGlobal(interface: WlDataDeviceManager.interfaceName) }
        self.manager = manager
        connection = display.connection
        device = manager.getDataDevice(seat: seat.proxy)
        device.onEvent = { [unowned self] event in
            switch event {
            case let .dataOffer(offer):
                announced.append((offer, []))
                offer.onEvent = { [unowned self, unowned offer] e in
                    if case let .offer(type) = e, let i = announced.firstIndex(where: { $0.offer === offer }) { announced[i].types.append(type) }
                }
            case let .selection(offer):
                if let old = selection?.offer, old !== offer { old.destroy() }
                if let offer, let i = announced.firstIndex(where: { $0.offer === offer }) {
                    selection = announced.remove(at: i)
                } else {
                    selection = nil
                }
                for stale in announced { stale.offer.destroy() }
                announced = []
                onChange?()
            default:
                break   // drag and drop: not yet
            }
        }
    }

    /// True when the selection offers text.
    public var offersText: Bool { selection?.types.contains(where: Self.textTypes.contains) ?? false }

    /// Reads the selection's text: at most `limit` bytes within `timeout` seconds;
    /// bytes that are not UTF-8 become U+FFFD. Our own selection is read without a pipe.
    public func readText(limit: Int = 16 << 20, timeout: Double = 5,
                         completion: @escaping @MainActor @Sendable (Result<String?, PipeTransfer.Failure>) -> Void) {
        if let ownText, source != nil { return completion(.success(ownText)) }
        guard let selection, let type = Self.textTypes.first(where: selection.types.contains) else { return completion(.success(nil)) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return completion(.failure(.failed(errno: errno))) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        selection.offer.receive(mimeType: type, fd: fds[1])
        close(fds[1])
        try? connection.flush()
        track(PipeTransfer.read(fds[0], limit: limit, timeout: timeout, deliver: connection.post) { result in
            completion(result.map { String(decoding: $0, as: UTF8.self) })
        })
    }

    /// Keeps a transfer alive until it finishes.
    private func track(_ transfer: PipeTransfer) {
        transfers.removeAll(where: \.isFinished)
        transfers.append(transfer)
    }

    /// Offers `text` as the selection (nil: clears ours), quoting the serial of a
    /// recent input event, as the protocol requires.
    public func setText(_ text: String?, serial: UInt32) {
        source?.destroy()
        source = nil
        ownText = text
        guard let text else { return device.setSelection(source: nil, serial: serial) }
        let s = manager.createDataSource()
        for type in Self.textTypes { s.offer(mimeType: type) }
        let bytes = Array(text.utf8)
        s.onEvent = { [unowned self, unowned s] event in
            switch event {
            case let .send(_, fd):
                track(PipeTransfer.write(bytes, to: fd, deliver: connection.post))
            case .cancelled:
                // Another client took the selection.
                if source === s { source = nil; ownText = nil }
                s.destroy()
            default:
                break
            }
        }
        source = s
        device.setSelection(source: s, serial: serial)
        try? connection.flush()
    }
}
