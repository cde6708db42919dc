@testable import Strata
import FoundationEssentials
import Glibc
import StrataTesting
import Testing

/// Every example with a control in it, used with the keyboard alone (issue 24,
/// item 3): each runs on a headless kwin whose seat takes the keys (kwin's fake
/// input, a keyboard as the app sees a real one), and the focus is followed as
/// an assistive technology follows it — libatspi's focus events.
extension AccessibilityExportTests {
    /// An example on kwin, exported on the accessibility bus, with a listener
    /// recording the events a screen reader follows.
    @MainActor
    final class KeyboardRun {
        let kwin: HeadlessKWin
        var session: AccessibilitySession
        let example: Subprocess
        let input: InjectedInput
        let application: String
        /// The example's: its compositor, runtime directory and session bus.
        let environment: [String: String]
        /// Orca, when asked for, started before the keyboard comes.
        private(set) var orca: Orca?
        private let listener: Subprocess
        private let log: String

        init(_ name: String, width: Int = 1024, height: Int = 768, arguments: [String] = [], withOrca: Bool = false) async throws {
            kwin = try HeadlessKWin(width: width, height: height)
            session = try AccessibilitySession()
            try session.setEnabled(true)
            application = "org.strata.\(name)"
            environment = ["WAYLAND_DISPLAY": kwin.socketName, "XDG_RUNTIME_DIR": kwin.runtimeDirectory,
                           "DBUS_SESSION_BUS_ADDRESS": session.bus.address, "LANG": "en_US.UTF-8"]
            example = try Subprocess.spawn([ShellExamplesOnCompositorsTests.binary(name), "--seconds", "120", "--appearance", "light"] + arguments,
                                           environment: environment, directory: nil, logPath: session.directory + "/\(name).log")
            _ = try await AccessibilityExportTests.client(session, ["tree"], app: application)   // it is on the bus
            let (listener, log) = try AccessibilityExportTests.startClient(session, ["listen", "100", "object:state-changed:focused", "object:state-changed:checked",
                                                                                     "object:state-changed:selected", "object:state-changed:expanded",
                                                                                     "object:property-change:accessible-value"], app: application)
            (self.listener, self.log) = (listener, log)
            try await until("the listener to listen") { ClipboardTests.contents(of: log).contains("listening") }
            if withOrca {
                let orca = try Orca(session, waylandDisplay: kwin.socketPath)
                self.orca = orca
                try await until("Orca to listen", timeout: 30) { ClipboardTests.contents(of: orca.log).contains("object:state-changed:focused") }
                try await Task.sleep(for: .seconds(1))
            }
            // kwin adds its fake keyboard to the seat on the first input: a pointer move wakes it.
            input = try kwin.injectedInput()
            try input.movePointer(toX: 2, y: 2)
            try await Task.sleep(for: .milliseconds(800))
        }

        /// Another program beside the example, in its session; its output goes to the returned log.
        func spawn(_ arguments: [String], log name: String) throws -> (process: Subprocess, log: String) {
            let path = session.directory + "/\(name).log"
            return (try Subprocess.spawn(arguments, environment: environment, directory: nil, logPath: path), path)
        }

        func stop() {
            orca?.stop()
            listener.terminate()
            example.terminate()
            session.stop()
            kwin.stop()
        }

