/// Delivers animation events as media time passes: `animationDidStart`,
/// `animationDidStop(finished: true)`, removal on completion, and through them
/// transaction completion blocks (rules E5, E8, T4).
///
/// Only layers that have animations are tracked, so time passing costs nothing
/// for the rest of the tree. A `ManualMediaClock` calls ``deliverDueEvents()``
/// whenever it is advanced; on the system clock a window's frame does.
@MainActor
public enum AnimationTimeline {
    /// A context's timeline (``LayerContext``).
    final class State {
        /// Layers with animations, in the order they got their first one (each knows its
        /// place: `Layer.timelineIndex`). Not retained: a layer leaves in its deinit.
        /// An array, walked in that order, so a pass over thousands of layers reads
        /// memory roughly in the order it was allocated in.
        @exclusivity(unchecked) var layers: [Unmanaged<Layer>] = []
        @exclusivity(unchecked) var mutations = 0
        /// Nothing falls due before this root time, as long as `quietStamp` still
        /// matches: lets a frame skip scanning every animation when nothing is due.
        var quietUntil = -Double.infinity
        var quietStamp = (mutations: -1, commits: -1)
        /// Pending timers, in the order they fall due.
        var timers: [MediaTimer] = []
        var isDelivering = false
        /// Timers run by the delivery under way (``maximumTimersPerDelivery``).
        var timersRunThisDelivery = 0
        /// What each layer in `layers` shows as of the last ``evaluate(atTime:)``, same order.
        var shownStates: [LayerState] = []
        var evaluations: [Evaluation] = []

        /// Something that moves event times changed (a layer's own timing).
        func invalidate() { mutations &+= 1 }

        /// Adds a layer that has just got its first animation.
        @MainActor
        func list(_ layer: Layer) {
            layer.timelineIndex = layers.count
            layers.append(Unmanaged.passUnretained(layer))
        }

        /// Calls `body` with the timeline, not retained (as `Layer.borrowing`, and
        /// apart from it: made generic, that one was inlined differently in the
        /// frame's pass, which then lost an inlined timing function).
        @inline(__always)
        static func borrowing<R>(_ t: Unmanaged<State>, _ body: (State) -> R) -> R {
            t._withUnsafeGuaranteedRef(body)
        }
    }

    static func add(_ timer: MediaTimer) {
        let t = timer.context.timeline
        let i = t.timers.firstIndex { ($0.fireTime, $0.sequence) > (timer.fireTime, timer.sequence) } ?? t.timers.count
        t.timers.insert(timer, at: i)
        t.mutations &+= 1
    }

    static func remove(_ timer: MediaTimer) {
        timer.context.timeline.timers.removeAll { $0 === timer }
    }

    /// Timers one delivery runs at most. Periodic work that schedules each run at
    /// its previous time plus the period (as it should, against drift) runs once
    /// per period that passed: a clock advanced by 10⁶ s ran a 0.5 s timer two
    /// million times in one advance (found by the app fuzzer). Past this many, the
    /// rest wait for the next delivery, with a diagnostic.
    public static let maximumTimersPerDelivery = 10_000

    /// Runs the timers due by `now`, earliest first; true when any ran.
    private static func fireDueTimers(now: Double, in t: State) -> Bool {
        var fired = false
        while let first = t.timers.first, first.fireTime <= now {
            guard t.timersRunThisDelivery < maximumTimersPerDelivery else {
                Diagnostics.report(.invalidTiming("more than \(maximumTimersPerDelivery) media timers fell due at once; the rest run at the next delivery"))
                return false
            }
            t.timers.removeFirst()
            t.timersRunThisDelivery += 1
            first.fire()
            fired = true
        }
        return fired
    }

    /// Every animation added says so here. The timeline is borrowed: held as a
    /// plain reference, it was retained and released around the list's growth.
    @inline(__always)
    static func register(_ layer: Layer) {
        State.borrowing(Unmanaged.passUnretained(layer.context.timeline)) { t in
            if layer.timelineIndex < 0 { t.list(layer) }
            t.mutations &+= 1
        }
    }

    /// The layers that have animations now — the only ones whose presentation can
    /// differ from their model, so a renderer evaluates just these.
    public static var animatedLayers: [Layer] {
        LayerContext.current.timeline.layers.map { $0.takeUnretainedValue() }
    }

