/// Options of a keyframe block (`UIView.KeyframeAnimationOptions`): the block
/// options, and how the keyframes' values are joined. Raw values are UIKit's.
public struct KeyframeAnimationOptions: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    public static let layoutSubviews = KeyframeAnimationOptions(rawValue: AnimationOptions.layoutSubviews.rawValue)
    public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: AnimationOptions.allowUserInteraction.rawValue)
    public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: AnimationOptions.beginFromCurrentState.rawValue)
    public static let `repeat` = KeyframeAnimationOptions(rawValue: AnimationOptions.repeat.rawValue)
    public static let autoreverse = KeyframeAnimationOptions(rawValue: AnimationOptions.autoreverse.rawValue)
    public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: AnimationOptions.overrideInheritedDuration.rawValue)
    public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: AnimationOptions.overrideInheritedOptions.rawValue)

    /// Straight lines between keyframe values (the default).
    public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
    /// Each keyframe's value appears at its start and holds.
    public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
    /// Constant speed through all values; keyframe times are ignored (rule K4).
    public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
    /// A smooth spline through the values.
    public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
    /// The spline at constant speed.
    public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

    var calculationMode: CalculationMode {
        switch (rawValue >> 10) & 7 {
        case 1: .discrete
        case 2: .paced
        case 3: .cubic
        case 4: .cubicPaced
        default: .linear
        }
    }

    /// The block options among these.
    var blockOptions: AnimationOptions {
        AnimationOptions(rawValue: rawValue & ~(7 << 10)).intersection([.layoutSubviews, .allowUserInteraction,
            .beginFromCurrentState, .repeat, .autoreverse, .overrideInheritedDuration, .overrideInheritedOptions])
    }
}

extension View {
    /// Animates through keyframes (`animateKeyframes(withDuration:…)`): inside
    /// `animations`, each ``addKeyframe(withRelativeStartTime:relativeDuration:animations:)``
    /// says which part of the duration its changes take. Each animated property
    /// gets one `KeyframeAnimation` through its values, joined as the options'
    /// calculation mode says (linear by default); changes outside a keyframe span
    /// the whole duration. The completion follows rule V5.
    public static func animateKeyframes(withDuration duration: Double, delay: Double = 0, options: KeyframeAnimationOptions = [],
                                        animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        let block = AnimationBlock.make(duration: duration, delay: delay, timing: .curve(MediaTimingFunction(name: .linear)),
                                        options: options.blockOptions.union(.overrideInheritedCurve), completion: completion,
                                        absoluteBegin: true)
        block.recorder = KeyframeRecorder(calculationMode: options.calculationMode)
        block.run(animations)
    }

    /// One keyframe of the running keyframe block: the changes `animations` makes
    /// reach their values between `start` and `start + duration`, fractions of the
    /// block's duration (clamped to 0…1). Outside a keyframe block the changes
    /// are made as the running block (or none) would, with a diagnostic.
    public static func addKeyframe(withRelativeStartTime start: Double, relativeDuration duration: Double, animations: () -> Void) {
        guard let block = AnimationBlock.stack.last, block.recorder != nil else {
            Diagnostics.report(.invalidView("addKeyframe outside animateKeyframes; its changes are not keyframes"))
            return animations()
        }
        let s = min(1, max(0, start.isFinite ? start : 0))
        let e = min(1, max(s, s + (duration.isFinite ? duration : 0)))
        let outer = block.keyframeWindow
        block.keyframeWindow = (s, e)
        animations()
        block.keyframeWindow = outer
    }
}

/// Collects a keyframe block's changes, per layer and property, then turns each
/// into one `KeyframeAnimation` (as UIKit builds `CAKeyframeAnimation`s).
@MainActor
final class KeyframeRecorder {
    struct Stop {
        var start: Double
        var end: Double
        var value: Any?
    }
    final class Track {
        weak var view: View?
        let key: String
        let initial: Any?
        var stops: [Stop] = []
        init(view: View, key: String, initial: Any?) {
            self.view = view
            self.key = key
            self.initial = initial
        }
    }

    let calculationMode: CalculationMode
    private var tracks: [Track] = []

    init(calculationMode: CalculationMode) { self.calculationMode = calculationMode }

    /// The action for a change of `key` in the keyframe `window`: records the new value.
    func action(view: View, key: String, oldValue: Any?, window: (start: Double, end: Double)) -> any Action {
        let track = tracks.first { $0.view === view && $0.key == key } ?? {
            let t = Track(view: view, key: key, initial: oldValue)
            tracks.append(t)
            return t
        }()
        return ClosureAction { [track] event, layer, _ in
            let value = layer.value(forKey: event)
            if let last = track.stops.last, last.start == window.start, last.end == window.end {
                track.stops[track.stops.count - 1].value = value   // changed again in the same keyframe
            } else {
                track.stops.append(Stop(start: window.start, end: window.end, value: value))
            }
        }
    }

    /// One keyframe animation per recorded property, added with the block's timing.
    func addAnimations(for block: AnimationBlock) {
        for track in tracks {
            guard let view = track.view, let (values, times) = keyframes(track) else { continue }
            let animation = KeyframeAnimation(keyPath: track.key)
            animation.values = values
            animation.keyTimes = times
            animation.calculationMode = calculationMode
            animation.duration = block.duration
            block.applyTiming(to: animation, on: view.layer)
            block.add(animation, to: view, forKey: track.key)
        }
        tracks = []
    }

    /// The values and key times of a track; a missing colour is clear.
    private func keyframes(_ track: Track) -> (values: [Any], times: [Double])? {
        let stops = track.stops.sorted { ($0.start, $0.end) < ($1.start, $1.end) }
        let fill: (Any?) -> Any? = { $0 ?? (track.key.lowercased().contains("color") ? Color.clear : nil) }
        guard let initial = fill(track.initial) else { return nil }
        var values: [Any] = [initial], times = [0.0]
        if calculationMode == .discrete {
            // Each value from its keyframe's start; n values take n + 1 key times.
            for stop in stops {
                guard let v = fill(stop.value) else { return nil }
                values.append(v)
                times.append(max(stop.start, times.last!))
            }
            times.append(1)
            return (values, times)
        }
        var last = initial, lastTime = 0.0
        for stop in stops {
            guard let v = fill(stop.value) else { return nil }
            if stop.start > lastTime {          // holds its value until the keyframe starts
                values.append(last)
                times.append(stop.start)
            }
            lastTime = max(lastTime, stop.end)
            values.append(v)
            times.append(lastTime)
            last = v
        }
        if lastTime < 1 {
            values.append(last)
            times.append(1)
        }
        return (values, times)
    }
}
