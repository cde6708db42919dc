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

    /// Gives focus up (`resignFirstResponder()`). False when it refuses.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard canResignFirstResponder else { return false }
        if let window = focusWindow, window.firstResponder === self { window.firstResponder = nil }
        return true
    }
}
