/// A scripted scenario for a compositor: a test client's steps, one a line,
/// written by a compositor author without Swift (`strata-probe run FILE`).
///
/// ```
/// # A window, its pixels, a resize, an animation, then quiet.
/// window "scenario" 320x240 #3366cc
/// wait-configure
/// fullscreen on
/// wait-frames 2
/// expect-pixel 10,10 #3366cc
/// animate 0.5
/// wait-frames 10
/// expect-idle 0.5
/// capture shot.png
/// close
/// ```
///
/// Colours are `#rrggbb`; sizes `WxH`; points `X,Y` on the screen (make the
/// window fullscreen for a known place); times in seconds. `expect-pixel` takes an optional `tolerance N` (0–255 per
/// channel). `#` starts a comment; blank lines are ignored.
///
/// Whether the compositor enforces a protocol: `misuse NAME` sends requests the
/// protocol forbids (``ProtocolMisuse``: `unconfigured-buffer`,
/// `zero-size-positioner`, `second-role`), and `expect-protocol-error INTERFACE
/// CODE` passes when the compositor answers with exactly that error. A protocol
/// error ends the connection, so nothing can follow it.
public struct Scenario: Equatable, Sendable {
    public enum Step: Equatable, Sendable {
        /// Opens the scenario's window (only one) filled with a colour.
        case window(title: String, width: Int, height: Int, color: Color)
        /// Waits until the compositor configured the window and a frame is shown.
        case waitConfigure
        /// Asks for a new size (the compositor may refuse).
        case resize(width: Int, height: Int)
        /// Waits until the window has this size.
        case waitSize(width: Int, height: Int)
        case fullscreen(Bool)
        case maximize(Bool)
        /// Moves a card across the window for this many seconds.
        case animate(seconds: Double)
        /// Waits for this many frames to be committed.
        case waitFrames(Int)
        /// Waits this long, handling events.
        case sleep(seconds: Double)
        /// Checks that the window commits nothing for this long.
        case expectIdle(seconds: Double)
        /// Captures the screen and checks a pixel (screen coordinates), capturing again
        /// for up to 2 s until it matches (compositors show frames a little late).
        case expectPixel(x: Int, y: Int, color: Color, tolerance: Int)
        /// Captures the screen into a PNG file.
        case capture(path: String)
        /// Clicks at a point of the window through the compositor's seat (injected
        /// input: kwin, mutter); passes when the window received the click. The
        /// window must be at the output's origin (fullscreen or maximized).
        case click(x: Int, y: Int)
        /// Types text through the compositor's keyboard (US keymap); passes when
        /// the window received every key.
        case type(String)
        case close
        /// Sends requests the protocol forbids (on objects of their own).
        case misuse(ProtocolMisuse)
        /// Waits for the compositor to end the connection with this protocol error.
        case expectProtocolError(interface: String, code: UInt32)
    }

    /// A step with the line it came from.
    public struct Line: Equatable, Sendable {
        public let number: Int
        public let step: Step
    }

    public let lines: [Line]

