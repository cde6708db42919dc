import Glibc
import PixmanRender
import Strata
import WaylandClient

/// How the client of a ``ClientRunner`` run ended.
public struct ClientOutcome: Sendable {
    public let command: [String]
    /// Its exit status (128 + N when signal N ended it); nil when it was still
    /// running after the script and was stopped.
    public let exitStatus: Int32?
    /// The end of what it printed (standard output and error).
    public let output: String
}

/// Runs someone else's client — any program — against a compositor and a
/// ``ClientScript`` against its window, at the level of the screen: windows
/// found through what the compositor tells (``Compositor/windows()``) or on
/// the screen, input through its seat (injected input on kwin and mutter, a
/// virtual keyboard where the compositor offers one), pixels from captures.
/// The first failing step ends the run; the client is stopped at the end if
/// it still runs, and everything it printed is kept in the report.
@MainActor
public final class ClientRunner {
    public let compositor: any Compositor
    /// Where relative paths of `capture`, `expect-region` and `filmstrip` are.
    public let directory: String
    /// How long pixel checks retry and a closed window may take to go.
    public var stepTimeout = 10.0
    /// Where the client starts: this process's current directory unless set.
    public var clientDirectory: String? = nil

    private var client: Subprocess?
    private var clientLog = ""
    private var exitStatus: Int32?
    /// The window the last `wait-window` found.
    private var window: ScreenWindow?
    /// The screen before the client started (for finding its window there).
    private var baseline: RenderedImage?
    /// Windows the compositor listed before the client started.
    private var listedBefore: Set<String> = []
    /// A compositor that does not say where windows are may still name them
    /// (wlroots' foreign toplevel list): windows found on the screen are matched
    /// by title and app id there, and closed through it.
    private var foreign: ForeignToplevels?
    private var foreignBefore: Set<Int> = []
    /// The found window's number in that list.
    private var foreignID: Int?
    private var typist: Typist?

    public init(compositor: any Compositor, directory: String = ".") {
        self.compositor = compositor
        self.directory = directory
    }

    private struct StepFailure: Error { let message: String }

    /// Starts `arguments` as a client of the compositor, runs the script, and
    /// stops the client if it still runs.
    public func run(_ script: ClientScript, client arguments: [String], environment: [String: String] = [:]) -> ScenarioReport {
        var report = ScenarioReport(compositor: compositor.name)
        let start = MonotonicClock.now
        (client, clientLog, exitStatus, window, baseline, listedBefore, typist) = (nil, "", nil, nil, nil, [], nil)
        (foreign, foreignBefore, foreignID) = (nil, [], nil)
        do {
            if let listed = try compositor.windows() {
                listedBefore = Set(listed.compactMap(\.id))
            } else {
                foreign = ForeignToplevels(compositor: compositor)
                foreignBefore = Set(try foreign?.windows().map(\.id) ?? [])
                baseline = try compositor.screenshot(timeout: stepTimeout)
            }
            (client, clientLog) = try compositor.startClient(arguments, environment: environment, inDirectory: clientDirectory ?? currentDirectory())
        } catch {
            report.add(.init(line: 0, step: "start " + arguments.joined(separator: " "), passed: false,
                             seconds: MonotonicClock.now - start, message: "\(error)"))
            return report
        }
        for line in script.lines {
            let start = MonotonicClock.now
            var failure: String?
            var note: String?
            do {
                note = try perform(line.step)
            } catch let f as StepFailure {
                failure = f.message
            } catch {
                failure = "\(error)"
            }
            report.add(.init(line: line.number, step: Self.describe(line.step), passed: failure == nil,
                             seconds: MonotonicClock.now - start, message: failure ?? note))
            if failure != nil { break }
        }
        if clientStatus() == nil { client?.terminate() }
        report.client = ClientOutcome(command: arguments, exitStatus: exitStatus, output: tail(of: clientLog, lines: 40))
        return report
    }

    /// The client's exit status once it has exited (kept: a process is reaped once).
    private func clientStatus() -> Int32? {
        if exitStatus == nil, let client, let status = client.wait(timeout: 0) { exitStatus = status }
        return exitStatus
    }

    private var clientOutputEnd: String {
        let text = tail(of: clientLog, lines: 6)
        return text.isEmpty ? "it printed nothing" : "its output ends:\n" + text
    }

