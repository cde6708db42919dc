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
/// Colours are `#rrggbb`; sizes `WxH`; points `X,Y` (`expect-pixel`'s on the
/// screen: make the window fullscreen for a known place; `click`'s in the
/// window); times in seconds. `expect-pixel` takes an optional `tolerance N`
/// (0–255 per channel). `#` starts a comment; blank lines are ignored; quoted
/// text may hold `\n`, `\t`, `\"` and `\\`.
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
        /// input: kwin, mutter); passes when the window received the click.
        /// Points are the window's; a window not fullscreen is found on the screen.
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
        let parsed = try parseScript(text) { (command, commandColumn, reader: inout ScriptReader) throws(ParseError) -> Step in
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
                    throw ParseError(line: reader.line, column: column,
                                     message: "unknown misuse '\(name)' (known: \(ProtocolMisuse.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                step = .misuse(misuse)
            case "expect-protocol-error":
                let interface = try reader.word("an interface name")
                step = .expectProtocolError(interface: interface, code: UInt32(try reader.integer(in: 0...Int(Int32.max), "an error code")))
            default:
                throw ParseError(line: reader.line, column: commandColumn, message: "unknown command '\(command)'")
            }
            return step
        }
        // A protocol error ends the connection: nothing can follow the step that expects one.
        if let end = parsed.firstIndex(where: { if case .expectProtocolError = $0.step { true } else { false } }), end + 1 < parsed.count {
            let next = parsed[end + 1]
            throw ParseError(line: next.number, column: next.column,
                             message: "nothing can follow the protocol error expected on line \(parsed[end].number): it ends the connection")
        }
        lines = parsed.map { Line(number: $0.number, step: $0.step) }
    }
}
