/// Waits for the animations one animation block made and then calls its
/// completion once (rule V5): `true` when every one of them ran to its end,
/// `false` when any was removed or replaced first. A block that made none
/// completes, with `true`, right after the transaction it ran in commits.
@MainActor
final class BlockCompletion {
    private var body: ((Bool) -> Void)?
    private var pending = 0
    private var allFinished = true
    private var sealed = false

    init(_ body: ((Bool) -> Void)?) { self.body = body }

    /// One of the block's animations is now on a layer.
    func animationAdded() { pending += 1 }

    /// One of them stopped.
    func animationStopped(finished: Bool) {
        if !finished { allFinished = false }
        pending -= 1
        if sealed && pending == 0 { fire() }
    }

    /// The block's closure has returned: no more animations join.
    func seal() {
        sealed = true
        if pending == 0 { Transaction.afterCommit { self.fire() } }
    }

    private func fire() {
        guard let body else { return }
        self.body = nil
        body(allFinished)
    }
}

/// The delegate of one animation a block made: reports its end to the block's
/// completion, and keeps input away from the view while it runs (rule V8).
@MainActor
final class BlockAnimationObserver: AnimationDelegate {
    let completion: BlockCompletion
    weak var view: View?
    let blocksInput: Bool
    private var stopped = false

    init(completion: BlockCompletion, view: View, blocksInput: Bool) {
        self.completion = completion
        self.view = view
        self.blocksInput = blocksInput
    }

    /// The animation was added to the view's layer.
    func added() {
        completion.animationAdded()
        if blocksInput { view?.animationsBlockingInput += 1 }
    }

    func animationDidStop(_ animation: Animation, finished: Bool) {
        guard !stopped else { return }
        stopped = true
        if blocksInput, let view { view.animationsBlockingInput = max(0, view.animationsBlockingInput - 1) }
        completion.animationStopped(finished: finished)
    }
}
