@testable import LayerKit
import Testing
import Glibc
import LayerKitTesting

/// Keyframes, groups, transitions, springs and the media-timing model (rules
/// E6, E7, E9, K1–K5, G1, G2), checked at exact times on a ManualMediaClock.
@MainActor
@Suite("Animation engine (E6–E9, K, G, springs)", .serialized, .isolatedLayerContext)
struct AnimationEngineTests {
    func add(_ a: Animation, to layer: Layer, key: String = "a") {
        layer.add(a, forKey: key)
        Transaction.flush()
    }

    func keyframes(_ keyPath: String, _ values: [Any], duration: Double = 1, _ configure: (KeyframeAnimation) -> Void = { _ in }) -> KeyframeAnimation {
        let k = KeyframeAnimation(keyPath: keyPath)
        k.values = values
        k.duration = duration
        configure(k)
        return k
    }

    // MARK: Keyframes

    @Test("rule K1: path wins over values for point properties")
    func ruleK1PathWinsOverValues() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let k = keyframes("position", [Point(x: 500, y: 500), Point(x: 600, y: 600)])
        let line = Path()
        line.move(to: Point(x: 0, y: 0))
        line.addLine(to: Point(x: 100, y: 0))
        k.path = line
        add(k, to: layer)
        f.advance(0.5)
        #expect(approx(layer.presentation()?.position, Point(x: 50, y: 0)))
    }

    @Test("rule K2: keyTimes say when each value is reached; absent, values are evenly spaced")
    func ruleK2KeyTimes() {
        let f = Fixture()
        let even = f.presentedLayer(), timed = f.presentedLayer()
        add(keyframes("opacity", [0.0, 1.0, 0.0]), to: even)
        add(keyframes("opacity", [0.0, 1.0, 0.0]) { $0.keyTimes = [0, 0.8, 1] }, to: timed)
        f.advance(0.4)
        #expect(approx(even.presentation()?.opacity, 0.8))
        #expect(approx(timed.presentation()?.opacity, 0.5))
        f.advance(0.5)   // t = 0.9
        #expect(approx(even.presentation()?.opacity, 0.2))
        #expect(approx(timed.presentation()?.opacity, 0.5))
    }

    @Test("rule K3: one timing function per segment paces that segment")
    func ruleK3SegmentTimingFunctions() {
        let f = Fixture()
        let layer = f.presentedLayer()
        add(keyframes("position.x", [0.0, 100.0, 200.0]) { $0.timingFunctions = [.easeIn, .linear] }, to: layer)
        f.advance(0.25)   // half-way through segment 0
        #expect(approx(layer.presentation()?.position.x, 100 * MediaTimingFunction.easeIn.value(at: 0.5)))
        f.advance(0.5)    // half-way through segment 1
        #expect(approx(layer.presentation()?.position.x, 150))
    }

    @Test("rule K4: discrete holds each value until the next key time")
    func ruleK4Discrete() {
        let f = Fixture()
        let layer = f.presentedLayer(), timed = f.presentedLayer()
        add(keyframes("position.x", [10.0, 20.0, 30.0]) { $0.calculationMode = .discrete }, to: layer)
        add(keyframes("position.x", [10.0, 20.0, 30.0]) { $0.calculationMode = .discrete; $0.keyTimes = [0, 0.1, 0.9, 1] }, to: timed)
        f.advance(0.3)
        #expect(layer.presentation()?.position.x == 10)
        #expect(timed.presentation()?.position.x == 20)
        f.advance(0.4)    // 0.7
        #expect(layer.presentation()?.position.x == 30)
        #expect(timed.presentation()?.position.x == 20)
    }

    @Test("rule K4: paced gives constant speed over the whole distance, ignoring keyTimes")
    func ruleK4Paced() {
        let f = Fixture()
        let layer = f.presentedLayer()
        add(keyframes("position.x", [0.0, 10.0, 100.0]) { $0.calculationMode = .paced; $0.keyTimes = [0, 0.5, 1] }, to: layer)
        var previous = 0.0
        for step in 1...10 {
            f.advance(0.1)
            let x = layer.presentation()!.position.x
            if step < 10 { #expect(approx(x - previous, 10, 1e-9), "step \(step)") }
            previous = x
        }
    }

    @Test("rule K4: cubic passes through every value with a smooth (Catmull-Rom) curve")
    func ruleK4Cubic() {
        let f = Fixture()
        let layer = f.presentedLayer()
        add(keyframes("position", [Point(x: 0, y: 0), Point(x: 100, y: 100), Point(x: 200, y: 0)]) { $0.calculationMode = .cubic }, to: layer)
        f.advance(0.5)
        #expect(approx(layer.presentation()?.position, Point(x: 100, y: 100), 1e-9))
        f.advance(0.25)   // 0.75: mid second segment
        let p = layer.presentation()!.position
        // Catmull-Rom at s = 0.5 between (100,100) and (200,0), tangents (100,0) and (50,-50).
        #expect(approx(p, Point(x: 156.25, y: 56.25), 1e-9))
    }

    @Test("rule K4: cubicPaced moves at constant speed along the spline")
    func ruleK4CubicPaced() {
        let f = Fixture()
        let layer = f.presentedLayer()
        add(keyframes("position", [Point(x: 0, y: 0), Point(x: 100, y: 80), Point(x: 200, y: 0)]) { $0.calculationMode = .cubicPaced }, to: layer)
        var points: [Point] = [.zero]
        for _ in 1...9 { f.advance(0.1); points.append(layer.presentation()!.position) }
        let steps = zip(points, points.dropFirst()).map { $0.distance(to: $1) }
        #expect(steps.allSatisfy { abs($0 - steps[0]) < 0.02 * steps[0] }, "\(steps)")
        // The two segments are equally long, so the middle value is passed half-way.
        #expect(approx(points[5], Point(x: 100, y: 80), 0.5))
    }

    @Test("rule K5: the seed's bounce (listing 3-3) follows the two arcs, not their control polygon")
    func ruleK5BounceFollowsCurves() {
        let f = Fixture()
        let theLayer = f.presentedLayer()
        let thePath = Path()
        thePath.move(to: Point(x: 74, y: 74))
        thePath.addCurve(to: Point(x: 320, y: 74), control1: Point(x: 74, y: 500), control2: Point(x: 320, y: 500))
        thePath.addCurve(to: Point(x: 566, y: 74), control1: Point(x: 320, y: 500), control2: Point(x: 566, y: 500))
        let theAnimation = KeyframeAnimation(keyPath: "position")
        theAnimation.path = thePath
        theAnimation.duration = 5.0
        theLayer.add(theAnimation, forKey: "position")
        Transaction.flush()
        f.advance(1.25)
        #expect(approx(theLayer.presentation()?.position, Point(x: 197, y: 393.5), 1e-9))
        f.advance(1.25)
        #expect(approx(theLayer.presentation()?.position, Point(x: 320, y: 74), 1e-9))
        f.advance(1.25)
        #expect(approx(theLayer.presentation()?.position, Point(x: 443, y: 393.5), 1e-9))
    }

    @Test("rotationMode auto turns the layer along the path's direction")
    func rotationModeAuto() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let down = Path()
        down.move(to: .zero)
        down.addLine(to: Point(x: 0, y: 100))
        let k = KeyframeAnimation(keyPath: "position")
        k.path = down
        k.duration = 1
        k.rotationMode = .rotateAuto
        add(k, to: layer)
        f.advance(0.5)
        let angle = layer.presentation()!.value(forKeyPath: "transform.rotation.z") as! Double
        #expect(approx(angle, .pi / 2, 1e-9))
    }

    // MARK: Groups and transitions

    @Test("rule G1: the seed's group (listing 3-4) runs paced border animations together over 5 s")
    func ruleG1SeedGroup() {
        let f = Fixture()
        let myLayer = f.presentedLayer()
        let widthAnim = KeyframeAnimation(keyPath: "borderWidth")
        widthAnim.values = [1.0, 10.0, 5.0, 30.0, 0.5, 15.0, 2.0, 50.0, 0.0]
        widthAnim.calculationMode = .paced
        let colorAnim = KeyframeAnimation(keyPath: "borderColor")
        colorAnim.values = [Color.green, Color.red, Color.blue]
        colorAnim.calculationMode = .paced
        let group = AnimationGroup()
        group.animations = [colorAnim, widthAnim]
        group.duration = 5.0
        myLayer.add(group, forKey: "BorderChanges")
        Transaction.flush()
        // The widths cover 194 in all; 10 is reached after 9 of them.
        f.advance(5 * 9 / 194)
        #expect(approx(myLayer.presentation()?.borderWidth, 10, 1e-9))
        f.advance(2.5 - 5 * 9 / 194)
        #expect(myLayer.presentation()?.borderColor.map { abs($0.red - 1) < 1e-9 && abs($0.green) < 1e-9 } == true)
        f.advance(2.6)
        #expect(myLayer.animationKeys.isEmpty)
        #expect(myLayer.presentation()?.borderWidth == 0)
    }

    @Test("rule G1: children are timed in the group's time and cut off at its end")
    func ruleG1ChildrenCutOff() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let late = BasicAnimation(keyPath: "position.x")
        late.fromValue = 0.0
        late.toValue = 100.0
        late.beginTime = 0.5
        late.duration = 1
        let group = AnimationGroup()
        group.animations = [late]
        group.duration = 1
        group.speed = 2
        add(group, to: layer)
        f.advance(0.3)    // group time 0.6: child 0.1 in
        #expect(approx(layer.presentation()?.position.x, 10))
        f.advance(0.19)   // group time 0.98
        #expect(approx(layer.presentation()?.position.x, 48))
        f.advance(0.02)   // the group (and the child with it) ends at 0.5 s
        #expect(layer.animationKeys.isEmpty && layer.presentation()?.position.x == 50)
    }

    @Test("rule G1: a group containing itself is refused; a child listed twice runs twice")
    func ruleG1BadGroups() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let g = AnimationGroup()
        let inner = AnimationGroup()
        inner.animations = [g]
        g.animations = [inner]
        let seen = Diagnostics.recording { layer.add(g, forKey: "loop") }
        #expect(seen.count == 1 && layer.animationKeys.isEmpty)
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        let twice = AnimationGroup()
        twice.animations = [fade, fade]
        twice.duration = 1
        add(twice, to: layer)
        f.advance(0.5)
        #expect(approx(layer.presentation()?.opacity, 0.5))
    }

    @Test("rule G2: transitions report type, subtype and progress between start and end progress")
    func ruleG2TransitionProgress() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        let t = Transition()
        t.type = .moveIn
        t.subtype = .fromTop
        t.duration = 2
        t.startProgress = 0.2
        t.endProgress = 0.6
        let hook = ClosureAction { _, l, _ in t.run(forKey: "contents", object: l, arguments: nil) }
        layer.actions["contents"] = hook
        layer.contents = Image(width: 2, height: 2, color: .red)
        Transaction.flush()
        #expect(layer.animationKeys == [Layer.transition])
        f.advance(1)
        let state = try #require(layer.presentation()?.activeTransition)
        #expect(state.type == .moveIn && state.subtype == .fromTop)
        #expect(approx(state.progress, 0.4))
    }

    // MARK: Timing

    @Test("rule E6: animations added in one transaction start together, on every layer")
    func ruleE6StartTogether() {
        let f = Fixture()
        let a = f.presentedLayer(), b = f.presentedLayer()
        Transaction.begin()
        a.opacity = 0
        f.advance(0.3)   // time passes while the transaction is open
        b.opacity = 0
        let explicit = BasicAnimation(keyPath: "position.x")
        explicit.toValue = 300.0
        a.add(explicit, forKey: "x")
        Transaction.commit()
        let begins = [a.animation(forKey: "opacity")!.beginTime, b.animation(forKey: "opacity")!.beginTime, a.animation(forKey: "x")!.beginTime]
        #expect(begins == [100.3, 100.3, 100.3])
    }

    @Test("rule E7: chaining by beginTime: the second starts exactly when the first ends")
    func ruleE7Chaining() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let first = BasicAnimation(keyPath: "position.x")
        first.fromValue = 0.0
        first.toValue = 100.0
        first.duration = 1
        first.beginTime = layer.convertTime(currentMediaTime(), from: nil)
        let second = BasicAnimation(keyPath: "position.x")
        second.fromValue = 100.0
        second.toValue = 300.0
        second.duration = 1
        second.beginTime = first.beginTime + first.duration
        let log = DelegateLog("second")
        second.delegate = log
        layer.add(first, forKey: "first")
        layer.add(second, forKey: "second")
        Transaction.flush()
        f.advance(0.999)
        #expect(approx(layer.presentation()?.position.x, 99.9, 1e-6) && log.events.isEmpty)
        f.advance(0.001)
        #expect(layer.presentation()?.position.x == 100)
        #expect(log.events == ["second start"])
        f.advance(0.5)
        #expect(approx(layer.presentation()?.position.x, 200))
    }

    @Test("rule E9: speed, timeOffset, repeatDuration and autoreverse")
    func ruleE9AnimationTiming() {
        let f = Fixture()
        let fast = f.presentedLayer(), offset = f.presentedLayer(), repeating = f.presentedLayer(), endless = f.presentedLayer()
        func linear(_ l: Layer, _ configure: (BasicAnimation) -> Void) {
            let a = BasicAnimation(keyPath: "opacity")
            a.fromValue = 0.0
            a.toValue = 1.0
            a.duration = 1
            configure(a)
            l.add(a, forKey: "o")
        }
        linear(fast) { $0.speed = 2 }
        linear(offset) { $0.timeOffset = 0.5 }
        linear(repeating) { $0.repeatDuration = 2.5 }
        linear(endless) { $0.repeatCount = .infinity; $0.autoreverses = true }
        Transaction.flush()
        f.advance(0.25)
        #expect(approx(fast.presentation()?.opacity, 0.5))
        #expect(approx(offset.presentation()?.opacity, 0.75))
        f.advance(0.5)   // 0.75
        #expect(approx(offset.presentation()?.opacity, 0.25))   // wrapped around
        #expect(fast.animationKeys.isEmpty)
        f.advance(1.5)   // 2.25
        #expect(approx(repeating.presentation()?.opacity, 0.25))
        #expect(approx(endless.presentation()?.opacity, 0.25))
        f.advance(1000.5) // 1002.75: still going, no NaN
        #expect(approx(endless.presentation()?.opacity, 0.75))
        #expect(repeating.animationKeys.isEmpty)
    }

    @Test("rule E9: a layer's own timing scales its sublayers' animations")
    func ruleE9LayerTimingScalesSubtree() {
        let f = Fixture()
        let parent = f.presentedLayer()
        let child = Layer()
        Transaction.withoutActions {
            parent.addSublayer(child)
            parent.speed = 2
        }
        Transaction.flush()
        let a = BasicAnimation(keyPath: "opacity")
        a.fromValue = 0.0
        a.toValue = 1.0
        a.duration = 1
        child.add(a, forKey: "o")
        Transaction.flush()
        f.advance(0.25)
        #expect(approx(child.presentation()?.opacity, 0.5))
        f.advance(0.25)
        #expect(child.animationKeys.isEmpty)
    }

    // MARK: Springs

    /// An independent solution: 4th-order Runge–Kutta on m·x″ + c·x′ + k·x = 0.
    static func integrate(m: Double, k: Double, c: Double, v0: Double, until t: Double) -> Double {
        var x = 1.0, v = -v0
        let h = 1e-4
        var time = 0.0
        func acc(_ x: Double, _ v: Double) -> Double { (-k * x - c * v) / m }
        while time < t - 1e-12 {
            let step = min(h, t - time)
            let k1x = v, k1v = acc(x, v)
            let k2x = v + step / 2 * k1v, k2v = acc(x + step / 2 * k1x, v + step / 2 * k1v)
            let k3x = v + step / 2 * k2v, k3v = acc(x + step / 2 * k2x, v + step / 2 * k2v)
            let k4x = v + step * k3v, k4v = acc(x + step * k3x, v + step * k3v)
            x += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
            time += step
        }
        return x
    }

    @Test("springs match the damped oscillator: under-, critically and over-damped", arguments: [
        (1.0, 100.0, 10.0, 0.0), (1.0, 100.0, 20.0, 0.0), (2.0, 50.0, 40.0, 3.0), (1.0, 300.0, 5.0, -2.0),
    ])
    func springsMatchPhysics(_ p: (Double, Double, Double, Double)) {
        let s = SpringAnimation(keyPath: "position.x")
        (s.mass, s.stiffness, s.damping, s.initialVelocity) = p
        for t in stride(from: 0.0, through: 2.0, by: 0.125) {
            let expected = Self.integrate(m: p.0, k: p.1, c: p.2, v0: p.3, until: t)
            #expect(abs(s.displacement(at: t) - expected) < 1e-6, "t = \(t)")
        }
        let settle = s.settlingDuration
        #expect(settle > 0 && settle < 30)
        for t in stride(from: settle, through: settle + 3, by: 0.01) { #expect(abs(s.displacement(at: t)) <= 0.001) }
    }

    @Test("a spring animation moves the presentation and overshoots when under-damped")
    func springOnLayer() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let s = SpringAnimation(keyPath: "position.x")
        s.fromValue = 0.0
        s.toValue = 100.0
        s.damping = 5
        s.duration = s.settlingDuration
        add(s, to: layer)
        var maxX = 0.0
        for _ in 0..<60 {
            f.advance(0.02)
            if let x = layer.presentation()?.position.x, layer.animationKeys.count == 1 { maxX = max(maxX, x) }
        }
        #expect(maxX > 100)
        let ratio = SpringAnimation(keyPath: "opacity", dampingRatio: 1, duration: 0.5)
        #expect(abs(ratio.settlingDuration - 0.5) < 0.15)
    }

    // MARK: Bad input

    @Test("bad keyframe input falls back as documented, never NaN")
    func badKeyframes() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let empty = keyframes("opacity", [])
        #expect(Diagnostics.recording { layer.add(empty, forKey: "empty") }.count == 1)
        let wrongTimes = keyframes("opacity", [0.0, 1.0]) { $0.keyTimes = [0, 2] }
        let decreasing = keyframes("position.x", [0.0, 100.0, 200.0]) { $0.keyTimes = [0, 0.8, 0.5] }
        let wrongFunctions = keyframes("cornerRadius", [0.0, 10.0]) { $0.timingFunctions = [.easeIn, .easeOut, .linear] }
        var seen = Diagnostics.recording {
            layer.add(wrongTimes, forKey: "t")
            layer.add(decreasing, forKey: "d")
            layer.add(wrongFunctions, forKey: "f")
        }
        #expect(seen.count == 3)
        let mixed = keyframes("opacity", [0.0, Point.zero])
        seen = Diagnostics.recording { layer.add(mixed, forKey: "m") }
        #expect(seen == [.typeMismatch(keyPath: "opacity", expected: "Double", got: "Point")])
        let noSegments = KeyframeAnimation(keyPath: "position")
        noSegments.path = Path()
        noSegments.duration = 1
        #expect(Diagnostics.recording { layer.add(noSegments, forKey: "p") }.count == 1)
        Transaction.flush()
        f.advance(0.5)
        let p = layer.presentation()!
        #expect(approx(p.opacity, 0.5) && approx(p.position.x, 100) && approx(p.cornerRadius, 5))
        #expect(p.position == Point(x: 100, y: 25))   // the empty path left position.y alone
    }

    @Test("zero and negative speeds pause or hide the animation; nothing becomes NaN")
    func badSpeeds() {
        let f = Fixture()
        let paused = f.presentedLayer(), backwards = f.presentedLayer()
        for (l, speed) in [(paused, 0.0), (backwards, -1.0)] {
            let a = BasicAnimation(keyPath: "opacity")
            a.fromValue = 0.2
            a.toValue = 1.0
            a.duration = 1
            a.speed = speed
            l.add(a, forKey: "o")
        }
        Transaction.flush()
        f.advance(0.5)
        #expect(paused.presentation()?.opacity == 0.2)    // frozen at its start
        #expect(backwards.presentation()?.opacity == 1)   // never active: the model shows
        #expect(!(paused.presentation()!.opacity.isNaN))
    }

    @Test("a layer released mid-animation tells the delegate once, unfinished")
    func layerReleasedMidAnimation() {
        let f = Fixture()
        let log = DelegateLog()
        do {
            let layer = f.presentedLayer()
            let a = BasicAnimation(keyPath: "opacity")
            a.toValue = 0.0
            a.duration = 1
            a.delegate = log
            add(a, to: layer)
            // Without actions: the root's `sublayers` fade would keep it on screen (and alive) a while.
            Transaction.withoutActions { layer.removeFromSuperlayer() }
            Transaction.flush()
        }
        f.advance(2)
        #expect(log.events == ["a start", "a stop false"])
    }
}
