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
