@testable import LayerKit
import Testing
import LayerKitTesting

/// Typed evaluation (`TypedTrack`) is a faster way to the same values: every
/// scenario here runs twice, with typed tracks and through the general path,
/// and the presentations must be identical.
@MainActor
@Suite("Typed evaluation", .serialized, .isolatedLayerContext)
struct TypedEvaluationTests {
    /// Key paths with a value of their type and a second one.
    static let cases: [(String, Any, Any)] = [
        ("position", Point(x: 5, y: 7), Point(x: 120, y: -40)), ("position.x", 3.0, 90.0), ("position.y", -8.0, 31.5),
        ("bounds", Rect(x: 0, y: 0, width: 10, height: 20), Rect(x: 4, y: -3, width: 200, height: 80)),
        ("bounds.size", Size(width: 1, height: 2), Size(width: 50, height: 60)), ("bounds.size.width", 10.0, 300.0),
        ("bounds.origin", Point(x: 0, y: 0), Point(x: -20, y: 14)), ("bounds.origin.y", 0.0, 44.0),
        ("anchorPoint", Point(x: 0, y: 0), Point(x: 1, y: 0.5)), ("anchorPoint.x", 0.0, 1.0), ("zPosition", -3.0, 9.0),
        ("opacity", 0.0, 1.0), ("cornerRadius", 0.0, 12.0), ("borderWidth", 1.0, 6.0),
        ("shadowOpacity", 0.2, 0.9), ("shadowRadius", 0.0, 10.0), ("shadowOffset", Size(width: 0, height: -3), Size(width: 8, height: 8)),
        ("shadowOffset.height", -3.0, 12.0), ("contentsRect", Rect(x: 0, y: 0, width: 1, height: 1), Rect(x: 0.25, y: 0, width: 0.5, height: 1)),
        ("backgroundColor", Color(red: 1, green: 0, blue: 0, alpha: 0.5), Color(red: 0, green: 0.2, blue: 1)),
        ("borderColor", Color.white, Color(red: 0.1, green: 0.9, blue: 0.3, alpha: 0.25)),
        ("shadowColor", Color.black, Color(red: 0.5, green: 0.5, blue: 0, alpha: 1)),
        ("transform", Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1), Transform3D(scaleX: 2, y: 0.5, z: 1).rotated(by: 2.5, x: 0, y: 0, z: 1)),
        ("transform", Transform3D.identity, Transform3D(scaleX: 0, y: 1, z: 1)),   // singular: element-wise
        ("sublayerTransform", Transform3D(translationX: 3, y: 4, z: 0), Transform3D(rotationAngle: 1, x: 0, y: 1, z: 0)),
    ]

    /// The presentation at several times, as text (every field, exactly).
    func run(typed: Bool, _ keyPath: String, _ a: Any, _ b: Any, ends: Int, timing: MediaTimingFunction?, modelColor: Bool,
             additive: Bool = false) -> [String] {
        TypedTrack.isEnabled = typed
        defer { TypedTrack.isEnabled = true }
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.withoutActions {
            layer.backgroundColor = modelColor ? Color(red: 0.3, green: 0.6, blue: 0.9, alpha: 0.8) : nil
            layer.setValue(b, forKeyPath: keyPath)
        }
        let anim = BasicAnimation(keyPath: keyPath)
        // The rule E2 combinations: from+to, from+by, to+by, from, to, by, none.
        switch ends {
        case 0: anim.fromValue = a; anim.toValue = b
        case 1: anim.fromValue = a; anim.byValue = AnyValue.subtract(b, a)
        case 2: anim.toValue = b; anim.byValue = AnyValue.subtract(b, a)
        case 3: anim.fromValue = a
        case 4: anim.toValue = a
        case 5: anim.byValue = AnyValue.subtract(b, a)
        default: break
        }
        anim.duration = 1
        anim.timingFunction = timing
        anim.isAdditive = additive
        anim.autoreverses = ends % 2 == 0
        anim.fillMode = .both
        anim.isRemovedOnCompletion = false
        layer.add(anim, forKey: "a")
        // An implicit animation on top (its end is the model's value).
        layer.opacity = 0.25
        Transaction.flush()
        var seen: [String] = []
        for _ in 0..<9 {
            f.advance(0.23)
            seen.append(String(describing: layer.presentation()!.state))
            let state = String(describing: layer.presentationState(atTime: currentMediaTime()))
            seen.append(state)
            AnimationTimeline.evaluate(atTime: currentMediaTime())
            let shown = AnimationTimeline.withShownStates { String(describing: $0[layer.timelineIndex]) }
            #expect(shown == state, "\(keyPath): the timeline's pass shows what presentationState(atTime:) does")
        }
        // (An additive animation with no values has nothing to add — but a missing colour counts as clear.)
        let expected = typed && !(additive && ends == 6 && !keyPath.hasSuffix("Color"))
        #expect((layer.animationEntries.allSatisfy { $0.track != nil }) == expected, "\(keyPath): typed tracks \(typed ? "used" : "off")")
        return seen
    }

    @Test("rules E2, V7: basic animations, plain and additive, of every standard key path evaluate to the same values typed as through the general path")
    func sameValues() {
        for (keyPath, a, b) in Self.cases {
            for ends in 0..<7 {
                for timing in [nil, MediaTimingFunction.easeInEaseOut] {
                    for modelColor in keyPath.hasSuffix("Color") ? [true, false] : [true] {
                        for additive in [false, true] {
                            let fast = run(typed: true, keyPath, a, b, ends: ends, timing: timing, modelColor: modelColor, additive: additive)
                            let general = run(typed: false, keyPath, a, b, ends: ends, timing: timing, modelColor: modelColor, additive: additive)
                            #expect(fast == general, "\(keyPath), ends \(ends), \(String(describing: timing)), model colour \(modelColor), additive \(additive)")
                        }
                    }
                }
            }
        }
    }

    @Test("a missing colour at either end animates as clear, and with no colour at all the animation shows none")
    func missingColours() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let fadeIn = BasicAnimation(keyPath: "backgroundColor")
        fadeIn.toValue = Color.red   // from the presentation value: none, taken as clear
        fadeIn.duration = 1
        layer.add(fadeIn, forKey: "in")
        Transaction.flush()
        #expect(layer.animationEntries.first?.isResolved == false, "resolved at the first evaluation, not when added")
        f.advance(0.5)
        let half = layer.presentationState(atTime: currentMediaTime()).backgroundColor
        #expect(layer.animationEntries.first?.track != nil)
        #expect(half.map { abs($0.alpha - 0.5) < 1e-12 && $0.red == 1 } == true, "\(String(describing: half))")
        layer.removeAllAnimations()
        let none = BasicAnimation(keyPath: "backgroundColor")
        none.fromValue = nil
        none.duration = 1
        layer.add(none, forKey: "none")   // no colour at either end: nothing to show
        Transaction.flush()
        f.advance(0.5)
        #expect(layer.presentationState(atTime: currentMediaTime()).backgroundColor == nil)
        #expect(layer.presentation()!.backgroundColor == nil)
    }

    @Test("springs, keyframes, cumulative animations and sub-paths of a transform take the general path")
    func generalPath() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let spring = SpringAnimation(keyPath: "position.x")
        spring.fromValue = 0.0
        spring.toValue = 100.0
        let keyframes = KeyframeAnimation(keyPath: "opacity")
        keyframes.values = [0.0, 1.0, 0.5]
        let additive = BasicAnimation(keyPath: "position")
        additive.fromValue = Point(x: 0, y: 0)
        additive.toValue = Point(x: 10, y: 0)
        additive.isCumulative = true
        let turn = BasicAnimation(keyPath: "transform.rotation.z")
        turn.toValue = 1.0
        for (i, a) in [spring, keyframes, additive, turn].enumerated() { layer.add(a, forKey: "\(i)") }
        // (Adding one without a start evaluates the layer, which resolves those before it.)
        #expect(layer.unresolvedAnimations + layer.untypedAnimations == 4 && layer.unresolvedAnimations > 0)
        layer.removeAnimation(forKey: "3")   // removed before it was resolved
        #expect(layer.unresolvedAnimations + layer.untypedAnimations == 3)
        layer.resolveTracks()
        #expect(layer.animationEntries.allSatisfy { $0.track == nil })
        #expect(layer.untypedAnimations == 3 && layer.unresolvedAnimations == 0)
        layer.removeAnimation(forKey: "0")
        #expect(layer.untypedAnimations == 2)
        layer.removeAllAnimations()
        #expect(layer.untypedAnimations == 0)
    }

    /// What the pass computed for `layer`, next to what `presentationState(atTime:)` says.
    func passAgrees(_ layers: [Layer], _ note: String) {
        let t = currentMediaTime()
        AnimationTimeline.evaluate(atTime: t)
        for (i, layer) in layers.enumerated() where layer.timelineIndex >= 0 {
            let shown = AnimationTimeline.withShownStates { String(describing: $0[layer.timelineIndex]) }
            #expect(shown == String(describing: layer.presentationState(atTime: t)), "layer \(i): \(note)")
        }
    }

    @Test("the timeline's one pass shows what each layer's presentationState shows, through model changes, ends, overlaps, timing and moves")
    func timelinePass() {
        let f = Fixture()
        let root = f.presentedLayer()
        let group = Layer()
        let layers = (0..<6).map { _ in Layer() }
        Transaction.withoutActions {
            root.addSublayer(group)
            for (i, l) in layers.enumerated() { (i < 3 ? root : group).addSublayer(l) }
            group.speed = 2
            group.timeOffset = 0.1
        }
        Transaction.flush()
        func move(_ key: String, _ from: Any, _ to: Any, duration: Double = 1, fill: FillMode = .removed, additive: Bool = false) -> BasicAnimation {
            let a = BasicAnimation(keyPath: key)
            a.fromValue = from
            a.toValue = to
            a.duration = duration
            a.fillMode = fill
            a.isAdditive = additive
            return a
        }
        layers[0].add(move("position", Point(x: 0, y: 0), Point(x: 100, y: 50)), forKey: "p")
        layers[0].add(move("position.x", 5.0, 10.0, duration: 0.3, additive: true), forKey: "x")      // additive, overlapping
        let early = move("opacity", 0.0, 1.0, duration: 0.4)                                            // ends early, kept, no fill
        early.isRemovedOnCompletion = false
        layers[1].add(early, forKey: "o")
        layers[1].add(move("backgroundColor", Color.red, Color.blue, duration: 2), forKey: "c")
        layers[2].add(move("transform", Transform3D.identity, Transform3D(rotationAngle: 1, x: 0, y: 0, z: 1)), forKey: "t")
        layers[3].add(move("bounds.size.width", 10.0, 90.0, fill: .forwards), forKey: "w")             // under a faster group
        let spring = SpringAnimation(keyPath: "position.y")
        spring.fromValue = 0.0
        spring.toValue = 40.0
        layers[4].add(spring, forKey: "s")                                                               // untyped
        layers[5].opacity = 0.5                                                                          // implicit: its end is the model
        passAgrees(layers, "before the commit")
        Transaction.flush()
        for step in 0..<8 {
            f.advance(0.15)
            passAgrees(layers, "step \(step)")
            switch step {
            case 1: Transaction.withoutActions { layers[0].position = Point(x: 7, y: 9) }      // the model changes mid-animation
            case 2: layers[5].opacity = 0.9                                                     // a new implicit animation over it
            case 3: Transaction.withoutActions { root.addSublayer(layers[3]) }                  // moves out of the faster group
            case 4: layers[1].removeAnimation(forKey: "c")
            case 5: Transaction.withoutActions { group.speed = 0.5 }
            default: break
            }
        }
    }
}
