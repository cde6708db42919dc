import WaylandClient

/// A menu for a view, opened the ways a desktop opens one (`UIContextMenuInteraction`,
/// rule M4): a secondary click on the view (the menu at the pointer), a long
/// press of a finger (at the finger), or the Menu key or Shift+F10 while the
/// view or a view inside it has the focus (under the view). The provider is
/// asked each time, with the place in the view's coordinates; nil or a menu with
/// nothing to show opens nothing.
///
/// ```swift
/// view.addInteraction(ContextMenuInteraction { _ in
///     Menu(children: [MenuAction(title: "Copy") { _ in copy() },
///                     MenuAction(title: "Delete", attributes: .destructive) { _ in delete() }])
/// })
/// ```
@MainActor
public final class ContextMenuInteraction: Interaction {
    public private(set) weak var view: View?
    private let menuProvider: (_ location: Point) -> Menu?
    private var session: MenuSession?
    private lazy var longPress: LongPressGestureRecognizer = {
        // Weak: the dispatcher may still hold the recognizer after this is gone.
        let r = LongPressGestureRecognizer { [weak self] r in
            guard let self, r.state == .began, let view else { return }
            present(at: r.location(in: view))
        }
        r.allowedTouchTypes = [.direct]
        return r
    }()

    public init(menuProvider: @escaping (_ location: Point) -> Menu?) {
        self.menuProvider = menuProvider
    }

    public func didMove(to view: View?) {
        self.view?.removeGestureRecognizer(longPress)
        dismissMenu()
        self.view = view
        view?.addGestureRecognizer(longPress)
    }

    /// Whether its menu is open now.
    public var isMenuVisible: Bool { session != nil }

    /// Closes its menu, if open (`dismissMenu()`).
    public func dismissMenu() {
        session?.dismiss(animated: false)
        session = nil
    }

    /// Opens the menu with its corner at `location` (the view's coordinates); true when one opened.
    @discardableResult
    func present(at location: Point) -> Bool {
        guard let view, let window = view.window else { return false }
        let p = view.convert(location, to: window.rootView)
        return present(menuProvider(location), on: window, anchorRect: Rect(x: p.x, y: p.y, width: 1, height: 1), anchor: .topLeft)
    }

    /// Opens the menu under the view, as from the keyboard; true when one opened.
    @discardableResult
    func presentFromKeyboard() -> Bool {
        guard let view, let window = view.window else { return false }
        let b = view.bounds
        return present(menuProvider(Point(x: b.midX, y: b.midY)), on: window,
                       anchorRect: view.convert(b, to: window.rootView), anchor: .bottomLeft)
    }

    private func present(_ menu: Menu?, on window: Window, anchorRect: Rect, anchor: PopupPositioner.Direction) -> Bool {
        dismissMenu()
        guard let menu, let s = MenuSession.open(menu, on: window, from: view, anchorRect: anchorRect, anchor: anchor) else { return false }
        s.onDismiss = { [weak self, weak s] in if self?.session === s { self?.session = nil } }
        session = s
        return true
    }
}

extension View {
    /// The context menu interaction nearest this view, on it or an ancestor.
    var nearestContextMenuInteraction: ContextMenuInteraction? {
        var v: View? = self
        while let current = v {
            if let i = current.interactions.lazy.compactMap({ $0 as? ContextMenuInteraction }).first { return i }
            v = current.superview
        }
        return nil
    }
}
