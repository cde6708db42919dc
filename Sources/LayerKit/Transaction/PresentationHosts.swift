/// The trees that something presents — a window or an offscreen renderer.
///
/// A layer counts as presented (rule B5) once a commit happens while it is in
/// such a tree; before that its changes never animate implicitly. A tree is
/// also what rule A7 calls a *visible* tree: inserting into it runs `onOrderIn`.
@MainActor
public enum PresentationHosts {
    /// Declares that `root`'s tree is presented (called by windows and renderers).
    /// Balance every call with ``detach(_:)``.
    public static func attach(_ root: Layer) {
        root.presenterCount += 1
        // Not retained, and not `weak`: a weak reference moves the root's reference
        // counting to a slow side table, and every change below it retains the root
        // on the way. A root leaves in its deinit (``forget(_:)``).
        root.context.presentedRoots[ObjectIdentifier(root)] = Unmanaged.passUnretained(root)
        Transaction.noteTreeChange(in: root.context)
        Transaction.ensureOpen(in: root.context)
    }

    /// Ends one ``attach(_:)``.
    public static func detach(_ root: Layer) {
        root.presenterCount = max(0, root.presenterCount - 1)
        if root.presenterCount == 0 { root.context.presentedRoots[ObjectIdentifier(root)] = nil }
    }

    /// At a commit: every layer in a presented tree is now presented.
    static func markPresented(in c: LayerContext) {
        guard c.treeChanged else { return }
        c.treeChanged = false
        for root in c.presentedRoots.values {
            root.takeUnretainedValue().forEachInSubtree { $0.hasBeenPresented = true }
        }
    }

    /// A presented root goes away without having been detached.
    static func forget(_ root: Layer) {
        root.context.presentedRoots[ObjectIdentifier(root)] = nil
    }
}
