@testable import Strata
import PixmanRender
import Testing
import LayerKitTesting

/// Keyframe blocks, view transitions and the property animator, at exact times.
@MainActor
@Suite("Keyframes, transitions and property animators", .isolatedLayerContext)
struct AdvancedAnimationTests {
    // MARK: Keyframes

    @Test("keyframes: each reaches its value in its part of the duration and holds between")
    func keyframes() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))   // centre x 50
        var done: [Bool] = []
        View.animateKeyframes(withDuration: 2, animations: {
            View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.25) { view.center.x = 150 }
            View.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) { view.center.x = 250 }
        }, completion: { done.append($0) })
        #expect(view.center.x == 250)
        let animation = view.layer.animation(forKey: "position") as? KeyframeAnimation
        #expect(animation?.keyTimes == [0, 0.25, 0.5, 1])
        Transaction.flush()
        f.advance(0.25)
        #expect(close(f.shownPoint(view).x, 100))
        f.advance(0.5)
        #expect(close(f.shownPoint(view).x, 150))    // held until the second keyframe starts
        f.advance(0.75)
        #expect(close(f.shownPoint(view).x, 200))
        #expect(done.isEmpty)
        f.advance(0.5)
        #expect(done == [true])
        #expect(f.shownPoint(view).x == 250)
    }

    @Test("keyframes: discrete mode shows each value from its keyframe's start")
    func discreteKeyframes() {
        let f = ViewFixture()
        let view = f.addView()
        View.animateKeyframes(withDuration: 1, options: .calculationModeDiscrete, animations: {
            View.addKeyframe(withRelativeStartTime: 0.25, relativeDuration: 0.25) { view.alpha = 0.5 }
            View.addKeyframe(withRelativeStartTime: 0.75, relativeDuration: 0.25) { view.alpha = 0 }
        })
        Transaction.flush()
        f.advance(0.2)
        #expect(f.shownDouble(view, "opacity") == 1)
        f.advance(0.1)
        #expect(f.shownDouble(view, "opacity") == 0.5)
        f.advance(0.5)
        #expect(f.shownDouble(view, "opacity") == 0)
    }

    @Test("keyframes: changes outside addKeyframe span the whole duration; addKeyframe alone is not a keyframe")
    func keyframeEdges() {
        let f = ViewFixture()
        let view = f.addView()
        View.animateKeyframes(withDuration: 1, animations: { view.layer.borderWidth = 10 })
        Transaction.flush()
        f.advance(0.5)
        #expect(close(f.shownDouble(view, "borderWidth"), 5))
        View.addKeyframe(withRelativeStartTime: 0, relativeDuration: 1) { view.alpha = 0.5 }
        #expect(view.layer.animation(forKey: "opacity") == nil && view.alpha == 0.5)
        #expect(f.diagnostics.count == 1)
    }

    // MARK: Transitions

    /// The window's pixel at the view's centre, and at an edge.
    func pixels(_ f: ViewFixture, at time: Double) -> (centre: Color, edge: Color) {
        let image = f.window.snapshot(atTime: time)
        return (image.pixel(x: 100, y: 100), image.pixel(x: 62, y: 100))
    }

    @Test("transition: a cross-dissolve blends the old and new states")
    func crossDissolve() {
        let f = ViewFixture()
        f.window.backgroundColor = .black
        let view = f.addView(Rect(x: 50, y: 50, width: 100, height: 100), color: .red)
        var done: [Bool] = []
        View.transition(with: view, duration: 1, options: [.transitionCrossDissolve, .curveLinear],
                        animations: { view.backgroundColor = .blue }, completion: { done.append($0) })
        #expect(view.backgroundColor == .blue)
        Transaction.flush()
        let mid = pixels(f, at: 100.5).centre
        #expect(abs(mid.red - 0.5) < 0.02 && abs(mid.blue - 0.5) < 0.02 && mid.alpha > 0.99)
        f.advance(1)
        #expect(done == [true])
        #expect(pixels(f, at: 101).centre.blue > 0.99)
    }

    @Test("transition: a flip turns the old state away, then the new one in, in perspective")
    func flip() throws {
        let f = ViewFixture()
        f.window.backgroundColor = .black
        let view = f.addView(Rect(x: 50, y: 50, width: 100, height: 100), color: .red)
        View.transition(with: view, duration: 1, options: [.transitionFlipFromLeft, .curveLinear],
                        animations: { view.backgroundColor = .blue })
        Transaction.flush()
        let early = pixels(f, at: 100.1), nearlyEdgeOn = pixels(f, at: 100.45), late = pixels(f, at: 100.9)
        #expect(early.centre.red > 0.99 && early.edge.red > 0.99)        // old state, barely turned
        #expect(nearlyEdgeOn.centre.red > 0.99 && nearlyEdgeOn.edge.alpha == 1 && nearlyEdgeOn.edge.red < 0.01)   // narrow
        #expect(late.centre.blue > 0.99 && late.edge.blue > 0.99, "\(late)")        // new state, nearly facing
        let strip = f.window.filmstrip(from: 100, to: 101, frames: 6)
        try strip.writePNG(to: "/tmp/strata-flip.png")
    }

    // MARK: Property animator

    @Test("property animator: pausing stops the motion; scrubbing sets the fraction; values follow linearly")
    func animatorScrub() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))   // centre x 50
        let animator = ViewPropertyAnimator(duration: 1, curve: .easeInOut) { view.center.x = 150 }
        animator.startAnimation()
        #expect(animator.state == .active && animator.isRunning)
        Transaction.flush()
        f.advance(0.25)
        let shownAtPause = f.shownPoint(view).x
        #expect(close(shownAtPause, 50 + 100 * easeInOut.value(at: 0.25)))
        animator.pauseAnimation()
        #expect(close(f.shownPoint(view).x, shownAtPause))          // no jump when pausing
        f.advance(5)
        #expect(close(f.shownPoint(view).x, shownAtPause))
        animator.fractionComplete = 0.8
        #expect(close(f.shownPoint(view).x, 130))                   // linear while paused
        #expect(close(animator.fractionComplete, 0.8))
    }

    @Test("property animator: resuming after scrubbing continues on the curve without a jump and ends at .end")
    func animatorResume() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))
        var ended: [ViewAnimatingPosition] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .easeInOut) { view.center.x = 150 }
        animator.addCompletion { ended.append($0) }
        animator.pauseAnimation()
        animator.fractionComplete = 0.5
        Transaction.flush()
        #expect(close(f.shownPoint(view).x, 100))
        animator.startAnimation()
        #expect(close(f.shownPoint(view).x, 100, 1e-6))
        f.advance(0.25)
        #expect(close(f.shownPoint(view).x, 50 + 100 * easeInOut.value(at: 0.75), 1e-6))
        #expect(ended.isEmpty)
        Transaction.flush()
        f.advance(0.25)
        #expect(ended == [.end])
        #expect(animator.state == .inactive)
        #expect(view.layer.animationKeys.isEmpty && view.center.x == 150)
    }

    @Test("property animator: reversed, it runs back and finishes at .start with the old model values")
    func animatorReverse() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))
        var ended: [ViewAnimatingPosition] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear) {
            view.center.x = 150
            view.alpha = 0
        }
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        Transaction.flush()
        f.advance(0.6)
        animator.isReversed = true
        #expect(close(f.shownPoint(view).x, 110))
        Transaction.flush()
        f.advance(0.3)
        #expect(close(f.shownPoint(view).x, 80))
        #expect(close(f.shownDouble(view, "opacity"), 0.7))
        f.advance(0.3)
        #expect(ended == [.start])
        #expect(view.center.x == 50 && view.alpha == 1)
        #expect(view.layer.animationKeys.isEmpty)
    }

    @Test("property animator: continueAnimation with a duration factor retimes what is left")
    func animatorContinue() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))
        let animator = ViewPropertyAnimator(duration: 2, curve: .linear) { view.center.x = 150 }
        animator.pauseAnimation()
        animator.fractionComplete = 0.5
        animator.continueAnimation(withTimingParameters: .curve(MediaTimingFunction(name: .linear)), durationFactor: 0.5)
        Transaction.flush()
        f.advance(0.25)     // half a second left in all, so a quarter is half of it
        #expect(close(f.shownPoint(view).x, 125))
    }

    @Test("property animator: stopping keeps what is on screen; finishing at .current runs the completions")
    func animatorStop() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))
        var ended: [ViewAnimatingPosition] = []
        let animator = ViewPropertyAnimator(duration: 1, curve: .linear) { view.center.x = 150 }
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        Transaction.flush()
        f.advance(0.4)
        animator.stopAnimation(false)
        #expect(animator.state == .stopped)
        #expect(close(view.center.x, 90) && view.layer.animationKeys.isEmpty)
        #expect(ended.isEmpty)
        animator.finishAnimation(at: .current)
        #expect(ended == [.current] && animator.state == .inactive)
        let silent = ViewPropertyAnimator(duration: 1, curve: .linear) { view.alpha = 0 }
        silent.addCompletion { ended.append($0) }
        silent.startAnimation()
        silent.stopAnimation(true)
        #expect(silent.state == .inactive && ended == [.current])
    }

    @Test("property animator: pausesOnCompletion stays active at the end")
    func animatorPausesOnCompletion() {
        let f = ViewFixture()
        let view = f.addView()
        var ended: [ViewAnimatingPosition] = []
        let animator = ViewPropertyAnimator(duration: 0.5, curve: .linear) { view.alpha = 0 }
        animator.pausesOnCompletion = true
        animator.addCompletion { ended.append($0) }
        animator.startAnimation()
        Transaction.flush()
        f.advance(1)
        #expect(ended.isEmpty && animator.state == .active && !animator.isRunning)
        #expect(close(animator.fractionComplete, 1))
        #expect(f.shownDouble(view, "opacity") < 1e-6)
    }

    @Test("property animator: bad input — non-finite durations and fractions fall back with a diagnostic")
    func animatorBadInput() {
        let f = ViewFixture()
        let view = f.addView()
        let animator = ViewPropertyAnimator(duration: .nan, curve: .linear) { view.alpha = 0 }
        #expect(animator.duration == 0.25)
        animator.fractionComplete = .infinity
        #expect(animator.state == .inactive)
        animator.pauseAnimation()
        animator.fractionComplete = .nan
        #expect(animator.fractionComplete == 0)
        #expect(f.diagnostics.count == 3)
    }
}
