import Glibc
import WaylandClient

/// What a compositor does, as a client sees it: a battery of small checks
/// (``ReportCardCheck``), each passing, failing or skipped with its reason —
/// xdg-shell's configure sequences and states, popups, frame callbacks and
/// presentation, buffers, outputs, decorations, the keyboard, shell layers,
/// captures, and unusual but legal clients (commit storms, 10,000 damage
/// rectangles, 100 subsurfaces…) after which the compositor must still answer.
/// `strata-probe report-card` prints it; `Docs/ReportCard.md` has the five here.
public struct ReportCard: Sendable {
    public enum Outcome: String, Sendable { case pass, fail, skip }

    public struct Result: Sendable {
        public let check: String
        public let area: String
        public let outcome: Outcome
        /// Why it failed or was skipped, in words that do not change from run to run.
        public let reason: String?
        /// What was measured or seen (times, sizes): informative, not compared.
        public let detail: String?
        public let seconds: Double
    }

    public let compositor: String
    public let results: [Result]

    public var counts: (pass: Int, fail: Int, skip: Int) {
        (results.filter { $0.outcome == .pass }.count, results.filter { $0.outcome == .fail }.count, results.filter { $0.outcome == .skip }.count)
    }

    /// A line a check: outcome, area, name, reason and what was seen.
    public var table: String {
        (results.map { r in
            "\(r.outcome.rawValue.uppercased().padding(4))  \(r.area.padding(16)) \(r.check.padding(26))"
                + [r.reason, r.detail].compactMap { $0 }.joined(separator: " — ")
        } + ["\(compositor): \(counts.pass) pass, \(counts.fail) fail, \(counts.skip) skip"]).joined(separator: "\n")
    }

    public var json: String {
        let items = results.map { r in
            "{\"check\": \(JSON.string(r.check)), \"area\": \(JSON.string(r.area)), \"outcome\": \"\(r.outcome.rawValue)\""
                + (r.reason.map { ", \"reason\": \(JSON.string($0))" } ?? "") + (r.detail.map { ", \"detail\": \(JSON.string($0))" } ?? "")
                + ", \"seconds\": \((r.seconds * 1000).rounded() / 1000)}"
        }
        return "{\"compositor\": \(JSON.string(compositor)), \"results\": [\(items.joined(separator: ", "))]}"
    }

    /// Several compositors' cards as one Markdown table (a column each) and the
    /// reasons for what did not pass: stable from run to run (no measurements).
    public static func markdown(_ cards: [ReportCard]) -> String {
        guard let first = cards.first else { return "" }
        var lines = ["# What each compositor does", "",
                     "As a client sees it: \(first.results.count) checks by `strata-probe report-card --all --markdown`, which wrote this file.", "",
                     "| area | check | " + cards.map(\.compositor).joined(separator: " | ") + " |",
                     "|---|---|" + String(repeating: "---|", count: cards.count)]
        for (i, r) in first.results.enumerated() {
            let cells = cards.map { c in i < c.results.count ? symbol(c.results[i].outcome) : "" }
            lines.append("| \(r.area) | \(r.check) | " + cells.joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("Pass ✓, fail ✗, skip –. Why:")
        lines.append("")
        for card in cards {
            for r in card.results where r.outcome != .pass {
                lines.append("- \(card.compositor), \(r.check): \(r.outcome == .fail ? "fails" : "skipped") — \(r.reason ?? "")")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func symbol(_ o: Outcome) -> String {
        switch o {
        case .pass: "✓"
        case .fail: "✗"
        case .skip: "–"
        }
    }
}

private extension String {
    func padding(_ n: Int) -> String { count >= n ? self + " " : self + String(repeating: " ", count: n - count) }
}
