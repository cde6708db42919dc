/// How an animation's effect extends outside its active time (`CAMediaTimingFillMode`, rule E5).
public enum FillMode: String, Hashable, Sendable {
    /// No effect outside the active time.
    case removed
    /// Keeps the final value after the end (with `isRemovedOnCompletion = false`).
    case forwards
    /// Shows the first value before `beginTime`.
    case backwards
    /// Both.
    case both
}

/// Told when an animation starts and stops (`CAAnimationDelegate`, rule E8).
@MainActor
public protocol AnimationDelegate: AnyObject {
    func animationDidStart(_ animation: Animation)
    /// `finished` is true when the animation ran to its end, false when it was
    /// removed or replaced first.
    func animationDidStop(_ animation: Animation, finished: Bool)
}

extension AnimationDelegate {
    public func animationDidStart(_ animation: Animation) {}
    public func animationDidStop(_ animation: Animation, finished: Bool) {}
}

/// The base of every animation (`CAAnimation`): media timing (rule E9), a timing
/// function, removal on completion and a delegate. Every animation is an
/// ``Action``: running it adds it to the layer under the event's key (rule A1).
///
/// A layer adds a *copy* (rule E1): changing an animation after `add(_:forKey:)`
/// does not affect the running one; `layer.animation(forKey:)` returns the copy.
@MainActor
open class Animation: Action {
    /// Seconds of one simple cycle; 0 means the transaction's duration (0.25 s by
    /// default) when added (rule L1). Negative or non-finite: 0, with a diagnostic.
    public var duration = 0.0
    /// When the animation starts, in the layer's time space; 0 means "when the
    /// transaction commits" (rules T2, E7).
    public var beginTime = 0.0
    public var speed = 1.0
    public var timeOffset = 0.0
    /// Cycles to play; fractional allowed, `.infinity` repeats forever.
    public var repeatCount = 0.0
    /// Seconds to repeat for (instead of `repeatCount`).
    public var repeatDuration = 0.0
    /// Each cycle plays forwards then backwards.
    public var autoreverses = false
    public var fillMode = FillMode.removed
    /// Nil means linear pacing.
    public var timingFunction: MediaTimingFunction?
    /// Removed from the layer when it ends (default true, rule E5).
    public var isRemovedOnCompletion = true
    /// Retained, as `CAAnimation` retains its delegate.
    public var delegate: (any AnimationDelegate)?

    public init() {}

    /// A copy of `other`; subclasses copy their own fields.
    public required init(copying other: Animation) {
        duration = other.duration
        beginTime = other.beginTime
        speed = other.speed
        timeOffset = other.timeOffset
        repeatCount = other.repeatCount
        repeatDuration = other.repeatDuration
        autoreverses = other.autoreverses
        fillMode = other.fillMode
        timingFunction = other.timingFunction
        isRemovedOnCompletion = other.isRemovedOnCompletion
        delegate = other.delegate
    }

    /// An independent copy of the animation.
    public func copy() -> Self {
        type(of: self).init(copying: self) as! Self
    }

    /// Adds the animation to `object` under `event` (rule A1).
    open func run(forKey event: String, object: Layer, arguments: [String: Any]?) {
        object.add(self, forKey: event)
    }

    // MARK: Hooks for the engine (overridden by the animation classes of LayerKit)

    /// Checks the animation can run on `layer`; a problem keeps it from being added.
    func problem(for layer: Layer) -> LayerKitDiagnostic? { nil }

    /// Called on the layer's copy when it is added, before it replaces any animation
    /// with the same key: captures what must be read from the layer at that moment.
    func prepare(for layer: Layer, entry: AnimationEntry) {}

    /// Applies the effect at `fraction` (0…1 of one simple cycle, not yet eased) of
    /// cycle `iteration` to the presentation copy.
    func applyEffect(to presentation: Layer, model: Layer, fraction: Double, iteration: Int, entry: AnimationEntry) {}
}
