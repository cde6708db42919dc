import WaylandClient

/// Dialog windows (issue 23, item 6): a window with a ``Window/parent`` is its
/// dialog — kept above it by the compositor (`xdg_toplevel.set_parent`, which
/// some compositors also centre on the parent) and closed with it. A modal
/// dialog blocks its parent: the compositor is told where it offers the dialog
/// protocol (`xdg_dialog_v1.set_modal`), and in any case the parent refuses
/// presses, keys, scrolling and touches while the dialog is shown, and raises the
/// dialog instead (the parent still redraws and animates).
extension Window {
    /// The modal dialog shown on this window now, if any (the last shown).
    public var presentedModalDialog: Window? {
        dialogs.compactMap(\.window).last { $0.isVisible && $0.isModal }
    }

    /// The dialog was shown: its parent knows it, and the compositor is told.
    func dialogDidShow() {
        guard let parent else { return }
        parent.dialogs.removeAll { $0.window == nil || $0.window === self }
        parent.dialogs.append(WeakWindow(window: self))
        applyDialogRole()
    }

    /// Tells the compositor whose dialog this is and whether it is modal.
    func applyDialogRole() {
        guard let toplevel = onscreen?.toplevel else { return }
        toplevel.setParent(parent?.onscreen?.toplevel)
        if parent != nil || isModal { toplevel.setModal(parent != nil && isModal) }
    }

    /// Closes the window's dialogs (it is closing).
    func closeDialogs() {
        for d in dialogs.compactMap(\.window).reversed() { d.close() }
        dialogs = []
    }

    /// Input the window refuses while a modal dialog is shown on it: presses, keys,
    /// scrolling and touches raise the dialog instead; motion and leaving pass, so
    /// nothing stays hovered or pressed.
    func refusedForModalDialog(_ event: WindowInput) -> Bool {
        guard let dialog = presentedModalDialog else { return false }
        switch event {
        case .pointerLeft, .keyboardLeft, .touchesCancelled, .touchMoved, .touchUp, .pointerMoved:
            return false
        case .pointerButton(_, false), .key(_, false, _):
            return false   // releases of what was pressed before the dialog came
        case .pointerButton, .key, .scroll, .touchDown, .composition:
            dialog.activate()
            blockedInputCount += 1
            return true
        }
    }
}

/// A window held weakly (a parent's list of its dialogs).
struct WeakWindow {
    weak var window: Window?
}