        var events: [Event] {
            ClipboardTests.contents(of: log).split(separator: "\n").compactMap { try? JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
        }

        /// The names focus landed on, in order.
        var focusTrail: [String] { events.filter { $0.type == "object:state-changed:focused" && $0.detail1 == 1 }.map(\.source) }

        /// A key, then a pause for the app to take it and the event to arrive.
        func press(_ code: UInt32, with modifier: UInt32? = nil) async throws {
            try await DesktopPortalTests.press(input, code, with: modifier, pause: 250)
        }

        /// Presses Tab until the focus lands on `name` (at most `limit` times),
        /// each time waiting for the focus to move and, with Orca, for Orca to
        /// speak of where it landed, as its user listens before the next key:
        /// Orca drops an announcement that a newer focus change makes obsolete,
        /// so under load Tabs sent back to back went unsaid.
        func tab(to name: String, limit: Int = 24) async throws {
            for _ in 0..<limit {
                let (moves, said) = (focusTrail.count, orca?.spoken.count ?? 0)
                try await press(Self.tab)
                await Self.wait(upTo: 10) { self.focusTrail.count > moves }
                guard let focused = focusTrail.last else { continue }
                if let orca { await Self.wait(upTo: 10) { orca.spoken.dropFirst(said).contains { $0.contains(focused) } } }
                if focused == name { return }
            }
            Issue.record("Tab never reached \(name): \(focusTrail)")
        }

        /// Waits until `condition` holds, at most `seconds`; going on either way
        /// (what is then missing is what the test asserts).
        static func wait(upTo seconds: Double, _ condition: () -> Bool) async {
            let deadline = MonotonicMediaClock().now + seconds
            while !condition(), MonotonicMediaClock().now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        }

        /// Waits for an event of `type` from `source` with `detail1` (after the `after` first events).
        func expectEvent(_ type: String, from source: String, detail1: Int? = nil, after: Int = 0) async throws {
            try await until("\(type) from \(source)", timeout: 10) {
                self.events.dropFirst(after).contains { $0.type == type && $0.source == source && (detail1 == nil || $0.detail1 == detail1) }
            }
        }

        func eventually(_ what: String, _ condition: (Node) -> Bool) async throws {
            try await AccessibilityExportTests.eventually(session, app: application, what, condition)
        }

        static let tab: UInt32 = 15, space: UInt32 = 57, enter: UInt32 = 28, escape: UInt32 = 1, delete: UInt32 = 111
        static let up: UInt32 = 103, down: UInt32 = 108, right: UInt32 = 106, leftShift: UInt32 = 42
    }

    @Test("keyboard only, with Orca, the controls example: Tab reaches every enabled control once in reading order — buttons, switches, sliders, fields, the menu buttons, the list, the date picker — and wraps; Shift-Tab goes back; Space flips a switch, Right goes to the next page dot and steps a slider, Up steps the stepper, Space opens a menu and Escape closes it, Down and Return select a list row; Orca says each control as the focus comes to it")
    func controlsByKeyboard() async throws {
        let run = try await KeyboardRun("controls", withOrca: true)
        defer { run.stop() }
        let order = ["Plain", "Filled", "Pressed", "Switch 1", "Switch 2", "Pages", "Slider 1", "Slider 2", "Stepper", "Your name", "Text", "Password", "Edit", "Size", "Search", "Apples", "Date"]
        try await run.tab(to: "Plain")   // from where the example put the focus
        let start = run.focusTrail.count
        for _ in 0..<order.count { try await run.press(KeyboardRun.tab) }
        try await until("the focus events", timeout: 10) { run.focusTrail.count >= start + order.count }
        #expect(Array(run.focusTrail.dropFirst(start)) == order.dropFirst() + ["Plain"], "the disabled button and switch are skipped; the list is one stop")
        try await run.press(KeyboardRun.tab, with: KeyboardRun.leftShift)
        try await until("Shift-Tab", timeout: 5) { run.focusTrail.last == "Date" }

        try await run.tab(to: "Switch 1")
        try await run.press(KeyboardRun.space)
        try await run.expectEvent("object:state-changed:checked", from: "Switch 1", detail1: 1)
        try await run.tab(to: "Pages")
        let beforePage = run.events.count
        try await run.press(KeyboardRun.right)
        try await run.expectEvent("object:property-change:accessible-value", from: "Pages", after: beforePage)
        try await run.tab(to: "Slider 1")
        let before = run.events.count
        try await run.press(KeyboardRun.right)
        try await run.expectEvent("object:property-change:accessible-value", from: "Slider 1", after: before)
        try await run.tab(to: "Stepper")
        let beforeStep = run.events.count
        try await run.press(KeyboardRun.up)
        try await run.expectEvent("object:property-change:accessible-value", from: "Stepper", after: beforeStep)
        try await run.tab(to: "Edit")
        try await run.press(KeyboardRun.space)
        try await run.expectEvent("object:state-changed:expanded", from: "Edit", detail1: 1)
        try await run.press(KeyboardRun.escape)
        try await run.expectEvent("object:state-changed:expanded", from: "Edit", detail1: 0)
        try await run.tab(to: "Apples")
        try await run.press(KeyboardRun.down)
        try await until("the next row focused", timeout: 5) { run.focusTrail.last == "Bananas" }
        try await run.press(KeyboardRun.enter)
        try await run.expectEvent("object:state-changed:selected", from: "Bananas", detail1: 1)
        // Orca said each control as the focus came to it (its speech can lag the focus a little).
        let orca = try #require(run.orca)
        for (name, role) in [("Plain", "push button"), ("Switch 1", "toggle button"), ("Slider 1", "slider"), ("Your name", "text"),
                             ("Password", "password text"), ("Edit", "push button"), ("Apples", ""), ("Date", "push button")] {
            try await until("Orca saying \(name) (\(orca.spoken))", timeout: 10) { orca.spoken.contains { $0.hasPrefix(name) && (role.isEmpty || $0.contains(role)) } }
        }
    }

