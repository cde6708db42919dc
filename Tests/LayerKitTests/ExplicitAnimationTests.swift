@testable import LayerKit
import Testing
import LayerKitTesting

/// Explicit animations (rules E1–E5, E8, E11), on a ManualMediaClock.
@MainActor
@Suite("Explicit animations (E1–E5, E8, E11)", .serialized, .isolatedLayerContext)
struct ExplicitAnimationTests {
    /// Adds a linear 1 s animation of `keyPath` and commits, so it begins at t = 100.
    func addLinear(_ layer: Layer, _ keyPath: String, from: Any? = nil, to: Any? = nil, by: Any? = nil,
                   key: String? = nil, configure: (BasicAnimation) -> Void = { _ in }) {
        let a = BasicAnimation(keyPath: keyPath)
        a.fromValue = from
        a.toValue = to
        a.byValue = by
        a.duration = 1
        configure(a)
        layer.add(a, forKey: key ?? keyPath)
        Transaction.flush()
    }

    @Test("rule E1: add copies the animation; later changes to the caller's object do not matter")
    func ruleE1AddCopies() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 1.0
        a.toValue = 0.0
        a.duration = 1
        layer.add(a, forKey: "fade")
        Transaction.flush()
        a.toValue = 1.0
        a.duration = 100
        f.advance(0.5)
        #expect(approx(layer.presentation()?.opacity, 0.5))
        #expect(layer.animation(forKey: "fade") !== a)
        #expect(layer.opacity == 1)          // the model is untouched
    }

    @Test("rule E1: the explicit fade of the seed's listing 3-2 leaves the model as set by the caller")
    func ruleE1SeedExplicitFade() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        layer.add(fade, forKey: "opacity")
        Transaction.withoutActions { layer.opacity = 0 }   // "also set the model value yourself"
        Transaction.flush()
        f.advance(0.25)
        #expect(approx(layer.presentation()?.opacity, 0.75))
        f.advance(1)
        #expect(layer.presentation()?.opacity == 0)
    }

    @Test("rule E2: from/to, from/by, by/to interpolate between the values they give")
    func ruleE2ExplicitPairs() {
        let f = Fixture()
        let a = f.presentedLayer(), b = f.presentedLayer(), c = f.presentedLayer()
        addLinear(a, "position.x", from: 0.0, to: 100.0)
        addLinear(b, "position.x", from: 10.0, by: 20.0)
        addLinear(c, "position.x", to: 100.0, by: 40.0)
        f.advance(0.5)
        #expect(approx(a.presentation()?.position.x, 50))
        #expect(approx(b.presentation()?.position.x, 20))
        #expect(approx(c.presentation()?.position.x, 80))
    }

    @Test("rule E2: a missing fromValue starts from the presentation value; a missing toValue is the model value")
    func ruleE2MissingEnds() {
        let f = Fixture()
        let toOnly = f.presentedLayer(), fromOnly = f.presentedLayer(), byOnly = f.presentedLayer(), none = f.presentedLayer()
        addLinear(toOnly, "opacity", to: 0.0)
        addLinear(fromOnly, "opacity", from: 0.0)
        addLinear(byOnly, "position.x", by: 100.0)
        Transaction.withoutActions { none.position = Point(x: 150, y: 25) }
        none.add({ let x = BasicAnimation(keyPath: "bounds.size.width"); x.duration = 1; return x }(), forKey: "w")
        Transaction.flush()
        f.advance(0.5)
        #expect(approx(toOnly.presentation()?.opacity, 0.5))
        #expect(approx(fromOnly.presentation()?.opacity, 0.5))
        #expect(approx(byOnly.presentation()?.position.x, 100))
        #expect(approx(none.presentation()?.bounds.size.width, 100))   // 100 → 100: nothing to see
    }

    @Test("rule E2: integer literals are taken as Double")
    func ruleE2IntegerValues() {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "opacity", from: 1, to: 0)
        f.advance(0.5)
        #expect(approx(layer.presentation()?.opacity, 0.5))
    }

    @Test("rule E3: adding with a key replaces the running animation, which stops unfinished")
    func ruleE3ReplaceByKey() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let first = DelegateLog("first"), second = DelegateLog("second")
        addLinear(layer, "opacity", from: 1.0, to: 0.0, key: "fade") { $0.delegate = first }
        f.advance(0.2)
        addLinear(layer, "opacity", from: 0.0, to: 1.0, key: "fade") { $0.delegate = second }
        #expect(first.events == ["first start", "first stop false"])
        #expect(layer.animationKeys == ["fade"])
        f.advance(0.5)
        #expect(approx(layer.presentation()?.opacity, 0.5))
    }

    @Test("rule E4: removing an animation shows the model value at once")
    func ruleE4RemoveJumpsToModel() {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "position.x", from: 0.0, to: 100.0)
        addLinear(layer, "opacity", from: 0.0, to: 1.0)
        f.advance(0.5)
        layer.removeAnimation(forKey: "position.x")
        #expect(layer.presentation()?.position.x == 50)
        #expect(layer.animationKeys == ["opacity"])
        layer.removeAllAnimations()
        #expect(layer.presentation()?.opacity == 1 && layer.animationKeys.isEmpty)
    }

    @Test("rule E4: copying the presentation value into the model before removing avoids the jump")
    func ruleE4CopyPresentationFirst() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "opacity", from: 1.0, to: 0.0)
        f.advance(0.3)
        let shown = try #require(layer.presentation()?.opacity)
        Transaction.withoutActions { layer.opacity = shown }
        layer.removeAnimation(forKey: "opacity")
        #expect(approx(layer.presentation()?.opacity, 0.7))
    }

    @Test("rule E5: a finished animation is removed and its effect ends")
    func ruleE5RemovedOnCompletion() {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "opacity", from: 0.0, to: 0.5)
        f.advance(0.999)
        #expect(layer.animationKeys == ["opacity"])
        f.advance(0.001)
        #expect(layer.animationKeys.isEmpty)
        #expect(layer.presentation()?.opacity == 1)
    }

    @Test("rule E5: fillMode forwards with isRemovedOnCompletion false keeps the final value")
    func ruleE5FillForwards() {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "opacity", from: 1.0, to: 0.2) {
            $0.fillMode = .forwards
            $0.isRemovedOnCompletion = false
        }
        f.advance(5)
        #expect(layer.animationKeys == ["opacity"])
        #expect(layer.presentation()?.opacity == 0.2)
    }

    @Test("rule E5: fillMode backwards shows the first value before beginTime; both does both")
    func ruleE5FillBackwardsAndBoth() {
        let f = Fixture()
        let back = f.presentedLayer(), both = f.presentedLayer(), none = f.presentedLayer()
        for (layer, mode) in [(back, FillMode.backwards), (both, .both), (none, .removed)] {
            addLinear(layer, "opacity", from: 0.2, to: 0.6) {
                $0.beginTime = 102
                $0.fillMode = mode
                $0.isRemovedOnCompletion = false
            }
        }
        f.advance(1)
        #expect(back.presentation()?.opacity == 0.2)
        #expect(both.presentation()?.opacity == 0.2)
        #expect(none.presentation()?.opacity == 1)
        f.advance(2.5)
        #expect(back.presentation()?.opacity == 1)
        #expect(both.presentation()?.opacity == 0.6)
    }

    @Test("rule E8: delegates hear start at the beginning and stop(finished: true) at the end")
    func ruleE8DelegateFinished() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let log = DelegateLog()
        addLinear(layer, "opacity", from: 1.0, to: 0.0) {
            $0.delegate = log
            $0.beginTime = 100.5
        }
        #expect(log.events.isEmpty)
        f.advance(0.5)
        #expect(log.events == ["a start"])
        f.advance(0.9)
        #expect(log.events == ["a start"])
        f.advance(0.1)
        #expect(log.events == ["a start", "a stop true"])
        f.advance(1)
        #expect(log.events.count == 2)
    }

    @Test("rule E8: a removed animation stops with finished false, once")
    func ruleE8DelegateRemoved() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let log = DelegateLog()
        addLinear(layer, "opacity", from: 1.0, to: 0.0) { $0.delegate = log }
        f.advance(0.5)
        layer.removeAnimation(forKey: "opacity")
        layer.removeAllAnimations()
        f.advance(1)
        #expect(log.events == ["a start", "a stop false"])
    }

    @Test("rule E8: events that fall due in one advance are delivered in time order")
    func ruleE8TimeOrder() {
        let f = Fixture()
        let layer = f.presentedLayer()
        final class SharedLog: AnimationDelegate {
            var events: [String] = []
            func animationDidStart(_ a: Animation) { events.append("start \((a as! PropertyAnimation).keyPath!)") }
            func animationDidStop(_ a: Animation, finished: Bool) { events.append("stop \((a as! PropertyAnimation).keyPath!)") }
        }
        let log = SharedLog()
        // Added first but ends last; the second starts late and ends first.
        addLinear(layer, "opacity", from: 1.0, to: 0.0) { $0.delegate = log; $0.duration = 3 }
        addLinear(layer, "position.x", from: 0.0, to: 1.0) { $0.delegate = log; $0.beginTime = 101 }
        log.events.removeAll()   // the first start was delivered at the commit
        f.advance(5)
        #expect(log.events == ["start position.x", "stop position.x", "stop opacity"])
    }

    @Test("rule E11: key paths address sub-values", arguments: [
        ("position.x", 10.0), ("position.y", 20.0), ("bounds.size.width", 30.0), ("bounds.origin.y", 4.0),
        ("shadowOffset.height", 7.0), ("transform.translation.x", 12.0), ("transform.scale", 2.0),
        ("transform.rotation.z", 0.5), ("transform.rotation", 0.25), ("transform.scale.y", 3.0), ("anchorPoint.x", 0.1),
    ])
    func ruleE11KeyPaths(_ keyPath: String, _ value: Double) {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.withoutActions { layer.setValue(value, forKeyPath: keyPath) }
        #expect(approx(layer.value(forKeyPath: keyPath) as? Double, value), "\(keyPath)")
    }

    @Test("rule E11: animating transform.rotation.z turns the layer about z")
    func ruleE11AnimateRotation() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "transform.rotation.z", from: 0.0, to: Double.pi / 2)
        f.advance(0.5)
        let t = try #require(layer.presentation()?.transform)
        let expected = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        for (a, b) in zip(t.rows.joined(), expected.rows.joined()) { #expect(abs(a - b) < 1e-9) }
        #expect(layer.transform == .identity)
    }

    @Test("rule E11: custom properties animate by name")
    func ruleE11CustomProperty() {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.withoutActions { layer.setValue(0.0, forKey: "progress") }
        addLinear(layer, "progress", from: 0.0, to: 10.0)
        f.advance(0.25)
        #expect(approx(layer.presentation()?.value(forKey: "progress") as? Double, 2.5))
    }

    @Test("additive animations add to the model value")
    func additive() {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "position.x", from: -100.0, to: 0.0) { $0.isAdditive = true }
        f.advance(0.25)
        #expect(approx(layer.presentation()?.position.x, 50 - 75))
    }

    @Test("several additive animations of one property combine in the order added")
    func additiveAnimationsCombine() {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "position.x", from: -100.0, to: 0.0, key: "first") { $0.isAdditive = true }
        f.advance(0.5)
        addLinear(layer, "position.x", from: 40.0, to: 0.0, key: "second") { $0.isAdditive = true }
        f.advance(0.25)   // first at 0.75 (−25), second at 0.25 (+30)
        #expect(approx(layer.presentation()?.position.x, 50 - 25 + 30))
        let colour = f.presentedLayer()
        Transaction.withoutActions { colour.backgroundColor = Color(red: 0.2, green: 0.2, blue: 0.2, alpha: 1) }
        addLinear(colour, "backgroundColor", from: Color(red: 0.4, green: 0, blue: 0, alpha: 0), to: Color(red: 0.4, green: 0, blue: 0, alpha: 0), key: "tint") { $0.isAdditive = true }
        f.advance(0.1)
        #expect(colour.presentation()?.backgroundColor.map { abs($0.red - 0.6) < 1e-9 && abs($0.green - 0.2) < 1e-9 } == true)
    }

    @Test("media timing: repeatCount, autoreverses and cumulative repeats")
    func repeatsAndReverses() {
        let f = Fixture()
        let rep = f.presentedLayer(), rev = f.presentedLayer(), cum = f.presentedLayer()
        addLinear(rep, "opacity", from: 0.0, to: 1.0) { $0.repeatCount = 2.5 }
        addLinear(rev, "opacity", from: 0.0, to: 1.0) { $0.autoreverses = true }
        addLinear(cum, "position.x", from: 0.0, to: 10.0) { $0.repeatCount = 3; $0.isCumulative = true }
        f.advance(1.25)
        #expect(approx(rep.presentation()?.opacity, 0.25))
        #expect(approx(rev.presentation()?.opacity, 0.75))
        #expect(approx(cum.presentation()?.position.x, 12.5))
        f.advance(1.2)   // t = 2.45
        #expect(approx(rep.presentation()?.opacity, 0.45))
        #expect(rev.animationKeys.isEmpty)
        f.advance(0.1)   // t = 2.55: 2.5 cycles are over
        #expect(rep.animationKeys.isEmpty)
    }

    @Test("a layer with speed 0 pauses its animations; timeOffset scrubs them")
    func layerSpeedPauses() {
        let f = Fixture()
        let layer = f.presentedLayer()
        addLinear(layer, "opacity", from: 0.0, to: 1.0)
        f.advance(0.25)
        // The classic pause: freeze the layer's time where it is.
        let paused = layer.convertTime(currentMediaTime(), from: nil)
        Transaction.withoutActions {
            layer.speed = 0
            layer.timeOffset = paused
        }
        f.advance(10)
        #expect(approx(layer.presentation()?.opacity, 0.25))
        #expect(layer.animationKeys == ["opacity"])
        #expect(AnimationTimeline.nextChangeTime(after: currentMediaTime()) == .infinity)
    }

    @Test("advancing a manual clock to the past does not move time")
    func clockNeverGoesBack() {
        let f = Fixture()
        f.advance(-5)
        #expect(currentMediaTime() == 100)
        f.clock.now = 50
        #expect(currentMediaTime() == 100)
        f.clock.now = .nan
        #expect(currentMediaTime() == 100)
        f.advance(1)
        #expect(currentMediaTime() == 101)
    }

    @Test("the timeline reports the next time anything changes")
    func nextChangeTime() {
        let f = Fixture()
        let layer = f.presentedLayer()
        #expect(AnimationTimeline.nextChangeTime(after: 100) == .infinity)
        addLinear(layer, "opacity", from: 0.0, to: 1.0) { $0.beginTime = 103 }
        #expect(AnimationTimeline.nextChangeTime(after: 100) == 103)
        f.advance(3.5)
        #expect(AnimationTimeline.isAnimating)
        f.advance(1)
        #expect(!AnimationTimeline.isAnimating)
        #expect(AnimationTimeline.nextChangeTime(after: currentMediaTime()) == .infinity)
    }
}
