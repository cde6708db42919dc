/// The constraints of one view tree and their solution (UIKit's layout engine):
/// owned by the tree's topmost view, kept up to date incrementally as
/// constraints come and go and as constants, frames and intrinsic sizes change,
/// and applied to the views' frames in the layout pass.
///
/// Each view or guide a constraint reaches has four variables: its frame's
/// origin in its superview's (or owning view's) coordinates, and its size. An
/// anchor is expressed in the space of the constraint's nearest common ancestor
/// by adding the origins on the way up, so a subtree can move without its inner
/// constraints changing. A view that translates its autoresizing mask into
/// constraints has its frame as required inputs; one that does not gets its
/// intrinsic size as hugging and compression-resistance constraints (rule C2).
/// Origins ignore scrolling: constraints to a scroll view place its content.
@MainActor
final class LayoutEngine {
    private var solver = SimplexSolver()

    /// The variables of one view or guide, and what the engine puts in for it.
    final class Record {
        weak var item: AnyObject?
        let x, y, width, height: Int
        /// How many active constraints (and guides) reach it.
        var uses = 0
        var inputs: [Input] = []
        init(_ item: AnyObject, _ vars: (Int, Int, Int, Int)) {
            self.item = item
            (x, y, width, height) = vars
        }
    }

    /// `Σ terms relation value` at a priority, kept so it can be put in again.
    struct Input {
        var axis: LayoutAxis
        var terms: [(Int, Double)]
        var relation: SimplexSolver.Relation
        var priority: Float
        var tag: SimplexSolver.Tag?
        var value: Double
        var text: String
        var description: String { text.replacing("%v", with: "\(value)") }
    }

    private struct Active {
        let constraint: LayoutConstraint
        var tag: SimplexSolver.Tag?
        let records: [Record]
        var leadingIsRight: Bool
    }

    private var records: [ObjectIdentifier: Record] = [:]
    private var active: [ObjectIdentifier: Active] = [:]
    /// Insertion order, so re-adding after a move keeps it.
    private var order: [LayoutConstraint] = []
    private unowned let top: View
    /// Set when the solution may have moved since frames were last applied.
    private(set) var needsApply = false
    private var applying = false
    /// Set when a layout direction may have changed: leading and trailing are looked at again.
    private var directionsMayHaveChanged = false

    init(top: View) { self.top = top }

    var constraints: [LayoutConstraint] { order }

    static func isItem(_ item: AnyObject) -> Bool { item is View || item is LayoutGuide }

    static func parent(of item: AnyObject) -> View? {
        (item as? View)?.superview ?? (item as? LayoutGuide)?.owningView
    }

    /// The nearest view that is `a` or `b` or an ancestor of both (a guide counts as
    /// its owning view's child); nil when they are in different trees.
    static func commonAncestor(_ a: AnyObject, _ b: AnyObject?) -> View? {
        guard let b else { return a as? View ?? (a as? LayoutGuide)?.owningView }
        var seen = Set<ObjectIdentifier>()
        var p: AnyObject? = a
        while let item = p { seen.insert(ObjectIdentifier(item)); p = parent(of: item) }
        p = b
        while let item = p {
            if seen.contains(ObjectIdentifier(item)) { return item as? View ?? (item as? LayoutGuide)?.owningView }
            p = parent(of: item)
        }
        return nil
    }

    private func changed() {
        needsApply = true
        top.setNeedsLayout()
    }

    // MARK: Records

    private func record(_ item: AnyObject) -> Record {
        if let r = records[ObjectIdentifier(item)], r.item === item { return r }
        let r = Record(item, (solver.makeVariable(), solver.makeVariable(), solver.makeVariable(), solver.makeVariable()))
        records[ObjectIdentifier(item)] = r
        if let view = item as? View {
            view.autoLayout.engineOfRecord = self
            addInputs(r, view)
        } else if let guide = item as? LayoutGuide, let owner = guide.owningView, guide.insets != nil {
            let o = record(owner)
            o.uses += 1
            addGuideInputs(r, guide, owner: o)
        }
        return r
    }

