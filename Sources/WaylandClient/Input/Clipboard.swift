import Glibc

/// A seat's selection — the clipboard (`wl_data_device`) or the primary
/// selection that middle-click pastes (`zwp_primary_selection_device_v1`):
/// what other clients offer, read through a pipe without blocking, and text
/// offered to them, written when they ask.
@MainActor
public final class Clipboard {
    /// MIME types of text, best first.
    public static let textTypes = ["text/plain;charset=utf-8", "UTF8_STRING", "text/plain", "TEXT", "STRING"]

    public enum Kind: Sendable { case clipboard, primary }
    public let kind: Kind

    /// An offer of either protocol.
    @MainActor
    private enum Offer {
        case data(WlDataOffer)
        case primary(ZwpPrimarySelectionOfferV1)
        var proxy: WaylandProxy { switch self { case .data(let o): o; case .primary(let o): o } }
        func receive(_ type: String, _ fd: Int32) {
            switch self { case .data(let o): o.receive(mimeType: type, fd: fd); case .primary(let o): o.receive(mimeType: type, fd: fd) }
        }
        func destroy() { switch self { case .data(let o): o.destroy(); case .primary(let o): o.destroy() } }
    }

    private let connection: Connection
    /// Makes a source offering `types`, sets it as the selection, and returns it
    /// with the request that destroys it.
    private let setSelection: (_ types: [String], _ serial: UInt32, _ send: @escaping (Int32) -> Void,
                               _ cancelled: @escaping () -> Void) -> (source: WaylandProxy, destroy: () -> Void)
    private let clearSelection: (_ serial: UInt32) -> Void
    /// Offers announced but not yet the selection, with their MIME types.
    private var announced: [(offer: Offer, types: [String])] = []
    /// The selection's offer and MIME types (nil: empty, or our own).
    private var selection: (offer: Offer, types: [String])?
    /// Our source while we hold the selection, and how to destroy it.
    private var source: (source: WaylandProxy, destroy: () -> Void)?
    /// The text we offer while we hold the selection.
    public private(set) var ownText: String?
    /// Told when the selection changes.
    public var onChange: (() -> Void)?
    private var transfers: [PipeTransfer] = []

    /// The selection of `kind` on `seat`; throws where the compositor offers none.
    public init(display: Display, seat: Seat, kind: Kind = .clipboard) throws(WaylandError) {
        self.kind = kind
        connection = display.connection
        switch kind {
        case .clipboard:
            guard let manager = display.dataDeviceManager else { throw .missingGlobal(interface: WlDataDeviceManager.interfaceName) }
            let device = manager.getDataDevice(seat: seat.proxy)
            (setSelection, clearSelection) = Self.sourceFunctions(create: { manager.createDataSource() }, offer: { $0.offer(mimeType: $1) },
                                                                  set: { device.setSelection(source: $0, serial: $1) },
                                                                  clear: { device.setSelection(source: nil, serial: $0) },
                                                                  events: { s, send, cancelled in
                s.onEvent = { [unowned s] e in
                    switch e {
                    case let .send(_, fd): send(fd)
                    case .cancelled: cancelled(); s.destroy()
                    default: break
                    }
                }
            }, destroy: { $0.destroy() })
            device.onEvent = { [unowned self] event in
                switch event {
                case let .dataOffer(offer):
                    announce(.data(offer))
                    offer.onEvent = { [unowned self, unowned offer] in if case let .offer(type) = $0 { addType(type, to: offer) } }
                case let .selection(offer): select(offer)
                default: break   // drag and drop: not yet
                }
            }
        case .primary:
            guard let manager = display.primarySelectionManager else {
                throw .missingGlobal(interface: ZwpPrimarySelectionDeviceManagerV1.interfaceName)
            }
            let device = manager.getDevice(seat: seat.proxy)
            (setSelection, clearSelection) = Self.sourceFunctions(create: { manager.createSource() }, offer: { $0.offer(mimeType: $1) },
                                                                  set: { device.setSelection(source: $0, serial: $1) },
                                                                  clear: { device.setSelection(source: nil, serial: $0) },
                                                                  events: { s, send, cancelled in
                s.onEvent = { [unowned s] e in
                    switch e {
                    case let .send(_, fd): send(fd)
                    case .cancelled: cancelled(); s.destroy()
                    }
                }
            }, destroy: { $0.destroy() })
            device.onEvent = { [unowned self] event in
                switch event {
                case let .dataOffer(offer):
                    announce(.primary(offer))
                    offer.onEvent = { [unowned self, unowned offer] in if case let .offer(type) = $0 { addType(type, to: offer) } }
                case let .selection(offer): select(offer)
                }
            }
        }
    }

