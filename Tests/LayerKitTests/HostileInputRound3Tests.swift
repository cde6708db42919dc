@testable import LayerKit
import Testing
import LayerKitTesting

/// Issue 30 (hostile input, round 3): what a fuzzer held outside the project and
/// probes from an outside package found in LayerKit, each pinned.
@MainActor
@Suite("Hostile input, round 3", .serialized, .isolatedLayerContext)
struct HostileInputRound3Tests {
    @Test("item 2: opacity and shadowOpacity set by key are clamped to 0…1 as their setters clamp, for every numeric type")
    func keyPathWritesFollowTheSettersRules() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let values: [(Any, Double)] = [(9 as Int, 1), (-3 as Int, 0), (Float(0.25), 0.25), (Int8(-2), 0), (UInt64(7), 1),
                                       (Int16(0), 0), (Double(0.5), 0.5), (UInt8(1), 1), (Int32(-1), 0)]
        for (value, expected) in values {
            Transaction.withoutActions { layer.setValue(value, forKeyPath: "opacity") }
            #expect(layer.opacity == expected, "opacity set to \(value) (\(type(of: value)))")
            Transaction.withoutActions { layer.setValue(value, forKey: "shadowOpacity") }
            #expect(layer.shadowOpacity == expected, "shadowOpacity set to \(value) (\(type(of: value)))")
        }
        // A length set by key with any integer type follows the setter's rule too.
        let seen = Diagnostics.recording {
            Transaction.withoutActions { layer.setValue(Int64(-4), forKey: "cornerRadius") }
        }
        #expect(layer.cornerRadius == 0 && seen.count == 1)
        Transaction.withoutActions { layer.setValue(UInt16(12), forKey: "cornerRadius") }
        #expect(layer.cornerRadius == 12)
    }

    @Test("item 4: NaN and 1e308 tensions, continuities and biases are clamped with a diagnostic; presentation values stay finite")
    func keyframeSplineParameters() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let animation = KeyframeAnimation(keyPath: "contentsRect.size.width")
        animation.values = [0.2, 0.9, 0.4, 1.0]
        animation.calculationMode = .cubic
        animation.tensionValues = [.nan, 1e308, -1e308, .nan]
        animation.continuityValues = [1e308, 0, 0, 0]
        animation.biasValues = [0, .infinity, 0, 0]
        animation.duration = 1
        let seen = Diagnostics.recording { layer.add(animation, forKey: "k") }
        #expect(seen.count == 3)
        Transaction.flush()
        for step in 0...20 {
            let shown = layer.presentation(atTime: 100 + Double(step) / 20).contentsRect
            #expect(shown.size.width.isFinite && shown.size.width >= 0.2 - 1e-9 && shown.size.width <= 1.4, "at step \(step): \(shown)")
        }
    }

    @Test("item 4: extreme finite spring parameters and cumulative repeats counted to overflow leave presentation values finite")
    func springAndCumulativeOverflow() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let spring = SpringAnimation(keyPath: "position.x")
        spring.fromValue = 0.0
        spring.toValue = 300.0
        spring.mass = 1e-300
        spring.stiffness = 1e300
        spring.damping = 1e-300
        spring.initialVelocity = -1e300
        spring.duration = 1
        layer.add(spring, forKey: "spring")
        for t in [0.0, 0.001, 0.3, 0.99] {
            #expect(spring.displacement(at: t).isFinite)
        }
        let cumulative = KeyframeAnimation(keyPath: "position.y")
        cumulative.values = [0.0, 1e305]
        cumulative.isCumulative = true
        cumulative.repeatCount = .infinity
        cumulative.duration = 0.01
        layer.add(cumulative, forKey: "cumulative")
        Transaction.flush()
        for t in [100.0, 100.3, 101, 150] {
            let p = layer.presentation(atTime: t).position
            #expect(p.x.isFinite && p.y.isFinite, "at \(t): \(p)")
        }
    }

    @Test("finite values whose sum or difference overflows (1e305 by 1.8e308) are refused at add, with a diagnostic (found by the fuzzer)")
    func overflowingEndpoints() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let grow = BasicAnimation(keyPath: "bounds")
        grow.fromValue = Rect(x: 8, y: 1e305, width: 1e305, height: 1e305)
        grow.byValue = Rect(x: -1e6, y: 45, width: -1e-9, height: .greatestFiniteMagnitude)
        grow.duration = 1
        let seen = Diagnostics.recording { layer.add(grow, forKey: "grow") }
        #expect(layer.animationKeys.isEmpty && seen.count == 1)
        // Neighbours interpolate within range; a cumulative repeat adds last − first, which is not.
        let apart = KeyframeAnimation(keyPath: "position.x")
        apart.values = [-Double.greatestFiniteMagnitude, 0.0, Double.greatestFiniteMagnitude]
        apart.isCumulative = true
        let refused = Diagnostics.recording { layer.add(apart, forKey: "apart") }
        #expect(layer.animationKeys.isEmpty && refused.count == 1)
        apart.isCumulative = false
        layer.add(apart, forKey: "apart")
        #expect(layer.animationKeys == ["apart"])
        layer.removeAllAnimations()
        // Large values that stay finite together are still animations.
        let far = BasicAnimation(keyPath: "position.x")
        far.fromValue = 1e300
        far.toValue = -1e300
        layer.add(far, forKey: "far")
        #expect(layer.animationKeys == ["far"])
    }

    @Test("additive offsets stacked on a huge model value that overflow are not shown: the property shows its model value (found by the app fuzzer)")
    func additiveOverflow() {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.withoutActions { layer.position = Point(x: 10, y: -Double.greatestFiniteMagnitude) }
        for key in ["a", "b"] {
            let offset = BasicAnimation(keyPath: "position")
            offset.fromValue = Point(x: -9, y: -Double.greatestFiniteMagnitude)
            offset.toValue = Point(x: 0, y: 0)
            offset.isAdditive = true
            offset.duration = 10
            layer.add(offset, forKey: key)
        }
        Transaction.flush()
        f.advance(1)
        let shown = layer.presentation()?.position ?? Point(x: .nan, y: .nan)
        #expect(shown.y == -Double.greatestFiniteMagnitude && shown.x.isFinite, "\(shown)")
        f.advance(20)
        #expect(layer.presentation()?.position == layer.position)
    }

    @Test("item 6: a leaf 50,000 levels deep animates, commits and shows its presentation without running out of stack")
    func deepAnimatedLeaf() {
        let f = Fixture()
        let leaf = Layer()
        var top = leaf
        Transaction.withoutActions {
            for i in 0..<50_000 {
                let parent = Layer()
                if i == 25_000 { parent.speed = 2 }   // one layer's own time on the way
                parent.addSublayer(top)
                top = parent
            }
            f.root.addSublayer(top)
        }
        Transaction.flush()
        leaf.opacity = 0.5                      // implicit: 0.25 s in the leaf's time, 0.125 s at speed 2
        Transaction.flush()
        f.advance(0.0625)
        // Halfway through the leaf's 0.25 s on the default curve.
        let expected = 1 - 0.5 * MediaTimingFunction(name: .default).value(at: 0.5)
        let shown = leaf.presentation()?.opacity ?? .nan
        #expect(abs(shown - expected) < 1e-6, "halfway in the leaf's time: \(shown), expected \(expected)")
        #expect(leaf.convertTime(100.0625, from: nil) == leaf.convertTime(100, from: nil) + 0.125)
        f.advance(0.2)
        #expect(leaf.presentation()?.opacity == 0.5)
        Transaction.withoutActions { f.root.sublayers.forEach { $0.removeFromSuperlayer() } }   // (see versionWalkStopsEarly)
        Transaction.flush()
    }

    @Test("item 5: the sublayers changes of one transaction share one snapshot of the layer (Core Animation's one per layer per transaction)")
    func oneSublayersSnapshotPerTransaction() {
        let f = Fixture()
        let parent = f.presentedLayer()
        let before = Layer()
        Transaction.withoutActions { parent.addSublayer(before) }
        Transaction.flush()
        Transaction.begin()
        parent.addSublayer(Layer())
        let first = parent.animationEntries.entry(forKey: Layer.transition)?.extras.snapshot
        for _ in 0..<2_000 { parent.addSublayer(Layer()) }
        before.removeFromSuperlayer()
        let last = parent.animationEntries.entry(forKey: Layer.transition)?.extras.snapshot
        Transaction.commit()
        #expect(first != nil && first === last)
        #expect(last?.sublayers.count == 1 && last?.sublayers.first === before)   // the state on screen before
        #expect(parent.sublayers.count == 2_001)
        // The next transaction starts from its own snapshot.
        Transaction.flush()
        parent.addSublayer(Layer())
        let next = parent.animationEntries.entry(forKey: Layer.transition)?.extras.snapshot
        #expect(next !== first && next?.sublayers.count == 2_001)
        Transaction.flush()
    }

    @Test("item 7: a change walks up only until a layer already changed since versions were last read; the root still differs from what readers saw")
    func versionWalkStopsEarly() {
        let f = Fixture()
        var top = Layer()
        f.root.addSublayer(top)
        Transaction.withoutActions {
            for _ in 0..<20_000 { let c = Layer(); top.addSublayer(c); top = c }   // top-down: each insertion stops early
        }
        let leaf = top
        Transaction.flush()
        #expect(f.root.checkInvariants().isEmpty)
        Layer.noteSubtreeVersionsRead()               // a renderer looks
        let seen = f.root.subtreeVersion
        Transaction.withoutActions { leaf.backgroundColor = .red }
        let afterFirst = f.root.subtreeVersion
        #expect(afterFirst != seen)                   // the first change since the look reaches the root
        Transaction.withoutActions { leaf.opacity = 0.5 }
        #expect(f.root.subtreeVersion == afterFirst)  // the second stops where the first already marked
        #expect(f.root.checkInvariants().isEmpty)
        Layer.noteSubtreeVersionsRead()
        Transaction.withoutActions { leaf.opacity = 0.25 }
        #expect(f.root.subtreeVersion != afterFirst)  // after another look it reaches the root again
        #expect(f.root.checkInvariants().isEmpty)
        // A fixture's root outlives the test until its (main-actor) deinit runs, and
        // every commit meanwhile walks the presented trees: leave none 20,000 deep.
        Transaction.withoutActions { f.root.sublayers.forEach { $0.removeFromSuperlayer() } }
        Transaction.flush()
    }

    @Test("item 7: a new leaf's insertion does not search above its parent (the cycle check answers at once)")
    func leafInsertionCycleCheck() {
        let parent = Layer(), leaf = Layer()
        #expect(!parent.isWithin(leaf))
        #expect(leaf.isWithin(leaf))
        // With sublayers or a mask the full check still finds loops.
        let child = Layer()
        parent.addSublayer(child)
        #expect(child.isWithin(parent))
        let owner = Layer(), mask = Layer()
        owner.mask = mask
        #expect(mask.isWithin(owner))
        let seen = Diagnostics.recording { child.addSublayer(parent) }
        #expect(seen.count == 1 && parent.superlayer == nil)
    }
}
