@testable import ShellApps
@testable import Strata
import Glibc
import PixmanRender
import StrataTesting
import Testing

/// The shell examples' parts in process, offscreen on a manual clock (issue 26, item 4).
@MainActor
@Suite("Shell examples offscreen", .isolatedLayerContext)
struct ShellExamplesOffscreenTests {
    @Test("osd: springs in, retargets the bar from where it is (no jump), fades out after the delay and closes; a level during the fade brings it back; NaN refused, levels clamped")
    func osdRetargetsAndHides() throws {
        let f = ViewFixture()
        let osd = OnScreenDisplay()
        var hidden = 0
        osd.onHidden = { hidden += 1 }
        #expect(!osd.show(level: .nan) && osd.window == nil)
        osd.show(level: 40)
        let window = try #require(osd.window)
        #expect(window.shellLayer == .overlay && window.anchors == [.bottom] && window.keyboardInteractivity == .none)
        Transaction.flush()
        f.advance(0.05)
        let w1 = f.shownDouble(osd.fill, "bounds.size.width")
        #expect(w1 > 1 && w1 < 50, "springing towards 60: \(w1)")
        osd.show(level: 80)   // mid-animation
        Transaction.flush()
        let w2 = f.shownDouble(osd.fill, "bounds.size.width")
        #expect(abs(w2 - w1) < 1, "retargeted from where it was: \(w1) → \(w2)")
        f.advance(1.2)
        #expect(abs(f.shownDouble(osd.fill, "bounds.size.width") - 120) < 0.5 && osd.valueLabel.text == "80")
        #expect(f.shownDouble(osd.pill, "opacity") == 1)
        // 1.5 s after the last level: the fade (0.3 s), then closed.
        f.advance(0.35)   // 1.55 s after the level
        Transaction.flush()
        f.advance(0.1)
        let fading = f.shownDouble(osd.pill, "opacity")
        #expect(fading < 1 && fading > 0, "fading: \(fading)")
        osd.show(level: 150)   // back during the fade, clamped
        Transaction.flush()
        f.advance(0.5)
        #expect(osd.window === window && hidden == 0 && osd.level == 100 && f.shownDouble(osd.pill, "opacity") == 1)
        f.advance(1.5)
        Transaction.flush()
        f.advance(0.4)
        #expect(hidden == 1 && osd.window == nil && !window.isVisible)
        // Shown again: a new window, springing in.
        osd.show(level: 10)
        #expect(osd.window != nil && osd.window !== window)
        osd.hide()
    }

    @Test("panel: /proc and /sys readers take real files' shapes and refuse odd ones (nil, never a trap)")
    func systemStatusReaders() {
        let stat = "cpu  100 0 50 800 50 0 0 0 0 0\ncpu0 1 2 3 4\n"
        let t = SystemStatus.cpuTimes(procStat: stat)
        #expect(t?.busy == 150 && t?.total == 1000)
        #expect(SystemStatus.cpuUse(from: (150, 1000), to: (250, 1200)) == 0.5)
        #expect(SystemStatus.cpuUse(from: (150, 1000), to: (150, 1000)) == nil, "no time passed")
        #expect(SystemStatus.cpuUse(from: (150, 1000), to: (100, 2000)) == nil, "counters went back")
        for bad in ["", "cpu", "cpu  a b c d", "intr 1 2 3", "cpu  1 2\n", "cpu  18446744073709551615 18446744073709551615 1 1"] {
            let times = SystemStatus.cpuTimes(procStat: bad)
            #expect(times == nil || times!.busy <= times!.total, "\(bad)")
        }
        let meminfo = "MemTotal:       16000000 kB\nMemFree:  100 kB\nMemAvailable:   12000000 kB\n"
        let m = SystemStatus.memory(procMeminfo: meminfo)
        #expect(m?.used == 4_000_000 * 1024 && m?.total == 16_000_000 * 1024)
        #expect(SystemStatus.memory(procMeminfo: "MemTotal: 10 kB\nMemAvailable: 20 kB") == nil, "more available than total")
        #expect(SystemStatus.memory(procMeminfo: "MemTotal: 99999999999999999999 kB\nMemAvailable: 1 kB") == nil)
        #expect(SystemStatus.memory(procMeminfo: "garbage") == nil)
        #expect(SystemStatus.battery(capacity: "80\n", status: "Charging\n")! == (80, true))
        #expect(SystemStatus.battery(capacity: "80", status: "Discharging")! == (80, false))
        #expect(SystemStatus.battery(capacity: "180", status: "Full") == nil && SystemStatus.battery(capacity: "", status: "") == nil)
        var status = SystemStatus(cpu: 0.123, memory: (3_328_599_654, 16_642_998_272), battery: (80, true))
        #expect(status.summary == "CPU 12%   Mem 3.1/15.5 GB   Bat 80%+")
        status.cpu = nil; status.battery = nil
        #expect(status.summary == "Mem 3.1/15.5 GB", "unknown parts left out")
    }

