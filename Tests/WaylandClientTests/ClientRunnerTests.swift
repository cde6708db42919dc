import Glibc
import PixmanRender
import StrataTesting
import Testing
import LayerKitTesting

/// The language of scripts for any client: parsing, and malformed lines with their line and column.
@Suite("Client scripts", .isolatedLayerContext)
struct ClientScriptParserTests {
    @Test("every step parses, with window or screen coordinates, options and escapes in quotes")
    func parses() throws {
        let s = try ClientScript(parsing: """
            wait-window
            wait-window "Two words" timeout 20
            wait-window app-id org.example.App
            click 10,20
            click 10,20 right screen
            drag 1,2 30,40 screen
            scroll 5,6 -3
            type "a \\"quoted\\" line\\n\\ttab \\\\ \\q"
            key ctrl+shift+Tab
            key Return
            expect-pixel 1,2 #336699 tolerance 4 screen
            expect-region ref.png at 3,4 tolerance 2
            expect-region ref.png
            wait-still 0.5
            capture shot.png window
            filmstrip 10 2 frames
            close-window
            expect-exit 3 timeout 5
            sleep 0.25
            """)
        typealias P = ClientScript.Place
        #expect(s.lines.map(\.step) == [
            .waitWindow(.any, timeout: 10), .waitWindow(.title("Two words"), timeout: 20), .waitWindow(.appID("org.example.App"), timeout: 10),
            .click(P(x: 10, y: 20), button: .left), .click(P(x: 10, y: 20, onScreen: true), button: .right),
            .drag(from: P(x: 1, y: 2, onScreen: true), to: P(x: 30, y: 40, onScreen: true)), .scroll(P(x: 5, y: 6), steps: -3),
            .type("a \"quoted\" line\n\ttab \\ \\q"), .key(modifiers: ["ctrl", "shift"], name: "Tab"), .key(modifiers: [], name: "Return"),
            .expectPixel(P(x: 1, y: 2, onScreen: true), color: Color(rgba8: 0x33, 0x66, 0x99), tolerance: 4),
            .expectRegion(path: "ref.png", at: P(x: 3, y: 4), tolerance: 2), .expectRegion(path: "ref.png", at: P(x: 0, y: 0), tolerance: 0),
            .waitStill(seconds: 0.5, timeout: 10), .capture(path: "shot.png", windowOnly: true),
            .filmstrip(fps: 10, seconds: 2, directory: "frames"), .closeWindow, .expectExit(code: 3, timeout: 5), .sleep(seconds: 0.25),
        ])
        #expect(s.lines[1].number == 2)
    }

    @Test("malformed lines name the line and column of the first mistake")
    func malformed() {
        func error(_ text: String) -> String {
            do { _ = try ClientScript(parsing: text); return "parsed" } catch { return "\(error)" }
        }
        #expect(error("wait-window\nwindow w 10x10") == "line 2, column 1: unknown command 'window'")
        #expect(error("wait-window app-id") == "line 1, column 20: expected an app id")
        #expect(error("wait-window \"x\" timeout soon") == "line 1, column 25: 'soon' is not a time in seconds (0 to 3600)")
        #expect(error("click 1,2 left") == "line 1, column 11: unexpected 'left'")
        #expect(error("key hyper+a") == "line 1, column 5: 'hyper+a' is not a key: modifiers (ctrl, shift, alt, super) joined by + before a key name")
        #expect(error("key ctrl+") == "line 1, column 5: 'ctrl+' is not a key: modifiers (ctrl, shift, alt, super) joined by + before a key name")
        #expect(error("key Retrun") == "line 1, column 5: 'Retrun' names no key (xkb names: Return, Tab, a, F4, …)")
        #expect(error("scroll 1,1 5000") == "line 1, column 12: '5000' is not a number of wheel steps (-1000 to 1000)")
        #expect(error("filmstrip 0 1 dir") == "line 1, column 11: '0' is not a number of frames a second (up to 120)")
        #expect(error("filmstrip 10 1") == "line 1, column 16: expected a directory")
        #expect(error("expect-exit 300") == "line 1, column 13: '300' is not an exit status from 0 to 255")
        #expect(error("expect-region a.png at 1") == "line 1, column 24: '1' is not a point X,Y")
        #expect(error("type \"open") == "line 1, column 6: unterminated quote")
        #expect(error("# only a comment\n\n") == "parsed")
    }
}

