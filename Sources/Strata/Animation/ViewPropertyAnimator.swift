/// Where an animator's animations end (`UIViewAnimatingPosition`).
public enum ViewAnimatingPosition: Hashable, Sendable {
    /// The values the animations went to.
    case end
    /// The values before the animations.
    case start
    /// Whatever was on screen when the animator stopped.
    case current
}

/// An animator's state (`UIViewAnimatingState`).
public enum ViewAnimatingState: Hashable, Sendable {
    /// Nothing started yet, or finished.
    case inactive
    /// Started, running or paused.
    case active
    /// Stopped without finishing; ``ViewPropertyAnimator/finishAnimation(at:)`` ends it.
    case stopped
}

/// An interruptible view animation (`UIViewPropertyAnimator`): start it, pause
/// it, scrub it with ``fractionComplete``, reverse it, continue it with new
/// timing, or stop it where it is — the tool for animations that follow a
/// gesture.
///
/// The animations are ordinary layer animations, added once (when the animator
/// first starts, pauses or is scrubbed) and retimed from then on: paused they
/// stand still (speed 0) at the fraction, running they move forwards or (reversed)
/// backwards from it. Values are exact at any media time, on any clock.
///
/// ```swift
/// let animator = ViewPropertyAnimator(duration: 0.4, curve: .easeInOut) { card.center.y = 600 }
/// animator.pauseAnimation()
/// animator.fractionComplete = 0.3          // follows a finger
/// animator.isReversed = true
/// animator.continueAnimation(withTimingParameters: nil, durationFactor: 0)
/// ```
@MainActor
public final class ViewPropertyAnimator {
    /// UIKit's named curves (`UIView.AnimationCurve`).
    public enum AnimationCurve: Hashable, Sendable {
        case easeInOut, easeIn, easeOut, linear
        var function: MediaTimingFunction {
            switch self {
            case .easeInOut: MediaTimingFunction(name: .easeInEaseOut)
            case .easeIn: MediaTimingFunction(name: .easeIn)
            case .easeOut: MediaTimingFunction(name: .easeOut)
            case .linear: MediaTimingFunction(name: .linear)
            }
        }
    }

    /// How the animations move (`UITimingCurveProvider`): a cubic curve or a spring.
    public enum TimingParameters: Sendable {
        case curve(MediaTimingFunction)
        case spring(dampingRatio: Double, initialVelocity: Double)
    }

    /// Seconds the whole animation takes, at the start.
    public let duration: Double
    public private(set) var delay = 0.0
    public private(set) var state = ViewAnimatingState.inactive
    /// When true the animator stays active and paused at the end instead of finishing.
    public var pausesOnCompletion = false
    /// While paused, values follow ``fractionComplete`` linearly (default true, as in UIKit).
    public var scrubsLinearly = true
    /// Whether the animated views take input meanwhile (rule V8); default true.
    public var isUserInteractionEnabled = true

    private var timing: TimingParameters
    private var animationBlocks: [() -> Void] = []
    private var completions: [(ViewAnimatingPosition) -> Void] = []
    /// What the animations were added as: the view, the key they run under, the
    /// property, its value before.
    private var records: [(view: View, key: String, property: String, oldValue: Any?)] = []
    /// Anchor of the motion: at media time `anchorTime` the fraction was `anchorFraction`;
    /// it moves by `direction` (1, −1, 0 paused) per `animationDuration` seconds.
    private var anchorTime = 0.0
    private var anchorFraction = 0.0
    private var direction = 0.0
    private var reversed = false
    /// The duration of the animations as retimed (after `continueAnimation`).
    private var animationDuration: Double
    /// A private layer whose no-op animation falls due exactly when the motion ends.
    private let clockLayer = Layer()
    private var sentinel: SentinelDelegate?

