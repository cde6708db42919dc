@testable import Strata
import Testing

/// The incremental solver against a solve from scratch: after random additions,
/// removals and constant changes, every variable has the value a fresh solver
/// given the same constraints finds (rule C2).
@Suite("Simplex solver")
struct SimplexSolverTests {
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func int(_ n: Int) -> Int { Int(next() % UInt64(n)) }
        mutating func value() -> Double { Double(int(2001)) / 4 - 250 }
    }

    struct Spec {
        var terms: [(variable: Int, coefficient: Double)]
        var constant: Double
        var relation: SimplexSolver.Relation
        var priority: Float
    }

    /// Adds `specs` in order to a fresh solver with `count` variables.
    func fresh(_ specs: [Spec], count: Int) throws -> SimplexSolver {
        var s = SimplexSolver()
        for _ in 0..<count { _ = s.makeVariable() }
        for spec in specs { _ = try s.add(SimplexSolver.Expression(terms: spec.terms, constant: spec.constant), spec.relation, priority: spec.priority) }
        return s
    }

    @Test("random edits solved incrementally equal a solve from scratch", arguments: 0..<40)
    func incrementalEqualsFresh(seed: Int) throws {
        var rng = SplitMix(state: UInt64(seed) &* 7919 &+ 17)
        let count = 8
        var solver = SimplexSolver()
        var vars: [Int] = []
        for _ in 0..<count { vars.append(solver.makeVariable()) }
        var live: [(id: Int, spec: Spec, tag: SimplexSolver.Tag)] = []
        var nextID = 0
        var usedPriorities = Set<Float>()
        // Stays at the lowest, distinct priorities make the solution unique.
        for (i, v) in vars.enumerated() {
            let spec = Spec(terms: [(v, 1)], constant: -rng.value(), relation: .equal, priority: 1 + Float(i) / 10)
            live.append((nextID, spec, try solver.add(SimplexSolver.Expression(terms: spec.terms, constant: spec.constant), spec.relation, priority: spec.priority)))
            nextID += 1
        }
        var equalityFor: [Int: Int] = [:]   // variable → id of its required equality (a forest: to lower variables only)
        for _ in 0..<60 {
            switch rng.int(5) {
            case 0, 1:   // an optional constraint at a priority of its own
                var p: Float
                repeat { p = Float(10 + rng.int(980)) } while usedPriorities.contains(p)
                usedPriorities.insert(p)
                let a = vars[rng.int(count)], b = vars[rng.int(count)]
                let relation: SimplexSolver.Relation = [.equal, .lessOrEqual, .greaterOrEqual][rng.int(3)]
                let spec = Spec(terms: [(a, 1), (b, -Double(1 + rng.int(3)) / 2)], constant: rng.value(), relation: relation, priority: p)
                live.append((nextID, spec, try solver.add(SimplexSolver.Expression(terms: spec.terms, constant: spec.constant), spec.relation, priority: spec.priority)))
                nextID += 1
            case 2:      // a required equality tying a variable to a lower one
                let i = 1 + rng.int(count - 1)
                guard equalityFor[i] == nil else { continue }
                let spec = Spec(terms: [(vars[i], 1), (vars[rng.int(i)], -1)], constant: rng.value(), relation: .equal, priority: 1000)
                live.append((nextID, spec, try solver.add(SimplexSolver.Expression(terms: spec.terms, constant: spec.constant), spec.relation, priority: 1000)))
                equalityFor[i] = nextID
                nextID += 1
            case 3:      // remove one (never a stay)
                guard live.count > count else { continue }
                let k = count + rng.int(live.count - count)
                solver.remove(live[k].tag)
                if let (i, _) = equalityFor.first(where: { $0.value == live[k].id }) { equalityFor[i] = nil }
                usedPriorities.remove(live[k].spec.priority)
                live.remove(at: k)
            default:     // change a constant, stays included
                let k = rng.int(live.count)
                let delta = rng.value()
                let changed = solver.changeConstant(live[k].tag, by: delta)
                #expect(changed)
                live[k].spec.constant += delta
            }
            let reference = try fresh(live.map(\.spec), count: count)
            for v in vars {
                #expect(abs(solver.value(v) - reference.value(v)) < 1e-6, "seed \(seed): variable \(v) is \(solver.value(v)), from scratch \(reference.value(v))")
            }
        }
    }

    @Test("a required constraint that cannot hold is refused and changes nothing; a constant that would break one is refused")
    func conflicts() throws {
        var s = SimplexSolver()
        let x = s.makeVariable(), y = s.makeVariable()
        _ = try s.add(.init(terms: [(x, 1)], constant: -10), .equal, priority: 1000)
        let ge = try s.add(.init(terms: [(y, 1), (x, -1)], constant: 0), .greaterOrEqual, priority: 1000)   // y ≥ x
        _ = try s.add(.init(terms: [(y, 1)], constant: -50), .equal, priority: 500)
        #expect(s.value(x) == 10 && s.value(y) == 50)
        #expect(throws: SolverConflict.self) { _ = try s.add(.init(terms: [(y, 1)], constant: -5), .lessOrEqual, priority: 1000) }
        #expect(throws: SolverConflict.self) { _ = try s.add(.init(terms: [(x, 1)], constant: -11), .equal, priority: 1000) }
        #expect(s.value(x) == 10 && s.value(y) == 50)
        let le = try s.add(.init(terms: [(y, 1)], constant: -60), .lessOrEqual, priority: 1000)               // y ≤ 60
        let by55 = s.changeConstant(le, by: 55); #expect(!by55)   // y ≤ 5 would break y ≥ x = 10
        #expect(s.value(y) == 50)
        let by20 = s.changeConstant(le, by: 20); #expect(by20)    // y ≤ 40
        #expect(s.value(y) == 40)
        s.remove(ge)
        let by35 = s.changeConstant(le, by: 35); #expect(by35)    // y ≤ 5, now allowed
        #expect(s.value(y) == 5 && s.value(x) == 10)
    }
}

extension SimplexSolverTests {
    @Test("optional hugging at one level: the least total error wins")
    func huggingLevel() throws {
        var s = SimplexSolver()
        let w0 = s.makeVariable(), w1 = s.makeVariable(), w2 = s.makeVariable(), f = s.makeVariable()
        for (w, i) in [(w0, 51.0), (w1, 48), (w2, 80)] {
            _ = try s.add(.init(terms: [(w, 1)], constant: -i), .lessOrEqual, priority: 251)
            _ = try s.add(.init(terms: [(w, 1)], constant: -i), .greaterOrEqual, priority: 750)
        }
        _ = try s.add(.init(terms: [(w1, 1), (w0, -1)], constant: 0), .equal, priority: 1000)
        _ = try s.add(.init(terms: [(w2, 1), (w0, -1)], constant: 0), .equal, priority: 1000)
        _ = try s.add(.init(terms: [(w0, 1), (f, 1)], constant: -476), .equal, priority: 1000)
        #expect(s.value(w0) == 80 && s.value(f) == 396)
    }
}
