import Glibc
import PixmanRender
import Strata
import WaylandClient

/// What running a ``Scenario`` found: each step, whether it passed, how long it
/// took, and why it failed.
public struct ScenarioReport: Sendable {
    public struct StepResult: Sendable {
        public let line: Int
        public let step: String
        public let passed: Bool
        public let seconds: Double
        public let message: String?
    }

    public let compositor: String
    public private(set) var steps: [StepResult] = []
    /// The client a ``ClientRunner`` ran, and how it ended (nil for a ``Scenario``).
    public internal(set) var client: ClientOutcome?
    public var passed: Bool { steps.allSatisfy(\.passed) }

    mutating func add(_ result: StepResult) { steps.append(result) }

    public var json: String {
        let items = steps.map { s in
            "{\"line\": \(s.line), \"step\": \(JSON.string(s.step)), \"passed\": \(s.passed), \"seconds\": \((s.seconds * 1000).rounded() / 1000)"
                + (s.message.map { ", \"message\": \(JSON.string($0))" } ?? "") + "}"
        }
        let clientJSON = client.map { c in
            ", \"client\": {\"command\": [\(c.command.map(JSON.string).joined(separator: ", "))], \"exit\": \(c.exitStatus.map(String.init) ?? "null"), "
                + "\"output\": \(JSON.string(c.output))}"
        } ?? ""
        return "{\"compositor\": \(JSON.string(compositor)), \"passed\": \(passed), \"steps\": [\(items.joined(separator: ", "))]\(clientJSON)}"
    }

    public var table: String {
        let clientLine = client.map { c in
            "client \(c.command.first ?? "")" + (c.exitStatus.map { " exited with status \($0)" } ?? " was still running and was stopped")
        }
        return (steps.map { s in
            "\(s.passed ? "pass" : "FAIL")  line \(s.line)  \(s.step)" + (s.message.map { "  — \($0)" } ?? "")
        } + [clientLine, passed ? "passed: \(steps.count) steps on \(compositor)" : "FAILED on \(compositor)"].compactMap { $0 }).joined(separator: "\n")
    }
}

/// Runs a ``Scenario`` against a compositor as a Strata app: one window, its
/// steps in order, each bounded by a timeout; the first failure ends the run
/// (later steps depend on it), reported with its reason.
@MainActor
public final class ScenarioRunner {
    public let compositor: any Compositor
    /// Where relative `capture` paths go.
    public let directory: String
    /// The longest any step may wait.
    public var stepTimeout = 10.0

    public init(compositor: any Compositor, directory: String = ".") {
        self.compositor = compositor
        self.directory = directory
    }

    private struct StepFailure: Error { let message: String }

    public func run(_ scenario: Scenario) -> ScenarioReport {
        var report = ScenarioReport(compositor: compositor.name)
        // A scenario runs on real time: a manual clock left installed (by a test)
        // would hold its animations and timers still.
        if MediaTime.clock is ManualMediaClock { MediaTime.clock = MonotonicMediaClock() }
        let app = Application.shared
        let display: Display
        do { display = try compositor.connect() } catch {
            report.add(.init(line: 0, step: "connect", passed: false, seconds: 0, message: "\(error)"))
            return report
        }
        app.use(display)
        defer { app.disconnect() }
        var window: Window?
        var card: View?
        var misuses: [AnyObject] = []
        defer { misuses.removeAll() }
        for line in scenario.lines {
            let start = MonotonicClock.now
            var failure: String?
            do {
                try perform(line.step, window: &window, card: &card, misuses: &misuses, display: display)
            } catch let f as StepFailure {
                failure = f.message
            } catch {
                failure = "\(error)"
            }
            report.add(.init(line: line.number, step: Self.describe(line.step), passed: failure == nil,
                             seconds: MonotonicClock.now - start, message: failure))
            if failure != nil { break }
        }
        window?.close()
        return report
    }

