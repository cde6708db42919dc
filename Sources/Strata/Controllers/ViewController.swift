import LayerKit

/// A view controller (`UIViewController`): it owns a view made on first use,
/// is told when that view appears and disappears (rule C1), contains child
/// controllers, and presents other controllers modally.
///
/// Lifecycle in UIKit's order: `loadView` and `viewDidLoad` run once, when
/// ``view`` is first read; `viewWillAppear`/`viewDidAppear` and
/// `viewWillDisappear`/`viewDidDisappear` bracket every transition (a window's
/// root controller when the window is shown or closed; a child when its view
/// enters or leaves the window while its parent is visible; a presentation);
/// `viewWillLayoutSubviews`/`viewDidLayoutSubviews` around the view's own layout.
/// In the responder chain a controller comes after its view and before the
/// view's superview (or its presenter).
@MainActor
open class ViewController: Responder {
    public override init() { super.init() }

    // MARK: The view

    private var loadedView: View?

    /// The controller's view, made by ``loadView()`` the first time it is read
    /// (then ``viewDidLoad()`` runs). Setting it replaces the view.
    public var view: View! {
        get {
            loadViewIfNeeded()
            return loadedView
        }
        set {
            if let old = loadedView, old.viewController === self { old.viewController = nil }
            loadedView = newValue
            if let newValue {
                if let other = newValue.viewController, other !== self {
                    Diagnostics.report(.invalidView("a view belongs to one view controller; it now belongs to this one"))
                    other.loadedView = nil
                }
                newValue.viewController = self
            }
        }
    }

    /// The view if it has been made, without making it (`viewIfLoaded`).
    public var viewIfLoaded: View? { loadedView }
    /// Whether the view has been made.
    public var isViewLoaded: Bool { loadedView != nil }
    private var isLoadingView = false

    /// Makes the view now if it was not made yet.
    public func loadViewIfNeeded() {
        guard loadedView == nil, !isLoadingView else { return }
        isLoadingView = true
        loadView()
        if loadedView == nil { view = View(frame: Rect(x: 0, y: 0, width: 320, height: 480)) }
        isLoadingView = false
        viewDidLoad()
    }

    /// Makes the view (override to build your own; don't call `super` then). The
    /// default is a plain `View`.
    open func loadView() {
        view = View(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    }

    /// The view has been made.
    open func viewDidLoad() {}

    /// The title (navigation and tab bars show it when their items have none).
    public var title: String? {
        didSet {
            navigationController?.updateBar()
            tabBarController?.updateBar()
        }
    }

    /// The items a navigation controller's toolbar shows while this controller is on top (`toolbarItems`).
    public var toolbarItems: [BarButtonItem]? {
        didSet { navigationController?.updateBar() }
    }

    /// Insets added to the safe area of the controller's view and the views in it
    /// (`additionalSafeAreaInsets`): for bars or overlays of the app's own.
    public var additionalSafeAreaInsets = EdgeInsets.zero {
        didSet {
            guard additionalSafeAreaInsets != oldValue, isViewLoaded else { return }
            view.setNeedsLayout()
            view.hierarchyTop.ownLayoutEngine?.guidesMayHaveMoved()
        }
    }

    /// What a navigation bar shows for this controller (`navigationItem`).
    public private(set) lazy var navigationItem = NavigationItem()
    /// What a tab bar shows for this controller (`tabBarItem`).
    public private(set) lazy var tabBarItem = TabBarItem()

    /// The size the controller would like its view to have when presented as a
    /// form sheet or popover; zero: the style's own size.
    public var preferredContentSize: Size = .zero

    // MARK: Appearance (rule C1)

    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    /// Before the view lays out its subviews.
    open func viewWillLayoutSubviews() {}
    /// The controller's chance to update its view's constraints in the constraint
    /// pass (`updateViewConstraints`); the default calls the view's `updateConstraints()`.
    open func updateViewConstraints() { loadedView?.updateConstraints() }
    /// After the view laid out its subviews.
    open func viewDidLayoutSubviews() {}

    enum Appearance { case disappeared, appearing, appeared, disappearing }
    private(set) var appearance = Appearance.disappeared

    /// Whether the view is on its way in or shown (between `viewWillAppear` and
    /// `viewWillDisappear`).
    var isAppearingOrVisible: Bool { appearance == .appearing || appearance == .appeared }

    /// Starts an appearance transition (`beginAppearanceTransition(_:animated:)`):
    /// `viewWillAppear` or `viewWillDisappear`, for this controller and its
    /// children whose views are in its view. Nothing when already so.
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        if isAppearing {
            guard !isAppearingOrVisible else { return }
            appearance = .appearing
            viewWillAppear(animated)
        } else {
            guard isAppearingOrVisible else { return }
            appearance = .disappearing
            viewWillDisappear(animated)
        }
        for child in children where child.viewIfLoaded?.isDescendant(of: view) == true {
            child.beginAppearanceTransition(isAppearing, animated: animated)
        }
    }

