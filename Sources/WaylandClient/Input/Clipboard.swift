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
    /// Drag and drop on the clipboard's data device (the clipboard kind only).
    public private(set) var dragAndDrop: DragAndDrop?

    private let connection: Connection
    /// A new source of the selection's protocol.
    private let makeSource: () -> any SelectionSource
    /// Sets the selection to a source (nil: clears it), quoting an input serial.
    private let setSource: ((any SelectionSource)?, UInt32) -> Void
    /// Offers announced but not yet the selection, with their MIME types.
    private var announced: [(offer: any SelectionOffer, types: [String])] = []
    /// The selection's offer and MIME types (nil: empty, or our own).
    private var selection: (offer: any SelectionOffer, types: [String])?
    /// Our source while we hold the selection.
    private var source: (any SelectionSource)?
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
            let dnd = try DragAndDrop(display: display, seat: seat)
            dragAndDrop = dnd
            let manager = display.dataDeviceManager!
            makeSource = { manager.createDataSource() }
            setSource = { dnd.device.setSelection(source: $0 as? WlDataSource, serial: $1) }
            dnd.onSelection = { [weak self] offer, types in   // the drag and drop may outlive its clipboard
                guard let self else { return }
                if let old = selection, old.offer !== offer { old.offer.destroy() }
                selection = offer.map { ($0, types) }
                onChange?()
            }
        case .primary:
            guard let manager = display.primarySelectionManager else {
                throw .missingGlobal(interface: ZwpPrimarySelectionDeviceManagerV1.interfaceName)
            }
            let device = manager.getDevice(seat: seat.proxy)
            makeSource = { manager.createSource() }
            setSource = { device.setSelection(source: $0 as? ZwpPrimarySelectionSourceV1, serial: $1) }
            device.onEvent = { [unowned self] event in
                switch event {
                case let .dataOffer(offer): announce(offer)
                case let .selection(offer): select(offer)
                }
            }
        }
    }

    private func announce(_ offer: any SelectionOffer) {
        announced.append((offer, []))
        offer.onMimeType { [unowned self, unowned offer] type in
            if let i = announced.firstIndex(where: { $0.offer === offer }) { announced[i].types.append(type) }
        }
    }

    private func select(_ proxy: WaylandProxy?) {
        if let old = selection, old.offer !== proxy { old.offer.destroy() }
        if let proxy, let i = announced.firstIndex(where: { $0.offer === proxy }) {
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
        let transfer = selection.offer.receive(type, on: connection, limit: limit, timeout: timeout) { result in
            completion(result.map { String(decoding: $0, as: UTF8.self) })
        }
        if let transfer { track(transfer) }
    }

    /// Keeps a transfer alive until it finishes.
    private func track(_ transfer: PipeTransfer) {
        transfers.removeAll(where: \.isFinished)
        transfers.append(transfer)
    }

    /// Offers `text` as the selection (nil: clears ours), quoting the serial of a
    /// recent input event, as the protocols require.
    public func setText(_ text: String?, serial: UInt32) {
        if let old = source, !old.isDestroyed { old.destroy() }
        source = nil
        ownText = text
        guard let text else { return setSource(nil, serial) }
        let bytes = Array(text.utf8)
        let deliver = connection.poster
        let s = makeSource()
        for type in Self.textTypes { s.offer(mimeType: type) }
        s.onRequests(send: { [weak self] fd in
            self?.track(PipeTransfer.write(bytes, to: fd, deliver: deliver))
        }, cancelled: { [weak self, weak s] in
            // Another client took the selection (a replaced source's cancel changes nothing).
            guard let self, let s, source === s else { return }
            source = nil
            ownText = nil
        })
        source = s
        setSource(s, serial)
        try? connection.flush()
    }
}