    /// A malformed script: where, and what is wrong.
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public let line: Int
        public let column: Int
        public let message: String
        public var description: String { "line \(line), column \(column): \(message)" }
    }

    /// Parses a script; the first malformed line is an error with its line and column (1-based).
    public init(parsing text: String) throws(ParseError) {
        var lines: [Line] = []
        var ended: Int?
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            var tokens = try Scenario.tokens(of: Substring(raw), line: number)
            guard let (command, commandColumn) = tokens.first else { continue }
            tokens.removeFirst()
            var reader = Reader(tokens: tokens, line: number, after: commandColumn + command.count)
            let step: Step
            switch command {
            case "window":
                let title = try reader.word("a title")
                let (w, h) = try reader.size()
                step = .window(title: title, width: w, height: h, color: reader.isAtEnd ? .white : try reader.color())
            case "wait-configure": step = .waitConfigure
            case "resize":
                let (w, h) = try reader.size()
                step = .resize(width: w, height: h)
            case "wait-size":
                let (w, h) = try reader.size()
                step = .waitSize(width: w, height: h)
            case "fullscreen": step = .fullscreen(try reader.onOff())
            case "maximize": step = .maximize(try reader.onOff())
            case "animate": step = .animate(seconds: try reader.seconds())
            case "wait-frames": step = .waitFrames(try reader.integer(in: 1...100_000, "a number of frames"))
            case "sleep": step = .sleep(seconds: try reader.seconds())
            case "expect-idle": step = .expectIdle(seconds: try reader.seconds())
            case "expect-pixel":
                let (x, y) = try reader.point()
                let color = try reader.color()
                var tolerance = 0
                if !reader.isAtEnd {
                    try reader.keyword("tolerance")
                    tolerance = try reader.integer(in: 0...255, "a tolerance from 0 to 255")
                }
                step = .expectPixel(x: x, y: y, color: color, tolerance: tolerance)
            case "capture": step = .capture(path: try reader.word("a file name"))
            case "click":
                let (x, y) = try reader.point()
                step = .click(x: x, y: y)
            case "type": step = .type(try reader.word("text in quotes"))
            case "close": step = .close
            case "misuse":
                let (name, column) = try reader.next("a misuse (\(ProtocolMisuse.allCases.map(\.rawValue).joined(separator: ", ")))")
                guard let misuse = ProtocolMisuse(rawValue: name) else {
                    throw ParseError(line: number, column: column,
                                     message: "unknown misuse '\(name)' (known: \(ProtocolMisuse.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                step = .misuse(misuse)
            case "expect-protocol-error":
                let interface = try reader.word("an interface name")
                step = .expectProtocolError(interface: interface, code: UInt32(try reader.integer(in: 0...Int(Int32.max), "an error code")))
            default:
                throw ParseError(line: number, column: commandColumn, message: "unknown command '\(command)'")
            }
            try reader.expectEnd()
            if let ended {
                throw ParseError(line: number, column: commandColumn,
                                 message: "nothing can follow the protocol error expected on line \(ended): it ends the connection")
            }
            if case .expectProtocolError = step { ended = number }
            lines.append(Line(number: number, step: step))
        }
        self.lines = lines
    }

    /// Words of a line with their 1-based columns; "quoted words" may hold spaces; `#` starts a comment.
    private static func tokens(of line: Substring, line number: Int) throws(ParseError) -> [(String, Int)] {
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
                while i < chars.count, chars[i] != "\"" { word.append(chars[i]); i += 1 }
                guard i < chars.count else { throw ParseError(line: number, column: start + 1, message: "unterminated quote") }
                i += 1
                tokens.append((word, start + 1))
            } else {
                while i < chars.count, chars[i] != " ", chars[i] != "\t" { i += 1 }
                tokens.append((String(chars[start..<i]), start + 1))
            }
        }
        return tokens
    }

    /// Reads a line's arguments in order.
    private struct Reader {
        var tokens: [(String, Int)]
        let line: Int
        /// The column after the last token read (where a missing argument would be).
        var after: Int

        var isAtEnd: Bool { tokens.isEmpty }

        mutating func next(_ what: String) throws(ParseError) -> (String, Int) {
            guard !tokens.isEmpty else { throw ParseError(line: line, column: after + 1, message: "expected \(what)") }
            let t = tokens.removeFirst()
            after = t.1 + t.0.count
            return t
        }

        mutating func word(_ what: String) throws(ParseError) -> String { try next(what).0 }

        mutating func size() throws(ParseError) -> (Int, Int) {
            let (t, column) = try next("a size WxH")
            let parts = t.split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16_384).contains(w), (1...16_384).contains(h) else {
                throw ParseError(line: line, column: column, message: "'\(t)' is not a size WxH (1 to 16384 each)")
            }
            return (w, h)
        }

        mutating func point() throws(ParseError) -> (Int, Int) {
            let (t, column) = try next("a point X,Y")
            let parts = t.split(separator: ",")
            guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]), x >= 0, y >= 0 else {
                throw ParseError(line: line, column: column, message: "'\(t)' is not a point X,Y")
            }
            return (x, y)
        }

        mutating func color() throws(ParseError) -> Color {
            let (t, column) = try next("a colour #rrggbb")
            guard t.count == 7, t.first == "#", let v = UInt32(t.dropFirst(), radix: 16) else {
                throw ParseError(line: line, column: column, message: "'\(t)' is not a colour #rrggbb")
            }
            return Color(rgba8: UInt8(v >> 16), UInt8((v >> 8) & 0xff), UInt8(v & 0xff))
        }

        mutating func seconds() throws(ParseError) -> Double {
            let (t, column) = try next("a time in seconds")
            guard let v = Double(t), v.isFinite, v >= 0, v <= 3600 else {
                throw ParseError(line: line, column: column, message: "'\(t)' is not a time in seconds (0 to 3600)")
            }
            return v
        }

        mutating func integer(in range: ClosedRange<Int>, _ what: String) throws(ParseError) -> Int {
            let (t, column) = try next(what)
            guard let v = Int(t), range.contains(v) else { throw ParseError(line: line, column: column, message: "'\(t)' is not \(what)") }
            return v
        }

        mutating func onOff() throws(ParseError) -> Bool {
            let (t, column) = try next("on or off")
            switch t {
            case "on": return true
            case "off": return false
            default: throw ParseError(line: line, column: column, message: "'\(t)' is not on or off")
            }
        }

        mutating func keyword(_ k: String) throws(ParseError) {
            let (t, column) = try next("'\(k)'")
            guard t == k else { throw ParseError(line: line, column: column, message: "expected '\(k)', not '\(t)'") }
        }

        func expectEnd() throws(ParseError) {
            if let (t, column) = tokens.first { throw ParseError(line: line, column: column, message: "unexpected '\(t)'") }
        }
    }
}
