/// The parts of a view or layout guide a constraint can relate (`NSLayoutConstraint.Attribute`).
public enum LayoutAttribute: Hashable, Sendable {
    case left, right, top, bottom, leading, trailing, width, height, centerX, centerY
    case firstBaseline, lastBaseline
    /// The second attribute of a constraint that relates a size to a constant.
    case notAnAttribute

    var isHorizontal: Bool { [.left, .right, .leading, .trailing, .centerX, .width].contains(self) }
    var isDimension: Bool { self == .width || self == .height }
}

/// How a constraint's two sides compare (`NSLayoutConstraint.Relation`).
public enum LayoutRelation: Hashable, Sendable { case lessThanOrEqual, equal, greaterThanOrEqual }

/// One edge, centre, baseline or size of a view or layout guide, for making
/// constraints (`NSLayoutAnchor`). Anchors of different kinds cannot be related:
/// the type parameter keeps x-axis anchors to x-axis anchors, as in UIKit.
@MainActor
public class LayoutAnchor<AnchorType: AnyObject> {
    weak var item: AnyObject?
    let attribute: LayoutAttribute

    init(_ item: AnyObject, _ attribute: LayoutAttribute) {
        self.item = item
        self.attribute = attribute
    }

    /// `self = anchor + constant` (inactive until activated).
    public func constraint(equalTo anchor: LayoutAnchor<AnchorType>, constant: Double = 0) -> LayoutConstraint {
        LayoutConstraint(self, .equal, anchor, multiplier: 1, constant: constant)
    }
    /// `self ≥ anchor + constant`.
    public func constraint(greaterThanOrEqualTo anchor: LayoutAnchor<AnchorType>, constant: Double = 0) -> LayoutConstraint {
        LayoutConstraint(self, .greaterThanOrEqual, anchor, multiplier: 1, constant: constant)
    }
    /// `self ≤ anchor + constant`.
    public func constraint(lessThanOrEqualTo anchor: LayoutAnchor<AnchorType>, constant: Double = 0) -> LayoutConstraint {
        LayoutConstraint(self, .lessThanOrEqual, anchor, multiplier: 1, constant: constant)
    }
}

/// A left, right, leading, trailing or centre-x anchor (`NSLayoutXAxisAnchor`).
@MainActor public final class LayoutXAxisAnchor: LayoutAnchor<LayoutXAxisAnchor> {}
/// A top, bottom, centre-y or baseline anchor (`NSLayoutYAxisAnchor`).
@MainActor public final class LayoutYAxisAnchor: LayoutAnchor<LayoutYAxisAnchor> {}

/// A width or height anchor (`NSLayoutDimension`): also relates to constants and
/// to other dimensions with a multiplier.
@MainActor
public final class LayoutDimension: LayoutAnchor<LayoutDimension> {
    /// `self = constant`.
    public func constraint(equalToConstant constant: Double) -> LayoutConstraint {
        LayoutConstraint(self, .equal, nil, multiplier: 1, constant: constant)
    }
    /// `self ≥ constant`.
    public func constraint(greaterThanOrEqualToConstant constant: Double) -> LayoutConstraint {
        LayoutConstraint(self, .greaterThanOrEqual, nil, multiplier: 1, constant: constant)
    }
    /// `self ≤ constant`.
    public func constraint(lessThanOrEqualToConstant constant: Double) -> LayoutConstraint {
        LayoutConstraint(self, .lessThanOrEqual, nil, multiplier: 1, constant: constant)
    }
    /// `self = anchor × multiplier + constant`.
    public func constraint(equalTo anchor: LayoutDimension, multiplier: Double, constant: Double = 0) -> LayoutConstraint {
        LayoutConstraint(self, .equal, anchor, multiplier: multiplier, constant: constant)
    }
    /// `self ≥ anchor × multiplier + constant`.
    public func constraint(greaterThanOrEqualTo anchor: LayoutDimension, multiplier: Double, constant: Double = 0) -> LayoutConstraint {
        LayoutConstraint(self, .greaterThanOrEqual, anchor, multiplier: multiplier, constant: constant)
    }
    /// `self ≤ anchor × multiplier + constant`.
    public func constraint(lessThanOrEqualTo anchor: LayoutDimension, multiplier: Double, constant: Double = 0) -> LayoutConstraint {
        LayoutConstraint(self, .lessThanOrEqual, anchor, multiplier: multiplier, constant: constant)
    }
}

/// What constraints can place: a ``View`` or a ``LayoutGuide`` (UIKit's layout items),
/// with the anchors both have.
@MainActor
public protocol LayoutItem: AnyObject {}

extension LayoutItem {
    public var leadingAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .leading) }
    public var trailingAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .trailing) }
    public var leftAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .left) }
    public var rightAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .right) }
    public var centerXAnchor: LayoutXAxisAnchor { LayoutXAxisAnchor(self, .centerX) }
    public var topAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .top) }
    public var bottomAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .bottom) }
    public var centerYAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .centerY) }
    public var widthAnchor: LayoutDimension { LayoutDimension(self, .width) }
    public var heightAnchor: LayoutDimension { LayoutDimension(self, .height) }
}
