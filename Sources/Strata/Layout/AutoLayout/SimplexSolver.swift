/// An incremental Cassowary solver (Badros, Borning and Stuckey's algorithm, the
/// family UIKit's layout engine belongs to): linear equalities and inequalities
/// over variables, each required or optional with a priority.
///
/// Required constraints hold exactly; a required constraint that cannot hold with
/// the others is refused (``SolverConflict`` names the constraints it fought).
/// Optional ones are met in priority order: a higher priority is never given up
/// for any number of lower ones (the objective is lexicographic, one row per
/// priority level), and within a level the sum of the errors is smallest.
/// Adding, removing and changing a constant work on the tableau in place (a
/// constant change is a dual-simplex step from the current solution), never from
/// scratch. Ties are broken by the lowest symbol (Bland's rule), so a solve is
/// deterministic and cannot cycle.
struct SimplexSolver {
    enum Relation: Sendable { case equal, lessOrEqual, greaterOrEqual }

    /// A linear expression: Σ coefficient·variable + constant.
    struct Expression {
        var terms: [(variable: Int, coefficient: Double)] = []
        var constant = 0.0
    }

    /// The tag of a constraint in the tableau: its marker (a slack, an error or a
    /// dummy symbol) and, for optional ones, the second symbol (the other error).
    struct Tag {
        var marker: Int
        var other: Int?
        /// The marker's coefficient in the constraint's first row, before any sign change.
        var markerCoefficient: Double
        /// Nil for a required constraint.
        var priority: Float?
    }

    private enum Kind: UInt8 { case external, slack, error, dummy }

    private struct Row {
        var constant: Double
        var cells: [Int: Double] = [:]

        init(_ constant: Double) { self.constant = constant }

        mutating func add(_ symbol: Int, _ coefficient: Double) {
            let v = (cells[symbol] ?? 0) + coefficient
            if abs(v) < SimplexSolver.epsilon { cells[symbol] = nil } else { cells[symbol] = v }
        }
        mutating func add(_ row: Row, times coefficient: Double) {
            constant += row.constant * coefficient
            if cells.isEmpty {
                cells = coefficient == 1 ? row.cells : row.cells.mapValues { $0 * coefficient }
                return
            }
            cells.reserveCapacity(cells.count + row.cells.count)
            for (s, c) in row.cells { add(s, c * coefficient) }
        }
        /// From 0 = constant + Σ cells to symbol = constant′ + Σ cells′.
        mutating func solve(for symbol: Int) {
            let k = -1 / cells.removeValue(forKey: symbol)!
            constant *= k
            cells = cells.mapValues { $0 * k }
        }
        /// From lhs = constant + Σ cells (rhs among them) to rhs = ….
        mutating func solve(for lhs: Int, entering rhs: Int) {
            add(lhs, -1)
            solve(for: rhs)
        }
        mutating func substitute(_ symbol: Int, by row: Row) {
            if let c = cells.removeValue(forKey: symbol) { add(row, times: c) }
        }
        mutating func negate() {
            constant = -constant
            cells = cells.mapValues { -$0 }
        }
    }

    static let epsilon = 1e-8

    private var kinds: [Kind] = []
    /// Basic symbol → its row: basic = constant + Σ cells (parametric symbols).
    private var rows: [Int: Row] = [:]
    /// Which rows each parametric symbol appears in (by their basic symbols).
    private var columns: [Int: Set<Int>] = [:]
    /// One objective row per priority level, highest first (`levels`).
    private var objective: [Row] = []
    private var levels: [Float] = []
    private var infeasible: [Int] = []
    /// Symbols whose objective coefficients changed since the objective was last
    /// optimal: the only ones that can enter (the others cannot improve it).
    private var touched = Set<Int>()
    /// While minimising an artificial variable: its objective.
    private var artificial: Row?
    /// While an operation may have to be undone: each touched row as it was.
    private var journal: (rows: [Int: Row?], constants: [Int: Double], objective: [Row], levels: [Float])?

    /// A new variable, free (unrestricted in sign); the number names it.
    mutating func makeVariable() -> Int {
        kinds.append(.external)
        return kinds.count - 1
    }

