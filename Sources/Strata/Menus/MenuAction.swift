/// An item of a menu that runs a handler when chosen (`UIAction`; `Action` is
/// Core Animation's name in Strata). Rule M3: the handler runs once, after the
/// menu has begun closing; a disabled action does nothing.
@MainActor
public final class MenuAction: MenuElement {
    /// Whether the item shows a checkmark (`UIMenuElement.State`).
    public enum State: Hashable, Sendable { case off, on, mixed }

    /// How the item behaves and shows (`UIMenuElement.Attributes`).
    public struct Attributes: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Shown dimmed; cannot be chosen.
        public static let disabled = Attributes(rawValue: 1)
        /// Shown in the destructive colour (deleting, say).
        public static let destructive = Attributes(rawValue: 2)
        /// Not shown.
        public static let hidden = Attributes(rawValue: 4)
        /// Choosing it leaves the menu open (a toggle among several).
        public static let keepsMenuPresented = Attributes(rawValue: 8)
    }

    public let identifier: String?
    public var attributes: Attributes
    public var state: State
    /// A second line under the title (`subtitle`).
    public var subtitle: String?
    let handler: (MenuAction) -> Void

    public init(title: String, image: Image? = nil, identifier: String? = nil, attributes: Attributes = [],
                state: State = .off, handler: @escaping (MenuAction) -> Void) {
        self.identifier = identifier
        self.attributes = attributes
        self.state = state
        self.handler = handler
        super.init(title: title, image: image)
    }
}
