/// A relation between two anchors — `first = second × multiplier + constant`,
/// or `≤`, `≥` — or between a size and a constant (`NSLayoutConstraint`, rule C2).
///
/// A constraint does nothing until it is activated; activating installs it on
/// the nearest common ancestor of its items (listed in its ``View/constraints``)
/// and hands it to the layout engine of that view's tree. Changing ``constant``
/// marks layout as needed and is solved from the current solution, not from
/// scratch; inside an animation block, `layoutIfNeeded()` then animates every
/// frame the change moves (rule C3).
///
/// Bad input, as UIKit refuses it: items in different trees, a location related
/// to a constant, x related to y (the typed anchors rule it out), NaN or ∞
/// constants and multipliers, a position multiplied by 0 — refused with a
/// diagnostic. A required constraint that cannot hold with the others is broken
/// (left out of the solution, still active), with a diagnostic naming every
/// constraint in the conflict.
@MainActor
public final class LayoutConstraint: @preconcurrency CustomStringConvertible {
    /// The view or layout guide on the left-hand side.
    public private(set) weak var firstItem: AnyObject?
    public let firstAttribute: LayoutAttribute
    public let relation: LayoutRelation
    /// The view or layout guide on the right-hand side; nil for a size set to a constant.
    public private(set) weak var secondItem: AnyObject?
    public let secondAttribute: LayoutAttribute
    public let multiplier: Double

    /// The constant added to the right-hand side. NaN or ∞ is refused, the old value kept.
    public var constant: Double {
        didSet {
            guard constant != oldValue else { return }
            guard constant.isFinite else {
                Diagnostics.report(.layoutConstraints("constant \(constant) refused for \(self); kept \(oldValue)"))
                constant = oldValue
                return
            }
            engine?.constantChanged(self, from: oldValue)
        }
    }

    /// How much it matters; 1000 is required. An active constraint cannot change
    /// between required and optional (UIKit refuses it too): deactivate it first.
    public var priority: LayoutPriority = .required {
        didSet {
            guard priority != oldValue else { return }
            let clamped = LayoutPriority(min(1000, max(1, priority.rawValue.isNaN ? oldValue.rawValue : priority.rawValue)))
            if clamped != priority { priority = clamped; return }
            if isActive && (priority == .required) != (oldValue == .required) {
                Diagnostics.report(.layoutConstraints("an active constraint cannot change between required and optional: \(self); kept \(oldValue.rawValue)"))
                priority = oldValue
                return
            }
            engine?.priorityChanged(self)
        }
    }

    /// A name shown in diagnostics and descriptions.
    public var identifier: String?

    /// Whether the constraint takes part in layout. Setting it activates or
    /// deactivates it (`isActive`).
    public var isActive: Bool {
        get { installedView != nil }
        set { newValue ? activate() : deactivate() }
    }

    /// The view it is installed on: the nearest common ancestor of its items.
    weak var installedView: View?
    /// The view whose layout direction says which side leading is (nil: the first
    /// item's): a stack view's arrangement follows the stack.
    weak var directionSource: View?
    /// The engine holding it while active.
    var engine: LayoutEngine? { installedView?.hierarchyTop.ownLayoutEngine }
    /// Set while it is left out of the solution for a conflict.
    public internal(set) var isBroken = false

    init<A>(_ first: LayoutAnchor<A>, _ relation: LayoutRelation, _ second: LayoutAnchor<A>?, multiplier: Double, constant: Double) {
        firstItem = first.item
        firstAttribute = first.attribute
        self.relation = relation
        secondItem = second?.item
        secondAttribute = second?.attribute ?? .notAnAttribute
        self.multiplier = multiplier
        self.constant = constant
    }

