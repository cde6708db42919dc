import PixmanRender
import Strata
import WaylandClient

/// A script for someone else's client, run by ``ClientRunner`` (and
/// `strata-probe exec --script FILE -- CLIENT …`): find its window, aim input
/// at it through the compositor's seat, check and capture the screen, close it
/// and check how the client exits. One step a line; `#` starts a comment.
///
/// ```
/// wait-window "Demo" timeout 20     # or: wait-window app-id org.example.Demo
/// click 40,20                       # window coordinates; add `screen` for the output's
/// type "hello"
/// key ctrl+a
/// expect-pixel 10,10 #3366cc tolerance 8
/// expect-region button.png at 20,10 tolerance 6
/// wait-still 0.5
/// capture after.png window
/// filmstrip 10 2 frames
/// close-window
/// expect-exit 0
/// ```
///
/// Points are in the window found by the last `wait-window` (its own geometry,
/// without shadows) unless `screen` follows them. Input steps pass once the
/// compositor took the events: what they did is checked with the pixel steps.
public struct ClientScript: Equatable, Sendable {
    /// Which window `wait-window` waits for.
    public enum WindowMatch: Equatable, Sendable {
        /// The first new window.
        case any
        case title(String)
        case appID(String)
    }

    /// A point in the found window, or on the screen.
    public struct Place: Equatable, Sendable {
        public var x: Int
        public var y: Int
        public var onScreen: Bool
        public init(x: Int, y: Int, onScreen: Bool = false) { (self.x, self.y, self.onScreen) = (x, y, onScreen) }
    }

    public enum Step: Equatable, Sendable {
        /// Waits, at most `timeout` seconds, for the client's window: listed by
        /// the compositor where it can tell, else what appeared on the screen.
        case waitWindow(WindowMatch, timeout: Double)
        case click(Place, button: PointerButton)
        /// Presses the left button at one place, moves in steps, releases at the other.
        case drag(from: Place, to: Place)
        /// Wheel steps at a place (positive: down).
        case scroll(Place, steps: Int)
        /// Types text (US keymap).
        case type(String)
        /// Presses a key with modifiers, as `ctrl+shift+Tab` (xkb key names).
        case key(modifiers: [String], name: String)
        case expectPixel(Place, color: Color, tolerance: Int)
        /// Compares the screen at a place with a PNG, per channel within `tolerance`.
        case expectRegion(path: String, at: Place, tolerance: Int)
        /// Waits until the screen has not changed for `seconds`, at most `timeout`.
        case waitStill(seconds: Double, timeout: Double)
        /// The screen, or only the found window, into a PNG.
        case capture(path: String, windowOnly: Bool)
        /// Captures the screen `fps` times a second for `seconds` into a directory.
        case filmstrip(fps: Double, seconds: Double, directory: String)
        /// Closes the found window as its close button would.
        case closeWindow
        /// Waits, at most `timeout`, for the client to exit with this status.
        case expectExit(code: Int32, timeout: Double)
        case sleep(seconds: Double)
    }

    public struct Line: Equatable, Sendable {
        public let number: Int
        public let step: Step
    }

    public let lines: [Line]

    /// Parses a script; the first malformed line is a ``Scenario/ParseError`` with its line and column.
    public init(parsing text: String) throws(Scenario.ParseError) {
        lines = try parseScript(text) { (command, column, r: inout ScriptReader) throws(Scenario.ParseError) -> Step in
            let step: Step
            switch command {
            case "wait-window":
                var match = WindowMatch.any
                if r.take("app-id") {
                    match = .appID(try r.word("an app id"))
                } else if let word = r.peek, word != "timeout" {
                    match = .title(try r.word("a title"))
                }
                step = .waitWindow(match, timeout: try Self.timeout(&r, default: 10))
            case "click":
                let (x, y) = try r.point()
                let button: PointerButton = r.take("right") ? .right : r.take("middle") ? .middle : .left
                step = .click(Place(x: x, y: y, onScreen: r.take("screen")), button: button)
            case "drag":
                let (x0, y0) = try r.point()
                let (x1, y1) = try r.point()
                let screen = r.take("screen")
                step = .drag(from: Place(x: x0, y: y0, onScreen: screen), to: Place(x: x1, y: y1, onScreen: screen))
            case "scroll":
                let (x, y) = try r.point()
                let steps = try r.integer(in: -1000...1000, "a number of wheel steps (-1000 to 1000)")
                step = .scroll(Place(x: x, y: y, onScreen: r.take("screen")), steps: steps)
            case "type": step = .type(try r.word("text in quotes"))
            case "key":
                let (combo, at) = try r.next("a key, as Return or ctrl+a")
                var parts = combo.split(separator: "+", omittingEmptySubsequences: false).map(String.init)
                let name = parts.removeLast()
                let known = ["ctrl", "shift", "alt", "super"]
                guard !name.isEmpty, parts.allSatisfy(known.contains) else {
                    throw Scenario.ParseError(line: r.line, column: at,
                                              message: "'\(combo)' is not a key: modifiers (\(known.joined(separator: ", "))) joined by + before a key name")
                }
                guard Keyboard.keysym(named: name) != 0 else {
                    throw Scenario.ParseError(line: r.line, column: at, message: "'\(name)' names no key (xkb names: Return, Tab, a, F4, …)")
                }
                step = .key(modifiers: parts, name: name)
            case "expect-pixel":
                let (x, y) = try r.point()
                let color = try r.color()
                let tolerance = r.take("tolerance") ? try r.integer(in: 0...255, "a tolerance from 0 to 255") : 0
                step = .expectPixel(Place(x: x, y: y, onScreen: r.take("screen")), color: color, tolerance: tolerance)
            case "expect-region":
                let path = try r.word("a PNG file")
                var (x, y) = (0, 0)
                if r.take("at") { (x, y) = try r.point() }
                let tolerance = r.take("tolerance") ? try r.integer(in: 0...255, "a tolerance from 0 to 255") : 0
                step = .expectRegion(path: path, at: Place(x: x, y: y, onScreen: r.take("screen")), tolerance: tolerance)
            case "wait-still":
                let seconds = try r.seconds()
                step = .waitStill(seconds: seconds, timeout: try Self.timeout(&r, default: max(10, seconds * 3)))
            case "capture":
                let path = try r.word("a file name")
                step = .capture(path: path, windowOnly: r.take("window"))
            case "filmstrip":
                let (fpsText, at) = try r.next("frames a second")
                guard let fps = Double(fpsText), fps > 0, fps <= 120 else {
                    throw Scenario.ParseError(line: r.line, column: at, message: "'\(fpsText)' is not a number of frames a second (up to 120)")
                }
                let seconds = try r.seconds()
                step = .filmstrip(fps: fps, seconds: seconds, directory: try r.word("a directory"))
            case "close-window": step = .closeWindow
            case "expect-exit":
                let code = try r.integer(in: 0...255, "an exit status from 0 to 255")
                step = .expectExit(code: Int32(code), timeout: try Self.timeout(&r, default: 10))
            case "sleep": step = .sleep(seconds: try r.seconds())
            default:
                throw Scenario.ParseError(line: r.line, column: column, message: "unknown command '\(command)'")
            }
            return step
        }.map { Line(number: $0.number, step: $0.step) }
    }

    private static func timeout(_ r: inout ScriptReader, default value: Double) throws(Scenario.ParseError) -> Double {
        r.take("timeout") ? try r.seconds() : value
    }
}
