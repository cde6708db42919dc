/// Custom presentation transitions, as UIKit has them: a controller's
/// ``ViewController/transitioningDelegate`` hands out the object that animates
/// its presentation and dismissal (`UIViewControllerTransitioningDelegate`),
/// and optionally one that lets a gesture drive it.
///
/// Used for the `.fullScreen` and `.custom` presentation styles, when animated
/// (other styles keep their own animation, as UIKit's sheets and popovers do).
/// Every method has a default that returns nil: the standard animation.
@MainActor
public protocol ViewControllerTransitioningDelegate: AnyObject {
    /// The animator of `presented`'s presentation by `presenting` (`source` is the controller `present` was called on).
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)?
    /// The animator of `dismissed`'s dismissal.
    func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)?
    /// What drives the presentation's animator interactively, if anything.
    func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning) -> (any ViewControllerInteractiveTransitioning)?
    /// What drives the dismissal's animator interactively (a pan, a pinch), if anything.
    func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning) -> (any ViewControllerInteractiveTransitioning)?
}

extension ViewControllerTransitioningDelegate {
    public func animationController(forPresented presented: ViewController, presenting: ViewController,
                                    source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { nil }
    public func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { nil }
    public func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning) -> (any ViewControllerInteractiveTransitioning)? { nil }
    public func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning) -> (any ViewControllerInteractiveTransitioning)? { nil }
}

/// Animates one transition (`UIViewControllerAnimatedTransitioning`): it puts
/// the views in the context's ``ViewControllerContextTransitioning/containerView``,
/// animates them (with `View.animate` or a ``ViewPropertyAnimator``), and calls
/// ``ViewControllerContextTransitioning/completeTransition(_:)`` once, when done.
@MainActor
public protocol ViewControllerAnimatedTransitioning: AnyObject {
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double
    func animateTransition(using transitionContext: any ViewControllerContextTransitioning)
    /// The property animator that runs the transition (`interruptibleAnimator(using:)`),
    /// the same one each time it is asked for one transition. Interactive
    /// transitions scrub it; an animator without one runs uninterrupted.
    func interruptibleAnimator(using transitionContext: any ViewControllerContextTransitioning) -> ViewPropertyAnimator?
    /// After ``ViewControllerContextTransitioning/completeTransition(_:)``: whether the transition completed.
    func animationEnded(_ transitionCompleted: Bool)
}

extension ViewControllerAnimatedTransitioning {
    public func interruptibleAnimator(using transitionContext: any ViewControllerContextTransitioning) -> ViewPropertyAnimator? { nil }
    public func animationEnded(_ transitionCompleted: Bool) {}
}

/// Drives a transition by something other than time — a gesture
/// (`UIViewControllerInteractiveTransitioning`). ``PercentDrivenInteractiveTransition`` is the usual one.
@MainActor
public protocol ViewControllerInteractiveTransitioning: AnyObject {
    func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning)
    /// Whether the transition starts driven (true) or animating until driven.
    var wantsInteractiveStart: Bool { get }
}

extension ViewControllerInteractiveTransitioning {
    public var wantsInteractiveStart: Bool { true }
}

/// The two controllers of a transition (`UITransitionContextViewControllerKey`).
public enum TransitionContextViewControllerKey: Hashable, Sendable { case from, to }
/// The two views of a transition (`UITransitionContextViewKey`).
public enum TransitionContextViewKey: Hashable, Sendable { case from, to }

/// What an animator gets for one transition (`UIViewControllerContextTransitioning`).
@MainActor
public protocol ViewControllerContextTransitioning: AnyObject {
    /// Where the transition's views go: it covers the window.
    var containerView: View { get }
    var isAnimated: Bool { get }
    /// Whether a gesture drives it now.
    var isInteractive: Bool { get }
    /// Whether the driver sent it back (``cancelInteractiveTransition()``).
    var transitionWasCancelled: Bool { get }
    func viewController(forKey key: TransitionContextViewControllerKey) -> ViewController?
    /// The controller's view the animator moves: the presented one's (to when
    /// presenting, from when dismissing); the presenter's only for `.fullScreen`
    /// (a `.custom` presentation leaves it where it is), else nil.
    func view(forKey key: TransitionContextViewKey) -> View?
    /// A controller's view's frame in the container before the transition; `.zero` when it is not there yet.
    func initialFrame(for viewController: ViewController) -> Rect
    /// Its frame after the transition; `.zero` when it leaves.
    func finalFrame(for viewController: ViewController) -> Rect
    func updateInteractiveTransition(_ percentComplete: Double)
    func finishInteractiveTransition()
    func cancelInteractiveTransition()
    func pauseInteractiveTransition()
    /// The animation is over: the transition ends (or, when `didComplete` is
    /// false, is undone). Called once; another call is refused with a diagnostic.
    func completeTransition(_ didComplete: Bool)
}

