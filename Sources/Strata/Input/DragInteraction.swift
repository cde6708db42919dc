/// Makes a view a place to start dragging from (`UIDragInteraction`): a press
/// that moves more than 10 points asks ``itemsForBeginning`` what to drag, and
/// a drag of those items begins — through the compositor to any app (Wayland's
/// drag and drop), or within the window offscreen. The view's touches are
/// cancelled when it begins, as UIKit's are.
@MainActor
public final class DragInteraction: Interaction {
    public private(set) weak var view: View?
    /// What to drag from a press at this point (view coordinates); empty: no drag.
    public var itemsForBeginning: (Point) -> [DragItem]
    /// The operations a drop may perform (default: copy).
    public var allowedOperations: Set<DropOperation> = [.copy]
    /// How the drag ended: the target's operation, or `.cancel` when it was
    /// dropped nowhere that took it (`sessionDidEnd`/`dropOperation`).
    public var didEnd: (DropOperation) -> Void = { _ in }
    public var isEnabled = true
    /// What the press about to begin a drag asked for.
    private var items: [DragItem] = []
    private lazy var recognizer: PanGestureRecognizer = {
        // Weak: the dispatcher may still hold the recognizer after this is gone.
        let r = PanGestureRecognizer { [weak self] r in
            guard let self, r.state == .began, let window = view?.window else { return }
            window.beginDrag(items, allowed: allowedOperations, touchID: r.touches.first?.id ?? -1, at: r.location(in: nil)) { [weak self] in
                self?.didEnd($0)
            }
            items = []
        }
        // Nothing to drag from here: the gesture fails and the view keeps its touches.
        r.shouldBegin = { [weak self] r in
            guard let self, isEnabled, let view else { return false }
            items = itemsForBeginning(r.location(in: view))
            return !items.isEmpty
        }
        return r
    }()

    public init(itemsForBeginning: @escaping (Point) -> [DragItem]) {
        self.itemsForBeginning = itemsForBeginning
    }

    public func didMove(to view: View?) {
        self.view?.removeGestureRecognizer(recognizer)
        self.view = view
        view?.addGestureRecognizer(recognizer)
    }
}
