/// A layer: a rectangle with visual properties, sublayers and animations
/// (`CALayer`).
///
/// Changing a property looks up an action (rule A3, `Layer+Actions.swift`) and runs
/// it; for an animatable property of a presented layer that is by default a 0.25 s
/// implicit animation (rule B1). The model value changes at once; the
/// ``presentation()`` copy shows what is on screen at the current media time.
///
/// Defaults are Core Animation's (rule L1). Subclasses add properties by
/// overriding ``init(layer:)`` to copy their fields, and ``propertyDescriptors``
/// to make them reachable by key.
@MainActor
open class Layer {
    /// Key of the action run when a layer enters a visible tree or is un-hidden (`kCAOnOrderIn`).
    public static let onOrderIn = "onOrderIn"
    /// Key of the action run when a layer leaves a visible tree or is hidden (`kCAOnOrderOut`).
    public static let onOrderOut = "onOrderOut"
    /// Key of the action run on the new layer of `replaceSublayer(_:with:)` (`kCATransition`).
    public static let transition = "transition"

    // Stored properties are laid out in the order declared. With thousands of
    // layers each object is a cache miss of its own, and each 64-byte line of it
    // touched another: what every property change and every frame's pass read
    // comes first, in the first lines, then what is rarely used, and the 800-byte
    // state last (measured: placed right after the hot lines, an implicit change
    // got no faster and a change without actions 2.6 times slower). Those
    // fields carry no run-time exclusivity check (`@exclusivity(unchecked)`): all
    // access is on the main actor, and the checks cost more than the accesses.

    // Line 1 (after the object header).

    /// The superlayer link. Not retained (a superlayer owns its sublayers) and not
    /// `weak`: weak references move every layer's reference count to a slow side
    /// table. A superlayer clears its sublayers' links when it goes away.
    var superlayerLink: Layer? {
        get { superlayerReference?.takeUnretainedValue() }
        set {
            superlayerReference = newValue.map(Unmanaged.passUnretained)
            if timelineIndex >= 0 { AnimationTimeline.evaluationIsStale(self) }
        }
    }
    /// The link as stored: walks up the tree follow it without reference counting.
    @exclusivity(unchecked) private(set) var superlayerReference: Unmanaged<Layer>?
    /// Changes, to a number never used before by any layer, whenever the layer's
    /// model changes: renderers compare it to know what to redraw. Unique across
    /// layers, so a new layer never passes for a gone one that had its address.
    @exclusivity(unchecked) public private(set) var modelVersion = Layer.nextVersion()
    /// The same for the layer and everything below it — sublayers at any depth and
    /// their masks — so a renderer can pass over a subtree whose version it has
    /// seen before without looking inside.
    @exclusivity(unchecked) public private(set) var subtreeVersion = Layer.nextVersion()
    /// Where this layer was last seen among its superlayer's sublayers (checked before use).
    @exclusivity(unchecked) var indexHint = 0
    /// Where the layer is in its context's timeline (`AnimationTimeline.State.layers`); −1 when it has no animations.
    @exclusivity(unchecked) var timelineIndex = -1
    /// The animations, in the order they were added (they combine in that order).
    @exclusivity(unchecked) var animationEntries = AnimationEntryList()

    // Line 2: what the action search reads.

    /// For presentation copies: the model layer they were made from.
    @exclusivity(unchecked) private(set) var modelLayer: Layer?
    /// Asked first for actions (rule A3 step 1), and for display and layout. Not retained.
    @exclusivity(unchecked) public weak var delegate: (any LayerDelegate)?
    /// Actions by key, searched at step 2 (rule A3). Empty by default.
    @exclusivity(unchecked) public var actions: [String: any Action] = [:]
    /// Style dictionary: its `"actions"` entry is searched at step 3, then its
    /// `"style"` entry the same way, recursively (rule A3). Its other entries are
    /// default values of properties not set explicitly (`Layer+Style.swift`).
    public var style: [String: Any] {
        get { styleStorage }
        set {
            styleStorage = newValue
            applyStyleDefaults()
        }
    }
    /// What ``style`` holds (a presentation copy takes it without applying it again).
    @exclusivity(unchecked) private(set) var styleStorage: [String: Any] = [:]
    /// Properties whose value currently comes from `style`.
    @exclusivity(unchecked) var styledKeys: Set<String> = []
    /// The key whose change is being applied (``changeProperty``), if any.
    @exclusivity(unchecked) var changingKey: String?
    /// Which slots animate implicitly on this class (`animatesImplicitly`); 0 until worked out.
    @exclusivity(unchecked) var implicitSlotBits: UInt64 = 0

    // Line 3: flags and counts, the sublayers.