    private func release(_ r: Record) {
        r.uses -= 1
        guard r.uses <= 0, let item = r.item else { return }
        for i in r.inputs { if let t = i.tag { solver.remove(t) } }
        r.inputs = []
        records[ObjectIdentifier(item)] = nil
        if let view = item as? View, view.autoLayout.engineOfRecord === self { view.autoLayout.engineOfRecord = nil }
        if let guide = item as? LayoutGuide, guide.insets != nil, let owner = guide.owningView, let o = records[ObjectIdentifier(owner)] { release(o) }
    }

    private func addInput(_ r: Record, _ axis: LayoutAxis, _ terms: [(Int, Double)], _ relation: SimplexSolver.Relation, _ value: Double, _ priority: Float, _ text: String) {
        var input = Input(axis: axis, terms: terms, relation: relation, priority: priority, tag: nil, value: value, text: text)
        input.tag = put(input)
        r.inputs.append(input)
    }

    private func put(_ input: Input) -> SimplexSolver.Tag? {
        let e = SimplexSolver.Expression(terms: input.terms.map { (variable: $0.0, coefficient: $0.1) }, constant: -input.value)
        do {
            return try solver.add(e, input.relation, priority: input.priority)
        } catch {
            Diagnostics.report(.layoutConstraints("\(input.description) cannot hold with the active constraints; left out"))
            return nil
        }
    }

    /// A view's frame (translating its autoresizing mask) or its intrinsic size.
    /// A view in no tree yet (no superview, no window) translates its frame just
    /// below required: its own constraints win without a conflict (UIKit makes a
    /// view's mask into constraints only once it is placed, so a width set before
    /// the view joins a stack is no conflict there either), and a subtree laid out
    /// on its own still follows its top's frame.
    private func addInputs(_ r: Record, _ view: View) {
        let name = "\(type(of: view))"
        if view.translatesAutoresizingMaskIntoConstraints {
            let f = view.untransformedFrame
            let p: Float = view.superview == nil && view.window == nil ? 999 : 1000
            addInput(r, .horizontal, [(r.x, 1)], .equal, f.minX, p, "\(name).minX == %v (its frame)")
            addInput(r, .vertical, [(r.y, 1)], .equal, f.minY, p, "\(name).minY == %v (its frame)")
            addInput(r, .horizontal, [(r.width, 1)], .equal, f.width, p, "\(name).width == %v (its frame)")
            addInput(r, .vertical, [(r.height, 1)], .equal, f.height, p, "\(name).height == %v (its frame)")
        } else {
            let size = view.intrinsicContentSize
            for (axis, v, value) in [(LayoutAxis.horizontal, r.width, size.width), (.vertical, r.height, size.height)] where value >= 0 && value.isFinite {
                let hug = view.contentHuggingPriority(for: axis).rawValue, resist = view.contentCompressionResistancePriority(for: axis).rawValue
                let dim = axis == .horizontal ? "width" : "height"
                addInput(r, axis, [(v, 1)], .lessOrEqual, value, hug, "\(name).\(dim) <= %v @\(hug) (hugging)")
                addInput(r, axis, [(v, 1)], .greaterOrEqual, value, resist, "\(name).\(dim) >= %v @\(resist) (compression resistance)")
            }
        }
    }

    private func addGuideInputs(_ r: Record, _ guide: LayoutGuide, owner o: Record) {
        let i = guide.insets!(guide.owningView!)
        let name = "LayoutGuide(\(guide.identifier))"
        addInput(r, .horizontal, [(r.x, 1)], .equal, i.left, 1000, "\(name).minX == %v")
        addInput(r, .vertical, [(r.y, 1)], .equal, i.top, 1000, "\(name).minY == %v")
        addInput(r, .horizontal, [(r.width, 1), (o.width, -1)], .equal, -(i.left + i.right), 1000, "\(name).width == owner.width + %v")
        addInput(r, .vertical, [(r.height, 1), (o.height, -1)], .equal, -(i.top + i.bottom), 1000, "\(name).height == owner.height + %v")
    }