    /// The layers of ``animatedLayers``, one by one, without making the array (nor
    /// retaining each): for a renderer's or a benchmark's pass over thousands.
    /// `body` must not add or remove animations.
    public static func forEachAnimatedLayer(_ body: (Layer) -> Void) {
        for layer in LayerContext.current.timeline.layers { body(layer.takeUnretainedValue()) }
    }

    /// Stops tracking every layer of the current context. For tests that share a context.
    public static func reset() {
        let t = LayerContext.current.timeline
        for l in t.layers { l.takeUnretainedValue().timelineIndex = -1 }
        t.layers.removeAll()
        removeAllShownStates(in: t)
        t.timers.removeAll()
        t.quietUntil = -.infinity
    }

    /// Stops tracking a layer (its place goes to the last one).
    static func unregister(_ layer: Layer) {
        let i = layer.timelineIndex
        guard i >= 0 else { return }
        let t = layer.context.timeline
        layer.timelineIndex = -1
        removeShownState(at: i, layerCount: t.layers.count, in: t)
        let last = t.layers.removeLast()
        if i < t.layers.count {
            t.layers[i] = last
            last.takeUnretainedValue().timelineIndex = i
        }
        t.mutations &+= 1
    }

    /// A due start or stop. Plain values, so sorting many of them is cheap; `index`
    /// points into the pass's list of entries.
    private struct Event {
        let time: Double
        let isStart: Bool
        let sequence: Int
        let index: Int
    }

    /// Delivers, in time order, every start and stop that has fallen due at the
    /// current media time. Callbacks may add or remove animations; what they make
    /// due is delivered too (up to a bound that stops runaway loops).
    public static func deliverDueEvents(in c: LayerContext = .current) {
        let t = c.timeline
        // A callback that commits or advances time lands here again: the pass
        // already running picks up what it makes due, without recursing.
        guard !t.isDelivering else { t.mutations &+= 1; return }
        let start = c.clock.now
        if start < t.quietUntil && t.quietStamp == (t.mutations, c.commitCount) { return }
        t.isDelivering = true
        t.timersRunThisDelivery = 0
        defer { t.isDelivering = false }
        for _ in 0..<1000 {
            let now = c.clock.now
            let before = t.mutations
            let (events, entries, nextAnimationEvent) = dueEvents(now: now, in: t)
            let next = min(nextAnimationEvent, t.timers.first?.fireTime ?? .infinity)
            if events.isEmpty {
                if fireDueTimers(now: now, in: t) { continue }
                // Quiet until the next event, unless something changes first.
                t.quietUntil = t.mutations == before ? next : -.infinity
                t.quietStamp = (t.mutations, c.commitCount)
                return
            }
            for e in events {
                let (layer, entry) = entries[e.index]
                guard !entry.isRemoved else { continue }
                if e.isStart {
                    guard !entry.hasStarted else { continue }
                    entry.hasStarted = true
                    entry.delegate?.animationDidStart(entry.animation)
                } else {
                    guard !entry.hasStopped else { continue }
                    if entry.isRemovedOnCompletion {
                        layer.remove(entry, finished: true)
                    } else {
                        entry.stop(finished: true)
                    }
                }
            }
            if fireDueTimers(now: now, in: t) { continue }
            if t.mutations == before {
                t.quietUntil = -.infinity   // events were delivered: look again next time
                return
            }
        }
    }

