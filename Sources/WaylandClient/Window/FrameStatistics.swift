/// Timing of a window's frames: when each frame callback arrived, when the frame
/// was committed, and — where the compositor offers `wp_presentation` — when it
/// was presented or that it was discarded.
@MainActor
public final class FrameStatistics {
    public struct Frame: Sendable {
        /// Frame number (1 for the first committed frame).
        public let number: UInt64
        /// CLOCK_MONOTONIC seconds when the frame callback that started it arrived
        /// (nil for frames not started by a callback: the first, and after a configure).
        public let callbackTime: Double?
        /// CLOCK_MONOTONIC seconds when the frame was committed.
        public let commitTime: Double
        /// When the compositor presented it (presentation clock seconds), if known.
        public var presentedTime: Double?
        /// The output's refresh period the compositor reported, in seconds, if known.
        public var refreshInterval: Double?
        /// The compositor reported the frame was never shown.
        public var discarded = false

        /// A frame as a trace recorded it (a protocol proxy's).
        public init(number: UInt64, callbackTime: Double?, commitTime: Double, presentedTime: Double? = nil,
                    refreshInterval: Double? = nil, discarded: Bool = false) {
            (self.number, self.callbackTime, self.commitTime) = (number, callbackTime, commitTime)
            (self.presentedTime, self.refreshInterval, self.discarded) = (presentedTime, refreshInterval, discarded)
        }
    }

    public private(set) var frames: [Frame] = []
    /// Frame callbacks received.
    public private(set) var callbackCount = 0
    /// Frames kept at most (older ones are dropped).
    public var capacity = 10_000

    func noteCallback() { callbackCount += 1 }

    func commit(number: UInt64, callbackTime: Double?, at time: Double) -> Int {
        if frames.count >= capacity { frames.removeFirst(frames.count - capacity + 1) }
        frames.append(Frame(number: number, callbackTime: callbackTime, commitTime: time))
        return frames.count - 1
    }

    func update(number: UInt64, _ change: (inout Frame) -> Void) {
        guard let i = frames.lastIndex(where: { $0.number == number }) else { return }
        change(&frames[i])
    }

    /// Seconds between consecutive frame callbacks that started frames.
    public var callbackIntervals: [Double] {
        let times = frames.compactMap(\.callbackTime)
        return zip(times, times.dropFirst()).map { $1 - $0 }
    }

    /// Seconds from frame callback to commit, for frames a callback started.
    public var callbackToCommit: [Double] { Self.callbackToCommit(frames) }

    /// The same for some of the frames (say, those after a warm-up).
    public nonisolated static func callbackToCommit(_ frames: some Sequence<Frame>) -> [Double] {
        frames.compactMap { f in f.callbackTime.map { f.commitTime - $0 } }
    }

    /// The `p`-th percentile (0…100) of some values, nil when there are none.
    public nonisolated static func percentile(_ values: [Double], _ p: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        let s = values.sorted()
        let rank = min(Double(s.count - 1), max(0, p / 100 * Double(s.count - 1)))
        let lo = Int(rank.rounded(.down)), hi = Int(rank.rounded(.up))
        return s[lo] + (s[hi] - s[lo]) * (rank - Double(lo))
    }
}
