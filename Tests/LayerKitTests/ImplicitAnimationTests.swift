@testable import LayerKit
import Testing
import LayerKitTesting

/// Implicit animations (rules B1–B6), checked on a ManualMediaClock.
@MainActor
@Suite("Implicit animations (B1–B6)", .serialized, .isolatedLayerContext)
struct ImplicitAnimationTests {
    @Test("rule B1: a change animates from the old presentation value over 0.25 s on the default curve")
    func ruleB1ImplicitBasicAnimation() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.opacity = 0
        Transaction.flush()
        let anim = try #require(layer.animation(forKey: "opacity") as? BasicAnimation)
        #expect(anim.keyPath == "opacity" && anim.duration == 0.25)
        #expect(anim.fromValue as? Double == 1 && anim.toValue as? Double == 0)
        #expect(anim.timingFunction == .default)
        #expect(anim.beginTime == 100)
        f.advance(0.125)
        let expected = 1 - MediaTimingFunction.default.value(at: 0.5)
        #expect(approx(layer.presentation()?.opacity, expected))
        f.advance(0.125)
        #expect(layer.presentation()?.opacity == 0)
        #expect(layer.animationKeys.isEmpty)   // removed on completion
    }

    @Test("rule B1: the transaction's duration and timing function are used when set")
    func ruleB1TransactionSettings() {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.animationTimingFunction = .linear
        layer.position = Point(x: 250, y: 25)
        Transaction.commit()
        f.advance(0.5)
        #expect(approx(layer.presentation()?.position, Point(x: 100, y: 25)))
        f.advance(1.5)
        #expect(layer.presentation()?.position == Point(x: 250, y: 25))
    }

    @Test("rule B2: every listed property animates implicitly; doubleSided and frame do not")
    func ruleB2AnimatableTable() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let animatable = ["anchorPoint", "backgroundColor", "borderColor", "borderWidth", "bounds", "contentsRect",
                          "cornerRadius", "hidden", "masksToBounds", "opacity", "position", "shadowColor",
                          "shadowOffset", "shadowOpacity", "shadowPath", "shadowRadius", "sublayerTransform",
                          "transform", "zPosition", "mask", "contents"]
        for key in animatable {
            #expect(layer.action(forKey: key) is BasicAnimation, "\(key)")
        }
        #expect(layer.action(forKey: "doubleSided") == nil)
        #expect(layer.action(forKey: "frame") == nil)
        #expect(layer.action(forKey: "sublayers") is Transition)
        layer.frame = Rect(x: 10, y: 10, width: 60, height: 30)   // animates through position and bounds
        #expect(Set(layer.animationKeys) == ["position", "bounds"])
    }

    @Test("rule B2: booleans switch discretely")
    func ruleB2BooleansAreDiscrete() {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.begin()
        Transaction.animationTimingFunction = .linear
        layer.masksToBounds = true
        Transaction.commit()
        f.advance(0.1)
        #expect(layer.presentation()?.masksToBounds == false)
        f.advance(0.05)
        #expect(layer.presentation()?.masksToBounds == true)
    }

    @Test("rule B2: colours animate, and a missing colour animates as clear")
    func ruleB2ColourFromNil() {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.begin()
        Transaction.animationTimingFunction = .linear
        layer.backgroundColor = .red
        Transaction.commit()
        f.advance(0.125)
        #expect(layer.presentation()?.backgroundColor == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    }

    @Test("rule B3: the model holds the new value at once; only the presentation moves")
    func ruleB3ModelChangesImmediately() {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.position = Point(x: 300, y: 200)
        #expect(layer.position == Point(x: 300, y: 200))
        Transaction.flush()
        #expect(layer.presentation()?.position == Point(x: 50, y: 25))
        f.advance(0.1)
        #expect(layer.position == Point(x: 300, y: 200))
        #expect(layer.presentation()?.position != Point(x: 300, y: 200))
    }

    @Test("rule B4: changing again mid-animation starts from the presentation value")
    func ruleB4NoJumpMidAnimation() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.begin()
        Transaction.animationTimingFunction = .linear
        layer.opacity = 0
        Transaction.commit()
        f.advance(0.125)
        #expect(approx(layer.presentation()?.opacity, 0.5))
        Transaction.begin()
        Transaction.animationTimingFunction = .linear
        layer.opacity = 1
        Transaction.commit()
        let second = try #require(layer.animation(forKey: "opacity") as? BasicAnimation)
        #expect(approx(second.fromValue as? Double, 0.5))
        #expect(approx(layer.presentation()?.opacity, 0.5))   // no jump
        f.advance(0.125)
        #expect(approx(layer.presentation()?.opacity, 0.75))
        #expect(layer.animationKeys == ["opacity"])
    }

    @Test("rule B5: a layer never presented changes without animation; once presented it animates")
    func ruleB5NeverPresentedDoesNotAnimate() {
        let f = Fixture()
        let layer = Layer()
        f.root.addSublayer(layer)
        layer.opacity = 0.5                  // same transaction as the insertion: not presented yet
        #expect(layer.animationKeys.isEmpty)
        Transaction.flush()                  // the commit presents it
        layer.opacity = 0.2
        #expect(layer.animationKeys == ["opacity"])
        let offstage = Layer(), child = Layer()
        offstage.addSublayer(child)
        Transaction.flush()
        child.opacity = 0.1                  // no renderer shows this tree
        #expect(child.animationKeys.isEmpty)
    }

    @Test("rule B5: the trace says why nothing animated")
    func ruleB5TraceSaysNotPresented() {
        let f = Fixture()
        let layer = Layer()
        f.root.addSublayer(layer)
        let trace = ActionTrace.recording { layer.opacity = 0.5 }
        #expect(trace.map(\.outcome) == [.notYetPresented])
    }

    @Test("rule B6: setting a property to its current value runs no action")
    func ruleB6SameValueNoAction() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let a = RecordingAction()
        layer.actions = ["opacity": a, "position": a, "backgroundColor": a, "wobble": a]
        layer.opacity = 1
        layer.position = layer.position
        layer.backgroundColor = nil
        layer.setValue(nil, forKey: "wobble")
        #expect(a.runs.isEmpty)
        layer.opacity = 0.9
        #expect(a.runs.count == 1)
    }
}

