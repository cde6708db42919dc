/// What a navigation bar shows for a view controller (`UINavigationItem`): its
/// title, the back button the next controller shows, and buttons at either end.
@MainActor
public final class NavigationItem {
    /// The bar's title; nil: the controller's ``ViewController/title``.
    public var title: String? { didSet { changed() } }
    /// The title of the back button while a controller pushed after this one is
    /// on top; nil: this item's title, else "Back".
    public var backButtonTitle: String? { didSet { changed() } }
    /// Hides the back button while this item is on top.
    public var hidesBackButton = false { didSet { changed() } }
    /// Whether the bar shows this item's title large (`largeTitleDisplayMode`), when
    /// the bar ``NavigationBar/prefersLargeTitles``.
    public enum LargeTitleDisplayMode: Hashable, Sendable {
        /// As the item below it in the stack (large at the root).
        case automatic
        case always, never
    }
    public var largeTitleDisplayMode = LargeTitleDisplayMode.automatic { didSet { changed() } }
    /// Buttons at the leading end (after the back button), first outermost.
    public var leftBarButtonItems: [BarButtonItem] = [] { didSet { changed() } }
    /// Buttons at the trailing end, first outermost.
    public var rightBarButtonItems: [BarButtonItem] = [] { didSet { changed() } }

    public var leftBarButtonItem: BarButtonItem? {
        get { leftBarButtonItems.first }
        set { leftBarButtonItems = newValue.map { [$0] } ?? [] }
    }

    public var rightBarButtonItem: BarButtonItem? {
        get { rightBarButtonItems.first }
        set { rightBarButtonItems = newValue.map { [$0] } ?? [] }
    }

    public init(title: String? = nil) { self.title = title }

    /// The bar showing this item, told of changes.
    weak var bar: NavigationBar?
    private func changed() { bar?.itemsChanged() }
}

/// A button in a navigation bar (`UIBarButtonItem`): a title and what it does.
@MainActor
public final class BarButtonItem {
    public var title: String { didSet { bar?.itemsChanged() } }
    public var isEnabled = true { didSet { bar?.itemsChanged() } }
    /// Left out of its bar while true (`isHidden`).
    public var isHidden = false { didSet { bar?.itemsChanged() } }
    let handler: (BarButtonItem) -> Void
    weak var bar: NavigationBar?

    public init(title: String, handler: @escaping (BarButtonItem) -> Void) {
        self.title = title
        self.handler = handler
    }

    /// Space that grows to fill a toolbar, shared with other flexible spaces
    /// (`UIBarButtonItem.flexibleSpace()`).
    public static func flexibleSpace() -> BarButtonItem {
        let item = BarButtonItem(title: "") { _ in }
        item.isFlexibleSpace = true
        return item
    }
    public private(set) var isFlexibleSpace = false
}
