/// A rectangle in a view's coordinates that constraints can position and relate
/// to, without being a view (`UILayoutGuide`): spacers, groups, and the view's own
/// safe-area and margins guides.
@MainActor
public final class LayoutGuide: LayoutItem {
    /// The view it belongs to (`addLayoutGuide(_:)`).
    public internal(set) weak var owningView: View?
    public var identifier: String
    /// What the guide insets its owning view by (the safe area and margins guides), else nil.
    let insets: ((View) -> EdgeInsets)?

    public init() {
        identifier = ""
        insets = nil
    }

    init(identifier: String, owner: View, insets: @escaping (View) -> EdgeInsets) {
        self.identifier = identifier
        owningView = owner
        self.insets = insets
    }

    /// Where layout put it, in its owning view's coordinates.
    public var layoutFrame: Rect {
        guard let view = owningView else { return .zero }
        if let insets {
            let i = insets(view), b = view.bounds
            return Rect(x: i.left, y: i.top, width: max(0, b.width - i.left - i.right), height: max(0, b.height - i.top - i.bottom))
        }
        view.layoutIfNeeded()
        return view.hierarchyTop.ownLayoutEngine?.frame(of: self) ?? .zero
    }
}
