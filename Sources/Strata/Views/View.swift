/// A rectangle on screen with a backing layer (`UIView`).
///
/// Every view owns one ``layer`` of its class's ``layerClass`` and is that
/// layer's delegate (rule V1). Outside an animation block it answers the layer's
/// action search with `NullAction` for every key, so changes through the view or
/// directly on `view.layer` take effect at once (rule V2); inside
/// ``animate(duration:delay:options:_:completion:)`` the same changes animate
/// (rules V3–V8). Layers that are not view-backed keep Core Animation's
/// implicit animations.
///
/// Geometry is the layer's: ``frame``, ``bounds`` and ``center`` read and write
/// `layer.frame`, `layer.bounds` and `layer.position`; ``alpha`` is
/// `layer.opacity`; ``transform`` is the layer's transform as an affine one.
@MainActor
open class View: Responder, LayerDelegate {
    /// The class of the backing layer (`layerClass`). Override it to back a view
    /// with a `ShapeLayer` or a layer class of your own.
    open class var layerClass: Layer.Type { Layer.self }

    /// The backing layer; the view is its delegate (rule V1).
    public let layer: Layer

    /// Subviews, back to front.
    public internal(set) var subviews: [View] = []
    /// The view this one is a subview of. Not retained: a superview owns its subviews.
    public internal(set) weak var superview: View?
    /// Set on a window's root view.
    weak var hostWindow: Window?
    /// The controller whose view this is: next in the responder chain, told
    /// around layout and when the view changes windows.
    weak var viewController: ViewController?

    /// A number to find the view by (``viewWithTag(_:)``); 0 by default.
    public var tag = 0
    /// When false the view and its subviews receive no pointer or touch input (rule H1).
    public var isUserInteractionEnabled = true
    /// How the subviews' frames follow a change of this view's size.
    public var autoresizingMask: AutoresizingMask = []
    /// Block animations now running on this view that block input (rule V8): made
    /// without `.allowUserInteraction`.
    var animationsBlockingInput = 0
    /// Reported a layout that did not settle once already (no repeats every frame).
    var reportedLayoutLoop = false
    /// The view has drawn with ``draw(in:)``: a new scale redraws it.
    var hasDrawnContent = false
    /// Constraints, guides and engine; nil until Auto Layout is first used on the view.
    var autoLayoutState: AutoLayoutState?

    /// Traits this view sets for itself and its subtree (iOS 17's
    /// `traitOverrides`): each field that is not unspecified overrides the
    /// inherited one (rule P1). Changing it tells the subtree at once.
    public var traitOverrides = TraitCollection() {
        didSet { if traitOverrides != oldValue { propagateTraits() } }
    }
    /// How the view's own content flips in a right-to-left layout
    /// (`semanticContentAttribute`): `.unspecified` follows the traits' direction.
    public var semanticContentAttribute: SemanticContentAttribute = .unspecified {
        didSet { if semanticContentAttribute != oldValue { layoutDirectionDidChange() } }
    }
    /// The traits the view was last told of (nil before it was told any).
    var deliveredTraits: TraitCollection?
    /// Dynamic colours given to layers through this view, to resolve again when the traits change.
    var dynamicColors: [DynamicColorBinding] = []

    /// A view with the given frame (`init(frame:)`).
    public init(frame: Rect) {
        layer = Self.layerClass.init()
        super.init()
        layer.delegate = self
        self.frame = frame
    }

    /// A view with a zero frame.
    public convenience override init() {
        self.init(frame: .zero)
    }

    // MARK: Geometry (rules L2, V1)

    /// The view's rectangle in its superview's coordinates (`layer.frame`).
    /// Setting it moves ``center`` and resizes ``bounds``; subviews follow their
    /// ``autoresizingMask`` when the size changes. NaN or ∞ is refused with a diagnostic.
    public var frame: Rect {
        get { layer.frame }
        set { resizing { layer.frame = newValue } }
    }

