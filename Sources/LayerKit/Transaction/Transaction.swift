/// Batches layer changes and sets how they animate (`CATransaction`, rules T1–T5).
///
/// Every change belongs to a transaction. A change made with none open starts an
/// *implicit* transaction, committed at the end of the current run-loop turn (or
/// by ``flush()``). Explicit ``begin()``/``commit()`` pairs nest; their settings
/// apply to the changes made inside them, and an inner transaction sees the
/// settings of the outer ones it does not set itself. Animations added anywhere
/// in the batch begin when the outermost transaction commits.
///
/// ```swift
/// Transaction.begin()
/// Transaction.animationDuration = 1
/// Transaction.completionBlock = { print("faded") }
/// layer.opacity = 0
/// Transaction.commit()
/// ```
@MainActor
public enum Transaction {
    public static let disableActionsKey = "disableActions"
    public static let animationDurationKey = "animationDuration"
    public static let animationTimingFunctionKey = "animationTimingFunction"
    public static let completionBlockKey = "completionBlock"

    /// One open transaction.
    final class Frame {
        let isImplicit: Bool
        var values: [String: Any] = [:]
        /// `disableActions` in force in this frame: its own setting, else the one
        /// in force where it began. Every property change reads it.
        var actionsDisabled: Bool
        /// The duration and timing function in force, the same way (rule T2): every
        /// implicit animation reads them, so they are kept here rather than looked up
        /// through each frame's `values`.
        var duration: Any? {
            didSet {
                let d = AnyValue.normalized(duration) as? Double
                implicitDuration = d.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0.25
            }
        }
        var timingFunction: Any? {
            didSet { implicitTimingFunction = timingFunction as? MediaTimingFunction }
        }
        /// `duration` and `timingFunction` as implicit animations use them, worked
        /// out when set rather than cast at every change.
        private(set) var implicitDuration = 0.25
        private(set) var implicitTimingFunction: MediaTimingFunction?
        /// The group of animations the frame's completion block waits for.
        @exclusivity(unchecked) var completion: CompletionGroup?
        /// An enclosing frame has a completion block. (Only the innermost frame is
        /// ever changed, so this holds while the frame is open.)
        let enclosingHasCompletion: Bool
        init(isImplicit: Bool, enclosing: Frame?) {
            self.isImplicit = isImplicit
            enclosingHasCompletion = enclosing.map { $0.completion != nil || $0.enclosingHasCompletion } ?? false
            actionsDisabled = enclosing?.actionsDisabled ?? false
            duration = enclosing?.duration
            timingFunction = enclosing?.timingFunction
            implicitDuration = enclosing?.implicitDuration ?? 0.25
            implicitTimingFunction = enclosing?.implicitTimingFunction
        }
    }

    // The state lives in the current context (``LayerContext``); these read it there.

    static var stack: [Frame] {
        _read { yield LayerContext.current.transactionStack }
        _modify { yield &LayerContext.current.transactionStack }
    }
    /// How many outermost commits have happened (in the current context).
    static var commitCount: Int { LayerContext.current.commitCount }

    /// Schedules `body` to run at the end of the current run-loop turn. The default
    /// starts a main-actor task; an event loop installs its own end-of-turn hook.
    public static var endOfTurnScheduler: @MainActor (@escaping @MainActor () -> Void) -> Void {
        get { LayerContext.current.endOfTurnScheduler }
        set { LayerContext.current.endOfTurnScheduler = newValue }
    }

    /// Called after every outermost commit, e.g. by windows to request a frame.
    public static var commitObservers: [@MainActor () -> Void] {
        get { LayerContext.current.commitObservers }
        set { LayerContext.current.commitObservers = newValue }
    }

    /// Registers `body` to run after every outermost commit on behalf of
    /// `owner` (a window, the application), replacing what that owner
    /// registered before; nil removes it. Owners remove theirs when they go, so
    /// several windows never step on each other's hooks.
    public static func setCommitObserver(for owner: ObjectIdentifier, _ body: (@MainActor () -> Void)?) {
        LayerContext.current.setCommitObserver(for: owner, body)
    }

