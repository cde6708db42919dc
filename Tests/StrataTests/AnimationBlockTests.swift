@testable import Strata
import Glibc
import Testing
import LayerKitTesting

/// `View.animate` in all its forms (rules V3–V8), checked at exact media times.
@MainActor
@Suite("Animation blocks", .isolatedLayerContext)
struct AnimationBlockTests {
    @Test("rule V3: inside a block, view changes animate with the block's duration and the default curve")
    func blockAnimates() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 1) { view.alpha = 0 }
        #expect(view.alpha == 0)                  // the model changes at once (rule B3)
        Transaction.flush()
        f.advance(0.25)
        #expect(close(f.shownDouble(view, "opacity"), 1 - easeInOut.value(at: 0.25)))
        f.advance(0.25)
        #expect(close(f.shownDouble(view, "opacity"), 0.5, 1e-4))
        f.advance(0.5)
        #expect(f.shownDouble(view, "opacity") == 0)
        #expect(view.layer.animationKeys.isEmpty)
    }

    @Test("rule V3: changes made directly on a view's layer inside the block animate too")
    func layerChangesInBlock() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 2, options: .curveLinear) {
            view.layer.cornerRadius = 20
            view.layer.borderWidth = 4
        }
        Transaction.flush()
        f.advance(0.5)
        #expect(close(f.shownDouble(view, "cornerRadius"), 5))
        #expect(close(f.shownDouble(view, "borderWidth"), 1))
    }

    @Test("rule V3: layers that are not view-backed keep their own rules inside a block")
    func plainLayerInBlock() {
        let f = ViewFixture()
        let view = f.addView()
        let plain = Layer()
        view.layer.addSublayer(plain)
        Transaction.flush()
        View.animate(duration: 4) { plain.opacity = 0 }
        #expect(plain.animation(forKey: "opacity")?.duration == 0.25)   // the transaction's, not the block's
        Transaction.flush()
        View.performWithoutAnimation { plain.position = Point(x: 5, y: 5) }
        #expect(plain.animation(forKey: "position") != nil)
    }

    @Test("rule V3: a delay shows the old value until the block starts (fill mode both, rule V8)")
    func delay() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 1, delay: 0.5, options: .curveLinear) { view.alpha = 0 }
        Transaction.flush()
        f.advance(0.25)
        #expect(f.shownDouble(view, "opacity") == 1)
        f.advance(0.5)
        #expect(close(f.shownDouble(view, "opacity"), 0.75))
        let animation = view.layer.animation(forKey: "opacity")!
        #expect(animation.fillMode == .both)
        #expect(animation.timingFunction == MediaTimingFunction(name: .linear))
    }

    @Test("rule V4: listing 3-5 — an explicit animation added in the block keeps its own 3 s timing")
    func listing3_5() {
        let f = ViewFixture()
        let myView = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))
        let start = myView.layer.position
        let myNewPosition = Point(x: 250, y: 150)
        View.animate(withDuration: 1.0, animations: {
            // Change the opacity implicitly.
            myView.layer.opacity = 0.0
            // Change the position explicitly.
            let theAnim = BasicAnimation(keyPath: "position")
            theAnim.fromValue = myView.layer.position
            theAnim.toValue = myNewPosition
            theAnim.duration = 3.0
            myView.layer.add(theAnim, forKey: "AnimateFrame")
        })
        Transaction.flush()
        let opacity = myView.layer.animation(forKey: "opacity")!, position = myView.layer.animation(forKey: "AnimateFrame")!
        #expect(opacity.beginTime == position.beginTime)   // both start together
        f.advance(0.5)
        #expect(close(f.shownDouble(myView, "opacity"), 0.5, 1e-4))
        let p = f.shownPoint(myView)
        #expect(close(p, Point(x: start.x + (250 - start.x) / 6, y: start.y + (150 - start.y) / 6)))
        f.advance(0.5)
        #expect(f.shownDouble(myView, "opacity") == 0)
        #expect(close(f.shownPoint(myView), Point(x: start.x + (250 - start.x) / 3, y: start.y + (150 - start.y) / 3)))
        f.advance(2)
        #expect(f.shownPoint(myView) == start)   // the explicit animation never changed the model
    }

    @Test("rule V5: the completion gets true when every animation finished")
    func completionFinished() {
        let f = ViewFixture()
        let view = f.addView()
        var result: [Bool] = []
        View.animate(duration: 1, {
            view.alpha = 0.5
            view.center = Point(x: 0, y: 0)
        }, completion: { result.append($0) })
        Transaction.flush()
        f.advance(0.99)
        #expect(result.isEmpty)
        f.advance(0.01)
        #expect(result == [true])
    }

    @Test("rule V5: the completion gets false when an animation was removed")
    func completionInterrupted() {
        let f = ViewFixture()
        let view = f.addView()
        var result: [Bool] = []
        View.animate(duration: 1, { view.alpha = 0.5 }, completion: { result.append($0) })
        Transaction.flush()
        f.advance(0.3)
        view.layer.removeAllAnimations()
        #expect(result == [false])
        #expect(f.shownDouble(view, "opacity") == 0.5)   // the model value shows again (rule E4)
    }

    @Test("rule V5: with nothing to animate the completion still runs, after the commit")
    func completionWithNothing() {
        let f = ViewFixture()
        let view = f.addView()
        var result: [Bool] = []
        View.animate(duration: 1, {}, completion: { result.append($0) })
        View.animate(duration: 1, { view.alpha = view.alpha }, completion: { result.append($0) })   // unchanged: nothing runs (rule B6)
        #expect(result.isEmpty)
        Transaction.flush()
        #expect(result == [true, true])
    }

    @Test("rule V5: the async form returns true once the animations finished")
    func asyncForm() async {
        let f = ViewFixture()
        let view = f.addView()
        Task { @MainActor in
            await Task.yield()
            Transaction.flush()
            f.advance(1)
        }
        let finished = await View.animate(duration: 0.5) { view.alpha = 0 }
        #expect(finished)
        #expect(view.layer.animationKeys.isEmpty)
    }

    @Test("rule V6: a nested block inherits the running block's duration and curve")
    func nestedInherits() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 2, options: .curveLinear) {
            View.animate(duration: 0.1, options: .curveEaseIn) { view.alpha = 0 }
            View.animate(duration: 0.5, options: [.overrideInheritedDuration, .overrideInheritedCurve, .curveEaseOut]) {
                view.backgroundColor = .blue
            }
        }
        let inherited = view.layer.animation(forKey: "opacity")!
        #expect(inherited.duration == 2)
        #expect(inherited.timingFunction == MediaTimingFunction(name: .linear))
        let own = view.layer.animation(forKey: "backgroundColor")!
        #expect(own.duration == 0.5)
        #expect(own.timingFunction == MediaTimingFunction(name: .easeOut))
        Transaction.flush()
        f.advance(1)
        #expect(close(f.shownDouble(view, "opacity"), 0.5))
    }

    @Test("rule V6: nested blocks inherit options unless they pass overrideInheritedOptions")
    func nestedOptions() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 1, options: [.repeat, .autoreverse]) {
            View.animate(duration: 1) { view.alpha = 0 }
            View.animate(duration: 1, options: .overrideInheritedOptions) { view.layer.borderWidth = 3 }
        }
        #expect(view.layer.animation(forKey: "opacity")!.repeatCount == .infinity)
        #expect(view.layer.animation(forKey: "opacity")!.autoreverses)
        #expect(view.layer.animation(forKey: "borderWidth")!.repeatCount == 0)
    }

    @Test("rule V6: performWithoutAnimation inside a block makes its changes at once")
    func withoutAnimationInsideBlock() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 1) {
            view.alpha = 0.5
            View.performWithoutAnimation {
                view.center = Point(x: 7, y: 7)
                View.animate(duration: 1) { view.layer.cornerRadius = 4 }   // nested: still not animated
            }
        }
        #expect(view.layer.animationKeys == ["opacity"])
        Transaction.flush()
        #expect(f.shownPoint(view) == Point(x: 7, y: 7))
    }

    @Test("rule V7: position retargeted mid-flight adds to the running motion: continuous, both complete true")
    func additiveRetarget() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 100, height: 100))   // centre (50, 50)
        var results: [String] = []
        View.animate(duration: 1, options: .curveLinear, { view.center = Point(x: 150, y: 50) },
                     completion: { results.append("first \($0)") })
        Transaction.flush()
        f.advance(0.5)
        #expect(close(f.shownPoint(view), Point(x: 100, y: 50)))
        View.animate(duration: 1, options: .curveLinear, { view.center = Point(x: 150, y: 250) },
                     completion: { results.append("second \($0)") })
        Transaction.flush()
        #expect(close(f.shownPoint(view), Point(x: 100, y: 50)))   // no jump
        #expect(view.layer.animationKeys == ["position", "position-2"])
        #expect((view.layer.animation(forKey: "position-2") as? BasicAnimation)?.isAdditive == true)
        f.advance(0.25)
        // first: 75 % of (−100, 0) left → 125; second: 25 % of (0, −200) done → y 100
        #expect(close(f.shownPoint(view), Point(x: 125, y: 100)))
        f.advance(0.25)
        #expect(results == ["first true"])
        f.advance(0.5)
        #expect(results == ["first true", "second true"])
        #expect(f.shownPoint(view) == Point(x: 150, y: 250))
    }

    @Test("rule V7: bounds, transform and cornerRadius are additive too")
    func additiveKeys() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 1) {
            view.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
            view.transform = AffineTransform(rotationAngle: 1)
            view.layer.cornerRadius = 5
            view.alpha = 0.5
        }
        for key in ["bounds", "transform", "cornerRadius"] {
            #expect((view.layer.animation(forKey: key) as? BasicAnimation)?.isAdditive == true, "\(key)")
        }
        #expect((view.layer.animation(forKey: "opacity") as? BasicAnimation)?.isAdditive == false)
        Transaction.flush()
        f.advance(0.5)
        let shownTransform = f.shown(view, "transform") as! Transform3D
        #expect(close(atan2(shownTransform.m12, shownTransform.m11), 0.5, 1e-4))   // half-way through the turn
    }

    @Test("rule V7: a new opacity block replaces the running one, which completes false")
    func opacityReplaces() {
        let f = ViewFixture()
        let view = f.addView()
        var results: [String] = []
        View.animate(duration: 1, options: .curveLinear, { view.alpha = 0 }, completion: { results.append("first \($0)") })
        Transaction.flush()
        f.advance(0.5)
        View.animate(duration: 1, options: .curveLinear, { view.alpha = 1 }, completion: { results.append("second \($0)") })
        #expect(results == ["first false"])
        Transaction.flush()
        // Without beginFromCurrentState it starts from the old model value (0): a jump.
        #expect(close(f.shownDouble(view, "opacity"), 0))
        f.advance(1)
        #expect(results == ["first false", "second true"])
    }

    @Test("rule V7: with beginFromCurrentState the replacement starts from what is on screen")
    func beginFromCurrentState() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 1, options: .curveLinear) { view.alpha = 0 }
        Transaction.flush()
        f.advance(0.5)
        View.animate(duration: 1, options: [.curveLinear, .beginFromCurrentState]) { view.alpha = 1 }
        Transaction.flush()
        #expect(close(f.shownDouble(view, "opacity"), 0.5))
        f.advance(0.5)
        #expect(close(f.shownDouble(view, "opacity"), 0.75))
    }

    @Test("rule V8: a duration ≤ 0 changes at once and still completes, with true")
    func zeroDuration() {
        let f = ViewFixture()
        let view = f.addView()
        var result: [Bool] = []
        View.animate(duration: 0, { view.alpha = 0.2 }, completion: { result.append($0) })
        View.animate(duration: -1, { view.center = .zero }, completion: { result.append($0) })
        #expect(view.layer.animationKeys.isEmpty)
        Transaction.flush()
        #expect(result == [true, true])
        #expect(close(f.shownDouble(view, "opacity"), 0.2))
    }

    @Test("rule V8: views in a block animation ignore input unless allowUserInteraction; hidden and clipping change at once")
    func interactionAndImmediateKeys() {
        let f = ViewFixture()
        let a = f.addView(), b = f.addView()
        View.animate(duration: 1) {
            a.alpha = 0.5
            a.isHidden = true
            a.clipsToBounds = true
        }
        View.animate(duration: 1, options: .allowUserInteraction) { b.alpha = 0.5 }
        #expect(a.layer.animationKeys == ["opacity"])
        a.isHidden = false
        #expect(!a.acceptsHits && b.acceptsHits)
        Transaction.flush()
        f.advance(1)
        #expect(a.acceptsHits)
    }

    @Test("springs: an under-damped block overshoots, a critically damped one does not, both end at the target")
    func springs() {
        let f = ViewFixture()
        let bouncy = f.addView(Rect(x: 0, y: 0, width: 10, height: 10))
        let calm = f.addView(Rect(x: 0, y: 0, width: 10, height: 10))
        View.animate(duration: 1, dampingRatio: 0.3) { bouncy.center = Point(x: 105, y: 5) }
        View.animate(withDuration: 1, delay: 0, usingSpringWithDamping: 1, initialSpringVelocity: 0, options: [],
                     animations: { calm.center = Point(x: 105, y: 5) }, completion: nil)
        #expect(bouncy.layer.animation(forKey: "position") is SpringAnimation)
        Transaction.flush()
        var bouncyMax = 0.0, calmMax = 0.0
        for _ in 0..<100 {
            f.advance(0.01)
            bouncyMax = max(bouncyMax, f.shownPoint(bouncy).x)
            calmMax = max(calmMax, f.shownPoint(calm).x)
        }
        #expect(bouncyMax > 120)
        #expect(calmMax <= 105 + 1e-9)
        #expect(f.shownPoint(bouncy) == Point(x: 105, y: 5) && f.shownPoint(calm) == Point(x: 105, y: 5))
    }

    @Test("repeat and autoreverse: the value goes out and back each cycle")
    func repeatAutoreverse() {
        let f = ViewFixture()
        let view = f.addView()
        View.animate(duration: 1, options: [.repeat, .autoreverse, .curveLinear]) { view.alpha = 0 }
        Transaction.flush()
        f.advance(1.5)
        #expect(close(f.shownDouble(view, "opacity"), 0.5))
        f.advance(0.5)
        #expect(close(f.shownDouble(view, "opacity"), 1))
        f.advance(10.25)
        #expect(close(f.shownDouble(view, "opacity"), 0.75))
    }

    @Test("layoutIfNeeded inside a block animates the new layout")
    func animatedLayout() {
        final class Row: View {
            override func layoutSubviews() {
                for (i, v) in subviews.enumerated() {
                    v.frame = Rect(x: Double(i) * bounds.width / 2, y: 0, width: bounds.width / 2, height: bounds.height)
                }
            }
        }
        let f = ViewFixture()
        let row = Row(frame: Rect(x: 0, y: 0, width: 100, height: 20))
        row.addSubview(View())
        row.addSubview(View())
        f.window.rootView.addSubview(row)
        row.layoutIfNeeded()
        Transaction.flush()
        View.animate(duration: 1, options: .curveLinear) {
            row.frame = Rect(x: 0, y: 0, width: 200, height: 20)
            row.layoutIfNeeded()
        }
        Transaction.flush()
        f.advance(0.5)
        #expect(close(f.shownPoint(row.subviews[1]).x, 75 + 37.5))   // centre: from 75 to 150
    }

    @Test("the layoutSubviews option lays out the changed views inside the block")
    func layoutSubviewsOption() {
        final class Stretch: View {
            override func layoutSubviews() { subviews.first?.frame = bounds }
        }
        let f = ViewFixture()
        let outer = Stretch(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        outer.addSubview(View())
        f.window.rootView.addSubview(outer)
        outer.layoutIfNeeded()
        Transaction.flush()
        View.animate(duration: 1, options: [.layoutSubviews, .curveLinear]) { outer.bounds.size = Size(width: 200, height: 100) }
        #expect(outer.subviews[0].layer.animation(forKey: "bounds") != nil)
    }

    // MARK: Bad input

    @Test("bad input: NaN, infinite durations and delays, and damping ≤ 0 fall back with a diagnostic")
    func badTiming() {
        let f = ViewFixture()
        let view = f.addView()
        var done = 0
        View.animate(duration: .nan, { view.alpha = 0.1 }, completion: { _ in done += 1 })
        View.animate(duration: .infinity, { view.alpha = 0.2 }, completion: { _ in done += 1 })
        #expect(view.layer.animationKeys.isEmpty)
        View.animate(duration: 1, delay: .nan, { view.alpha = 0.3 }, completion: { _ in done += 1 })
        View.animate(duration: 1, dampingRatio: 0, { view.center = .zero }, completion: { _ in done += 1 })
        View.animate(duration: 1, dampingRatio: -.infinity, initialVelocity: .nan, { view.layer.borderWidth = 2 }, completion: { _ in done += 1 })
        #expect(f.diagnostics.count == 6)
        Transaction.flush()
        f.advance(1)
        #expect(done == 5)
        #expect(view.layer.animationKeys.isEmpty)
        #expect(!f.shownDouble(view, "borderWidth").isNaN && f.shownPoint(view) == .zero)
    }

    @Test("bad input: removing a view during its animation and in its completion leaves a sound tree")
    func removeDuringAnimation() {
        let f = ViewFixture()
        let a = f.addView(), b = f.addView()
        var results: [Bool] = []
        View.animate(duration: 1, { a.alpha = 0; b.alpha = 0 }, completion: { finished in
            results.append(finished)
            b.removeFromSuperview()
        })
        Transaction.flush()
        f.advance(0.5)
        a.removeFromSuperview()
        f.advance(0.5)
        #expect(results == [true])
        #expect(f.window.rootView.subviews.isEmpty)
        #expect(a.superview == nil && b.superview == nil)
    }

    @Test("bad input: a completion that starts the next block chains without recursion trouble")
    func reentrantCompletion() {
        let f = ViewFixture()
        let view = f.addView()
        var rounds = 0
        func bounce() {
            View.animate(duration: 0.125, { view.alpha = view.alpha == 1 ? 0 : 1 }, completion: { _ in
                rounds += 1
                if rounds < 50 { bounce() }
            })
        }
        bounce()
        for _ in 0..<60 {
            Transaction.flush()
            f.advance(0.125)
        }
        #expect(rounds == 50)
        Transaction.flush()
        #expect(view.layer.animationKeys.isEmpty)
    }

    @Test("bad input: a view gone mid-animation completes its block with false")
    func viewDeallocated() {
        let f = ViewFixture()
        var result: [Bool] = []
        do {
            let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
            f.window.rootView.addSubview(view)
            Transaction.flush()
            View.animate(duration: 1, { view.alpha = 0 }, completion: { result.append($0) })
            Transaction.flush()
            view.removeFromSuperview()
        }
        f.advance(0.5)
        #expect(result == [false])
    }
}
