/// Which parts of a view's frame stretch when its superview's size changes
/// (`UIView.AutoresizingMask`).
public struct AutoresizingMask: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
    public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
    public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
    public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
    public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)

    /// The frame after the superview's size changed from `old` to `new`: the
    /// change in each direction is shared among the flexible parts (margins,
    /// size) in proportion to their current lengths, equally when those are all 0.
    func resized(_ frame: Rect, from old: Size, to new: Size) -> Rect {
        let (x, w) = Self.share(new.width - old.width, start: frame.minX, length: frame.width, end: old.width - frame.maxX,
                                flexible: (contains(.flexibleLeftMargin), contains(.flexibleWidth), contains(.flexibleRightMargin)))
        let (y, h) = Self.share(new.height - old.height, start: frame.minY, length: frame.height, end: old.height - frame.maxY,
                                flexible: (contains(.flexibleTopMargin), contains(.flexibleHeight), contains(.flexibleBottomMargin)))
        return Rect(x: x, y: y, width: max(0, w), height: max(0, h))
    }

    private static func share(_ delta: Double, start: Double, length: Double, end: Double,
                              flexible: (Bool, Bool, Bool)) -> (start: Double, length: Double) {
        let parts = [(flexible.0, start), (flexible.1, length), (flexible.2, end)].map { ($0.0, max(0, $0.1)) }
        let flexibleParts = parts.filter(\.0)
        guard !flexibleParts.isEmpty, delta != 0 else { return (start, length) }
        let total = flexibleParts.reduce(0) { $0 + $1.1 }
        func portion(_ i: Int) -> Double {
            guard parts[i].0 else { return 0 }
            return total > 0 ? delta * parts[i].1 / total : delta / Double(flexibleParts.count)
        }
        return (start + portion(0), length + portion(1))
    }
}