    /// Runs `body` once, right after the outermost transaction now open commits
    /// (an implicit one is opened when none is): how work that must follow the
    /// batch's changes, such as a view animation's completion with nothing to
    /// animate (rule V5), waits for the commit.
    public static func afterCommit(_ body: @escaping @MainActor () -> Void) {
        let c = LayerContext.current
        ensureOpen(in: c)
        c.afterCommitBodies.append(body)
    }

    // MARK: Begin and commit (rules T1, T2)

    /// Opens an explicit transaction, nested in any that is open.
    public static func begin() {
        let c = LayerContext.current
        c.transactionStack.append(Frame(isImplicit: false, enclosing: c.transactionStack.last))
    }

    /// Commits the innermost explicit transaction. Committing the outermost one
    /// starts the batch's animations. A `commit()` with no explicit transaction
    /// open does nothing (rule T2).
    public static func commit() {
        let c = LayerContext.current
        guard let top = c.transactionStack.last, !top.isImplicit else {
            Diagnostics.report(.unmatchedCommit)
            return
        }
        c.transactionStack.removeLast()
        finish(top, in: c)
    }

    /// Commits the implicit transaction now, instead of at the end of the run-loop
    /// turn (`CATransaction.flush()`). With explicit transactions still open the
    /// implicit one waits for them.
    public static func flush() { flush(in: LayerContext.current) }

    static func flush(in c: LayerContext) {
        if c.transactionStack.count == 1, c.transactionStack[0].isImplicit {
            finish(c.transactionStack.removeLast(), in: c)
        } else if c.transactionStack.isEmpty && (c.treeChanged || !c.uncommitted.isEmpty) {
            commitOutermost(in: c)
        }
    }

    /// True while a transaction (implicit or explicit) is open.
    package static var isOpen: Bool { !LayerContext.current.transactionStack.isEmpty }

    /// Makes sure a transaction is open, starting an implicit one if needed (rule T1).
    package static func ensureOpen() { ensureOpen(in: LayerContext.current) }

    /// Every change asks: only the test is inlined.
    @inline(__always)
    static func ensureOpen(in c: LayerContext) {
        if c.transactionStack.isEmpty { openImplicit(in: c) }
    }

    private static func openImplicit(in c: LayerContext) {
        c.transactionStack.append(Frame(isImplicit: true, enclosing: nil))
        if !c.flushScheduled {
            c.flushScheduled = true
            c.endOfTurnScheduler { [c] in
                c.flushScheduled = false
                flush(in: c)
            }
        }
    }

    private static func finish(_ frame: Frame, in c: LayerContext) {
        if c.transactionStack.isEmpty { commitOutermost(in: c) }
        frame.completion?.seal()
    }

    private static func commitOutermost(in c: LayerContext) {
        c.flushScheduled = false
        c.commitCount += 1
        PresentationHosts.markPresented(in: c)
        let now = c.clock.now
        var batch: [Layer] = []
        swap(&batch, &c.uncommitted)
        for layer in batch {
            layer.awaitsCommit = false
            for entry in layer.animationEntries where !entry.isCommitted {
                if entry.timing.beginTime == 0 {
                    entry.stampBeginTime(layer.convertTime(now, from: nil))
                }
                entry.isCommitted = true
            }
            layer.tracksDidChange()
        }
        // The next batch reuses the storage, as a C engine keeps its list's.
        batch.removeAll(keepingCapacity: true)
        if c.uncommitted.isEmpty { c.uncommitted = batch }
        AnimationTimeline.deliverDueEvents(in: c)
        for observer in c.commitObservers { observer() }
        for observer in c.ownedCommitObservers.values { observer() }
        let bodies = c.afterCommitBodies
        c.afterCommitBodies = []
        for body in bodies { body() }
    }

    static func noteTreeChange(in c: LayerContext) { c.treeChanged = true }

    /// Registers an animation just added, for stamping and completion (rules T2, T4).
    static func didAdd(_ entry: AnimationEntry, to layer: Layer) {
        let c = layer.context
        ensureOpen(in: c)
        // The layer is listed once per transaction; the commit finds its new entries.
        if !layer.awaitsCommit {
            layer.awaitsCommit = true
            c.uncommitted.append(layer)
        }
        // Most transactions have no completion block: then no frame is visited.
        guard let top = c.transactionStack.last, top.completion != nil || top.enclosingHasCompletion else { return }
        for frame in c.transactionStack {
            if let group = frame.completion {
                group.add(entry)
            }
        }
    }