    /// Set by a commit while the layer is in a tree that a window or renderer presents (rule B5).
    @exclusivity(unchecked) var hasBeenPresented = false
    /// Listed in its context's `uncommitted`: it has animations the next outermost commit begins.
    @exclusivity(unchecked) var awaitsCommit = false
    @exclusivity(unchecked) var tracksAreCurrent = true
    /// How many of the animations evaluate through the general path (no
    /// `TypedTrack`), and how many are not resolved yet (resolving waits for the
    /// first evaluation, so adding stays cheap: an implicit change is usually one
    /// of thousands).
    @exclusivity(unchecked) var untypedAnimations = 0
    @exclusivity(unchecked) var unresolvedAnimations = 0
    @exclusivity(unchecked) var sublayerStorage: [Layer] = []
    /// The sublayers' subtree versions, side by side in the same order: a renderer
    /// finds which of thousands of siblings changed by comparing numbers, without
    /// reading each sublayer. Kept in step by `noteSubtreeChange`.
    @exclusivity(unchecked) var sublayerVersions: [UInt64] = []

    // The rest, rarely touched by a change, then the state.

    /// The typed tracks of `animationEntries`, in order, side by side in one buffer:
    /// what a frame evaluates, without visiting the entries. Empty while any
    /// animation has no track; rebuilt after an entry is added, removed, committed
    /// or retimed (`tracksAreCurrent` false).
    var tracks: [TypedTrack] = []
    /// How many presenters (windows, offscreen renderers) show a tree rooted here.
    @exclusivity(unchecked) var presenterCount = 0
    /// The commit count when the layer was made; `presentation()` is nil until a later commit.
    let creationCommit: Int
    /// The context the layer was made in (``LayerContext/current`` then): its
    /// transactions, timeline and presented trees are that context's.
    public let context: LayerContext
    /// Set during a presentation copy's evaluation of a `contents` cross-fade.
    @exclusivity(unchecked) public internal(set) var contentsTransition: ContentsTransition?
    /// The state before a change whose action is a transition, until the transition takes it.
    @exclusivity(unchecked) var pendingTransitionSnapshot: LayerSnapshot?
    /// Set on a presentation copy while a ``Transition`` runs on the layer.
    @exclusivity(unchecked) public internal(set) var activeTransition: TransitionState?

    @exclusivity(unchecked) public private(set) var needsDisplay = false
    @exclusivity(unchecked) public private(set) var needsLayout = false
    /// Whether this layer or one below it is marked for layout or display: the
    /// passes before a frame only descend where something is marked.
    @exclusivity(unchecked) private var layoutPendingBelow = false
    /// True when this layer or one below it is marked for layout.
    public var isLayoutPendingInSubtree: Bool { layoutPendingBelow }
    @exclusivity(unchecked) private var displayPendingBelow = false
    /// True when this layer or one below it is marked for display.
    public var isDisplayPendingInSubtree: Bool { displayPendingBelow }

    /// The layer's superlayer, if it is in a tree. On a presentation copy, the
    /// presentation of its model's superlayer at the same time (rule E12).
    public var superlayer: Layer? {
        guard let modelLayer else { return superlayerLink }
        return modelLayer.superlayerLink?.presentation(atTime: presentedAt ?? currentMediaTime())
    }
    /// For presentation copies: the media time they show.
    @exclusivity(unchecked) var presentedAt: Double?
    /// Properties set explicitly: style defaults no longer apply to them.
    @exclusivity(unchecked) var explicitlySet: Set<String> = []
    /// The values of the standard properties (last: see the note at the top).
    /// Set by each initializer: a default here would be built and thrown away by
    /// every presentation copy.
    @exclusivity(unchecked) final var state: LayerState

    /// A new layer with Core Animation's defaults (rule L1). Required, so a view
    /// can make its backing layer from `layerClass` (rule V1).
    public required init() {
        context = LayerContext.current
        creationCommit = context.commitCount
        state = LayerState()
        Transaction.ensureOpen(in: context)
    }

    /// Makes a copy of `layer`'s model values, as Core Animation does for
    /// presentation layers. Subclasses override it to copy their own fields
    /// (and must call `super.init(layer:)`). The copy has no superlayer, sublayers
    /// or animations, and changing its properties runs no actions.
    public required init(layer: Layer) {
        context = layer.context
        creationCommit = layer.creationCommit
        state = layer.state
        delegate = layer.delegate
        actions = layer.actions
        styleStorage = layer.styleStorage
        explicitlySet = layer.explicitlySet
        styledKeys = layer.styledKeys
        hasBeenPresented = layer.hasBeenPresented
        modelLayer = layer.modelLayer ?? layer
    }