extension Integration {
/// `ClientRunner` and `strata-probe exec` with clients nobody here wrote: the GTK 4
/// demo (Examples/ExecTesting), foot, and programs that misbehave.
@MainActor
@Suite("Any client on compositors", .serialized, .mainLayerContext)
struct ClientRunnerTests {
    static let examples = "Examples/ExecTesting"
    static let demo = examples + "/gtk-demo.py"

    /// A private directory holding `files` copied from the examples.
    func scratch(_ files: [String] = []) throws -> String {
        var template = Array("/tmp/strata-exec-XXXXXX".utf8CString)
        let dir = try #require(mkdtemp(&template).map { String(cString: $0) })
        chmod(dir, 0o777)   // sway's clients run as another user
        for f in files {
            let bytes = try PNGCodec.readFile(Self.examples + "/" + f)
            try PNGCodec.writeFile(bytes, to: dir + "/" + f)
        }
        return dir
    }

    func script(_ name: String) throws -> ClientScript {
        try ClientScript(parsing: String(decoding: try PNGCodec.readFile(Self.examples + "/" + name), as: UTF8.self))
    }

    /// The two demos of Examples/ExecTesting: the same app in GTK 4 and in Qt 5.
    nonisolated static let toolkitDemos: [Demo] = [Demo(script: "gtk-demo", title: "Exec demo", appID: "org.strata.ExecDemo"),
                                                   Demo(script: "qt-demo", title: "Qt exec demo", appID: "org.strata.QtExecDemo")]
    struct Demo: Sendable, CustomTestStringConvertible {
        let script: String, title: String, appID: String
        var testDescription: String { script }
    }

    @Test("a GTK 4 app and a Qt 5 app clicked and typed into on kwin, mutter and sway: the colour its state gives, seen in captures and compared with a reference; closed, it exits 0",
          arguments: toolkitDemos)
    func toolkitAppsOnThreeCompositors(_ demo: Demo) throws {
        for start in [{ try HeadlessKWin() }, { try HeadlessMutter() }, { try HeadlessSway() }] as [() throws -> any Compositor] {
            let compositor = try start()
            defer { compositor.stop() }
            let dir = try scratch(["green-patch.png"])
            let report = ClientRunner(compositor: compositor, directory: dir).run(try script(demo.script + ".script"),
                                                                                  client: [Self.examples + "/" + demo.script + ".py"])
            #expect(report.passed, "\(compositor.name):\n\(report.table)\n\(report.client?.output ?? "")")
            #expect(report.client?.exitStatus == 0)
            #expect(report.client?.output.contains("painted blue") == true && report.client?.output.contains("painted green") == true)
            let shot = try RenderedImage(contentsOfFile: dir + "/\(demo.script).png")
            #expect(shot.rgba8(x: 300, y: 200) == (0x33, 0xcc, 0x66, 255), "\(compositor.name)")
            let found = report.steps[0].message ?? ""
            switch compositor.name {
            case "kwin":
                #expect(found.hasPrefix("\"\(demo.title)\", app id \(demo.appID), 400x300 at"), "\(found)")
                #expect(shot.width == 400 && shot.height == 300, "the window's capture is \(shot.width)x\(shot.height)")
            case "mutter":
                #expect(found.contains("(from the screen); mutter does not list windows"), "\(found)")
                #expect(report.steps.last { $0.step == "close-window" }?.message?.contains("alt+F4") == true)
                // Qt draws its own title bar and edges here: a few pixels wider and taller.
                #expect(shot.width >= 400 && shot.width <= 410 && shot.height >= 300, "the window's capture is \(shot.width)x\(shot.height)")
            default:
                // sway tiles it over the whole output.
                #expect(found == "\"\(demo.title)\", app id \(demo.appID), 640x480 at 0,0 (from sway's IPC)", "\(found)")
                #expect(shot.width == 640 && shot.height == 480, "the window's capture is \(shot.width)x\(shot.height)")
            }
            removeDirectory(dir)
        }
    }

