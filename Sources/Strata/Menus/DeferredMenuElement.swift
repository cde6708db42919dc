/// Menu elements that load when the menu opens (`UIDeferredMenuElement`): the
/// menu shows a dimmed "Loading…" row in their place until the provider calls
/// its completion (on the main actor, at once or later), then the elements it
/// gave, and the popup takes the new size. Loaded once and kept, unless made
/// with ``uncached(_:)``, which asks again each time a menu with it opens. A
/// completion called after the menu closed, or a second time, is ignored.
@MainActor
public final class DeferredMenuElement: MenuElement {
    public typealias Provider = (_ completion: @escaping @MainActor ([MenuElement]) -> Void) -> Void

    private let provider: Provider
    private let isCached: Bool
    private var cache: [MenuElement]?

    public init(_ provider: @escaping Provider) {
        self.provider = provider
        isCached = true
        super.init(title: "Loading…")
    }

    private init(uncached provider: @escaping Provider) {
        self.provider = provider
        isCached = false
        super.init(title: "Loading…")
    }

    /// Elements asked for each time a menu with it opens (`uncached(_:)`).
    public static func uncached(_ provider: @escaping Provider) -> DeferredMenuElement {
        DeferredMenuElement(uncached: provider)
    }

    /// The elements now when they are kept or the provider gives them at once;
    /// else nil, and `later` gets them when they come (once).
    func load(then later: @escaping @MainActor ([MenuElement]) -> Void) -> [MenuElement]? {
        if let cache { return cache }
        var now: [MenuElement]?
        var synchronous = true, done = false
        provider { [weak self] elements in
            guard !done else { return }
            done = true
            if self?.isCached == true { self?.cache = elements }
            if synchronous { now = elements } else { later(elements) }
        }
        synchronous = false
        return now
    }
}