    @Test("panel: a bar across its screen keeping its height (exclusive zone), sliding down when shown; the clock at the minute, seconds from the menu; its snapshot")
    func panel() throws {
        let f = ViewFixture()
        let panels = Panels()
        panels.now = { (1_764_140_400 + 30, 0.25) }   // 30.25 s into a minute
        panels.start()
        let panel = try #require(panels.all.first)
        #expect(panel.window.anchors == [.top, .left, .right] && panel.window.exclusiveZoneValue == 32 && panel.window.shellLayer == .top)
        Transaction.flush()
        #expect(close(f.shownDouble(panel.bar, "transform.translation.y"), -32), "slides down from above")
        f.advance(1)
        #expect(close(f.shownDouble(panel.bar, "transform.translation.y"), 0, 0.01))
        let minute = try #require(panel.clock.text)
        #expect(minute.count > 8 && !minute.hasSuffix(":30"), "minutes only: \(minute)")
        // The menu's first item shows seconds, and the clock then ticks every second.
        let showSeconds = try #require(panel.menuButton.menu?.children.first as? MenuAction)
        showSeconds.handler(showSeconds)
        #expect(panel.showsSeconds && panel.clock.text?.hasSuffix(":30") == true, "\(panel.clock.text ?? "")")
        panels.now = { (1_764_140_400 + 31, 0.01) }
        f.advance(1)
        #expect(panel.clock.text?.hasSuffix(":31") == true)
        let image = panel.window.snapshot()
        #expect(image.width == 640 && image.height == 32)
        #expect(image.rgba8(x: 200, y: 2) == (0x20, 0x23, 0x28, 255), "the bar")
        let clockPixels = (250..<390).filter { x in image.rgba8(x: x, y: 16).r > 0x80 }
        #expect(clockPixels.count > 10, "the clock's text in the middle")
        panels.stop()
        #expect(!panel.window.isVisible)
    }