    /// Runs one step; returns a note for a step that passed in a way worth saying.
    private func perform(_ step: ClientScript.Step) throws -> String? {
        switch step {
        case let .waitWindow(match, timeout):
            return try waitWindow(match, timeout: timeout)
        case let .click(place, button):
            let input = try pointer()
            try press(button, at: try screenPoint(place), with: input)
            usleep(40_000)
            try input.button(button.code, pressed: false)
        case let .drag(from, to):
            let input = try pointer()
            let a = try screenPoint(from), b = try screenPoint(to)
            try press(.left, at: a, with: input)
            for i in 1...10 {
                usleep(16_000)
                let t = Double(i) / 10
                try input.movePointer(toX: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
            }
            try input.button(PointerButton.left.code, pressed: false)
        case let .scroll(place, steps):
            let input = try pointer()
            let p = try screenPoint(place)
            try input.movePointer(toX: p.x, y: p.y)
            try input.wheel(steps: steps, horizontal: false)
        case let .type(text):
            try typing().type(text)
        case let .key(modifiers, name):
            try typing().key(name, modifiers: modifiers)
        case let .expectPixel(place, color, tolerance):
            let p = try screenPoint(place)
            let (x, y) = (Int(p.x), Int(p.y))
            let want = (Int((color.red * 255).rounded()), Int((color.green * 255).rounded()), Int((color.blue * 255).rounded()))
            try retryingCaptures { shot in
                guard x >= 0, y >= 0, x < shot.width, y < shot.height else { return "\(x),\(y) is outside the \(shot.width)x\(shot.height) screen" }
                let got = shot.rgba8(x: x, y: y)
                let off = max(abs(Int(got.r) - want.0), abs(Int(got.g) - want.1), abs(Int(got.b) - want.2))
                return off <= tolerance ? nil
                    : "the screen's pixel \(x),\(y) is \(Self.hex(got.r, got.g, got.b)), \(off) away from \(Self.hex(UInt8(want.0), UInt8(want.1), UInt8(want.2))) (tolerance \(tolerance))"
            }
        case let .expectRegion(path, place, tolerance):
            let file = resolve(path)
            let expected: RenderedImage
            do { expected = try RenderedImage(contentsOfFile: file) } catch { throw StepFailure(message: "cannot read \(file): \(error)") }
            let p = try screenPoint(place)
            let (x, y) = (Int(p.x), Int(p.y))
            let comparison = ImageComparison(tolerance: tolerance)
            var last: RenderedImage?
            do {
                try retryingCaptures { shot in
                    guard x >= 0, y >= 0, x + expected.width <= shot.width, y + expected.height <= shot.height else {
                        return "the \(expected.width)x\(expected.height) region at \(x),\(y) leaves the \(shot.width)x\(shot.height) screen"
                    }
                    let part = shot.cropped(x: x, y: y, width: expected.width, height: expected.height)
                    last = part
                    let outcome = comparison.compare(part, with: expected)
                    return outcome.passed ? nil : "the region at \(x),\(y): \(outcome)"
                }
            } catch let failure as StepFailure {
                guard let last else { throw failure }
                do { try comparison.check(last, againstReference: file, artifactsDirectory: directory) } catch {
                    throw StepFailure(message: "\(failure.message) — \(error)")
                }
                throw failure
            }
        case let .waitStill(seconds, timeout):
            let deadline = now() + timeout
            var last = try capture()
            var since = now()
            while now() - since < seconds {
                guard now() < deadline else {
                    throw StepFailure(message: "the screen kept changing for \(timeout) s (it last changed \(Self.seconds(now() - since)) s ago)")
                }
                usleep(useconds_t(min(0.1, seconds / 4) * 1e6))
                let shot = try capture()
                if shot != last { (last, since) = (shot, now()) }
            }
        case let .capture(path, windowOnly):
            var shot = try capture()
            if windowOnly { shot = try crop(shot, to: try needWindow()) }
            do { try shot.writePNG(to: resolve(path)) } catch { throw StepFailure(message: "cannot write \(resolve(path)): \(error)") }
        case let .filmstrip(fps, seconds, folder):
            let dir = resolve(folder)
            mkdir(dir, 0o755)
            guard access(dir, W_OK) == 0 else { throw StepFailure(message: "cannot make or write into \(dir)") }
            let start = now()
            var frames = 0
            while now() - start < seconds {
                let due = start + Double(frames) / fps
                if due > now() { usleep(useconds_t((due - now()) * 1e6)) }
                let shot = try capture()
                frames += 1
                let name = String(frames)
                do { try shot.writePNG(to: dir + "/frame-" + String(repeating: "0", count: max(0, 4 - name.count)) + name + ".png") } catch {
                    throw StepFailure(message: "cannot write into \(dir): \(error)")
                }
            }
            let rate = Double(frames) / max(now() - start, 1e-9)
            return "\(frames) frames in \(dir) (\(Self.seconds(rate)) a second\(rate < fps * 0.8 ? ": captures take longer than a frame's time here" : ""))"
        case .closeWindow:
            return try closeWindow()
        case let .expectExit(code, timeout):
            let deadline = now() + timeout
            while clientStatus() == nil {
                guard now() < deadline else { throw StepFailure(message: "the client still runs after \(timeout) s") }
                usleep(20_000)
            }
            if exitStatus != code { throw StepFailure(message: "the client exited with status \(exitStatus!), not \(code); \(clientOutputEnd)") }
        case let .sleep(seconds):
            usleep(useconds_t(seconds * 1e6))
        }
        return nil
    }

    // MARK: Windows

    private func waitWindow(_ match: ClientScript.WindowMatch, timeout: Double) throws -> String? {
        let deadline = now() + timeout
        var shown = ""
        var previous: ScreenWindow?
        while true {
            if let status = clientStatus() {
                throw StepFailure(message: "the client exited with status \(status) before its window appeared; \(clientOutputEnd)")
            }
            if let listed = try compositor.windows() {
                let matching = listed.filter { w in
                    guard w.width > 0, w.height > 0 else { return false }
                    switch match {
                    case .any: return !listedBefore.contains(w.id ?? "")
                    case let .title(t): return w.title == t
                    case let .appID(a): return w.appID == a
                    }
                }
                if let found = matching.first {
                    window = found
                    return "\(found)" + (matching.count > 1 ? "; \(matching.count - 1) more matched" : "")
                }
                shown = listed.isEmpty ? "no windows" : listed.map(\.description).joined(separator: "; ")
            } else if let named = try foreignMatch(match, shown: &shown) {
                // Named by the compositor's list, found on the screen (as below).
                let found = try windowOnScreen()
                if var w = found, w == previous {
                    (w.title, w.appID, w.source) = (named.title, named.appID, "the screen, named by \(compositor.name)'s foreign toplevel list")
                    (window, foreignID) = (w, named.id)
                    return "\(w)"
                }
                previous = found
                shown = "\(Self.describe(named)) listed, " + (found.map { "changing at \($0.x),\($0.y)" } ?? "but nothing new on the screen")
            } else if foreign == nil {
                // Found on the screen: what differs from before the client started,
                // the same in two captures in a row (a window still opening moves).
                let found = try windowOnScreen()
                if let found, found == previous {
                    window = found
                    return "\(found)" + (match == .any ? "" : "; \(compositor.name) does not list windows, so the title or app id was not checked")
                }
                previous = found
                shown = found.map { "something changing at \($0.x),\($0.y)" } ?? "nothing new on the screen"
            }
            guard now() < deadline else {
                throw StepFailure(message: "no window \(Self.describe(match)) within \(Self.seconds(timeout)) s; \(compositor.name) shows \(shown)")
            }
            usleep(100_000)
        }
    }

    /// The first window of the compositor's foreign toplevel list that `match`
    /// names (for any window: one listed since the client started); nil when
    /// none does, or when there is no such list (then `shown` is left alone).
    private func foreignMatch(_ match: ClientScript.WindowMatch, shown: inout String) throws -> ForeignToplevels.Toplevel? {
        guard let foreign else { return nil }
        let listed = try foreign.windows()
        let found = listed.first { t in
            switch match {
            case .any: !foreignBefore.contains(t.id)
            case let .title(title): t.title == title
            case let .appID(id): t.appID == id
            }
        }
        if found == nil { shown = listed.isEmpty ? "no windows in its list" : listed.map(Self.describe).joined(separator: "; ") }
        return found
    }

    static func describe(_ t: ForeignToplevels.Toplevel) -> String {
        [t.title.map { "\"\($0)\"" }, t.appID.map { "app id \($0)" }].compactMap { $0 }.joined(separator: ", ")
    }

    /// The box of what differs from the screen before the client started, by
    /// more than a shadow's darkening (48 per channel); nil when nothing does.
    private func windowOnScreen() throws -> ScreenWindow? {
        let shot = try capture()
        guard let baseline, baseline.width == shot.width, baseline.height == shot.height else {
            return ScreenWindow(title: nil, appID: nil, x: 0, y: 0, width: shot.width, height: shot.height, source: "the screen")
        }
        var (x0, y0, x1, y1) = (Int.max, Int.max, -1, -1)
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let a = shot.rgba8(x: x, y: y), b = baseline.rgba8(x: x, y: y)
                guard max(abs(Int(a.r) - Int(b.r)), abs(Int(a.g) - Int(b.g)), abs(Int(a.b) - Int(b.b))) > 48 else { continue }
                (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
            }
        }
        guard x1 >= 0 else { return nil }
        if compositor.fillsOutputWithEveryWindow {
            return ScreenWindow(title: nil, appID: nil, x: 0, y: 0, width: shot.width, height: shot.height, source: "the screen: \(compositor.name) fills it with every window")
        }
        return ScreenWindow(title: nil, appID: nil, x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, source: "the screen")
    }

