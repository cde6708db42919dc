@testable import LayerKit
import Testing
import LayerKitTesting

/// Timers on the media clock: exact on a ManualMediaClock, in time order with animation events.
@MainActor
@Suite("Media timers", .isolatedLayerContext)
struct MediaTimerTests {
    @Test("timers run once, at their time, in time order, when the clock passes it")
    func order() {
        let f = Fixture()
        var log: [String] = []
        MediaTimer.schedule(at: 100.3) { log.append("b") }
        MediaTimer.schedule(after: 0.1) { log.append("a") }
        let c = MediaTimer.schedule(after: 0.2) { log.append("never") }
        c.cancel()
        #expect(!c.isPending)
        f.advance(0.099)
        #expect(log.isEmpty)
        f.advance(0.001)
        #expect(log == ["a"])
        f.advance(1)
        #expect(log == ["a", "b"])
        f.advance(1)
        #expect(log == ["a", "b"])
    }

    @Test("a periodic timer behind by a million periods runs at most maximumTimersPerDelivery times an advance, with a diagnostic; the rest run at the next (found by the app fuzzer)")
    func boundedCatchUp() {
        let f = Fixture()
        var runs = 0
        var reports: [LayerKitDiagnostic] = []
        Diagnostics.handler = { reports.append($0) }
        func tick(_ at: Double) {
            runs += 1
            MediaTimer.schedule(at: at + 0.001) { tick(at + 0.001) }
        }
        MediaTimer.schedule(at: 100.001) { tick(100.001) }
        f.advance(1_000)                       // a million periods
        #expect(runs == AnimationTimeline.maximumTimersPerDelivery)
        #expect(reports.contains { "\($0)".contains("media timers fell due at once") })
        f.advance(0.0001)                      // the next delivery goes on from there
        #expect(runs == 2 * AnimationTimeline.maximumTimersPerDelivery)
    }

    @Test("a timer scheduled by a timer at its own time plus a period runs in the same advance, without drift; NaN never runs")
    func chained() {
        let f = Fixture()
        var ticks: [Double] = []
        func tick(_ timer: Double) {
            ticks.append(timer)
            if ticks.count < 5 { MediaTimer.schedule(at: timer + 0.125) { tick(timer + 0.125) } }
        }
        MediaTimer.schedule(at: 100.125) { tick(100.125) }
        let never = MediaTimer.schedule(at: .nan) { ticks.append(-1) }
        f.advance(10)
        #expect(ticks == [100.125, 100.25, 100.375, 100.5, 100.625])
        #expect(never.isPending)
        #expect(AnimationTimeline.nextEventTime(after: f.clock.now) == .infinity)
    }

    @Test("the next event time counts timers, so windows wake for them")
    func nextEventTime() {
        let f = Fixture()
        MediaTimer.schedule(at: 102) {}
        #expect(AnimationTimeline.nextEventTime(after: f.clock.now) == 102)
    }
}