    /// The view's own coordinate space (`layer.bounds`).
    public var bounds: Rect {
        get { layer.bounds }
        set { resizing { layer.bounds = newValue } }
    }

    /// The centre of the frame in the superview's coordinates (`layer.position`).
    public var center: Point {
        get { layer.position }
        set {
            layer.position = newValue
            autoLayoutState?.engineOfRecord?.geometryChanged(self)
        }
    }

    /// The view's transform about its centre (`layer.transform`, affine part).
    public var transform: AffineTransform {
        get { layer.transform.affineTransform }
        set { layer.transform = Transform3D(newValue) }
    }

    /// Opacity of the view and its subviews (`layer.opacity`), clamped to 0…1.
    public var alpha: Double {
        get { layer.opacity }
        set { layer.opacity = newValue }
    }

    /// The layer's background (`layer.backgroundColor`). A dynamic colour
    /// (``Color/systemBackground``, `Color(dynamicProvider:)`) is kept as given and
    /// resolved against the view's ``traitCollection``, again whenever the traits
    /// change (rule P2); the layer holds the resolved colour.
    public var backgroundColor: Color? {
        get { dynamicColor(of: layer, \.backgroundColor) ?? layer.backgroundColor }
        set { setColor(newValue, of: layer, \.backgroundColor) }
    }

    /// Hidden views and their subviews are not drawn and not hit (rules R4, H1).
    /// Inside an animation block the change is immediate; a stack view lays out
    /// its other arranged subviews in the block, so they animate into the gap.
    public var isHidden: Bool {
        get { layer.isHidden }
        set {
            guard newValue != layer.isHidden else { return }
            layer.isHidden = newValue
            if let stack = superview as? StackView, stack.arrangedSubviews.contains(where: { $0 === self }) {
                stack.arrangedSubviewVisibilityChanged()
            }
        }
    }

    /// Clips subviews to the bounds (`layer.masksToBounds`).
    public var clipsToBounds: Bool {
        get { layer.masksToBounds }
        set { layer.masksToBounds = newValue }
    }

    /// How the layer's contents fit its bounds (`contentMode`, `layer.contentsGravity`).
    public var contentMode: ContentMode {
        get { ContentMode(layer.contentsGravity) }
        set { layer.contentsGravity = newValue.gravity }
    }

    // MARK: Hit testing (rules H1, H2)

    /// The deepest view at `point` (in this view's coordinates) that takes input
    /// (`hitTest(_:with:)`): nil when this view is hidden, nearly transparent
    /// (`alpha` ≤ 0.01), not taking input, in a block animation made without
    /// `.allowUserInteraction`, or `point(inside:with:)` is false; else the first
    /// subview, front to back, that answers, else this view. Model geometry, not
    /// what is on screen; a subview's part outside this view's bounds is not hit.
    open func hitTest(_ point: Point, with event: Event?) -> View? {
        guard acceptsHits, self.point(inside: point, with: event) else { return nil }
        for subview in subviews.reversed() {
            if let hit = subview.hitTest(subview.convert(point, from: self), with: event) { return hit }
        }
        return self
    }

    /// Whether `point` (in this view's coordinates) is inside it: its bounds by default.
    open func point(inside point: Point, with event: Event?) -> Bool {
        bounds.contains(point)
    }

    /// The pointer's look over the view; nil takes the superview's (the arrow at the root).
    public var cursor: Cursor? {
        didSet { if cursor != oldValue { window?.input.updateCursor() } }
    }

    /// The cursor at `point` (in this view's coordinates): ``cursor`` by default;
    /// views with parts override it.
    open func cursor(at point: Point) -> Cursor? { cursor }

    /// Gesture recognizers attached to the view; they see its touches first (rule H4).
    public internal(set) var gestureRecognizers: [GestureRecognizer] = []

