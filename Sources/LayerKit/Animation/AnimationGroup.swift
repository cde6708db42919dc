/// Animations that run together under one timing (`CAAnimationGroup`, rule G1).
///
/// The children's times are in the group's local time: a child's `beginTime` is
/// an offset into the group, its duration (0: the group's) and repeats play
/// inside the group, and it is cut off where the group ends. The group's timing
/// function warps the group's time for all of them. Children's delegates are not
/// called; the group's is.
///
/// A group that contains itself (directly or through nested groups) is refused
/// when added, with a diagnostic. The same animation listed twice is copied twice
/// and both copies run, the later one winning for the same property.
@MainActor
public final class AnimationGroup: Animation {
    public var animations: [Animation]?

    public override init() { super.init() }

    public required init(copying other: Animation) {
        if let o = other as? AnimationGroup, let children = o.animations {
            var seen = Set<ObjectIdentifier>()
            animations = AnimationGroup.copyChildren(children, seen: &seen)
        }
        super.init(copying: other)
    }

    /// Deep copies, stopping at a group already being copied (a cycle).
    private static func copyChildren(_ list: [Animation], seen: inout Set<ObjectIdentifier>) -> [Animation] {
        list.compactMap { a in
            if let g = a as? AnimationGroup {
                guard seen.insert(ObjectIdentifier(g)).inserted else { return nil }
                defer { seen.remove(ObjectIdentifier(g)) }
                let copy = AnimationGroup()
                copy.copyTiming(from: g)
                copy.animations = copyChildren(g.animations ?? [], seen: &seen)
                return copy
            }
            return a.copy()
        }
    }

    private func copyTiming(from o: Animation) {
        duration = o.duration; beginTime = o.beginTime; speed = o.speed; timeOffset = o.timeOffset
        repeatCount = o.repeatCount; repeatDuration = o.repeatDuration; autoreverses = o.autoreverses
        fillMode = o.fillMode; timingFunction = o.timingFunction; isRemovedOnCompletion = o.isRemovedOnCompletion
        delegate = o.delegate
    }

    override func problem(for layer: Layer) -> LayerKitDiagnostic? {
        var path = Set<ObjectIdentifier>()
        func check(_ g: AnimationGroup) -> LayerKitDiagnostic? {
            guard path.insert(ObjectIdentifier(g)).inserted else { return .invalidTiming("an animation group contains itself; not added") }
            defer { path.remove(ObjectIdentifier(g)) }
            for child in g.animations ?? [] {
                if let sub = child as? AnimationGroup {
                    if let p = check(sub) { return p }
                } else if let p = child.problem(for: layer) {
                    return p
                }
            }
            return nil
        }
        return check(self)
    }

    override func prepare(for layer: Layer, entry: AnimationEntry) {
        entry.extras.children = (animations ?? []).map { child in
            if child.duration <= 0 || !child.duration.isFinite { child.duration = simpleDuration }
            let e = AnimationEntry(key: entry.key, isAnonymous: true, animation: child)
            child.prepare(for: layer, entry: e)
            return e
        }
    }

    override func applyEffect(to presentation: Layer, model: Layer, fraction: Double, iteration: Int, entry: AnimationEntry) {
        let local = (timingFunction?.value(at: fraction) ?? fraction) * simpleDuration
        for child in entry.extras.children {
            let a = child.animation
            // A child ends where the group does: its time never passes the group's duration.
            let tAct = a.activeTime(atLayerTime: local, begin: a.beginTime)
            guard let (f, i) = a.timing(atActiveTime: tAct) else { continue }
            a.applyEffect(to: presentation, model: model, fraction: f, iteration: i, entry: child)
        }
    }
}