    nonisolated static let applications: String = {
        let here = String(#filePath)
        return String(here[..<here.firstRange(of: "/StrataTests/")!.lowerBound]) + "/Fixtures/applications"
    }()

    @Test("launcher: .desktop entries read as the specification says — localized keys, escapes, IDs from subfolders, hidden and non-applications and broken Exec lines left out with a reason")
    func desktopEntries() throws {
        let found = DesktopEntries(directories: [Self.applications + "-local", Self.applications], locale: "de_DE.UTF-8@euro")
        #expect(found.entries.map(\.id) == ["calendar.desktop", "calculator.desktop", "sub-terminal.desktop", "text-editor.desktop"],
                "sorted by name: \(found.entries.map(\.name))")
        #expect(found.entries.first?.name == "My Calendar", "the first folder wins an ID (the user's over the system's)")
        let calc = try #require(found.entries.first { $0.id == "calculator.desktop" })
        #expect(calc.name == "Taschenrechner" && calc.comment == "Rechnen" && calc.keywords == ["math", "numbers"])
        #expect(found.entries.first { $0.id == "sub-terminal.desktop" }?.name == "Terminal", "a subfolder's name is part of the ID")
        let reasons = Dictionary(uniqueKeysWithValues: found.refused.map { (String($0.path.split(separator: "/").last!), "\($0.why)") })
        #expect(reasons["broken.desktop"]?.contains("unterminated quote") == true && reasons["hidden.desktop"]?.contains("hidden") == true)
        #expect(reasons["link.desktop"]?.contains("not of type Application") == true && reasons["garbage.desktop"] != nil, "\(reasons)")
        #expect(DesktopEntry.localeSuffixes("sr_RS@latin") == ["sr_RS@latin", "sr_RS", "sr@latin", "sr"] && DesktopEntry.localeSuffixes("C").isEmpty)

        let editor = try #require(found.entries.first { $0.id == "text-editor.desktop" })
        #expect(try editor.commandLine(files: ["/a b.txt", "/c"]) == ["/opt/my editor/bin/edit", "--name", "Text Editor", "/a b.txt", "/c"])
        #expect(try calc.commandLine(files: []) == ["gnome-calculator"], "%U without files is no word at all")
        func exec(_ line: String) throws(DesktopEntry.Refusal) -> [String] {
            try DesktopEntry(id: "x.desktop", name: "X", icon: "x-icon", exec: line, path: "/apps/x.desktop").commandLine(files: ["/f"])
        }
        #expect(try exec(#"sh -c "echo \"hi\" \$HOME 100%%" %i %k %f"#) == ["sh", "-c", #"echo "hi" $HOME 100%"#, "--icon", "x-icon", "/apps/x.desktop", "/f"])
        #expect(try exec("app --file=%f %d%D") == ["app", "--file=/f", ""])
        for (bad, why) in [("app %z", "unknown field code"), ("app \"%F\"", "inside quotes"), ("app --x=%F", "a word of its own"),
                           ("app %", "lone %"), ("   ", "no program"), ("\"a\\q\"", "backslash")] {
            #expect(throws: DesktopEntry.Refusal.self, "\(bad)") { try exec(bad) }
            do { _ = try exec(bad) } catch { #expect("\(error)".contains(why), "\(bad): \(error)") }
        }
        #expect(DesktopEntry.unescape(#"a\sb\nc\\d\;"#) == "a b\nc\\d\\;")
    }

    @Test("launcher: fuzzy matching prefers prefixes, word starts and runs; the list filters as you type, rows leaving and coming animated; Down/Up choose, Return launches with the entry's command line, Escape closes")
    func launcherFiltersAndLaunches() throws {
        #expect(FuzzyMatch.score("xyz", in: "Calculator") == nil && FuzzyMatch.score("", in: "x") == 0)
        #expect(FuzzyMatch.score("calc", in: "Calculator")! > FuzzyMatch.score("calc", in: "Scientific calculator")!)
        #expect(FuzzyMatch.score("te", in: "Text Editor")! > FuzzyMatch.score("te", in: "Calendar template")!)
        let f = ViewFixture()
        let entries = DesktopEntries(directories: [Self.applications], locale: nil).entries
        #expect(entries.map(\.name) == ["Calculator", "Calendar", "Terminal", "Text Editor"])
        #expect(FuzzyMatch.filter(entries, by: "math").map(\.name) == ["Calculator"], "keywords count")
        #expect(FuzzyMatch.filter(entries, by: "ed").map(\.name) == ["Text Editor", "Calendar"], "a word start beats a middle")
        let launcher = Launcher(entries: entries)
        var spawned: [([String], [String: String])] = []
        launcher.spawn = { spawned.append(($0, $1)); return true }
        var finished = 0
        launcher.onFinish = { finished += 1 }
        launcher.show()
        let shell = try #require(launcher.window as? ShellWindow)
        #expect(shell.keyboardInteractivity == .exclusive && shell.shellLayer == .overlay && shell.anchors.isEmpty)
        #expect(launcher.field.isFirstResponder)
        launcher.window.layoutIfNeeded()
        Transaction.flush()
        #expect(launcher.list.visibleCells.count == 4)

        let driver = InputDriver(window: launcher.window)
        driver.type("cal")
        Transaction.flush()
        #expect(launcher.shown.map(\.name) == ["Calculator", "Calendar"])
        func cells(_ v: View) -> [ListCell] { (v as? ListCell).map { [$0] } ?? v.subviews.flatMap(cells) }
        let leaving = try #require(cells(launcher.list).first { $0.textLabel.text == "Text Editor" }, "the row leaving is still there")
        f.advance(0.1)
        let fading = f.shownDouble(leaving, "opacity")
        #expect(fading > 0 && fading < 1, "the row leaving fades out: \(fading)")
        f.advance(1)
        launcher.window.layoutIfNeeded()
        #expect(launcher.list.visibleCells.filter { $0.alpha > 0 && $0.superview != nil }.map { $0.textLabel.text ?? "" }.sorted()
                == ["Calculator — Do sums", "Calendar"])
        driver.pressKey(keysym: 0xff54)   // Down
        driver.releaseKey(keysym: 0xff54)
        #expect(launcher.selectedRow == 1 && launcher.list.cellForRow(at: 1)?.contentView.backgroundColor == Launcher.selection)
        driver.pressKey(keysym: 0xff54)
        driver.releaseKey(keysym: 0xff54)
        #expect(launcher.selectedRow == 1, "kept in the list")
        driver.pressKey(keysym: 0xff52)   // Up
        driver.releaseKey(keysym: 0xff52)
        driver.pressKey(keysym: 0xff0d)   // Return
        driver.releaseKey(keysym: 0xff0d)
        #expect(spawned.map(\.0) == [["gnome-calculator"]] && finished == 1, "\(spawned)")
        #expect(spawned.first?.1.isEmpty == true, "offscreen: no activation token")
        driver.pressKey(keysym: 0xff1b)   // Escape
        driver.releaseKey(keysym: 0xff1b)
        #expect(finished == 2 && spawned.count == 1)
        // Typing what matches nothing empties the list; Return then does nothing.
        driver.type("zzz")
        #expect(launcher.shown.isEmpty)
        driver.pressKey(keysym: 0xff0d)
        driver.releaseKey(keysym: 0xff0d)
        #expect(spawned.count == 1)
        launcher.window.close()
    }