    /// Attaches a gesture recognizer (moving it from any other view).
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        gestureRecognizers.append(recognizer)
        recognizer.view = self
    }

    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        gestureRecognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
        recognizer.reset()
    }

    /// Interactions added to the view: drag and drop (`UIView.interactions`).
    public private(set) var interactions: [Interaction] = []

    /// Adds an interaction (moving it from any other view).
    public func addInteraction(_ interaction: Interaction) {
        interaction.view?.removeInteraction(interaction)
        interactions.append(interaction)
        interaction.didMove(to: self)
    }

    public func removeInteraction(_ interaction: Interaction) {
        guard interactions.contains(where: { $0 === interaction }) else { return }
        interactions.removeAll { $0 === interaction }
        interaction.didMove(to: nil)
    }

    // MARK: Layout (overridable)

    /// Lays out the subviews (`layoutSubviews()`); called before a frame after
    /// ``setNeedsLayout()`` or a size change. The default does nothing (the
    /// autoresizing masks were applied when the size changed).
    open func layoutSubviews() {}

    /// Brings the view's own constraints up to date (`updateConstraints`): runs,
    /// once per ``setNeedsUpdateConstraints()``, before the next layout, deepest
    /// views first (UIKit's constraint pass). Override to change constraints in one
    /// place; the default does nothing.
    open func updateConstraints() {}

    /// The size that best fits `size` (`sizeThatFits(_:)`); the current size by default.
    open func sizeThatFits(_ size: Size) -> Size { bounds.size }

    /// The view's natural size, ``noIntrinsicMetric`` in a dimension it has none.
    open var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric) }

    /// Where ``firstBaselineAnchor`` is below the top; nil: at the bottom.
    var firstBaselineOffsetFromTop: Double? { nil }
    /// Where ``lastBaselineAnchor`` is above the bottom.
    var lastBaselineOffsetFromBottom: Double? { nil }

    // MARK: Hierarchy hooks (empty by default, as in UIKit)

    /// Called before the view moves to another superview (nil: removed).
    open func willMove(toSuperview newSuperview: View?) {}
    /// Called after the view moved to another superview (or was removed).
    open func didMoveToSuperview() {}
    /// Called before the view enters or leaves a window.
    open func willMove(toWindow newWindow: Window?) {}
    /// Called after the view entered or left a window.
    open func didMoveToWindow() {}
    /// Called after a subview was added.
    open func didAddSubview(_ subview: View) {}
    /// Called before a subview is removed (or moves to another superview).
    open func willRemoveSubview(_ subview: View) {}

    // MARK: Finding views

    /// The view itself or the first view below it, depth first, with `tag`.
    public func viewWithTag(_ tag: Int) -> View? {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            if v.tag == tag { return v }
            stack.append(contentsOf: v.subviews.reversed())
        }
        return nil
    }

    /// True when `view` is this view or one of its superviews.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let v = current {
            if v === view { return true }
            current = v.superview
        }
        return false
    }

    /// The window the view is in, through its root view.
    public var window: Window? {
        var v = self
        while let s = v.superview { v = s }
        return v.hostWindow
    }

    // MARK: Responder chain

    /// The superview, or the window for a root view (rule H3).
    open override var next: Responder? { viewController ?? superview ?? hostWindow }

    override var focusWindow: Window? { window }

    // MARK: Drawing

    /// Marks the view's content for redrawing with ``draw(in:)``.
    public func setNeedsDisplay() { layer.setNeedsDisplay() }

    /// Draws the view's own content into its layer's backing image at the layer's
    /// `contentsScale` (`draw(_:)`). Views that draw override it; the default draws nothing.
    open func draw(in context: any DrawingContext) {}

    /// Device pixels per point of what the view draws (`contentScaleFactor`,
    /// `layer.contentsScale`): its window's scale, set when the view moves into a
    /// window and when the window's scale changes, so drawn content such as text
    /// stays as sharp as the output (rule X3). A view that has drawn redraws.
    public var contentScaleFactor: Double {
        get { layer.contentsScale }
        set {
            guard newValue.isFinite, newValue > 0, newValue != layer.contentsScale else { return }
            layer.contentsScale = newValue
            if hasDrawnContent { setNeedsDisplay() }
        }
    }

    /// The colour controls draw their accents in (`tintColor`): this view's when
    /// set, else its superview's, else the system blue. Setting it (or nil, to
    /// inherit again) tells the view and its subviews (``tintColorDidChange()``).
    public var tintColor: Color! {
        get { ownTintColor ?? superview?.tintColor ?? .systemBlue }
        set {
            ownTintColor = newValue
            forEachInSubtree { $0.tintColorDidChange() }
        }
    }
    private var ownTintColor: Color?

    /// The inherited or own ``tintColor`` changed (`tintColorDidChange()`).
    open func tintColorDidChange() {}

    /// The view's traits changed (`traitCollectionDidChange(_:)`): its window's
    /// appearance, an override above it, or a move to another window (rule P1).
    /// By then the view's dynamic colours are resolved again and a view that
    /// draws is marked for display, so an override only adds what else depends on
    /// the traits.
    open func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {}

    /// The text size of the view's traits changed: text views that adjust to it
    /// take fonts of the new size here (before `traitCollectionDidChange`).
    func contentSizeCategoryDidChange(to traits: TraitCollection) {}

    /// The traits' layout direction or the view's ``semanticContentAttribute``
    /// changed: the view lays out again; text views lay their text out again (a
    /// paragraph with no strongly directional character takes the view's direction).
    func layoutDirectionDidChange() {
        setNeedsLayout()
        if autoLayoutState?.engineOfRecord != nil { hierarchyTop.ownLayoutEngine?.layoutDirectionMayHaveChanged() }
    }

    /// The bounds' size changed (after subviews followed their masks). Views
    /// whose drawing depends on the size redraw here (`contentMode = .redraw`).
    func boundsSizeDidChange() {}

    // MARK: Accessibility (rules Y1–Y4; the tree and its export are in Accessibility/)

    var accessibility = AccessibilityAttributes()

    /// Whether assistive technologies see this view as one element
    /// (`isAccessibilityElement`, rule Y1): true by default for labels, controls
    /// and images, false for plain views, whose elements are read instead.
    open var isAccessibilityElement: Bool {
        get { accessibility.isElement ?? defaultIsAccessibilityElement }
        set { accessibility.isElement = newValue; accessibilityDidChange(.children) }
    }
    /// What the element is called (`accessibilityLabel`, rule Y2): by default a
    /// label's text, a button's title, a field's placeholder.
    open var accessibilityLabel: String? {
        get { accessibility.label ?? accessibility.labeledBy.map { $0.accessibilityLabel ?? "" } ?? defaultAccessibilityLabel }
        set { accessibility.label = newValue; accessibilityDidChange(.name) }
    }
    /// What activating it does, when the label does not say (`accessibilityHint`);
    /// by default its tooltip's text, as GTK describes a widget by its tooltip
    /// (a keyboard or screen-reader user never sees a tooltip shown by hovering).
    open var accessibilityHint: String? {
        get { accessibility.hint ?? toolTipHint }
        set { accessibility.hint = newValue; accessibilityDidChange(.description) }
    }
    /// Its value as text (`accessibilityValue`): by default a switch's "1" or
    /// "0", a slider's percentage, a field's text.
    open var accessibilityValue: String? {
        get { accessibility.value ?? defaultAccessibilityValue }
        set { accessibility.value = newValue; accessibilityDidChange(.value) }
    }
    /// What it is and how it behaves (`accessibilityTraits`, rule Y2).
    open var accessibilityTraits: AccessibilityTraits {
        get { accessibility.traits ?? defaultAccessibilityTraits }
        set { accessibility.traits = newValue; accessibilityDidChange(.states) }
    }
    /// A name for tests and tools, never read to the person (`accessibilityIdentifier`).
    open var accessibilityIdentifier: String? {
        get { accessibility.identifier }
        set { accessibility.identifier = newValue }
    }
    /// The language of its label and value, a BCP 47 tag (`accessibilityLanguage`).
    open var accessibilityLanguage: String? {
        get { accessibility.language }
        set { accessibility.language = newValue }
    }
    /// Where it is, in window coordinates (`accessibilityFrame`, rule Y3; UIKit's
    /// are the screen's, which a Wayland client cannot know): set, else the
    /// bounds through every transform to the window.
    open var accessibilityFrame: Rect {
        get { accessibility.frame ?? convert(bounds, to: nil) }
        set { accessibility.frame = newValue }
    }
    /// The elements this container holds, in reading order
    /// (`accessibilityElements`): views and ``AccessibilityElement``s; nil reads
    /// the subviews, top to bottom, then leading to trailing (rule Y1).
    open var accessibilityElements: [Any]? {
        get { accessibility.elements }
        set { accessibility.elements = newValue; accessibilityDidChange(.children) }
    }
    /// The view that names this one, a label beside a field or a switch
    /// (AppKit's `accessibilityTitleUIElement`; GTK's labelled-by): its text is
    /// this element's name unless ``accessibilityLabel`` is set, and assistive
    /// technologies see the two related (AT-SPI's labelled-by and label-for).
    public var accessibilityLabeledBy: View? {
        get { accessibility.labeledBy }
        set {
            if let old = accessibility.labeledBy { old.accessibility.labelFor.removeAll { $0.view === self || $0.view == nil } }
            accessibility.labeledBy = newValue
            newValue?.accessibility.labelFor.append(WeakView(view: self))
            accessibilityDidChange(.name)
        }
    }
    /// The views this one names (the other end of ``accessibilityLabeledBy``).
    var accessibilityLabelFor: [View] { accessibility.labelFor.compactMap(\.view) }
    /// Hides this view's elements from assistive technologies (`accessibilityElementsHidden`).
    open var accessibilityElementsHidden: Bool {
        get { accessibility.elementsHidden }
        set { accessibility.elementsHidden = newValue; accessibilityDidChange(.children) }
    }
    /// While shown, its siblings and their elements are hidden
    /// (`accessibilityViewIsModal`, rule Y3): alerts and dialogs.
    open var accessibilityViewIsModal: Bool {
        get { accessibility.viewIsModal }
        set { accessibility.viewIsModal = newValue; accessibilityDidChange(.children) }
    }
    /// Reads its elements as one group before moving on
    /// (`shouldGroupAccessibilityChildren`): exported as a grouping node.
    open var shouldGroupAccessibilityChildren: Bool {
        get { accessibility.groupsChildren }
        set { accessibility.groupsChildren = newValue }
    }
    /// What kind of container it is (`accessibilityContainerType`): lists and
    /// scroll views say so by default.
    open var accessibilityContainerType: AccessibilityContainerType {
        get { accessibility.containerType ?? defaultAccessibilityContainerType }
        set { accessibility.containerType = newValue }
    }
    /// Actions beyond activating it (`accessibilityCustomActions`).
    open var accessibilityCustomActions: [AccessibilityCustomAction]? {
        get { accessibility.customActions }
        set { accessibility.customActions = newValue }
    }
    /// Activates the element as a tap would (`accessibilityActivate()`, rule Y4):
    /// controls run their actions when enabled; returns whether it was handled.
    open func accessibilityActivate() -> Bool { false }
    /// Steps an adjustable element up (`accessibilityIncrement()`): a slider by a tenth of its range.
    open func accessibilityIncrement() {}
    /// Steps an adjustable element down (`accessibilityDecrement()`).
    open func accessibilityDecrement() {}

    // The toolkit's own views give their defaults here.
    var defaultIsAccessibilityElement: Bool { false }
    var defaultAccessibilityLabel: String? { nil }
    var defaultAccessibilityValue: String? { nil }
    var defaultAccessibilityTraits: AccessibilityTraits { [] }
    var defaultAccessibilityContainerType: AccessibilityContainerType { .none }
    /// The kind of element it is beyond its traits (a text field, a progress bar).
    var accessibilityRole: AccessibilityRole? { accessibility.role }
    /// Toggles what the element holds that is on or off (a row's switch).
    func accessibilityToggle() -> Bool { accessibilityActivate() }
    /// A number it holds, for an adjustable element or a progress bar.
    var accessibilityNumericValue: AccessibilityNumericValue? { nil }
    /// An assistive technology set its number (AT-SPI's `CurrentValue`), as the
    /// person's input would: false when it holds none that can be set.
    func accessibilitySetValue(_ value: Double) -> Bool { false }
    /// Whether it opens something (a button's menu): nil when it does not,
    /// else whether that is open now (AT-SPI's expandable and expanded).
    var accessibilityIsExpanded: Bool? { nil }
    /// What its changes are told of: itself, or the element that stands for it
    /// (a list row's); nil when nothing assistive technologies know stands for it.
    var accessibilityEventSource: AnyObject? { self }
    /// Its tooltip's text, unless that is its name already.
    private var toolTipHint: String? {
        for case let tip as ToolTipInteraction in interactions where tip.isEnabled {
            guard let text = tip.defaultToolTip, !text.isEmpty, text != accessibilityLabel else { return nil }
            return text
        }
        return nil
    }
    /// What focus events name while this view is the first responder: itself,
    /// or the element inside it the keyboard is on (a list's row).
    var accessibilityFocusObject: AnyObject { self }

    // MARK: LayerDelegate

    /// The action search's first step for the backing layer (rules V2, V3): inside
    /// an animation block an animation for keys the block animates, else
    /// `NullAction`, which ends the search with no action. Other layers that name
    /// the view as delegate get nil (their search goes on).
    open func action(for layer: Layer, forKey event: String) -> (any Action)? {
        guard layer === self.layer else { return nil }
        return AnimationBlock.action(for: self, forKey: event) ?? NullAction.shared
    }

    public func layoutSublayers(of layer: Layer) {
        guard layer === self.layer else { return }
        let controller = viewController
        controller?.viewWillLayoutSubviews()
        if autoLayoutState?.ownLayoutEngine != nil { applyLayoutEngine() }
        layoutSubviews()
        controller?.viewDidLayoutSubviews()
    }

    /// `didMoveToWindow`, then the view's controller is told.
    func movedToWindow() {
        didMoveToWindow()
        if window != nil { tellIfNotificationAppeared() }
        viewController?.viewDidMoveToWindow()
        // A menu or tooltip for a view that left its window goes with it.
        if window == nil {
            for case let i as ContextMenuInteraction in interactions { i.dismissMenu() }
            for case let i as ToolTipInteraction in interactions { i.viewLeftWindow() }
        }
    }

    public func draw(_ layer: Layer, in context: any DrawingContext) {
        guard layer === self.layer else { return }
        hasDrawnContent = true
        draw(in: context)
    }
}

