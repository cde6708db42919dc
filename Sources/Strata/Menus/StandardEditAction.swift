/// The edit commands text views understand (`UIResponderStandardEditActions`):
/// a menu or key command for one sends it along the responder chain from the
/// focused view to the first responder that can perform it now (rule M6).
public enum StandardEditAction: String, CaseIterable, Hashable, Sendable {
    case cut, copy, paste, selectAll, undo, redo

    /// What a menu calls it.
    public var title: String {
        switch self {
        case .cut: "Cut"
        case .copy: "Copy"
        case .paste: "Paste"
        case .selectAll: "Select All"
        case .undo: "Undo"
        case .redo: "Redo"
        }
    }

    /// Its shortcut: Ctrl with X, C, V, A or Z, and Ctrl+Shift+Z.
    var key: (input: String, modifiers: KeyModifierFlags) {
        switch self {
        case .cut: ("x", .control)
        case .copy: ("c", .control)
        case .paste: ("v", .control)
        case .selectAll: ("a", .control)
        case .undo: ("z", .control)
        case .redo: ("z", [.control, .shift])
        }
    }
}

extension KeyCommand {
    /// The key command for a standard edit action, titled and with its shortcut
    /// (shown in menus): chosen in a menu, or its keys pressed where a responder
    /// offers it, it sends the action to the first responder along the chain
    /// that can perform it; in a menu it is dimmed when none can.
    public static func standard(_ action: StandardEditAction) -> KeyCommand {
        KeyCommand(title: action.title, input: action.key.input, modifierFlags: action.key.modifiers, editAction: action)
    }
}

extension Responder {
    /// The first responder from this one along the chain that can perform `action` now.
    func target(for action: StandardEditAction) -> Responder? {
        var responder: Responder? = self
        var visited = 0
        while let r = responder, visited < 10_000 {
            if r.canPerform(action) { return r }
            responder = r.next
            visited += 1
        }
        return nil
    }

    /// Sends `action` to the first responder from this one that can perform it;
    /// false when none can.
    @discardableResult
    func send(_ action: StandardEditAction) -> Bool {
        guard let target = target(for: action) else { return false }
        target.perform(action)
        return true
    }
}
