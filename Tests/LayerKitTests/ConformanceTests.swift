@testable import LayerKit
import Testing
import LayerKitTesting

/// Gaps an outside conformance suite found, each pinned by its rule.
@MainActor
@Suite("Conformance", .isolatedLayerContext)
struct ConformanceTests {
    @Test("rule T2: a nested transaction that has not set a completion block reads its enclosing one's")
    func nestedReadsCompletionBlock() {
        _ = Fixture()
        var ran = 0
        Transaction.begin()
        Transaction.completionBlock = { ran += 1 }
        Transaction.begin()
        #expect(Transaction.completionBlock != nil)
        Transaction.completionBlock?()
        #expect(ran == 1)
        Transaction.commit()
        Transaction.commit()
    }

    @Test("rule T4: setting the completion block again, or to nil, runs the previous one at once")
    func replacingCompletionBlockRunsIt() {
        let f = Fixture()
        let layer = f.presentedLayer()
        var log: [String] = []
        Transaction.begin()
        Transaction.completionBlock = { log.append("first") }
        layer.opacity = 0.5                       // the first block would wait for this animation
        Transaction.completionBlock = { log.append("second") }
        #expect(log == ["first"])
        Transaction.completionBlock = nil
        #expect(log == ["first", "second"])
        Transaction.commit()
        f.advance(1)
        #expect(log == ["first", "second"])       // none runs twice
    }

    @Test("rule E13: settlingDuration matches Apple's figures for a spring from 0 to 640")
    func settlingDurations() {
        let soft = SpringAnimation(keyPath: "position.y")
        soft.damping = 5
        let firm = SpringAnimation(keyPath: "position.y")
        firm.damping = 15
        #expect(abs(soft.settlingDuration - 2.85) < 0.05, "\(soft.settlingDuration)")
        #expect(firm.settlingDuration > 1 && firm.settlingDuration < 1.1, "\(firm.settlingDuration)")
        // After it, the motion stays within half a point of a 640-point move.
        for t in stride(from: soft.settlingDuration, through: soft.settlingDuration + 2, by: 0.005) {
            #expect(abs(soft.displacement(at: t)) * 640 <= 0.5)
        }
    }
}

extension ConformanceTests {
    @Test("rule E12: a presentation's sublayers, superlayer and mask are presentations at the same time; model() leads back")
    func presentationTree() {
        let f = Fixture()
        let parent = f.presentedLayer()
        let child = Layer(), mask = Layer()
        Transaction.withoutActions {
            parent.addSublayer(child)
            parent.mask = mask
            child.opacity = 1
            mask.opacity = 1
        }
        Transaction.flush()
        child.opacity = 0                 // implicit: 0.25 s
        mask.opacity = 0
        parent.opacity = 0.5
        Transaction.flush()
        f.advance(0.125)
        let p = parent.presentation()!
        let pc = p.sublayers.first!, pm = p.mask!
        #expect(pc.isPresentationCopy && pm.isPresentationCopy)
        #expect(pc.opacity > 0.05 && pc.opacity < 0.95 && pm.opacity > 0.05 && pm.opacity < 0.95)
        #expect(pc.model() === child && pm.model() === mask)
        let up = child.presentation()!.superlayer!
        #expect(up.isPresentationCopy && up.model() === parent)
        #expect(abs(up.opacity - p.opacity) < 1e-12)
        #expect(parent.sublayers.first === child && parent.mask === mask)   // the model tree is as it was
    }
}