    /// Ends the appearance transition begun last (`endAppearanceTransition()`):
    /// `viewDidAppear` or `viewDidDisappear`, children too.
    public func endAppearanceTransition() {
        let animated = false
        switch appearance {
        case .appearing:
            appearance = .appeared
            viewDidAppear(animated)
        case .disappearing:
            appearance = .disappeared
            viewDidDisappear(animated)
        case .appeared, .disappeared:
            return
        }
        for child in children { child.endAppearanceTransition() }
    }

    /// Both halves at once, when nothing animates between them.
    func transitionAppearance(_ isAppearing: Bool) {
        beginAppearanceTransition(isAppearing, animated: false)
        endAppearanceTransition()
    }

    /// The controller's view entered or left a window outside a transition the
    /// controller manages itself: a child follows its parent (UIKit's automatic
    /// forwarding when a child's view is added to or removed from a visible view).
    func viewDidMoveToWindow() {
        guard let parent, let view = loadedView else { return }
        if view.window != nil, parent.isAppearingOrVisible, !isAppearingOrVisible {
            beginAppearanceTransition(true, animated: false)
            if parent.appearance == .appeared { endAppearanceTransition() }
        } else if view.window == nil, isAppearingOrVisible {
            transitionAppearance(false)
        }
    }

    // MARK: Children

    /// The child controllers, in the order they were added.
    public private(set) var children: [ViewController] = []
    /// The controller this one is a child of.
    public private(set) weak var parent: ViewController?

    /// Adds a child controller (`addChild(_:)`): calls its
    /// `willMove(toParent:)`; add its view to yours, then call its
    /// `didMove(toParent: self)`. A controller that is this one, one of its
    /// ancestors or presenters, a window's root or a presented controller is
    /// refused (with a diagnostic); one with another parent leaves it first.
    public func addChild(_ child: ViewController) {
        // Up through parents and presenters: a controller cannot hold one that holds
        // or presents it, at any distance (that would be a cycle).
        if isHeld(by: child) { return Diagnostics.report(.invalidView("addChild: a view controller cannot contain itself, an ancestor or its presenter")) }
        guard child.hostWindow == nil, child.presentingViewController == nil else {
            return Diagnostics.report(.invalidView("addChild: a window's root or a presented view controller cannot be a child"))
        }
        if child.parent === self { return }
        if child.parent != nil { child.removeFromParent() }
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
    }

