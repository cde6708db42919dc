/// A basic animation of a standard property, resolved at its layer's first
/// evaluation after it was added: the key path becomes a slot of ``LayerState``,
/// the endpoints values of the property's own type (a transform's already
/// decomposed), so evaluating it in a frame does no boxing, casting, key-path
/// parsing or dictionary lookup.
///
/// Additive animations (the offsets a view's animation block adds, rule V7) are
/// typed too: their value is added to what the animations before them left.
/// The general path (`applyEffect`, values as `Any`) still serves what this does
/// not: cumulative animations, transform sub-paths
/// (`transform.rotation.z`), contents, custom and subclass properties, springs,
/// keyframes and transitions. Both give the same values (rule E2's endpoints,
/// each type's `interpolated(to:fraction:)`); only the cost differs.
struct TypedTrack {
    /// Off: every animation takes the general path (tests compare the two).
    /// Process-wide, as a debugging switch is: a test turns it off and on again
    /// without suspending in between, so no other test sees it off.
    @MainActor static var isEnabled = true

    let slot: StateSlot
    /// Nil only for a missing colour whose other end is the model's: clear, unless
    /// the model has no colour either (then the animation shows nothing); and for
    /// transforms, whose ends are in `transforms`.
    let from: SlotValue?
    /// Nil: the model's value at each evaluation (rule E2: `fromValue` alone, or no value).
    let to: SlotValue?
    /// A transform animation's ends (boxed, so the other tracks stay small), owned
    /// by the animation's entry: the track itself holds only plain numbers and
    /// copies without reference counting.
    let transformEnds: Unmanaged<TransformEnds>?
    var transforms: TransformEnds? { transformEnds?.takeUnretainedValue() }
    var timingFunction: MediaTimingFunction?
    let isAdditive: Bool
    /// The running copy's timing (with `timingFunction`), as added, stamped at the
    /// commit and changed by a retiming (`AnimationEntry.timingDidChange`): a frame
    /// reads no animation object.
    var timing: MediaTimingValues
    var isCommitted = false

    /// The track for `animation` on `layer`, or nil when it takes the general path.
    @MainActor
    init?(_ animation: Animation, on layer: Layer, entry: AnimationEntry) {
        // Exactly BasicAnimation: a subclass (a spring) may compute its values otherwise.
        guard Self.isEnabled, type(of: animation) == BasicAnimation.self, let a = animation as? BasicAnimation,
              !a.isCumulative, let keyPath = a.keyPath, let slot = StateSlot.named[keyPath] else { return nil }
        // Rule E2: with `fromValue` alone, or no value, the end is the model's value
        // at each evaluation (the implicit animation's case: the cheap one).
        let toIsModel = a.toValue == nil && a.byValue == nil
        let rawFrom: Any?, rawTo: Any?
        if toIsModel {
            (rawFrom, rawTo) = (a.fromValue ?? entry.extras.capturedFrom, nil)
        } else {
            guard let ends = a.rawEndpoints(model: layer, entry: entry) else { return nil }
            (rawFrom, rawTo) = ends
        }
        // A missing colour animates as clear when the other end is a colour (as
        // `BasicAnimation.endpoints` fills it); other values must be of the slot's type.
        self.slot = slot
        self.timingFunction = a.timingFunction
        self.isAdditive = a.isAdditive
        self.timing = a.timingValues
        self.isCommitted = entry.isCommitted
        if slot.kind == .transform {
            guard let f = rawFrom as? Transform3D else { return nil }
            let t = rawTo as? Transform3D
            guard toIsModel || t != nil else { return nil }
            (from, to) = (nil, nil)
            let ends = TransformEnds(from: f, to: t)
            entry.extras.transformEnds = ends
            transformEnds = Unmanaged.passUnretained(ends)
            return
        }
        transformEnds = nil
        let missing = { (v: Any?) in v == nil && slot.isColor }
        var from = SlotValue(rawFrom, for: slot), to = toIsModel ? nil : SlotValue(rawTo, for: slot)
        guard from != nil || missing(rawFrom) else { return nil }
        if !toIsModel {
            guard to != nil || missing(rawTo), from != nil || to != nil else { return nil }
            from = from ?? .fixed(.clear)
            to = to ?? .fixed(.clear)
        }
        self.from = from
        self.to = to
    }

