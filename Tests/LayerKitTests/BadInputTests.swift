@testable import LayerKit
import Testing
import LayerKitTesting

/// Bad input: each case has a documented outcome, none crashes or corrupts the tree.
@MainActor
@Suite("Bad input", .serialized, .isolatedLayerContext)
struct BadInputTests {
    @Test("non-finite geometry is refused with a diagnostic; the property keeps its value")
    func nonFiniteGeometry() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let seen = Diagnostics.recording {
            layer.position = Point(x: .nan, y: 0)
            layer.bounds = Rect(x: 0, y: 0, width: .infinity, height: 1)
            layer.opacity = .nan
            layer.transform = Transform3D(scaleX: .nan, y: 1, z: 1)
            layer.frame = Rect(x: .nan, y: 0, width: 1, height: 1)
            layer.setValue(Double.infinity, forKey: "cornerRadius")
        }
        #expect(seen.count == 6)
        #expect(layer.position == Point(x: 50, y: 25) && layer.bounds.size == Size(width: 100, height: 50))
        #expect(layer.opacity == 1 && layer.transform == .identity && layer.cornerRadius == 0)
        #expect(layer.animationKeys.isEmpty)
    }

    @Test("opacity outside 0…1 is clamped; negative bounds sizes are stored as magnitudes")
    func clamping() {
        _ = Fixture()
        let layer = Layer()
        layer.opacity = 7
        #expect(layer.opacity == 1)
        layer.opacity = -2
        #expect(layer.opacity == 0)
        layer.bounds = Rect(x: 1, y: 2, width: -30, height: -40)
        #expect(layer.bounds == Rect(x: 1, y: 2, width: 30, height: 40))
    }

    @Test("negative, NaN and infinite durations fall back to the transaction's duration")
    func badDurations() {
        let f = Fixture()
        let layer = f.presentedLayer()
        for (i, d) in [-1.0, .nan, .infinity].enumerated() {
            let a = BasicAnimation(keyPath: "opacity")
            a.toValue = 0.0
            a.duration = d
            let seen = Diagnostics.recording { layer.add(a, forKey: "a\(i)") }
            #expect(seen.count == 1)
            #expect(layer.animation(forKey: "a\(i)")?.duration == 0.25)
        }
        Transaction.begin()
        Transaction.animationDuration = -3   // an invalid transaction duration reads as the default
        #expect(Transaction.animationDuration == 0.25)
        Transaction.commit()
    }

    @Test("a value of the wrong type is a named error at add time, and nothing is added")
    func wrongValueType() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let a = BasicAnimation(keyPath: "position")
        a.toValue = 3.0
        let seen = Diagnostics.recording { layer.add(a, forKey: "move") }
        #expect(seen == [.typeMismatch(keyPath: "position", expected: "Point", got: "Double")])
        #expect(layer.animationKeys.isEmpty)
        let colour = BasicAnimation(keyPath: "backgroundColor")   // optional property, currently nil
        colour.toValue = "red"
        #expect(Diagnostics.recording { layer.add(colour, forKey: "c") }.count == 1)
        let missing = BasicAnimation(keyPath: nil)
        #expect(Diagnostics.recording { layer.add(missing, forKey: "m") } == [.missingKeyPath])
        #expect(layer.animationKeys.isEmpty)
    }

    @Test("setting a wrong type or a key path that names nothing is refused")
    func wrongKeyValue() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let seen = Diagnostics.recording {
            layer.setValue("tall", forKey: "bounds")
            layer.setValue(1.0, forKeyPath: "position.z")
            layer.setValue(1.0, forKeyPath: "nothing.here")
            layer.setValue(3, forKey: "frame")
        }
        #expect(seen.count == 4)
        #expect(layer.bounds.size == Size(width: 100, height: 50))
        #expect(layer.value(forKeyPath: "position.z") == nil)
        #expect(layer.value(forKeyPath: "nothing.here") == nil)
        layer.setValue(nil, forKey: "backgroundColor")          // nil is fine for an optional property
        layer.setValue(nil, forKey: "opacity")                  // not for a required one
        #expect(layer.opacity == 1)
    }

    @Test("cycles in the tree are refused; bad indices append")
    func treeCycles() {
        let f = Fixture()
        let a = f.presentedLayer(), b = Layer(), c = Layer()
        a.addSublayer(b)
        b.addSublayer(c)
        let seen = Diagnostics.recording {
            c.addSublayer(a)
            a.addSublayer(a)
            b.insertSublayer(Layer(), at: 99)
            a.mask = a
            a.replaceSublayer(c, with: Layer())   // c is not a's sublayer
        }
        #expect(seen.count == 5)
        #expect(a.superlayer === f.root && c.superlayer === b)
        #expect(b.sublayers.count == 2 && a.mask == nil)
        #expect(f.root.checkInvariants().isEmpty)
    }

    @Test("a style dictionary nested in itself ends the search without hanging")
    func selfNestedStyle() {
        let f = Fixture()
        let layer = f.presentedLayer()
        var style: [String: Any] = ["actions": ["x": NullAction()] as [String: any Action]]
        for _ in 0..<200 { style = ["style": style] }
        layer.style = style
        #expect(layer.action(forKey: "opacity") is BasicAnimation)
    }

    @Test("a runaway action that keeps adding due animations stops at a bound")
    func runawayCallbacks() {
        let f = Fixture()
        let layer = f.presentedLayer()
        final class Again: AnimationDelegate {
            var count = 0
            func animationDidStop(_ a: Animation, finished: Bool) {
                count += 1
                let next = BasicAnimation(keyPath: "opacity")
                next.toValue = 0.5
                next.duration = 0.001
                next.delegate = self
                next.beginTime = 1   // long past: due at once
                (a as? BasicAnimation).map { _ in holder?.add(next, forKey: "again") }
                Transaction.flush()
            }
            weak var holder: Layer?
        }
        let again = Again()
        again.holder = layer
        let first = BasicAnimation(keyPath: "opacity")
        first.toValue = 0.5
        first.duration = 0.1
        first.delegate = again
        layer.add(first, forKey: "again")
        Transaction.flush()
        f.advance(1)
        #expect(again.count > 1 && again.count <= 2000)
    }
}

/// The action trace: why something did or did not animate.
@MainActor
@Suite("Action trace", .serialized, .isolatedLayerContext)
struct ActionTraceTests {
    @Test("each outcome is reported with the step that answered")
    func outcomes() {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.name = "card"
        layer.actions = ["cornerRadius": NullAction(), "borderWidth": RecordingAction()]
        let entries = ActionTrace.recording {
            layer.opacity = 0.5
            layer.cornerRadius = 3
            layer.borderWidth = 1
            layer.name = "renamed"
            Transaction.withoutActions { layer.zPosition = 1 }
        }
        #expect(entries.map(\.outcome) == [.ran, .stoppedByNullAction, .ran, .noAction, .actionsDisabled])
        #expect(entries.map(\.step) == [.implicit, .actionsDictionary, .actionsDictionary, .none, .none])
        #expect(entries.first?.description == "Layer 'card' opacity: implicit animation (ran)")
        #expect(ActionTrace.sink == nil)
    }
}