    /// The value of variable `v` in the current solution.
    func value(_ v: Int) -> Double { rows[v]?.constant ?? 0 }


    private mutating func newSymbol(_ kind: Kind) -> Int {
        kinds.append(kind)
        return kinds.count - 1
    }

    // MARK: Rows and columns kept together (and journaled)

    private mutating func save(_ basic: Int) {
        guard journal != nil, journal!.rows.index(forKey: basic) == nil else { return }
        var row = rows[basic]
        if let shifted = journal!.constants[basic] { row?.constant = shifted }   // as it was before the shift
        journal!.rows[basic] = .some(row)
    }
    private mutating func setRow(_ basic: Int, _ row: Row) {
        save(basic)
        rows[basic] = row
        for s in row.cells.keys where kinds[s] != .dummy { columns[s, default: []].insert(basic) }
    }
    private mutating func takeRow(_ basic: Int) -> Row? {
        save(basic)
        guard let row = rows.removeValue(forKey: basic) else { return nil }
        for s in row.cells.keys where kinds[s] != .dummy { columns[s]?.remove(basic) }
        return row
    }
    /// Moves the constant of the row of `basic` (its symbols stay: no index work,
    /// and the journal keeps the old constant only).
    private mutating func shiftConstant(_ basic: Int, by delta: Double) {
        if journal != nil, journal!.rows.index(forKey: basic) == nil, journal!.constants.index(forKey: basic) == nil {
            journal!.constants[basic] = rows[basic]!.constant
        }
        rows[basic]!.constant += delta
    }

    /// Changes the row of `basic` in place, keeping the column index right.
    private mutating func editRow(_ basic: Int, _ body: (inout Row) -> Void) {
        guard rows[basic] != nil else { return }
        save(basic)
        let before = Array(rows[basic]!.cells.keys)
        body(&rows[basic]!)
        for s in before where kinds[s] != .dummy && rows[basic]!.cells[s] == nil { columns[s]?.remove(basic) }
        for s in rows[basic]!.cells.keys where kinds[s] != .dummy { columns[s, default: []].insert(basic) }
    }

    /// The rows `s` appears in, lowest first. Dummies are not indexed (required
    /// equalities' dummies fill long rows, and only removing or changing such a
    /// constraint asks for them): their rows are found by a scan.
    private func rowsContaining(_ s: Int) -> [Int] {
        if kinds[s] == .dummy { return rows.compactMap { $0.value.cells[s] != nil ? $0.key : nil }.sorted() }
        return (columns[s] ?? []).sorted()
    }

    private mutating func beginUndoable() {
        journal = ([:], [:], objective, levels)
        infeasible = []
    }
    private mutating func commit() { journal = nil }
    private mutating func rollBack() {
        guard let j = journal else { return }
        journal = nil
        for (basic, old) in j.constants where j.rows.index(forKey: basic) == nil { rows[basic]?.constant = old }
        for (basic, old) in j.rows {
            if let now = rows.removeValue(forKey: basic) { for s in now.cells.keys where kinds[s] != .dummy { columns[s]?.remove(basic) } }
            if let old { rows[basic] = old; for s in old.cells.keys where kinds[s] != .dummy { columns[s, default: []].insert(basic) } }
        }
        objective = j.objective
        levels = j.levels
        infeasible = []
        artificial = nil
        touched = []
    }

    // MARK: Adding and removing