    /// The implicit animation of a standard property (rule B1) from the value shown
    /// to the new model value, with the transaction's duration and timing
    /// function: what a `BasicAnimation` made by the action search resolves to,
    /// made without one (`AnimationEntry` makes the object only if asked for it).
    @inline(__always)
    init(implicit slot: StateSlot, from: SlotValue, to: SlotValue, duration: Double, timingFunction: MediaTimingFunction) {
        self.slot = slot
        self.from = from
        self.to = to
        transformEnds = nil
        self.timingFunction = timingFunction
        isAdditive = false
        timing = MediaTimingValues(beginTime: 0, duration: duration, speed: 1, timeOffset: 0, repeatCount: 0,
                                   repeatDuration: 0, autoreverses: false, fillMode: .removed)
    }

    /// Writes the value at `layer`'s local time `t` into `state`, if the animation
    /// has an effect then (`now`: the local time of the commit, worked out once).
    @MainActor @inline(__always)
    func apply(atLocalTime t: Double, now: inout Double?, of layer: Layer, to state: inout LayerState) {
        // (Not `withUnsafePointer(to: self)`: its closure checks the actor at run time.)
        var track = self
        Self.apply(&track, atLocalTime: t, now: &now, of: layer, to: &state)
    }

    /// Applies `count` tracks side by side (a layer's `tracks`, passed as a
    /// pointer: no track is copied) at `layer`'s local time `t`, in order.
    @MainActor @inline(__always)
    static func apply(_ tracks: UnsafePointer<TypedTrack>, count: Int, atLocalTime t: Double, of layer: Layer, to state: inout LayerState) {
        var now: Double?
        for i in 0..<count { apply(tracks + i, atLocalTime: t, now: &now, of: layer, to: &state) }
    }

    /// `apply(atLocalTime:…)` reading the track where it lies.
    @MainActor @inline(__always)
    static func apply(_ track: UnsafePointer<TypedTrack>, atLocalTime t: Double, now: inout Double?, of layer: Layer, to state: inout LayerState) {
        guard let fraction = track.pointee.fraction(atLocalTime: t, now: &now, of: layer) else { return }
        apply(track, fraction: fraction, to: &state, modelValue: track.pointee.to == nil ? track.pointee.slot.read(layer.state) : nil, model: layer)
    }

    /// Where in a cycle the animation is at `layer`'s local time `t`; nil when it
    /// has no effect then.
    @MainActor @inline(__always)
    func fraction(atLocalTime t: Double, now: inout Double?, of layer: Layer) -> Double? {
        // Committed, or with its own begin time: no need to look at the layer.
        let begin = isCommitted || timing.beginTime != 0
            ? timing.beginTime : layer.begin(of: timing.beginTime, committed: isCommitted, now: &now)
        return timing.fraction(atActiveTime: timing.activeTime(atLayerTime: t, begin: begin))
    }

    /// Writes the value at `fraction` of a cycle into `state`; `modelValue` is the
    /// slot's model value (read only when the end is the model's; transforms read
    /// `model`). The track is read where it lies: the frame pass's tracks, as
    /// `self` of a call, were each first copied whole (193 bytes), twice per
    /// layer per frame.
    @MainActor
    static func apply(_ track: UnsafePointer<TypedTrack>, fraction: Double, to state: inout LayerState, modelValue: SlotValue?, model: Layer) {
        let progress = track.pointee.timingFunction?.value(at: fraction) ?? fraction
        if let transforms = track.pointee.transforms {
            return track.pointee.applyTransform(transforms, progress: progress, to: &state, model: model)
        }
        let slot = track.pointee.slot, isAdditive = track.pointee.isAdditive
        let end = track.pointee.to ?? modelValue
        guard let start = track.pointee.from ?? end.map({ _ in .fixed(.clear) }), let end = end ?? .fixed(.clear) as SlotValue? else { return }
        let value: SlotValue
        switch (start, end) {
        case let (.double(a), .double(b)): value = .double(a.interpolated(to: b, fraction: progress))
        case let (.point(a), .point(b)): value = .point(a.interpolated(to: b, fraction: progress))
        case let (.size(a), .size(b)): value = .size(a.interpolated(to: b, fraction: progress))
        case let (.rect(a), .rect(b)): value = .rect(a.interpolated(to: b, fraction: progress))
        case let (.color(a), .color(b)):
            // Additive colours are offsets, not colours: component by component.
            let (a, b) = (a.color, b.color)
            value = .fixed(isAdditive ? a.adding(b.subtracting(a).scaled(by: progress)) : a.interpolated(to: b, fraction: progress))
        default: return   // cannot happen: both ends are of the slot's type
        }
        guard isAdditive else { return slot.write(value, to: &state) }
        // Offsets stacked on a huge model value can overflow: such a sum is not
        // shown (the property shows what it would without this animation).
        let sum = Self.add(value, to: slot.read(state))
        if sum.isAllFinite { slot.write(sum, to: &state) }
    }