/// Transactions (rules T1–T5).
@MainActor
@Suite("Transactions (T1–T5)", .serialized, .isolatedLayerContext)
struct TransactionTests {
    @Test("rule T1: a change with no transaction open starts one committed at the end of the run-loop turn")
    func ruleT1ImplicitTransaction() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        var endOfTurn: [@MainActor () -> Void] = []
        Transaction.endOfTurnScheduler = { endOfTurn.append($0) }
        layer.opacity = 0.5
        #expect(endOfTurn.count == 1)
        let anim = try #require(layer.animation(forKey: "opacity"))
        #expect(anim.beginTime == 0)         // not committed yet
        f.advance(1)
        let endTurn = try #require(endOfTurn.first)
        endTurn()                            // the run loop's turn ends
        #expect(anim.beginTime == 101)
        #expect(Transaction.stack.isEmpty)
    }

    @Test("rule T1: flush() commits the implicit transaction on demand")
    func ruleT1Flush() {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.opacity = 0.5
        #expect(Transaction.stack.count == 1)
        Transaction.flush()
        #expect(Transaction.stack.isEmpty)
        #expect(layer.animation(forKey: "opacity")?.beginTime == 100)
    }

    @Test("rule T2: nested transactions: inner settings inside, outer settings after the inner commit")
    func ruleT2Nesting() {
        let f = Fixture()
        let a = f.presentedLayer(), b = f.presentedLayer(), c = f.presentedLayer()
        Transaction.begin()
        Transaction.animationDuration = 2
        Transaction.begin()
        Transaction.animationDuration = 0.5
        a.opacity = 0
        Transaction.commit()
        b.opacity = 0
        Transaction.begin()
        c.opacity = 0                        // inherits the outer duration
        Transaction.commit()
        Transaction.commit()
        #expect(a.animation(forKey: "opacity")?.duration == 0.5)
        #expect(b.animation(forKey: "opacity")?.duration == 2)
        #expect(c.animation(forKey: "opacity")?.duration == 2)
    }

    @Test("rule T2: an inner transaction inherits disableActions")
    func ruleT2InheritsDisableActions() {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.begin()
        Transaction.disableActions = true
        Transaction.begin()
        #expect(Transaction.disableActions)
        layer.opacity = 0
        Transaction.commit()
        Transaction.commit()
        #expect(layer.animationKeys.isEmpty)
    }

    @Test("rule T2: animations begin when the outermost transaction commits")
    func ruleT2BeginAtOutermostCommit() {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.begin()
        Transaction.begin()
        layer.opacity = 0
        Transaction.commit()
        f.advance(3)
        Transaction.commit()
        #expect(layer.animation(forKey: "opacity")?.beginTime == 103)
    }

    @Test("rule T2: an unmatched commit is harmless")
    func ruleT2UnmatchedCommit() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let seen = Diagnostics.recording {
            Transaction.commit()
            Transaction.commit()
        }
        #expect(seen == [.unmatchedCommit, .unmatchedCommit])
        layer.opacity = 0.5
        Transaction.commit()                 // only an implicit transaction is open: still harmless
        #expect(Transaction.stack.count == 1)
        Transaction.flush()
        #expect(Transaction.stack.isEmpty)
    }

    @Test("rule T3: disableActions makes changes immediate, with no action at all")
    func ruleT3DisableActions() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let custom = RecordingAction()
        layer.actions["cornerRadius"] = custom
        Transaction.begin()
        Transaction.disableActions = true
        layer.opacity = 0
        layer.cornerRadius = 5
        Transaction.commit()
        Transaction.begin()
        Transaction.setValue(true, forKey: Transaction.disableActionsKey)
        layer.position = Point(x: 1, y: 1)
        Transaction.commit()
        #expect(layer.animationKeys.isEmpty && custom.runs.isEmpty)
        #expect(layer.presentation()?.opacity == 0)
    }

    @Test("rule T4: the completion block runs once every animation of the transaction has finished")
    func ruleT4CompletionAfterAllAnimations() {
        let f = Fixture()
        let layer = f.presentedLayer()
        var runs = 0
        Transaction.begin()
        Transaction.completionBlock = { runs += 1 }
        layer.opacity = 0                    // 0.25 s
        let slow = BasicAnimation(keyPath: "position.x")
        slow.toValue = 300.0
        slow.duration = 1
        layer.add(slow, forKey: "slide")
        Transaction.commit()
        f.advance(0.5)
        #expect(runs == 0)
        f.advance(0.5)
        #expect(runs == 1)
        f.advance(5)
        #expect(runs == 1)
    }

    @Test("rule T4: with no animations the completion block runs right after the commit")
    func ruleT4CompletionWithoutAnimations() {
        let f = Fixture()
        let layer = f.presentedLayer()
        var log: [String] = []
        Transaction.begin()
        Transaction.disableActions = true
        Transaction.completionBlock = { log.append("done, opacity \(layer.opacity)") }
        layer.opacity = 0.5
        log.append("before commit")
        Transaction.commit()
        #expect(log == ["before commit", "done, opacity 0.5"])
    }

    @Test("rule T4: removed animations count as ended, and nested transactions' animations count")
    func ruleT4RemovalAndNesting() {
        let f = Fixture()
        let layer = f.presentedLayer()
        var runs = 0
        Transaction.begin()
        Transaction.completionBlock = { runs += 1 }
        Transaction.begin()
        Transaction.animationDuration = 10
        layer.opacity = 0
        Transaction.commit()
        Transaction.commit()
        f.advance(1)
        #expect(runs == 0)
        layer.removeAnimation(forKey: "opacity")
        #expect(runs == 1)
    }

    @Test("rule T5: actions are looked up inside the transaction, so a delegate sees its settings")
    func ruleT5DelegateSeesTransaction() {
        let f = Fixture()
        let layer = f.presentedLayer()
        final class Peeker: LayerDelegate {
            var seen: [Double] = []
            func action(for layer: Layer, forKey event: String) -> (any Action)? {
                seen.append(Transaction.animationDuration)
                return nil
            }
        }
        let p = Peeker()
        layer.delegate = p
        Transaction.begin()
        Transaction.animationDuration = 3
        layer.opacity = 0
        Transaction.commit()
        #expect(p.seen == [3])
        #expect(layer.animation(forKey: "opacity")?.duration == 3)
    }

    @Test("thousands of nested transactions open and close cleanly")
    func deepNesting() {
        let f = Fixture()
        let layer = f.presentedLayer()
        for i in 0..<5000 {
            Transaction.begin()
            if i == 4999 { Transaction.animationDuration = 1 }
        }
        layer.opacity = 0.5
        for _ in 0..<5000 { Transaction.commit() }
        #expect(Transaction.stack.isEmpty)
        #expect(layer.animation(forKey: "opacity")?.duration == 1)
        #expect(layer.animation(forKey: "opacity")?.beginTime == 100)
    }
}