    /// An animator with a named curve; `animations` run when it starts.
    public convenience init(duration: Double, curve: AnimationCurve, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: .curve(curve.function), animations: animations)
    }

    /// An animator with a cubic curve through two control points.
    public convenience init(duration: Double, controlPoint1: Point, controlPoint2: Point, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: .curve(MediaTimingFunction(
            controlPoints: controlPoint1.x, controlPoint1.y, controlPoint2.x, controlPoint2.y)), animations: animations)
    }

    /// An animator with a spring (`dampingRatio` 1: no overshoot).
    public convenience init(duration: Double, dampingRatio: Double, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: .spring(dampingRatio: dampingRatio, initialVelocity: 0), animations: animations)
    }

    /// An animator with any timing. A duration that is not a positive number
    /// becomes 0.25 s, with a diagnostic.
    public init(duration: Double, timingParameters: TimingParameters, animations: (() -> Void)? = nil) {
        var d = duration
        if !(d > 0 && d.isFinite) {
            Diagnostics.report(.invalidView("property animator duration \(duration) is not a positive number; 0.25 s is used"))
            d = 0.25
        }
        self.duration = d
        animationDuration = d
        timing = timingParameters
        if let animations { animationBlocks.append(animations) }
    }

    /// A started animator (`runningPropertyAnimator(withDuration:delay:options:animations:completion:)`).
    public static func runningPropertyAnimator(withDuration duration: Double, delay: Double = 0, options: AnimationOptions = [],
                                               animations: @escaping () -> Void,
                                               completion: ((ViewAnimatingPosition) -> Void)? = nil) -> ViewPropertyAnimator {
        let animator = ViewPropertyAnimator(duration: duration, timingParameters: .curve(options.curve), animations: animations)
        animator.isUserInteractionEnabled = options.contains(.allowUserInteraction)
        if let completion { animator.addCompletion(completion) }
        animator.startAnimation(afterDelay: delay)
        return animator
    }

    // MARK: Building

    /// Adds more changes. Before the start they join the others; on an active
    /// animator they animate over its remaining time with its curve.
    public func addAnimations(_ animations: @escaping () -> Void) {
        guard state == .active else { return animationBlocks.append(animations) }
        let remaining = animationDuration * (reversed ? fractionComplete : 1 - fractionComplete)
        View.animate(duration: remaining, options: [.overrideInheritedDuration, .overrideInheritedCurve], animations)
    }

    /// Called once with where the animations ended, when the animator finishes.
    public func addCompletion(_ completion: @escaping (ViewAnimatingPosition) -> Void) {
        completions.append(completion)
    }

    // MARK: Running

    /// True while the animations move.
    public var isRunning: Bool { state == .active && direction != 0 }

    /// Plays the animations backwards from where they are. Set it while running or paused.
    public var isReversed: Bool {
        get { reversed }
        set {
            guard newValue != reversed else { return }
            let f = fractionComplete
            reversed = newValue
            if isRunning { move(from: f, direction: reversed ? -1 : 1) }
        }
    }

    /// How far the animations are, 0 at the start, 1 at the end (of time, not of
    /// value: the curve maps it). Set it while paused to scrub; setting it on an
    /// inactive animator starts it paused there.
    public var fractionComplete: Double {
        get {
            guard state == .active else { return state == .inactive ? 0 : anchorFraction }
            return Self.clamp(anchorFraction + direction * (currentMediaTime() - anchorTime) / animationDuration)
        }
        set {
            guard newValue.isFinite else {
                return Diagnostics.report(.invalidView("fractionComplete \(newValue) is not finite; ignored"))
            }
            if state == .inactive { pauseAnimation() }
            guard state == .active, direction == 0 else { return }
            move(from: Self.clamp(newValue), direction: 0)
        }
    }

    /// Starts or resumes the animations.
    public func startAnimation() {
        startAnimation(afterDelay: 0)
    }

    /// Starts the animations after `delay` seconds (they show their start meanwhile).
    public func startAnimation(afterDelay delay: Double) {
        guard state != .stopped else { return }
        let wasInactive = state == .inactive
        activateIfNeeded()
        guard direction == 0 || wasInactive else { return }
        self.delay = max(0, delay.isFinite ? delay : 0)
        resume(timing: nil, remaining: nil, at: currentMediaTime() + self.delay)
    }

    /// Stops the motion where it is; the animator stays active.
    public func pauseAnimation() {
        guard state != .stopped else { return }
        activateIfNeeded()
        var f = fractionComplete
        if scrubsLinearly, case let .curve(function) = timing {
            f = function.value(at: f)   // from here values follow the fraction linearly, with no jump
            scrubbingLinearly = true
        }
        move(from: f, direction: 0)
    }
    private var scrubbingLinearly = false

    /// Resumes with new timing (nil: the animator's own) for the remaining part:
    /// `durationFactor` scales the original duration for what is left (0: the time
    /// left as it is).
    public func continueAnimation(withTimingParameters parameters: TimingParameters?, durationFactor: Double) {
        guard state == .active else { return }
        let left = reversed ? fractionComplete : 1 - fractionComplete
        let factor = durationFactor > 0 && durationFactor.isFinite ? durationFactor : nil
        resume(timing: parameters, remaining: factor.map { $0 * duration * left }, at: currentMediaTime())
    }

    /// Stops the animations where they are: the views keep what is on screen as
    /// their model values. With `withoutFinishing` true the animator becomes
    /// inactive and no completion runs; else it is `.stopped` until
    /// ``finishAnimation(at:)``.
    public func stopAnimation(_ withoutFinishing: Bool) {
        guard state == .active else { return }
        settle(at: .current)
        state = withoutFinishing ? .inactive : .stopped
    }

    /// Ends a stopped animator: the views take the values at `position` and the
    /// completions run with it.
    public func finishAnimation(at position: ViewAnimatingPosition) {
        guard state == .stopped || state == .active else { return }
        if state == .active { settle(at: position) } else if position == .start { restoreStartValues() }
        state = .inactive
        let handlers = completions
        completions = []
        for handler in handlers { handler(position) }
    }

    // MARK: The animations' time

    /// Runs the animation closures once, adding their animations paused at 0.
    private func activateIfNeeded() {
        guard state == .inactive else { return }
        state = .active
        records = []
        let block = AnimationBlock.make(duration: duration, delay: 0, timing: blockTiming(timing),
                                        options: isUserInteractionEnabled ? [.allowUserInteraction, .overrideInheritedDuration, .overrideInheritedCurve]
                                                                          : [.overrideInheritedDuration, .overrideInheritedCurve],
                                        completion: nil)
        block.onAdd = { [unowned self] view, key, property, old in records.append((view, key, property, old)) }
        let blocks = animationBlocks
        animationBlocks = []
        block.run { for b in blocks { b() } }
        animationDuration = duration
        scrubbingLinearly = false
        move(from: 0, direction: 0)
    }

    private func blockTiming(_ t: TimingParameters) -> AnimationBlock.Timing {
        switch t {
        case let .curve(f): .curve(f)
        case let .spring(r, v): .spring(dampingRatio: r, velocity: v)
        }
    }

    /// Runs from the current fraction (mapped back onto the curve after linear
    /// scrubbing, so nothing jumps) with `parameters`' curve, taking `remaining`
    /// seconds for what is left.
    private func resume(timing parameters: TimingParameters?, remaining: Double?, at start: Double) {
        var f = fractionComplete
        var progress = scrubbingLinearly ? f : nil
        if let parameters, case .curve = parameters {
            if progress == nil, case let .curve(old) = timing { progress = old.value(at: f) }
            timing = parameters
        }
        if let p = progress, case let .curve(function) = timing {
            f = Self.inverse(of: function, at: p)
            setTimingFunction(function)
        }
        scrubbingLinearly = false
        let left = reversed ? f : 1 - f
        if let remaining, left > 0 { animationDuration = max(1e-6, remaining / left) }
        anchorTime = start
        move(from: f, direction: reversed ? -1 : 1, at: start)
    }

    /// Re-anchors the motion at fraction `f` now (or at `time`) and retimes every animation.
    private func move(from f: Double, direction: Double, at time: Double? = nil) {
        let now = time ?? currentMediaTime()
        anchorTime = now
        anchorFraction = f
        self.direction = direction
        let d = animationDuration
        for r in records {
            let local = r.view.layer.convertTime(now, from: nil)
            r.view.layer.retimeAnimation(forKey: r.key) { a in
                a.duration = d
                a.speed = direction
                if direction == 0 {
                    // Standing still at the fraction (never quite 1: a time offset of a
                    // whole duration would wrap to the start).
                    (a.timeOffset, a.beginTime) = (min(f, 1 - 1e-9) * d, local)
                    if scrubbingLinearly { a.timingFunction = nil }
                } else {
                    (a.timeOffset, a.beginTime) = (0, direction > 0 ? local - f * d : local + f * d)
                }
            }
        }
        armSentinel(after: direction == 0 ? nil : (direction > 0 ? 1 - f : f) * d + max(0, now - currentMediaTime()))
    }

    private func setTimingFunction(_ function: MediaTimingFunction) {
        for r in records { r.view.layer.retimeAnimation(forKey: r.key) { $0.timingFunction = function } }
    }

    /// A no-op animation on a private layer that stops when the motion reaches its end.
    private func armSentinel(after seconds: Double?) {
        sentinel = nil
        clockLayer.removeAnimation(forKey: "end")
        guard let seconds else { return }
        let delegate = SentinelDelegate { [weak self] in self?.reachedEnd() }
        sentinel = delegate
        let tick = BasicAnimation(keyPath: "opacity")
        (tick.fromValue, tick.toValue) = (1.0, 1.0)
        tick.duration = max(1e-9, seconds)
        tick.beginTime = clockLayer.convertTime(currentMediaTime(), from: nil)
        tick.delegate = delegate
        clockLayer.add(tick, forKey: "end")
    }

    private func reachedEnd() {
        sentinel = nil
        let position: ViewAnimatingPosition = reversed ? .start : .end
        if pausesOnCompletion {
            return move(from: reversed ? 0 : 1, direction: 0)
        }
        finishAnimation(at: position)
    }

    /// Removes the animations, leaving the model at `position`'s values.
    private func settle(at position: ViewAnimatingPosition) {
        armSentinel(after: nil)
        let now = currentMediaTime()
        View.performWithoutAnimation {
            for r in records {
                let layer = r.view.layer
                if position == .current, let shown = layer.presentation(atTime: now).value(forKey: r.property) {
                    layer.setValue(shown, forKey: r.property)
                }
                layer.removeAnimation(forKey: r.key)
            }
        }
        if position == .start { restoreStartValues() }
        direction = 0
    }

    private func restoreStartValues() {
        View.performWithoutAnimation {
            // The first record of each property holds its value from before the animator.
            var done = Set<String>()
            for r in records where done.insert("\(ObjectIdentifier(r.view))/\(r.property)").inserted {
                r.view.layer.removeAnimation(forKey: r.key)
                r.view.layer.setValue(r.oldValue, forKey: r.property)
            }
        }
    }

    private static func clamp(_ f: Double) -> Double { min(1, max(0, f)) }

    /// The time fraction at which `function` reaches `progress` (bisection; the
    /// named curves and any curve with control points in 0…1 are monotonic).
    static func inverse(of function: MediaTimingFunction, at progress: Double) -> Double {
        var (lo, hi) = (0.0, 1.0)
        for _ in 0..<60 {
            let mid = (lo + hi) / 2
            if function.value(at: mid) < progress { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}

/// Hears when the animator's sentinel animation ends (and only a finished one).
@MainActor
private final class SentinelDelegate: AnimationDelegate {
    let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    func animationDidStop(_ animation: Animation, finished: Bool) {
        if finished { body() }
    }
}