    /// The events due at `now`, sorted, and the earliest root time after `now` at
    /// which another one falls due (computed in the same pass).
    private static func dueEvents(now: Double, in t: State) -> (events: [Event], entries: [(Layer, AnimationEntry)], next: Double) {
        var events: [Event] = []
        var entries: [(Layer, AnimationEntry)] = []
        var unobservedStops: [(Layer, AnimationEntry)] = []
        var next = Double.infinity
        for unmanaged in t.layers {
            let layer = unmanaged.takeUnretainedValue()
            // The layer's time is an affine map of root time: local = scale · root + shift.
            var map: (scale: Double, shift: Double)?
            for entry in layer.animationEntries where entry.isCommitted && !entry.hasStopped {
                let a = entry.timing
                let m = map ?? layer.timeMapFromRoot
                map = m
                let t = m.scale * now + m.shift
                let tAct = a.activeTime(atLayerTime: t, begin: a.beginTime)
                let startDue = !entry.hasStarted && tAct >= 0
                let stopDue = tAct >= a.activeDuration
                // When this one's next event comes, in root time (never while time stands still).
                func root(_ activeTime: Double) -> Double {
                    guard a.speed > 0, m.scale > 0 else { return .infinity }
                    let r = (a.beginTime + activeTime / a.speed - m.shift) / m.scale
                    return r.isFinite ? r : .infinity
                }
                if !startDue && !entry.hasStarted { next = min(next, root(0)) }
                if !stopDue { next = min(next, root(a.activeDuration)) }
                guard startDue || stopDue else { continue }
                if entry.delegate == nil && entry.completionGroups.isEmpty {
                    // Nobody observes this one: its order among the others cannot matter.
                    entry.hasStarted = entry.hasStarted || startDue
                    if stopDue { unobservedStops.append((layer, entry)) }
                    continue
                }
                let index = entries.count
                entries.append((layer, entry))
                if startDue {
                    events.append(Event(time: min(now, root(0)), isStart: true, sequence: entry.sequence, index: index))
                }
                if stopDue {
                    events.append(Event(time: min(now, root(a.activeDuration)), isStart: false, sequence: entry.sequence, index: index))
                }
            }
        }
        for (layer, entry) in unobservedStops {
            if entry.isRemovedOnCompletion { layer.remove(entry, finished: true) } else { entry.stop(finished: true) }
        }
        events.sort {
            if $0.time != $1.time { return $0.time < $1.time }
            if $0.isStart != $1.isStart { return $0.isStart }
            return $0.sequence < $1.sequence
        }
        return (events, entries, next)
    }


    /// The earliest root time at or after `time` when some presentation value may
    /// change: `time` itself while anything animates, the next start otherwise,
    /// `.infinity` when nothing will change. Frame pacing stops requesting frames
    /// at infinity. With `root`, only the layers of that tree count: each surface
    /// asks about its own tree, so an animation in one window wakes only that window.
    public static func nextChangeTime(after time: Double, under root: Layer? = nil) -> Double {
        var next = Double.infinity
        for unmanaged in (root?.context ?? .current).timeline.layers {
            let layer = unmanaged.takeUnretainedValue()
            if let root, layer.rootLayer !== root { continue }
            let t = layer.localTime(fromRoot: time)
            for entry in layer.animationEntries {
                let a = entry.timing
                if !entry.isCommitted { return time }
                let tAct = a.activeTime(atLayerTime: t, begin: a.beginTime)
                if tAct >= a.activeDuration { continue }  // ended: a fill shows a constant value
                if tAct >= 0 {
                    if a.speed != 0 && layer.isTimeFlowing { return time }
                    continue
                }
                let start = layer.rootTime(fromLocal: a.beginTime)
                if start.isFinite { next = min(next, max(time, start)) }
            }
        }
        return next
    }

    /// The earliest root time after `time` at which a start or stop is due (a
    /// delegate call, a completion block, a removal), `.infinity` when none is
    /// pending. On the system clock, whoever drives frames wakes up then and
    /// calls ``deliverDueEvents()``. With `root`, only the animations of that tree
    /// count (and no media timer: those belong to no tree).
    public static func nextEventTime(after time: Double, under root: Layer? = nil) -> Double {
        let t = (root?.context ?? .current).timeline
        var next = root == nil ? t.timers.first.map { max($0.fireTime, time) } ?? .infinity : .infinity
        for unmanaged in t.layers {
            let layer = unmanaged.takeUnretainedValue()
            if let root, layer.rootLayer !== root { continue }
            for entry in layer.animationEntries where entry.isCommitted && !entry.hasStopped {
                let a = entry.timing
                guard a.speed > 0 else { continue }
                if !entry.hasStarted { next = min(next, layer.rootTime(fromLocal: a.beginTime)) }
                let end = layer.rootTime(fromLocal: a.beginTime + a.activeDuration / a.speed)
                if end.isFinite { next = min(next, end) }
            }
        }
        return next
    }

    /// True while some animation has an effect that changes with time.
    public static var isAnimating: Bool {
        let now = LayerContext.current.clock.now
        return nextChangeTime(after: now) == now
    }
}

extension Layer {
    /// False when this layer or an ancestor has speed 0 (its time stands still).
    var isTimeFlowing: Bool {
        var l: Layer? = self
        while let x = l {
            if x.state.speed == 0 { return false }
            l = x.superlayer
        }
        return true
    }
}
