/// An action: something a layer runs when a property changes or a special event
/// happens (`CAAction`, rule A1).
///
/// Every ``Animation`` is an action; running one adds it to the layer under the
/// event's key. Custom actions may do anything — log, update other layers, start a
/// transition (rule A8) — and run synchronously during the property change.
@MainActor
public protocol Action: AnyObject {
    /// Called after the model value has changed (rule A6).
    /// - Parameters:
    ///   - event: the property key (`"opacity"`) or special key (`Layer.onOrderIn`…).
    ///   - object: the layer the event happened to.
    ///   - arguments: normally nil.
    func run(forKey event: String, object: Layer, arguments: [String: Any]?)
}

/// "Stop searching: no action" — what `NSNull` means in an action slot (rule A4).
///
/// Return it from a delegate's `action(for:forKey:)`, or store it in `actions` or
/// `style["actions"]`, to end the action search for a key with no action.
@MainActor
public final class NullAction: Action {
    public init() {}
    /// Running a null action does nothing.
    public func run(forKey event: String, object: Layer, arguments: [String: Any]?) {}

    /// A shared instance.
    public static let shared = NullAction()
}

/// An action made from a closure, for small custom actions.
@MainActor
public final class ClosureAction: Action {
    private let body: @MainActor (String, Layer, [String: Any]?) -> Void

    public init(_ body: @escaping @MainActor (_ event: String, _ layer: Layer, _ arguments: [String: Any]?) -> Void) {
        self.body = body
    }

    public func run(forKey event: String, object: Layer, arguments: [String: Any]?) {
        body(event, object, arguments)
    }
}