    @Test("foot on sway: a command typed through the virtual keyboard paints the terminal; typing exit ends it with 0")
    func footOnSway() throws {
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let dir = try scratch()
        let report = ClientRunner(compositor: sway, directory: dir).run(try script("foot.script"), client: ["foot", "sh"])
        #expect(report.passed, "\(report.table)\n\(report.client?.output ?? "")")
        #expect(report.client?.exitStatus == 0)
        #expect(report.steps[0].message?.hasPrefix("\"foot\", app id foot, ") == true && report.steps[0].message?.hasSuffix("(from sway's IPC)") == true)
        #expect(try RenderedImage(contentsOfFile: dir + "/foot.png").rgba8(x: 320, y: 240) == (0, 0x80, 0xff, 255))
        removeDirectory(dir)
    }

    @Test("wait-window finds the GTK window on all five compositors: by title where they list windows (sway, kwin), on the screen elsewhere; its pixels in window coordinates")
    func waitWindowEverywhere() throws {
        let text = "wait-window \"Exec demo\" timeout 20\nwait-still 0.3\nexpect-pixel 200,100 #808080 tolerance 3\nclose-window\n"
        for start in [{ try HeadlessWeston() }, { try HeadlessSway() }, { try HeadlessCage() }, { try HeadlessKWin() }, { try HeadlessMutter() }]
            as [() throws -> any Compositor] {
            let compositor = try start()
            defer { compositor.stop() }
            let report = ClientRunner(compositor: compositor).run(try ClientScript(parsing: text), client: [Self.demo])
            #expect(report.passed, "\(compositor.name):\n\(report.table)\n\(report.client?.output ?? "")")
            let found = report.steps.first?.message ?? ""
            switch compositor.name {
            case "sway": #expect(found.hasPrefix("\"Exec demo\", app id org.strata.ExecDemo") && found.contains("from sway's IPC"), "\(found)")
            case "kwin": #expect(found.hasPrefix("\"Exec demo\", app id org.strata.ExecDemo, 400x300") && found.contains("from kwin's scripting"), "\(found)")
            case "cage": #expect(found.hasPrefix("1280x720 at 0,0 (from the screen: cage fills it with every window); cage does not list windows"), "\(found)")
            default: #expect(found.contains("(from the screen); \(compositor.name) does not list windows"), "\(found)")
            }
            // Closed by the compositor where it can (sway, kwin, mutter's alt+F4): the app quits with 0.
            if ["sway", "kwin", "mutter"].contains(compositor.name) {
                #expect(report.client?.exitStatus == 0, "\(compositor.name)")
            } else {
                #expect(report.steps.last?.message == "\(compositor.name) offers no way to close a window from outside: the client was sent SIGTERM")
                #expect(report.client?.exitStatus != nil && report.client?.exitStatus != 0, "\(compositor.name): ended by a signal")
            }
        }
    }

