@testable import Strata
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// Fades the presented view in (presenting) or out (dismissing) over `duration`
/// with `View.animate`, and notes what its contexts gave it.
@MainActor
private final class FadeAnimator: ViewControllerAnimatedTransitioning {
    let duration: Double
    var contexts: [any ViewControllerContextTransitioning] = []
    var ended: [Bool] = []
    init(duration: Double = 0.5) { self.duration = duration }

    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { duration }

    func animateTransition(using context: any ViewControllerContextTransitioning) {
        contexts.append(context)
        let presenting = context.viewController(forKey: .to)?.presentingViewController != nil
        if presenting, let to = context.view(forKey: .to), let toController = context.viewController(forKey: .to) {
            context.containerView.addSubview(to)
            to.frame = context.finalFrame(for: toController)
            to.alpha = 0
            View.animate(duration: duration, delay: 0, options: [.curveLinear], { to.alpha = 1 },
                         completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
        } else if let from = context.view(forKey: .from) {
            View.animate(duration: duration, delay: 0, options: [.curveLinear], { from.alpha = 0 },
                         completion: { _ in context.completeTransition(!context.transitionWasCancelled) })
        }
    }

    func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
}

/// Slides the presented view in from 400 points to the right (presenting) or
/// out to there (dismissing) over 1 s, with a property animator a gesture can scrub.
@MainActor
private final class SlideAnimator: ViewControllerAnimatedTransitioning {
    let presenting: Bool
    private var animator: ViewPropertyAnimator?
    init(presenting: Bool) { self.presenting = presenting }
    func transitionDuration(using transitionContext: (any ViewControllerContextTransitioning)?) -> Double { 1 }
    func interruptibleAnimator(using context: any ViewControllerContextTransitioning) -> ViewPropertyAnimator? {
        if let animator { return animator }
        let moved = context.view(forKey: presenting ? .to : .from)!, away = AffineTransform(translationX: 400, y: 0)
        if presenting { moved.transform = away }
        let made = ViewPropertyAnimator(duration: 1, curve: .linear) { [presenting] in moved.transform = presenting ? .identity : away }
        made.addCompletion { [weak self] _ in
            self?.animator = nil
            context.completeTransition(!context.transitionWasCancelled)
        }
        animator = made
        return made
    }
    func animateTransition(using context: any ViewControllerContextTransitioning) {
        interruptibleAnimator(using: context)?.startAnimation()
    }
}

@MainActor
private final class Transitions: ViewControllerTransitioningDelegate {
    var presenting: (any ViewControllerAnimatedTransitioning)?
    var dismissing: (any ViewControllerAnimatedTransitioning)?
    var interactor: PercentDrivenInteractiveTransition?
    var presentingInteractor: PercentDrivenInteractiveTransition?
    func animationController(forPresented presented: ViewController, presenting: ViewController,
                             source: ViewController) -> (any ViewControllerAnimatedTransitioning)? { self.presenting }
    func animationController(forDismissed dismissed: ViewController) -> (any ViewControllerAnimatedTransitioning)? { dismissing }
    func interactionControllerForPresentation(using animator: any ViewControllerAnimatedTransitioning) -> (any ViewControllerInteractiveTransitioning)? {
        presentingInteractor
    }
    func interactionControllerForDismissal(using animator: any ViewControllerAnimatedTransitioning) -> (any ViewControllerInteractiveTransitioning)? {
        interactor
    }
}

/// Custom presentation transitions (issue 27, item 1): a transitioning
/// delegate's animators, the `.custom` style, and interactive dismissal.
@MainActor
@Suite("Custom presentation transitions", .serialized, .isolatedLayerContext)
struct CustomTransitionTests {
    let log = CallLog()

