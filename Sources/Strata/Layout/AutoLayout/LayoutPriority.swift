/// How much a constraint matters (`UILayoutPriority`): 1…1000, where 1000 is
/// required and anything less is optional (rule C2).
public struct LayoutPriority: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    public var rawValue: Float
    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }
    public init(floatLiteral value: Float) { rawValue = value }
    public init(integerLiteral value: Int) { rawValue = Float(value) }

    /// Must hold (1000).
    public static let required = LayoutPriority(1000)
    /// A button's compression resistance (750).
    public static let defaultHigh = LayoutPriority(750)
    /// A button's content hugging (250).
    public static let defaultLow = LayoutPriority(250)
    /// What `systemLayoutSizeFitting` pulls towards the target size with (50).
    public static let fittingSizeLevel = LayoutPriority(50)

    public static func < (a: LayoutPriority, b: LayoutPriority) -> Bool { a.rawValue < b.rawValue }
    public static func + (p: LayoutPriority, d: Float) -> LayoutPriority { LayoutPriority(p.rawValue + d) }
    public static func - (p: LayoutPriority, d: Float) -> LayoutPriority { LayoutPriority(p.rawValue - d) }
}

/// The axis a view's hugging and compression resistance are for (`NSLayoutConstraint.Axis`).
public enum LayoutAxis: Hashable, Sendable { case horizontal, vertical }
