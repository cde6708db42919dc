/// Makes a view a place to drop text and files, from this app or another
/// (`UIDropInteraction` with its delegate's methods as closures). While a drag
/// is over the view (or a subview without an interaction of its own), the
/// interaction says what a drop would do; on a drop Strata reads the data and
/// hands it over as ``DragItem``s.
@MainActor
public final class DropInteraction: Interaction {
    public internal(set) weak var view: View?
    /// Whether the view takes this drag at all (`canHandle`); by default when it offers text or files.
    public var canHandle: (DropSession) -> Bool = { $0.hasText || $0.hasFiles }
    /// What a drop here would do, asked as the drag enters and moves (`sessionDidUpdate`); `.copy` by default.
    public var sessionDidUpdate: (DropSession) -> DropOperation = { _ in .copy }
    /// The drag left, was cancelled, or was dropped elsewhere (`sessionDidExit`).
    public var sessionDidExit: (DropSession) -> Void = { _ in }
    /// The drop, with its data read (`performDrop`). Text when the drag offers
    /// text, files when it offers a URI list of local files.
    public var performDrop: ([DragItem], DropSession) -> Void

    public init(performDrop: @escaping ([DragItem], DropSession) -> Void) {
        self.performDrop = performDrop
    }
}

/// A drag over a window (`UIDropSession`): where it is and what it offers.
@MainActor
public final class DropSession {
    /// The MIME types the drag offers.
    public let types: [String]
    /// The operations its source allows.
    public let allowedOperations: Set<DropOperation>
    /// Where the drag is, in window coordinates.
    public internal(set) var windowLocation: Point
    weak var window: Window?

    init(types: [String], allowedOperations: Set<DropOperation>, at point: Point, window: Window) {
        self.types = types
        self.allowedOperations = allowedOperations
        windowLocation = point
        self.window = window
    }

    public var hasText: Bool { types.contains(where: DragItem.textTypes.contains) }
    public var hasFiles: Bool { types.contains(DragItem.uriList) }

    /// Where the drag is, in `view`'s coordinates.
    public func location(in view: View?) -> Point { view?.convert(windowLocation, from: nil) ?? windowLocation }
}

/// What can be added to a view with `View.addInteraction(_:)` (`UIInteraction`).
@MainActor
public protocol Interaction: AnyObject {
    var view: View? { get }
    /// Called when added to a view or removed (nil).
    func didMove(to view: View?)
}

extension DropInteraction {
    public func didMove(to view: View?) { self.view = view }
}
