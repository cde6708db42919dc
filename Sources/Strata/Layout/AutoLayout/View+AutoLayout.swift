/// What a view keeps for Auto Layout, made the first time it is asked for.
@MainActor
final class AutoLayoutState {
    /// The engine of the tree this view is the top of.
    var ownLayoutEngine: LayoutEngine?
    /// The engine that has variables for this view.
    weak var engineOfRecord: LayoutEngine?
    /// Constraints installed on this view (it is their items' nearest common ancestor).
    var constraints: [LayoutConstraint] = []
    var translates = true
    var hugging: (horizontal: LayoutPriority, vertical: LayoutPriority)
    var compression = (horizontal: LayoutPriority.defaultHigh, vertical: LayoutPriority.defaultHigh)
    var guides: [LayoutGuide] = []
    var safeAreaGuide: LayoutGuide?
    var marginsGuide: LayoutGuide?
    var layoutMargins: EdgeInsets?
    var insetsLayoutMarginsFromSafeArea = true
    var needsUpdateConstraints = false

    init(hugging: LayoutPriority) { self.hugging = (hugging, hugging) }
}

/// Auto Layout on views (`UIView`'s constraint API, rules C2 and C3).
extension View: LayoutItem {
    var autoLayout: AutoLayoutState {
        if let s = autoLayoutState { return s }
        let s = AutoLayoutState(hugging: defaultContentHugging)
        autoLayoutState = s
        return s
    }

    /// The view at the top of this view's tree (its window's root view, when shown).
    var hierarchyTop: View {
        var v = self
        while let s = v.superview { v = s }
        return v
    }

    var ownLayoutEngine: LayoutEngine? { autoLayoutState?.ownLayoutEngine }

    /// The engine of the tree this view tops, made when first needed.
    var layoutEngine: LayoutEngine {
        if let e = autoLayout.ownLayoutEngine { return e }
        let e = LayoutEngine(top: self)
        autoLayout.ownLayoutEngine = e
        return e
    }

    // MARK: Anchors

