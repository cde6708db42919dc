/// A menu (`UIMenu`): a title and the elements it holds — actions, key
/// commands, other menus (submenus, or groups shown inline between separators).
/// Shown by a ``ContextMenuInteraction`` or a button's ``Button/menu`` in a popup
/// (rules M1–M3).
@MainActor
public final class Menu: MenuElement {
    /// How a menu shows (`UIMenu.Options`).
    public struct Options: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// Its children show in the parent menu, between separators, instead of as a submenu.
        public static let displayInline = Options(rawValue: 1)
        /// Shown in the destructive colour.
        public static let destructive = Options(rawValue: 2)
        /// Its actions are choices: choosing one turns it on and the others off (rule M3).
        public static let singleSelection = Options(rawValue: 32)
    }

    public let identifier: String?
    public let options: Options
    public var children: [MenuElement]

    public init(title: String = "", image: Image? = nil, identifier: String? = nil, options: Options = [],
                children: [MenuElement] = []) {
        self.identifier = identifier
        self.options = options
        self.children = children
        super.init(title: title, image: image)
    }

    /// The action that is on in a single-selection menu (searching its inline groups).
    public var selectedElements: [MenuElement] { actions(includingHidden: true).filter { $0.state == .on } }

    /// The menu's own actions and its inline groups', in order.
    func actions(includingHidden: Bool) -> [MenuAction] {
        children.flatMap { child -> [MenuAction] in
            if let a = child as? MenuAction { return includingHidden || !a.attributes.contains(.hidden) ? [a] : [] }
            if let m = child as? Menu, m.options.contains(.displayInline) { return m.actions(includingHidden: includingHidden) }
            return []
        }
    }

    /// A copy with other children (`replacingChildren(_:)`).
    public func replacingChildren(_ newChildren: [MenuElement]) -> Menu {
        Menu(title: title, image: image, identifier: identifier, options: options, children: newChildren)
    }
}