    @Test("keyboard only, with Orca, the todo example: Tab to the field, type and Return adds a to-do; Tab to the list lands on it, Space checks it, Delete deletes it; Tab to Clear done, Space asks, Return clears — what a blind user does, with the focus followed through libatspi and Orca saying each step")
    func todoByKeyboard() async throws {
        let run = try await KeyboardRun("todo", width: 800, height: 700, withOrca: true)
        defer { run.stop() }
        let orca = try #require(run.orca)
        try await run.tab(to: "Something to do")
        try await DesktopPortalTests.type(run.input, "bread")
        try await run.press(KeyboardRun.enter)
        try await run.tab(to: "bread")
        try await run.press(KeyboardRun.space)
        try await run.expectEvent("object:state-changed:checked", from: "bread", detail1: 1)
        // Space checked the row: Orca shows it on the braille line (it speaks a list
        // item's check only on focus). Read before Delete takes the row away.
        let checkedLine = "BRAILLE LINE:  'org.strata.todo application To do frame list <x> bread list item'"
        await KeyboardRun.wait(upTo: 10) { ClipboardTests.contents(of: orca.log).contains(checkedLine) }
        #expect(ClipboardTests.contents(of: orca.log).contains(checkedLine))
        try await run.press(KeyboardRun.delete)
        try await run.eventually("the row deleted") { $0.find("bread") == nil && $0.find("Buy oat milk") != nil }
        try await run.tab(to: "Clear done")
        try await run.press(KeyboardRun.space)
        try await run.eventually("the alert") { $0.find("Clear 1 done item?") != nil }
        try await run.press(KeyboardRun.enter)
        try await run.eventually("the done item cleared") {
            $0.find("Water the plants") == nil && $0.find("Clear 1 done item?") == nil && $0.find("Buy oat milk") != nil
        }
        // What Orca said, in order (other things between; a phrase's full stop depends on timing).
        let expected = ["Something to do text", "Add push button", "List with 5 items", "bread not checked", "Buy oat milk not checked",
                        "alert Clear 1 done item?", "They cannot be brought back", "Clear done push button"]
        func missing() -> (word: String, said: [String])? {
            let said = orca.spoken.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            var rest = said[...]
            for words in expected {
                guard let i = rest.firstIndex(of: words) else { return (words, said) }
                rest = rest[(i + 1)...]
            }
            return nil
        }
        // The last (the focus back on the button) may come a moment after the alert goes.
        await KeyboardRun.wait(upTo: 10) { missing() == nil }
        if let (words, said) = missing() { Issue.record("Orca did not say “\(words)” after what came before: \(said)") }
    }