    /// Runs one step; what a misuse made is kept in `misuses` until the run ends.
    private func perform(_ step: Scenario.Step, window: inout Window?, card: inout View?, misuses: inout [AnyObject],
                         display: Display) throws {
        func needWindow() throws -> Window {
            guard let window else { throw StepFailure(message: "no window yet: open one with 'window'") }
            return window
        }
        switch step {
        case let .window(title, width, height, color):
            guard window == nil else { throw StepFailure(message: "a scenario has one window") }
            let w = Window(title: title, size: Size(width: Double(width), height: Double(height)))
            w.backgroundColor = color
            let c = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
            c.backgroundColor = Color(red: 1 - color.red, green: 1 - color.green, blue: 1 - color.blue)
            c.isHidden = true
            w.rootView.addSubview(c)
            w.show()
            (window, card) = (w, c)
            driver = nil
        case .waitConfigure:
            let w = try needWindow()
            try wait("the first configure and frame") { (w.toplevel?.isConfigured ?? false) && (w.frameNumber) > 0 }
        case let .resize(width, height):
            try needWindow().size = Size(width: Double(width), height: Double(height))
        case let .waitSize(width, height):
            let w = try needWindow()
            try wait("the size \(width)x\(height) (it is \(Int(w.size.width))x\(Int(w.size.height)))") {
                w.size == Size(width: Double(width), height: Double(height))
            }
        case let .fullscreen(on):
            let w = try needWindow()
            let frames = w.frameNumber, already = w.isFullscreen == on
            w.isFullscreen = on
            // The state, and a frame committed since (drawn for the new size): the
            // compositor can show it (mutter under load took seconds).
            try wait("fullscreen \(on ? "on" : "off")") { w.isFullscreen == on && (already || w.frameNumber > frames) }
            try display.connection.roundtrip()
        case let .maximize(on):
            try needWindow().isMaximized = on
            let w = try needWindow()
            try wait("maximize \(on ? "on" : "off")") { w.isMaximized == on }
        case let .animate(seconds):
            let w = try needWindow()
            guard let card else { return }
            card.isHidden = false
            card.frame.origin = .zero
            View.animate(duration: seconds, options: [.curveLinear]) {
                card.frame.origin = Point(x: max(0, w.size.width - 40), y: max(0, w.size.height - 40))
            }
        case let .waitFrames(n):
            let w = try needWindow()
            let target = (w.frameNumber) + UInt64(n)
            try wait("\(n) frames") { (w.frameNumber) >= target }
        case let .sleep(seconds):
            try turn(for: seconds)
        case let .expectIdle(seconds):
            let w = try needWindow()
            let before = w.frameNumber
            try turn(for: seconds)
            let after = w.frameNumber
            if after != before { throw StepFailure(message: "\(after - before) frames committed while idle") }
        case let .expectPixel(x, y, color, tolerance):
            // A compositor shows a frame some time after it is committed (mutter under
            // load: a few hundred milliseconds, once in CI over two seconds after
            // going fullscreen): captures are retried for up to 5 s, and at least three
            // times (a capture itself can take seconds when tests run side by side).
            let give = MonotonicClock.now + min(5, stepTimeout)
            var attempts = 0
            while true {
                attempts += 1
                try display.connection.roundtrip()
                let shot = try compositor.screenshot(timeout: stepTimeout)
                guard x < shot.width, y < shot.height else {
                    throw StepFailure(message: "\(x),\(y) is outside the \(shot.width)x\(shot.height) screen")
                }
                let p = shot.rgba8(x: x, y: y)
                let want = (Int((color.red * 255).rounded()), Int((color.green * 255).rounded()), Int((color.blue * 255).rounded()))
                let off = max(abs(Int(p.r) - want.0), abs(Int(p.g) - want.1), abs(Int(p.b) - want.2))
                if off <= tolerance { break }
                if MonotonicClock.now > give && attempts >= 3 {
                    throw StepFailure(message: "pixel \(x),\(y) is #\(Self.hex(p.r))\(Self.hex(p.g))\(Self.hex(p.b)), \(off) away from the expected colour (tolerance \(tolerance)), after \(attempts) captures of the \(shot.width)x\(shot.height) screen" + (window.map { Self.ownPixel(of: $0, at: x, y) } ?? ""))
                }
                // The window commits all of itself again, so a capture stream that
                // missed a frame gets another (once in CI, mutter's screen stayed black
                // for 5 s after the window went fullscreen and committed).
                window?.redrawEverything()
                try turn(for: 0.1)
            }
        case let .capture(path):
            let full = path.hasPrefix("/") ? path : directory + "/" + path
            try compositor.screenshot(timeout: stepTimeout).writePNG(to: full)
        case let .click(x, y):
            try deliver(to: try needWindow()) { $0.click(at: Point(x: Double(x), y: Double(y))) }
        case let .type(text):
            try deliver(to: try needWindow()) { $0.type(text) }
        case .close:
            try needWindow().close()
            window = nil
        case let .misuse(m):
            misuses += try m.perform(on: display)
        case let .expectProtocolError(interface, code):
            try expectProtocolError(interface: interface, code: code, on: display)
        }
    }

    private var driver: InputDriver?

