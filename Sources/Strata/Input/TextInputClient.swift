import WaylandClient

/// A responder that takes text from input methods (`UITextInput`'s part for
/// them): a text field. While one is the first responder of a window with the
/// keyboard focus, the window asks the compositor for input method text
/// (`zwp_text_input_v3`) and tells it where the caret is.
@MainActor
protocol TextInputClient: AnyObject {
    /// The caret (or the selection's end) in window coordinates, for candidate windows.
    var caretRectInWindow: Rect? { get }
    func applyComposition(preedit: String?, commit: String?, deleteBefore: Int, deleteAfter: Int)
}

extension Window {
    /// Asks for input method text when the first responder takes it, and stops
    /// asking when it does not (rule H5: input methods, not a hard-coded layout).
    func updateTextInput() {
        guard let textInput, textInput.focusedSurface != nil else { return }
        guard let client = firstResponder as? TextInputClient else { return textInput.disable() }
        let rect = client.caretRectInWindow.map(surfaceRect)
        if textInput.isEnabled {
            if let r = rect { textInput.setCursorRectangle(x: r.x, y: r.y, width: r.width, height: r.height) }
        } else {
            textInput.enable(cursorRectangle: rect)
        }
    }

    /// The caret moved: tell the input method (when it listens).
    func textInputCaretMoved() {
        guard let textInput, textInput.isEnabled, let client = firstResponder as? TextInputClient,
              let rect = client.caretRectInWindow.map(surfaceRect) else { return }
        textInput.setCursorRectangle(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
    }

    private func surfaceRect(_ r: Rect) -> (x: Int, y: Int, width: Int, height: Int) {
        let o = contentOrigin
        return (Int((r.minX + o.x).rounded()), Int((r.minY + o.y).rounded()), max(1, Int(r.width.rounded())), Int(r.height.rounded()))
    }
}