    @Test("keyboard only, with Orca, the settings example's grid of colours (a collection view): Tab lands on its first item, the arrows move by place and Orca says each colour, Return chooses it")
    func settingsGridByKeyboard() async throws {
        let run = try await KeyboardRun("settings", arguments: ["--tab", "colours"], withOrca: true)
        defer { run.stop() }
        let orca = try #require(run.orca)
        try await run.tab(to: "Red")
        try await run.press(KeyboardRun.right)
        try await until("the focus on Orange", timeout: 10) { run.focusTrail.last == "Orange" }
        try await run.press(KeyboardRun.down)
        try await until("the focus a line down", timeout: 10) { run.focusTrail.last != "Orange" }
        let below = try #require(run.focusTrail.last)
        #expect(["Cyan", "Teal", "Blue", "Indigo"].contains(below), "a line down from Orange: \(run.focusTrail)")
        try await run.press(KeyboardRun.enter)
        try await run.eventually("the colour chosen") { $0.find("Chosen: \(below)") != nil }
        let said = orca.spoken.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        for name in ["Red", "Orange", below] {
            #expect(said.contains { $0.hasPrefix(name) }, "Orca did not say “\(name)”: \(said)")
        }
    }

    @Test("keyboard only, with Orca, the settings example's list: Tab reaches the switches and the stepper in their rows, Space flips Bold text, Up steps the text size, Space on Allow notifications takes its options out of the list; Orca says each control with its row's title")
    func settingsListByKeyboard() async throws {
        let run = try await KeyboardRun("settings", withOrca: true)
        defer { run.stop() }
        let orca = try #require(run.orca)
        try await run.tab(to: "Bold text")
        try await run.press(KeyboardRun.space)
        try await run.expectEvent("object:state-changed:checked", from: "Bold text", detail1: 1)
        try await run.tab(to: "Text size")
        try await run.press(KeyboardRun.up)
        try await run.expectEvent("object:property-change:accessible-value", from: "Text size")
        try await run.tab(to: "Allow notifications")
        try await run.press(KeyboardRun.space)
        try await run.eventually("the notification options out of the list") { $0.find("Sounds") == nil && $0.find("Badge count") == nil }
        let said = orca.spoken.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        for name in ["Bold text", "Text size", "Allow notifications"] {
            #expect(said.contains { $0.hasPrefix(name) }, "Orca did not say “\(name)”: \(said)")
        }
    }

    @Test("keyboard only, with Orca, the form example: Tab goes through the fields named by their captions, typing fills them, Space on Create account shows the messages of the fields that do not pass; Orca says each field with its caption")
    func formByKeyboard() async throws {
        let run = try await KeyboardRun("form", withOrca: true)
        defer { run.stop() }
        let orca = try #require(run.orca)
        try await run.tab(to: "Name")
        try await DesktopPortalTests.type(run.input, "ada")
        try await run.tab(to: "Email")
        try await DesktopPortalTests.type(run.input, "bad")
        try await run.tab(to: "Password")
        try await DesktopPortalTests.type(run.input, "short")
        try await run.tab(to: "Create account")
        try await run.press(KeyboardRun.space)
        try await run.eventually("the messages under the fields") { $0.find("Use at least 8 characters.") != nil }
        let said = orca.spoken.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
        for words in ["Name", "Email", "Password", "Create account push button"] {
            #expect(said.contains { $0.hasPrefix(words) }, "Orca did not say “\(words)”: \(said)")
        }
    }