    isolated deinit {
        if presenterCount > 0 { PresentationHosts.forget(self) }
        for sublayer in sublayerStorage where sublayer.superlayerLink === self {
            sublayer.superlayerLink = nil
        }
        // A deep tree goes away without one nested deinit per level: each sublayer
        // this layer is the last owner of hands its own sublayers up before it goes.
        var pending = sublayerStorage
        sublayerStorage = []
        sublayerVersions = []
        while var layer = pending.popLast() {
            guard isKnownUniquelyReferenced(&layer) else { continue }
            for s in layer.sublayerStorage where s.superlayerLink === layer { s.superlayerLink = nil }
            pending.append(contentsOf: layer.sublayerStorage)
            layer.sublayerStorage = []
            layer.sublayerVersions = []
        }
        if let mask = state.mask, mask.maskOwnerLink === self { mask.maskOwnerLink = nil }
        if !animationEntries.isEmpty {
            // Gone mid-animation: each animation stops, unfinished, exactly once.
            AnimationTimeline.unregister(self)
            for entry in animationEntries {
                entry.isRemoved = true
                entry.stop(finished: false)
            }
        }
    }

    /// True for copies made by ``init(layer:)`` (presentation layers).
    public var isPresentationCopy: Bool { modelLayer != nil }

    /// A name for diagnostics and ``ActionTrace`` (`CALayer.name`).
    public var name: String? {
        get { state.name }
        set { setState("name", \.name, newValue) }
    }

    // MARK: Geometry (rules L1, L2, L4)

    /// The layer's own coordinate space. Negative sizes are stored as their magnitude.
    public var bounds: Rect {
        get { state.bounds }
        set { setState(.bounds, \.bounds, Rect(origin: newValue.origin, size: Size(width: abs(newValue.size.width), height: abs(newValue.size.height)))) }
    }
    public var position: Point {
        get { state.position }
        set { setState(.position, \.position, newValue) }
    }
    /// The point of the bounds, in unit coordinates, that sits at `position` and that
    /// `transform` turns about. Default (0.5, 0.5).
    public var anchorPoint: Point {
        get { state.anchorPoint }
        set { setState(.anchorPoint, \.anchorPoint, newValue) }
    }
    public var anchorPointZ: Double {
        get { state.anchorPointZ }
        set { setState(.anchorPointZ, \.anchorPointZ, newValue) }
    }
    /// Orders siblings before insertion order does (rule R1).
    public var zPosition: Double {
        get { state.zPosition }
        set { setState(.zPosition, \.zPosition, newValue) }
    }
    public var transform: Transform3D {
        get { state.transform }
        set { setState(.transform, \.transform, newValue) }
    }
    public var sublayerTransform: Transform3D {
        get { state.sublayerTransform }
        set { setState(.sublayerTransform, \.sublayerTransform, newValue) }
    }

    // MARK: Appearance

