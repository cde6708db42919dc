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
    func insertText(_ text: String)
    /// Puts the caret at the character nearest a point in the view (for a drop).
    func placeCaret(at point: Point)
    /// Whether text may be dropped in now (enabled, editable).
    var acceptsTextDrops: Bool { get }
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

extension TextEditing where Self: View {
    /// Text dropped on the view (from any app) goes in where it lands, as typing
    /// there would; UIKit's text fields and views take drops too.
    func makeTextDrop() -> DropInteraction {
        let drop = DropInteraction { [unowned self] items, session in
            let text = items.compactMap { if case let .text(t) = $0 { t } else { nil } }.joined()
            guard !text.isEmpty else { return }
            if !isFirstResponder { becomeFirstResponder() }
            placeCaret(at: session.location(in: self))
            insertText(text)
        }
        drop.canHandle = { [unowned self] in $0.hasText && acceptsTextDrops }
        return drop
    }
}