    @Test("keyboard only, with Orca, the launcher on kwin's shell layer: the field has the keyboard, Down and Up move the chosen application and Orca reads each (the field's active descendant, the keyboard staying in the field), typing filters and Orca reads the first match")
    func launcherByKeyboard() async throws {
        let apps = makeTemporaryDirectory("strata-launcher-apps")
        defer { removeTemporaryDirectory(apps) }
        for (file, name) in [("atlas.desktop", "Atlas"), ("marker.desktop", "Pen marker"), ("zither.desktop", "Zither")] {
            let text = "[Desktop Entry]\nType=Application\nName=\(name)\nExec=false\n"
            let fd = open(apps + "/" + file, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            _ = text.withCString { write(fd, $0, strlen($0)) }
            close(fd)
        }
        let run = try await KeyboardRun("launcher", arguments: ["--applications", apps], withOrca: true)
        defer { run.stop() }
        let orca = try #require(run.orca)
        func said() -> [String] { orca.spoken.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 } }
        func chosen() -> [String] { said().filter { ["Atlas", "Pen marker", "Zither"].contains($0) } }
        // Each step waits for Orca to speak, as a listener does before the next key:
        // Orca drops an announcement that a newer one from the same element makes
        // obsolete, so under load keys sent back to back were heard as fewer names.
        func step(_ what: String, _ act: () async throws -> Void) async throws {
            let before = chosen().count
            try await act()
            do { try await until("Orca to speak after \(what)", timeout: 20) { chosen().count > before } } catch {
                Issue.record("after \(what), Orca said \(orca.spoken); events \(run.events.map { "\($0.type) \($0.source)" })")
                throw error
            }
        }
        try await step("Down") { try await run.press(KeyboardRun.down) }
        try await step("the second Down") { try await run.press(KeyboardRun.down) }
        try await step("Up") { try await run.press(KeyboardRun.up) }
        try await step("typing “zit”") { try await DesktopPortalTests.type(run.input, "zit") }
        let (said, chosen) = (said(), chosen())
        #expect(chosen.starts(with: ["Pen marker", "Zither", "Pen marker"]), "Down, Down, Up: \(said)")
        #expect(chosen.last == "Zither", "typing “zit” chose Zither: \(said)")
    }

    @Test("the panel on kwin's shell layer, read and operated through libatspi as a screen reader does: its menu button (a push button with a menu), the clock and the status as text; pressing the button opens the menu, whose items are read")
    func panelThroughAssistiveTechnology() async throws {
        let run = try await KeyboardRun("panel")
        defer { run.stop() }
        try await run.eventually("the panel's tree") { root in
            guard let bar = root.children.first, let button = bar.find("Strata") else { return false }
            let texts = bar.children.filter { $0.role == "label" }.compactMap(\.text)
            return button.role == "push button" && button.states.contains("has popup")
                && texts.contains { $0.contains(":") } && texts.count >= 2   // the clock (hh:mm) and the status
        }
        #expect(try await AccessibilityExportTests.client(run.session, ["do", "Strata", "click"], app: run.application).last == #"{"done": true}"#)
        try await run.eventually("the menu open, its items read") { root in
            root.find("Show Seconds") != nil && root.find("Quit Panel") != nil && root.find("Strata")?.states.contains("expanded") == true
        }
    }

    @Test("the osd on kwin's overlay layer, read through libatspi: one element named by its title with the level as its value; a second `osd` call reaches the running one, and the new level comes to the screen reader as a value change")
    func osdThroughAssistiveTechnology() async throws {
        let run = try await KeyboardRun("osd", arguments: ["40", "--timeout", "100"])
        defer { run.stop() }
        try await run.eventually("the level read") { root in
            let pill = root.find("Volume")
            return pill?.attributes?["value"] == "40 %" && pill?.children.isEmpty == true
        }
        let (second, log) = try run.spawn([ShellExamplesOnCompositorsTests.binary("osd"), "70"], log: "osd-again")
        #expect(second.wait(timeout: 10) == 0, "the second call hands its level over and ends: \(ClipboardTests.contents(of: log))")
        try await run.eventually("the new level read") { $0.find("Volume")?.attributes?["value"] == "70 %" }
        try await run.expectEvent("object:property-change:accessible-value", from: "Volume")
    }

