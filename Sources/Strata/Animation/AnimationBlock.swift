/// One running `View.animate { }` (or `performWithoutAnimation`) block: the
/// settings its changes animate with, and its completion (rules V3–V8).
///
/// Blocks form a stack while their closures run. A view's layer asks the
/// innermost block for an action (``action(for:forKey:)``); outside any block, or
/// in one that does not animate, the view answers `NullAction` (rule V2).
@MainActor
final class AnimationBlock {
    /// How the block's animations move.
    enum Timing {
        case curve(MediaTimingFunction)
        /// UIKit's spring: damping ratio (1 = no overshoot) and initial velocity
        /// (in whole distances per second).
        case spring(dampingRatio: Double, velocity: Double)
    }

    /// False for `performWithoutAnimation` and for a duration ≤ 0: changes are immediate.
    let animates: Bool
    let duration: Double
    let timing: Timing
    let options: AnimationOptions
    /// Root media time the animations begin at; nil: when the transaction commits.
    let begin: Double?
    let completion: BlockCompletion
    /// In a keyframe block: where changes are recorded, and the part of the
    /// block's time the current keyframe covers (0…1).
    var recorder: KeyframeRecorder?
    var keyframeWindow = (start: 0.0, end: 1.0)
    /// Views whose layers animated in this block, with `.layoutSubviews`.
    var changedViews: [View] = []
    var changedViewIDs: Set<ObjectIdentifier> = []
    /// Told of each animation the block adds: the view, the key it runs under,
    /// the property and its value before the change (a property animator keeps them).
    var onAdd: ((View, String, String, Any?) -> Void)?

    /// The blocks whose closures are running, innermost last.
    // Process-wide as in UIKit: blocks nest on the main thread, whatever window their views are in.
    static var stack: [AnimationBlock] = []

    /// UIKit's `areAnimationsEnabled`: when false, blocks change views without animation.
    // UIKit's `UIView.areAnimationsEnabled` is a class property: one switch for the process.
    static var animationsEnabled = true

    private init(animates: Bool, duration: Double, timing: Timing, options: AnimationOptions, begin: Double?,
                 completion: BlockCompletion) {
        self.animates = animates
        self.duration = duration
        self.timing = timing
        self.options = options
        self.begin = begin
        self.completion = completion
    }

    /// A block nested in the running one inherits that block's duration, curve and
    /// options unless it overrides them (rule V6); in a block that does not
    /// animate, nothing nested animates either.
    static func make(duration: Double, delay: Double, timing: Timing, options: AnimationOptions,
                     completion: ((Bool) -> Void)?, absoluteBegin: Bool = false) -> AnimationBlock {
        var duration = duration, delay = delay, timing = timing, options = options
        if !duration.isFinite {
            Diagnostics.report(.invalidView("animation duration \(duration) is not finite; the changes are made without animation"))
            duration = 0
        }
        if !delay.isFinite || delay < 0 {
            if !delay.isFinite { Diagnostics.report(.invalidView("animation delay \(delay) is not finite; 0 is used")) }
            delay = 0
        }
        if case let .spring(ratio, velocity) = timing {
            var (r, v) = (ratio, velocity)
            if !(r > 0) || !r.isFinite {
                Diagnostics.report(.invalidView("spring damping ratio \(ratio) must be a positive number; 1 (no overshoot) is used"))
                r = 1
            }
            if !v.isFinite {
                Diagnostics.report(.invalidView("spring initial velocity \(velocity) is not finite; 0 is used"))
                v = 0
            }
            timing = .spring(dampingRatio: r, velocity: v)
        }
        var enclosingBegin: Double?
        var animates = animationsEnabled
        if let outer = stack.last {
            animates = animates && outer.animates
            if !options.contains(.overrideInheritedDuration) { duration = outer.duration }
            if !options.contains(.overrideInheritedCurve) { timing = outer.timing }
            if !options.contains(.overrideInheritedOptions) { options.formUnion(outer.options.intersection(AnimationOptions.flags)) }
            enclosingBegin = outer.begin
        }
        animates = animates && duration > 0
        var begin: Double?
        if let enclosingBegin {
            begin = enclosingBegin + delay
        } else if delay > 0 || absoluteBegin {
            begin = currentMediaTime() + delay
        }
        return AnimationBlock(animates: animates, duration: duration, timing: timing, options: options, begin: begin,
                              completion: BlockCompletion(completion))
    }

