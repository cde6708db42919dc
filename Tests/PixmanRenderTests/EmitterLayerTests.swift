import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// `EmitterLayer` and `EmitterCell` (issue 28, item 3): births counted on media
/// time, particles' positions from their age, reproducible from the seed whatever
/// frames came before, key-path animation of a cell's birth rate, nested cells,
/// the particle budget, pixels, and damage-tracked frames equal to full ones.
@MainActor
@Suite("Emitter layers", .serialized, .isolatedLayerContext)
struct EmitterLayerTests {
    static let dot = Image(width: 4, height: 4, color: .white)

    /// An emitter at (50, 50) of a 100 × 100 root with one cell named "spark".
    func emitter(in root: Layer, _ configure: (EmitterCell) -> Void) -> EmitterLayer {
        let e = EmitterLayer()
        let cell = EmitterCell()
        cell.name = "spark"
        cell.contents = Self.dot
        configure(cell)
        Transaction.withoutActions {
            e.frame = root.bounds
            e.emitterPosition = Point(x: 50, y: 50)
            e.emitterCells = [cell]
            root.addSublayer(e)
        }
        Transaction.flush()
        return e
    }

    @Test("births at the birth rate from the first frame; each particle where its age and velocity put it; dead after its lifetime")
    func countsAndPositions() {
        let (_, root, clock) = makeRenderer()
        let e = emitter(in: root) { $0.birthRate = 10; $0.lifetime = 1; $0.velocity = 100 }
        let start = clock.now
        #expect(e.particles(atTime: start).isEmpty)
        let early = e.particles(atTime: start + 0.55)
        #expect(early.count == 5)
        // Born at 0.1, 0.2 … 0.5 s, moving right at 100 points a second.
        let xs = early.map(\.position.x).sorted()
        for (k, x) in xs.enumerated() { #expect(abs(x - (50 + 100 * (0.55 - 0.1 * Double(5 - k)))) < 1e-6, "particle \(k) at \(x)") }
        #expect(early.allSatisfy { $0.position.y == 50 })
        // A second later the oldest are gone: births in the last second only.
        #expect(e.particles(atTime: start + 2.05).count == 10)
        #expect(e.particles(atTime: start + 2.05).map(\.age).max()! < 1)
    }

    @Test("the same seed gives the same particles whatever frames came before; another seed, others; the clock set back starts over")
    func reproducible() {
        func run(seed: UInt32, frames: [Double]) -> [Particle] {
            let (_, root, clock) = makeRenderer()
            let e = emitter(in: root) {
                $0.birthRate = 40; $0.lifetime = 2; $0.lifetimeRange = 0.5
                $0.velocity = 60; $0.velocityRange = 30; $0.emissionRange = .pi; $0.spin = 2; $0.spinRange = 1
                $0.scale = 1; $0.scaleRange = 0.5; $0.redRange = 0.3; $0.yAcceleration = 20
            }
            Transaction.withoutActions { e.seed = seed; e.emitterShape = .rectangle; e.emitterSize = Size(width: 40, height: 20) }
            let start = clock.now
            _ = e.particles(atTime: start)
            var last: [Particle] = []
            for f in frames { last = e.particles(atTime: start + f) }
            return last
        }
        let stepped = run(seed: 7, frames: stride(from: 0.0, through: 1.5, by: 1.0 / 60).map { $0 } + [1.5])
        let jumped = run(seed: 7, frames: [1.5])
        let back = run(seed: 7, frames: [3.0, 1.5])   // forward past, then back to 1.5
        let other = run(seed: 8, frames: [1.5])
        #expect(stepped.count > 40 && stepped.count == jumped.count && jumped.count == back.count)
        #expect(zip(stepped, jumped).allSatisfy { $0.position == $1.position && $0.color == $1.color && $0.angle == $1.angle })
        #expect(zip(back, jumped).allSatisfy { $0.position == $1.position })
        #expect(!zip(other, jumped).allSatisfy { $0.position == $1.position })
        // Ranges: every speed within 60 ± 30 (distance from the birth point over age, ignoring the fall).
        #expect(Set(jumped.map { ($0.scale * 100).rounded() }).count > 5)
        #expect(jumped.allSatisfy { $0.color.red >= 0.7 - 1e-9 && $0.color.red <= 1 })
    }

    @Test("a cell's birth rate animates by key path: births slow as it falls, and particles already out stay where they are")
    func keyPathAnimation() {
        let (_, root, clock) = makeRenderer()
        let e = emitter(in: root) { $0.birthRate = 100; $0.lifetime = 10; $0.velocity = 10 }
        let start = clock.now
        let seen = Diagnostics.recording {
            let fall = BasicAnimation(keyPath: "emitterCells.spark.birthRate")
            fall.fromValue = 100.0
            fall.toValue = 0.0
            fall.duration = 1
            fall.beginTime = start
            e.add(fall, forKey: "fall")
            Transaction.flush()
        }
        #expect(seen.isEmpty, "\(seen)")
        clock.now = start + 0.5
        #expect(abs((e.presentation()?.value(forKeyPath: "emitterCells.spark.birthRate") as? Double ?? -1) - 50) < 1e-9)
        let half = e.particles(atTime: start + 0.5)
        // ∫ 100(1 − t) dt over 0…0.5 = 37.5 births.
        #expect(abs(half.count - 37) <= 1, "\(half.count)")
        let later = e.particles(atTime: start + 2)
        // ∫ over 0…1 = 50; nothing after the animation ends? The model's 100 a second again from 1 s: 150 in all.
        #expect(abs(later.count - 150) <= 2, "\(later.count)")
        let again = e.particles(atTime: start + 0.5)   // back in time: the same first half
        #expect(again.count == half.count && zip(again, half).allSatisfy { $0.position == $1.position })
    }

    @Test("nested cells: each particle emits its cell's particles from where it is, through its life")
    func nestedCells() {
        let (_, root, clock) = makeRenderer()
        let sub = EmitterCell()
        sub.contents = Self.dot
        sub.birthRate = 10
        sub.lifetime = 0.25
        let e = emitter(in: root) { $0.birthRate = 1; $0.lifetime = 0.95; $0.velocity = 100; $0.emitterCells = [sub] }
        let start = clock.now
        // One parent born at 1 s; at 1.5 s its children were born at 1.1 … 1.5 s, those within 0.25 s live.
        let ps = e.particles(atTime: start + 1.5)
        #expect(ps.count == 1 + 3, "\(ps.count)")
        let children = ps.filter { $0.age < 0.3 && $0.position.x < 50 + 100 * 0.5 - 1 }
        #expect(children.count == 2, "\(ps.map(\.position))")
    }

    @Test("a billion births a second and an endless life fill the budget and no more; NaN in a cell emits nothing")
    func budget() {
        let (r, root, clock) = makeRenderer()
        let e = emitter(in: root) { $0.birthRate = 1e9; $0.lifetime = .infinity; $0.contents = nil }
        let many = e.particles(atTime: clock.now + 0.5)
        #expect(many.count == EmitterLayer.maximumParticles)
        #expect(e.particles(atTime: clock.now + 1).count == EmitterLayer.maximumParticles)
        _ = r.render(atTime: clock.now + 1)
        let bad = emitter(in: root) { $0.birthRate = 10; $0.lifetime = 1; $0.velocity = .nan }
        #expect(bad.particles(atTime: clock.now + 0.5).isEmpty)
    }

    @Test("particles draw their contents' shape in their colour, additively when asked; damage-tracked frames equal full ones")
    func pixels() {
        let (r, root, clock) = makeRenderer()
        Transaction.withoutActions { root.backgroundColor = .black }
        let e = emitter(in: root) { $0.birthRate = 2; $0.lifetime = 10; $0.velocity = 20; $0.color = Color(red: 1, green: 0, blue: 0, alpha: 0.5) }
        let start = clock.now
        clock.now = start + 1.01   // births at 0.5 s (x = 60.2) and 1 s (x = 50.2)
        let img = r.render()
        #expect(near(img.rgba8(x: 60, y: 50), (128, 0, 0, 255), 2) && near(img.rgba8(x: 50, y: 50), (128, 0, 0, 255), 2))
        #expect(near(img.rgba8(x: 55, y: 50), (0, 0, 0, 255), 0) && near(img.rgba8(x: 30, y: 30), (0, 0, 0, 255), 0))
        // Frames of a busy emitter, damage-tracked, against full repaints.
        Transaction.withoutActions {
            e.emitterCells![0].emissionRange = .pi
            e.emitterCells![0].birthRate = 30
        }
        for _ in 0..<6 {
            clock.now += 0.1
            let same = r.render() == fresh(root, width: 100, height: 100)
            #expect(same, "at \(clock.now)")
        }
        #expect(e.hasAnimations && e.animationKeys.isEmpty)
        #expect(AnimationTimeline.nextChangeTime(after: clock.now) == clock.now, "an emitter keeps frames coming")
        // Additive: two particles on one spot add up.
        let (r2, root2, clock2) = makeRenderer()
        Transaction.withoutActions { root2.backgroundColor = .black }
        let both = emitter(in: root2) { $0.birthRate = 1000; $0.lifetime = 10; $0.color = Color(red: 0.2, green: 0, blue: 0) }
        Transaction.withoutActions { both.renderMode = .additive }
        clock2.now += 0.0021   // two births, both still at the emitter point
        #expect(near(r2.render().rgba8(x: 50, y: 50), (102, 0, 0, 255), 2))
    }
    @Test("particles keep what they were born with: a later change to the cell, or a moved emitter, reaches new particles only")
    func birthValuesKept() {
        let (_, root, clock) = makeRenderer()
        let e = emitter(in: root) { $0.birthRate = 10; $0.lifetime = 5; $0.velocity = 100 }
        let start = clock.now
        _ = e.particles(atTime: start + 0.55)   // five born, moving right
        Transaction.withoutActions {
            e.setValue(0.0, forKeyPath: "emitterCells.spark.velocity")
            e.emitterPosition = Point(x: 10, y: 90)
        }
        let later = e.particles(atTime: start + 1.05)
        let moving = later.filter { $0.position.y == 50 }, still = later.filter { $0.position == Point(x: 10, y: 90) }
        #expect(moving.count == 5 && still.count == 5, "\(later.map(\.position))")
        // The first, born at 0.1 s, has gone 0.95 s at 100 points a second.
        #expect(moving.contains { abs($0.position.x - 145) < 1e-6 })
    }
}
