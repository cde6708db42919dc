import Glibc
import PixmanRender
import Strata
import WaylandClient

/// How a compositor paced a client's frames over a stretch of time: the frame
/// callbacks it sent, the frames the client committed in answer, and — where
/// `wp_presentation` works — when they reached the screen. Made from a window's
/// `FrameStatistics`; printed as a table or JSON (`strata-probe pacing`).
public struct PacingReport: Sendable, Equatable {
    public var seconds: Double
    /// Frames the client committed, and frame callbacks the compositor sent.
    public var frames: Int
    public var callbacks: Int
    /// Intervals between callbacks that started frames, in seconds.
    public var callbackIntervals: [Double]
    /// From a callback's arrival to the commit of the frame it started, in seconds.
    public var callbackToCommit: [Double]
    /// From a commit to its presentation, in seconds (presented frames only).
    public var commitToPresent: [Double]
    public var presented: Int
    public var discarded: Int
    /// The output's refresh interval the compositor reported, if it did.
    public var refreshInterval: Double?

    /// Reads a stretch of frames. `presentationClockOffset`: how far the
    /// presentation clock (`Display.presentationClock`) is ahead of
    /// CLOCK_MONOTONIC, in seconds (0 when it is CLOCK_MONOTONIC; nil: unknown,
    /// and commit→present is not measured).
    public init(frames all: [FrameStatistics.Frame], callbacks: Int, seconds: Double, presentationClockOffset: Double? = 0) {
        let frames = all
        self.seconds = seconds
        self.frames = frames.count
        self.callbacks = callbacks
        let times = frames.compactMap(\.callbackTime)
        callbackIntervals = zip(times, times.dropFirst()).map { $1 - $0 }.filter { $0 >= 0 }
        callbackToCommit = FrameStatistics.callbackToCommit(frames)
        presented = frames.filter { $0.presentedTime != nil }.count
        discarded = frames.filter(\.discarded).count
        commitToPresent = presentationClockOffset.map { offset in
            frames.compactMap { f in f.presentedTime.map { $0 - offset - f.commitTime } }.filter { $0 >= 0 }
        } ?? []
        refreshInterval = frames.compactMap(\.refreshInterval).last
    }

    public var framesPerSecond: Double { seconds > 0 ? Double(frames) / seconds : 0 }
    public var callbacksPerSecond: Double { seconds > 0 ? Double(callbacks) / seconds : 0 }

    /// Percentile `p` (0–100) of some values in milliseconds, nil when there are none.
    public static func ms(_ values: [Double], _ p: Double) -> Double? {
        FrameStatistics.percentile(values, p).map { $0 * 1000 }
    }

    /// Standard deviation of the callback intervals, in milliseconds.
    public var callbackIntervalJitter: Double? {
        guard callbackIntervals.count > 1 else { return nil }
        let mean = callbackIntervals.reduce(0, +) / Double(callbackIntervals.count)
        let variance = callbackIntervals.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(callbackIntervals.count - 1)
        return variance.squareRoot() * 1000
    }

    /// The figures by name, in order (nil: not measured on this compositor).
    public var figures: [(name: String, value: Double?)] {
        [("seconds", seconds), ("frames", Double(frames)), ("callbacks", Double(callbacks)),
         ("frames_per_second", framesPerSecond), ("callbacks_per_second", callbacksPerSecond),
         ("callback_interval_p50_ms", Self.ms(callbackIntervals, 50)), ("callback_interval_p99_ms", Self.ms(callbackIntervals, 99)),
         ("callback_interval_jitter_ms", callbackIntervalJitter),
         ("callback_to_commit_p50_ms", Self.ms(callbackToCommit, 50)), ("callback_to_commit_p99_ms", Self.ms(callbackToCommit, 99)),
         ("presented", Double(presented)), ("discarded", Double(discarded)),
         ("commit_to_present_p50_ms", Self.ms(commitToPresent, 50)), ("commit_to_present_p99_ms", Self.ms(commitToPresent, 99)),
         ("refresh_interval_ms", refreshInterval.map { $0 * 1000 })]
    }

    /// One JSON object; figures not measured are `null`.
    public var json: String {
        let fields = figures.map { "\"\($0.name)\": \($0.value.map(Self.number) ?? "null")" }
        return "{" + fields.joined(separator: ", ") + "}"
    }

    /// A table a person reads: one figure a line.
    public var table: String {
        figures.map { name, value in
            name + String(repeating: " ", count: max(1, 30 - name.count)) + (value.map(Self.number) ?? "not measured")
        }.joined(separator: "\n")
    }