    /// Group opacity of the layer and its subtree (rule R2). Default 1; finite
    /// values outside 0…1 are clamped; NaN and ±∞ are refused with a diagnostic.
    public var opacity: Double {
        get { state.opacity }
        set { setState(.opacity, \.opacity, Layer.unitInterval(newValue)) }
    }
    /// Key `"hidden"`. Also runs `onOrderOut`/`onOrderIn` in a visible tree (rule A7).
    public var isHidden: Bool {
        get { state.isHidden }
        set { setState("hidden", \.isHidden, newValue) }
    }
    /// A dynamic colour is kept as its components under the standard traits, as
    /// a `CGColor` made from a dynamic `UIColor` is fixed (so are the border and
    /// shadow colours); views resolve theirs against their traits first.
    public var backgroundColor: Color? {
        get { state.backgroundColor }
        set { setState("backgroundColor", \.backgroundColor, newValue.map { FixedColor($0).color }) }
    }
    public var cornerRadius: Double {
        get { state.cornerRadius }
        set { setNonNegative(.cornerRadius, \.cornerRadius, newValue) }
    }
    public var borderWidth: Double {
        get { state.borderWidth }
        set { setNonNegative(.borderWidth, \.borderWidth, newValue) }
    }
    /// Default opaque black, as in Core Animation.
    public var borderColor: Color? {
        get { state.borderColor }
        set { setState("borderColor", \.borderColor, newValue.map { FixedColor($0).color }) }
    }
    public var masksToBounds: Bool {
        get { state.masksToBounds }
        set { setState("masksToBounds", \.masksToBounds, newValue) }
    }
    /// A layer whose alpha clips this one (rule R3). It is not a sublayer. On a
    /// presentation copy, the mask's presentation at the same time (rule E12).
    /// The layer itself, or one it lies under (through sublayers or masks), is
    /// refused with a diagnostic: it would make a loop. A layer that is another's
    /// sublayer or mask leaves it to become this one's mask.
    public var mask: Layer? {
        get {
            guard isPresentationCopy, let mask = state.mask else { return state.mask }
            return mask.isPresentationCopy ? mask : mask.presentation(atTime: presentedAt ?? currentMediaTime())
        }
        set {
            guard newValue !== self else { return Diagnostics.report(.invalidTree("a layer cannot be its own mask")) }
            if let newValue, isWithin(newValue) {
                return Diagnostics.report(.invalidTree("a layer's mask cannot be a layer it lies under; the mask is unchanged"))
            }
            // A layer is a sublayer or a mask, of one layer (Core Animation leaves a
            // mask with a superlayer undefined): it leaves where it was.
            if let newValue, newValue !== state.mask {
                if newValue.superlayer != nil { newValue.removeFromSuperlayer() }
                if let owner = newValue.maskOwner, owner !== self { owner.mask = nil }
            }
            let old = state.mask
            setState("mask", \.mask, newValue, changed: newValue !== state.mask)
            maskDidChange(from: old)
            Transaction.noteTreeChange(in: context)
        }
    }
    /// Key `"doubleSided"`. No implicit animation (rule B2).
    public var isDoubleSided: Bool {
        get { state.isDoubleSided }
        set { setState("doubleSided", \.isDoubleSided, newValue) }
    }
    public var contents: Image? {
        get { state.contents }
        set { setState("contents", \.contents, newValue, changed: newValue !== state.contents) }
    }
    public var contentsRect: Rect {
        get { state.contentsRect }
        set { setState(.contentsRect, \.contentsRect, newValue) }
    }
    /// The part of the contents that stretches (`contentsCenter`, unit coordinates
    /// of the image `contentsRect` shows; default the whole). With gravity
    /// `.resize`, the parts outside it keep their size: nine-slice scaling, as
    /// Core Animation does. Animatable.
    public var contentsCenter: Rect {
        get { state.contentsCenter }
        set { setState(.contentsCenter, \.contentsCenter, newValue) }
    }
    /// Whether `opacity` applies to the layer and its sublayers as one picture
    /// (`allowsGroupOpacity`; default true, as on iOS 7 and later): false applies it
    /// to each of them on its own, so overlapping sublayers show through each other.
    /// A layer that clips or has a mask is one picture regardless.
    public var allowsGroupOpacity: Bool {
        get { state.allowsGroupOpacity }
        set { setState("allowsGroupOpacity", \.allowsGroupOpacity, newValue) }
    }
    /// Which edges of the bounds are anti-aliased (`edgeAntialiasingMask`; default
    /// all), for the background, border and what clips to the bounds. An edge left
    /// out is hard: on a map that keeps axes, with square corners, it lands on whole
    /// device pixels, so layers meeting edge to edge show no seam; turned, or past
    /// rounded corners, pixels are in or out by their centres.
    public var edgeAntialiasingMask: EdgeAntialiasingMask {
        get { state.edgeAntialiasingMask }
        set { setState("edgeAntialiasingMask", \.edgeAntialiasingMask, newValue) }
    }
    /// How contents are sampled when drawn smaller than their pixels (`minificationFilter`; default linear).
    public var minificationFilter: ContentsFilter {
        get { state.minificationFilter }
        set { setState("minificationFilter", \.minificationFilter, newValue) }
    }
    /// How contents are sampled when drawn larger than their pixels (`magnificationFilter`; default linear).
    public var magnificationFilter: ContentsFilter {
        get { state.magnificationFilter }
        set { setState("magnificationFilter", \.magnificationFilter, newValue) }
    }
    /// Whether the layer and its sublayers are drawn once into a bitmap that later
    /// frames reuse while nothing in the subtree changes or animates (`shouldRasterize`).
    /// The bitmap has `rasterizationScale` pixels a point, in the layer's own
    /// coordinates, and is drawn under the layer's transform and opacity.
    public var shouldRasterize: Bool {
        get { state.shouldRasterize }
        set { setState("shouldRasterize", \.shouldRasterize, newValue) }
    }
    /// Pixels a point of a rasterized layer's bitmap (default 1, as Core Animation's:
    /// set the screen's scale for a sharp bitmap). Not positive: refused.
    public var rasterizationScale: Double {
        get { state.rasterizationScale }
        set {
            guard newValue > 0 else {
                return Diagnostics.report(.invalidValue(key: "rasterizationScale", reason: "not positive: \(newValue); kept \(state.rasterizationScale)"))
            }
            setState("rasterizationScale", \.rasterizationScale, newValue)
        }
    }
    public var contentsGravity: ContentsGravity {
        get { state.contentsGravity }
        set { setState("contentsGravity", \.contentsGravity, newValue) }
    }
    public var contentsScale: Double {
        get { state.contentsScale }
        set { setState("contentsScale", \.contentsScale, newValue) }
    }
    public var shadowColor: Color? {
        get { state.shadowColor }
        set { setState("shadowColor", \.shadowColor, newValue.map { FixedColor($0).color }) }
    }
    /// The shadow's opacity, clamped to 0…1 as ``opacity`` is.
    public var shadowOpacity: Double {
        get { state.shadowOpacity }
        set { setState(.shadowOpacity, \.shadowOpacity, Layer.unitInterval(newValue)) }
    }
    /// Default (0, −3), as in Core Animation.
    public var shadowOffset: Size {
        get { state.shadowOffset }
        set { setState(.shadowOffset, \.shadowOffset, newValue) }
    }
    public var shadowRadius: Double {
        get { state.shadowRadius }
        set { setNonNegative(.shadowRadius, \.shadowRadius, newValue) }
    }
    /// The layer keeps a copy of the path. Elements with a NaN or ∞ point are not in
    /// it (`Path.refusedElementCount`); a diagnostic says when some were left out.
    public var shadowPath: Path? {
        get { state.shadowPath }
        set {
            if let n = newValue?.refusedElementCount, n > 0 {
                Diagnostics.report(.invalidValue(key: "shadowPath", reason: "\(n) element(s) with a NaN or ∞ point were left out of the path"))
            }
            setState("shadowPath", \.shadowPath, newValue?.copy())
        }
    }

