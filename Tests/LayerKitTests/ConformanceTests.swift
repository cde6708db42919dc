@testable import LayerKit
import Testing

/// Gaps an outside conformance suite found, each pinned by its rule.
@MainActor
@Suite("Conformance")
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