    /// Moves input `index` of `r` to hold `value`, incrementally.
    private func setInput(_ r: Record, _ index: Int, _ value: Double) {
        let old = r.inputs[index]
        guard abs(old.value - value) > 1e-9, value.isFinite else { return }
        r.inputs[index].value = value
        if let tag = old.tag, solver.changeConstant(tag, by: -(value - old.value)) { return changed() }
        // Left out before, or now fighting the constraints: put in again (which reports it).
        if let tag = old.tag { solver.remove(tag) }
        r.inputs[index].tag = put(r.inputs[index])
        changed()
    }

    private func rebuildInputs(_ r: Record) {
        for i in r.inputs { if let t = i.tag { solver.remove(t) } }
        r.inputs = []
        if let view = r.item as? View { addInputs(r, view) }
        else if let guide = r.item as? LayoutGuide, let owner = guide.owningView, let o = records[ObjectIdentifier(owner)] { addGuideInputs(r, guide, owner: o) }
        changed()
    }

    // MARK: What changes

    /// A view that translates its mask into constraints moved or resized.
    func geometryChanged(_ view: View) {
        guard !applying || view.translatesAutoresizingMaskIntoConstraints,
              let r = records[ObjectIdentifier(view)], view.translatesAutoresizingMaskIntoConstraints, r.inputs.count == 4 else { return }
        let f = view.untransformedFrame
        for (i, v) in [f.minX, f.minY, f.width, f.height].enumerated() { setInput(r, i, v) }
    }

    func intrinsicSizeChanged(_ view: View) {
        guard let r = records[ObjectIdentifier(view)], !view.translatesAutoresizingMaskIntoConstraints else { return }
        let size = view.intrinsicContentSize
        let hasAxes = Set(r.inputs.map(\.axis))
        let wants = Set([(LayoutAxis.horizontal, size.width), (.vertical, size.height)].filter { $0.1 >= 0 && $0.1.isFinite }.map(\.0))
        guard hasAxes == wants else { return rebuildInputs(r) }
        for i in r.inputs.indices { setInput(r, i, r.inputs[i].axis == .horizontal ? size.width : size.height) }
    }

    /// Hugging or compression priorities, or whether the mask is translated, changed.
    func inputsChanged(_ view: View) {
        if let r = records[ObjectIdentifier(view)] { rebuildInputs(r) }
    }

    /// Insets of the safe-area or margins guides may have moved.
    private func refreshGuides() {
        for r in records.values {
            guard let guide = r.item as? LayoutGuide, let owner = guide.owningView, let insets = guide.insets, r.inputs.count == 4 else { continue }
            let i = insets(owner)
            for (index, v) in [i.left, i.top, -(i.left + i.right), -(i.top + i.bottom)].enumerated() { setInput(r, index, v) }
        }
    }

    /// Set when a view in the tree asked for `updateConstraints` before the next apply.
    private var constraintUpdatesPending = false
    var hasConstraintUpdatesPending: Bool { constraintUpdatesPending }

    func constraintsNeedUpdate(in view: View) {
        constraintUpdatesPending = true
        changed()
    }

    /// The constraint pass: the pending `updateConstraints` of the tree's views.
    private func runConstraintUpdates() {
        guard constraintUpdatesPending else { return }
        constraintUpdatesPending = false
        top.updateConstraintsIfNeeded()
    }

    /// Margins or the safe area may have changed: the guides are read again at the next apply.
    func guidesMayHaveMoved() { changed() }

