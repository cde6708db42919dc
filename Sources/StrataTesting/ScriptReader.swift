/// The line syntax shared by the kit's scripts (``Scenario``, ``ClientScript``):
/// words, "quoted words", `#` comments, and readers for sizes, points, colours,
/// times and keywords with the column of each mistake.

/// The steps of a script, a line each: blank lines and comments skipped, the
/// command word and a reader of its arguments given to `step`, which must read
/// them all.
func parseScript<Step>(_ text: String, _ step: (_ command: String, _ column: Int, _ reader: inout ScriptReader) throws(Scenario.ParseError) -> Step)
    throws(Scenario.ParseError) -> [(number: Int, column: Int, step: Step)] {
    var lines: [(number: Int, column: Int, step: Step)] = []
    for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
        let number = index + 1
        var tokens = try scriptTokens(of: Substring(raw), line: number)
        guard let (command, column) = tokens.first else { continue }
        tokens.removeFirst()
        var reader = ScriptReader(tokens: tokens, line: number, after: column + command.count)
        let parsed = try step(command, column, &reader)
        try reader.expectEnd()
        lines.append((number, column, parsed))
    }
    return lines
}

/// Words of a line with their 1-based columns; "quoted words" may hold spaces and
/// the escapes `\n`, `\t`, `\"` and `\\`; `#` starts a comment.
func scriptTokens(of line: Substring, line number: Int) throws(Scenario.ParseError) -> [(String, Int)] {
    var tokens: [(String, Int)] = []
    let chars = Array(line)
    var i = 0
    while i < chars.count {
        if chars[i] == " " || chars[i] == "\t" { i += 1; continue }
        if chars[i] == "#" {
            // A comment — at the line's start, or unless the word is a colour (# and six hex digits).
            let rest = chars[(i + 1)...].prefix { $0 != " " && $0 != "\t" }
            if tokens.isEmpty || !(rest.count == 6 && rest.allSatisfy(\.isHexDigit)) { break }
        }
        let start = i
        if chars[i] == "\"" {
            i += 1
            var word = ""
            while i < chars.count, chars[i] != "\"" {
                // \n, \t, \" and \\ inside quotes; any other backslash stays as it is.
                if chars[i] == "\\", i + 1 < chars.count, let escaped = ["n": "\n", "t": "\t", "\"": "\"", "\\": "\\"][chars[i + 1]] {
                    word.append(escaped)
                    i += 2
                    continue
                }
                word.append(chars[i])
                i += 1
            }
            guard i < chars.count else { throw Scenario.ParseError(line: number, column: start + 1, message: "unterminated quote") }
            i += 1
            tokens.append((word, start + 1))
        } else {
            while i < chars.count, chars[i] != " ", chars[i] != "\t" { i += 1 }
            tokens.append((String(chars[start..<i]), start + 1))
        }
    }
    return tokens
}

/// Reads a line's arguments in order, each mistake a ``Scenario/ParseError`` at its column.
struct ScriptReader {
    var tokens: [(String, Int)]
    let line: Int
    /// The column after the last token read (where a missing argument would be).
    var after: Int

    var isAtEnd: Bool { tokens.isEmpty }

    mutating func next(_ what: String) throws(Scenario.ParseError) -> (String, Int) {
        guard !tokens.isEmpty else { throw Scenario.ParseError(line: line, column: after + 1, message: "expected \(what)") }
        let t = tokens.removeFirst()
        after = t.1 + t.0.count
        return t
    }

    mutating func word(_ what: String) throws(Scenario.ParseError) -> String { try next(what).0 }

    mutating func size() throws(Scenario.ParseError) -> (Int, Int) {
        let (t, column) = try next("a size WxH")
        let parts = t.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16_384).contains(w), (1...16_384).contains(h) else {
            throw Scenario.ParseError(line: line, column: column, message: "'\(t)' is not a size WxH (1 to 16384 each)")
        }
        return (w, h)
    }

    mutating func point() throws(Scenario.ParseError) -> (Int, Int) {
        let (t, column) = try next("a point X,Y")
        let parts = t.split(separator: ",")
        guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]), x >= 0, y >= 0 else {
            throw Scenario.ParseError(line: line, column: column, message: "'\(t)' is not a point X,Y")
        }
        return (x, y)
    }

    mutating func color() throws(Scenario.ParseError) -> Color {
        let (t, column) = try next("a colour #rrggbb")
        guard t.count == 7, t.first == "#", let v = UInt32(t.dropFirst(), radix: 16) else {
            throw Scenario.ParseError(line: line, column: column, message: "'\(t)' is not a colour #rrggbb")
        }
        return Color(rgba8: UInt8(v >> 16), UInt8((v >> 8) & 0xff), UInt8(v & 0xff))
    }

    mutating func seconds() throws(Scenario.ParseError) -> Double {
        let (t, column) = try next("a time in seconds")
        guard let v = Double(t), v.isFinite, v >= 0, v <= 3600 else {
            throw Scenario.ParseError(line: line, column: column, message: "'\(t)' is not a time in seconds (0 to 3600)")
        }
        return v
    }

    mutating func integer(in range: ClosedRange<Int>, _ what: String) throws(Scenario.ParseError) -> Int {
        let (t, column) = try next(what)
        guard let v = Int(t), range.contains(v) else { throw Scenario.ParseError(line: line, column: column, message: "'\(t)' is not \(what)") }
        return v
    }

    mutating func onOff() throws(Scenario.ParseError) -> Bool {
        let (t, column) = try next("on or off")
        switch t {
        case "on": return true
        case "off": return false
        default: throw Scenario.ParseError(line: line, column: column, message: "'\(t)' is not on or off")
        }
    }

    mutating func keyword(_ k: String) throws(Scenario.ParseError) {
        let (t, column) = try next("'\(k)'")
        guard t == k else { throw Scenario.ParseError(line: line, column: column, message: "expected '\(k)', not '\(t)'") }
    }

    func expectEnd() throws(Scenario.ParseError) {
        if let (t, column) = tokens.first { throw Scenario.ParseError(line: line, column: column, message: "unexpected '\(t)'") }
    }
}

extension ScriptReader {
    /// Reads the next word when it is `keyword`; false (nothing read) otherwise.
    mutating func take(_ keyword: String) -> Bool {
        guard tokens.first?.0 == keyword else { return false }
        after = tokens[0].1 + keyword.count
        tokens.removeFirst()
        return true
    }

    /// The next word, not read.
    var peek: String? { tokens.first?.0 }
}