    @Test("misbehaving clients: one that fails at start, one that never maps a window, one that maps two; a window that never appears is a bounded wait with what the compositor shows")
    func badClients() throws {
        let weston = try HeadlessWeston()
        let any = try ClientScript(parsing: "wait-window timeout 2")
        let crashed = ClientRunner(compositor: weston).run(any, client: ["sh", "-c", "echo cannot open display >&2; exit 3"])
        #expect(!crashed.passed && crashed.client?.exitStatus == 3)
        #expect(crashed.steps.first?.message?.hasPrefix("the client exited with status 3 before its window appeared; its output ends:") == true,
                "\(crashed.table)")
        #expect(crashed.steps.first?.message?.contains("cannot open display") == true)
        let silent = ClientRunner(compositor: weston).run(any, client: ["sleep", "30"])
        #expect(!silent.passed && silent.steps.first?.message == "no window (any new one) within 2 s; weston shows nothing new on the screen", "\(silent.table)")
        #expect(silent.client?.exitStatus == nil && silent.steps.first!.seconds < 6, "stopped after the bounded wait")
        let missing = ClientRunner(compositor: weston).run(try ClientScript(parsing: "wait-window\nexpect-exit 0 timeout 0.5"), client: ["/nonexistent/client"])
        #expect(!missing.passed && missing.steps.first?.message?.contains("No such file or directory") == true, "\(missing.table)")
        weston.stop()

        let kwin = try HeadlessKWin()
        defer { kwin.stop() }
        let two = ClientRunner(compositor: kwin).run(try ClientScript(parsing: """
            wait-window timeout 20
            wait-window "Exec demo 2"
            wait-window "Exec demo 3" timeout 1
            """), client: [Self.demo, "--windows", "2"])
        #expect(two.steps.count == 3 && two.steps[0].passed && two.steps[1].passed && !two.steps[2].passed, "\(two.table)")
        #expect(two.steps[1].message?.hasPrefix("\"Exec demo 2\", app id org.strata.ExecDemo, 200x100 at") == true, "\(two.table)")
        let shown = two.steps[2].message ?? ""
        #expect(shown.hasPrefix("no window \"Exec demo 3\" within 1 s; kwin shows ") && shown.contains("\"Exec demo\", ") && shown.contains("\"Exec demo 2\", "), "\(shown)")
    }