    @Test("a transitioning delegate's animator presents and dismisses full screen: UIKit's call order, the animator's fade on the media clock, the context's views and frames; a second completeTransition is refused")
    func animatedFullScreen() throws {
        let f = ViewFixture()
        let a = Recording("a", color: .green, log: log), b = Recording("b", color: .blue, log: log)
        f.window.rootViewController = a
        _ = log.take()
        let transitions = Transitions(), fade = FadeAnimator()
        transitions.presenting = fade
        transitions.dismissing = fade
        b.transitioningDelegate = transitions
        b.modalPresentationStyle = .fullScreen
        var done = 0
        a.present(b, animated: true) { done += 1 }
        Transaction.flush()
        #expect(log.take() == ["b.loadView", "b.viewDidLoad", "a.willDisappear", "b.willAppear"])
        let context = try #require(fade.contexts.first)
        #expect(context.view(forKey: .to) === b.view && context.view(forKey: .from) === a.view && context.isAnimated && !context.isInteractive)
        #expect(context.containerView === b.view.superview && context.finalFrame(for: b) == f.window.rootView.bounds)
        #expect(context.initialFrame(for: b) == .zero && context.finalFrame(for: a) == .zero)
        f.advance(0.25)
        #expect(close(f.shown(b.view, "opacity") as? Double ?? .nan, 0.5, 0.02), "half faded in")
        let mid = f.window.snapshot().pixel(x: 200, y: 100)
        #expect(mid.green > 0.3 && mid.blue > 0.3, "green and blue mixed: \(mid)")
        f.advance(0.3)
        #expect(log.take() == ["a.didDisappear", "b.didAppear"] && done == 1 && fade.ended == [true])
        #expect(f.window.snapshot().pixel(x: 200, y: 100) == .blue)

        let before = f.diagnostics.count
        context.completeTransition(true)
        #expect(f.diagnostics.count == before + 1 && fade.ended == [true], "completed already: refused")

        b.dismiss(animated: true) { done += 1 }
        Transaction.flush()
        #expect(log.take() == ["b.willDisappear", "a.willAppear"])
        #expect(fade.contexts.count == 2 && fade.contexts[1].view(forKey: .from) === b.view && fade.contexts[1].view(forKey: .to) === a.view)
        f.advance(0.55)
        #expect(log.take() == ["b.didDisappear", "a.didAppear"] && done == 2 && fade.ended == [true, true])
        #expect(a.presentedViewController == nil && b.view.superview == nil)
        #expect(f.window.snapshot().pixel(x: 200, y: 100) == .green)
    }

    @Test("the custom style: the presenter stays (no calls for it), nothing dims; without an animator the view slides up and back down; Escape leaves it; not animated, no animator is asked")
    func customStyle() {
        let f = ViewFixture()
        let a = Recording("a", color: .green, log: log), c = Recording("c", color: .red, log: log)
        f.window.rootViewController = a
        _ = log.take()
        c.modalPresentationStyle = .custom
        a.present(c, animated: true)
        Transaction.flush()
        #expect(log.take() == ["c.loadView", "c.viewDidLoad", "c.willAppear"])
        f.advance(0.175)
        let moved = (f.shown(c.view, "transform") as? Transform3D)?.m42 ?? .nan
        #expect(close(moved, 300 / 2, 1), "half way up: \(moved)")
        f.advance(0.2)
        #expect(log.take() == ["c.didAppear"] && c.view.frame == f.window.rootView.bounds)
        let driver = InputDriver(window: f.window)
        driver.tapKey(keysym: Key.escape)
        Transaction.flush()
        f.advance(0.4)
        #expect(a.presentedViewController === c, "Escape does not dismiss a custom presentation")
        c.dismiss(animated: true)
        Transaction.flush()
        f.advance(0.4)
        #expect(log.take() == ["c.willDisappear", "c.didDisappear"] && a.presentedViewController == nil)

        let transitions = Transitions(), fade = FadeAnimator()
        transitions.presenting = fade
        c.transitioningDelegate = transitions
        a.present(c, animated: false)
        #expect(fade.contexts.isEmpty && log.take() == ["c.willAppear", "c.didAppear"])
    }