    // MARK: Media timing of the layer itself (rules L3, E9)

    public var beginTime: Double {
        get { state.beginTime }
        set { setState("beginTime", \.beginTime, newValue) }
    }
    /// Scales the time of the layer's subtree; 0 pauses it.
    public var speed: Double {
        get { state.speed }
        set { setState("speed", \.speed, newValue) }
    }
    public var timeOffset: Double {
        get { state.timeOffset }
        set { setState("timeOffset", \.timeOffset, newValue) }
    }

    /// Keys of lengths that cannot be negative.
    static let nonNegativeKeys: Set<String> = ["cornerRadius", "borderWidth", "shadowRadius", "lineWidth"]
    /// Fractions clamped to 0…1 (``opacity``, ``shadowOpacity``), by setter or by key.
    static let unitIntervalKeys: Set<String> = ["opacity", "shadowOpacity"]
    /// The fractions' rule: clamped to 0…1; NaN and ±∞ pass, for the setter to refuse.
    @inline(__always)
    static func unitInterval(_ v: Double) -> Double { v.isFinite ? min(1, max(0, v)) : v }

    /// A length that cannot be negative (a corner radius, a border width, a shadow's
    /// blur): a negative value is refused with a diagnostic, as NaN and ±∞ are.
    @inline(__always)
    func setNonNegative(_ slot: StateSlot, _ path: WritableKeyPath<LayerState, Double>, _ value: Double) {
        guard !(value < 0) else {
            return Diagnostics.report(.invalidValue(key: slot.property, reason: "negative: \(value); kept \(state[keyPath: path])"))
        }
        setState(slot, path, value)
    }

    // (Inlined into each setter: there the key path is a literal, which the
    // compiler turns into a direct field access instead of a run-time projection.)

    /// Changes a standard property through the action machinery (`Layer+Actions.swift`).
    @inline(__always)
    func setState<T: Equatable>(_ key: String, _ slot: WritableKeyPath<LayerState, T>, _ value: T) {
        setState(key, slot, value, changed: state[keyPath: slot] != value)
    }

    /// Number-based values must be finite: NaN or ±∞ is refused with a diagnostic.
    @inline(__always)
    func setState<T: Equatable & FiniteValue>(_ key: String, _ path: WritableKeyPath<LayerState, T>, _ value: T) {
        setFinite(key, nil, path, value)
    }

    /// The same for a property typed tracks animate (`StateSlot`): its implicit
    /// animation is made from the slot and the values at hand, with no lookup by key.
    @inline(__always)
    func setState<T: Equatable & FiniteValue>(_ slot: StateSlot, _ path: WritableKeyPath<LayerState, T>, _ value: T) {
        setFinite(slot.property, slot, path, value)
    }

