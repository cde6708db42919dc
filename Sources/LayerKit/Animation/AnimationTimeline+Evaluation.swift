/// One pass per frame over every animated layer, writing what each shows into
/// contiguous storage (issue 13's design): renderers and benchmarks read values
/// there instead of making a presentation layer per animated layer.
///
/// Two arrays run in step with the timeline's layers (`AnimationTimeline.State`, the order layers
/// got their first animation, roughly allocation order), made up to its length by
/// each pass: what each layer shows, and for each an `Evaluation` — its typed
/// tracks copied side by side with the model values they need, its own timing
/// and its superlayer. A frame reads those, the layer's versions and its
/// superlayer's time; it copies a model state whole only when the model or its
/// animations changed since the last pass. Otherwise the values a
/// track leaves are overwritten by the track itself, and only a track not in
/// effect (or an additive one) puts back its slot's model value first. Layers
/// with an animation that has no typed track (springs, keyframes, groups,
/// transitions, …) get the state of a full presentation copy, as
/// ``Layer/presentationState(atTime:)`` gives them.
extension AnimationTimeline {

    /// A layer's part of the pass, as of its model version `version`.
    struct Evaluation {
        /// The layer's `modelVersion` when this was made; 0: make it again.
        var version: UInt64 = 0
        /// The layer's tracks, in memory this owns (plain values: freed without
        /// deinitializing). Not an array: reaching an array's elements takes a
        /// closure per layer, and each such closure checks its actor at run time.
        var tracks = UnsafeMutableBufferPointer<EvaluatedTrack>(start: nil, count: 0)
        /// Two tracks animate the same property: every model value goes back
        /// before any track writes, so none undoes another's.
        var tracksOverlap = false
        /// The layer's timing (its local time from its superlayer's).
        var beginTime = 0.0, speed = 1.0, timeOffset = 0.0
        /// The layer's superlayer (a change makes this again), not retained.
        var superlayer: Unmanaged<Layer>?

        func free() { tracks.deallocate() }
    }

    /// A typed track with what its slot holds in the model.
    struct EvaluatedTrack {
        let track: TypedTrack
        let modelValue: SlotValue?
    }

    /// Computes what every animated layer shows at root time `time`, in one pass.
    /// Read the results with ``withShownStates(_:)``; they are the values
    /// ``Layer/presentationState(atTime:)`` returns for the same time.
    public static func evaluate(atTime time: Double) {
        let t = LayerContext.current.timeline
        makeShownStates(in: t)
        t.layers.withUnsafeBufferPointer { layers in
            t.evaluations.withUnsafeMutableBufferPointer { evaluations in
                t.shownStates.withUnsafeMutableBufferPointer { states in
                    // Siblings share their superlayer's time: worked out once for a run of them.
                    var parentTime = (layer: UnsafeMutableRawPointer?.none, time: time)
                    for i in layers.indices {
                        Layer.borrowing(layers[i]) { evaluate($0, &evaluations[i], into: &states[i], atTime: time, parentTime: &parentTime) }
                    }
                }
            }
        }
    }

    /// The layer at `index` has new tracks (added, removed, committed, retimed) or
    /// another superlayer (its time comes from elsewhere): its record is made again.
    static func evaluationIsStale(_ layer: Layer) {
        let index = layer.timelineIndex
        let t = layer.context.timeline
        if index >= 0, index < t.evaluations.count { t.evaluations[index].version = 0 }
    }

    /// Calls `body` with the states the last ``evaluate(atTime:)`` computed, one
    /// per animated layer then, in the order of ``forEachAnimatedLayer(_:)`` (`withUnsafeBufferPointer`'s
    /// rules: the buffer is valid only inside `body`, which must not add or remove
    /// animations). Read in place: a state is not copied.
    public static func withShownStates<R>(_ body: (UnsafeBufferPointer<LayerState>) throws -> R) rethrows -> R {
        try LayerContext.current.timeline.shownStates.withUnsafeBufferPointer(body)
    }