    private func needWindow() throws -> ScreenWindow {
        guard let window else { throw StepFailure(message: "no window yet: find it with 'wait-window'") }
        return window
    }

    private func closeWindow() throws -> String? {
        let w = try needWindow()
        let deadline = now() + stepTimeout
        if try compositor.closeWindow(w) {
            while clientStatus() == nil, try compositor.windows()?.contains(where: { $0.id == w.id }) ?? false {
                guard now() < deadline else { throw StepFailure(message: "the window is still there \(stepTimeout) s after \(compositor.name) was asked to close it") }
                usleep(50_000)
            }
            awaitExitAfterClose()
            return nil
        }
        if let foreign, let id = foreignID, try foreign.close(id) {
            while clientStatus() == nil, try foreign.isListed(id) {
                guard now() < deadline else { throw StepFailure(message: "the window is still listed \(stepTimeout) s after \(compositor.name) was asked to close it") }
                usleep(50_000)
            }
            awaitExitAfterClose()
            return "closed through \(compositor.name)'s foreign toplevel list"
        }
        if let keys = compositor.closeWindowKeys, let input = try? compositor.injectedInput() {
            // The compositor's own binding for closing the focused window.
            try Typist.injected(input).key(keys.key, modifiers: keys.modifiers)
            let spelled = (keys.modifiers + [keys.key]).joined(separator: "+")
            while clientStatus() == nil, try windowOnScreen() == w {
                guard now() < deadline else { throw StepFailure(message: "the window is still there \(stepTimeout) s after \(spelled)") }
                usleep(100_000)
            }
            awaitExitAfterClose()
            return "closed with \(spelled), \(compositor.name)'s binding (it offers no other way)"
        }
        exitStatus = client?.terminate()
        (window, foreignID) = (nil, nil)
        return "\(compositor.name) offers no way to close a window from outside: the client was sent SIGTERM"
    }

