/// An animation added to a layer: the layer's own copy and its progress through
/// start, stop and removal, so each callback happens exactly once (rule E8).
///
/// The implicit animation of a standard property starts as its typed track alone
/// (`init(key:implicit:…)`): nobody holds the `BasicAnimation` Core Animation
/// would make, so it is made only when someone asks for it (``animation``,
/// `animation(forKey:)`, a retiming). Until then the track's timing is the
/// running copy's; after, the object's, copied to the track as before.
@MainActor
final class AnimationEntry {
    let key: String
    /// Added with a nil key: not listed in `animationKeys`, not replaceable.
    let isAnonymous: Bool
    /// The layer's running copy (made now for an implicit animation kept as a track).
    var animation: Animation { storedAnimation ?? makeImplicitAnimation() }
    private var storedAnimation: Animation?
    /// An implicit animation nobody has asked for yet: it exists as its track alone.
    var isKeptAsTrack: Bool { storedAnimation == nil }
    /// Added in the same order as entries, to break ties between events.
    let sequence: Int
    /// The outermost transaction committed: `beginTime` is stamped (rule T2).
    var isCommitted = false {
        didSet { track?.isCommitted = isCommitted }
    }
    var hasStarted = false
    var hasStopped = false
    var isRemoved = false
    var completionGroups: [CompletionGroup] = []
    /// The animation resolved into typed values, if it can be (`TypedTrack`), at
    /// its layer's first evaluation after it was added. (Spelled out, the optional
    /// has no implicit nil: the implicit animation's init writes its track once.)
    var track: Optional<TypedTrack>
    private(set) var isResolved = false

    func resolve(on layer: Layer) {
        track = TypedTrack(animation, on: layer, entry: self)
        isResolved = true
    }

    /// What the general path and the other kinds of animation work with, made on
    /// first use (an implicit animation kept as a track never needs it, and the
    /// entry stays a few cache lines long).
    final class Extras {
        /// The presentation value when added, for endpoints left unset (rule E2).
        var capturedFrom: Any?
        /// The animated key path, parsed once.
        var target: ParsedKeyPath?
        /// A basic animation's start and end, once known not to depend on the model.
        var fixedEndpoints: (from: Any, to: Any)?
        /// Arithmetic for the animated values' type, resolved on first use.
        var ops: ValueOps?
        /// A transform track's ends, kept alive here (the track holds them unretained).
        var transformEnds: TransformEnds?
        /// For a transition: the state it starts from.
        var snapshot: LayerSnapshot?
        /// For a group: its children's entries.
        var children: [AnimationEntry] = []
    }
    // (Not a `lazy var`: with one, an implicit change took 230 ns instead of 120 — measured.)
    private var storedExtras: Extras?
    var extras: Extras {
        if let storedExtras { return storedExtras }
        let made = Extras()
        storedExtras = made
        return made
    }

    // A process-wide counter, as object identities are: it only orders animations
    // added at the same time, and never goes back.
    @exclusivity(unchecked) private static var nextSequence = 0

    init(key: String, isAnonymous: Bool, animation: Animation) {
        self.key = key
        self.isAnonymous = isAnonymous
        storedAnimation = animation
        track = nil
        Self.nextSequence += 1
        sequence = Self.nextSequence
    }

    /// The implicit animation for `key`, as its track (resolved from the start),
    /// made here: the track is built where it is kept, not copied in.
    init(key: String, implicit slot: StateSlot, from: SlotValue, to: SlotValue, duration: Double, timingFunction: MediaTimingFunction) {
        self.key = key
        isAnonymous = false
        track = TypedTrack(implicit: slot, from: from, to: to, duration: duration, timingFunction: timingFunction)
        isResolved = true
        Self.nextSequence += 1
        sequence = Self.nextSequence
    }

    /// The `BasicAnimation` the action search would have made, with the timing
    /// the track has now (stamped by a commit, perhaps).
    private func makeImplicitAnimation() -> Animation {
        let track = track.unsafelyUnwrapped
        let a = BasicAnimation(keyPath: key)
        a.isImplicit = true
        a.fromValue = track.from?.anyValue
        a.toValue = track.to?.anyValue
        a.setImplicitTiming(track.timing)
        a.timingFunction = track.timingFunction
        storedAnimation = a
        return a
    }

    /// The running copy's timing, what the timeline's events are worked out from.
    var timing: MediaTimingValues { storedAnimation?.timingValues ?? track.unsafelyUnwrapped.timing }
    /// Only an animation made into an object can have a delegate or be kept at its end.
    var delegate: (any AnimationDelegate)? { storedAnimation?.delegate }
    var isRemovedOnCompletion: Bool { storedAnimation?.isRemovedOnCompletion ?? true }

    /// The commit stamps the running copy's `beginTime` (rule T2).
    func stampBeginTime(_ time: Double) {
        guard let storedAnimation else { track!.timing.beginTime = time; return }
        storedAnimation.beginTime = time
        timingDidChange()
    }

    /// The running copy's timing changed (its commit stamped `beginTime`, or it was retimed).
    func timingDidChange() {
        guard let storedAnimation else { return }   // the track is the running copy
        track?.timing = storedAnimation.timingValues
        track?.timingFunction = storedAnimation.timingFunction
    }

    /// Marks the entry stopped and tells whom it concerns, once.
    func stop(finished: Bool) {
        guard !hasStopped else { return }
        hasStopped = true
        if let storedAnimation { storedAnimation.delegate?.animationDidStop(storedAnimation, finished: finished) }
        let groups = completionGroups
        completionGroups = []
        for g in groups { g.animationEnded() }
    }
}
