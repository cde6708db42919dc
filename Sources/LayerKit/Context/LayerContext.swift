/// Everything Core Animation keeps for a process, owned by one object: the open
/// transactions and their end-of-turn commit, commit observers, the animation
/// timeline and media timers, the media clock, the presented trees, the
/// diagnostics and action-trace sinks and the backing-store renderer.
///
/// An app has one (``main``, what `Application` uses). A test makes its own and
/// runs in it — `LayerContext().run { … }`, or the `.isolatedLayerContext` trait —
/// so tests may run in parallel, each with its own `ManualMediaClock`, and a test
/// that suspends never sees another's clock or transactions.
///
/// Core Animation's static spellings keep their meaning: `Transaction.begin()`,
/// `MediaTime.clock = …` and `currentMediaTime()` address the *current* context —
/// the one a task runs in (a task-local value), else ``main``. A layer belongs to
/// the context current when it was made, and reaches it through
/// ``Layer/context``: its animations, timers and presentation stay there wherever
/// it is later changed from, and its deinit leaves the right timeline.
@MainActor
public final class LayerContext {
    /// The process's context: the app's, and any code's that runs in no other.
    /// (UIKit's main run loop and `CATransaction` are process-wide in the same way.)
    public static let main = LayerContext()

    /// The context code running now addresses: the task's, else ``main``.
    public static var current: LayerContext { bound.get() ?? main }

    /// The task's context (a context is Sendable: it is only used on the main actor).
    nonisolated static let bound = TaskLocal<LayerContext?>(wrappedValue: nil)

    /// A context with its own clock (the system's media clock unless given).
    public init(clock: any MediaClock = MonotonicMediaClock()) {
        self.clock = clock
        (clock as? ManualMediaClock)?.context = self
    }

    /// Runs `body` with this context current (and in the tasks it starts).
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try LayerContext.bound.withValue(self) { try body() }
    }

    /// Runs `body` with this context current, across its suspensions and in the
    /// tasks it starts.
    public func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await LayerContext.bound.withValue(self) { try await body() }
    }

    /// ``run(_:)-swift.method`` from outside the main actor: how a test trait runs a test in a context of its own.
    nonisolated public func runTest(_ body: @Sendable () async throws -> Void) async rethrows {
        try await LayerContext.bound.withValue(self) { try await body() }
    }

    // MARK: Time

    /// The clock every time in this context comes from (``MediaTime/clock``).
    public var clock: any MediaClock {
        didSet {
            (clock as? ManualMediaClock)?.context = self
            timeline.invalidate()
            AnimationTimeline.deliverDueEvents(in: self)
        }
    }

    // MARK: Transactions (rules T1–T5)

    /// The open transactions, innermost last.
    @exclusivity(unchecked) var transactionStack: [Transaction.Frame] = []
    /// The layers given animations since the last outermost commit, each once
    /// (`Layer.awaitsCommit`): the commit stamps their new animations' `beginTime`.
    @exclusivity(unchecked) var uncommitted: [Layer] = []
    /// How many outermost commits have happened.
    var commitCount = 0
    var treeChanged = false
    @exclusivity(unchecked) var flushScheduled = false
    /// Schedules a body at the end of the current run-loop turn (``Transaction/endOfTurnScheduler``).
    public var endOfTurnScheduler: @MainActor (@escaping @MainActor () -> Void) -> Void = { body in
        Task { @MainActor in body() }
    }
    /// The innermost open transaction's settings, as a change reads them (rules T2, T3).
    var actionsDisabled: Bool { transactionStack.last?.actionsDisabled ?? false }
    var implicitDuration: Double { transactionStack.last?.implicitDuration ?? 0.25 }
    var implicitTimingFunction: MediaTimingFunction? { transactionStack.last?.implicitTimingFunction }
    var commitObservers: [@MainActor () -> Void] = []
    var ownedCommitObservers: [ObjectIdentifier: @MainActor () -> Void] = [:]

    /// Registers `body` to run after every outermost commit in this context on
    /// behalf of `owner`, replacing what it registered before; nil removes it
    /// (``Transaction/setCommitObserver(for:_:)``).
    public func setCommitObserver(for owner: ObjectIdentifier, _ body: (@MainActor () -> Void)?) {
        ownedCommitObservers[owner] = body
    }
    var afterCommitBodies: [@MainActor () -> Void] = []

    // MARK: The timeline

    let timeline = AnimationTimeline.State()

    // MARK: Presentation, drawing, diagnostics

    /// Roots of presented trees (``PresentationHosts``), not retained: a root leaves in its deinit.
    var presentedRoots: [ObjectIdentifier: Unmanaged<Layer>] = [:]
    /// Makes a layer's backing store (``Layer/backingStoreRenderer``).
    public var backingStoreRenderer: (@MainActor (Layer) -> Image?)?
    /// Receives this context's diagnostics (``Diagnostics/handler``).
    public var diagnosticsHandler: (@MainActor (LayerKitDiagnostic) -> Void)?
    /// Receives the action search's steps (``ActionTrace/sink``).
    @exclusivity(unchecked) public var actionTraceSink: (@MainActor (ActionTrace.Entry) -> Void)?

    // What the system says, read by Strata; after the hot transaction state (cache lines).
    /// The traits the system gives the windows made in this context (rule P1):
    /// for the app's, what the desktop's settings say (Strata keeps them up to
    /// date); a test sets its own. Windows read it before each layout pass.
    public var systemTraits = TraitCollection.standard
    /// Whether the system asks for less motion in this context (GNOME's
    /// `enable-animations` off): the toolkit's own decorative motion becomes a
    /// cross-fade or a jump (rule P4). Animations an app asks for are unchanged.
    public var systemReducesMotion = false
    /// State the modules above keep per context, each under a key of its own
    /// (Strata's offscreen pasteboards): a test's copy and paste stays its own.
    public var values: [ObjectIdentifier: Any] = [:]

    // MARK: Presentation copies

    /// The last presentation copy a `Layer` made, made again from the next layer
    /// asked once its taker has let it go (`Layer.presentation(atTime:)`). Let go
    /// at the end of the turn, as Core Animation's autoreleased copies are, so it
    /// keeps the model it was made from no longer than that.
    @exclusivity(unchecked) var spareCopy: Layer?
    private var spareCopyRelease = false

    func keepSpareCopy(_ copy: Layer) {
        spareCopy = copy
        guard !spareCopyRelease else { return }
        spareCopyRelease = true
        endOfTurnScheduler { [weak self] in
            self?.spareCopy = nil
            self?.spareCopyRelease = false
        }
    }
}
