/// Delivers animation events as media time passes: `animationDidStart`,
/// `animationDidStop(finished: true)`, removal on completion, and through them
/// transaction completion blocks (rules E5, E8, T4).
///
/// Only layers that have animations are tracked, so time passing costs nothing
/// for the rest of the tree. A `ManualMediaClock` calls ``deliverDueEvents()``
/// whenever it is advanced; on the system clock a window's frame does.
@MainActor
public enum AnimationTimeline {
    static var layers: [ObjectIdentifier: WeakLayer] = [:]
    private static var mutations = 0
    private static var isDelivering = false

    static func register(_ layer: Layer) {
        layers[ObjectIdentifier(layer)] = WeakLayer(layer)
        mutations &+= 1
    }

    /// Stops tracking every layer. For tests that share one process.
    public static func reset() {
        layers.removeAll()
    }

    static func unregister(_ layer: Layer) {
        layers[ObjectIdentifier(layer)] = nil
        mutations &+= 1
    }

    private struct Event {
        let time: Double
        let isStart: Bool
        let entry: AnimationEntry
        let layer: Layer
    }

    /// Delivers, in time order, every start and stop that has fallen due at the
    /// current media time. Callbacks may add or remove animations; what they make
    /// due is delivered too (up to a bound that stops runaway loops).
    public static func deliverDueEvents() {
        // A callback that commits or advances time lands here again: the pass
        // already running picks up what it makes due, without recursing.
        guard !isDelivering else { mutations &+= 1; return }
        isDelivering = true
        defer { isDelivering = false }
        for _ in 0..<1000 {
            let now = MediaTime.clock.now
            let before = mutations
            let events = dueEvents(now: now)
            if events.isEmpty { return }
            for e in events {
                guard !e.entry.isRemoved else { continue }
                if e.isStart {
                    guard !e.entry.hasStarted else { continue }
                    e.entry.hasStarted = true
                    e.entry.animation.delegate?.animationDidStart(e.entry.animation)
                } else {
                    guard !e.entry.hasStopped else { continue }
                    if e.entry.animation.isRemovedOnCompletion {
                        e.layer.remove(e.entry, finished: true)
                    } else {
                        e.entry.stop(finished: true)
                    }
                }
            }
            if mutations == before { return }
        }
    }

    private static func dueEvents(now: Double) -> [Event] {
        var events: [Event] = []
        for (id, weak) in layers {
            guard let layer = weak.layer else { layers[id] = nil; continue }
            var local: Double?
            for entry in layer.animationEntries where entry.isCommitted && !entry.hasStopped {
                let a = entry.animation
                let t = local ?? layer.localTime(fromRoot: now)
                local = t
                let tAct = a.activeTime(atLayerTime: t, begin: a.beginTime)
                if !entry.hasStarted && tAct >= 0 {
                    events.append(Event(time: rootTime(of: 0, entry: entry, layer: layer, now: now), isStart: true, entry: entry, layer: layer))
                }
                if tAct >= a.activeDuration {
                    events.append(Event(time: rootTime(of: a.activeDuration, entry: entry, layer: layer, now: now), isStart: false, entry: entry, layer: layer))
                }
            }
        }
        return events.sorted {
            if $0.time != $1.time { return $0.time < $1.time }
            if $0.isStart != $1.isStart { return $0.isStart }
            return $0.entry.sequence < $1.entry.sequence
        }
    }

    /// The root time at which the animation reaches active time `tAct`.
    private static func rootTime(of tAct: Double, entry: AnimationEntry, layer: Layer, now: Double) -> Double {
        let a = entry.animation
        guard a.speed != 0 else { return now }
        let t = layer.rootTime(fromLocal: a.beginTime + tAct / a.speed)
        return t.isFinite ? min(t, now) : now
    }

    /// The earliest root time at or after `time` when some presentation value may
    /// change: `time` itself while anything animates, the next start otherwise,
    /// `.infinity` when nothing will change. Frame pacing stops requesting frames
    /// at infinity.
    public static func nextChangeTime(after time: Double) -> Double {
        var next = Double.infinity
        for (_, weak) in layers {
            guard let layer = weak.layer else { continue }
            let t = layer.localTime(fromRoot: time)
            for entry in layer.animationEntries {
                let a = entry.animation
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

    /// True while some animation has an effect that changes with time.
    public static var isAnimating: Bool {
        let now = MediaTime.clock.now
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