    @inline(__always)
    private func setFinite<T: Equatable & FiniteValue>(_ key: String, _ slot: StateSlot?, _ path: WritableKeyPath<LayerState, T>, _ value: T) {
        let old = state[keyPath: path]
        guard value.isAllFinite else {
            return Diagnostics.report(.invalidValue(key: key, reason: "not finite: \(value); kept \(old)"))
        }
        guard old != value else { return changeProperty(key, changed: false) { _ in } }
        var typed: TypedChange?
        if let slot, let from = SlotValue(typed: old), let to = SlotValue(typed: value) {
            typed = TypedChange(slot: slot, old: from, new: to)
        }
        changeProperty(key, changed: true, typed: typed) { $0.state[keyPath: path] = value }
    }

    @inline(__always)
    func setState<T: Equatable & FiniteValue>(_ key: String, _ slot: WritableKeyPath<LayerState, T?>, _ value: T?) {
        guard value?.isAllFinite ?? true else {
            return Diagnostics.report(.invalidValue(key: key, reason: "not finite: \(value!)"))
        }
        setState(key, slot, value, changed: state[keyPath: slot] != value)
    }

    @inline(__always)
    func setState<T>(_ key: String, _ slot: WritableKeyPath<LayerState, T>, _ value: T, changed: Bool) {
        changeProperty(key, changed: changed) { $0.state[keyPath: slot] = value }
    }

    // MARK: Class-level behaviour

    /// The action fundamental to this class of layer for `event`
    /// (`defaultAction(forKey:)`, rule A3 step 4). Nil for `Layer`; subclasses
    /// override it for behaviour every instance should have (rule A9).
    open class func defaultAction(forKey event: String) -> (any Action)? {
        nil
    }

    /// The properties reachable by key on this class: their keys, types, whether
    /// they animate implicitly, and how to read and write them. Subclasses with
    /// properties of their own return `super`'s merged with theirs.
    open class var propertyDescriptors: [String: PropertyDescriptor] {
        PropertyDescriptor.layerProperties
    }

    /// The default value of a property for this class (`defaultValue(forKey:)`):
    /// the value a fresh layer has. Nil for keys with no default.
    open class func defaultValue(forKey key: String) -> Any? {
        propertyDescriptors[key].flatMap { $0.read(Layer.prototype) }
    }

    /// A layer with every default, for `defaultValue(forKey:)`.
    static let prototype = Layer(unregistered: ())

    init(unregistered: Void) {
        context = .main
        creationCommit = 0
        state = LayerState()
    }


    // Version numbers are process-wide, as object identities are: one counter, and
    // the newest number any reader of subtree versions had seen when it last looked.
    @exclusivity(unchecked) private static var versions: UInt64 = 0
    @exclusivity(unchecked) private static var observedVersion: UInt64 = 0
    private static func nextVersion() -> UInt64 {
        versions &+= 1
        return versions
    }

    /// Says that subtree versions are being read now (a damage pass, a surface's
    /// frame): a later change walks up until it meets a layer already changed
    /// since then — the layers above that one say so already — instead of to the
    /// root every time. Every reader of ``subtreeVersion`` calls this first.
    package static func noteSubtreeVersionsRead() {
        observedVersion = versions
    }
    /// The layer this one is the `mask` of, if any (not retained, like `superlayerLink`).
    unowned(unsafe) var maskOwnerLink: Layer?
    /// The layer this one is the `mask` of, if any (a mask has no superlayer).
    public var maskOwner: Layer? { maskOwnerLink }
    /// The model mask, also on presentation copies: what renderers compare and draw
    /// (its versions say whether it changed).
    package var modelMask: Layer? { state.mask }

    /// Gives the layer a new model version. `mayBeTiming` false: the caller knows
    /// `key` is none of the layer's own timing keys (a typed property, the
    /// animations, the sublayers), so it is not compared with them.
    func propertyDidChange(_ key: String, mayBeTiming: Bool = true) {
        let version = Layer.nextVersion()
        modelVersion = version
        noteSubtreeChange(version)
        // A layer's own timing moves the times its animations' events fall due.
        if mayBeTiming, !animationEntries.isEmpty || !sublayerStorage.isEmpty,
           key == "speed" || key == "beginTime" || key == "timeOffset" {
            context.timeline.invalidate()
        }
    }

    /// Links a new mask to this layer, so its changes count as changes of this
    /// layer's subtree (see ``subtreeVersion``).
    func maskDidChange(from old: Layer?) {
        guard !isPresentationCopy, state.mask !== old else { return }
        if old?.maskOwnerLink === self { old?.maskOwnerLink = nil }
        state.mask?.maskOwnerLink = self
    }

