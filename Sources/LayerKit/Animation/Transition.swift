/// How a transition brings in the new state (`CATransitionType`).
public enum TransitionType: String, Hashable, Sendable {
    case fade, moveIn, push, reveal
    /// The layer turns over in 3D about its centre, showing the new state on its
    /// back (`View.transition`'s flips): the subtype says which edge comes forward.
    case flip
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

    override func prepare(for layer: Layer, entry: AnimationEntry) {
        // The state before the change that ran this transition, captured by the action
        // machinery before the model changed; added directly, the current state.
        entry.extras.snapshot = layer.takePendingTransitionSnapshot() ?? LayerSnapshot(of: layer)
    }

    override func applyEffect(to presentation: Layer, model: Layer, fraction: Double, iteration: Int, entry: AnimationEntry) {
        let eased = timingFunction?.value(at: fraction) ?? fraction
        let p = min(1, max(0, startProgress + (endProgress - startProgress) * eased))
        let size = presentation.bounds.size
        // Unit direction the new state comes from.
        let (dx, dy): (Double, Double)
        switch subtype ?? .fromLeft {
        case .fromLeft: (dx, dy) = (-1, 0)
        case .fromRight: (dx, dy) = (1, 0)
        case .fromTop: (dx, dy) = (0, -1)
        case .fromBottom: (dx, dy) = (0, 1)
        }
        let incoming = Size(width: dx * (1 - p) * size.width, height: dy * (1 - p) * size.height)
        let outgoing = Size(width: -dx * p * size.width, height: -dy * p * size.height)
        var state = TransitionState(type: type, subtype: subtype, progress: p, snapshot: entry.extras.snapshot)
        switch type {
        case .fade:
            (state.oldOpacity, state.newOpacity) = (1 - p, p)
        case .push:
            (state.oldOffset, state.newOffset) = (outgoing, incoming)
        case .moveIn:
            state.newOffset = incoming
        case .reveal:
            state.oldOffset = outgoing
            state.oldOnTop = true
        case .flip:
            // First half: the old state turns away to edge-on; second half: the new
            // one turns from edge-on to face the viewer.
            let angle = p <= 0.5 ? p * Double.pi : (p - 1) * Double.pi
            state.turn = TransitionState.Turn(angle: angle, ofOldState: p <= 0.5, bounds: presentation.bounds)
            if p <= 0.5 { state.newOpacity = 0 } else { state.oldOpacity = 0 }
        }
        presentation.activeTransition = state
    }

    /// A turn by `angle` about the bounds' centre line (vertical for left and
    /// right, horizontal for top and bottom), seen in perspective from a distance
    /// of twice the larger side.
    nonisolated static func flipTransform(angle: Double, subtype: TransitionSubtype, bounds: Rect) -> Transform3D {
        let (x, y, sign): (Double, Double, Double)
        switch subtype {
        case .fromLeft: (x, y, sign) = (0, 1, 1)
        case .fromRight: (x, y, sign) = (0, 1, -1)
        case .fromTop: (x, y, sign) = (1, 0, -1)
        case .fromBottom: (x, y, sign) = (1, 0, 1)
        }
        var perspective = Transform3D.identity
        perspective.m34 = -1 / (2 * max(1, bounds.width, bounds.height))
        return Transform3D(translationX: -bounds.midX, y: -bounds.midY, z: 0)
            .concatenating(Transform3D(rotationAngle: sign * angle, x: x, y: y, z: 0))
            .concatenating(perspective)
            .concatenating(Transform3D(translationX: bounds.midX, y: bounds.midY, z: 0))
    }
}

/// A transition in progress, as seen on a presentation copy: how to draw the
/// state before the change (``snapshot``) and the state after it (the layer
/// itself), both within the layer's bounds (rule G2).
public struct TransitionState {
    public let type: TransitionType
    public let subtype: TransitionSubtype?
    /// 0 shows the old state, 1 the new one.
    public let progress: Double
    /// The layer as it was before the change.
    public let snapshot: LayerSnapshot?
    /// Where each state is drawn, relative to the layer, in its coordinates.
    public var oldOffset = Size.zero
    public var newOffset = Size.zero
    public var oldOpacity = 1.0
    public var newOpacity = 1.0
    /// True when the old state is drawn over the new one (`reveal`).
    public var oldOnTop = false
    /// A flip's turn of one of the states. Kept small (renderers hold copies of
    /// this state in every level of deep trees); the matrices are computed on use.
    struct Turn {
        let angle: Double
        let ofOldState: Bool
        let bounds: Rect
    }
    var turn: Turn?

    /// A 3D turn of the old state about the layer's centre, in its coordinates (`flip`).
    public var oldTransform: Transform3D? { transform(ofOldState: true) }
    /// The same for the new state.
    public var newTransform: Transform3D? { transform(ofOldState: false) }

    private func transform(ofOldState old: Bool) -> Transform3D? {
        guard let turn, turn.ofOldState == old else { return nil }
        return Transition.flipTransform(angle: turn.angle, subtype: subtype ?? .fromLeft, bounds: turn.bounds)
    }

    init(type: TransitionType, subtype: TransitionSubtype?, progress: Double, snapshot: LayerSnapshot?) {
        self.type = type
        self.subtype = subtype
        self.progress = progress
        self.snapshot = snapshot
    }
}

/// A layer's own state and its sublayers at one moment, for transitions.
@MainActor
public final class LayerSnapshot {
    /// A copy of the layer's properties then (no actions, no animations).
    public let layer: Layer
    /// Its sublayers then (the layers themselves, as they are now).
    public let sublayers: [Layer]

    init(of layer: Layer) {
        self.layer = type(of: layer).init(layer: layer)
        sublayers = layer.sublayers
    }
}

extension Layer {
    /// Before a change whose action is a transition, remembers the state to
    /// transition from (rule G2).
    ///
    /// One snapshot per layer per transaction: while a transition this transaction
    /// added has not been committed, the state it goes from is still the one on
    /// screen, so later changes in the same transaction (20,000 `addSublayer`
    /// calls in one turn) share its snapshot instead of copying the sublayers again.
    func captureTransitionSnapshot(for action: any Action) {
        guard action is Transition else { return }
        if let running = animationEntries.entry(forKey: Layer.transition), !running.isCommitted, !running.isRemoved,
           let snapshot = running.extras.snapshot {
            pendingTransitionSnapshot = snapshot
        } else {
            pendingTransitionSnapshot = LayerSnapshot(of: self)
        }
    }

    func takePendingTransitionSnapshot() -> LayerSnapshot? {
        defer { pendingTransitionSnapshot = nil }
        return pendingTransitionSnapshot
    }
}