    /// Leaves the parent (`removeFromParent()`): call `willMove(toParent: nil)`
    /// and take the view out first; its `didMove(toParent: nil)` runs here.
    public func removeFromParent() {
        guard let parent else { return }
        parent.childWillLeave(self)
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Of `controllers`, those this controller can hold as its stack or tabs — not
    /// itself or one containing it, not one presented or a window's root, each
    /// once; the others are left out with a diagnostic naming `what`.
    func containable(_ controllers: [ViewController], as what: String) -> [ViewController] {
        var kept: [ViewController] = []
        for c in controllers {
            if kept.contains(where: { $0 === c }) || isHeld(by: c) || c.presentingViewController != nil || c.hostWindow != nil {
                Diagnostics.report(.invalidView("\(what): a controller that cannot be held here (itself, containing it, presented, a window's root or twice) is left out"))
            } else {
                kept.append(c)
            }
        }
        return kept
    }

    /// The nearest controller of type `T` above this one.
    func nearestAncestor<T: ViewController>(_: T.Type) -> T? {
        var c = parent
        while let x = c {
            if let found = x as? T { return found }
            c = x.parent
        }
        return nil
    }

    /// A child is leaving through ``removeFromParent()``: a container that lists
    /// its children (a stack, tabs) forgets it.
    func childWillLeave(_ child: ViewController) {}

    /// The controller is about to get `parent` (nil: to leave its parent).
    open func willMove(toParent parent: ViewController?) {}
    /// The controller got `parent` (nil: it left its parent).
    open func didMove(toParent parent: ViewController?) {}

    // MARK: Presentation (see ViewController+Presentation.swift)

    /// How ``present(_:animated:completion:)`` shows this controller.
    public var modalPresentationStyle = ModalPresentationStyle.automatic
    /// Hands out the animators of this controller's presentation and dismissal
    /// (`transitioningDelegate`), for the `.fullScreen` and `.custom` styles. Not retained.
    public weak var transitioningDelegate: (any ViewControllerTransitioningDelegate)?
    /// Where the controller points when presented as a popover
    /// (`popoverPresentationController`): there while ``modalPresentationStyle`` is `.popover`.
    public var popoverPresentationController: PopoverPresentationController? {
        guard modalPresentationStyle == .popover else { return nil }
        if popover == nil { popover = PopoverPresentationController() }
        return popover
    }
    private var popover: PopoverPresentationController?
    /// When true, a sheet showing this controller is not dismissed by Escape or
    /// a click outside it (`isModalInPresentation`).
    public var isModalInPresentation = false
    /// The controller this one presents.
    public internal(set) var presentedViewController: ViewController?
    /// The controller that presents this one.
    public internal(set) weak var presentingViewController: ViewController?
    /// While presented: the container that shows it.
    var presentation: PresentationContainer?
    /// Presented as an alert: centred at its preferred size, fading in (``AlertController``).
    var presentsAsAlert: Bool { false }
    /// Presented and in the window: where an alert takes the focus.
    func didEnterPresentation() {}

    /// The window whose root controller this is.
    weak var hostWindow: Window?

    // MARK: Responder chain

    /// After the view: the view's superview, else the presenting controller, else the window.
    /// The presenter is skipped when the chain from it comes back here (an app
    /// moved the presenter's view, or one holding it, into this controller's
    /// view): the chain never loops.
    open override var next: Responder? {
        let next = nextWithoutLoopCheck
        if let presenter = next as? ViewController, presenter === presentingViewController, Self.chain(from: presenter, reaches: self) {
            return loadedView?.superview ?? hostWindow
        }
        return next
    }

    /// The chain's rule without the loop check.
    private var nextWithoutLoopCheck: Responder? {
        if let superview = loadedView?.superview, presentation == nil { return superview }
        return presentingViewController ?? loadedView?.superview ?? hostWindow
    }

    /// Whether following the chain from `start` (presenters always taken) gets to `target`.
    private static func chain(from start: Responder, reaches target: ViewController) -> Bool {
        var seen: Set<ObjectIdentifier> = []
        var responder: Responder? = start
        while let r = responder, seen.insert(ObjectIdentifier(r)).inserted {
            if r === target { return true }
            responder = (r as? ViewController).map { $0.nextWithoutLoopCheck } ?? r.next
        }
        return false
    }

    override var focusWindow: Window? { loadedView?.window }
}
