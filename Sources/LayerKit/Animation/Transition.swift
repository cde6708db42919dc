/// How a transition brings in the new state (`CATransitionType`).
public enum TransitionType: String, Hashable, Sendable {
    case fade, moveIn, push, reveal
}

/// The direction a transition moves from (`CATransitionSubtype`).
public enum TransitionSubtype: String, Hashable, Sendable {
    case fromLeft, fromRight, fromTop, fromBottom
}

/// Animates a layer between its previous rendered state and its new one
/// (`CATransition`, rule G2). Running it as an action adds it under the key
/// `transition`, whatever the event key (as Core Animation does).
///
/// LayerKit computes the transition's progress; the renderer draws the old and
/// new states accordingly.
@MainActor
public final class Transition: Animation {
    public var type = TransitionType.fade
    public var subtype: TransitionSubtype?
    /// Where in the transition it starts and ends, 0…1.
    public var startProgress = 0.0
    public var endProgress = 1.0

    public override init() { super.init() }

    public required init(copying other: Animation) {
        if let o = other as? Transition {
            type = o.type
            subtype = o.subtype
            startProgress = o.startProgress
            endProgress = o.endProgress
        }
        super.init(copying: other)
    }

    public override func run(forKey event: String, object: Layer, arguments: [String: Any]?) {
        object.add(self, forKey: Layer.transition)
    }

    override func applyEffect(to presentation: Layer, model: Layer, fraction: Double, iteration: Int, entry: AnimationEntry) {
        let eased = timingFunction?.value(at: fraction) ?? fraction
        let p = startProgress + (endProgress - startProgress) * eased
        presentation.activeTransition = TransitionState(type: type, subtype: subtype, progress: min(1, max(0, p)))
    }
}

/// A transition in progress, as seen on a presentation copy.
public struct TransitionState: Hashable, Sendable {
    public let type: TransitionType
    public let subtype: TransitionSubtype?
    /// 0 shows the old state, 1 the new one.
    public let progress: Double
}