    @MainActor
    private func applyTransform(_ ends: TransformEnds, progress: Double, to state: inout LayerState, model: Layer) {
        let value: Transform3D
        if let to = ends.to {
            if progress == 0 || progress == 1 || ends.decomposed == nil {
                value = ends.from.interpolated(to: to, fraction: progress)
            } else {
                value = ends.decomposed!.from.interpolated(to: ends.decomposed!.to, fraction: progress).recomposed
            }
        } else {
            value = ends.from.interpolated(to: slot.readTransform(model.state), fraction: progress)
        }
        guard isAdditive else { return slot.writeTransform(value, to: &state) }
        let sum = slot.readTransform(state).adding(value)
        if sum.isAllFinite { slot.writeTransform(sum, to: &state) }
    }

    /// Puts back the slot's model value (`modelValue`, or for a transform `model`'s),
    /// reading the track in place (as `apply(_:fraction:…)` does).
    @MainActor @inline(__always)
    static func restoreModel(_ track: UnsafePointer<TypedTrack>, _ modelValue: SlotValue?, of model: Layer, to state: inout LayerState) {
        let slot = track.pointee.slot
        if track.pointee.transformEnds != nil {
            slot.writeTransform(slot.readTransform(model.state), to: &state)
        } else {
            slot.restore(modelValue, to: &state)
        }
    }

    /// An additive animation's value on top of what is shown (no colour counts as clear).
    private static func add(_ v: SlotValue, to base: SlotValue?) -> SlotValue {
        switch (base, v) {
        case let (.double(b)?, .double(x)): .double(b.adding(x))
        case let (.point(b)?, .point(x)): .point(b.adding(x))
        case let (.size(b)?, .size(x)): .size(b.adding(x))
        case let (.rect(b)?, .rect(x)): .rect(b.adding(x))
        case let (.color(b)?, .color(x)): .fixed(b.color.adding(x.color))
        case let (nil, .color(x)): .fixed(Color.clear.adding(x.color))
        default: v
        }
    }
}

/// The ends of a transform track; decomposed once when both are fixed.
final class TransformEnds {
    let from: Transform3D
    /// Nil: the model's value at each evaluation.
    let to: Transform3D?
    let decomposed: (from: DecomposedTransform, to: DecomposedTransform)?

    init(from: Transform3D, to: Transform3D?) {
        self.from = from
        self.to = to
        if let to, let df = from.decomposed, let dt = to.decomposed { decomposed = (df, dt) } else { decomposed = nil }
    }
}

/// A change of a standard property as its setter has it: where the value lives
/// and its values before and after (the implicit animation's ends).
struct TypedChange {
    let slot: StateSlot
    let old: SlotValue
    let new: SlotValue
}

/// A value of one ``StateSlot``, in the property's own type.
enum SlotValue {
    case double(Double)
    case point(Point)
    case size(Size)
    case rect(Rect)
    /// A colour's components only: a layer's colours are fixed (a dynamic one is
    /// resolved by its view first), and plain values keep every change and track
    /// free of reference counting.
    case color(FixedColor)

    static func fixed(_ color: Color) -> SlotValue { .color(FixedColor(color)) }

    var isAllFinite: Bool {
        switch self {
        case let .double(v): v.isFinite
        case let .point(v): v.isAllFinite
        case let .size(v): v.isAllFinite
        case let .rect(v): v.isAllFinite
        case let .color(v): v.color.isAllFinite
        }
    }

    /// A property's new or old value, as a setter has it; nil for a transform
    /// (whose tracks keep their ends in `TransformEnds`). Specialized for each
    /// setter, the casts cost nothing.
    @inline(__always)
    init?<T>(typed value: T) {
        switch value {
        case let v as Double: self = .double(v)
        case let v as Point: self = .point(v)
        case let v as Size: self = .size(v)
        case let v as Rect: self = .rect(v)
        case let v as Color: self = .fixed(v)
        default: return nil
        }
    }

    /// The value as an animation holds it.
    var anyValue: Any {
        switch self {
        case let .double(v): v
        case let .point(v): v
        case let .size(v): v
        case let .rect(v): v
        case let .color(v): v.color
        }
    }