    private static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < 1e15 { return String(Int(v)) }
        return String((v * 1000).rounded() / 1000)
    }

    public static func == (a: PacingReport, b: PacingReport) -> Bool { a.json == b.json }

    // MARK: The plot

    /// The callback intervals as a plot (ms against frame number), drawn by the
    /// toolkit offscreen: a line per interval, the median dashed, the refresh
    /// interval (when known) in green, axis labels in text.
    @MainActor
    public func plot(width: Int = 800, height: Int = 300) -> RenderedImage {
        let window = Window(title: "pacing", size: Size(width: Double(width), height: Double(height)))
        window.backgroundColor = .white
        let root = window.rootView
        let area = Rect(x: 56, y: 28, width: Double(width) - 72, height: Double(height) - 64)
        let intervals = callbackIntervals.map { $0 * 1000 }
        let top = (max(20, (intervals.max() ?? 20) * 1.1, (refreshInterval ?? 0) * 1500) / 5).rounded(.up) * 5   // a round number of ms
        func y(_ ms: Double) -> Double { area.maxY - min(ms, top) / top * area.height }
        let frame = View(frame: area)
        frame.layer.borderWidth = 1
        frame.layer.borderColor = .systemGray3
        root.addSubview(frame)
        let line = ShapeLayer()
        let path = Path()
        for (i, ms) in intervals.enumerated() {
            let x = area.minX + (intervals.count > 1 ? Double(i) / Double(intervals.count - 1) : 0) * area.width
            if i == 0 { path.move(to: Point(x: x, y: y(ms))) } else { path.addLine(to: Point(x: x, y: y(ms))) }
        }
        line.path = path
        line.strokeColor = .systemBlue
        line.fillColor = nil
        line.lineWidth = 1.5
        root.layer.addSublayer(line)
        var marks: [(ms: Double, color: Color, name: String)] = []
        if let median = Self.ms(callbackIntervals, 50) { marks.append((median, .systemOrange, "median")) }
        if let refresh = refreshInterval { marks.append((refresh * 1000, .systemGreen, "refresh")) }
        for mark in marks {
            let rule = View(frame: Rect(x: area.minX, y: y(mark.ms).rounded(), width: area.width, height: 1))   // on a pixel row: crisp
            rule.backgroundColor = mark.color
            root.addSubview(rule)
            let label = Label(frame: Rect(x: area.maxX - 160, y: y(mark.ms) - 18, width: 156, height: 16))
            label.text = "\(mark.name) \(Self.number(mark.ms)) ms"
            label.font = .systemFont(ofSize: 11)
            label.textColor = mark.color
            label.textAlignment = .right
            root.addSubview(label)
        }
        for (text, rect, alignment) in [
            ("\(Self.number(top)) ms", Rect(x: 0, y: area.minY - 8, width: 52, height: 16), TextAlignment.right),
            ("0", Rect(x: 0, y: area.maxY - 8, width: 52, height: 16), .right),
            ("frame callback intervals, \(intervals.count) frames over \(Self.number(seconds)) s", Rect(x: area.minX, y: 6, width: area.width, height: 18), .left),
            ("frame", Rect(x: area.minX, y: area.maxY + 8, width: area.width, height: 16), .center),
        ] {
            let label = Label(frame: rect)
            label.text = text
            label.font = .systemFont(ofSize: 12)
            label.textColor = .secondaryLabel
            label.textAlignment = alignment
            root.addSubview(label)
        }
        Transaction.flush()
        return window.snapshot()
    }
}

/// How far clock `id` (a `clockid_t`, as `wp_presentation.clock_id` names it) is
/// ahead of CLOCK_MONOTONIC now, in seconds; nil for a clock that cannot be read.
public func clockOffsetFromMonotonic(_ id: UInt32) -> Double? {
    var a = timespec(), b = timespec(), c = timespec()
    clock_gettime(CLOCK_MONOTONIC, &a)
    guard clock_gettime(clockid_t(id), &b) == 0 else { return nil }
    clock_gettime(CLOCK_MONOTONIC, &c)
    func s(_ t: timespec) -> Double { Double(t.tv_sec) + Double(t.tv_nsec) / 1e9 }
    return s(b) - (s(a) + s(c)) / 2
}

/// A window that animates without pause (cards sliding back and forth), for
/// measuring a compositor's pacing of a busy client.
@MainActor
public final class PacingScene {
    public let window: Window

    public init(size: Size = Size(width: 640, height: 480)) {
        window = Window(title: "strata-probe pacing", size: size)
        window.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
        for i in 0..<40 {
            let card = View(frame: Rect(x: 10 + Double(i % 8) * 24, y: 10 + Double(i / 8) * (size.height - 20) / 5,
                                        width: 60, height: (size.height - 20) / 5 - 8))
            card.backgroundColor = Color(red: 0.3 + Double(i % 5) * 0.12, green: 0.5, blue: 0.9 - Double(i % 7) * 0.08)
            card.layer.cornerRadius = 8
            window.rootView.addSubview(card)
        }
    }

    /// Starts the motion (after the window is shown).
    public func start() {
        let travel = window.size.width - 260
        View.animate(duration: 1.5, options: [.repeat, .autoreverse, .curveLinear]) {
            for card in self.window.rootView.subviews { card.center.x += travel }
        }
    }
}