    /// Adds `expression relation 0`. A priority of 1000 or more is required.
    /// Throws ``SolverConflict`` when a required constraint cannot hold; nothing
    /// is changed then.
    mutating func add(_ expression: Expression, _ relation: Relation, priority: Float) throws(SolverConflict) -> Tag {
        let optional: Float? = priority >= 1000 ? nil : priority
        var row = Row(expression.constant)
        for (v, c) in expression.terms where abs(c) > Self.epsilon {
            if let basic = rows[v] { row.add(basic, times: c) } else { row.add(v, c) }
        }
        var tag: Tag
        var costs: [Int] = []
        switch relation {
        case .lessOrEqual, .greaterOrEqual:
            let k = relation == .lessOrEqual ? 1.0 : -1.0
            let slack = newSymbol(.slack)
            row.add(slack, k)
            tag = Tag(marker: slack, other: nil, markerCoefficient: k, priority: optional)
            if optional != nil {
                let error = newSymbol(.error)
                row.add(error, -k)
                costs = [error]
                tag.other = error
            }
        case .equal:
            if optional != nil {
                let plus = newSymbol(.error), minus = newSymbol(.error)
                row.add(plus, -1)
                row.add(minus, 1)
                costs = [plus, minus]
                tag = Tag(marker: plus, other: minus, markerCoefficient: -1, priority: optional)
            } else {
                let dummy = newSymbol(.dummy)
                row.add(dummy, 1)
                tag = Tag(marker: dummy, other: nil, markerCoefficient: 1, priority: nil)
            }
        }
        if let optional {
            let level = levelIndex(for: optional)
            for e in costs { objective[level].add(e, 1) }
        }
        if row.constant < 0 { row.negate() }

        if let subject = chooseSubject(row, tag) {
            row.solve(for: subject)
            substitute(subject, by: row)
            setRow(subject, row)
        } else if row.cells.keys.allSatisfy({ kinds[$0] == .dummy }) {
            guard abs(row.constant) < Self.epsilon else {
                throw SolverConflict(markers: row.cells.keys.filter { $0 != tag.marker }.sorted())
            }
            row.solve(for: tag.marker)
            substitute(tag.marker, by: row)
            setRow(tag.marker, row)
        } else {
            beginUndoable()
            let (ok, involved) = addWithArtificialVariable(row)
            guard ok else {
                rollBack()
                throw SolverConflict(markers: involved.filter { $0 != tag.marker && $0 != tag.other }.sorted())
            }
            commit()
        }
        optimize()
        infeasible = []
        return tag
    }

    /// Takes out a constraint added before.
    mutating func remove(_ tag: Tag) {
        if let p = tag.priority, let level = levels.firstIndex(of: p) {
            for s in [tag.marker, tag.other].compactMap({ $0 }) where kinds[s] == .error {
                if let row = rows[s] {
                    objective[level].add(row, times: -1)
                    touched.formUnion(row.cells.keys)
                } else {
                    objective[level].add(s, -1)
                    touched.insert(s)
                }
            }
        }
        if takeRow(tag.marker) == nil, let leaving = markerLeavingRow(tag.marker) {
            var row = takeRow(leaving)!
            row.solve(for: leaving, entering: tag.marker)
            substitute(tag.marker, by: row)
        }
        // The constraint's symbols leave the tableau: fixed at 0, which they are
        // as parametric symbols; a basic one is defined by nothing else any more.
        for s in [tag.marker, tag.other].compactMap({ $0 }) {
            _ = takeRow(s)
            for basic in rowsContaining(s) { editRow(basic) { $0.cells[s] = nil } }
            columns[s] = nil
            for i in objective.indices { objective[i].cells[s] = nil }
        }
        optimize()
        infeasible = []
    }

    /// Changes the constant of a constraint's expression by `delta`, from the
    /// current solution (dual simplex). Returns false, changing nothing, when the
    /// new constant breaks required constraints (the caller adds it again, which
    /// reports the conflict).
    mutating func changeConstant(_ tag: Tag, by delta: Double) -> Bool {
        let shift = delta / tag.markerCoefficient
        if kinds[tag.marker] == .dummy && (rows[tag.marker] != nil || rowsContaining(tag.marker).contains { kinds[$0] == .dummy }) {
            return false
        }
        beginUndoable()
        if rows[tag.marker] != nil {
            shiftConstant(tag.marker, by: -shift)
            if rows[tag.marker]!.constant < 0 { infeasible.append(tag.marker) }
        } else if let other = tag.other, kinds[other] == .error, rows[other] != nil {
            shiftConstant(other, by: shift)
            if rows[other]!.constant < 0 { infeasible.append(other) }
        } else {
            for basic in rowsContaining(tag.marker) {
                let c = rows[basic]!.cells[tag.marker]!
                shiftConstant(basic, by: c * shift)
                if kinds[basic] != .external && rows[basic]!.constant < 0 { infeasible.append(basic) }
            }
        }
        guard dualOptimize() else {
            rollBack()
            return false
        }
        commit()
        return true
    }