/// One presentation's or dismissal's context, made by the presentation code.
@MainActor
final class TransitionContext: ViewControllerContextTransitioning {
    let containerView: View
    let isAnimated = true
    private(set) var isInteractive = false
    private(set) var transitionWasCancelled = false
    private let from: ViewController, to: ViewController
    private let fromView: View?, toView: View?
    private let frames: [ObjectIdentifier: (initial: Rect, final: Rect)]
    let animator: any ViewControllerAnimatedTransitioning
    private var onComplete: ((Bool) -> Void)?

    init(container: View, from: ViewController, to: ViewController, fromView: View?, toView: View?,
         frames: [ObjectIdentifier: (initial: Rect, final: Rect)], animator: any ViewControllerAnimatedTransitioning,
         onComplete: @escaping (Bool) -> Void) {
        (containerView, self.from, self.to, self.fromView, self.toView) = (container, from, to, fromView, toView)
        (self.frames, self.animator, self.onComplete) = (frames, animator, onComplete)
    }

    /// Runs the transition: driven by `interactor` when there is one, else by the animator alone.
    func start(driven interactor: (any ViewControllerInteractiveTransitioning)?) {
        guard let interactor else { return animator.animateTransition(using: self) }
        isInteractive = interactor.wantsInteractiveStart
        interactor.startInteractiveTransition(self)
    }

    func viewController(forKey key: TransitionContextViewControllerKey) -> ViewController? { key == .from ? from : to }
    func view(forKey key: TransitionContextViewKey) -> View? { key == .from ? fromView : toView }
    func initialFrame(for viewController: ViewController) -> Rect { frames[ObjectIdentifier(viewController)]?.initial ?? .zero }
    func finalFrame(for viewController: ViewController) -> Rect { frames[ObjectIdentifier(viewController)]?.final ?? .zero }

    func updateInteractiveTransition(_ percentComplete: Double) {}
    func finishInteractiveTransition() {
        isInteractive = false
        transitionWasCancelled = false
    }
    func cancelInteractiveTransition() {
        isInteractive = false
        transitionWasCancelled = true
    }
    func pauseInteractiveTransition() { isInteractive = true }

    func completeTransition(_ didComplete: Bool) {
        guard let onComplete else {
            return Diagnostics.report(.invalidView("completeTransition: this transition has already completed; ignored"))
        }
        self.onComplete = nil
        onComplete(didComplete)
        animator.animationEnded(didComplete)
    }
}

/// Lets a gesture drive a transition's animator (`UIPercentDrivenInteractiveTransition`):
/// the animator's ``ViewControllerAnimatedTransitioning/interruptibleAnimator(using:)``
/// is paused and scrubbed by ``update(_:)``, then runs on to its end from where
/// it is with ``finish()``, or back to its start with ``cancel()`` (the context
/// then says ``ViewControllerContextTransitioning/transitionWasCancelled``, and
/// the animator's completion undoes the transition). An animator without an
/// interruptible animator cannot be scrubbed: it runs to its end (with a diagnostic).
@MainActor
open class PercentDrivenInteractiveTransition: ViewControllerInteractiveTransitioning {
    /// How much faster than the animator's own pace ``finish()`` and ``cancel()`` run (`completionSpeed`, 1).
    public var completionSpeed = 1.0
    public var wantsInteractiveStart = true
    /// How far the transition is, 0…1.
    public private(set) var percentComplete = 0.0
    /// The animator's duration, once a transition started.
    public private(set) var duration = 0.0
    private weak var context: TransitionContext?
    private var driven: ViewPropertyAnimator?

    public init() {}

    open func startInteractiveTransition(_ transitionContext: any ViewControllerContextTransitioning) {
        guard let context = transitionContext as? TransitionContext else { return }
        self.context = context
        duration = context.animator.transitionDuration(using: context)
        guard let animator = context.animator.interruptibleAnimator(using: context) else {
            Diagnostics.report(.invalidView("PercentDrivenInteractiveTransition: the animator offers no interruptibleAnimator(using:); it runs to its end"))
            context.finishInteractiveTransition()
            return context.animator.animateTransition(using: context)
        }
        driven = animator
        animator.pauseAnimation()
        animator.fractionComplete = percentComplete
        if !wantsInteractiveStart { finish() }
    }

    /// The gesture is `percentComplete` (0…1) of the way.
    open func update(_ percentComplete: Double) {
        guard percentComplete.isFinite else { return }
        self.percentComplete = min(1, max(0, percentComplete))
        context?.updateInteractiveTransition(self.percentComplete)
        if let driven, !driven.isRunning { driven.fractionComplete = self.percentComplete }
    }

    /// The animator runs on to its end from where it is.
    open func finish() {
        context?.finishInteractiveTransition()
        run(reversed: false)
    }

    /// The animator runs back to its start; the transition is undone.
    open func cancel() {
        context?.cancelInteractiveTransition()
        run(reversed: true)
    }

    /// The animator stops where it is, to be driven again.
    open func pause() {
        context?.pauseInteractiveTransition()
        driven?.pauseAnimation()
    }

    private func run(reversed: Bool) {
        guard let driven else { return }
        driven.isReversed = reversed
        // What is left takes its share of the duration, at the completion speed.
        driven.continueAnimation(withTimingParameters: nil, durationFactor: 1 / max(0.01, completionSpeed))
    }
}
