/// The trees that something presents — a window or an offscreen renderer.
///
/// A layer counts as presented (rule B5) once a commit happens while it is in
/// such a tree; before that its changes never animate implicitly. A tree is
/// also what rule A7 calls a *visible* tree: inserting into it runs `onOrderIn`.
@MainActor
public enum PresentationHosts {
    static var roots: [ObjectIdentifier: WeakLayer] = [:]

    /// Declares that `root`'s tree is presented (called by windows and renderers).
    /// Balance every call with ``detach(_:)``.
    public static func attach(_ root: Layer) {
        root.presenterCount += 1
        roots[ObjectIdentifier(root)] = WeakLayer(root)
        Transaction.noteTreeChange()
        Transaction.ensureOpen()
    }

    /// Ends one ``attach(_:)``.
    public static func detach(_ root: Layer) {
        root.presenterCount = max(0, root.presenterCount - 1)
        if root.presenterCount == 0 { roots[ObjectIdentifier(root)] = nil }
    }

    /// At a commit: every layer in a presented tree is now presented.
    static func markPresented() {
        guard Transaction.treeChanged else { return }
        Transaction.treeChanged = false
        for (id, weak) in roots {
            guard let root = weak.layer else { roots[id] = nil; continue }
            root.forEachInSubtree { $0.hasBeenPresented = true }
        }
    }
}

@MainActor
struct WeakLayer {
    weak var layer: Layer?
    init(_ layer: Layer) { self.layer = layer }
}