    /// Gives this layer and every layer above it (superlayers, mask owners) a new subtree version.
    func noteSubtreeChange(_ version: UInt64 = Layer.nextVersion()) {
        // Not retained on the way up (every change walks to the root): the layers
        // are borrowed through their unmanaged links.
        let observed = Layer.observedVersion
        var layer: Unmanaged<Layer>? = Unmanaged.passUnretained(self)
        var steps = 0
        while let l = layer, steps < 100_000 {   // a mask cycle must not loop forever
            layer = Self.borrowing(l) { l in
                l.subtreeVersion = version
                guard let parent = l.superlayerReference else { return l.maskOwnerLink.map(Unmanaged.passUnretained) }
                return Self.borrowing(parent) { p in
                    p.noteSublayerVersion(version, of: l)
                    // Changed since anyone last read: its version, and every one above
                    // it, already differs from what each reader saw. (So building a
                    // deep chain top-down is not quadratic.)
                    return p.subtreeVersion > observed ? nil : parent
                }
            }
            steps += 1
        }
    }

    /// Calls `body` with the layer, not retained. (Forwarded, not a closure literal
    /// handed to the standard library: such a closure checks its actor at run time.)
    @inline(__always)
    static func borrowing<R>(_ layer: Unmanaged<Layer>, _ body: (Layer) -> R) -> R {
        layer._withUnsafeGuaranteedRef(body)
    }

    /// Records a sublayer's new subtree version in `sublayerVersions`.
    @inline(__always)
    private func noteSublayerVersion(_ version: UInt64, of child: Layer) {
        var i = child.indexHint
        if i >= sublayerStorage.count || ObjectIdentifier(sublayerStorage[i]) != ObjectIdentifier(child) {
            guard let found = indexOfSublayer(child) else { return }
            i = found
            child.indexHint = found
        }
        sublayerVersions[i] = version
    }

    // MARK: Display and layout

    /// Marks the layer's contents as needing to be provided again (by the
    /// delegate's `display(_:)` or ``display()``).
    public func setNeedsDisplay() {
        needsDisplay = true
        markPending(layout: false, display: true)
        Transaction.ensureOpen(in: context)
    }

    /// Provides contents now if marked.
    public func displayIfNeeded() {
        guard needsDisplay else { return }
        needsDisplay = false
        display()
    }

    /// ``displayIfNeeded()`` for this layer and its sublayers at any depth, passing
    /// over subtrees where nothing is marked. Renderers call it before a frame.
    public func displayIfNeededInSubtree() {
        var stack: [Layer] = [self]   // iterative: marked paths may be very deep
        while let layer = stack.popLast() {
            guard layer.displayPendingBelow else { continue }
            layer.displayPendingBelow = false
            layer.displayIfNeeded()
            stack.append(contentsOf: layer.sublayerStorage.reversed())
        }
    }

    /// Notes marked work at this layer on it and every superlayer up to one that
    /// already knows (those above it know too).
    func markPending(layout: Bool, display: Bool) {
        var layer: Layer? = self
        while let l = layer, (layout && !l.layoutPendingBelow) || (display && !l.displayPendingBelow) {
            if layout { l.layoutPendingBelow = true }
            if display { l.displayPendingBelow = true }
            layer = l.superlayerLink
        }
    }

    /// A layer just put under this one brings its marked work along.
    func adoptPending(of sublayer: Layer) {
        markPending(layout: sublayer.layoutPendingBelow, display: sublayer.displayPendingBelow)
    }

    /// Provides the layer's contents (`CALayer.display()`): the delegate's
    /// `display(_:)` when there is a delegate, else drawing with ``draw(in:)``
    /// into a backing image.
    open func display() {
        if let delegate { delegate.display(self) } else { displayIntoBackingStore() }
    }

    /// Draws the layer's own content (`CALayer.draw(in:)`): the delegate's
    /// `draw(_:in:)` by default. Subclasses override it to draw.
    open func draw(in context: any DrawingContext) {
        delegate?.draw(self, in: context)
    }

    /// Whether a change of `key` redraws the layer's contents (`needsDisplay(forKey:)`):
    /// false for every key here. A subclass that draws its contents from a property
    /// (a text layer's `fontSize`) answers true for it; while an animation of such a
    /// key runs, the renderer draws the presentation copy's contents anew each frame
    /// (``animatesDisplayedContent``), as Core Animation does.
    open class func needsDisplay(forKey key: String) -> Bool { false }

    public func setNeedsLayout() {
        needsLayout = true
        markPending(layout: true, display: false)
        Transaction.ensureOpen(in: context)
    }

    /// Lays out this layer's subtree where marked, top down, passing over subtrees
    /// where nothing is marked.
    public func layoutIfNeeded() {
        var stack: [Layer] = [self]   // iterative: marked paths may be very deep
        while let layer = stack.popLast() {
            guard layer.layoutPendingBelow else { continue }
            layer.layoutPendingBelow = false
            if layer.needsLayout {
                layer.needsLayout = false
                layer.layoutSublayers()
            }
            stack.append(contentsOf: layer.sublayerStorage.reversed())
        }
    }