    // MARK: The steps

    private mutating func levelIndex(for priority: Float) -> Int {
        if let i = levels.firstIndex(of: priority) { return i }
        let i = levels.firstIndex { $0 < priority } ?? levels.count
        levels.insert(priority, at: i)
        objective.insert(Row(0), at: i)
        return i
    }

    private func chooseSubject(_ row: Row, _ tag: Tag) -> Int? {
        if let s = row.cells.keys.filter({ kinds[$0] == .external }).min() { return s }
        for s in [tag.marker, tag.other].compactMap({ $0 }) where kinds[s] == .slack || kinds[s] == .error {
            if (row.cells[s] ?? 0) < 0 { return s }
        }
        return nil
    }

    /// Puts `row` in with an artificial variable and minimises it; the row holds
    /// when it reaches 0. Returns whether it did, and the symbols left in the
    /// artificial objective when not (the constraints in the way).
    private mutating func addWithArtificialVariable(_ row: Row) -> (Bool, [Int]) {
        let art = newSymbol(.slack)
        setRow(art, row)
        artificial = row
        optimize()
        let ok = abs(artificial!.constant) < Self.epsilon
        let involved = Array(artificial!.cells.keys)
        artificial = nil
        guard ok else { return (false, involved) }
        if var basic = takeRow(art), !basic.cells.isEmpty {
            guard let entering = basic.cells.keys.filter({ kinds[$0] != .dummy }).min() else { return (false, involved) }
            basic.solve(for: art, entering: entering)
            substitute(entering, by: basic)
            setRow(entering, basic)
        }
        for b in columns[art] ?? [] { editRow(b) { $0.cells[art] = nil } }
        columns[art] = nil
        for i in objective.indices { objective[i].cells[art] = nil }
        return (true, [])
    }

    private mutating func substitute(_ symbol: Int, by row: Row) {
        for basic in rowsContaining(symbol) {
            substitute(symbol, by: row, inRowOf: basic)
            if kinds[basic] != .external && rows[basic]!.constant < 0 { infeasible.append(basic) }
        }
        columns[symbol] = nil
        for i in objective.indices where objective[i].cells[symbol] != nil {
            objective[i].substitute(symbol, by: row)
            touched.formUnion(row.cells.keys)
        }
        if artificial?.cells[symbol] != nil { artificial!.substitute(symbol, by: row) }
    }

    /// Replaces `symbol` in the row of `basic` by `row`: work and index updates in
    /// proportion to `row`, however long the row of `basic` is.
    private mutating func substitute(_ symbol: Int, by row: Row, inRowOf basic: Int) {
        save(basic)
        guard let c = rows[basic]!.cells.removeValue(forKey: symbol) else { return }
        rows[basic]!.constant += row.constant * c
        for (s, v) in row.cells {
            let old = rows[basic]!.cells[s]
            let new = (old ?? 0) + v * c
            if abs(new) < Self.epsilon {
                if old != nil {
                    rows[basic]!.cells[s] = nil
                    if kinds[s] != .dummy { columns[s]?.remove(basic) }
                }
            } else {
                if old == nil && kinds[s] != .dummy { columns[s, default: []].insert(basic) }
                rows[basic]!.cells[s] = new
            }
        }
    }

    /// The primal simplex over the lexicographic objective (or the artificial one).
    private mutating func optimize() {
        var pivots = 0
        while let entering = artificial != nil ? artificialEntering() : enteringSymbol() {
            // Bland's rule ends every solve in exact arithmetic; rounding in extreme
            // numbers could still cycle, so a solve stops at a bound (the values are
            // then feasible, perhaps not the best).
            pivots += 1
            if pivots > pivotLimit { stoppedEarly = true; return }
            var best: (ratio: Double, basic: Int)?
            for basic in columns[entering] ?? [] where kinds[basic] != .external {
                let c = rows[basic]!.cells[entering]!
                guard c < 0 else { continue }
                let r = -rows[basic]!.constant / c
                if best == nil || r < best!.ratio - Self.epsilon || (abs(r - best!.ratio) <= Self.epsilon && basic < best!.basic) {
                    best = (r, basic)
                }
            }
            // An objective of errors is bounded below by 0: some row always blocks.
            guard let leaving = best?.basic else { return }
            var row = takeRow(leaving)!
            row.solve(for: leaving, entering: entering)
            substitute(entering, by: row)
            setRow(entering, row)
        }
    }

