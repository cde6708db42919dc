/// Lines up its arranged subviews along an axis (`UIStackView`), in
/// constraints, as on iOS: the stack makes and keeps up to date the
/// constraints that chain its arranged subviews edge to edge (``spacing``
/// apart), place them across (``alignment``) and share the length out
/// (``distribution``), so arranged views keep their own constraints and a stack
/// sits in constraints like any view. Arranged subviews stop translating their
/// autoresizing masks when added, as in UIKit.
///
/// Each arranged subview takes its ``View/intrinsicContentSize`` (with its
/// hugging and compression resistance) or what its own constraints give it.
/// With `fill`, the room left over goes to the views without an intrinsic size
/// along the axis (shared equally), else to the view hugging least (the last
/// of those that tie); missing room is taken from the view resisting
/// compression least (the last that ties). A view with no intrinsic size
/// across fills the stack across unless constrained. Hidden arranged subviews
/// take no room: hiding one inside an animation block lays the stack out in
/// that block, so the others animate into the gap, as on iOS. The stack's own
/// ``intrinsicContentSize`` is its arranged views' natural sizes and spacing,
/// so a stack sizes itself from its content where nothing else says.
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
    public var axis = Axis.horizontal { didSet { arrangementChanged() } }
    /// The gap between neighbours (the smallest gap for `equalSpacing` and `equalCentering`).
    public var spacing = 0.0 { didSet { arrangementChanged() } }
    public var alignment = Alignment.fill { didSet { arrangementChanged() } }
    public var distribution = Distribution.fill { didSet { arrangementChanged() } }

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
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
        arrangementChanged()
    }

    /// Stops arranging `view`; it stays a subview, as in UIKit.
    public func removeArrangedSubview(_ view: View) {
        arrangedSubviews.removeAll { $0 === view }
        arrangementChanged()
    }

    public override func willRemoveSubview(_ subview: View) {
        guard arrangedSubviews.contains(where: { $0 === subview }) else { return }
        arrangedSubviews.removeAll { $0 === subview }
        arrangementChanged()
    }

    /// An arranged subview was hidden or shown: lay out again, now when inside an
    /// animation block so the change animates.
    func arrangedSubviewVisibilityChanged() {
        arrangementChanged()
        if AnimationBlock.stack.last?.animates == true { layoutIfNeeded() }
    }

    /// An arranged subview's natural size, hugging or compression resistance
    /// changed: who stretches, and proportional shares, may change with it.
    func arrangedSubviewSizingChanged() { arrangementChanged() }

    private func arrangementChanged() {
        setNeedsUpdateConstraints()
        invalidateIntrinsicContentSize()
        setNeedsLayout()
    }

    private var visible: [View] { arrangedSubviews.filter { !$0.isHidden } }

    /// The natural size of `view`: its intrinsic size, 0 where it has none.
    private func natural(_ view: View) -> Size {
        let intrinsic = view.intrinsicContentSize
        return Size(width: max(0, intrinsic.width), height: max(0, intrinsic.height))
    }

    private func along(_ s: Size) -> Double { axis == .horizontal ? s.width : s.height }
    private func across(_ s: Size) -> Double { axis == .horizontal ? s.height : s.width }
    private var alongAxis: LayoutAxis { axis == .horizontal ? .horizontal : .vertical }
    private var acrossAxis: LayoutAxis { axis == .horizontal ? .vertical : .horizontal }

    public override var intrinsicContentSize: Size {
        let views = visible
        let length = views.reduce(0) { $0 + along(natural($1)) } + spacing * Double(max(0, views.count - 1))
        let thickness = views.map { across(natural($0)) }.max() ?? 0
        return axis == .horizontal ? Size(width: length, height: thickness) : Size(width: thickness, height: length)
    }

    public override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    // MARK: The arrangement in constraints

    /// The constraints the stack made (`UISV-…` in UIKit), and the spacer guides.
    private var arrangement: [LayoutConstraint] = []
    private var spacers: [LayoutGuide] = []

    /// Makes the arrangement's constraints again from the arranged subviews,
    /// the axis, spacing, alignment and distribution.
    public override func updateConstraints() {
        LayoutConstraint.deactivate(arrangement)
        for guide in spacers { removeLayoutGuide(guide) }
        arrangement = []
        spacers = []
        let views = visible
        guard !views.isEmpty else { return super.updateConstraints() }
        var made: [LayoutConstraint] = []
        let horizontal = axis == .horizontal
        // Attributes along the axis and across it.
        let (start, end, middle, length): (LayoutAttribute, LayoutAttribute, LayoutAttribute, LayoutAttribute) =
            horizontal ? (.leading, .trailing, .centerX, .width) : (.top, .bottom, .centerY, .height)
        let (crossStart, crossEnd, crossMiddle, thickness): (LayoutAttribute, LayoutAttribute, LayoutAttribute, LayoutAttribute) =
            horizontal ? (.top, .bottom, .centerY, .height) : (.leading, .trailing, .centerX, .width)
        /// `a.x relation b.y × multiplier + constant` (b nil: a constant), at a priority, named as UIKit names them.
        func add(_ name: String, _ a: AnyObject, _ x: LayoutAttribute, _ relation: LayoutRelation, _ b: AnyObject?, _ y: LayoutAttribute,
                 multiplier: Double = 1, constant: Double = 0, priority: LayoutPriority = .required) {
            let c = LayoutConstraint(item: a, attribute: x, relatedBy: relation, toItem: b, attribute: y, multiplier: multiplier, constant: constant)
            c.priority = priority
            c.identifier = "UISV-\(name)"
            c.directionSource = self
            made.append(c)
        }

        // Along: the first and last at the stack's ends, neighbours chained.
        add("canvas-connection", views[0], start, .equal, self, start)
        add("canvas-connection", self, end, .equal, views[views.count - 1], end)
        for i in views.indices.dropFirst() {
            let (a, b) = (views[i - 1], views[i])
            switch distribution {
            case .fill, .fillEqually, .fillProportionally:
                add("spacing", b, start, .equal, a, end, constant: spacing)
            case .equalSpacing:
                let gap = spacer("equal-spacing")
                add("spacing-guide", gap, start, .equal, a, end)
                add("spacing-guide", b, start, .equal, gap, end)
                add("spacing", gap, length, .greaterThanOrEqual, nil, .notAnAttribute, constant: spacing)
                if spacers[0] !== gap { add("fill-equally", gap, length, .equal, spacers[0], length) }
            case .equalCentering:
                let gap = spacer("equal-centering")
                add("spacing-guide", gap, start, .equal, a, middle)
                add("spacing-guide", gap, end, .equal, b, middle)
                if spacers[0] !== gap { add("fill-equally", gap, length, .equal, spacers[0], length, priority: LayoutPriority(999)) }
                add("spacing", b, start, .greaterThanOrEqual, a, end, constant: spacing)
            }
        }
        switch distribution {
        case .fill:
            // The room left over goes to the views without a natural length (equally), else to the
            // view hugging least; missing room comes from the one resisting compression least.
            let flexible = views.filter { along($0.intrinsicContentSize) < 0 }
            for v in flexible.dropFirst() { add("fill-equally-flexible", v, length, .equal, flexible[0], length, priority: LayoutPriority(1)) }
            guard flexible.isEmpty else { break }
            let hugging = views.map { $0.contentHuggingPriority(for: alongAxis) }
            let resisting = views.map { $0.contentCompressionResistancePriority(for: alongAxis) }
            let taker = hugging.lastIndex(of: hugging.min()!), giver = resisting.lastIndex(of: resisting.min()!)
            for (i, v) in views.enumerated() {
                let n = along(natural(v))
                if i != taker, hugging[i] < .required {
                    add("fill-hugging", v, length, .lessThanOrEqual, nil, .notAnAttribute, constant: n, priority: LayoutPriority(hugging[i].rawValue + 1))
                }
                if i != giver, resisting[i] < .required {
                    add("fill-compression", v, length, .greaterThanOrEqual, nil, .notAnAttribute, constant: n, priority: LayoutPriority(resisting[i].rawValue + 1))
                }
            }
        case .fillEqually:
            for v in views.dropFirst() { add("fill-equally", v, length, .equal, views[0], length) }
        case .fillProportionally:
            let total = views.reduce(0) { $0 + along(natural($1)) }
            let room = spacing * Double(views.count - 1)
            for v in views {
                let share = total > 0 ? along(natural(v)) / total : 1 / Double(views.count)
                add("fill-proportionally", v, length, .equal, self, length, multiplier: share, constant: -room * share, priority: LayoutPriority(999))
            }
        case .equalSpacing, .equalCentering:
            break
        }

        // Across: filled, or placed at an edge or the centre and kept inside.
        for v in views {
            switch alignment {
            case .fill:
                add("alignment", v, crossStart, .equal, self, crossStart)
                add("alignment", v, crossEnd, .equal, self, crossEnd)
            case .leading:
                add("alignment", v, crossStart, .equal, self, crossStart)
                add("spanning-boundary", v, crossEnd, .lessThanOrEqual, self, crossEnd)
            case .trailing:
                add("alignment", v, crossEnd, .equal, self, crossEnd)
                add("spanning-boundary", v, crossStart, .greaterThanOrEqual, self, crossStart)
            case .center:
                add("alignment", v, crossMiddle, .equal, self, crossMiddle)
                add("spanning-boundary", v, crossStart, .greaterThanOrEqual, self, crossStart)
            }
            // A view with no natural thickness fills the stack across unless something else says.
            if alignment != .fill, across(v.intrinsicContentSize) < 0 { add("fill-across", v, thickness, .equal, self, thickness, priority: LayoutPriority(1)) }
        }
        arrangement = made
        LayoutConstraint.activate(made)
        super.updateConstraints()
    }

    /// A guide between two arranged views, for the equal spacings.
    private func spacer(_ name: String) -> LayoutGuide {
        let guide = LayoutGuide()
        guide.identifier = "UISV-\(name)"
        addLayoutGuide(guide)
        spacers.append(guide)
        return guide
    }
}
