/// What a text field and a text view both do with the edit commands: the edit
/// menu's actions (`UIResponderStandardEditActions`) and their Ctrl shortcuts.
@MainActor
protocol TextEditing: AnyObject {
    func cut()
    func copy()
    func paste()
    func selectAll()
    func undo()
    func redo()
}

extension TextEditing {
    /// Runs a standard edit action (the body of `perform(_:)`).
    func performEdit(_ action: StandardEditAction) {
        switch action {
        case .cut: cut()
        case .copy: copy()
        case .paste: paste()
        case .selectAll: selectAll()
        case .undo: undo()
        case .redo: redo()
        }
    }

    /// Ctrl+A, C, X, V, Z (with Shift: redo) and Y; false for any other key.
    func handleEditShortcut(_ key: Key) -> Bool {
        guard key.modifierFlags.contains(.control) else { return false }
        switch key.charactersIgnoringModifiers.lowercased() {
        case "a": selectAll()
        case "c": copy()
        case "x": cut()
        case "v": paste()
        case "z": key.modifierFlags.contains(.shift) ? redo() : undo()
        case "y": redo()
        default: return false
        }
        return true
    }
}