    @Test("interactive dismissal: a percent-driven transition scrubs the animator's property animator; cancelled it goes back and the calls reverse (still presented); finished it completes; an animator with nothing to scrub runs to its end, with a diagnostic")
    func interactiveDismissal() {
        let f = ViewFixture()
        let a = Recording("a", color: .green, log: log), b = Recording("b", color: .blue, log: log)
        f.window.rootViewController = a
        let transitions = Transitions(), interactor = PercentDrivenInteractiveTransition()
        transitions.dismissing = SlideAnimator(presenting: false)
        transitions.interactor = interactor
        b.transitioningDelegate = transitions
        b.modalPresentationStyle = .fullScreen
        a.present(b, animated: false)
        _ = log.take()

        b.dismiss(animated: true)
        Transaction.flush()
        #expect(log.take() == ["b.willDisappear", "a.willAppear"])
        interactor.update(0.25)
        Transaction.flush()
        #expect(close((f.shown(b.view, "transform") as? Transform3D)?.m41 ?? .nan, 100, 1), "a quarter of the way")
        interactor.cancel()
        Transaction.flush()
        f.advance(0.3)
        #expect(log.take() == ["a.willDisappear", "b.willAppear", "a.didDisappear", "b.didAppear"], "reversed as a cancelled pop reverses them")
        #expect(a.presentedViewController === b && b.view.superview != nil)
        #expect((f.shown(b.view, "transform") as? Transform3D)?.m41 == 0, "back in place")

        b.dismiss(animated: true)
        interactor.update(0.6)
        interactor.finish()
        Transaction.flush()
        f.advance(0.45)
        #expect(log.take() == ["b.willDisappear", "a.willAppear", "b.didDisappear", "a.didAppear"])
        #expect(a.presentedViewController == nil && b.view.superview == nil)

        // A fade animator offers nothing to scrub: it runs by itself.
        let fade = FadeAnimator(duration: 0.2)
        transitions.dismissing = fade
        a.present(b, animated: false)
        let before = f.diagnostics.count
        b.dismiss(animated: true)
        Transaction.flush()
        f.advance(0.3)
        #expect(f.diagnostics.count == before + 1 && fade.ended == [true] && a.presentedViewController == nil)
    }

    @Test("interactive presentation: cancelled half way, the controller goes as if never shown (its calls and the covered presenter's reversed); finished, it is presented")
    func interactivePresentation() {
        let f = ViewFixture()
        let a = Recording("a", color: .green, log: log), b = Recording("b", color: .blue, log: log)
        f.window.rootViewController = a
        _ = log.take()
        let transitions = Transitions(), interactor = PercentDrivenInteractiveTransition()
        transitions.presenting = SlideAnimator(presenting: true)
        transitions.presentingInteractor = interactor
        b.transitioningDelegate = transitions
        b.modalPresentationStyle = .fullScreen
        var done = 0
        a.present(b, animated: true) { done += 1 }
        Transaction.flush()
        #expect(log.take() == ["b.loadView", "b.viewDidLoad", "a.willDisappear", "b.willAppear"])
        interactor.update(0.5)
        Transaction.flush()
        #expect(close((f.shown(b.view, "transform") as? Transform3D)?.m41 ?? .nan, 200, 1), "half way in")
        interactor.cancel()
        Transaction.flush()
        f.advance(0.6)
        #expect(log.take() == ["b.willDisappear", "a.willAppear", "b.didDisappear", "a.didAppear"], "reversed as a cancelled pop reverses them")
        #expect(a.presentedViewController == nil && b.presentingViewController == nil && b.view.superview == nil && done == 0)

        a.present(b, animated: true) { done += 1 }
        interactor.update(0.2)
        interactor.finish()
        Transaction.flush()
        f.advance(0.9)
        #expect(log.take() == ["a.willDisappear", "b.willAppear", "a.didDisappear", "b.didAppear"] && done == 1)
        #expect(a.presentedViewController === b && f.window.snapshot().pixel(x: 200, y: 100) == .blue)
    }
}
