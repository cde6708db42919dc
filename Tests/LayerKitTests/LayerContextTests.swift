@testable import LayerKit
import LayerKitTesting
import Testing

/// Contexts own the state Core Animation keeps per process (``LayerContext``):
/// two of them in one process animate, commit and keep time independently.
@MainActor
@Suite("Layer contexts", .isolatedLayerContext)
struct LayerContextTests {
    /// A context with a manual clock at `t`, and a presented root made in it.
    func world(at t: Double) -> (LayerContext, ManualMediaClock, Layer) {
        let clock = ManualMediaClock(now: t)
        let context = LayerContext(clock: clock)
        let root = context.run {
            Transaction.endOfTurnScheduler = { _ in }
            let root = Layer()
            root.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
            PresentationHosts.attach(root)
            Transaction.flush()
            return root
        }
        return (context, clock, root)
    }

    @Test("two contexts animate independently, each on its own manual clock")
    func independentClocks() {
        let (a, clockA, rootA) = world(at: 10)
        let (b, clockB, rootB) = world(at: 500)
        let layerA = a.run { () -> Layer in
            let l = Layer(); Transaction.withoutActions { rootA.addSublayer(l) }; Transaction.flush()
            l.opacity = 0    // implicit: 0.25 s from 1 to 0
            Transaction.flush()
            return l
        }
        let layerB = b.run { () -> Layer in
            let l = Layer(); Transaction.withoutActions { rootB.addSublayer(l) }; Transaction.flush()
            Transaction.begin()
            Transaction.animationDuration = 2
            l.opacity = 0
            Transaction.commit()
            return l
        }
        #expect(layerA.context === a && layerB.context === b)
        clockA.advance(by: 0.125)
        let halfWay = a.run { layerA.presentation()!.opacity }   // the default curve at half time
        #expect(halfWay > 0.1 && halfWay < 0.3)
        #expect(b.run { layerB.presentation()!.opacity } == 1)   // B's time has not moved
        #expect(b.run { currentMediaTime() } == 500 && a.run { currentMediaTime() } == 10.125)
        clockB.advance(by: 1)
        #expect(abs(b.run { layerB.presentation()!.opacity } - halfWay) < 1e-9)
        // Each timeline holds only its own layers.
        #expect(a.run { AnimationTimeline.animatedLayers }.map(ObjectIdentifier.init) == [ObjectIdentifier(layerA)])
        #expect(b.run { AnimationTimeline.animatedLayers }.map(ObjectIdentifier.init) == [ObjectIdentifier(layerB)])
    }

    @Test("a transaction open in one context does not hold back another's commit; completion blocks run on their own clock")
    func separateTransactions() {
        let (a, clockA, rootA) = world(at: 0)
        let (b, clockB, rootB) = world(at: 0)
        var done: [String] = []
        a.run {
            Transaction.begin()
            Transaction.completionBlock = { done.append("a") }
            rootA.opacity = 0.5
        }
        b.run {
            Transaction.begin()
            Transaction.completionBlock = { done.append("b") }
            rootB.opacity = 0.5
            Transaction.commit()
        }
        #expect(b.run { !Transaction.isOpen } && a.run { Transaction.isOpen })
        clockB.advance(by: 1)
        #expect(done == ["b"])
        clockA.advance(by: 1)
        #expect(done == ["b"])     // A's transaction is still open: its animation has not begun
        a.run { Transaction.commit() }
        clockA.advance(by: 1)
        #expect(done == ["b", "a"])
    }

    @Test("a layer keeps its context: changed while another is current, its animation runs on its own timeline")
    func layerKeepsItsContext() {
        let (a, clockA, rootA) = world(at: 0)
        let (b, _, _) = world(at: 0)
        let layer = a.run { () -> Layer in
            let l = Layer(); Transaction.withoutActions { rootA.addSublayer(l) }; Transaction.flush(); return l
        }
        b.run {
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.0
            fade.toValue = 1.0
            fade.duration = 1
            layer.add(fade, forKey: "fade")
        }
        a.run { Transaction.flush() }
        #expect(a.run { AnimationTimeline.animatedLayers.count } == 1 && b.run { AnimationTimeline.animatedLayers.count } == 0)
        clockA.advance(by: 0.5)
        #expect(abs(a.run { layer.presentation()!.opacity } - 0.5) < 1e-9)
        clockA.advance(by: 1)
        #expect(a.run { layer.animationKeys }.isEmpty)   // removed on completion by A's clock
    }

    /// In a context of its own: a transaction and a clock that stay across 20 suspensions.
    static func keepsItsOwn(_ i: Int) async -> Bool {
        let clock = ManualMediaClock(now: Double(i))
        return await LayerContext(clock: clock).run {
            var ok = true
            Transaction.begin()
            for _ in 0..<20 {
                await Task.yield()
                ok = ok && MediaTime.clock === clock && Transaction.isOpen && currentMediaTime() == Double(i)
            }
            Transaction.commit()
            return ok && !Transaction.isOpen
        }
    }

    @Test("tasks in different contexts keep their own clock and transactions across suspensions")
    func acrossSuspensions() async {
        let seen = await withTaskGroup(of: Bool.self) { group in
            for i in 0..<4 { group.addTask { await LayerContextTests.keepsItsOwn(i) } }
            var all: [Bool] = []
            for await ok in group { all.append(ok) }
            return all
        }
        #expect(seen == [true, true, true, true])
    }

    @Test("the trait gives each test a context of its own with a manual clock")
    func traitGivesAContext() {
        #expect(LayerContext.current !== LayerContext.main)
        #expect(MediaTime.clock is ManualMediaClock)
        #expect(AnimationTimeline.animatedLayers.isEmpty)
    }
}