    // MARK: Settings (rules T3, T4)

    /// The value of a setting, from the innermost open transaction that sets it
    /// (rule T2: an inner transaction reads its enclosing one's settings, the
    /// completion block included).
    public static func value(forKey key: String) -> Any? {
        for frame in stack.reversed() {
            if let v = frame.values[key] { return v }
        }
        return nil
    }

    /// Sets a setting of the innermost transaction (opening an implicit one if
    /// none is open). The keys are `disableActionsKey`, `animationDurationKey`,
    /// `animationTimingFunctionKey`, `completionBlockKey`, or any other key.
    public static func setValue(_ value: Any?, forKey key: String) {
        let c = LayerContext.current
        ensureOpen(in: c)
        let stack = c.transactionStack
        let frame = stack[stack.count - 1]
        frame.values[key] = value
        if key == disableActionsKey {
            frame.actionsDisabled = (value as? Bool) ?? false
        }
        // Cleared (nil): the enclosing transaction's value applies again.
        let enclosing = stack.count > 1 ? stack[stack.count - 2] : nil
        if key == animationDurationKey { frame.duration = value ?? enclosing?.duration }
        if key == animationTimingFunctionKey { frame.timingFunction = value ?? enclosing?.timingFunction }
        if key == completionBlockKey {
            // Setting the block again, or to nil, runs the previous one at once (rule T4).
            frame.completion?.runNow()
            frame.completion = (value as? @MainActor () -> Void).map(CompletionGroup.init)
        }
    }

    /// True when property changes in this transaction run no actions (rule T3).
    public static var disableActions: Bool {
        get { stack.last?.actionsDisabled ?? false }
        set { setValue(newValue, forKey: disableActionsKey) }
    }

    /// The duration of implicit animations; 0.25 s unless set.
    public static var animationDuration: Double {
        get { stack.last?.implicitDuration ?? 0.25 }
        set { setValue(newValue, forKey: animationDurationKey) }
    }

    /// The timing function of implicit animations; nil means the `default` curve.
    public static var animationTimingFunction: MediaTimingFunction? {
        get { stack.last?.implicitTimingFunction }
        set { setValue(newValue, forKey: animationTimingFunctionKey) }
    }

    /// Runs once every animation added after it was set in this transaction (and in
    /// transactions nested in it) has finished or been removed; with none, right
    /// after the commit (rule T4).
    public static var completionBlock: (@MainActor () -> Void)? {
        get { value(forKey: completionBlockKey) as? @MainActor () -> Void }
        set { setValue(newValue, forKey: completionBlockKey) }
    }

    /// Runs `body` in its own transaction and commits it.
    public static func perform(_ body: () throws -> Void) rethrows {
        begin()
        defer { commit() }
        try body()
    }

    /// Runs `body` with actions disabled, in its own transaction.
    public static func withoutActions(_ body: () throws -> Void) rethrows {
        begin()
        disableActions = true
        defer { commit() }
        try body()
    }

    /// Forgets every open transaction and pending state of the current context.
    /// For tests that share a context; nothing runs for what is dropped.
    public static func reset() {
        let c = LayerContext.current
        c.flushScheduled = false
        c.transactionStack.removeAll()
        for layer in c.uncommitted { layer.awaitsCommit = false }
        c.uncommitted.removeAll()
        c.afterCommitBodies.removeAll()
        c.treeChanged = false
        c.spareCopy = nil   // it holds the model it was made from
    }
}

/// The animations a completion block waits for (rule T4).
@MainActor
final class CompletionGroup {
    private var block: (@MainActor () -> Void)?
    private var pending = 0
    private var sealed = false

    init(_ block: @escaping @MainActor () -> Void) { self.block = block }

    func add(_ entry: AnimationEntry) {
        pending += 1
        entry.completionGroups.append(self)
    }

    /// One of the group's animations finished or was removed.
    func animationEnded() {
        pending -= 1
        runIfDone()
    }

    /// Runs the block now, whatever is pending (it will not run again).
    func runNow() {
        guard let b = block else { return }
        block = nil
        b()
    }

    /// The transaction committed: no more animations join.
    func seal() {
        sealed = true
        runIfDone()
    }

    private func runIfDone() {
        guard sealed, pending <= 0, let b = block else { return }
        block = nil
        b()
    }
}