    @Test("notifyd on kwin's shell layer, read and operated through libatspi: a notification sent by notify-send is a notification holding its summary and body in text and its action as a push button, and Orca says it as it comes; pressing the button the way a screen reader does ends notify-send with the action's name")
    func notifydThroughAssistiveTechnology() async throws {
        let run = try await KeyboardRun("notifyd", withOrca: true)
        defer { run.stop() }
        let (sender, log) = try run.spawn(["notify-send", "--app-name", "Mail", "--action", "open=Open message", "New mail", "From the garden"], log: "notify-send")
        defer { _ = sender.terminate() }
        try await run.eventually("the toast read") { root in
            let texts = Self.nodes(root).filter { $0.role == "label" }.compactMap { $0.text ?? $0.name }
            return texts.contains("New mail") && texts.contains("From the garden") && root.find("Open message")?.role == "push button"
                && Self.nodes(root).contains { $0.role == "notification" && Self.nodes($0).contains { $0.name == "New mail" } }
        }
        // Orca speaks a notification as it is shown, though the focus is elsewhere (as GNOME's are read).
        let orca = try #require(run.orca)
        try await until("Orca to say the notification: \(orca.spoken)", timeout: 20) {
            let said = orca.spoken
            return zip(said, said.dropFirst()).contains { $0 == "notification." && $1.hasPrefix("New mail From the garden") }
        }
        #expect(try await AccessibilityExportTests.client(run.session, ["do", "Open message", "click"], app: run.application).last == #"{"done": true}"#)
        #expect(sender.wait(timeout: 10) == 0, "notify-send heard the action")
        #expect(ClipboardTests.contents(of: log).split(separator: "\n").contains("open"), "\(ClipboardTests.contents(of: log))")
        try await run.eventually("the toast gone") { $0.find("Open message") == nil }
    }

    /// A node and every node below it, depth first.
    nonisolated static func nodes(_ n: Node) -> [Node] { [n] + n.children.flatMap(nodes) }

    @Test("keyboard only, with Orca, the text example: Tab reaches its two buttons and wraps; Orca says them")
    func textByKeyboard() async throws {
        let run = try await KeyboardRun("text", withOrca: true)
        defer { run.stop() }
        for _ in 0..<3 { try await run.press(KeyboardRun.tab) }
        try await until("the focus events", timeout: 10) { run.focusTrail.count >= 3 }
        #expect(run.focusTrail.suffix(3) == ["Open Text…", "Pango’s Site", "Open Text…"])
        let orca = try #require(run.orca)
        try await until("Orca to say the buttons: \(orca.spoken)", timeout: 20) {
            orca.spoken.contains { $0.hasPrefix("Open Text… push button") } && orca.spoken.contains { $0.hasPrefix("Pango’s Site push button") }
        }
    }

    @Test("the gallery, clock and demo show pictures only: no element in their trees takes the focus or has an action, so there is nothing a keyboard must reach — and each picture is named")
    func picturesHaveNothingToOperate() async throws {
        let weston = try HeadlessWeston(width: 1024, height: 768)
        defer { weston.stop() }
        var session = try AccessibilitySession()
        defer { session.stop() }
        try session.setEnabled(true)
        for example in ["gallery", "clock", "strata-demo"] {
            let app = try Subprocess.spawn([ShellExamplesOnCompositorsTests.binary(example), "--seconds", "60"],
                                           environment: ["WAYLAND_DISPLAY": weston.socketName, "XDG_RUNTIME_DIR": weston.runtimeDirectory,
                                                         "DBUS_SESSION_BUS_ADDRESS": session.bus.address],
                                           directory: nil, logPath: session.directory + "/\(example).log")
            defer { app.terminate() }
            let root = try await Self.tree(session, app: "org.strata.\(example)")
            let all = root.children.flatMap(Self.nodes)
            let content = all.filter { !["Minimize", "Maximize", "Close"].contains($0.name) && $0.role != "frame" }
            #expect(!content.isEmpty && content.allSatisfy { $0.role == "image" && !$0.name.isEmpty }, "\(example): \(content.map { ($0.role, $0.name) })")
            #expect(content.allSatisfy { !$0.states.contains("focusable") && ($0.actions ?? []).isEmpty }, "\(example)")
        }
    }
}