    @Test("osd: its snapshot is the pill with the bar at the level and the value")
    func osdSnapshot() throws {
        let f = ViewFixture()
        let osd = OnScreenDisplay()
        osd.show(level: 50)
        let window = try #require(osd.window)
        Transaction.flush()
        let image = window.snapshot(atTime: f.clock.now + 1)   // sprung in
        #expect(image.rgba8(x: 104 + 30, y: 32) == (0x5e, 0xb0, 0xff, 255), "the bar")
        #expect(image.rgba8(x: 104 + 120, y: 32) == (0x4a, 0x4f, 0x57, 255), "the track past the level")
        #expect(image.rgba8(x: 1, y: 1).3 == 0, "round ends: the corner is clear")
        osd.hide()
    }
}

/// The shell examples as programs on real compositors (issue 26, item 4).
@MainActor
@Suite("Shell examples on compositors", .isolatedLayerContext)
struct ShellExamplesOnCompositorsTests {
    static func binary(_ name: String) throws -> String {
        let cwd = getcwd(nil, 0).map { p in defer { free(p) }; return String(cString: p) } ?? "."
        let path = cwd + "/.build/debug/" + name
        try #require(access(path, X_OK) == 0, "build the examples first (swift build --build-tests)")
        return path
    }

    static func near(_ a: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ b: (UInt8, UInt8, UInt8)) -> Bool {
        abs(Int(a.r) - Int(b.0)) <= 3 && abs(Int(a.g) - Int(b.1)) <= 3 && abs(Int(a.b) - Int(b.2)) <= 3
    }

    @Test("osd on sway: `osd 40` shows the pill at the bottom above everything; `osd 80` hands its level to the running one and exits; the bar grows; after the timeout it fades, closes and exits 0, removing its socket")
    func osdOnSway() throws {
        let osd = try Self.binary("osd")
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let (first, log) = try sway.startClient([osd, "40", "--timeout", "4"])
        defer { first.terminate() }
        // 640×480: the pill 320×64 centred, 96 above the bottom; the track from x 264, 150 wide, at y 352.
        let bar = (UInt8(0x5e), UInt8(0xb0), UInt8(0xff)), track = (UInt8(0x4a), UInt8(0x4f), UInt8(0x57))
        try MenusOnCompositorsTests.eventually("the pill at 40 (\(tail(of: log, lines: 5)))") {
            let shot = try sway.screenshot(timeout: 10)
            return Self.near(shot.rgba8(x: 264 + 30, y: 352), bar) && Self.near(shot.rgba8(x: 264 + 100, y: 352), track)
        }
        let socket = sway.runtimeDirectory + "/strata-osd.\(sway.socketName).sock"
        #expect(access(socket, F_OK) == 0, "listening at \(socket)")
        let (status, output) = try sway.runClient([osd, "80"], timeout: 20)
        #expect(status == 0, "the second call exits at once: \(output)")
        try MenusOnCompositorsTests.eventually("the bar at 80") {
            let shot = try sway.screenshot(timeout: 10)
            return Self.near(shot.rgba8(x: 264 + 100, y: 352), bar) && Self.near(shot.rgba8(x: 264 + 140, y: 352), track)
        }
        #expect(first.wait(timeout: 15) == 0, "it ends after fading out: \(tail(of: log, lines: 10))")
        #expect(access(socket, F_OK) != 0, "its socket removed")
    }