    /// A block that changes views without animation (`performWithoutAnimation`).
    static func disabled() -> AnimationBlock {
        AnimationBlock(animates: false, duration: 0, timing: .curve(.default), options: [], begin: nil,
                       completion: BlockCompletion(nil))
    }

    /// Runs `body` with this block innermost, then seals its completion.
    func run(_ body: () -> Void) {
        Transaction.ensureOpen()   // the completion of a block with nothing to animate waits for this transaction
        AnimationBlock.stack.append(self)
        body()
        if options.contains(.layoutSubviews) {
            for view in changedViews { view.layoutIfNeeded() }
        }
        recorder?.addAnimations(for: self)
        AnimationBlock.stack.removeLast()
        completion.seal()
    }

    // MARK: The action a view returns

    /// Properties UIKit animates additively (rule V7): a change mid-flight adds to
    /// the running motion instead of replacing it.
    static let additiveKeys: Set<String> = ["position", "bounds", "transform", "cornerRadius"]
    /// Animatable layer properties that change at once even inside a block, as in
    /// UIKit: visibility, clipping, masks and contents (use a transition for those).
    static let immediateKeys: Set<String> = ["hidden", "masksToBounds", "mask", "contents", "filters"]

    /// What `view`'s layer runs for a change of `key` inside the innermost block,
    /// or nil (the view then answers `NullAction`, rule V2). Looked up before the
    /// model changes, so the action keeps the old value.
    static func action(for view: View, forKey key: String) -> (any Action)? {
        guard let block = stack.last, block.animates, !immediateKeys.contains(key),
              type(of: view.layer).propertyDescriptors[key]?.isImplicitlyAnimatable == true else { return nil }
        let layer = view.layer
        let shown = block.options.contains(.beginFromCurrentState) && layer.hasAnimations
            ? layer.presentation(atTime: currentMediaTime()).value(forKey: key) : nil
        if block.options.contains(.layoutSubviews), block.changedViewIDs.insert(ObjectIdentifier(view)).inserted {
            block.changedViews.append(view)
        }
        if let recorder = block.recorder {
            return recorder.action(view: view, key: key, oldValue: layer.value(forKey: key), window: block.keyframeWindow)
        }
        return ViewAnimationAction(block: block, view: view, oldValue: layer.value(forKey: key), shownValue: shown)
    }

    /// Gives `animation` the block's repeat, fill mode and start (rule V8).
    func applyTiming(to animation: Animation, on layer: Layer) {
        animation.fillMode = .both   // rule V8: shows its start during a delay
        if options.contains(.repeat) { animation.repeatCount = .infinity }
        animation.autoreverses = options.contains(.autoreverse)
        if let begin { animation.beginTime = layer.convertTime(begin, from: nil) }
    }

    /// Adds `animation` to `view`'s layer under `key`, reporting to the block's
    /// completion and holding input off the view while it runs (rules V5, V8).
    func add(_ animation: Animation, to view: View, forKey key: String, property: String? = nil, oldValue: Any? = nil) {
        // The block made the animation for this use alone: the layer keeps it, uncopied.
        if let onAdd {
            view.layer.add(made: animation, forKey: key)
            return onAdd(view, key, property ?? key, oldValue)
        }
        let observer = BlockAnimationObserver(completion: completion, view: view, blocksInput: !options.contains(.allowUserInteraction))
        animation.delegate = observer
        view.layer.add(made: animation, forKey: key)
        if view.layer.animation(forKey: key) === animation { observer.added() }
    }

    /// A new animation of `keyPath` with the block's duration, timing, options and start.
    func makeAnimation(keyPath: String, on layer: Layer) -> BasicAnimation {
        let animation: BasicAnimation
        switch timing {
        case let .curve(function):
            animation = BasicAnimation(keyPath: keyPath)
            animation.duration = duration
            animation.timingFunction = function
        case let .spring(ratio, velocity):
            animation = SpringAnimation(keyPath: keyPath, dampingRatio: ratio, duration: duration, initialVelocity: velocity)
        }
        applyTiming(to: animation, on: layer)
        return animation
    }
}