    private func artificialEntering() -> Int? {
        artificial!.cells.filter { $0.value < -Self.epsilon && kinds[$0.key] != .dummy }.keys.min()
    }

    /// The lowest symbol whose objective coefficients, highest level first, begin
    /// with a negative one.
    private mutating func enteringSymbol() -> Int? {
        var candidates = Set<Int>()
        var found: Int?
        for s in touched where kinds[s] != .dummy {
            for level in objective {
                let c = level.cells[s] ?? 0
                if c > Self.epsilon { break }
                if c < -Self.epsilon {
                    candidates.insert(s)
                    if found == nil || s < found! { found = s }
                    break
                }
            }
        }
        touched = candidates
        return found
    }

    /// The dual simplex: rows made negative by a constant change are pivoted back.
    /// False when one cannot be (the required constraints have no solution).
    private mutating func dualOptimize() -> Bool {
        var pivots = 0
        while let leaving = infeasible.popLast() {
            pivots += 1
            if pivots > pivotLimit { stoppedEarly = true; return false }
            guard let row = rows[leaving], row.constant < -Self.epsilon else { continue }
            var best: (ratio: [Double], symbol: Int)?
            for (s, c) in row.cells where c > 0 && kinds[s] != .dummy {
                let ratio = objective.map { ($0.cells[s] ?? 0) / c }
                if best == nil || Self.less(ratio, than: best!.ratio) || (!Self.less(best!.ratio, than: ratio) && s < best!.symbol) {
                    best = (ratio, s)
                }
            }
            guard let entering = best?.symbol else { return false }
            var r = takeRow(leaving)!
            r.solve(for: leaving, entering: entering)
            substitute(entering, by: r)
            setRow(entering, r)
        }
        return true
    }

    /// Pivots one solve may take: far more than any real layout needs.
    var pivotLimit: Int { 1_000 + 20 * kinds.count }
    /// Set when a solve stopped at ``pivotLimit``; the engine reports it.
    var stoppedEarly = false

    private static func less(_ a: [Double], than b: [Double]) -> Bool {
        for (x, y) in zip(a, b) where abs(x - y) > epsilon { return x < y }
        return false
    }

    private func markerLeavingRow(_ marker: Int) -> Int? {
        var r1 = Double.infinity, r2 = Double.infinity
        var first: Int?, second: Int?, third: Int?
        for basic in rowsContaining(marker) {
            let c = rows[basic]!.cells[marker]!
            if kinds[basic] == .external {
                if third == nil { third = basic }
            } else if c < 0 {
                let r = -rows[basic]!.constant / c
                if r < r1 { r1 = r; first = basic }
            } else {
                let r = rows[basic]!.constant / c
                if r < r2 { r2 = r; second = basic }
            }
        }
        return first ?? second ?? third
    }

    // MARK: Questions

    /// Whether `v` can move without breaking a constraint or costing any priority
    /// level: it is free, or its row has a parametric symbol that costs nothing at
    /// every level and the ratio test lets it move.
    func isAmbiguous(_ v: Int) -> Bool {
        guard let row = rows[v] else { return true }
        for s in row.cells.keys where kinds[s] != .dummy {
            if kinds[s] == .external { return true }
            guard objective.allSatisfy({ abs($0.cells[s] ?? 0) <= Self.epsilon }) else { continue }
            var step = Double.infinity
            for basic in columns[s] ?? [] where kinds[basic] != .external {
                let c = rows[basic]!.cells[s]!
                if c < 0 { step = min(step, -rows[basic]!.constant / c) }
            }
            if step > 1e-6 { return true }
        }
        return false
    }
}

/// A required constraint that cannot hold together with others already added.
struct SolverConflict: Error {
    /// The markers of the constraints it conflicts with (as far as the tableau shows them).
    let markers: [Int]
}