    @Test("a compositor with no recipe that offers wlroots' foreign toplevel list (sway from a command line): the window found on the screen is named by it, a title it does not list fails with what it lists, and close-window closes through it")
    func foreignToplevelList() throws {
        let dir = try scratch()
        defer { removeDirectory(dir) }
        try PNGCodec.writeFile(Array("output HEADLESS-1 resolution 640x480 position 0 0\noutput * bg #102030 solid_color\nxwayland disable\ndefault_border none\n".utf8),
                               to: dir + "/config")
        chmod(dir + "/config", 0o644)
        let sway = try CommandCompositor(command: "sway -c \(dir)/config")
        defer { sway.stop() }
        #expect(try sway.windows() == nil, "no recipe: it says nothing of places")
        let named = ClientRunner(compositor: sway).run(try ClientScript(parsing: "wait-window \"Exec demo\" timeout 20\nclose-window\nexpect-exit 0"),
                                                       client: [Self.demo])
        #expect(named.passed, "\(named.table)")
        #expect(named.steps.first?.message?.hasPrefix("\"Exec demo\", app id org.strata.ExecDemo, 640x480 at 0,0 (from the screen, named by sway's foreign toplevel list)") == true,
                "\(named.table)")
        #expect(named.steps.dropFirst().first?.message == "closed through sway's foreign toplevel list", "\(named.table)")
        let other = ClientRunner(compositor: sway).run(try ClientScript(parsing: "wait-window timeout 20\nwait-window app-id org.example.None timeout 1"),
                                                       client: [Self.demo])
        #expect(!other.passed && other.steps.count == 2 && other.steps[0].passed, "\(other.table)")
        #expect(other.steps[1].message == "no window with app id org.example.None within 1 s; sway shows \"Exec demo\", app id org.strata.ExecDemo", "\(other.table)")
    }

    @Test("a compositor from a hand-written command line (--compositor-command) gives the recipe's results; commands that fail are clear errors")
    func commandCompositor() throws {
        let text = "wait-window timeout 20\nwait-still 0.3\nexpect-pixel 200,100 #808080 tolerance 3\ncapture w.png window\n"
        var sizes: [String] = []
        // The recipe's shell settings (no panel, whose clock would change the screen), by hand.
        let settings = try scratch()
        try PNGCodec.writeFile(Array("[shell]\npanel-position=none\n".utf8), to: settings + "/weston.ini")
        chmod(settings + "/weston.ini", 0o644)
        defer { removeDirectory(settings) }
        for start in [{ try HeadlessWeston() },
                      { try CommandCompositor(command: "weston --backend=headless-backend.so --use-pixman --debug --socket={socket} --width=640 --height=480 "
                                              + "--config=\(settings)/weston.ini '--log={runtime}/own log.txt'") }]
            as [() throws -> any Compositor] {
            let compositor = try start()
            defer { compositor.stop() }
            if let command = compositor as? CommandCompositor {
                #expect(command.command.last == "--log=\(command.runtimeDirectory)/own log.txt" && access(command.runtimeDirectory + "/own log.txt", F_OK) == 0)
                // weston offers no wlroots virtual devices: input is refused with what is missing.
                do {
                    _ = try command.injectedInput()
                    Issue.record("weston gave injected input")
                } catch {
                    #expect("\(error)" == "weston offers no wlroots virtual pointer (zwlr_virtual_pointer_manager_v1)", "\(error)")
                }
            }
            let dir = try scratch()
            let report = ClientRunner(compositor: compositor, directory: dir).run(try ClientScript(parsing: text), client: [Self.demo])
            #expect(report.passed, "\(compositor.name):\n\(report.table)")
            #expect(compositor.name == "weston")
            let shot = try RenderedImage(contentsOfFile: dir + "/w.png")
            sizes.append("\(shot.width)x\(shot.height)")
            removeDirectory(dir)
        }
        // Found on the screen, the window's box may take in a row of its shadow (the backgrounds differ).
        #expect(sizes[0].hasPrefix("400x30") && sizes[1].hasPrefix("400x30"), "\(sizes)")

        do {
            _ = try CommandCompositor(command: "sleep 30", timeout: 1)
            Issue.record("a command without a socket was taken for a compositor")
        } catch {
            #expect("\(error)".contains("no socket after 1"), "\(error)")
        }
        do {
            _ = try CommandCompositor(command: "nonexistent-compositor --socket={socket}", timeout: 5)
            Issue.record("a missing program started")
        } catch {
            #expect("\(error)".contains("nonexistent-compositor"), "\(error)")
        }
        #expect(throws: CompositorError.launchFailed(command: "weston 'open (an unterminated quote)", errno: EINVAL)) {
            try CommandCompositor(command: "weston 'open")
        }
        #expect(throws: CompositorError.launchFailed(command: "(an empty command)", errno: EINVAL)) { try CommandCompositor(command: "  ") }
    }

    @Test("captures over time: the window against a reference (a mismatch writes its pictures), a filmstrip, a screen that settles")
    func regionsAndFilmstrip() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let dir = try scratch(["green-patch.png"])
        let report = ClientRunner(compositor: weston, directory: dir).run(try ClientScript(parsing: """
            wait-window timeout 20
            wait-still 0.3
            capture grey.png window
            filmstrip 5 1 frames
            expect-region green-patch.png at 180,100 tolerance 3
            """), client: [Self.demo])
        #expect(report.steps.count == 5 && report.steps.dropLast().allSatisfy(\.passed) && !report.steps[4].passed, "\(report.table)")
        #expect(try RenderedImage(contentsOfFile: dir + "/grey.png").rgba8(x: 200, y: 100) == (0x80, 0x80, 0x80, 255))
        let frames = listDirectory(dir + "/frames")
        #expect(frames.count >= 2 && frames.contains("frame-0001.png"), "\(frames)")
        #expect(report.steps[3].message?.hasPrefix("\(frames.count) frames in \(dir)/frames (") == true, "\(report.steps[3])")
        let mismatch = report.steps[4].message ?? ""
        #expect(mismatch.hasPrefix("the region at ") && mismatch.contains("1600 pixels differ beyond the tolerance") && mismatch.contains("actual: "), "\(mismatch)")
        removeDirectory(dir)
    }

    @Test("strata-probe exec: a client alone gives its status and output (124 past --seconds); with a script, the report and 0 or 1; usage errors are 2")
    func commandLine() throws {
        let binary = ".build/debug/strata-probe"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let dir = try scratch()
        defer { removeDirectory(dir) }
        func probe(_ arguments: [String], timeout: Double = 90) throws -> (status: Int32?, output: String) {
            let log = dir + "/probe-\(arguments.count).log"
            let p = try Subprocess.spawn([binary] + arguments, environment: ["WAYLAND_DISPLAY": ""], directory: nil, logPath: log)
            let status = p.wait(timeout: timeout)
            if status == nil { p.terminate() }
            defer { unlink(log) }
            return (status, String(decoding: (try? PNGCodec.readFile(log)) ?? [], as: UTF8.self))
        }
        let alone = try probe(["exec", "--compositor", "weston", "--", "sh", "-c", "echo \"client on $WAYLAND_DISPLAY\"; exit 7"])
        #expect(alone.status == 7 && alone.output.contains("client on strata-test-0"), "\(alone)")
        let late = try probe(["exec", "--compositor", "weston", "--seconds", "1", "--", "sleep", "30"])
        #expect(late.status == 124, "\(late)")
        let scriptPath = dir + "/s.script"
        try PNGCodec.writeFile(Array("wait-window timeout 20\nclose-window\n".utf8), to: scriptPath)
        let scripted = try probe(["exec", "--json", "--compositor", "weston", "--script", scriptPath, "--", Self.demo])
        #expect(scripted.status == 0 && scripted.output.contains("\"passed\": true") && scripted.output.contains("\"client\": {\"command\": [\"\(Self.demo)\"], \"exit\": 1"),
                "\(scripted)")
        try PNGCodec.writeFile(Array("wait-window timeout 1\n".utf8), to: scriptPath)
        let failed = try probe(["exec", "--compositor", "weston", "--script", scriptPath, "--", "true"])
        #expect(failed.status == 1 && failed.output.contains("FAIL  line 1  wait-window timeout 1") && failed.output.contains("client true exited with status 0"),
                "\(failed)")
        try PNGCodec.writeFile(Array("wait-window\nclick here\n".utf8), to: scriptPath)
        let malformed = try probe(["exec", "--compositor", "weston", "--script", scriptPath, "--", "true"])
        #expect(malformed.status == 2 && malformed.output.contains("s.script: line 2, column 7: 'here' is not a point X,Y"), "\(malformed)")
        let noClient = try probe(["exec", "--compositor", "weston"])
        #expect(noClient.status == 2 && noClient.output.contains("exec needs the client's command line after --"), "\(noClient)")
        let both = try probe(["exec", "--compositor", "weston", "--compositor-command", "weston", "--", "true"])
        #expect(both.status == 2 && both.output.contains("exclude each other"), "\(both)")
        let notExec = try probe(["probe", "--compositor", "weston", "--", "true"])
        #expect(notExec.status == 2 && notExec.output.contains("only exec and proxy take a client after --"), "\(notExec)")
        let command = try probe(["exec", "--compositor-command", "weston --backend=headless-backend.so --use-pixman --socket={socket}", "--", "sh", "-c", "exit 5"])
        #expect(command.status == 5, "\(command)")
    }
}
}

private func removeDirectory(_ path: String) {
    for name in listDirectory(path) {
        let full = path + "/" + name
        var st = stat()
        if lstat(full, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR { removeDirectory(full) } else { unlink(full) }
    }
    rmdir(path)
}
