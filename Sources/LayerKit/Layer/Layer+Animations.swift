/// Explicit animations on a layer (rules E1–E5).
extension Layer {
    /// Adds a copy of `animation` (rule E1), replacing any animation with the same
    /// key (rule E3, the replaced one stops with `finished == false`). A nil key
    /// adds it anonymously. The animation begins when the transaction commits,
    /// unless its `beginTime` is set (rules T2, E7). It changes only the
    /// presentation, never the model.
    ///
    /// An animation that cannot run here (no key path, values of the wrong type)
    /// is not added, and a ``LayerKitDiagnostic`` says why.
    public func add(_ animation: Animation, forKey key: String?) {
        add(animation, forKey: key, made: false)
    }

    /// Adds `animation` itself, not a copy: for an animation the toolkit made for
    /// this one use from the layer's own values (a view's animation block), which
    /// nobody else holds. A basic animation's values are then of the property's
    /// type by construction: only their finiteness is checked, not their type.
    package func add(made animation: Animation, forKey key: String) {
        add(animation, forKey: key, made: true)
    }

    private func add(_ animation: Animation, forKey key: String?, made: Bool) {
        guard !isPresentationCopy else {
            return Diagnostics.report(.invalidTree("animations cannot be added to a presentation copy"))
        }
        let basic = made ? animation as? BasicAnimation : nil
        if let problem = basic.map({ $0.valueProblem(for: self, checkingTypes: false) }) ?? animation.problem(for: self) {
            return Diagnostics.report(problem)
        }
        let copy = made ? animation : animation.copy()
        if !(copy.duration >= 0 && copy.duration.isFinite) {
            Diagnostics.report(.invalidTiming("duration \(copy.duration) is not a non-negative number; the transaction's duration is used"))
            copy.duration = 0
        }
        if copy.duration == 0 { copy.duration = context.implicitDuration }
        if !copy.speed.isFinite || !copy.beginTime.isFinite || !copy.timeOffset.isFinite || copy.repeatCount.isNaN || copy.repeatDuration.isNaN {
            Diagnostics.report(.invalidTiming("non-finite speed, beginTime, timeOffset or repeat; defaults used"))
            if !copy.speed.isFinite { copy.speed = 1 }
            if !copy.beginTime.isFinite { copy.beginTime = 0 }
            if !copy.timeOffset.isFinite { copy.timeOffset = 0 }
            if copy.repeatCount.isNaN { copy.repeatCount = 0 }
            if copy.repeatDuration.isNaN { copy.repeatDuration = 0 }
        }
        addEntry(copy, forKey: key)
    }

    /// Adds an animation the layer may keep as is (a copy, or the implicit animation;
    /// a property change that adds one notes the change itself, once).
    func addEntry(_ animation: Animation, forKey key: String?, notingChange: Bool = true) {
        let entry = AnimationEntry(key: key ?? "", isAnonymous: key == nil, animation: animation)
        animation.prepare(for: self, entry: entry)
        unresolvedAnimations += 1
        register(entry, notingChange: notingChange)
    }

    /// Adds the implicit animation of the property at `slot` (rule B1) as its typed
    /// track, with the transaction's duration and timing function; the property
    /// change that makes it notes the change.
    func addImplicitAnimation(forKey key: String, slot: StateSlot, from: SlotValue, to: SlotValue) {
        register(AnimationEntry(key: key, implicit: slot, from: from, to: to, duration: context.implicitDuration,
                                timingFunction: context.implicitTimingFunction ?? .default), notingChange: false)
        tracksAreCurrent = false
    }

    private func register(_ entry: consuming AnimationEntry, notingChange: Bool) {
        if !entry.isAnonymous, !animationEntries.isEmpty, let old = animationEntries.entry(forKey: entry.key) {
            remove(old, finished: false)
        }
        AnimationTimeline.register(self)
        Transaction.didAdd(entry, to: self)
        // Last: the list takes the caller's reference, with no retain of its own.
        animationEntries.append(entry)
        if notingChange { propertyDidChange("animations", mayBeTiming: false) }
    }

    /// True when any animation is attached (anonymous ones included): only then can
    /// the presentation differ from the model. Renderers skip the copy otherwise.
    public var hasAnimations: Bool { !animationEntries.isEmpty }

    /// True when an animation runs on a key whose changes redraw the contents
    /// (``needsDisplay(forKey:)``, judged by the key path's first part).
    public var animatesDisplayedContent: Bool {
        let kind = type(of: self)
        // A plain layer (every view's) redraws for no key: asked for each animated layer every frame.
        guard hasAnimations, kind != Layer.self else { return false }
        func displayed(_ path: String?) -> Bool {
            guard let path else { return false }
            return kind.needsDisplay(forKey: String(path.prefix { $0 != "." }))
        }
        func covers(_ a: Animation) -> Bool {
            if let group = a as? AnimationGroup { return group.animations?.contains(where: covers) ?? false }
            return displayed((a as? PropertyAnimation)?.keyPath)
        }
        // An implicit animation kept as a track is keyed by its property: no need to make it.
        return animationEntries.contains { $0.isKeptAsTrack ? displayed($0.key) : covers($0.animation) }
    }

