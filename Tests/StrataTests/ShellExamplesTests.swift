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
        // To a screen reader: one element, the title and the level (the labels inside are not read twice).
        let read = AccessibilityNode.window(window).children
        #expect(read.map(\.name) == ["Volume"] && read.first?.value == "80 %", "\(read.map { ($0.name, $0.value) })")
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
            try DesktopEntry(id: "x.desktop", name: "X", exec: line, path: "/apps/x.desktop", icon: "x-icon").commandLine(files: ["/f"])
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

    @Test("notifyd: body markup — bold, italic and link runs, entities, images by alt text, unknown tags dropped with their text kept, a stray < kept")
    func bodyMarkup() {
        let t = BodyMarkup.parse("a <b>bold</b> &amp; <i>it</i> <x>kept</x> <a href='u'>link</a> <img src='p' alt=\"pic\"/> 1 < 2 &bogus; &#x41;&#66;<b>open")
        #expect(t.string == "a bold & it kept link [pic] 1 < 2 &bogus; ABopen", "\(t.string)")
        let utf8 = Array(t.string.utf8)
        func offset(_ s: String) -> Int { t.string.utf8.distance(from: t.string.utf8.startIndex, to: t.string.firstRange(of: s)!.lowerBound) }
        #expect(t.runs.contains { $0.bytes == offset("bold")..<offset("bold") + 4 && $0.attributes.weight == .bold })
        #expect(t.runs.contains { $0.bytes.lowerBound == offset("it ") && $0.attributes.font != nil })
        #expect(t.color(atByte: offset("link")) == BodyMarkup.linkColor && t.color(atByte: offset("kept")) == nil)
        #expect(utf8.count == t.string.utf8.count)
        #expect(BodyMarkup.parse("&#0;&#xFFFFFFFF;").string == "&#0;&#xFFFFFFFF;", "entities of no character stay text")
    }

    @Test("notifyd: icons by name from the icon theme, paths and file URIs as they are; names that would leave the icon folders refused")
    func iconTheme() {
        let icons = IconTheme()
        #expect(icons.path(for: "dialog-information")?.hasSuffix("/dialog-information.png") == true)
        #expect(icons.path(for: "no-such-icon-anywhere") == nil)
        for bad in ["../../../etc/passwd", "a/b", ".hidden", "", String(repeating: "x", count: 300), "/usr/share/../../etc/x"] {
            #expect(icons.path(for: bad) == nil, "\(bad)")
        }
        let file = icons.path(for: "dialog-information")!
        #expect(icons.path(for: "file://" + file) == file && icons.path(for: file) == file)
    }

    @Test("notifyd: toasts newest first, the window sized to them; expiry (5 s, critical never, 0 never, given ms); replacement in place; a click runs the default action, a button its own; 1,000 at once: five shown, 200 waiting, the rest closed as expired — never a critical one — and the waiting ones come in as others close")
    func notificationDaemon() throws {
        let f = ViewFixture()
        let daemon = NotificationDaemon()
        var closed: [(UInt32, NotificationDaemon.Reason)] = [], actions: [(UInt32, String)] = []
        daemon.onClosed = { closed.append(($0, $1)) }
        daemon.onAction = { actions.append(($0, $1)) }
        let a = daemon.notify(.init(appName: "t", summary: "A"))
        let b = daemon.notify(.init(summary: "B", body: "<b>two</b>", urgency: 2))
        let c = daemon.notify(.init(summary: "C", expireTimeout: 0))
        let d = daemon.notify(.init(summary: "D", actions: ["default", "Open", "later", "Later"], expireTimeout: 2500))
        #expect(Set([a, b, c, d]).count == 4 && !Set([a, b, c, d]).contains(0))
        #expect(daemon.shown.map(\.summary) == ["D", "C", "B", "A"] && daemon.window.isVisible)
        Transaction.flush()
        daemon.window.layoutIfNeeded()
        let height = daemon.window.size.height
        #expect(daemon.window.size.width == ToastView.width && height > 4 * 40, "\(daemon.window.size)")
        #expect(daemon.notify(.init(replacesID: c, summary: "C2", expireTimeout: 0)) == c && daemon.shown.map(\.summary) == ["D", "C2", "B", "A"])
        f.advance(2.6)
        #expect(closed.map(\.0) == [d] && closed.last?.1 == .expired, "D after 2.5 s")
        f.advance(2.5)
        #expect(closed.map(\.0) == [d, a], "A after 5 s; the critical B and C (timeout 0) stay")
        f.advance(60)
        #expect(daemon.shown.map(\.summary) == ["C2", "B"])
        #expect(!daemon.close(999_999, reason: .closedByCall))

        // A click: the default action; a button: its own.
        let e = daemon.notify(.init(summary: "E", actions: ["default", "Open", "reply", "Reply"]))
        Transaction.flush()
        f.advance(1)
        // To a screen reader, newest first: each toast a notification holding its summary and body as text,
        // its actions as push buttons.
        func nodes(_ n: AccessibilityNode) -> [AccessibilityNode] { [n] + n.children.flatMap(nodes) }
        let toasts = AccessibilityNode.window(daemon.window).children.flatMap { $0.role == .notification ? [$0] : $0.children }
        #expect(toasts.map(\.role) == Array(repeating: .notification, count: 3) && nodes(toasts[0]).map(\.name).contains("E"), "\(toasts.map(\.role))")
        let read = nodes(.window(daemon.window)).dropFirst().map { ($0.role, $0.name) }
        #expect(read.contains { $0 == (.button, "Reply") } && read.contains { $0 == (.label, "E") } && read.contains { $0 == (.label, "two") },
                "\(read)")
        #expect(read.firstIndex { $0 == (.label, "E") }! < read.firstIndex { $0 == (.label, "C2") }!, "newest first: \(read)")
        daemon.window.layoutIfNeeded()
        let driver = InputDriver(window: daemon.window)
        driver.click(at: Point(x: 40, y: 20))
        #expect(actions.last! == (e, "default") && closed.last! == (e, .dismissed))
        let g = daemon.notify(.init(summary: "G", body: "body", actions: ["reply", "Reply"]))
        Transaction.flush()
        f.advance(1)
        daemon.window.layoutIfNeeded()
        let view = try #require(daemon.column.views.first)
        let button = try #require(view.buttons.first)
        driver.click(at: view.convert(Point(x: button.frame.midX, y: button.frame.midY), to: nil))
        #expect(actions.last! == (g, "reply") && closed.last! == (g, .dismissed))

        // A flood.
        closed = []
        var ids: [UInt32] = []
        for i in 0..<1000 { ids.append(daemon.notify(.init(summary: "n\(i)", urgency: i % 100 == 0 ? 2 : 1, expireTimeout: 0))) }
        #expect(Set(ids).count == 1000)
        #expect(daemon.shown.count == NotificationDaemon.maximumShown && daemon.pending.count == NotificationDaemon.maximumPending)
        #expect(closed.count == 1000 - 3 - NotificationDaemon.maximumPending && closed.allSatisfy { $0.1 == .expired })
        let criticalIDs = Set(ids.enumerated().filter { $0.offset % 100 == 0 }.map(\.element))
        #expect(closed.allSatisfy { !criticalIDs.contains($0.0) }, "no critical one dropped")
        let firstWaiting = daemon.pending.first!.id
        #expect(daemon.close(daemon.shown[0].id, reason: .dismissed) && daemon.shown.first?.id == firstWaiting)
        for t in daemon.shown + daemon.pending { daemon.close(t.id, reason: .closedByCall) }
        f.advance(1)
        #expect(!daemon.window.isVisible, "the surface goes with the last toast")
    }

    @Test("launcher and notifyd snapshots: the card with the field and the selected row; a toast with its icon, bold summary and action button")
    func launcherAndToastSnapshots() throws {
        let f = ViewFixture()
        let launcher = Launcher(entries: DesktopEntries(directories: [Self.applications], locale: nil).entries)
        launcher.show()
        Transaction.flush()
        let card = launcher.window.snapshot(atTime: f.clock.now + 1)
        #expect(card.width == 480 && card.height == 400)
        #expect(card.rgba8(x: 240, y: 300) == (0xfa, 0xfa, 0xfc, 255), "the card")
        #expect(card.rgba8(x: 300, y: 64 + 20) == (0xd6, 0xe8, 0xff, 255), "the first row, selected")
        #expect(card.rgba8(x: 300, y: 64 + 60) == (255, 255, 255, 255), "the second row")
        #expect(card.rgba8(x: 0, y: 0).3 == 0, "round corners: the corner is clear")
        launcher.window.close()

        let daemon = NotificationDaemon()
        daemon.notify(.init(appIcon: "dialog-information", summary: "Saved", body: "All <b>done</b>", actions: ["open", "Open"], expireTimeout: 0))
        Transaction.flush()
        f.advance(1)
        daemon.window.layoutIfNeeded()
        let toast = daemon.window.snapshot()
        #expect(toast.width == 360 && toast.height > 80, "\(toast.width)×\(toast.height)")
        let c = toast.rgba8(x: 300, y: 20)
        #expect(c.a > 0xe0 && abs(Int(c.r) - 0x2a) <= 3 && abs(Int(c.g) - 0x2e) <= 3 && abs(Int(c.b) - 0x35) <= 3, "the card: \(c)")
        let iconPixels = (14..<54).flatMap { y in (14..<54).map { x in toast.rgba8(x: x, y: y) } }.filter { $0.r > 0x80 && $0.g > 0x80 }
        #expect(iconPixels.count > 50, "the icon drawn")
        let view = try #require(daemon.column.views.first)
        let button = try #require(view.buttons.first)
        #expect(button.currentTitle == "Open" && button.frame.minY > view.bodyLabel.frame.maxY)
        for t in daemon.shown { daemon.close(t.id, reason: .dismissed) }
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
    nonisolated static func binary(_ name: String) throws -> String {
        let cwd = getcwd(nil, 0).map { p in defer { free(p) }; return String(cString: p) } ?? "."
        let path = cwd + "/.build/debug/" + name
        try #require(access(path, X_OK) == 0, "build the examples first (swift build --build-tests)")
        return path
    }

    /// sway (as its unprivileged user) or kwin, by name.
    static func compositor(_ name: String) throws -> any Compositor {
        name == "sway" ? try HeadlessSway() : try HeadlessKWin()
    }

    static func startClient(_ c: any Compositor, _ arguments: [String]) throws -> (process: Subprocess, logPath: String) {
        if let sway = c as? HeadlessSway { return try sway.startClient(arguments) }
        return try (c as! HeadlessKWin).startClient(arguments)
    }

    static func near(_ a: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ b: (UInt8, UInt8, UInt8)) -> Bool {
        abs(Int(a.r) - Int(b.0)) <= 3 && abs(Int(a.g) - Int(b.1)) <= 3 && abs(Int(a.b) - Int(b.2)) <= 3
    }

    @Test("osd on sway and kwin: `osd 40` shows the pill at the bottom above everything; `osd 80` hands its level to the running one and exits; the bar grows; after the timeout it fades, closes and exits 0, removing its socket",
          arguments: ["sway", "kwin"])
    func osdOnCompositor(_ name: String) throws {
        let osd = try Self.binary("osd")
        let sway = try Self.compositor(name)
        defer { sway.stop() }
        let (first, log) = try Self.startClient(sway, [osd, "40", "--timeout", "4"])
        defer { first.terminate() }
        // 640×480: the pill 320×64 centred, 96 above the bottom; the track from x 264, 150 wide, at y 352.
        let bar = (UInt8(0x5e), UInt8(0xb0), UInt8(0xff)), track = (UInt8(0x4a), UInt8(0x4f), UInt8(0x57))
        try MenusOnCompositorsTests.eventually("the pill at 40 (\(tail(of: log, lines: 5)))") {
            let shot = try sway.screenshot(timeout: 30)
            return Self.near(shot.rgba8(x: 264 + 30, y: 352), bar) && Self.near(shot.rgba8(x: 264 + 100, y: 352), track)
        }
        let socket = sway.runtimeDirectory + "/strata-osd.\(sway.socketName).sock"
        #expect(access(socket, F_OK) == 0, "listening at \(socket)")
        let (second, secondLog) = try Self.startClient(sway, [osd, "80"])
        let status = second.wait(timeout: 20)
        #expect(status == 0, "the second call exits at once: \(tail(of: secondLog))")
        try MenusOnCompositorsTests.eventually("the bar at 80") {
            let shot = try sway.screenshot(timeout: 30)
            return Self.near(shot.rgba8(x: 264 + 100, y: 352), bar) && Self.near(shot.rgba8(x: 264 + 140, y: 352), track)
        }
        #expect(first.wait(timeout: 15) == 0, "it ends after fading out: \(tail(of: log, lines: 10))")
        #expect(access(socket, F_OK) != 0, "its socket removed")
    }

    @Test("panel on sway and kwin: a bar along the top of the output; on sway an output created at run time gets its own; on weston it exits 1 naming the missing global",
          arguments: ["sway", "kwin"])
    func panelOnCompositor(_ name: String) throws {
        let panel = try Self.binary("panel")
        let compositor = try Self.compositor(name)
        defer { compositor.stop() }
        let (process, log) = try Self.startClient(compositor, [panel])
        defer { process.terminate() }
        let bar = (UInt8(0x20), UInt8(0x23), UInt8(0x28))
        try MenusOnCompositorsTests.eventually("the bar along the top (\(tail(of: log, lines: 5)))") {
            let shot = try compositor.screenshot(timeout: 30)
            return Self.near(shot.rgba8(x: 200, y: 2), bar) && Self.near(shot.rgba8(x: 630, y: 30), bar) && !Self.near(shot.rgba8(x: 200, y: 40), bar)
        }
        guard let sway = compositor as? HeadlessSway else { return }
        #expect(try sway.command("create_output").status == 0)
        try MenusOnCompositorsTests.eventually("a bar on the new output too") {
            let shot = try sway.screenshot(timeout: 30)
            return shot.width > 640 && Self.near(shot.rgba8(x: 640 + 300, y: 2), bar) && Self.near(shot.rgba8(x: 200, y: 2), bar)
        }
        let weston = try HeadlessWeston()
        let (status, output) = try weston.runClient([panel], timeout: 20)
        #expect(status == 1 && output.contains("zwlr_layer_shell_v1"), "\(output)")
    }

    @Test("launcher on sway and kwin: the card above everything takes the keyboard; typed letters (sway's virtual keyboard, kwin's fake input) filter, Return starts the entry with an activation token and the launcher ends; on weston it is an ordinary window",
          arguments: ["sway", "kwin"])
    func launcherOnCompositor(_ name: String) throws {
        let launcher = try Self.binary("launcher")
        let compositor = try Self.compositor(name)
        defer { compositor.stop() }
        let apps = compositor.runtimeDirectory + "/applications", marker = compositor.runtimeDirectory + "/launched"
        #expect(mkdir(apps, 0o755) == 0)
        for (file, text) in [("marker.desktop", "[Desktop Entry]\nType=Application\nName=Pen marker\nExec=touch \(marker)\n"),
                             ("other.desktop", "[Desktop Entry]\nType=Application\nName=Atlas\nExec=false\n")] {
            let fd = open(apps + "/" + file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let (process, log) = try Self.startClient(compositor, [launcher, "--applications", apps])
        defer { process.terminate() }
        try MenusOnCompositorsTests.eventually("the card in the middle (\(tail(of: log, lines: 5)))") {
            let shot = try compositor.screenshot(timeout: 30)
            return Self.near(shot.rgba8(x: 320, y: 400), (0xfa, 0xfa, 0xfc)) && !Self.near(shot.rgba8(x: 40, y: 40), (0xfa, 0xfa, 0xfc))
        }
        if let sway = compositor as? HeadlessSway {
            let (wtype, _) = try sway.startClient(["wtype", "-s", "200", "mark", "-s", "300", "-k", "Return"])
            defer { wtype.terminate() }
            #expect(process.wait(timeout: 20) == 0, "the launcher ends after launching: \(tail(of: log, lines: 10))")
        } else {
            let input = try compositor.injectedInput()
            for code: UInt32 in [50, 30, 19, 37, 28] {   // m a r k Return (evdev codes)
                try input.key(code, pressed: true)
                try input.key(code, pressed: false)
                usleep(150_000)
            }
            #expect(process.wait(timeout: 20) == 0, "the launcher ends after launching: \(tail(of: log, lines: 10))")
        }
        let output = tail(of: log, lines: 20)
        #expect(output.contains("started touch \(marker)"), "\(output)")
        #expect(name == "kwin" || output.contains("with activation token"), "sway gives a token: \(output)")
        var ran = false
        for _ in 0..<100 where !ran { ran = access(marker, F_OK) == 0; if !ran { usleep(50_000) } }
        #expect(ran, "the entry's program ran")
        guard name == "sway" else { return }

        let weston = try HeadlessWeston()
        let (status, fallback) = try weston.runClient([launcher, "--applications", apps, "--seconds", "1"], timeout: 30)
        #expect(status == 0 && fallback.contains("showing an ordinary window"), "\(fallback)")
    }

    @Test("notifyd on sway and kwin with its own session bus: notify-send's toast at the top right, the window sized to it", arguments: ["sway", "kwin"])
    func notifydOnCompositor(_ name: String) throws {
        let notifyd = try Self.binary("notifyd")
        let sway = try Self.compositor(name)
        defer { sway.stop() }
        // A session bus of its own that goes with the script (dbus-run-session leaves its bus
        // running when it is killed). Bounded: the script ends with the daemon, or by itself if
        // the daemon never comes. NameHasOwner starts no other daemon by D-Bus activation.
        let owned = "gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus --method org.freedesktop.DBus.NameHasOwner org.freedesktop.Notifications"
        let script = """
            dbus-daemon --session --fork --print-address=3 --print-pid=4 3>bus.address 4>bus.pid
            export DBUS_SESSION_BUS_ADDRESS="$(cat bus.address)"
            trap 'kill $(cat bus.pid) $daemon 2>/dev/null' EXIT INT TERM
            '\(notifyd)' & daemon=$!
            for i in $(seq 100); do \(owned) 2>/dev/null | grep -q true && break; sleep 0.1; done
            notify-send -t 0 -i dialog-information 'From notify-send' 'A <b>toast</b>'
            wait $daemon
            """
        let (process, log) = try Self.startClient(sway, ["sh", "-c", script])
        defer { process.terminate() }
        let card = (UInt8(0x2a), UInt8(0x2e), UInt8(0x35))
        try MenusOnCompositorsTests.eventually("the toast at the top right (\(tail(of: log, lines: 5)))") {
            let shot = try sway.screenshot(timeout: 30)
            // 360 wide, 8 from the top and right edges of the 640×480 output.
            return Self.near(shot.rgba8(x: 640 - 8 - 180, y: 8 + 60), card) && !Self.near(shot.rgba8(x: 640 - 8 - 370, y: 40), card)
                && !Self.near(shot.rgba8(x: 640 - 8 - 180, y: 200), card)
        }
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

/// The notification daemon on a real (private) session bus, driven by
/// `notify-send` and `gdbus` — clients nobody here wrote (issue 26, item 4).
/// Alone: the daemon answers on the main actor, and notify-send gives up after
/// 25 s — less than a compositor suite beside it can hold the main actor.
@MainActor
@Suite("Notification daemon on a session bus", .isolatedLayerContext(alone: true))
struct NotificationBusTests {
    /// Runs `arguments` against the bus to its end: the exit status and output.
    func run(_ arguments: [String], bus: SessionBus, in dir: String) async throws -> (Int32?, String) {
        let log = dir + "/client-\(arguments[0])-\(UInt32.random(in: 0...UInt32.max)).log"
        let p = try Subprocess.spawn(arguments, environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], directory: dir, logPath: log)
        var status: Int32?
        try await until("\(arguments.joined(separator: " ")) to end") { status = p.wait(timeout: 0); return status != nil }
        return (status, tail(of: log, lines: 20))
    }

    @Test("notify-send shows, replaces (-r) and waits for an action (-A) that a click on the toast's button sends back; gdbus closes one (NotificationClosed) and an unknown ID is an error; server information and capabilities; a second daemon is refused the name; the bus closing is heard")
    func notifySendAndGDBus() async throws {
        var template = Array("/tmp/strata-notify-XXXXXX".utf8CString)
        let dir = String(cString: mkdtemp(&template)!)
        var bus = try SessionBus(in: dir)
        defer { bus.stop() }
        let daemon = NotificationDaemon()
        try daemon.start(busAddress: bus.address)
        defer { daemon.stop() }
        #expect(throws: NotificationServer.StartError.self) { try NotificationServer { _ in }.start(address: bus.address) }

        let (s1, out1) = try await run(["notify-send", "-p", "-a", "tests", "Hello", "World <b>x</b>"], bus: bus, in: dir)
        let id = try #require(out1.split(separator: "\n").last.flatMap { UInt32($0) }, "\(out1)")
        #expect(s1 == 0 && daemon.shown.map(\.summary) == ["Hello"] && daemon.shown.first?.id == id, "\(String(describing: s1)): \(out1)")
        let (s2, out2) = try await run(["notify-send", "-p", "-r", "\(id)", "Hello again"], bus: bus, in: dir)
        #expect(s2 == 0 && out2.contains("\(id)") && daemon.shown.map(\.summary) == ["Hello again"], "\(out2)")

        // An action: notify-send waits until it is invoked.
        let log = dir + "/action.log"
        let waiting = try Subprocess.spawn(["notify-send", "-A", "yes=Yes", "-A", "no=No", "Question?"],
                                           environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], directory: dir, logPath: log)
        defer { waiting.terminate() }
        try await until("the question's toast") { daemon.shown.first?.summary == "Question?" }
        Transaction.flush()
        (MediaTime.clock as? ManualMediaClock)?.advance(by: 1)
        daemon.window.layoutIfNeeded()
        let view = try #require(daemon.column.views.first)
        #expect(view.buttons.map { $0.currentTitle ?? "" } == ["Yes", "No"])
        let yes = view.buttons[0]
        InputDriver(window: daemon.window).click(at: view.convert(Point(x: yes.frame.midX, y: yes.frame.midY), to: nil))
        var status: Int32?
        try await until("notify-send to hear the action") { status = waiting.wait(timeout: 0); return status != nil }
        #expect(status == 0 && tail(of: log, lines: 5).contains("yes"), "\(tail(of: log, lines: 5))")

        let path = "/org/freedesktop/Notifications", iface = "org.freedesktop.Notifications"
        let gdbus = ["gdbus", "call", "--session", "--dest", iface, "--object-path", path, "--method"]
        let (s3, _) = try await run(gdbus + ["\(iface).CloseNotification", "\(id)"], bus: bus, in: dir)
        #expect(s3 == 0 && daemon.shown.isEmpty)
        // NotificationClosed reaches the sender: `notify-send --wait` ends when its toast is closed.
        let byeLog = dir + "/bye.log"
        let bye = try Subprocess.spawn(["notify-send", "--wait", "-t", "0", "Bye"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
                                       directory: dir, logPath: byeLog)
        defer { bye.terminate() }
        try await until("the toast to wait on") { daemon.shown.first?.summary == "Bye" }
        let byeID = daemon.shown[0].id
        #expect(bye.wait(timeout: 0.3) == nil, "still waiting")
        let (s5, _) = try await run(gdbus + ["\(iface).CloseNotification", "\(byeID)"], bus: bus, in: dir)
        var byeStatus: Int32?
        try await until("notify-send --wait to hear NotificationClosed") { byeStatus = bye.wait(timeout: 0); return byeStatus != nil }
        #expect(s5 == 0 && byeStatus == 0)
        let (s4, out4) = try await run(gdbus + ["\(iface).CloseNotification", "424242"], bus: bus, in: dir)
        #expect(s4 != 0 && out4.contains("no notification"), "\(out4)")
        let (_, info) = try await run(gdbus + ["\(iface).GetServerInformation"], bus: bus, in: dir)
        #expect(info.contains("'strata-notifyd', 'Strata'"), "\(info)")
        let (_, caps) = try await run(gdbus + ["\(iface).GetCapabilities"], bus: bus, in: dir)
        #expect(caps.contains("'actions'") && caps.contains("'body-markup'"), "\(caps)")
        // The session ends: the daemon hears it (notifyd then stops).
        var busClosed = false
        daemon.onBusClosed = { busClosed = true }
        bus.stop()
        try await until("the daemon to hear the bus close") { busClosed }
    }
}

/// A screen unplugged under the panel example (issue 26, item 2): no compositor
/// here removes an output (sway 1.7 keeps a disabled one), so the
/// libwayland-server harness does, closing the layer surfaces on it.
@MainActor
@Suite("Panels as screens come and go", .serialized, .mainLayerContext)
struct PanelScreensTests {
    @Test("a panel per screen: one on a screen plugged in, closed (the compositor's `closed`) with the screen unplugged, the other kept")
    func panelPerScreen() throws {
        let harness = try ProtocolHarness(layerShell: true)
        defer { harness.stop() }
        let display = try harness.connect()
        Application.shared.disconnect()   // no window another test left may go on the harness (it refuses xdg surfaces)
        Application.shared.use(display)
        defer { Application.shared.disconnect() }
        let panels = Panels()
        panels.start()
        defer { panels.stop() }
        try display.connection.dispatch(until: { panels.all.first.map { $0.window.frameNumber > 0 } ?? false }, timeout: 5, what: "the first panel drawn")
        #expect(panels.all.count == 1 && panels.all[0].window.size == Size(width: 64, height: 32), "\(panels.all.map(\.window.size))")
        harness.addOutput()
        try display.connection.dispatch(until: { panels.all.count == 2 && panels.all.allSatisfy { $0.window.frameNumber > 0 } }, timeout: 5,
                                        what: "a panel on the new screen")
        let first = try #require(panels.panels[ObjectIdentifier(Screen.screens[0])])
        let second = try #require(panels.panels[ObjectIdentifier(Screen.screens[1])])
        harness.removeOutput()
        try display.connection.dispatch(until: { panels.all.count == 1 && !second.window.isVisible }, timeout: 5, what: "the panel closed with its screen")
        try display.connection.roundtrip()
        harness.read(timeout: 0.5)
        #expect(harness.lines.contains("layer closed") && first.window.isVisible && Screen.screens.count == 1, "\(harness.lines)")
    }
}

/// The examples' desktop entries (issue 25, item 7), read back by the
/// launcher example's own desktop-entry reader.
@MainActor
@Suite("Desktop entries for the examples", .isolatedLayerContext)
struct DesktopEntryInstallTests {
    func install(_ arguments: [String], data: String) throws -> (Int32?, String) {
        let log = data + "/install.log"
        let p = try Subprocess.spawn(["scripts/install-desktop-entries"] + arguments, environment: ["XDG_DATA_HOME": data], directory: nil, logPath: log)
        return (p.wait(timeout: 60), tail(of: log, lines: 20))
    }

    @Test("install-desktop-entries writes an entry per example named after its app id, with the Strata icon, that the launcher reads and can start; a folder without the examples is a clear error")
    func installs() throws {
        var template = Array("/tmp/strata-entries-XXXXXX".utf8CString)
        let data = String(cString: mkdtemp(&template)!)
        let (status, output) = try install([".build/debug"], data: data)
        #expect(status == 0, "\(output)")
        let entries = DesktopEntries(directories: [data + "/applications"], locale: nil)
        #expect(entries.refused.isEmpty, "\(entries.refused)")
        let ids = Set(entries.entries.map(\.id))
        #expect(ids == Set(["strata-demo", "controls", "gallery", "text", "todo", "clock", "launcher"].map { "org.strata.\($0).desktop" }), "\(ids)")
        let controls = try #require(entries.entries.first { $0.id == "org.strata.controls.desktop" })
        #expect(controls.name == "Strata Controls" && controls.icon == "org.strata.Strata")
        let command = try controls.commandLine(files: [])
        #expect(command.count == 1 && command[0].hasSuffix("/.build/debug/controls") && access(command[0], X_OK) == 0, "\(command)")
        #expect(access(data + "/icons/hicolor/scalable/apps/org.strata.Strata.svg", R_OK) == 0)

        let (missingStatus, missing) = try install([data], data: data)
        #expect(missingStatus == 1 && missing.contains("not built") && missing.contains("controls"), "\(missing)")
        let (noFolderStatus, noFolder) = try install([data + "/nowhere"], data: data)
        #expect(noFolderStatus == 1 && noFolder.contains("no folder"), "\(noFolder)")
    }
}