    /// UIKit's general form (`init(item:attribute:relatedBy:toItem:attribute:multiplier:constant:)`):
    /// `item.attribute relation toItem.attribute × multiplier + constant`. Items are
    /// views or layout guides; a nil `toItem` with `.notAnAttribute` relates a size
    /// to the constant. Pairings UIKit refuses (x with y, a size with a location, a
    /// location with a constant) are made but refused when activated, with a diagnostic.
    public init(item: AnyObject, attribute: LayoutAttribute, relatedBy relation: LayoutRelation,
                toItem: AnyObject?, attribute second: LayoutAttribute, multiplier: Double, constant: Double) {
        firstItem = item
        firstAttribute = attribute
        self.relation = relation
        secondItem = toItem
        secondAttribute = toItem == nil ? .notAnAttribute : second
        self.multiplier = multiplier
        self.constant = constant
    }

    /// Activates every constraint in one go (`activate(_:)`).
    public static func activate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.activate() }
    }

    /// Deactivates every constraint in one go (`deactivate(_:)`).
    public static func deactivate(_ constraints: [LayoutConstraint]) {
        for c in constraints { c.deactivate() }
    }

    /// Why UIKit would refuse the constraint, or nil.
    var refusal: String? {
        guard let first = firstItem else { return "its first item is gone" }
        guard multiplier.isFinite else { return "the multiplier \(multiplier) is not finite" }
        guard firstAttribute != .notAnAttribute else { return "the first attribute is notAnAttribute" }
        guard let second = secondItem else {
            if secondAttribute != .notAnAttribute { return "its second item is gone" }
            return firstAttribute.isDimension ? nil : "a location (\(firstAttribute)) cannot equal a constant"
        }
        guard LayoutEngine.isItem(first), LayoutEngine.isItem(second) else { return "its items must be views or layout guides" }
        if firstAttribute.isDimension != secondAttribute.isDimension { return "a size cannot be related to a location" }
        if !firstAttribute.isDimension && firstAttribute.isHorizontal != secondAttribute.isHorizontal {
            return "an x-axis attribute cannot be related to a y-axis one"
        }
        let directional: Set<LayoutAttribute> = [.leading, .trailing], absolute: Set<LayoutAttribute> = [.left, .right]
        if directional.contains(firstAttribute) && absolute.contains(secondAttribute) || absolute.contains(firstAttribute) && directional.contains(secondAttribute) {
            return "leading and trailing cannot be related to left and right"
        }
        if !firstAttribute.isDimension && multiplier == 0 { return "a location multiplied by 0 would equal a constant" }
        return nil
    }

    private func activate() {
        guard installedView == nil else { return }
        if let reason = refusal {
            return Diagnostics.report(.layoutConstraints("cannot activate \(self): \(reason)"))
        }
        guard let ancestor = LayoutEngine.commonAncestor(firstItem!, secondItem) else {
            return Diagnostics.report(.layoutConstraints("cannot activate \(self): its items have no common ancestor (they are in different view trees)"))
        }
        installedView = ancestor
        ancestor.autoLayout.constraints.append(self)
        ancestor.hierarchyTop.layoutEngine.add(self)
    }

    private func deactivate() {
        guard let view = installedView else { return }
        engine?.remove(self)
        view.autoLayout.constraints.removeAll { $0 === self }
        installedView = nil
        isBroken = false
    }

    public var description: String {
        func name(_ item: AnyObject?) -> String {
            switch item {
            case let v as View: "\(type(of: v))(\(v.accessibilityIdentifier ?? (v.tag != 0 ? "tag \(v.tag)" : "\(ObjectIdentifier(v).hashValue & 0xffff)")))"
            case let g as LayoutGuide: "LayoutGuide(\(g.identifier))"
            default: "nil"
            }
        }
        let op = relation == .equal ? "==" : relation == .lessThanOrEqual ? "<=" : ">="
        var rhs = secondItem == nil && secondAttribute == .notAnAttribute ? "" : "\(name(secondItem)).\(secondAttribute)"
        if multiplier != 1 && !rhs.isEmpty { rhs += " × \(multiplier)" }
        if constant != 0 || rhs.isEmpty { rhs += rhs.isEmpty ? "\(constant)" : (constant < 0 ? " - \(-constant)" : " + \(constant)") }
        let p = priority == .required ? "" : " @\(priority.rawValue)"
        return (identifier.map { "'\($0)' " } ?? "") + "\(name(firstItem)).\(firstAttribute) \(op) \(rhs)\(p)"
    }
}