    /// The running copy added under `key` (`animation(forKey:)`). Read it; do not
    /// change it (Core Animation's is immutable): the layer took its values and
    /// timing when it was added and committed.
    public func animation(forKey key: String) -> Animation? {
        animationEntries.entry(forKey: key)?.animation
    }

    /// The keys of the animations added with a key, in the order added.
    public var animationKeys: [String] {
        animationEntries.filter { !$0.isAnonymous }.map(\.key)
    }

    /// Stops and removes the animation for `key` at once (rule E4); the layer shows
    /// its model value again. Its delegate hears `finished == false`, unless it had
    /// already finished.
    public func removeAnimation(forKey key: String) {
        guard let entry = animationEntries.entry(forKey: key) else { return }
        remove(entry, finished: false)
    }

    /// Changes the timing of the running copy added under `key` — speed, time
    /// offset, begin time — so that it shows and falls due at the new times (how a
    /// property animator pauses, scrubs and reverses the animations it made).
    /// False when no animation runs under `key`.
    @discardableResult
    package func retimeAnimation(forKey key: String, _ change: (Animation) -> Void) -> Bool {
        guard let entry = animationEntries.entry(forKey: key), !entry.hasStopped else { return false }
        change(entry.animation)
        entry.timingDidChange()
        tracksDidChange()
        context.timeline.invalidate()
        propertyDidChange("animations", mayBeTiming: false)
        return true
    }

    /// Stops and removes every animation (rule E4).
    public func removeAllAnimations() {
        for entry in animationEntries { remove(entry, finished: false) }
    }

    /// Removes an entry; tells its delegate and completion groups once.
    func remove(_ entry: AnimationEntry, finished: Bool) {
        guard !entry.isRemoved else { return }
        entry.isRemoved = true
        animationEntries.remove(entry)
        tracksDidChange()
        if !entry.isResolved { unresolvedAnimations -= 1 } else if entry.track == nil { untypedAnimations -= 1 }
        if animationEntries.isEmpty { AnimationTimeline.unregister(self) }
        propertyDidChange("animations", mayBeTiming: false)
        entry.stop(finished: finished)
    }

    /// The value at `keyPath` as currently shown (for implicit animations' start, rule B4).
    func presentationValue(forKeyPath keyPath: String) -> Any? {
        guard !animationEntries.isEmpty else { return value(forKeyPath: keyPath) }
        return presentation(atTime: MediaTime.clock.now).value(forKeyPath: keyPath)
    }

    /// Applies every animation, in the order added, to a presentation copy.
    func applyAnimations(to copy: Layer, atLocalTime t: Double) {
        resolveTracks()
        var nowLocal: Double?
        if untypedAnimations == 0 {
            // The typed tracks side by side, as the frame's pass reads them: no entry visited.
            return TypedTrack.apply(tracks, count: tracks.count, atLocalTime: t, of: self, to: &copy.state)
        }
        for entry in animationEntries {
            if let track = entry.track {
                track.apply(atLocalTime: t, now: &nowLocal, of: self, to: &copy.state)
                continue
            }
            let a = entry.animation
            let begin = begin(of: a.beginTime, committed: entry.isCommitted, now: &nowLocal)
            guard let (fraction, iteration) = a.timing(atActiveTime: a.activeTime(atLayerTime: t, begin: begin)) else { continue }
            a.applyEffect(to: copy, model: self, fraction: fraction, iteration: iteration, entry: entry)
        }
    }

    /// An entry was committed, retimed or removed: the typed tracks are copied
    /// again, here and in the timeline's record of the layer.
    func tracksDidChange() {
        tracksAreCurrent = false
        if timelineIndex >= 0 { AnimationTimeline.evaluationIsStale(self) }
    }

    /// Resolves the animations added since the last evaluation into typed tracks
    /// where they can be (`TypedTrack`).
    @inline(__always)
    func resolveTracks() {
        guard unresolvedAnimations > 0 || !tracksAreCurrent else { return }
        for entry in animationEntries where !entry.isResolved {
            entry.resolve(on: self)
            if entry.track == nil { untypedAnimations += 1 }
        }
        unresolvedAnimations = 0
        tracks = untypedAnimations == 0 ? animationEntries.map { $0.track.unsafelyUnwrapped } : []
        tracksAreCurrent = true
    }

    /// When an animation begins, in local time: its `beginTime`, or — not committed
    /// yet, with none set — now, since it will begin at the commit (so it shows its start).
    @inline(__always)
    func begin(of beginTime: Double, committed: Bool, now: inout Double?) -> Double {
        guard !committed && beginTime == 0 else { return beginTime }
        if let now { return now }
        let t = localTime(fromRoot: MediaTime.clock.now)
        now = t
        return t
    }

    /// The values of the standard properties as shown at root time `time` — what
    /// ``presentation(atTime:)``'s copy holds, without making the copy. When every
    /// animation on the layer resolved into a typed track (basic animations of
    /// standard properties) no object is made at all; renderers and benchmarks
    /// that only need values read these.
    public func presentationState(atTime time: Double) -> LayerState {
        guard !animationEntries.isEmpty else { return state }
        resolveTracks()
        guard untypedAnimations == 0 else { return presentation(atTime: time).state }
        var shown = state
        TypedTrack.apply(tracks, count: tracks.count, atLocalTime: localTime(fromRoot: time), of: self, to: &shown)
        return shown
    }
}