    @inline(__always)
    private static func evaluate(_ layer: Layer, _ e: inout Evaluation, into shown: inout LayerState, atTime time: Double,
                                 parentTime: inout (layer: UnsafeMutableRawPointer?, time: Double)) {
        // (Only the version is read here: whatever else makes a record stale resets
        // it, `evaluationIsStale`, so the pass touches one line of each layer.)
        if e.version != layer.modelVersion {
            layer.resolveTracks()
            guard layer.untypedAnimations == 0 else {
                shown = layer.presentation(atTime: time).state
                e.free()
                e = Evaluation()
                return
            }
            shown = layer.state
            e.free()
            e = Evaluation(of: layer)
        }
        if let parent = e.superlayer, parent.toOpaque() != parentTime.layer {
            Layer.borrowing(parent) { parentTime = (parent.toOpaque(), $0.localTime(fromRoot: time)) }
        }
        let t = Layer.localTime(fromParent: e.superlayer == nil ? time : parentTime.time,
                                beginTime: e.beginTime, speed: e.speed, timeOffset: e.timeOffset)
        var nowLocal: Double?
        let tracks = e.tracks
        // Tracks are read where they lie (a method call on one copied it whole first;
        // a closure given the address, `withUnsafePointer`, checked the actor at run time).
        func track(_ i: Int) -> UnsafePointer<TypedTrack> { UnsafePointer(tracks.baseAddress! + i).pointer(to: \.track)! }
        func restore(_ i: Int) { TypedTrack.restoreModel(track(i), tracks[i].modelValue, of: layer, to: &shown) }
        if e.tracksOverlap {
            for i in tracks.indices { restore(i) }
        }
        for i in tracks.indices {
            guard let fraction = tracks[i].track.fraction(atLocalTime: t, now: &nowLocal, of: layer) else {
                if !e.tracksOverlap { restore(i) }
                continue
            }
            if tracks[i].track.isAdditive && !e.tracksOverlap { restore(i) }
            TypedTrack.apply(track(i), fraction: fraction, to: &shown, modelValue: tracks[i].modelValue, model: layer)
        }
    }

    /// The places of layers that got animations since the last pass, made by the
    /// pass (not when an animation is added: thousands of implicit changes in one
    /// transaction should not pay for states nobody has read yet).
    private static func makeShownStates(in t: State) {
        let missing = t.layers.count - t.shownStates.count
        guard missing > 0 else { return }
        t.shownStates.append(contentsOf: repeatElement(LayerState(), count: missing))
        t.evaluations.append(contentsOf: repeatElement(Evaluation(), count: missing))
    }

    /// The layer at `i` left `layers`, and the last one took its place.
    static func removeShownState(at i: Int, layerCount: Int, in t: State) {
        let count = t.shownStates.count
        guard i < count else { return }
        if count == layerCount {
            t.shownStates.swapAt(i, count - 1)
            t.evaluations.swapAt(i, count - 1)
            t.shownStates.removeLast()
            t.evaluations.removeLast().free()
        } else {
            // The layer moved here has no place yet: this one is made again for it.
            t.evaluations[i].free()
            t.evaluations[i] = Evaluation()
        }
    }

    static func removeAllShownStates(in t: State) {
        t.shownStates.removeAll()
        for e in t.evaluations { e.free() }
        t.evaluations.removeAll()
    }
}

extension AnimationTimeline.Evaluation {
    /// The pass's copy of `layer`'s typed tracks (every animation has one) and timing.
    @MainActor
    init(of layer: Layer) {
        let s = layer.state
        version = layer.modelVersion
        let made = layer.tracks.map { AnimationTimeline.EvaluatedTrack(track: $0, modelValue: $0.slot.read(s)) }
        tracks = .allocate(capacity: made.count)
        _ = tracks.initialize(from: made)
        var properties: Set<String> = []
        tracksOverlap = !made.allSatisfy { properties.insert($0.track.slot.property).inserted }
        (beginTime, speed, timeOffset) = (s.beginTime, s.speed, s.timeOffset)
        superlayer = layer.superlayerReference
    }
}
