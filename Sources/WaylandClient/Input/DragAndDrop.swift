import Glibc

/// Drag and drop through a seat's `wl_data_device`: as a target, the offers a
/// drag brings over this client's surfaces (entered, moved, left, dropped),
/// which MIME type and action it accepts, and the data read through a pipe; as
/// a source, a drag started from a press, its data written when the target asks
/// and the action the drop ended with.
@MainActor
public final class DragAndDrop {
    public typealias Action = WlDataDeviceManager.DndAction

    /// What a drag over this client's surfaces does (surface coordinates).
    public enum TargetEvent {
        /// A drag came over `surface`, offering data in `types` and allowing `actions`.
        case entered(surface: SurfaceID, x: Double, y: Double, types: [String], actions: Action)
        case moved(x: Double, y: Double)
        /// It left, or was cancelled, or dropped where nothing was accepted.
        case left
        /// It was dropped at the last position: read with ``receive(mimeType:limit:timeout:completion:)``,
        /// then ``finishDrop()``.
        case dropped
    }

    /// Told of drags over this client's surfaces.
    public var onTargetEvent: ((TargetEvent) -> Void)?
    /// The seat's one data device carries the clipboard too: its selection
    /// (an offer and its MIME types, nil when empty) goes to the ``Clipboard``.
    var onSelection: ((WlDataOffer?, [String]) -> Void)?

    private let connection: Connection
    private let manager: WlDataDeviceManager
    let device: WlDataDevice
    /// Offers announced, with their MIME types and the source's actions.
    private var announced: [(offer: WlDataOffer, types: [String], actions: Action)] = []
    /// The drag over us now.
    private var current: (offer: WlDataOffer?, serial: UInt32, accepted: Action)?
    /// The drop being read: the compositor says `leave` right after `drop`, but
    /// the offer must live until the data is read and the drop finished.
    private var dropped: (offer: WlDataOffer?, accepted: Action)?
    /// Our own drag, while it lasts.
    private var source: WlDataSource?
    private var transfers: [PipeTransfer] = []

    /// The seat's data device (one per seat: some compositors tell only one of a
    /// client's devices); ``Clipboard`` makes it and shares it.
    init(display: Display, seat: Seat) throws(WaylandError) {
        guard let manager = display.dataDeviceManager else { throw .missingGlobal(interface: WlDataDeviceManager.interfaceName) }
        connection = display.connection
        self.manager = manager
        device = manager.getDataDevice(seat: seat.proxy)
        device.onEvent = { [unowned self] event in
            switch event {
            case let .dataOffer(offer): announce(offer)
            case let .enter(serial, surface, x, y, offer): enter(serial: serial, surface: surface, x: x, y: y, offer: offer)
            case let .motion(_, x, y): if current != nil { onTargetEvent?(.moved(x: x, y: y)) }
            case .leave: leave()
            case .drop:
                guard let c = current else { break }
                current = nil
                finishDrop()   // a drop still being read when another comes is abandoned
                dropped = (c.offer, c.accepted)
                onTargetEvent?(.dropped)
            case let .selection(offer):
                let entry = offer.flatMap { o in announced.firstIndex { $0.offer === o }.map { announced.remove(at: $0) } }
                // Offers announced and neither selected nor dragged in are stale.
                for stale in announced { stale.offer.destroy() }
                announced = []
                onSelection?(entry?.offer, entry?.types ?? [])
            }
        }
    }

    private func announce(_ offer: WlDataOffer) {
        announced.append((offer, [], []))
        offer.onEvent = { [unowned self, unowned offer] event in
            guard let i = announced.firstIndex(where: { $0.offer === offer }) else { return }
            switch event {
            case let .offer(type): announced[i].types.append(type)
            case let .sourceActions(actions): announced[i].actions = actions
            case .action: break
            }
        }
    }

    private func enter(serial: UInt32, surface: WlSurface?, x: Double, y: Double, offer: WlDataOffer?) {
        leave()
        let entry = offer.flatMap { o in announced.firstIndex { $0.offer === o }.map { announced.remove(at: $0) } }
        current = (offer, serial, [])
        guard let surface else { return }
        // An offer before version 3 says nothing of actions: it copies.
        let actions: Action = entry.map { offer?.version ?? 0 >= 3 ? $0.actions : .copy } ?? []
        onTargetEvent?(.entered(surface: surface.surfaceID, x: x, y: y, types: entry?.types ?? [], actions: actions))
    }