    /// The first line's baseline (a label's); the bottom for views without text.
    public var firstBaselineAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .firstBaseline) }
    /// The last line's baseline (a label's); the bottom for views without text.
    public var lastBaselineAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(self, .lastBaseline) }

    // MARK: Constraints

    /// Whether the view's frame — set by code, or by its autoresizing mask as its
    /// superview resizes — enters the layout as required constraints (default true,
    /// as in UIKit). Set it to false for a view that constraints place: its frame
    /// then comes from the layout engine, and its autoresizing mask is not applied.
    public var translatesAutoresizingMaskIntoConstraints: Bool {
        get { autoLayoutState?.translates ?? true }
        set {
            guard newValue != translatesAutoresizingMaskIntoConstraints else { return }
            autoLayout.translates = newValue
            autoLayoutState?.engineOfRecord?.inputsChanged(self)
        }
    }

    /// The constraints installed on this view: the active ones whose items' nearest
    /// common ancestor it is.
    public var constraints: [LayoutConstraint] { autoLayoutState?.constraints ?? [] }

    /// Activates `constraint` (UIKit's older `addConstraint(_:)`; it is installed on
    /// its items' common ancestor, whichever view it is added to).
    public func addConstraint(_ constraint: LayoutConstraint) { constraint.isActive = true }
    public func addConstraints(_ constraints: [LayoutConstraint]) { LayoutConstraint.activate(constraints) }
    public func removeConstraint(_ constraint: LayoutConstraint) { constraint.isActive = false }
    public func removeConstraints(_ constraints: [LayoutConstraint]) { LayoutConstraint.deactivate(constraints) }

    /// How strongly the view resists growing past its intrinsic size on `axis`
    /// (default 250, `defaultLow`).
    public func contentHuggingPriority(for axis: LayoutAxis) -> LayoutPriority {
        guard let s = autoLayoutState else { return defaultContentHugging }
        return axis == .horizontal ? s.hugging.horizontal : s.hugging.vertical
    }
    public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        if axis == .horizontal { autoLayout.hugging.horizontal = priority } else { autoLayout.hugging.vertical = priority }
        autoLayoutState?.engineOfRecord?.inputsChanged(self)
        arrangingStack?.arrangedSubviewSizingChanged()
    }
    /// How strongly the view resists shrinking below its intrinsic size on `axis`
    /// (default 750, `defaultHigh`).
    public func contentCompressionResistancePriority(for axis: LayoutAxis) -> LayoutPriority {
        guard let s = autoLayoutState else { return .defaultHigh }
        return axis == .horizontal ? s.compression.horizontal : s.compression.vertical
    }
    public func setContentCompressionResistancePriority(_ priority: LayoutPriority, for axis: LayoutAxis) {
        if axis == .horizontal { autoLayout.compression.horizontal = priority } else { autoLayout.compression.vertical = priority }
        autoLayoutState?.engineOfRecord?.inputsChanged(self)
        arrangingStack?.arrangedSubviewSizingChanged()
    }

    /// Labels and image views hug their content a little harder than other views
    /// (251), as in UIKit, so they keep their size next to a plain view.
    var defaultContentHugging: LayoutPriority { self is Label || self is ImageView ? LayoutPriority(251) : .defaultLow }

    /// Whether the active constraints leave this view's frame free to move
    /// (`hasAmbiguousLayout`, for debugging).
    public var hasAmbiguousLayout: Bool {
        hierarchyTop.ownLayoutEngine?.isAmbiguous(self) ?? false
    }

    /// Asks for ``updateConstraints()`` before the next layout (`setNeedsUpdateConstraints`).
    public func setNeedsUpdateConstraints() {
        guard !autoLayout.needsUpdateConstraints else { return }
        autoLayout.needsUpdateConstraints = true
        hierarchyTop.layoutEngine.constraintsNeedUpdate(in: self)
    }

    /// Whether ``updateConstraints()`` is pending.
    public func needsUpdateConstraints() -> Bool { autoLayoutState?.needsUpdateConstraints ?? false }

    /// Runs the pending constraint updates of this view and the views below it now,
    /// deepest first (`updateConstraintsIfNeeded`).
    public func updateConstraintsIfNeeded() {
        var pending: [(View, Int)] = []
        var stack: [(View, Int)] = [(self, 0)]
        while let (v, depth) = stack.popLast() {
            if v.autoLayoutState?.needsUpdateConstraints == true { pending.append((v, depth)) }
            stack.append(contentsOf: v.subviews.map { ($0, depth + 1) })
        }
        for (v, _) in pending.sorted(by: { $0.1 > $1.1 }) where v.autoLayoutState?.needsUpdateConstraints == true {
            v.autoLayout.needsUpdateConstraints = false
            if let controller = v.viewController { controller.updateViewConstraints() } else { v.updateConstraints() }
        }
    }

    /// The size the view's constraints give it when its width and height are pulled
    /// towards `targetSize` at the fitting priorities (`systemLayoutSizeFitting`):
    /// ``View/layoutFittingCompressedSize`` for the smallest size its content allows,
    /// ``View/layoutFittingExpandedSize`` for the largest. The view's own frame is not
    /// changed; a view without constraints inside gets the target (or its intrinsic size).
    public func systemLayoutSizeFitting(_ targetSize: Size, withHorizontalFittingPriority horizontal: LayoutPriority = .fittingSizeLevel,
                                        verticalFittingPriority vertical: LayoutPriority = .fittingSizeLevel) -> Size {
        let target = Size(width: targetSize.width.isFinite ? targetSize.width : 0, height: targetSize.height.isFinite ? targetSize.height : 0)
        applyLayoutEngine()
        updateConstraintsIfNeeded()
        return hierarchyTop.layoutEngine.fittingSize(of: self, target: target, priorities: (horizontal.rawValue, vertical.rawValue))
    }

    /// The smallest size (`UIView.layoutFittingCompressedSize`).
    public static let layoutFittingCompressedSize = Size(width: 0, height: 0)
    /// A size larger than any layout (`UIView.layoutFittingExpandedSize`).
    public static let layoutFittingExpandedSize = Size(width: 100_000, height: 100_000)

    // MARK: Guides

    /// The layout guides added to this view.
    public var layoutGuides: [LayoutGuide] { autoLayoutState?.guides ?? [] }

    /// Adds a guide whose frame constraints give, in this view's coordinates.
    public func addLayoutGuide(_ guide: LayoutGuide) {
        guard guide.insets == nil else { return }
        if let old = guide.owningView, old !== self { old.removeLayoutGuide(guide) }
        guard !layoutGuides.contains(where: { $0 === guide }) else { return }
        guide.owningView = self
        autoLayout.guides.append(guide)
    }

    /// Removes a guide; constraints to it are deactivated.
    public func removeLayoutGuide(_ guide: LayoutGuide) {
        guard guide.owningView === self else { return }
        for c in hierarchyTop.ownLayoutEngine?.constraints ?? [] where c.firstItem === guide || c.secondItem === guide { c.isActive = false }
        autoLayout.guides.removeAll { $0 === guide }
        guide.owningView = nil
    }

    /// The part of the view no bar or window edge covers (`safeAreaInsets`): its
    /// superview's safe area where it overlaps this view, plus its view
    /// controller's `additionalSafeAreaInsets`.
    public var safeAreaInsets: EdgeInsets {
        var i = EdgeInsets.zero
        if let s = superview {
            let outer = s.safeAreaInsets, f = untransformedFrame, b = s.bounds.size
            i = EdgeInsets(top: max(0, outer.top - f.minY), left: max(0, outer.left - f.minX),
                           bottom: max(0, f.maxY - (b.height - outer.bottom)), right: max(0, f.maxX - (b.width - outer.right)))
        }
        if let extra = viewController?.additionalSafeAreaInsets {
            i = EdgeInsets(top: i.top + extra.top, left: i.left + extra.left, bottom: i.bottom + extra.bottom, right: i.right + extra.right)
        }
        return i
    }

    /// A guide over the safe area (`safeAreaLayoutGuide`).
    public var safeAreaLayoutGuide: LayoutGuide {
        if let g = autoLayoutState?.safeAreaGuide { return g }
        let g = LayoutGuide(identifier: "safeArea", owner: self) { $0.safeAreaInsets }
        autoLayout.safeAreaGuide = g
        return g
    }

    /// Space to keep content from the edges (`layoutMargins`): 8 points a side by
    /// default; a view controller's root view keeps 20 at the sides and none at
    /// the top and bottom, as UIKit's system minimum in a wide window.
    public var layoutMargins: EdgeInsets {
        get {
            autoLayoutState?.layoutMargins
                ?? (viewController != nil ? EdgeInsets(top: 0, left: 20, bottom: 0, right: 20) : EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
        }
        set {
            guard [newValue.top, newValue.left, newValue.bottom, newValue.right].allSatisfy(\.isFinite) else {
                return Diagnostics.report(.invalidValue(key: "layoutMargins", reason: "not finite; kept"))
            }
            autoLayout.layoutMargins = newValue
            setNeedsLayout()
            if let top = hierarchyTop.ownLayoutEngine { top.guidesMayHaveMoved() }
        }
    }

    /// Whether the margins guide is inset by the safe area too (default true).
    public var insetsLayoutMarginsFromSafeArea: Bool {
        get { autoLayoutState?.insetsLayoutMarginsFromSafeArea ?? true }
        set { autoLayout.insetsLayoutMarginsFromSafeArea = newValue; hierarchyTop.ownLayoutEngine?.guidesMayHaveMoved() }
    }

    /// A guide inset by ``layoutMargins`` (`layoutMarginsGuide`).
    public var layoutMarginsGuide: LayoutGuide {
        if let g = autoLayoutState?.marginsGuide { return g }
        let g = LayoutGuide(identifier: "layoutMargins", owner: self) { view in
            let m = view.layoutMargins
            guard view.insetsLayoutMarginsFromSafeArea else { return m }
            let s = view.safeAreaInsets
            return EdgeInsets(top: m.top + s.top, left: m.left + s.left, bottom: m.bottom + s.bottom, right: m.right + s.right)
        }
        autoLayout.marginsGuide = g
        return g
    }

    // MARK: Geometry as the engine sees it

    /// The frame without the transform: where `center` and `bounds` put it.
    var untransformedFrame: Rect {
        let size = layer.bounds.size, p = layer.position, a = layer.anchorPoint
        return Rect(x: p.x - size.width * a.x, y: p.y - size.height * a.y, width: size.width, height: size.height)
    }

    /// Sets `bounds.size` and `center` for an untransformed frame (a transform
    /// stays as it is, as UIKit's engine leaves it).
    func setUntransformedFrame(_ f: Rect) {
        let old = untransformedFrame
        guard abs(old.minX - f.minX) > 1e-9 || abs(old.minY - f.minY) > 1e-9 || abs(old.width - f.width) > 1e-9 || abs(old.height - f.height) > 1e-9 else { return }
        let a = layer.anchorPoint
        if old.size != f.size { bounds = Rect(origin: bounds.origin, size: f.size) }
        center = Point(x: f.minX + f.width * a.x, y: f.minY + f.height * a.y)
    }

    /// Brings the frames of views placed by constraints up to date (the engine of this tree).
    func applyLayoutEngine() {
        hierarchyTop.ownLayoutEngine?.apply()
    }

    // MARK: Moving between trees

    /// What a view takes along to another tree: the constraints installed inside
    /// it, and whether constraint updates were pending where it was.
    struct MovingConstraints {
        var constraints: [LayoutConstraint] = []
        var updatesPending = false
    }

    /// Before the view leaves its place: the constraints it takes along (installed
    /// inside it), taken out of the old tree's engine; those reaching out are
    /// deactivated, as UIKit does.
    func detachLayoutConstraints() -> MovingConstraints {
        if let own = ownLayoutEngine {
            autoLayout.ownLayoutEngine = nil
            let moving = own.constraints
            for c in moving { own.remove(c) }
            return MovingConstraints(constraints: moving, updatesPending: own.hasConstraintUpdatesPending)
        }
        guard superview != nil, let engine = hierarchyTop.ownLayoutEngine else { return MovingConstraints() }
        return MovingConstraints(constraints: engine.detach(self), updatesPending: engine.hasConstraintUpdatesPending)
    }

    /// After it arrived: the constraints it took along go into its new tree's
    /// engine, which runs the constraint updates still pending (a stack view's arrangement).
    func attachLayoutConstraints(_ moving: MovingConstraints) {
        if moving.updatesPending { hierarchyTop.layoutEngine.constraintsNeedUpdate(in: self) }
        guard !moving.constraints.isEmpty else { return }
        hierarchyTop.layoutEngine.attach(moving.constraints)
    }
}