    /// Lays out the sublayers: asks the delegate by default.
    open func layoutSublayers() {
        delegate?.layoutSublayers(of: self)
    }

    // MARK: Presentation (rules B3, R5)

    /// The layer as currently shown: a copy with every animation applied at
    /// `currentMediaTime()` (`CALayer.presentation()`). Nil until a transaction has
    /// committed since the layer was made, as in Core Animation.
    public func presentation() -> Self? {
        if isPresentationCopy { return self }
        guard context.commitCount > creationCommit else { return nil }
        return presentation(atTime: currentMediaTime())
    }

    /// The presentation copy at a given media time (root time, as `currentMediaTime()`).
    /// Renderers use it to draw a frame at the frame's target time (rule R5).
    public func presentation(atTime time: Double) -> Self {
        let copy = makePresentationCopy()
        copy.presentedAt = time
        if !animationEntries.isEmpty {
            applyAnimations(to: copy, atLocalTime: convertTime(time, from: nil))
        }
        return copy
    }

    /// A copy of the model values (`init(layer:)`). A copy is usually read and
    /// dropped at once, so the context keeps the last one made and, once whoever
    /// it was given to has let it go (unchanged), makes it again from this layer:
    /// reading every animated layer's copy in turn makes one object, not one per
    /// layer. Only for `Layer` itself: a subclass's `init(layer:)` copies fields
    /// of its own, and cannot run again.
    private func makePresentationCopy() -> Self {
        guard type(of: self) == Layer.self else { return Self(layer: self) }
        guard context.spareCopy != nil, isKnownUniquelyReferenced(&context.spareCopy!),
              let spare = context.spareCopy, spare.isUntouchedCopy else {
            let copy = Self(layer: self)
            context.keepSpareCopy(copy)
            return copy
        }
        // What `init(layer:)` sets, in its order; the rest is as a new copy has it.
        // (Empty collections, the usual case, are not copied over empty ones.)
        Self.copyState(&state, to: &spare.state)
        spare.delegate = delegate
        if !(actions.isEmpty && spare.actions.isEmpty) { spare.actions = actions }
        if !(styleStorage.isEmpty && spare.styleStorage.isEmpty) { spare.styleStorage = styleStorage }
        if !(explicitlySet.isEmpty && spare.explicitlySet.isEmpty) { spare.explicitlySet = explicitlySet }
        if !(styledKeys.isEmpty && spare.styledKeys.isEmpty) { spare.styledKeys = styledKeys }
        spare.hasBeenPresented = hasBeenPresented
        spare.modelLayer = modelLayer ?? self
        if spare.contentsTransition != nil { spare.contentsTransition = nil }
        if spare.activeTransition != nil { spare.activeTransition = nil }
        // A new object to renderers that compare versions.
        spare.modelVersion = Layer.nextVersion()
        spare.subtreeVersion = Layer.nextVersion()
        return unsafeDowncast(spare, to: Self.self)
    }

    /// One state into another's place. `spare.state = state` copied the state
    /// (641 bytes) three times — out, aside for the old value's release, in —
    /// and the copy's retains through the type's value witness. The box of
    /// references is a state's only field that is not plain data (tested in
    /// `PresentationCopyTests`): where both states have none, the bytes are the copy.
    @inline(__always)
    private static func copyState(_ from: UnsafePointer<LayerState>, to: UnsafeMutablePointer<LayerState>) {
        if LayerState.holdsNoReferences(from) && LayerState.holdsNoReferences(to) {
            UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: MemoryLayout<LayerState>.size)
        } else {
            to.pointee = from.pointee
        }
    }

    /// A copy nobody has changed in ways a new copy would not show: no tree,
    /// animations, mask role or marked work (its values are all set again).
    private var isUntouchedCopy: Bool {
        superlayerReference == nil && sublayerStorage.isEmpty && animationEntries.isEmpty && maskOwnerLink == nil
            && presenterCount == 0 && !needsDisplay && !needsLayout && !layoutPendingBelow && !displayPendingBelow
    }

    /// The model layer (`CALayer.model()`): itself, or for a presentation copy the layer it was copied from.
    public func model() -> Self {
        (modelLayer ?? self) as! Self
    }
}

/// A cross-fade of `contents` in progress, as seen on a presentation copy: the
/// renderer draws `from` at `1 − progress` over `contents` at `progress`.
public struct ContentsTransition: Sendable {
    public let from: Image?
    public let progress: Double
}
