import Glibc
import PixmanRender
import StrataTesting
import Testing
import WaylandClient
import LayerKitTesting
@testable import StrataTesting

extension Integration {
/// The report card: what each compositor here does, as Docs/ReportCard.md says,
/// and a compositor that stops answering in the middle.
@MainActor
@Suite("Compositor report card", .serialized, .mainLayerContext)
struct ReportCardTests {
    @Test("the report card of all five compositors is Docs/ReportCard.md's, check for check (regenerate: strata-probe report-card --all --markdown)")
    func allFive() throws {
        var cards: [ReportCard] = []
        for start in [{ try HeadlessWeston() }, { try HeadlessSway() }, { try HeadlessCage() }, { try HeadlessMutter() }, { try HeadlessKWin() }]
            as [() throws -> any Compositor] {
            let compositor = try start()
            defer { compositor.stop() }
            let card = ReportCardCheck.run(on: compositor)
            // Each check's clients went with it: none of their windows stays on the screen.
            let left = compositor.windowsLeft(within: 5)
            #expect(left.isEmpty, "\(compositor.name): \(left)")
            #expect(card.results.count == ReportCardCheck.battery.count)
            // Every check ran to an outcome of its own: none stopped short.
            #expect(!card.results.contains { $0.reason?.hasPrefix("the check could not finish") == true }, "\(card.table)")
            cards.append(card)
        }
        let expected = String(decoding: try PNGCodec.readFile("Docs/ReportCard.md"), as: UTF8.self)
        let made = ReportCard.markdown(cards)
        #expect(made == expected, "\(cards.map(\.table).joined(separator: "\n\n"))")
        // What every compositor here does.
        #expect(cards.allSatisfy { c in c.results.filter { $0.area == "edge cases" }.allSatisfy { $0.outcome == .pass } })
        #expect(cards.allSatisfy { c in c.results.first { $0.check == "first configure" }?.outcome == .pass })
    }

    @Test("a compositor that stops answering fails the check after which it did, with the end of its log; the rest are skipped")
    func hungCompositor() throws {
        let weston = try HeadlessWeston()
        defer {
            weston.resume()
            weston.stop()
        }
        let checks = [
            ReportCardCheck.check("test", "answers") { _ in .pass() },
            ReportCardCheck.check("test", "stops it") { _ in
                weston.pause()
                return .pass()
            },
            ReportCardCheck.check("test", "after") { _ in .pass() },
        ]
        let start = MonotonicClock.now
        let card = ReportCardCheck.run(checks, on: weston)
        #expect(card.results.map(\.outcome) == [.pass, .fail, .skip], "\(card.table)")
        #expect(card.results[1].reason == "the compositor stopped answering (a new client got no answer within 5 s)")
        #expect(card.results[1].detail?.isEmpty == false, "the end of weston's log")
        #expect(card.results[2].reason == "the compositor stopped answering earlier")
        #expect(MonotonicClock.now - start < 30, "bounded")
    }
}
}

/// How the drag-and-drop check finds each client's window in a capture.
@Suite("Report card: finding a colour on the screen")
struct ReportCardColourTests {
    /// A 100×60 image of `background` with `rects` filled.
    func image(_ rects: [(x: Int, y: Int, w: Int, h: Int, color: UInt32)], background: UInt32 = 0xff10_1010) -> RenderedImage {
        var pixels = [UInt32](repeating: background, count: 100 * 60)
        for r in rects {
            for y in r.y..<(r.y + r.h) { for x in r.x..<(r.x + r.w) { pixels[y * 100 + x] = r.color } }
        }
        return RenderedImage(width: 100, height: 60, pixels: pixels)
    }

    @Test("the middle of an uncovered window; a channel off by 2 still matches, by 3 not")
    func uncovered() {
        let shot = image([(x: 20, y: 10, w: 40, h: 20, color: 0xffd0_4022)])
        #expect(shot.pointShowing(0xffd0_4020).map { [$0.x, $0.y] } == [40, 19])
        #expect(shot.pointShowing(0xffd0_4025) == nil)
    }

    @Test("a window half covered by another is aimed at where it shows; a sliver under 8 pixels is not found")
    func covered() {
        // The target at 10…59 × 10…49, covered from x = 30 by the source.
        let shot = image([(x: 10, y: 10, w: 50, h: 40, color: 0xff20_a040), (x: 30, y: 0, w: 70, h: 60, color: 0xffd0_4020)])
        let p = shot.pointShowing(0xff20_a040)
        #expect(p.map { [$0.x, $0.y] } == [20, 29])
        let sliver = image([(x: 10, y: 10, w: 7, h: 40, color: 0xff20_a040)])
        #expect(sliver.pointShowing(0xff20_a040) == nil)
    }
}