    /// `value` (an animation's, as `Any`) as the slot's type; nil when it is not.
    init?(_ value: Any?, for slot: StateSlot) {
        guard let value else { return nil }
        switch slot.kind {
        case .double:
            guard let v = value as? Double ?? AnyValue.normalized(value) as? Double else { return nil }
            self = .double(v)
        case .point:
            guard let v = value as? Point else { return nil }
            self = .point(v)
        case .size:
            guard let v = value as? Size else { return nil }
            self = .size(v)
        case .rect:
            guard let v = value as? Rect else { return nil }
            self = .rect(v)
        case .color:
            guard let v = value as? Color else { return nil }
            self = .fixed(v)
        case .transform:
            return nil   // a transform track keeps its ends in `TransformEnds`
        }
    }
}

/// A standard property, or a part of one, that typed evaluation reads and writes
/// in ``LayerState`` directly.
enum StateSlot: UInt8 {
    case position, positionX, positionY, anchorPoint, anchorPointX, anchorPointY, anchorPointZ, zPosition
    case bounds, boundsOrigin, boundsOriginX, boundsOriginY, boundsSize, boundsWidth, boundsHeight
    case transform, sublayerTransform
    case opacity, cornerRadius, borderWidth, shadowOpacity, shadowRadius
    case shadowOffset, shadowOffsetWidth, shadowOffsetHeight, contentsRect, contentsCenter
    case backgroundColor, borderColor, shadowColor

    enum Kind { case double, point, size, rect, color, transform }

    static let named: [String: StateSlot] = [
        "position": .position, "position.x": .positionX, "position.y": .positionY,
        "anchorPoint": .anchorPoint, "anchorPoint.x": .anchorPointX, "anchorPoint.y": .anchorPointY,
        "anchorPointZ": .anchorPointZ, "zPosition": .zPosition,
        "bounds": .bounds, "bounds.origin": .boundsOrigin, "bounds.origin.x": .boundsOriginX, "bounds.origin.y": .boundsOriginY,
        "bounds.size": .boundsSize, "bounds.size.width": .boundsWidth, "bounds.size.height": .boundsHeight,
        "transform": .transform, "sublayerTransform": .sublayerTransform,
        "opacity": .opacity, "cornerRadius": .cornerRadius, "borderWidth": .borderWidth,
        "shadowOpacity": .shadowOpacity, "shadowRadius": .shadowRadius,
        "shadowOffset": .shadowOffset, "shadowOffset.width": .shadowOffsetWidth, "shadowOffset.height": .shadowOffsetHeight,
        "contentsRect": .contentsRect, "contentsCenter": .contentsCenter,
        "backgroundColor": .backgroundColor, "borderColor": .borderColor, "shadowColor": .shadowColor,
    ]

    /// The property's key (the first component of the key path).
    var property: String {
        switch self {
        case .position, .positionX, .positionY: "position"
        case .anchorPoint, .anchorPointX, .anchorPointY: "anchorPoint"
        case .anchorPointZ: "anchorPointZ"
        case .zPosition: "zPosition"
        case .bounds, .boundsOrigin, .boundsOriginX, .boundsOriginY, .boundsSize, .boundsWidth, .boundsHeight: "bounds"
        case .transform: "transform"
        case .sublayerTransform: "sublayerTransform"
        case .opacity: "opacity"
        case .cornerRadius: "cornerRadius"
        case .borderWidth: "borderWidth"
        case .shadowOpacity: "shadowOpacity"
        case .shadowRadius: "shadowRadius"
        case .shadowOffset, .shadowOffsetWidth, .shadowOffsetHeight: "shadowOffset"
        case .contentsRect: "contentsRect"
        case .contentsCenter: "contentsCenter"
        case .backgroundColor: "backgroundColor"
        case .borderColor: "borderColor"
        case .shadowColor: "shadowColor"
        }
    }

    var kind: Kind {
        switch self {
        case .position, .anchorPoint, .boundsOrigin: .point
        case .boundsSize, .shadowOffset: .size
        case .bounds, .contentsRect, .contentsCenter: .rect
        case .transform, .sublayerTransform: .transform
        case .backgroundColor, .borderColor, .shadowColor: .color
        default: .double
        }
    }

    var isColor: Bool { kind == .color }

    /// A transform slot's value in `s`.
    @inline(__always)
    func readTransform(_ s: LayerState) -> Transform3D {
        self == .sublayerTransform ? s.sublayerTransform : s.transform
    }

    @inline(__always)
    func writeTransform(_ value: Transform3D, to s: inout LayerState) {
        if self == .sublayerTransform { s.sublayerTransform = value } else { s.transform = value }
    }