    private func leave() {
        guard let c = current else { return }
        current = nil
        c.offer?.destroy()
        onTargetEvent?(.left)
    }

    /// The target's answer while a drag is over it: the MIME type it would take
    /// (nil: none — the drop would be refused) and the action, sent on every
    /// change of place.
    public func accept(mimeType: String?, action: Action) {
        guard let c = current, let offer = c.offer else { return }
        let accepted: Action = mimeType == nil ? [] : action
        offer.accept(serial: c.serial, mimeType: mimeType)
        if offer.version >= 3 { offer.setActions(dndActions: accepted, preferredAction: accepted) }
        current?.accepted = accepted
        try? connection.flush()
    }

    /// Reads the dropped data of `mimeType` (at most `limit` bytes within `timeout` seconds).
    public func receive(mimeType: String, limit: Int = 64 << 20, timeout: Double = 5,
                        completion: @escaping @MainActor @Sendable (Result<[UInt8], PipeTransfer.Failure>) -> Void) {
        guard let offer = dropped?.offer ?? current?.offer else { return completion(.failure(.failed(errno: ENOENT))) }
        if let t = offer.receive(mimeType, on: connection, limit: limit, timeout: timeout, completion: completion) { track(t) }
    }

    /// Ends the drop: tells the source it succeeded (protocol version 3) and lets the offer go.
    public func finishDrop() {
        guard let d = dropped else { return }
        dropped = nil
        if let offer = d.offer {
            if offer.version >= 3, !d.accepted.isEmpty { offer.finish() }
            offer.destroy()
        }
        try? connection.flush()
    }

    /// Starts a drag from a window's or popup's surface (``startDrag(_:actions:origin:serial:completion:)``).
    public func startDrag(_ data: [(mimeType: String, bytes: [UInt8])], actions: Action = .copy, from surface: FramedSurface, serial: UInt32,
                          completion: @escaping (Action?) -> Void) {
        startDrag(data, actions: actions, origin: surface.surface, serial: serial, completion: completion)
    }

    /// Starts dragging `data` (bytes by MIME type, in order of preference) from
    /// `origin`, quoting the serial of the press that holds the pointer; allows
    /// `actions`. `completion` gets the action the target took, or nil when the
    /// drag was cancelled or refused.
    public func startDrag(_ data: [(mimeType: String, bytes: [UInt8])], actions: Action = .copy, origin: WlSurface, serial: UInt32,
                          completion: @escaping (Action?) -> Void) {
        cancelDrag()
        let s = manager.createDataSource()
        for item in data { s.offer(mimeType: item.mimeType) }
        if s.version >= 3 { s.setActions(dndActions: actions) }
        var chosen: Action = s.version >= 3 ? [] : .copy
        let deliver = connection.poster
        s.onEvent = { [unowned self, unowned s] event in
            switch event {
            case let .send(type, fd):
                if let item = data.first(where: { $0.mimeType == type }) {
                    track(PipeTransfer.write(item.bytes, to: fd, deliver: deliver))
                } else {
                    close(fd)
                }
            case let .action(action): chosen = action
            case .dndFinished:
                end(s)
                completion(chosen.isEmpty ? .copy : chosen)
            case .dndDropPerformed:
                if s.version < 3 { end(s); completion(.copy) }   // no finished event before version 3
            case .cancelled:
                end(s)
                completion(nil)
            case .target: break
            }
        }
        source = s
        device.startDrag(source: s, origin: origin, icon: nil, serial: serial)
        try? connection.flush()
    }

    /// True while a drag this client started is under way.
    public var isDragging: Bool { source != nil }

    private func end(_ s: WlDataSource) {
        if source === s { source = nil }
        s.destroy()
    }

    private func cancelDrag() {
        if let s = source { end(s) }
    }

    /// Keeps a transfer alive until it finishes.
    private func track(_ transfer: PipeTransfer) {
        transfers.removeAll(where: \.isFinished)
        transfers.append(transfer)
    }
}
