/// Type-ahead matching as launchers do it: the query's characters must appear in
/// order in the candidate (case ignored); the score favours a prefix, matches at
/// the start of words and runs of adjacent matches, and penalizes gaps.
public enum FuzzyMatch {
    /// The score of `query` in `candidate`, nil when it does not match. An empty query matches everything with 0.
    public static func score(_ query: String, in candidate: String) -> Int? {
        let q = Array(query.lowercased().filter { $0 != " " }), c = Array(candidate.lowercased())
        guard !q.isEmpty else { return 0 }
        guard q.count <= c.count else { return nil }
        var score = 0, qi = 0, previous = -2
        for (i, ch) in c.enumerated() where qi < q.count && ch == q[qi] {
            score += 10
            if i == 0 || !(c[i - 1].isLetter || c[i - 1].isNumber) { score += 8 }   // a word's start
            if i == previous + 1 { score += 6 }                                       // a run
            else if previous >= 0 { score -= min(5, i - previous - 1) }              // a gap
            previous = i
            qi += 1
        }
        guard qi == q.count else { return nil }
        if c.starts(with: q) { score += 15 }
        return score
    }

    /// The entries matching `query` in their name (or, scoring less, their generic
    /// name and keywords), best first, ties by name.
    public static func filter(_ entries: [DesktopEntry], by query: String) -> [DesktopEntry] {
        guard !query.isEmpty else { return entries }
        let scored = entries.compactMap { e -> (DesktopEntry, Int)? in
            let other = ([e.genericName ?? ""] + e.keywords).compactMap { score(query, in: $0) }.max().map { $0 / 2 }
            guard let best = [score(query, in: e.name), other].compactMap({ $0 }).max() else { return nil }
            return (e, best)
        }
        return scored.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0.name.lowercased() < $1.0.name.lowercased() }.map(\.0)
    }
}