    /// The slot's value in `s`; nil for a missing colour (and for transforms,
    /// which `readTransform` reads).
    @inline(__always)
    func read(_ s: LayerState) -> SlotValue? {
        switch self {
        case .position: .point(s.position)
        case .positionX: .double(s.position.x)
        case .positionY: .double(s.position.y)
        case .anchorPoint: .point(s.anchorPoint)
        case .anchorPointX: .double(s.anchorPoint.x)
        case .anchorPointY: .double(s.anchorPoint.y)
        case .anchorPointZ: .double(s.anchorPointZ)
        case .zPosition: .double(s.zPosition)
        case .bounds: .rect(s.bounds)
        case .boundsOrigin: .point(s.bounds.origin)
        case .boundsOriginX: .double(s.bounds.origin.x)
        case .boundsOriginY: .double(s.bounds.origin.y)
        case .boundsSize: .size(s.bounds.size)
        case .boundsWidth: .double(s.bounds.size.width)
        case .boundsHeight: .double(s.bounds.size.height)
        case .transform, .sublayerTransform: nil
        case .opacity: .double(s.opacity)
        case .cornerRadius: .double(s.cornerRadius)
        case .borderWidth: .double(s.borderWidth)
        case .shadowOpacity: .double(s.shadowOpacity)
        case .shadowRadius: .double(s.shadowRadius)
        case .shadowOffset: .size(s.shadowOffset)
        case .shadowOffsetWidth: .double(s.shadowOffset.width)
        case .shadowOffsetHeight: .double(s.shadowOffset.height)
        case .contentsRect: .rect(s.contentsRect)
        case .contentsCenter: .rect(s.contentsCenter)
        case .backgroundColor: s.backgroundComponents.map(SlotValue.color)
        case .borderColor: s.borderComponents.map(SlotValue.color)
        case .shadowColor: s.shadowComponents.map(SlotValue.color)
        }
    }

    /// Puts back a value `read` gave (nil: no colour).
    @inline(__always)
    func restore(_ value: SlotValue?, to s: inout LayerState) {
        if let value { return write(value, to: &s) }
        switch self {
        case .backgroundColor: s.backgroundColor = nil
        case .borderColor: s.borderColor = nil
        case .shadowColor: s.shadowColor = nil
        default: break
        }
    }

    /// Stores `value` (of the slot's type) in `s`.
    @inline(__always)
    func write(_ value: SlotValue, to s: inout LayerState) {
        switch (self, value) {
        case let (.position, .point(v)): s.position = v
        case let (.positionX, .double(v)): s.position.x = v
        case let (.positionY, .double(v)): s.position.y = v
        case let (.anchorPoint, .point(v)): s.anchorPoint = v
        case let (.anchorPointX, .double(v)): s.anchorPoint.x = v
        case let (.anchorPointY, .double(v)): s.anchorPoint.y = v
        case let (.anchorPointZ, .double(v)): s.anchorPointZ = v
        case let (.zPosition, .double(v)): s.zPosition = v
        case let (.bounds, .rect(v)): s.bounds = v
        case let (.boundsOrigin, .point(v)): s.bounds.origin = v
        case let (.boundsOriginX, .double(v)): s.bounds.origin.x = v
        case let (.boundsOriginY, .double(v)): s.bounds.origin.y = v
        case let (.boundsSize, .size(v)): s.bounds.size = v
        case let (.boundsWidth, .double(v)): s.bounds.size.width = v
        case let (.boundsHeight, .double(v)): s.bounds.size.height = v
        case let (.opacity, .double(v)): s.opacity = v
        case let (.cornerRadius, .double(v)): s.cornerRadius = v
        case let (.borderWidth, .double(v)): s.borderWidth = v
        case let (.shadowOpacity, .double(v)): s.shadowOpacity = v
        case let (.shadowRadius, .double(v)): s.shadowRadius = v
        case let (.shadowOffset, .size(v)): s.shadowOffset = v
        case let (.shadowOffsetWidth, .double(v)): s.shadowOffset.width = v
        case let (.shadowOffsetHeight, .double(v)): s.shadowOffset.height = v
        case let (.contentsRect, .rect(v)): s.contentsRect = v
        case let (.contentsCenter, .rect(v)): s.contentsCenter = v
        case let (.backgroundColor, .color(v)): s.backgroundComponents = v
        case let (.borderColor, .color(v)): s.borderComponents = v
        case let (.shadowColor, .color(v)): s.shadowComponents = v
        default: break   // a value of another type: cannot happen
        }
    }
}
