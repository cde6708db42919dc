import WaylandClient

/// A drag over a window as the seat reports it (or ``InputDriver``, or the
/// window's own drag offscreen), in window coordinates.
public enum DropInput {
    /// A drag came over the window offering `types`; `load` reads the data of
    /// one type (nil when it cannot be read).
    case entered(Point, types: [String], allowed: Set<DropOperation>,
                 load: (String, @escaping @MainActor ([UInt8]?) -> Void) -> Void)
    case moved(Point)
    case left
    /// Dropped where it last was; `completion` gets what the drop did once the
    /// data was read and handed to the view.
    case dropped(completion: (DropOperation) -> Void)
}

/// Finds the view with a ``DropInteraction`` under a drag and talks to it: the
/// deepest view under the point whose interaction takes the drag, else its
/// nearest superview's (as UIKit looks for a drop interaction).
@MainActor
final class DropDispatcher {
    private unowned let window: Window
    private var session: DropSession?
    private var load: ((String, @escaping @MainActor ([UInt8]?) -> Void) -> Void)?
    private var target: DropInteraction?
    private(set) var operation = DropOperation.cancel

    init(window: Window) { self.window = window }

    @discardableResult
    func handle(_ input: DropInput) -> DropOperation {
        switch input {
        case let .entered(p, types, allowed, load):
            exit()
            session = DropSession(types: types, allowedOperations: allowed, at: p, window: window)
            self.load = load
            update()
        case let .moved(p):
            session?.windowLocation = p
            update()
        case .left:
            exit()
        case let .dropped(completion):
            guard let session, let target, let load, operation == .copy || operation == .move else {
                exit()
                completion(.cancel)
                return .cancel
            }
            let op = operation
            (self.session, self.target, self.load) = (nil, nil, nil)
            operation = .cancel
            Self.read(session, with: load) { items in
                // Nothing could be read (the source vanished, sent nothing in time or too much): no drop.
                guard !items.isEmpty else { return completion(.cancel) }
                target.performDrop(items, session)
                completion(op)
            }
            return op
        }
        return operation
    }

    private func exit() {
        if let session, let target { target.sessionDidExit(session) }
        (session, target, load) = (nil, nil, nil)
        operation = .cancel
    }

    private func update() {
        guard let session else { return }
        let p = session.windowLocation
        var view = window.rootView.hitTest(window.rootView.convert(p, from: nil), with: nil)
        var found: DropInteraction?
        while let v = view, found == nil {
            found = v.interactions.lazy.compactMap { $0 as? DropInteraction }.first { $0.canHandle(session) }
            view = v.superview
        }
        if found !== target {
            if let target { target.sessionDidExit(session) }
            target = found
        }
        guard let target else { return operation = .cancel }
        let op = target.sessionDidUpdate(session)
        operation = (op == .copy || op == .move) && !session.allowedOperations.contains(op) ? .forbidden : op
    }

    /// The drop's data as items: files from a URI list, text — each read once.
    private static func read(_ session: DropSession, with load: @escaping (String, @escaping @MainActor ([UInt8]?) -> Void) -> Void,
                             completion: @escaping @MainActor ([DragItem]) -> Void) {
        let textType = DragItem.textTypes.first(where: session.types.contains)
        func readText(_ items: [DragItem]) {
            guard let textType else { return completion(items) }
            load(textType) { bytes in completion(items + (bytes.map { [.text(String(decoding: $0, as: UTF8.self))] } ?? [])) }
        }
        guard session.hasFiles else { return readText([]) }
        load(DragItem.uriList) { bytes in
            let paths = bytes.map { DragItem.paths(fromURIList: String(decoding: $0, as: UTF8.self)) } ?? []
            readText(paths.isEmpty ? [] : [.files(paths)])
        }
    }
}

extension DropOperation {
    /// The Wayland action for an operation (none for refusals).
    var action: DragAndDrop.Action {
        switch self {
        case .copy: .copy
        case .move: .move
        case .cancel, .forbidden: []
        }
    }

    /// The operations a set of Wayland actions allows.
    static func allowed(by actions: DragAndDrop.Action) -> Set<DropOperation> {
        var s: Set<DropOperation> = []
        if actions.contains(.copy) { s.insert(.copy) }
        if actions.contains(.move) { s.insert(.move) }
        return s
    }
}
