/// What a `Clipboard` needs of an offer, from either selection protocol
/// (`wl_data_offer`, `zwp_primary_selection_offer_v1`).
@MainActor
protocol SelectionOffer: WaylandProxy {
    func receive(mimeType: String, fd: Int32)
    func destroy()
    /// Calls `body` with each MIME type the offer announces.
    func onMimeType(_ body: @escaping (String) -> Void)
}

/// What a `Clipboard` needs of a source, from either selection protocol
/// (`wl_data_source`, `zwp_primary_selection_source_v1`).
@MainActor
protocol SelectionSource: WaylandProxy {
    func offer(mimeType: String)
    func destroy()
    /// Calls `send` with the pipe to write to when a client asks, and `cancelled`
    /// when another client takes the selection (the source is destroyed then).
    func onRequests(send: @escaping (Int32) -> Void, cancelled: @escaping () -> Void)
}

extension WlDataOffer: SelectionOffer {
    func onMimeType(_ body: @escaping (String) -> Void) {
        onEvent = { if case let .offer(type) = $0 { body(type) } }
    }
}

extension ZwpPrimarySelectionOfferV1: SelectionOffer {
    func onMimeType(_ body: @escaping (String) -> Void) {
        onEvent = { if case let .offer(type) = $0 { body(type) } }
    }
}

extension WlDataSource: SelectionSource {
    func onRequests(send: @escaping (Int32) -> Void, cancelled: @escaping () -> Void) {
        onEvent = { [unowned self] event in
            switch event {
            case let .send(_, fd): send(fd)
            case .cancelled: cancelled(); destroy()
            default: break   // drag and drop
            }
        }
    }
}

extension ZwpPrimarySelectionSourceV1: SelectionSource {
    func onRequests(send: @escaping (Int32) -> Void, cancelled: @escaping () -> Void) {
        onEvent = { [unowned self] event in
            switch event {
            case let .send(_, fd): send(fd)
            case .cancelled: cancelled(); destroy()
            }
        }
    }
}