    /// A view's layout direction may have changed (its traits, its semantic
    /// content attribute, a move to another window): at the next apply, constraints
    /// between leading and trailing anchors are solved again where it did.
    func layoutDirectionMayHaveChanged() {
        directionsMayHaveChanged = true
        changed()
    }

    /// Leading is the right side where the first item (or the constraint's
    /// direction source, a stack view for its arrangement) runs right to left.
    private static func isRightToLeft(_ c: LayoutConstraint) -> Bool {
        let item = c.firstItem
        let view = c.directionSource ?? item as? View ?? (item as? LayoutGuide)?.owningView
        return view?.effectiveUserInterfaceLayoutDirection == .rightToLeft
    }

    /// All the constraints whose direction flipped come out first, then go back in:
    /// one at a time, half-flipped layouts would conflict on the way.
    private func resolveDirections() {
        directionsMayHaveChanged = false
        let flipped = order.filter { c in
            [.leading, .trailing].contains(c.firstAttribute) && active[ObjectIdentifier(c)].map { $0.leadingIsRight != Self.isRightToLeft(c) } == true
        }
        for c in flipped {
            if let tag = active[ObjectIdentifier(c)]!.tag { solver.remove(tag) }
            active[ObjectIdentifier(c)]!.tag = nil
            active[ObjectIdentifier(c)]!.leadingIsRight.toggle()
        }
        for c in flipped {
            guard let ancestor = c.installedView else { continue }
            active[ObjectIdentifier(c)]!.tag = solve(c, in: ancestor, rtl: active[ObjectIdentifier(c)]!.leadingIsRight)
        }
        if !flipped.isEmpty { needsApply = true }
    }

    // MARK: Constraints

    func add(_ c: LayoutConstraint) {
        guard let ancestor = c.installedView, let first = c.firstItem else { return }
        var used: [Record] = []
        func chain(_ item: AnyObject) {
            var p: AnyObject? = item
            while let i = p, i !== ancestor {
                used.append(record(i))
                p = Self.parent(of: i)
            }
        }
        chain(first)
        if let second = c.secondItem { chain(second) }
        if first === ancestor || c.secondItem === ancestor { used.append(record(ancestor)) }
        for r in used { r.uses += 1 }
        let rtl = Self.isRightToLeft(c)
        var entry = Active(constraint: c, tag: nil, records: used, leadingIsRight: rtl)
        entry.tag = solve(c, in: ancestor, rtl: rtl)
        active[ObjectIdentifier(c)] = entry
        order.append(c)
        changed()
    }

    /// Puts `c` in the solver; nil (and a diagnostic) when it conflicts.
    private func solve(_ c: LayoutConstraint, in ancestor: View, rtl: Bool) -> SimplexSolver.Tag? {
        var e = expression(c.firstItem!, c.firstAttribute, in: ancestor, rtl: rtl)
        if let second = c.secondItem {
            let s = expression(second, c.secondAttribute, in: ancestor, rtl: rtl)
            e.terms += s.terms.map { (variable: $0.variable, coefficient: -$0.coefficient * c.multiplier) }
            e.constant -= s.constant * c.multiplier
        }
        // Right to left, a constraint between leading and trailing edges is mirrored:
        // its offset runs leftwards and "before" becomes "after" (UIKit's mirroring).
        let mirrored = rtl && [.leading, .trailing].contains(c.firstAttribute)
        e.constant -= mirrored ? -c.constant : c.constant
        let relation: SimplexSolver.Relation = switch c.relation {
        case .equal: .equal
        case .lessThanOrEqual: mirrored ? .greaterOrEqual : .lessOrEqual
        case .greaterThanOrEqual: mirrored ? .lessOrEqual : .greaterOrEqual
        }
        do {
            let tag = try solver.add(e, relation, priority: c.priority.rawValue)
            c.isBroken = false
            return tag
        } catch {
            c.isBroken = true
            var involved: [String] = []
            let markers = Set(error.markers)
            for a in order where active[ObjectIdentifier(a)]?.tag.map({ markers.contains($0.marker) }) ?? false { involved.append(a.description) }
            for r in records.values {
                for i in r.inputs where i.tag.map({ markers.contains($0.marker) }) ?? false { involved.append(i.description) }
            }
            Diagnostics.report(.layoutConstraints("these required constraints cannot all hold:\n    " + (involved + [c.description]).joined(separator: "\n    ")
                + "\n  breaking \(c)"))
            return nil
        }
    }