    /// An app whose last window closed usually quits: given two seconds, so
    /// its exit status is its own (a later `expect-exit` may wait longer).
    private func awaitExitAfterClose() {
        (window, foreignID) = (nil, nil)
        let deadline = now() + 2
        while clientStatus() == nil, now() < deadline { usleep(20_000) }
    }

    // MARK: Input

    private func pointer() throws -> InjectedInput {
        do { return try compositor.injectedInput() } catch { throw StepFailure(message: "\(error)") }
    }

    /// How keys reach clients here: `wtype` through the virtual-keyboard protocol
    /// where the compositor offers it (wtype makes a keymap for any text; an
    /// injected keyboard has the US keys), else the injected keyboard.
    private func typing() throws -> Typist {
        if let typist { return typist }
        let made: Typist
        if CompositorCapabilities(try compositor.connect()).offers("zwp_virtual_keyboard_manager_v1") {
            made = .virtualKeyboard(compositor, timeout: stepTimeout)
        } else if let input = try? compositor.injectedInput() {
            made = .injected(input)
        } else {
            throw StepFailure(message: "\(compositor.name) offers no keyboard that reaches clients (no injected input, no virtual-keyboard protocol)")
        }
        typist = made
        return made
    }

    /// Moves the pointer to `point` and presses `button` as a hand does: the
    /// pointer arrives, and 80 ms later the button goes down. The Qt demo on a
    /// loaded kwin now and then missed a press that came in the same instant.
    private func press(_ button: PointerButton, at point: (x: Double, y: Double), with input: InjectedInput) throws {
        try input.movePointer(toX: point.x, y: point.y)
        usleep(80_000)
        try input.button(button.code, pressed: true)
    }