/// How a view's content fits its bounds (`UIView.ContentMode`).
public enum ContentMode: Hashable, Sendable {
    case scaleToFill, scaleAspectFit, scaleAspectFill
    case center, top, bottom, left, right, topLeft, topRight, bottomLeft, bottomRight

    var gravity: ContentsGravity {
        switch self {
        case .scaleToFill: .resize
        case .scaleAspectFit: .resizeAspect
        case .scaleAspectFill: .resizeAspectFill
        case .center: .center
        case .top: .top
        case .bottom: .bottom
        case .left: .left
        case .right: .right
        case .topLeft: .topLeft
        case .topRight: .topRight
        case .bottomLeft: .bottomLeft
        case .bottomRight: .bottomRight
        }
    }

    init(_ gravity: ContentsGravity) {
        switch gravity {
        case .resize: self = .scaleToFill
        case .resizeAspect: self = .scaleAspectFit
        case .resizeAspectFill: self = .scaleAspectFill
        case .center: self = .center
        case .top: self = .top
        case .bottom: self = .bottom
        case .left: self = .left
        case .right: self = .right
        case .topLeft: self = .topLeft
        case .topRight: self = .topRight
        case .bottomLeft: self = .bottomLeft
        case .bottomRight: self = .bottomRight
        }
    }
}