    private func expression(_ item: AnyObject, _ attribute: LayoutAttribute, in ancestor: View, rtl: Bool) -> SimplexSolver.Expression {
        var e = SimplexSolver.Expression()
        let own = item === ancestor
        let r = record(item)
        var attribute = attribute
        if attribute == .leading { attribute = rtl ? .right : .left }
        if attribute == .trailing { attribute = rtl ? .left : .right }
        if !own && !attribute.isDimension {
            var p: AnyObject? = item
            while let i = p, i !== ancestor {
                let ir = record(i)
                e.terms.append((variable: attribute.isHorizontal ? ir.x : ir.y, coefficient: 1))
                p = Self.parent(of: i)
            }
        }
        let view = item as? View
        switch attribute {
        case .left, .top: break
        case .right: e.terms.append((variable: r.width, coefficient: 1))
        case .bottom: e.terms.append((variable: r.height, coefficient: 1))
        case .centerX: e.terms.append((variable: r.width, coefficient: 0.5))
        case .centerY: e.terms.append((variable: r.height, coefficient: 0.5))
        case .width: e.terms.append((variable: r.width, coefficient: 1))
        case .height: e.terms.append((variable: r.height, coefficient: 1))
        case .firstBaseline:
            if let offset = view?.firstBaselineOffsetFromTop { e.constant += offset } else { e.terms.append((variable: r.height, coefficient: 1)) }
        case .lastBaseline:
            e.terms.append((variable: r.height, coefficient: 1))
            e.constant -= view?.lastBaselineOffsetFromBottom ?? 0
        case .leading, .trailing, .notAnAttribute: break
        }
        return e
    }

    func remove(_ c: LayoutConstraint) {
        guard let entry = active.removeValue(forKey: ObjectIdentifier(c)) else { return }
        order.removeAll { $0 === c }
        if let tag = entry.tag { solver.remove(tag) }
        for r in entry.records { release(r) }
        changed()
    }

    func constantChanged(_ c: LayoutConstraint, from old: Double) {
        guard var entry = active[ObjectIdentifier(c)] else { return }
        let sign = entry.leadingIsRight && [.leading, .trailing].contains(c.firstAttribute) ? -1.0 : 1.0
        if let tag = entry.tag, solver.changeConstant(tag, by: -sign * (c.constant - old)) {
            return changed()
        }
        // Broken, or now in conflict: put in again (which reports a conflict).
        if let tag = entry.tag { solver.remove(tag) }
        entry.tag = c.installedView.flatMap { solve(c, in: $0, rtl: entry.leadingIsRight) }
        active[ObjectIdentifier(c)] = entry
        changed()
    }

    func priorityChanged(_ c: LayoutConstraint) {
        guard var entry = active[ObjectIdentifier(c)], let ancestor = c.installedView else { return }
        if let tag = entry.tag { solver.remove(tag) }
        entry.tag = solve(c, in: ancestor, rtl: entry.leadingIsRight)
        active[ObjectIdentifier(c)] = entry
        changed()
    }