    /// The two ways of setting the selection, for either protocol's source type.
    private static func sourceFunctions<Source: WaylandProxy>(
        create: @escaping () -> Source, offer: @escaping (Source, String) -> Void, set: @escaping (Source, UInt32) -> Void,
        clear: @escaping (UInt32) -> Void, events: @escaping (Source, @escaping (Int32) -> Void, @escaping () -> Void) -> Void,
        destroy: @escaping (Source) -> Void
    ) -> ((_ types: [String], _ serial: UInt32, _ send: @escaping (Int32) -> Void, _ cancelled: @escaping () -> Void)
            -> (source: WaylandProxy, destroy: () -> Void),
          (UInt32) -> Void) {
        ({ types, serial, send, cancelled in
            let source = create()
            for type in types { offer(source, type) }
            events(source, send, cancelled)
            set(source, serial)
            return (source, { [weak source] in if let source, !source.isDestroyed { destroy(source) } })
        }, clear)
    }

    private func announce(_ offer: Offer) { announced.append((offer, [])) }

    private func addType(_ type: String, to proxy: WaylandProxy) {
        if let i = announced.firstIndex(where: { $0.offer.proxy === proxy }) { announced[i].types.append(type) }
    }

    private func select(_ proxy: WaylandProxy?) {
        if let old = selection, old.offer.proxy !== proxy { old.offer.destroy() }
        if let proxy, let i = announced.firstIndex(where: { $0.offer.proxy === proxy }) {
            selection = announced.remove(at: i)
        } else {
            selection = nil
        }
        for stale in announced { stale.offer.destroy() }
        announced = []
        onChange?()
    }

    /// True when the selection offers text.
    public var offersText: Bool { selection?.types.contains(where: Self.textTypes.contains) ?? false }

    /// Reads the selection's text: at most `limit` bytes within `timeout` seconds;
    /// bytes that are not UTF-8 become U+FFFD. Our own selection is read without a pipe.
    public func readText(limit: Int = 16 << 20, timeout: Double = 5,
                         completion: @escaping @MainActor @Sendable (Result<String?, PipeTransfer.Failure>) -> Void) {
        if let ownText { return completion(.success(ownText)) }
        guard let selection, let type = Self.textTypes.first(where: selection.types.contains) else { return completion(.success(nil)) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return completion(.failure(.failed(errno: errno))) }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        selection.offer.receive(type, fds[1])
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
    /// recent input event, as the protocols require.
    public func setText(_ text: String?, serial: UInt32) {
        source?.destroy()
        source = nil
        ownText = text
        guard let text else { return clearSelection(serial) }
        let bytes = Array(text.utf8)
        let deliver = connection.post
        var made: WaylandProxy?
        source = setSelection(Self.textTypes, serial, { [weak self] fd in
            self?.track(PipeTransfer.write(bytes, to: fd, deliver: deliver))
        }, { [weak self] in
            // Another client took the selection (a replaced source's cancel changes nothing).
            guard let self, let current = source, current.source === made else { return }
            source = nil
            ownText = nil
        })
        made = source?.source
        try? connection.flush()
    }
}