    @Test("panel on sway: a bar along the top of the output; an output created at run time gets its own; on weston it exits 1 naming the missing global")
    func panelOnSway() throws {
        let panel = try Self.binary("panel")
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let (process, log) = try sway.startClient([panel])
        defer { process.terminate() }
        let bar = (UInt8(0x20), UInt8(0x23), UInt8(0x28))
        try MenusOnCompositorsTests.eventually("the bar along the top (\(tail(of: log, lines: 5)))") {
            let shot = try sway.screenshot(timeout: 10)
            return Self.near(shot.rgba8(x: 200, y: 2), bar) && Self.near(shot.rgba8(x: 630, y: 30), bar) && !Self.near(shot.rgba8(x: 200, y: 40), bar)
        }
        #expect(try sway.command("create_output").status == 0)
        try MenusOnCompositorsTests.eventually("a bar on the new output too") {
            let shot = try sway.screenshot(timeout: 10)
            return shot.width > 640 && Self.near(shot.rgba8(x: 640 + 300, y: 2), bar) && Self.near(shot.rgba8(x: 200, y: 2), bar)
        }
        let weston = try HeadlessWeston()
        let (status, output) = try weston.runClient([panel], timeout: 20)
        #expect(status == 1 && output.contains("zwlr_layer_shell_v1"), "\(output)")
    }

    @Test("launcher on sway: the card above everything takes the keyboard; typed letters (sway's virtual keyboard) filter, Return starts the entry with an activation token and the launcher ends; on weston it is an ordinary window")
    func launcherOnSway() throws {
        let launcher = try Self.binary("launcher")
        let sway = try HeadlessSway()
        defer { sway.stop() }
        let apps = sway.runtimeDirectory + "/applications", marker = sway.runtimeDirectory + "/launched"
        #expect(mkdir(apps, 0o755) == 0)
        for (file, text) in [("marker.desktop", "[Desktop Entry]\nType=Application\nName=Pen marker\nExec=touch \(marker)\n"),
                             ("other.desktop", "[Desktop Entry]\nType=Application\nName=Atlas\nExec=false\n")] {
            let fd = open(apps + "/" + file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let (process, log) = try sway.startClient([launcher, "--applications", apps])
        defer { process.terminate() }
        try MenusOnCompositorsTests.eventually("the card in the middle (\(tail(of: log, lines: 5)))") {
            let shot = try sway.screenshot(timeout: 10)
            return Self.near(shot.rgba8(x: 320, y: 400), (0xfa, 0xfa, 0xfc)) && !Self.near(shot.rgba8(x: 40, y: 40), (0xfa, 0xfa, 0xfc))
        }
        let (wtype, _) = try sway.startClient(["wtype", "-s", "200", "mark", "-s", "300", "-k", "Return"])
        defer { wtype.terminate() }
        #expect(process.wait(timeout: 20) == 0, "the launcher ends after launching: \(tail(of: log, lines: 10))")
        let output = tail(of: log, lines: 20)
        #expect(output.contains("started touch \(marker) with activation token"), "\(output)")
        var ran = false
        for _ in 0..<100 where !ran { ran = access(marker, F_OK) == 0; if !ran { usleep(50_000) } }
        #expect(ran, "the entry's program ran")

        let weston = try HeadlessWeston()
        let (status, fallback) = try weston.runClient([launcher, "--applications", apps, "--seconds", "1"], timeout: 30)
        #expect(status == 0 && fallback.contains("showing an ordinary window"), "\(fallback)")
    }

    @Test("osd on weston (no shell layers): exits 1 naming the missing global; bad levels are a usage error (2)")
    func osdWithoutShellLayer() throws {
        let osd = try Self.binary("osd")
        let weston = try HeadlessWeston()
        let (status, output) = try weston.runClient([osd, "40"], timeout: 20)
        #expect(status == 1 && output.contains("zwlr_layer_shell_v1"), "\(output)")
        for bad in [["nan"], ["loud"], [], ["40", "--timeout", "-1"]] {
            let (status, output) = try weston.runClient([osd] + bad, timeout: 20)
            #expect(status == 2 && output.contains("osd"), "\(bad): \(output)")
        }
    }
}
