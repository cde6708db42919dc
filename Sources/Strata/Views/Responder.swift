/// An object that can take part in event handling (`UIResponder`): views,
/// windows and the application form a chain through ``next`` (rule H3, H5).
///
/// This is the responder chain's skeleton: focus (first responder) and the
/// `next` links. Pointer, touch and key events travel along it.
@MainActor
open class Responder {
    public init() {}

    /// The next responder in the chain: a view's superview (or its window for a
    /// root view), a window's application, nil for the application.
    open var next: Responder? { nil }

    /// Whether this responder accepts focus; false by default, as in UIKit.
    open var canBecomeFirstResponder: Bool { false }
    /// Whether it gives focus up when asked; true by default.
    open var canResignFirstResponder: Bool { true }

    /// The window whose focus this responder would take, if any.
    var focusWindow: Window? { nil }

    /// True while this responder has its window's focus.
    public var isFirstResponder: Bool { focusWindow?.firstResponder === self }

    /// Takes its window's focus (`becomeFirstResponder()`), after the current
    /// first responder resigns. False when it cannot accept focus, is in no
    /// window, or the current first responder refuses to resign.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder, let window = focusWindow else { return false }
        if window.firstResponder === self { return true }
        if let current = window.firstResponder, !current.resignFirstResponder() { return false }
        window.firstResponder = self
        return true
    }

    // MARK: Touches (rule H3): not handled here, they go to the next responder.

    open func touchesBegan(_ touches: Set<Touch>, with event: Event?) { next?.touchesBegan(touches, with: event) }
    open func touchesMoved(_ touches: Set<Touch>, with event: Event?) { next?.touchesMoved(touches, with: event) }
    open func touchesEnded(_ touches: Set<Touch>, with event: Event?) { next?.touchesEnded(touches, with: event) }
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { next?.touchesCancelled(touches, with: event) }

    // MARK: Key commands (rule M6)

    /// The key commands this responder offers (`keyCommands`); none by default.
    open var keyCommands: [KeyCommand]? { nil }

    /// Whether this responder can run the action named `name` now
    /// (`canPerformAction(_:withSender:)`); a key command asks with its title.
    /// True by default.
    open func canPerformAction(_ name: String, withSender sender: Any?) -> Bool { true }

    // MARK: Standard edit actions (rule M6)

    /// Whether this responder can perform a standard edit action now (UIKit's
    /// `canPerformAction` for `cut(_:)`, `copy(_:)` …); false by default. A text
    /// field can copy a selection, paste while editable, undo what it can undo.
    open func canPerform(_ action: StandardEditAction) -> Bool { false }

    /// Performs a standard edit action (`cut(_:)`, `copy(_:)`, `paste(_:)`,
    /// `selectAll(_:)`, undo and redo); sent only when ``canPerform(_:)`` said yes.
    open func perform(_ action: StandardEditAction) {}

    // MARK: Key presses (rule H5): to the first responder, then along the chain.

    open func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) { next?.pressesBegan(presses, with: event) }
    open func pressesChanged(_ presses: Set<Press>, with event: PressesEvent?) { next?.pressesChanged(presses, with: event) }
    open func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) { next?.pressesEnded(presses, with: event) }
    open func pressesCancelled(_ presses: Set<Press>, with event: PressesEvent?) { next?.pressesCancelled(presses, with: event) }

    // MARK: The wheel and the other buttons

    /// A scroll over the view under the pointer, then along the chain.
    open func scrollWheel(with event: ScrollEvent) { next?.scrollWheel(with: event) }
    /// A pointer button other than the primary one, pressed or released over the
    /// view under the pointer, then along the chain.
    open func pointerButton(_ button: PointerButton, pressed: Bool, with event: Event?) {
        next?.pointerButton(button, pressed: pressed, with: event)
    }

    /// Gives focus up (`resignFirstResponder()`). False when it refuses.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard canResignFirstResponder else { return false }
        if let window = focusWindow, window.firstResponder === self { window.firstResponder = nil }
        return true
    }
}
