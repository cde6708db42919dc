import Glibc

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

extension SelectionOffer {
    /// Asks the offer's client for its data of `mimeType` through a new pipe and
    /// reads it without blocking (at most `limit` bytes within `timeout`
    /// seconds): the transfer, which the caller keeps until it finishes; nil
    /// when no pipe could be made (the completion has been told).
    func receive(_ mimeType: String, on connection: Connection, limit: Int, timeout: Double,
                 completion: @escaping @MainActor @Sendable (Result<[UInt8], PipeTransfer.Failure>) -> Void) -> PipeTransfer? {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            completion(.failure(.failed(errno: errno)))
            return nil
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        receive(mimeType: mimeType, fd: fds[1])
        close(fds[1])
        try? connection.flush()
        return PipeTransfer.read(fds[0], limit: limit, timeout: timeout, deliver: connection.poster, completion: completion)
    }
}