    /// Sends input through the window's driver of injected input (made once per
    /// window); fails with what the compositor did not deliver.
    private func deliver(to window: Window, _ send: (InputDriver) -> Void) throws {
        // A fullscreen window is at the output's origin; any other is looked for on the screen.
        let d = try driver ?? (window.isFullscreen ? InputDriver(window: window, injecting: try compositor.injectedInput())
                                                   : InputDriver(window: window, on: compositor))
        driver = d
        let before = d.errors.count
        send(d)
        guard let first = d.errors.dropFirst(before).first else { return }
        // What the client and the compositor knew, for a failure seen only under load.
        let seats = Application.shared.display?.seats.values.map { seat in
            [(WlSeat.Capability.pointer, "pointer"), (.keyboard, "keyboard"), (.touch, "touch")]
                .filter { seat.capabilities.contains($0.0) }.map(\.1).joined(separator: "+")
        } ?? []
        let log = compositor.runtimeDirectory + "/\(compositor.name).log"
        throw StepFailure(message: first + "; the client's seats: [\(seats.joined(separator: ", "))]"
                          + (access(log, R_OK) == 0 ? "; the end of \(compositor.name)'s log:\n" + tail(of: log, lines: 6) : ""))
    }

    /// Turns the loop until the connection fails; passes when it failed with exactly this error.
    private func expectProtocolError(interface: String, code: UInt32, on display: Display) throws {
        // A compositor answers requests in order: the error, if any, comes before
        // the reply to the next round trip.
        var failure: WaylandError?
        for _ in 0..<3 where failure == nil {
            do {
                try display.connection.roundtrip(timeout: stepTimeout)
            } catch {
                failure = display.connection.error ?? error
            }
        }
        guard let failure else {
            throw StepFailure(message: "no protocol error: the compositor accepted the requests")
        }
        guard case let .protocolError(i, _, c, message) = failure else {
            throw StepFailure(message: "the connection failed otherwise: \(failure)")
        }
        if i != interface || c != code {
            throw StepFailure(message: "the compositor raised \(i) error \(c) instead\(message.isEmpty ? "" : ": \(message)")")
        }
    }

    /// What the client itself last showed, for a pixel step's failure: whether a
    /// wrong pixel was the client's or the compositor's.
    private static func ownPixel(of w: Window, at x: Int, _ y: Int) -> String {
        var text = "; the window is \(Int(w.size.width))x\(Int(w.size.height))\(w.isFullscreen ? " fullscreen" : ""), \(w.frameNumber) frames committed"
        guard let last = w.lastCommittedFrame() else { return text }
        text += ", the last \(last.width)x\(last.height)"
        if w.isFullscreen, x < last.width, y < last.height {
            let q = last.rgba8(x: x, y: y)
            text += " with #\(hex(q.r))\(hex(q.g))\(hex(q.b)) there"
        }
        return text
    }

    private static func hex(_ v: UInt8) -> String {
        let s = String(v, radix: 16)
        return s.count == 1 ? "0" + s : s
    }

    /// Turns the app's loop until `condition` holds, at most ``stepTimeout``.
    private func wait(_ what: String, _ condition: () -> Bool) throws {
        guard let loop = Application.shared.loop else { throw StepFailure(message: "no event loop") }
        guard try loop.turn(until: condition, timeout: stepTimeout) else {
            throw StepFailure(message: "timed out after \(stepTimeout) s waiting for \(what)")
        }
    }

    private func turn(for seconds: Double) throws {
        guard let loop = Application.shared.loop else { throw StepFailure(message: "no event loop") }
        try loop.turn(for: seconds)
    }

    static func describe(_ step: Scenario.Step) -> String {
        switch step {
        case let .window(title, w, h, _): "window \"\(title)\" \(w)x\(h)"
        case .waitConfigure: "wait-configure"
        case let .resize(w, h): "resize \(w)x\(h)"
        case let .waitSize(w, h): "wait-size \(w)x\(h)"
        case let .fullscreen(on): "fullscreen \(on ? "on" : "off")"
        case let .maximize(on): "maximize \(on ? "on" : "off")"
        case let .animate(s): "animate \(s)"
        case let .waitFrames(n): "wait-frames \(n)"
        case let .sleep(s): "sleep \(s)"
        case let .expectIdle(s): "expect-idle \(s)"
        case let .expectPixel(x, y, _, t): "expect-pixel \(x),\(y)" + (t > 0 ? " tolerance \(t)" : "")
        case let .capture(path): "capture \(path)"
        case let .click(x, y): "click \(x),\(y)"
        case let .type(text): "type \"\(text)\""
        case .close: "close"
        case let .misuse(m): "misuse \(m.rawValue)"
        case let .expectProtocolError(i, c): "expect-protocol-error \(i) \(c)"
        }
    }
}
