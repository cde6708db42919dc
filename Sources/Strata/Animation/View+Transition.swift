extension View {
    /// Animates a change of `view` as a whole (`transition(with:duration:options:animations:completion:)`):
    /// the view's layer shows its state before `animations` and its state after
    /// as a cross-dissolve (`.transitionCrossDissolve`) or a turn in 3D
    /// (`.transitionFlipFromLeft` … `FromBottom`, drawn with the renderer's
    /// perspective); the changes themselves are made at once. Without a
    /// transition option this is `animate(duration:options:_:completion:)`.
    ///
    /// The state before is the view's own layer properties and which subviews it
    /// had; changes inside the subviews' own layers show in both states.
    public static func transition(with view: View, duration: Double, options: AnimationOptions = [],
                                  animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        let kind: (TransitionType, TransitionSubtype?)
        switch options.transition {
        case 1: kind = (.flip, .fromLeft)
        case 2: kind = (.flip, .fromRight)
        case 5: kind = (.fade, nil)
        case 6: kind = (.flip, .fromTop)
        case 7: kind = (.flip, .fromBottom)
        default: return animate(duration: duration, options: options, animations ?? {}, completion: completion)
        }
        let block = AnimationBlock.make(duration: duration, delay: 0, timing: .curve(options.curve), options: options,
                                        completion: completion)
        if block.animates {
            let transition = Transition()
            (transition.type, transition.subtype) = kind
            transition.duration = block.duration
            if case let .curve(function) = block.timing { transition.timingFunction = function }
            block.applyTiming(to: transition, on: view.layer)
            block.add(transition, to: view, forKey: Layer.transition)   // captures the state before
        }
        AnimationBlock.disabled().run(animations ?? {})
        block.completion.seal()
    }
}
