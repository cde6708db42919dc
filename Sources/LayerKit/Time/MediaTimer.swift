/// A closure that runs once at a media time on the installed clock — the
/// timing of key repeat, long presses and double taps, exact on a
/// `ManualMediaClock` as on the system clock.
///
/// Timers fall due with animation events: advancing a `ManualMediaClock` runs
/// every timer due by then, in time order, before it returns; on the system
/// clock a window wakes at ``AnimationTimeline/nextEventTime(after:)``, which
/// counts timers, and runs them.
@MainActor
public final class MediaTimer {
    /// Root media time it runs at.
    public let fireTime: Double
    private var body: (@MainActor () -> Void)?
    let sequence: Int
    /// The context whose clock and timeline it runs on (the current one when scheduled).
    let context = LayerContext.current
    // A process-wide counter, as object identities are: it only orders timers
    // made at the same time, and never goes back.
    private static var nextSequence = 0

    private init(fireTime: Double, body: @escaping @MainActor () -> Void) {
        self.fireTime = fireTime
        self.body = body
        Self.nextSequence += 1
        sequence = Self.nextSequence
    }

    /// Runs `body` at root media time `time` (at once, at the next delivery, when
    /// that has passed). A time that is not a number runs never, with a diagnostic.
    @discardableResult
    public static func schedule(at time: Double, _ body: @escaping @MainActor () -> Void) -> MediaTimer {
        var t = time
        if t.isNaN {
            Diagnostics.report(.invalidTiming("timer at NaN; it never runs"))
            t = .infinity
        }
        let timer = MediaTimer(fireTime: t, body: body)
        AnimationTimeline.add(timer)
        Transaction.ensureOpen(in: timer.context)   // its commit tells windows to wake up in time for it
        return timer
    }

    /// Runs `body` `delay` seconds after the clock's current time. (Inside a timer
    /// run by an advance of a `ManualMediaClock`, the clock already reads the end of
    /// the advance: periodic work schedules `at:` its previous time plus the period,
    /// which also keeps it from drifting.)
    @discardableResult
    public static func schedule(after delay: Double, _ body: @escaping @MainActor () -> Void) -> MediaTimer {
        schedule(at: currentMediaTime() + max(0, delay.isNaN ? 0 : delay), body)
    }

    /// True until it ran or was cancelled.
    public var isPending: Bool { body != nil }

    /// Keeps it from running.
    public func cancel() {
        guard body != nil else { return }
        body = nil
        AnimationTimeline.remove(self)
    }

    func fire() {
        guard let b = body else { return }
        body = nil
        b()
    }
}
