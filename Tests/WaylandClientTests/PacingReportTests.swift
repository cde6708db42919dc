@testable import WaylandClient
import PixmanRender
import StrataTesting
import Testing
import LayerKitTesting

/// The pacing report's statistics, JSON and plot, from frames made up here.
@MainActor
@Suite("Pacing reports", .isolatedLayerContext)
struct PacingReportTests {
    /// Frames 16 ms apart (every fifth 33 ms), each committed 2 ms after its
    /// callback and presented 10 ms after its commit.
    func frames(_ n: Int, presented: Bool = true, refresh: Double = 0.016) -> [FrameStatistics.Frame] {
        var t = 100.0
        return (0..<n).map { i in
            t += i % 5 == 4 ? 0.033 : 0.016
            var f = FrameStatistics.Frame(number: UInt64(i + 1), callbackTime: t, commitTime: t + 0.002)
            if presented { f.presentedTime = t + 0.012 }
            f.refreshInterval = refresh
            return f
        }
    }

    @Test("rates, percentiles, jitter and commit→present from the frames")
    func statistics() {
        let report = PacingReport(frames: frames(101), callbacks: 101, seconds: 2)
        #expect(report.framesPerSecond == 50.5)
        #expect(report.callbackIntervals.count == 100)
        #expect(abs(PacingReport.ms(report.callbackIntervals, 50)! - 16) < 1e-6)
        #expect(abs(PacingReport.ms(report.callbackIntervals, 99)! - 33) < 1e-6)
        #expect(abs(PacingReport.ms(report.callbackToCommit, 50)! - 2) < 1e-6)
        #expect(abs(PacingReport.ms(report.commitToPresent, 50)! - 10) < 1e-6)
        #expect((report.callbackIntervalJitter ?? 0) > 6 && (report.callbackIntervalJitter ?? 0) < 8)
        #expect(report.presented == 101 && report.discarded == 0)
        // Another presentation clock, 50 s ahead: the same latencies once the offset is known.
        var shifted = frames(101)
        for i in shifted.indices { shifted[i].presentedTime! += 50 }
        #expect(abs(PacingReport.ms(PacingReport(frames: shifted, callbacks: 101, seconds: 2, presentationClockOffset: 50).commitToPresent, 50)! - 10) < 1e-6)
        #expect(PacingReport(frames: shifted, callbacks: 101, seconds: 2, presentationClockOffset: nil).commitToPresent.isEmpty)
    }

    @Test("JSON: every figure, null where not measured; no frames at all is a report of zeros, not a crash")
    func json() {
        let report = PacingReport(frames: frames(10, presented: false), callbacks: 10, seconds: 1)
        #expect(report.json.hasPrefix("{\"seconds\": 1, \"frames\": 10, \"callbacks\": 10"))
        #expect(report.json.contains("\"commit_to_present_p50_ms\": null"))
        #expect(report.json.contains("\"refresh_interval_ms\": 16"))
        #expect(report.table.contains("commit_to_present_p50_ms      not measured"))
        let empty = PacingReport(frames: [], callbacks: 0, seconds: 0)
        #expect(empty.framesPerSecond == 0)
        #expect(empty.json.contains("\"callback_interval_p50_ms\": null"))
        #expect(empty.plot().width == 800)
    }

    @Test("the plot draws the intervals, the median and the refresh interval")
    func plot() {
        let image = PacingReport(frames: frames(60, refresh: 0.008), callbacks: 60, seconds: 1).plot(width: 600, height: 240)
        #expect(image.width == 600 && image.height == 240)
        var blue = 0, green = 0
        for y in 0..<image.height { for x in 0..<image.width {
            let p = image.rgba8(x: x, y: y)
            if p.b > 200 && p.r < 60 && p.g < 160 { blue += 1 }
            if p.g > 150 && p.r < 120 && p.b < 120 { green += 1 }
        } }
        #expect(blue > 300)    // the line of intervals
        #expect(green > 300)   // the refresh interval's rule
    }
}