    private func screenPoint(_ place: ClientScript.Place) throws -> (x: Double, y: Double) {
        if place.onScreen { return (Double(place.x), Double(place.y)) }
        let w = try needWindow()
        return (Double(w.x + place.x), Double(w.y + place.y))
    }

    // MARK: Captures

    private func capture() throws -> RenderedImage { try compositor.screenshot(timeout: stepTimeout) }

    /// Captures until `check` finds nothing wrong, for up to 5 s and at least
    /// three times (a compositor shows a frame a little after it is committed).
    private func retryingCaptures(_ check: (RenderedImage) -> String?) throws {
        let give = now() + min(5, stepTimeout)
        var attempts = 0
        while true {
            attempts += 1
            guard let wrong = check(try capture()) else { return }
            if now() > give && attempts >= 3 { throw StepFailure(message: wrong + " (after \(attempts) captures)") }
            usleep(100_000)
        }
    }

    private func crop(_ shot: RenderedImage, to w: ScreenWindow) throws -> RenderedImage {
        let x0 = max(0, w.x), y0 = max(0, w.y)
        let x1 = min(shot.width, w.x + w.width), y1 = min(shot.height, w.y + w.height)
        guard x1 > x0, y1 > y0 else { throw StepFailure(message: "the window \(w) is off the \(shot.width)x\(shot.height) screen") }
        return shot.cropped(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    private func resolve(_ path: String) -> String { path.hasPrefix("/") ? path : directory + "/" + path }

    // MARK: Describing

    static func describe(_ match: ClientScript.WindowMatch) -> String {
        switch match {
        case .any: "(any new one)"
        case let .title(t): "\"\(t)\""
        case let .appID(a): "with app id \(a)"
        }
    }

    static func describe(_ step: ClientScript.Step) -> String {
        func at(_ p: ClientScript.Place) -> String { "\(p.x),\(p.y)" + (p.onScreen ? " screen" : "") }
        switch step {
        case let .waitWindow(m, t): return "wait-window " + (m == .any ? "" : describe(m) + " ") + "timeout \(seconds(t))"
        case let .click(p, b): return "click \(at(p))" + (b == .left ? "" : b == .right ? " right" : " middle")
        case let .drag(a, b): return "drag \(a.x),\(a.y) \(at(b))"
        case let .scroll(p, n): return "scroll \(at(p)) \(n)"
        case let .type(text): return "type " + quoted(text)
        case let .key(mods, name): return "key " + (mods + [name]).joined(separator: "+")
        case let .expectPixel(p, c, t):
            let v = [c.red, c.green, c.blue].map { UInt8(($0 * 255).rounded()) }
            return "expect-pixel \(at(p)) \(hex(v[0], v[1], v[2]))" + (t > 0 ? " tolerance \(t)" : "")
        case let .expectRegion(path, p, t): return "expect-region \(path) at \(at(p))" + (t > 0 ? " tolerance \(t)" : "")
        case let .waitStill(s, t): return "wait-still \(seconds(s)) timeout \(seconds(t))"
        case let .capture(path, w): return "capture \(path)" + (w ? " window" : "")
        case let .filmstrip(fps, s, dir): return "filmstrip \(seconds(fps)) \(seconds(s)) \(dir)"
        case .closeWindow: return "close-window"
        case let .expectExit(code, t): return "expect-exit \(code) timeout \(seconds(t))"
        case let .sleep(s): return "sleep \(seconds(s))"
        }
    }

    /// Text in quotes as a script writes it (with its escapes).
    nonisolated static func quoted(_ text: String) -> String {
        "\"" + text.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"").replacing("\n", with: "\\n").replacing("\t", with: "\\t") + "\""
    }

    nonisolated static func hex(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> String {
        "#" + [r, g, b].map { v in let s = String(v, radix: 16); return s.count == 1 ? "0" + s : s }.joined()
    }

    nonisolated static func seconds(_ s: Double) -> String {
        let r = (s * 100).rounded() / 100
        return r == r.rounded() ? String(Int(r)) : String(r)
    }
}

/// This process's current directory.
public func currentDirectory() -> String {
    guard let cwd = getcwd(nil, 0) else { return "." }
    defer { free(cwd) }
    return String(cString: cwd)
}
