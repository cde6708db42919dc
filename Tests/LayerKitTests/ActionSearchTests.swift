@testable import LayerKit
import Testing
import LayerKitTesting

/// A delegate that answers from a table and logs what it was asked, with the
/// model value at the time of asking.
@MainActor
final class TableDelegate: LayerDelegate {
    var answers: [String: any Action] = [:]
    var asked: [String] = []
    var opacityWhenAsked: [Double] = []
    func action(for layer: Layer, forKey event: String) -> (any Action)? {
        asked.append(event)
        opacityWhenAsked.append(layer.opacity)
        return answers[event]
    }
}

@MainActor
final class DefaultActionLayer: Layer {
    static let fundamental = RecordingAction()
    override class func defaultAction(forKey event: String) -> (any Action)? {
        event == "opacity" || event == "cornerRadius" ? fundamental : nil
    }
}

/// The action search and when actions run (rules A1–A9). Expected behaviour is
/// Core Animation's, as described in the seed documents.
@MainActor
@Suite("Actions and the action search (A1–A9)", .serialized, .isolatedLayerContext)
struct ActionSearchTests {
    @Test("rule A1: every animation is an action; running one adds a copy to the layer")
    func ruleA1AnimationIsAnAction() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let animation = BasicAnimation(keyPath: "opacity")
        animation.toValue = 0.5
        let action: any Action = animation
        action.run(forKey: "opacity", object: layer, arguments: nil)
        let added = layer.animation(forKey: "opacity")
        #expect(added != nil && added !== animation)
        #expect((added as? BasicAnimation)?.toValue as? Double == 0.5)
    }

    @Test("rule A2: keys are Core Animation's names: hidden, doubleSided, and any property, custom ones too")
    func ruleA2Keys() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let d = TableDelegate()
        layer.delegate = d
        layer.isHidden = true
        layer.isDoubleSided = false
        layer.contentsGravity = .center      // not animatable: still an action key
        layer.setValue(3.0, forKey: "wobble")  // a custom property
        layer.name = "card"
        // hiding in a visible tree also asks for onOrderOut (rule A7)
        #expect(d.asked == ["hidden", "onOrderOut", "doubleSided", "contentsGravity", "wobble", "name"])
        #expect(Layer.onOrderIn == "onOrderIn" && Layer.onOrderOut == "onOrderOut" && Layer.transition == "transition")
    }

    @Test("rule A3: the delegate is asked first")
    func ruleA3DelegateIsAskedFirst() {
        let f = Fixture()
        let layer = f.presentedLayer { DefaultActionLayer() }
        let fromDelegate = RecordingAction(), fromActions = RecordingAction(), fromStyle = RecordingAction()
        let d = TableDelegate()
        d.answers["opacity"] = fromDelegate
        layer.delegate = d
        layer.actions["opacity"] = fromActions
        layer.style = ["actions": ["opacity": fromStyle] as [String: any Action]]
        #expect(layer.action(forKey: "opacity") === fromDelegate)
    }

    @Test("rule A3: nil from the delegate carries the search on to the actions dictionary")
    func ruleA3NilFromDelegateContinuesToActions() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let fromActions = RecordingAction()
        layer.delegate = TableDelegate()
        layer.actions["opacity"] = fromActions
        #expect(layer.action(forKey: "opacity") === fromActions)
    }

    @Test("rule A3: then the style's actions, then its nested style, recursively")
    func ruleA3StyleThenNestedStyle() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let outer = RecordingAction(), inner = RecordingAction()
        layer.style = [
            "actions": ["opacity": outer] as [String: any Action],
            "style": ["actions": ["opacity": inner, "position": inner] as [String: any Action]] as [String: Any],
        ]
        #expect(layer.action(forKey: "opacity") === outer)
        #expect(layer.action(forKey: "position") === inner)
        let trace = ActionTrace.recording { _ = layer.action(forKey: "position") }
        #expect(trace.first?.step == .style(depth: 1))
    }

    @Test("rule A3: then the class's defaultAction(forKey:), then the implicit animation")
    func ruleA3DefaultActionThenImplicit() {
        let f = Fixture()
        let layer = f.presentedLayer { DefaultActionLayer() }
        #expect(layer.action(forKey: "opacity") === DefaultActionLayer.fundamental)
        let implicit = layer.action(forKey: "position") as? BasicAnimation
        #expect(implicit?.keyPath == "position")
        #expect(Layer().action(forKey: "opacity") is BasicAnimation)
        #expect(layer.action(forKey: "name") == nil)   // not animatable: no implicit action
    }

    @Test("rule A4: a NullAction from the delegate ends the search")
    func ruleA4NullActionFromDelegateEndsSearch() {
        let f = Fixture()
        let layer = f.presentedLayer { DefaultActionLayer() }
        let d = TableDelegate()
        d.answers["opacity"] = NullAction()
        layer.delegate = d
        layer.actions["opacity"] = RecordingAction()
        #expect(layer.action(forKey: "opacity") == nil)
        layer.opacity = 0.3
        #expect(layer.animationKeys.isEmpty)
        #expect((layer.actions["opacity"] as? RecordingAction)?.runs.isEmpty == true)
    }

    @Test("rule A4: a NullAction in actions or style ends the search before later steps")
    func ruleA4NullActionInDictionaries() {
        let f = Fixture()
        let layer = f.presentedLayer { DefaultActionLayer() }
        layer.actions["opacity"] = NullAction()
        layer.style = ["actions": ["opacity": RecordingAction(), "cornerRadius": NullAction()] as [String: any Action]]
        #expect(layer.action(forKey: "opacity") == nil)
        #expect(layer.action(forKey: "cornerRadius") == nil)   // the style's NullAction beats defaultAction
        layer.cornerRadius = 4
        #expect(DefaultActionLayer.fundamental.runs.allSatisfy { $0.key != "cornerRadius" })
    }

    @Test("rule A5: disabling actions does not change what action(forKey:) returns")
    func ruleA5DisableActionsLeavesLookupAlone() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let a = RecordingAction()
        layer.actions["opacity"] = a
        Transaction.begin()
        Transaction.disableActions = true
        #expect(layer.action(forKey: "opacity") === a)
        #expect(layer.action(forKey: "position") is BasicAnimation)
        layer.opacity = 0.5
        Transaction.commit()
        #expect(a.runs.isEmpty)
    }

    @Test("rule A6: the action is looked up before the model changes and run after it")
    func ruleA6LookupBeforeRunAfter() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let d = TableDelegate()
        let a = RecordingAction()
        d.answers["opacity"] = a
        layer.delegate = d
        layer.opacity = 0.25
        #expect(d.opacityWhenAsked == [1])                 // looked up: still the old value
        #expect(a.modelValues.first as? Double == 0.25)    // run: the new value
        #expect(a.runs.first?.key == "opacity" && a.runs.first?.layer === layer)
    }

    @Test("rule A6: the implicit animation starts from what the presentation showed before the change")
    func ruleA6ImplicitFromOldPresentation() {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.opacity = 0.2
        let anim = layer.animation(forKey: "opacity") as? BasicAnimation
        #expect(anim?.fromValue as? Double == 1)
        #expect(anim?.toValue as? Double == 0.2)
    }

    @Test("rule A7: onOrderIn runs on insertion into a visible tree, not an invisible one")
    func ruleA7OnOrderIn() {
        let f = Fixture()
        let inserted = Layer(), elsewhere = Layer(), detachedParent = Layer()
        let a = RecordingAction(), b = RecordingAction()
        inserted.actions[Layer.onOrderIn] = a
        elsewhere.actions[Layer.onOrderIn] = b
        f.root.addSublayer(inserted)
        detachedParent.addSublayer(elsewhere)
        #expect(a.runs.map(\.key) == ["onOrderIn"])
        #expect(b.runs.isEmpty)
    }

    @Test("rule A7: onOrderOut runs on removal from a visible tree")
    func ruleA7OnOrderOut() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let out = RecordingAction()
        layer.actions[Layer.onOrderOut] = out
        layer.removeFromSuperlayer()
        #expect(out.runs.map(\.key) == ["onOrderOut"])
        #expect(out.runs.first?.layer === layer)
        let loose = Layer(), parent = Layer()
        parent.addSublayer(loose)
        let never = RecordingAction()
        loose.actions[Layer.onOrderOut] = never
        loose.removeFromSuperlayer()
        #expect(never.runs.isEmpty)
    }

    @Test("rule A7: hiding runs onOrderOut and un-hiding runs onOrderIn, after the hidden action")
    func ruleA7HiddenOrdersOutAndIn() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let log = RecordingAction()
        layer.actions = ["hidden": log, Layer.onOrderOut: log, Layer.onOrderIn: log]
        layer.isHidden = true
        layer.isHidden = false
        #expect(log.runs.map(\.key) == ["hidden", "onOrderOut", "hidden", "onOrderIn"])
    }

    @Test("rule A7: replaceSublayer runs transition on the new layer")
    func ruleA7TransitionOnReplace() {
        let f = Fixture()
        let old = f.presentedLayer()
        let new = Layer()
        let t = RecordingAction(), orderIn = RecordingAction()
        new.actions = [Layer.transition: t, Layer.onOrderIn: orderIn]
        f.root.replaceSublayer(old, with: new)
        #expect(t.runs.count == 1 && t.runs.first?.layer === new)
        #expect(f.root.sublayers.last === new && old.superlayer == nil)
    }

    @Test("rule A8: a custom action may do anything, synchronously, during the change")
    func ruleA8CustomActionsDoAnything() {
        let f = Fixture()
        let leader = f.presentedLayer(), follower = f.presentedLayer()
        var log: [String] = []
        leader.actions["position"] = ClosureAction { key, layer, _ in
            log.append("\(key) → \(layer.position)")
            Transaction.withoutActions { follower.position = layer.position }
        }
        leader.position = Point(x: 200, y: 100)
        #expect(log == ["position → (200.0, 100.0)"])
        #expect(follower.position == Point(x: 200, y: 100))
        #expect(follower.animationKeys.isEmpty)
    }

    @Test("rule A9: style holds actions for custom properties")
    func ruleA9StyleForCustomProperties() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let glow = RecordingAction()
        layer.style = ["actions": ["glow": glow] as [String: any Action]]
        layer.setValue(0.7, forKey: "glow")
        #expect(glow.runs.map(\.key) == ["glow"])
        #expect(layer.value(forKey: "glow") as? Double == 0.7)
    }

    @Test("a delegate released during its own action(for:forKey:) does not break the search")
    func delegateDeallocatedMidSearch() {
        let f = Fixture()
        let layer = f.presentedLayer()
        final class Vanishing: LayerDelegate {
            var owner: Holder?
            func action(for layer: Layer, forKey event: String) -> (any Action)? {
                owner?.delegate = nil   // drops the last strong reference to self
                owner = nil
                return nil
            }
        }
        final class Holder { var delegate: Vanishing? }
        let holder = Holder()
        holder.delegate = Vanishing()
        holder.delegate?.owner = holder
        layer.delegate = holder.delegate
        let fallback = RecordingAction()
        layer.actions["opacity"] = fallback
        layer.opacity = 0.5
        #expect(fallback.runs.count == 1)
        #expect(layer.delegate == nil)
    }

    @Test("an action that changes the tree while it runs leaves a consistent tree")
    func reentrantTreeMutation() {
        let f = Fixture()
        let a = f.presentedLayer(), b = f.presentedLayer()
        a.actions[Layer.onOrderOut] = ClosureAction { _, layer, _ in
            f.root.addSublayer(layer)        // put it straight back
            b.removeFromSuperlayer()
            layer.addSublayer(b)
        }
        a.removeFromSuperlayer()
        #expect(a.superlayer === f.root && b.superlayer === a)
        #expect(f.root.sublayers.filter { $0 === a }.count == 1)
        #expect(!f.root.sublayers.contains { $0 === b })
        #expect(f.root.checkInvariants().isEmpty)
    }
}