    /// Takes out the constraints a leaving subtree takes with it (installed inside
    /// it) and deactivates those that reach out of it, as UIKit does.
    func detach(_ subtree: View) -> [LayoutConstraint] {
        var moving: [LayoutConstraint] = []
        for c in order {
            guard let installed = c.installedView else { continue }
            if installed.isDescendant(of: subtree) {
                remove(c)
                moving.append(c)
            } else if [c.firstItem, c.secondItem].contains(where: { item in
                guard let item, let v = item as? View ?? (item as? LayoutGuide)?.owningView else { return false }
                return v.isDescendant(of: subtree)
            }) {
                c.isActive = false
            }
        }
        return moving
    }

    /// Re-adds constraints that came with a subtree, as active as before.
    func attach(_ moved: [LayoutConstraint]) {
        for c in moved where c.installedView != nil { add(c) }
        directionsMayHaveChanged = true   // in another window, the traits may differ
    }

    // MARK: The solution

    /// Sets the frames of the views laid out by constraints from the solution
    /// (rounded to the pixel grid, as UIKit does); inside an animation block they
    /// animate. Frames that move views translating their masks feed back in, and
    /// the guides follow: a few rounds at most.
    func apply() {
        guard needsApply, !applying else { return }
        if solver.stoppedEarly {
            solver.stoppedEarly = false
            Diagnostics.report(.layoutConstraints("the solver stopped after \(solver.pivotLimit) steps (numbers too large or too small to order reliably); the layout may not be the best"))
        }
        applying = true
        defer { applying = false }
        for _ in 0..<8 {
            needsApply = false
            runConstraintUpdates()
            if directionsMayHaveChanged { resolveDirections() }
            refreshGuides()
            for r in records.values {
                guard let view = r.item as? View, !view.translatesAutoresizingMaskIntoConstraints else { continue }
                let s = max(1, view.contentScaleFactor)
                func px(_ v: Double) -> Double { (v * s).rounded() / s }
                let x0 = px(solver.value(r.x)), y0 = px(solver.value(r.y))
                let x1 = px(solver.value(r.x) + solver.value(r.width)), y1 = px(solver.value(r.y) + solver.value(r.height))
                view.setUntransformedFrame(Rect(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0)))
            }
            if !needsApply { break }
        }
        needsApply = false
    }

    /// The size of `view` with its width and height pulled towards `target` at the
    /// given priorities instead of held by its frame; nothing stays changed.
    func fittingSize(of view: View, target: Size, priorities: (Float, Float)) -> Size {
        let r = record(view)
        r.uses += 1
        defer { release(r) }
        // While measuring, the view's own size is not an input.
        let sizeInputs = view.translatesAutoresizingMaskIntoConstraints ? r.inputs.indices.filter { r.inputs[$0].terms.first?.0 == r.width || r.inputs[$0].terms.first?.0 == r.height } : []
        for i in sizeInputs { if let t = r.inputs[i].tag { solver.remove(t) } }
        var pulls: [SimplexSolver.Tag] = []
        for (v, value, p) in [(r.width, target.width, priorities.0), (r.height, target.height, priorities.1)] {
            if let t = try? solver.add(.init(terms: [(variable: v, coefficient: 1)], constant: -value), .equal, priority: min(p, 999)) { pulls.append(t) }
        }
        let size = Size(width: max(0, solver.value(r.width)), height: max(0, solver.value(r.height)))
        for t in pulls { solver.remove(t) }
        for i in sizeInputs { r.inputs[i].tag = put(r.inputs[i]) }
        return size
    }

    /// A guide's frame in its owning view, from the solution.
    func frame(of item: AnyObject) -> Rect? {
        guard let r = records[ObjectIdentifier(item)] else { return nil }
        return Rect(x: solver.value(r.x), y: solver.value(r.y), width: solver.value(r.width), height: solver.value(r.height))
    }

    /// Whether the constraints leave the view's frame free to move (`hasAmbiguousLayout`).
    func isAmbiguous(_ view: View) -> Bool {
        guard let r = records[ObjectIdentifier(view)] else { return false }
        return [r.x, r.y, r.width, r.height].contains { solver.isAmbiguous($0) }
    }
}
