/// Block-style view animation (`UIView.animate…`, rules V3–V8).
///
/// ```swift
/// View.animate(duration: 0.3) {
///     card.alpha = 0
///     card.center.y += 40
/// } completion: { finished in
///     card.removeFromSuperview()
/// }
/// ```
extension View {
    /// Animates the changes `animations` makes to views (rule V3): each change
    /// of an animatable property of a view's layer becomes an animation with this
    /// duration, delay and curve (`easeInEaseOut` by default, rule V8), from the
    /// old value to the new one. The model takes the new values at once.
    ///
    /// `position`, `bounds`, `transform` and `cornerRadius` animate additively, so
    /// changing them again mid-flight stays continuous; `opacity` and
    /// `backgroundColor` replace a running animation (rule V7). Explicit layer
    /// animations added inside keep their own timing (rule V4). `completion` gets
    /// `true` when every animation the block made finished, `false` when one was
    /// interrupted; it runs after the transaction commits even when nothing
    /// animated (rule V5). A duration ≤ 0 makes the changes without animation.
    /// Nested blocks inherit duration and curve (rule V6).
    public static func animate(duration: Double, delay: Double = 0, options: AnimationOptions = [],
                               _ animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        AnimationBlock.make(duration: duration, delay: delay, timing: .curve(options.curve), options: options,
                            completion: completion).run(animations)
    }

    /// The `async` form: returns when the block's animations are over, `true`
    /// when all of them finished (rule V5).
    @discardableResult
    public static func animate(duration: Double, delay: Double = 0, options: AnimationOptions = [],
                               _ animations: () -> Void) async -> Bool {
        await withCheckedContinuation { continuation in
            animate(duration: duration, delay: delay, options: options, animations) { continuation.resume(returning: $0) }
        }
    }

    /// Animates with a spring (`animate(withDuration:delay:usingSpringWithDamping:…)`):
    /// `dampingRatio` 1 comes to rest without overshoot, smaller values bounce;
    /// `initialVelocity` is in whole distances per second. The motion settles in
    /// about `duration`. A ratio ≤ 0 or not finite falls back to 1, with a diagnostic.
    public static func animate(duration: Double, delay: Double = 0, dampingRatio: Double, initialVelocity: Double = 0,
                               options: AnimationOptions = [], _ animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        AnimationBlock.make(duration: duration, delay: delay, timing: .spring(dampingRatio: dampingRatio, velocity: initialVelocity),
                            options: options, completion: completion).run(animations)
    }

    /// The `async` spring form.
    @discardableResult
    public static func animate(duration: Double, delay: Double = 0, dampingRatio: Double, initialVelocity: Double = 0,
                               options: AnimationOptions = [], _ animations: () -> Void) async -> Bool {
        await withCheckedContinuation { continuation in
            animate(duration: duration, delay: delay, dampingRatio: dampingRatio, initialVelocity: initialVelocity,
                    options: options, animations) { continuation.resume(returning: $0) }
        }
    }

    // MARK: UIKit spellings, for code ported from iOS

    /// `UIView.animate(withDuration:delay:options:animations:completion:)`.
    public static func animate(withDuration duration: Double, delay: Double = 0, options: AnimationOptions = [],
                               animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        animate(duration: duration, delay: delay, options: options, animations, completion: completion)
    }

    /// `UIView.animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:options:animations:completion:)`.
    public static func animate(withDuration duration: Double, delay: Double, usingSpringWithDamping dampingRatio: Double,
                               initialSpringVelocity velocity: Double, options: AnimationOptions,
                               animations: () -> Void, completion: ((Bool) -> Void)?) {
        animate(duration: duration, delay: delay, dampingRatio: dampingRatio, initialVelocity: velocity, options: options,
                animations, completion: completion)
    }

    // MARK: Without animation

    /// Makes the changes in `actions` without animation, even inside an
    /// animation block (rule V6).
    public static func performWithoutAnimation(_ actions: () -> Void) {
        AnimationBlock.disabled().run(actions)
    }

    /// When false, animation blocks make their changes without animation (`areAnimationsEnabled`).
    public static var areAnimationsEnabled: Bool {
        get { AnimationBlock.animationsEnabled }
        set { AnimationBlock.animationsEnabled = newValue }
    }

    /// The duration of the animation block running now, 0 outside one (`inheritedAnimationDuration`).
    public static var inheritedAnimationDuration: Double {
        guard let block = AnimationBlock.stack.last, block.animates else { return 0 }
        return block.duration
    }
}
