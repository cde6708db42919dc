@testable import LayerKit
import Testing
import LayerKitTesting

/// The seed documents' own listings, translated to LayerKit ("Changing a
/// Layer's Default Behavior", listings 6-1 and 6-2; the actions-dictionary
/// listing for `sublayers`; the CAShapeLayer snippet).
@MainActor
@Suite("Seed listings", .serialized, .isolatedLayerContext)
struct SeedListingTests {
    /// Listing 6-1: a delegate that swaps new contents in with a push transition.
    final class PushContentsDelegate: LayerDelegate {
        func action(for layer: Layer, forKey event: String) -> (any Action)? {
            guard event == "contents" else { return nil }
            let push = Transition()
            push.duration = 1.0
            push.timingFunction = MediaTimingFunction(name: .easeIn)
            push.type = .push
            push.subtype = .fromRight
            return push
        }
    }

    @Test("listing 6-1: the delegate's push transition runs for a contents change (rules A3, G2)")
    func listing6_1() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        let delegate = PushContentsDelegate()
        layer.delegate = delegate
        layer.contents = Image(width: 4, height: 4, color: .blue)
        Transaction.flush()
        let t = try #require(layer.animation(forKey: Layer.transition) as? Transition)
        #expect(t.type == .push && t.subtype == .fromRight && t.duration == 1)
        #expect(layer.animation(forKey: "contents") == nil)   // no implicit cross-fade as well
        f.advance(0.5)
        let shown = try #require(layer.presentation()?.activeTransition)
        #expect(approx(shown.progress, MediaTimingFunction.easeIn.value(at: 0.5)))
        #expect(shown.type == .push && shown.subtype == .fromRight)
        f.advance(0.5)
        #expect(layer.presentation()?.activeTransition == nil)
    }

    @Test("listing 6-2: disabling actions around removeFromSuperlayer (rule T3)")
    func listing6_2() {
        let f = Fixture()
        let aLayer = f.presentedLayer()
        let orderOut = RecordingAction()
        aLayer.actions[Layer.onOrderOut] = orderOut
        Transaction.begin()
        Transaction.setValue(true, forKey: Transaction.disableActionsKey)
        aLayer.removeFromSuperlayer()
        Transaction.commit()
        #expect(orderOut.runs.isEmpty)
        #expect(f.root.animationKeys.isEmpty)
        #expect(aLayer.superlayer == nil)
    }

    @Test("listing 3 (actions dictionary): NullAction for sublayers disables their default animation (rule A4)")
    func actionsDictionaryNullForSublayers() {
        let f = Fixture()
        let theLayer = f.presentedLayer()
        theLayer.addSublayer(Layer())
        #expect(theLayer.animation(forKey: Layer.transition) is Transition)   // the default: a fade
        theLayer.removeAllAnimations()
        var customActions = theLayer.actions
        customActions["sublayers"] = NullAction()
        theLayer.actions = customActions
        theLayer.addSublayer(Layer())
        theLayer.sublayers.first?.removeFromSuperlayer()
        #expect(theLayer.animationKeys.isEmpty)
    }

    @Test("the CAShapeLayer snippet: NullAction for strokeStart/strokeEnd/transform, then explicit animations")
    func shapeLayerSnippet() {
        let f = Fixture()
        let layer = f.presentedLayer { ShapeLayer() }
        layer.actions = ["strokeStart": NullAction(), "strokeEnd": NullAction(), "transform": NullAction()]
        layer.strokeEnd = 0.5
        layer.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        #expect(layer.animationKeys.isEmpty)
        layer.lineWidth = 3                   // not listed: still animates implicitly
        #expect(layer.animationKeys == ["lineWidth"])

        let kAnimationToValue = 0.8
        let strokeStart = BasicAnimation(keyPath: "strokeStart")
        strokeStart.toValue = kAnimationToValue
        strokeStart.duration = 1
        layer.add(strokeStart, forKey: strokeStart.keyPath!)
        Transaction.flush()
        f.advance(0.5)
        #expect(approx((layer.presentation() as ShapeLayer?)?.strokeStart, 0.4))
        #expect(layer.strokeStart == 0)
    }
}
