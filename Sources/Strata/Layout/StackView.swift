/// Lines up its arranged subviews along an axis (`UIStackView`).
///
/// Each arranged subview takes its ``View/intrinsicContentSize`` along the axis
/// where it has one, else its current size; ``distribution`` shares out the
/// rest, ``alignment`` places them across. Hidden arranged subviews take no
/// room: hiding one inside an animation block lays the stack out in that block,
/// so the others animate into the gap, as on iOS.
@MainActor
public final class StackView: View {
    public enum Axis: Hashable, Sendable { case horizontal, vertical }
    /// Placement across the axis.
    public enum Alignment: Hashable, Sendable {
        case fill, leading, center, trailing
        public static let top = Alignment.leading
        public static let bottom = Alignment.trailing
    }
    /// How the length along the axis is shared.
    public enum Distribution: Hashable, Sendable {
        /// Natural sizes; the room left over (or missing) goes to the views
        /// without an intrinsic size, else to the last view.
        case fill
        /// Equal sizes.
        case fillEqually
        /// Natural sizes scaled to fill the length.
        case fillProportionally
        /// Natural sizes with equal gaps (at least `spacing`).
        case equalSpacing
        /// Natural sizes with centres equally far apart.
        case equalCentering
    }

    public private(set) var arrangedSubviews: [View] = []
    public var axis = Axis.horizontal { didSet { setNeedsLayout() } }
    /// The gap between neighbours (the smallest gap for `equalSpacing`).
    public var spacing = 0.0 { didSet { setNeedsLayout() } }
    public var alignment = Alignment.fill { didSet { setNeedsLayout() } }
    public var distribution = Distribution.fill { didSet { setNeedsLayout() } }

    public init(arrangedSubviews views: [View]) {
        super.init(frame: .zero)
        for v in views { addArrangedSubview(v) }
    }

    public override init(frame: Rect) {
        super.init(frame: frame)
    }

    /// Appends `view` to the arranged subviews (and the subviews).
    public func addArrangedSubview(_ view: View) {
        insertArrangedSubview(view, at: arrangedSubviews.count - (arrangedSubviews.contains { $0 === view } ? 1 : 0))
    }

    /// Inserts `view` among the arranged subviews at `index` (clamped).
    public func insertArrangedSubview(_ view: View, at index: Int) {
        guard !isDescendant(of: view) else {
            return Diagnostics.report(.invalidView("a stack view cannot arrange itself or a view it is inside"))
        }
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: min(max(0, index), arrangedSubviews.count))
        if view.superview !== self { addSubview(view) }
        setNeedsLayout()
    }

    /// Stops arranging `view`; it stays a subview, as in UIKit.
    public func removeArrangedSubview(_ view: View) {
        arrangedSubviews.removeAll { $0 === view }
        setNeedsLayout()
    }

    public override func willRemoveSubview(_ subview: View) {
        arrangedSubviews.removeAll { $0 === subview }
        setNeedsLayout()
    }

    /// An arranged subview was hidden or shown: lay out again, now when inside an
    /// animation block so the change animates.
    func arrangedSubviewVisibilityChanged() {
        setNeedsLayout()
        if AnimationBlock.stack.last?.animates == true { layoutIfNeeded() }
    }

    private var visible: [View] { arrangedSubviews.filter { !$0.isHidden } }

    /// The natural size of `view`: intrinsic where it has one, else its current size.
    private func natural(_ view: View) -> Size {
        let intrinsic = view.intrinsicContentSize, current = view.bounds.size
        return Size(width: intrinsic.width >= 0 ? intrinsic.width : current.width,
                    height: intrinsic.height >= 0 ? intrinsic.height : current.height)
    }

    private func along(_ s: Size) -> Double { axis == .horizontal ? s.width : s.height }
    private func across(_ s: Size) -> Double { axis == .horizontal ? s.height : s.width }

    public override var intrinsicContentSize: Size {
        let views = visible
        let length = views.reduce(0) { $0 + along(natural($1)) } + spacing * Double(max(0, views.count - 1))
        let thickness = views.map { across(natural($0)) }.max() ?? 0
        return axis == .horizontal ? Size(width: length, height: thickness) : Size(width: thickness, height: length)
    }

    public override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    public override func layoutSubviews() {
        let views = visible
        guard !views.isEmpty else { return }
        let length = along(bounds.size), thickness = across(bounds.size)
        let naturals = views.map(natural)
        var sizes = naturals.map(along)
        let gaps = Double(views.count - 1)
        let total = sizes.reduce(0, +)
        var gap = spacing
        switch distribution {
        case .fill:
            let extra = length - total - spacing * gaps
            let flexible = views.indices.filter { along(views[$0].intrinsicContentSize) < 0 }
            let takers = flexible.isEmpty ? [views.count - 1] : flexible
            for i in takers { sizes[i] = max(0, sizes[i] + extra / Double(takers.count)) }
        case .fillEqually:
            sizes = Array(repeating: max(0, (length - spacing * gaps) / Double(views.count)), count: views.count)
        case .fillProportionally:
            let room = max(0, length - spacing * gaps)
            sizes = total > 0 ? sizes.map { $0 * room / total } : Array(repeating: room / Double(views.count), count: views.count)
        case .equalSpacing:
            if gaps > 0 { gap = max(spacing, (length - total) / gaps) }
        case .equalCentering:
            break
        }
        var starts: [Double] = []
        if distribution == .equalCentering && views.count > 1 {
            let first = sizes[0] / 2, last = length - sizes[views.count - 1] / 2
            let step = max((last - first) / gaps, 0)
            for i in views.indices { starts.append(first + step * Double(i) - sizes[i] / 2) }
        } else {
            var offset = 0.0
            for s in sizes { starts.append(offset); offset += s + gap }
        }
        // Right to left (rule P3): a row runs from the right edge, and leading is the right side of a column.
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let leadingIsFar = rightToLeft && axis == .vertical
        for (i, view) in views.enumerated() {
            let cross: (start: Double, size: Double)
            let natural = across(naturals[i])
            switch alignment {
            case .fill: cross = (0, thickness)
            case .leading: cross = (leadingIsFar ? thickness - natural : 0, natural)
            case .center: cross = ((thickness - natural) / 2, natural)
            case .trailing: cross = (leadingIsFar ? 0 : thickness - natural, natural)
            }
            view.frame = axis == .horizontal
                ? Rect(x: rightToLeft ? length - starts[i] - sizes[i] : starts[i], y: cross.start, width: sizes[i], height: cross.size)
                : Rect(x: cross.start, y: starts[i], width: cross.size, height: sizes[i])
        }
    }
}