/// The style dictionary as default values (`CALayer.style`).
@MainActor
@Suite("Style defaults", .serialized, .isolatedLayerContext)
struct StyleDefaultTests {
    @Test("style supplies values for properties not set explicitly, nested styles too")
    func styleSuppliesDefaults() {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.style = ["cornerRadius": 6, "style": ["backgroundColor": Color.red, "cornerRadius": 99.0] as [String: Any]]
        #expect(layer.cornerRadius == 6)                 // the outer style wins
        #expect(layer.backgroundColor == .red)           // from the nested style
        #expect(layer.value(forKey: "glow") == nil)
        layer.style["glow"] = 0.4
        #expect(layer.value(forKey: "glow") as? Double == 0.4)   // custom properties too
        #expect(layer.animationKeys.isEmpty)             // applying a style runs no actions
    }

    @Test("an explicit value wins over the style, also when the style changes later")
    func explicitWins() {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.style = ["borderWidth": 2.0]
        Transaction.withoutActions { layer.borderWidth = 5 }
        layer.style = ["borderWidth": 3.0]
        #expect(layer.borderWidth == 5)
        layer.style = ["opacity": 0.5]
        #expect(layer.opacity == 0.5)
        layer.style = [:]                                // the style's value goes: back to the default
        #expect(layer.opacity == 1)
        let seen = Diagnostics.recording { layer.style = ["opacity": "dim"] }
        #expect(seen.count == 1 && layer.opacity == 1)
    }
}
