/// An animation added to a layer: the layer's own copy and its progress through
/// start, stop and removal, so each callback happens exactly once (rule E8).
@MainActor
final class AnimationEntry {
    let key: String
    /// Added with a nil key: not listed in `animationKeys`, not replaceable.
    let isAnonymous: Bool
    let animation: Animation
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
    /// The presentation value when added, for endpoints left unset (rule E2).
    var capturedFrom: Any?
    /// The animated key path, parsed once.
    var target: ParsedKeyPath?
    /// A basic animation's start and end, once known not to depend on the model.
    var fixedEndpoints: (from: Any, to: Any)?
    /// Arithmetic for the animated values' type, resolved on first use.
    var ops: ValueOps?
    /// The animation resolved into typed values, if it can be (`TypedTrack`), at
    /// its layer's first evaluation after it was added.
    var track: TypedTrack?
    /// A transform track's ends, kept alive here (the track holds them unretained).
    var transformEnds: TransformEnds?
    private(set) var isResolved = false

    func resolve(on layer: Layer) {
        track = TypedTrack(animation, on: layer, entry: self)
        isResolved = true
    }
    /// For a transition: the state it starts from.
    var snapshot: LayerSnapshot?
    /// For a group: its children's entries.
    var children: [AnimationEntry] = []

    private static var nextSequence = 0

    init(key: String, isAnonymous: Bool, animation: Animation) {
        self.key = key
        self.isAnonymous = isAnonymous
        self.animation = animation
        Self.nextSequence += 1
        sequence = Self.nextSequence
    }

    /// The running copy's timing changed (its commit stamped `beginTime`, or it was retimed).
    func timingDidChange() {
        track?.timing = animation.timingValues
        track?.timingFunction = animation.timingFunction
    }

    /// Marks the entry stopped and tells whom it concerns, once.
    func stop(finished: Bool) {
        guard !hasStopped else { return }
        hasStopped = true
        animation.delegate?.animationDidStop(animation, finished: finished)
        let groups = completionGroups
        completionGroups = []
        for g in groups { g.animationEnded() }
    }
}
