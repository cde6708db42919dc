import Glibc

/// A source of media time in seconds. LayerKit reads every time it needs —
/// `beginTime` stamping at commit, presentation values, completion — from the
/// installed clock, `MediaTime.clock`.
@MainActor
public protocol MediaClock: AnyObject {
    var now: Double { get }
}

/// The system's monotonic clock (`CLOCK_MONOTONIC`), the default clock, like
/// `CACurrentMediaTime()`.
@MainActor
public final class MonotonicMediaClock: MediaClock {
    public init() {}
    public var now: Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

/// A clock that moves only when told to, for exact, repeatable tests and
/// offscreen rendering — LayerKit's counterpart of swift-nio's `EmbeddedEventLoop`.
///
/// Advancing it (``advance(by:)`` or setting ``now``) delivers, in time order, every
/// animation start and stop callback and every transaction completion block that
/// falls due, and removes finished animations, before it returns; changes those
/// callbacks make are committed at the end of the advance, as at the end of a
/// run-loop turn (a transaction that was open before the advance stays open). Time never goes
/// backwards: advancing by a negative amount, or setting an earlier `now`, leaves
/// the clock where it was.
@MainActor
public final class ManualMediaClock: MediaClock {
    private var current: Double

    public init(now: Double = 0) {
        current = now.isFinite ? now : 0
    }

    /// The context whose clock this is (the last that installed it), not retained.
    weak var context: LayerContext?

    public var now: Double {
        get { current }
        set {
            guard newValue.isFinite, newValue > current else { return }
            current = newValue
            // What falls due is delivered in the clock's own context, whichever is current.
            guard let context, context.clock === self else { return }
            context.run {
                let transactionWasOpen = Transaction.isOpen
                AnimationTimeline.deliverDueEvents(in: context)
                // Callbacks run by the advance that changed layers opened an implicit
                // transaction; no run-loop turn will end to commit it, so the advance does,
                // as a turn would (an animation added in animationDidStop begins then).
                if !transactionWasOpen { Transaction.flush(in: context) }
            }
        }
    }

    /// Moves the clock forward by `seconds` and delivers everything that falls due.
    public func advance(by seconds: Double) {
        now = current + seconds
    }
}

/// The installed media clock.
@MainActor
public enum MediaTime {
    /// The clock every LayerKit time comes from: the current context's
    /// (``LayerContext/clock``). Install a `ManualMediaClock` in tests.
    public static var clock: any MediaClock {
        get { LayerContext.current.clock }
        set { LayerContext.current.clock = newValue }
    }
}

/// The current media time in seconds on the installed clock (`CACurrentMediaTime()`).
@MainActor
public func currentMediaTime() -> Double { LayerContext.current.clock.now }
