@testable import Strata
import FoundationEssentials
import Glibc
import StrataTesting
import Testing

/// The app as assistive technologies see it: exported over AT-SPI on a private
/// session bus with at-spi2-core's bus launcher and registry, read and operated
/// through libatspi (pyatspi, as Orca and accerciser do), on a headless weston.
@MainActor
@Suite("Accessibility over AT-SPI", .mainLayerContext)
struct AccessibilityExportTests {
    /// A private session bus where at-spi2-core starts on demand.
    @MainActor
    struct AccessibilitySession {
        let directory: String
        var bus: SessionBus
        /// The app's id before the test named it, to give back.
        private var previousApplicationID: String?

        /// `namingTheApp`: the test's app (this process) is called ``appName`` until ``stop()``.
        init(namingTheApp: Bool = false) throws {
            if namingTheApp {
                previousApplicationID = Application.shared.applicationID
                Application.shared.applicationID = appName
            }
            directory = makeTemporaryDirectory("strata-a11y")
            bus = try SessionBus(in: directory, environment: ["XDG_RUNTIME_DIR": directory, "HOME": directory, "GSETTINGS_BACKEND": "memory"])
        }

        /// Sets `org.a11y.Status.IsEnabled`, as accerciser does (it starts the bus launcher).
        func setEnabled(_ enabled: Bool) throws {
            let (status, output) = try bus.call("org.a11y.Bus", "/org/a11y/bus", "org.freedesktop.DBus.Properties.Set",
                                                ["org.a11y.Status", "IsEnabled", enabled ? "<true>" : "<false>"])
            #expect(status == 0, "\(output)")
            if enabled { try waitForAccessibilityBus() }
        }

        /// Setting IsEnabled starts at-spi's bus launcher, which starts the
        /// accessibility bus: on a loaded machine that took long enough for a
        /// client started at once to fail ("Couldn't connect to accessibility bus").
        /// Waits (up to 60 s) until the bus the launcher names answers.
        private func waitForAccessibilityBus() throws {
            let deadline = MonotonicMediaClock().now + 60
            var last = ""
            while MonotonicMediaClock().now < deadline {
                let (status, output) = try bus.call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus.GetAddress")
                last = output
                // The reply is `('unix:path=…,guid=…',)`.
                if status == 0, let address = output.split(separator: "'").dropFirst().first,
                   try bus.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetId", onBusAt: String(address)).status == 0 {
                    return
                }
                usleep(200_000)
            }
            Issue.record("the accessibility bus did not answer within 60 s: \(last)")
        }

        mutating func stop() {
            bus.stop()
            removeTemporaryDirectory(directory)
            if let previousApplicationID { Application.shared.applicationID = previousApplicationID }
        }
    }

    static let appName = "org.strata.AccessibilityTest"

    /// This process's app on a headless compositor (`connect`: `appOnWeston`,
    /// `appOnKWin`), exported over AT-SPI on a private bus as ``appName``.
    /// ``stop()`` ends the bus, then the app's connection.
    @MainActor
    struct ExportedApp<C: Compositor> {
        let compositor: C
        private(set) var session: AccessibilitySession
        let app = Application.shared

        init<D>(_ connect: () throws -> (C, D)) throws {
            compositor = try connect().0
            do { session = try AccessibilitySession(namingTheApp: true) } catch {
                Application.shared.disconnect()
                throw error
            }
        }

        mutating func stop() {
            session.stop()
            withExtendedLifetime(compositor) { Application.shared.disconnect() }
        }
    }

    /// Starts the test's assistive technology with `arguments`; its process and output file.
    static func startClient(_ session: AccessibilitySession, _ arguments: [String], app: String = appName) throws -> (Subprocess, String) {
        let script = getcwd(nil, 0).map { p in defer { free(p) }; return String(cString: p) }! + "/Tests/Fixtures/atspi-client.py"
        let log = session.directory + "/client-\(UInt64(MonotonicMediaClock().now * 1e6)).log"
        let child = try Subprocess.spawn(["/usr/bin/python3", script, app] + arguments,
                                         environment: ["DBUS_SESSION_BUS_ADDRESS": session.bus.address, "NO_AT_BRIDGE": "1"],
                                         directory: session.directory, logPath: log)
        return (child, log)
    }

    /// Runs the test's assistive technology with `arguments`, turning the app's
    /// loop meanwhile (the calls are answered there); its output lines.
    static func client(_ session: AccessibilitySession, _ arguments: [String], app: String = appName, timeout: Double = 60) async throws -> [String] {
        let (child, log) = try startClient(session, arguments, app: app)
        var status: Int32?
        try await until("the AT-SPI client \(arguments)", timeout: timeout) {
            try? Application.shared.loop?.turn(timeout: 0.01)
            status = child.wait(timeout: 0)
            return status != nil
        }
        let output = ClipboardTests.contents(of: log)
        #expect(status == 0, "\(arguments): \(output)")
        let lines = output.split(separator: "\n").map(String.init)
        // The client's notes on reaching the bus (a retried step), kept in the run's log.
        for note in lines where note.hasPrefix("atspi-client:") { print("\(arguments): \(note)") }
        return lines
    }

    /// A node of the tree the client printed.
    struct Node: Decodable {
        var role: String
        var name: String
        var states: [String]
        var extents: [Int]?
        var actions: [String]?
        var value: [Double]?
        var text: String?
        var caret: Int?
        var relations: [String: [String]]?
        var locale: String?
        /// The object's attributes (a value that is not a number is `value`).
        var attributes: [String: String]?
        var children: [Node]

        /// The first node, depth first, called `name`.
        func find(_ name: String) -> Node? {
            if self.name == name { return self }
            for child in children { if let found = child.find(name) { return found } }
            return nil
        }
    }

    /// The tree of the application called `app`, as the client read it.
    static func tree(_ session: AccessibilitySession, app: String = appName) async throws -> Node {
        let lines = try await client(session, ["tree"], app: app)
        return try JSONDecoder().decode(Node.self, from: Data(try #require(lines.last).utf8))
    }

    /// Reads the tree of `app` until `condition` holds of it (lists animate rows
    /// in and out), at most 20 s.
    static func eventually(_ session: AccessibilitySession, app: String, _ what: String, _ condition: (Node) -> Bool) async throws {
        let deadline = MonotonicMediaClock().now + 20
        while MonotonicMediaClock().now < deadline {
            if condition(try await tree(session, app: app)) { return }
            try await Task.sleep(for: .milliseconds(200))
        }
        Issue.record("timed out waiting for \(what)")
    }
}

extension AccessibilityExportTests {
    @Test("libatspi reads the window's tree — roles, names, states, values, text and extents inside the window — and operates it: a press runs the button's action, a toggle flips the switch, a value moves the slider, EditableText sets a field; a disabled button refuses")
    func readAndOperate() async throws {
        var exported = try ExportedApp { try appOnWeston() }
        defer { exported.stop() }
        let (session, app) = (exported.session, exported.app)

        let window = Window(title: "Form", size: Size(width: 400, height: 300))
        let heading = Label(frame: Rect(x: 20, y: 10, width: 200, height: 24))
        heading.text = "Settings"
        heading.accessibilityTraits.insert(.header)
        let wifi = Switch(frame: Rect(x: 300, y: 48, width: 51, height: 31))
        wifi.accessibilityLabel = "Wi-Fi"
        let volume = Slider(frame: Rect(x: 20, y: 100, width: 200, height: 30))
        volume.accessibilityLabel = "Volume"
        let name = TextField(frame: Rect(x: 20, y: 150, width: 200, height: 30))
        name.placeholder = "Name"
        let add = Button(frame: Rect(x: 20, y: 200, width: 100, height: 30))
        add.setTitle("Add", for: .normal)
        let off = Button(frame: Rect(x: 140, y: 200, width: 100, height: 30))
        off.setTitle("Off", for: .normal)
        off.isEnabled = false
        var added = 0
        add.addAction(for: .primaryActionTriggered) { _ in added += 1 }
        for v in [heading, wifi, volume, name, add, off] as [View] { window.rootView.addSubview(v) }
        window.show()
        try await until("the window's first frame") { try? app.loop?.turn(timeout: 0.01); return window.frameNumber > 0 }

        try session.setEnabled(true)
        app.followAccessibilityStatus(busAddress: session.bus.address)
        try await until("the export to start") { try? app.loop?.turn(timeout: 0.01); return app.isAccessibilityExported }

        let root = try await Self.tree(session)
        #expect(root.role == "application" && root.name == Self.appName)
        let frame = try #require(root.children.first)
        #expect(frame.role == "frame" && frame.name == "Form")
        // weston draws no frame: the window's own title bar buttons come first.
        #expect(frame.children.map(\.name) == ["Minimize", "Maximize", "Close", "Settings", "Wi-Fi", "Volume", "Name", "Add", "Off"])
        #expect(frame.children.map(\.role) == ["push button", "push button", "push button", "heading", "toggle button", "slider", "text", "push button", "push button"])
        let wifiNode = try #require(frame.find("Wi-Fi"))
        #expect(wifiNode.states.contains("checkable") && !wifiNode.states.contains("checked") && wifiNode.states.contains("enabled"))
        let origin = window.rootView.convert(Point(x: 300, y: 48), to: nil)
        #expect(origin.x > 300 && origin.y > 48, "the window's frame (title bar, shadow) lies around its content")
        #expect(wifiNode.extents == [Int(origin.x), Int(origin.y), 51, 31], "the window surface's coordinates")
        #expect(frame.find("Volume")?.value == [0, 0, 1])
        #expect(frame.find("Name")?.states.contains("editable") == true)
        #expect(frame.find("Add")?.actions == ["click"])
        #expect(frame.find("Off").map { !$0.states.contains("sensitive") && !$0.states.contains("enabled") } == true)
        #expect(frame.find("Settings")?.text == "Settings")

        #expect(try await Self.client(session, ["do", "Add", "click"]).last == #"{"done": true}"#)
        #expect(added == 1)
        #expect(try await Self.client(session, ["do", "Off", "click"]).last == #"{"done": false}"#, "a disabled button refuses")
        #expect(try await Self.client(session, ["do", "Wi-Fi", "toggle"]).last == #"{"done": true}"#)
        #expect(wifi.isOn)
        #expect(try await Self.tree(session).find("Wi-Fi")?.states.contains("checked") == true)
        _ = try await Self.client(session, ["set-value", "Volume", "0.8"])
        #expect(abs(volume.value - 0.8) < 1e-9)
        #expect(try await Self.client(session, ["set-text", "Name", "Ada Lovelace"]).last == #"{"done": true}"#)
        #expect(name.text == "Ada Lovelace")
        let field = try #require(try await Self.tree(session).find("Name"))
        #expect(field.text == "Ada Lovelace" && field.caret == 12)
        // Where a character is: "L" of "Lovelace", inside the field, right of "A"; Text finds it there again.
        struct Character: Decodable { var extents: [Int]; var offset: Int }
        func character(_ i: Int) async throws -> Character {
            try JSONDecoder().decode(Character.self, from: Data(try #require(try await Self.client(session, ["char-extents", "Name", "\(i)"]).last).utf8))
        }
        let a = try await character(0), l = try await character(4)
        let box = try #require(field.extents)
        #expect(l.extents[0] > a.extents[0] + a.extents[2] && l.extents[2] > 2 && l.extents[2] < 20, "\(a) \(l)")
        #expect(l.extents[0] >= box[0] && l.extents[0] + l.extents[2] <= box[0] + box[2] && l.extents[1] >= box[1] && l.extents[1] + l.extents[3] <= box[1] + box[3])
        #expect(a.offset == 0 && l.offset == 4)

        // Bad input: a label of 1 MB is read whole; an assistive technology that goes away in the
        // middle of a walk leaves the app answering the next one.
        let long = Label(frame: Rect(x: 20, y: 250, width: 300, height: 30))
        long.text = String(repeating: "a", count: 1_000_000)
        window.rootView.addSubview(long)
        #expect(try await Self.tree(session).children.first?.children.last?.name.count == 1_000_000)
        long.removeFromSuperview()
        let (walker, _) = try Self.startClient(session, ["walk", "100"])
        let started = MonotonicMediaClock().now
        while MonotonicMediaClock().now - started < 1 { try? app.loop?.turn(timeout: 0.01) }   // under way
        walker.terminate()
        #expect(try await Self.tree(session).children.first?.children.count == 9)
    }
}

extension AccessibilityExportTests {
    /// One event the client heard.
    struct Event: Decodable {
        var type: String
        var source: String
        var role: String
        var detail1: Int
        var data: String?
    }

    @Test("events reach libatspi: focus follows the first responder as Tab moves it, a switch's checked state and a field's text change, an announcement — and only events someone registered for are sent; a modal alert hides the rest of the window; with no assistive technology asking, nothing is exported, and it stops when asked to")
    func eventsAndModality() async throws {
        var exported = try ExportedApp { try appOnWeston() }
        defer { exported.stop() }
        let (session, app) = (exported.session, exported.app)

        let window = Window(title: "Events", size: Size(width: 300, height: 200))
        let name = TextField(frame: Rect(x: 20, y: 20, width: 200, height: 30))
        name.placeholder = "Name"
        let wifi = Switch(frame: Rect(x: 20, y: 70, width: 51, height: 31))
        wifi.accessibilityLabel = "Wi-Fi"
        let add = Button(frame: Rect(x: 20, y: 120, width: 100, height: 30))
        add.setTitle("Add", for: .normal)
        for v in [name, wifi, add] as [View] { window.rootView.addSubview(v) }
        window.show()
        try await until("the window's first frame") { try? app.loop?.turn(timeout: 0.01); return window.frameNumber > 0 }

        // Nobody asks yet: no export, no accessibility bus.
        app.followAccessibilityStatus(busAddress: session.bus.address)
        try await Task.sleep(for: .milliseconds(500))
        for _ in 0..<20 { try? app.loop?.turn(timeout: 0.01) }
        #expect(!app.isAccessibilityExported)
        try session.setEnabled(true)
        try await until("the export to start when asked") { try? app.loop?.turn(timeout: 0.01); return app.isAccessibilityExported }

        // Exported, but nobody listens to events yet: none is sent.
        let exporter = try #require(app.accessibilityExporter)
        try await until("the registry to say who listens") { try? app.loop?.turn(timeout: 0.01); return exporter.listeners.registered != nil }
        let quiet = exporter.eventsSent
        name.text = "x"
        wifi.setOn(true, animated: false)
        add.setTitle("Plus", for: .normal)
        name.becomeFirstResponder()
        Accessibility.post(notification: .announcement, argument: "Nobody hears this")
        for _ in 0..<20 { try? app.loop?.turn(timeout: 0.01) }
        #expect(exporter.eventsSent == quiet, "no listener, no signal")
        name.resignFirstResponder()
        name.text = ""
        wifi.setOn(false, animated: false)
        add.setTitle("Add", for: .normal)
        for _ in 0..<5 { try? app.loop?.turn(timeout: 0.01) }

        // Listening 12 s: under load the client's bus traffic lags, and an event that comes after it stops is lost.
        let (listener, log) = try Self.startClient(session, ["listen", "12", "object:state-changed:focused", "object:state-changed:checked",
                                                             "object:text-changed", "object:announcement", "object:state-changed:showing"])
        defer { listener.terminate() }
        try await until("the listener to listen") { try? app.loop?.turn(timeout: 0.01); return ClipboardTests.contents(of: log).contains("listening") }
        try await until("the app to know of the listener") {
            try? app.loop?.turn(timeout: 0.01)
            // The listener registers its events one by one: wait for the last.
            return exporter.listeners.wants("org.a11y.atspi.Event.Object", "StateChanged", detail: "focused")
                && exporter.listeners.wants("org.a11y.atspi.Event.Object", "Announcement", detail: "")
                && exporter.listeners.wants("org.a11y.atspi.Event.Object", "StateChanged", detail: "showing")
        }
        #expect(!exporter.listeners.wants("org.a11y.atspi.Event.Object", "PropertyChange", detail: "accessible-name"))
        let keys = InputDriver(window: window)
        name.becomeFirstResponder()
        keys.type("Ada")
        keys.pressKey(keysym: 0xff09)      // Tab: to the switch
        keys.releaseKey(keysym: 0xff09)
        keys.pressKey(keysym: 0x20)        // Space: on
        keys.releaseKey(keysym: 0x20)
        Accessibility.post(notification: .announcement, argument: "Saved")
        for _ in 0..<5 { try? app.loop?.turn(timeout: 0.01) }
        let sent = exporter.eventsSent
        add.setTitle("Plus", for: .normal)   // a name change: nobody listens to those
        for _ in 0..<5 { try? app.loop?.turn(timeout: 0.01) }
        #expect(exporter.eventsSent == sent && sent > quiet)
        // Notifications are told as shown: one added to a shown window, one in a window shown after it was added.
        let toast = View(frame: Rect(x: 150, y: 70, width: 120, height: 30))
        toast.accessibilityContainerType = .notification
        toast.accessibilityLabel = "Copied"
        window.rootView.addSubview(toast)
        let later = Window(title: "Later", size: Size(width: 200, height: 100))
        let banner = View(frame: Rect(x: 10, y: 10, width: 150, height: 30))
        banner.accessibilityContainerType = .notification
        banner.accessibilityLabel = "Downloaded"
        later.rootView.addSubview(banner)
        try await Task.sleep(for: .milliseconds(300))   // the export's end of turn passes: the banner's window is not shown yet
        later.show()
        for _ in 0..<5 { try? app.loop?.turn(timeout: 0.01) }
        try await until("the listener to finish", timeout: 40) {
            try? app.loop?.turn(timeout: 0.01)
            return listener.wait(timeout: 0) != nil
        }
        let events = ClipboardTests.contents(of: log).split(separator: "\n").compactMap { try? JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
        let focus = events.filter { $0.type == "object:state-changed:focused" }.map { "\($0.source) \($0.detail1)" }
        #expect(focus == ["Name 1", "Name 0", "Wi-Fi 1"], "\(ClipboardTests.contents(of: log))")
        #expect(events.contains { $0.type == "object:state-changed:checked" && $0.source == "Wi-Fi" && $0.detail1 == 1 }, "\(events)")
        #expect(events.contains { $0.type.hasPrefix("object:text-changed") && $0.source == "Name" }, "\(events)")
        #expect(events.contains { $0.type == "object:announcement" && $0.data == "Saved" }, "\(events)")
        let shown = events.filter { $0.type == "object:state-changed:showing" && $0.detail1 == 1 }.map(\.source)
        #expect(shown == ["Copied", "Downloaded"], "\(events)")
        later.close()
        toast.removeFromSuperview()

        // A modal alert: only it is in reach.
        let host = ViewController()
        window.rootViewController = host
        let alert = AlertController(title: "Delete?", message: "It cannot be undone.", preferredStyle: .alert)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel, handler: nil))
        alert.addAction(AlertAction(title: "Delete", style: .destructive, handler: nil))
        host.present(alert, animated: false)
        let frame = try #require(try await Self.tree(session).children.first)
        #expect(frame.children.map(\.name) == ["Minimize", "Maximize", "Close", "Delete?"], "only the frame's buttons and the alert")
        #expect(frame.children.last?.role == "alert")
        #expect(frame.children.last?.children.map(\.name) == ["Delete?", "It cannot be undone.", "Cancel", "Delete"])

        try session.setEnabled(false)
        try await until("the export to stop") { try? app.loop?.turn(timeout: 0.01); return !app.isAccessibilityExported }
    }
}

extension AccessibilityExportTests {
    /// Orca, the screen reader, with its speech going to its debug log (no sound
    /// device needed): what it said so far. Orca 43 handles keys through X (its
    /// modifier key's keymap, libatspi's key device), so it gets an X display
    /// from Xwayland on the compositor, as on a GNOME or KDE Wayland session.
    @MainActor
    struct Orca {
        let process: Subprocess
        let xwayland: Subprocess
        let log: String

        init(_ session: AccessibilitySession, waylandDisplay: String) throws {
            let number = 40 + Int(getpid() % 50)
            xwayland = try Subprocess.spawn(["Xwayland", ":\(number)", "-rootless", "-noreset"], environment: ["WAYLAND_DISPLAY": waylandDisplay],
                                            directory: session.directory, logPath: session.directory + "/xwayland.log")
            let socket = "/tmp/.X11-unix/X\(number)"
            let deadline = MonotonicMediaClock().now + 20
            while access(socket, F_OK) != 0, MonotonicMediaClock().now < deadline { usleep(50_000) }
            log = session.directory + "/orca.log"
            mkdir(session.directory + "/orca-prefs", 0o700)
            // Orca buffers its debug file; line by line, the test reads what it said as it says it.
            DesktopPortalTests.writeText("import orca.debug\nif orca.debug.debugFile:\n    orca.debug.debugFile = open(orca.debug.debugFile.name, 'a', buffering=1)\n",
                                         to: session.directory + "/orca-prefs/orca-customizations.py")
            // Speech off: Orca still logs every utterance, without waiting on a speech server that has no sound device.
            process = try Subprocess.spawn(["orca", "--disable", "speech", "-u", session.directory + "/orca-prefs", "--debug-file", log],
                                           environment: ["DBUS_SESSION_BUS_ADDRESS": session.bus.address, "WAYLAND_DISPLAY": waylandDisplay,
                                                         "DISPLAY": ":\(number)", "HOME": session.directory, "XDG_RUNTIME_DIR": session.directory,
                                                         "GSETTINGS_BACKEND": "memory"],
                                           directory: session.directory, logPath: session.directory + "/orca.out")
        }

        /// Everything Orca said, in order.
        var spoken: [String] {
            ClipboardTests.contents(of: log).split(separator: "\n").compactMap { line in
                guard let start = line.firstRange(of: "SPEECH OUTPUT: '") else { return nil }
                let rest = line[start.upperBound...]
                return rest.firstRange(of: "'").map { String(rest[..<$0.lowerBound]) }
            }
        }

        /// Orca started against this process's app on `kwin`, once it is
        /// listening and the app is exported for it.
        static func forThisApp(_ session: AccessibilitySession, on kwin: HeadlessKWin) async throws -> Orca {
            let orca = try Orca(session, waylandDisplay: kwin.socketPath)
            let app = Application.shared
            do {
                try await until("Orca to start", timeout: 60) { ClipboardTests.contents(of: orca.log).contains("ORCA: ATSPI registry initialized.") }
                app.followAccessibilityStatus(busAddress: session.bus.address)
                try await until("the export Orca asked for") { try? app.loop?.turn(timeout: 0.01); return app.isAccessibilityExported }
            } catch {
                orca.stop()
                throw error
            }
            return orca
        }

        func stop() {
            process.terminate()
            xwayland.terminate()
        }
    }

    @Test("Orca reads the app: it says the window when it becomes active, then each element as focus lands on it — a push button, a text field and its text, a toggle button and its state —, that the switch is on when Space turns it on, and a menu's items as the highlight moves")
    func orcaSpeaks() async throws {
        var exported = try ExportedApp { try appOnKWin() }
        defer { exported.stop() }
        let (session, app) = (exported.session, exported.app)
        let kwin = exported.compositor

        let orca = try await Orca.forThisApp(session, on: kwin)
        defer { orca.stop() }

        let window = Window(title: "Orca check", size: Size(width: 300, height: 200))
        let add = Button(frame: Rect(x: 20, y: 20, width: 100, height: 30))
        add.setTitle("Add", for: .normal)
        let wifi = Switch(frame: Rect(x: 20, y: 70, width: 51, height: 31))
        wifi.accessibilityLabel = "Wi-Fi"
        let name = TextField(frame: Rect(x: 20, y: 120, width: 200, height: 30))
        name.accessibilityLabel = "Name"
        name.text = "Ada"
        let size = Button(title: "Size")
        size.frame = Rect(x: 140, y: 20, width: 100, height: 30)
        size.menu = Menu(children: ["Small", "Medium", "Large"].map { t in MenuAction(title: t) { _ in } })
        size.showsMenuAsPrimaryAction = true
        for v in [add, wifi, name, size] as [View] { window.rootView.addSubview(v) }
        window.show()
        try await until("the window active") { try? app.loop?.turn(timeout: 0.01); return app.keyboardFocusWindow === window }
        try await until("Orca to say the window", timeout: 30) {
            try? app.loop?.turn(timeout: 0.01)
            return orca.spoken.contains { $0.contains("Orca check") }
        }
        for (view, words) in [(add, "Add push button."), (name, "Ada."), (wifi, "Wi-Fi toggle button not pressed.")] as [(View, String)] {
            view.becomeFirstResponder()
            try await until("Orca to say \(words): \(orca.spoken.suffix(3))", timeout: 30) {
                try? app.loop?.turn(timeout: 0.01)
                return orca.spoken.last == words
            }
        }
        // Space on the focused switch turns it on; Orca says so.
        let keys = InputDriver(window: window)
        keys.pressKey(keysym: 0x20)
        keys.releaseKey(keysym: 0x20)
        try await until("Orca to say the switch is on: \(orca.spoken.suffix(3))", timeout: 30) {
            try? app.loop?.turn(timeout: 0.01)
            return orca.spoken.last == "pressed"
        }
        // A pull-down menu (its button takes no focus, as the focused control keeps it): Down
        // highlights its first item, then the next; the highlighted item is the focused one.
        keys.click(at: Point(x: 190, y: 35))
        try await until("the menu open") { try? app.loop?.turn(timeout: 0.01); return (window.popupWindows.first?.frameNumber ?? 0) > 0 }
        keys.pressKey(keysym: 0xff54)
        keys.releaseKey(keysym: 0xff54)
        try await until("Orca to say the first item: \(orca.spoken.suffix(3))", timeout: 30) {
            try? app.loop?.turn(timeout: 0.01)
            return orca.spoken.contains { $0.hasPrefix("Small") }
        }
        keys.pressKey(keysym: 0xff54)
        keys.releaseKey(keysym: 0xff54)
        try await until("Orca to say the next item: \(orca.spoken.suffix(3))", timeout: 30) {
            try? app.loop?.turn(timeout: 0.01)
            return orca.spoken.last?.hasPrefix("Medium") == true
        }
        // (Orca ends a phrase with a full stop or not, depending on what follows it in time.)
        #expect(orca.spoken.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
                == ["Orca check frame", "Add push button", "Name text", "Ada", "Wi-Fi toggle button not pressed", "pressed", "menu", "Small", "Medium"])
    }
}

extension AccessibilityExportTests {
    @Test("Orca and a popover: Space on its button opens it and the focus goes in — Orca says the first control with its tooltip as its description —, Tab moves inside it, Escape closes it and Orca is back on the button")
    func orcaPopoverAndToolTip() async throws {
        var exported = try ExportedApp { try appOnKWin() }
        defer { exported.stop() }
        let (session, app) = (exported.session, exported.app)
        let kwin = exported.compositor
        let orca = try await Orca.forThisApp(session, on: kwin)
        defer { orca.stop() }

        let window = Window(title: "Orca popover", size: Size(width: 360, height: 300))
        let host = ViewController()
        window.rootViewController = host
        let share = Button(title: "Share")
        share.frame = Rect(x: 20, y: 20, width: 100, height: 30)
        host.view.addSubview(share)
        let content = ViewController()
        content.preferredContentSize = Size(width: 220, height: 120)
        let copy = Button(title: "Copy link")
        copy.frame = Rect(x: 16, y: 16, width: 150, height: 30)
        copy.addInteraction(ToolTipInteraction(defaultToolTip: "Copies the page address"))
        let include = Switch(frame: Rect(x: 16, y: 64, width: 51, height: 31))
        include.accessibilityLabel = "Include title"
        for v in [copy, include] as [View] { content.view.addSubview(v) }
        share.addAction(for: .primaryActionTriggered) { [unowned host, unowned share] _ in
            content.modalPresentationStyle = .popover
            content.popoverPresentationController?.sourceView = share
            host.present(content, animated: false)
        }
        window.show()
        try await until("the window active") { try? app.loop?.turn(timeout: 0.01); return app.keyboardFocusWindow === window }
        share.becomeFirstResponder()
        func say(_ words: String) async throws {
            try await until("Orca to say \(words): \(orca.spoken.suffix(3))", timeout: 30) {
                try? app.loop?.turn(timeout: 0.01)
                return orca.spoken.contains { $0.hasPrefix(words) }
            }
        }
        try await say("Share push button")
        let keys = InputDriver(window: window)
        keys.pressKey(keysym: 0x20)
        keys.releaseKey(keysym: 0x20)
        try await until("the popover shown") { try? app.loop?.turn(timeout: 0.01); return (window.popupWindows.first?.frameNumber ?? 0) > 0 }
        #expect(copy.isFirstResponder, "the focus went into the popover")
        try await say("Copy link push button")
        // Keys go to the window, which hands them to the popover holding the grab.
        keys.pressKey(keysym: Key.tab)
        keys.releaseKey(keysym: Key.tab)
        try await say("Include title toggle button not pressed")
        keys.pressKey(keysym: Key.escape)
        keys.releaseKey(keysym: Key.escape)
        try await until("the popover gone") { try? app.loop?.turn(timeout: 0.01); return window.popupWindows.isEmpty }
        try await until("Orca back on Share: \(orca.spoken.suffix(3))", timeout: 30) {
            try? app.loop?.turn(timeout: 0.01)
            return orca.spoken.filter { $0.hasPrefix("Share push button") }.count >= 2
        }
        #expect(orca.spoken.contains { $0.contains("Copies the page address") }, "the tooltip, said as the button's description: \(orca.spoken)")
    }
}

extension AccessibilityExportTests {
    @Test("a screen-reader user adds, checks and deletes a to-do in the todo example, through AT-SPI alone: EditableText into the field, the Add button's press, the row's toggle, the row's Delete action")
    func todoWithoutSight() async throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        var session = try AccessibilitySession()
        defer { session.stop() }
        try session.setEnabled(true)
        let todo = try Subprocess.spawn([ShellExamplesOnCompositorsTests.binary("todo"), "--seconds", "120", "--appearance", "light"],
                                        environment: ["WAYLAND_DISPLAY": weston.socketName, "XDG_RUNTIME_DIR": weston.runtimeDirectory,
                                                      "DBUS_SESSION_BUS_ADDRESS": session.bus.address],
                                        directory: nil, logPath: session.directory + "/todo.log")
        defer { todo.terminate() }
        let app = "org.strata.todo"
        func tree() async throws -> Node { try await Self.tree(session, app: app) }
        func eventually(_ what: String, _ condition: (Node) -> Bool) async throws { try await Self.eventually(session, app: app, what, condition) }
        func items(_ root: Node) -> [Node] {
            var found: [Node] = []
            func walk(_ n: Node) { if n.role == "list item" { found.append(n) }; n.children.forEach(walk) }
            walk(root)
            return found
        }
        let before = try await tree()
        #expect(items(before).map(\.name).prefix(2) == ["Buy oat milk", "Water the plants"], "\(items(before).map(\.name))")
        #expect(items(before).first { $0.name == "Water the plants" }?.states.contains("checked") == true)

        #expect(try await Self.client(session, ["set-text", "Something to do", "Buy bread"], app: app).last == #"{"done": true}"#)
        #expect(try await Self.client(session, ["do", "Add", "click"], app: app).last == #"{"done": true}"#)
        try await eventually("the new row") { items($0).first?.name == "Buy bread" }
        let added = try #require(items(try await tree()).first)
        #expect(added.actions == ["click", "toggle", "Delete"] && added.states.contains("checkable") && !added.states.contains("checked"))

        #expect(try await Self.client(session, ["do", "Buy bread", "toggle"], app: app).last == #"{"done": true}"#)
        #expect(items(try await tree()).first { $0.name == "Buy bread" }?.states.contains("checked") == true)
        #expect(try await tree().find("3 to do, 2 done — tap for details, swipe to delete") != nil, "the summary counts it done")

        #expect(try await Self.client(session, ["do", "Buy bread", "Delete"], app: app).last == #"{"done": true}"#)
        try await eventually("the row gone") { !items($0).contains { $0.name == "Buy bread" } }
    }
}

extension AccessibilityExportTests {
    @Test("libatspi reads the controls example as UIKit's rules predict: every control with its role, name, state and value, the list's rows, the secure field as password text without its characters")
    func controlsExample() async throws {
        let weston = try HeadlessWeston(width: 1024, height: 768)
        defer { weston.stop() }
        var session = try AccessibilitySession()
        defer { session.stop() }
        try session.setEnabled(true)
        let controls = try Subprocess.spawn([ShellExamplesOnCompositorsTests.binary("controls"), "--seconds", "120", "--appearance", "light"],
                                            environment: ["WAYLAND_DISPLAY": weston.socketName, "XDG_RUNTIME_DIR": weston.runtimeDirectory,
                                                          "DBUS_SESSION_BUS_ADDRESS": session.bus.address, "LANG": "en_US.UTF-8"],
                                            directory: nil, logPath: session.directory + "/controls.log")
        defer { controls.terminate() }
        let root = try await Self.tree(session, app: "org.strata.controls")
        let frame = try #require(root.children.first)
        #expect(frame.role == "frame" && frame.name == "Strata controls")
        var all: [Node] = []
        func walk(_ n: Node) { all.append(n); n.children.forEach(walk) }
        walk(frame)
        func role(_ name: String) -> String? { all.first { $0.name == name }?.role }
        func states(_ name: String) -> [String] { all.first { $0.name == name }?.states ?? [] }
        for name in ["Plain", "Filled", "Pressed", "Disabled", "Edit", "Size"] { #expect(role(name) == "push button", "\(name)") }
        #expect(!states("Disabled").contains("enabled") && states("Filled").contains("enabled"))
        #expect(role("Switch 1") == "toggle button" && !states("Switch 1").contains("checked") && states("Switch 2").contains("checked"))
        #expect(!states("Switch 3").contains("sensitive"), "the disabled switch")
        #expect(all.first { $0.name == "Slider 1" }?.value == [0, 0.25, 1] && role("Slider 2") == "slider")
        #expect(role("Stepper") == "spin button" && all.first { $0.name == "Stepper" }?.value == [0, 3, 10])
        #expect(role("Pages") == "slider" && all.first { $0.name == "Pages" }?.value == [1, 2, 5])
        #expect(all.first { $0.name == "Progress 2" }?.value == [0, 0.85, 1] && role("Progress 2") == "progress bar")
        #expect(role("Your name") == "text" && role("Text") == "text" && role("Search") == "text")
        #expect(role("Date") == "push button")
        let password = try #require(all.first { $0.name == "Password" })
        #expect(password.role == "password text" && password.text == "••••••••")
        #expect(role("A gradient made in code") == "image")
        #expect(role("Buttons") == "label")
        let list = try #require(all.first { $0.role == "list" })
        #expect(list.children.prefix(3).map(\.name) == ["Apples", "Bananas", "Cherries"] && list.children.allSatisfy { $0.role == "list item" })
        #expect(list.name == "List" && list.relations == ["labelled-by": ["List"]], "named by its caption")
        #expect(all.first { $0.role == "label" && $0.name == "List" }?.relations == ["label-for": ["List"]])
        #expect(list.children.count == 8 && list.children.filter { $0.states.contains("showing") }.count < 8, "every row, those scrolled away not showing")
        #expect(states("Edit").contains("expandable") && states("Edit").contains("collapsed") && states("Edit").contains("has popup"))
        // Selection: the second row, as the person's tap would.
        let selected = try await Self.client(session, ["select", "role:list List", "1"], app: "org.strata.controls").last
        #expect(selected == #"{"done": true, "selected": ["Bananas"]}"#)
        let after = try await Self.tree(session, app: "org.strata.controls")
        #expect(after.find("Bananas")?.states.contains("selected") == true && after.find("Apples")?.states.contains("selected") == false)
        #expect(all.allSatisfy { ($0.extents ?? [0, 0, 1, 1]).allSatisfy { $0 >= 0 } }, "extents inside the window")
    }
}

extension AccessibilityExportTests {
    @Test("A text view reads as multi-line editable text: its whole text, the caret, lines as it wraps them and paragraphs by line breaks; EditableText sets it; an edit is told as what went and came, not the whole text again")
    func textView() async throws {
        var exported = try ExportedApp { try appOnWeston() }
        defer { exported.stop() }
        let (session, app) = (exported.session, exported.app)

        let window = Window(title: "Editor", size: Size(width: 300, height: 240))
        let notes = TextView(frame: Rect(x: 10, y: 10, width: 200, height: 200))
        notes.accessibilityLabel = "Notes"
        notes.accessibilityLanguage = "en-GB"
        let words = "one two three four five six seven eight nine ten eleven twelve"
        notes.text = "\(words)\nsecond paragraph"
        window.rootView.addSubview(notes)
        window.show()
        try await until("the window's first frame") { try? app.loop?.turn(timeout: 0.01); return window.frameNumber > 0 }
        try session.setEnabled(true)
        app.followAccessibilityStatus(busAddress: session.bus.address)
        try await until("the export to start") { try? app.loop?.turn(timeout: 0.01); return app.isAccessibilityExported }

        let node = try #require(try await Self.tree(session).find("Notes"))
        #expect(node.role == "text")
        #expect(node.states.contains("multi line") && node.states.contains("editable") && !node.states.contains("single line"), "\(node.states)")
        #expect(node.text == notes.text && node.caret == 0)
        #expect(node.locale == "en-GB", "accessibilityLanguage as the object's locale")
        // An assistive technology gives it the focus (Component.GrabFocus).
        #expect(try await Self.client(session, ["grab-focus", "Notes"]).last == #"{"done": true}"#)
        #expect(notes.isFirstResponder)

        // Lines as the view wraps them (the first paragraph takes several), each with its end.
        struct Unit: Decodable { var text: String; var start: Int; var end: Int }
        func unit(_ offset: Int, _ granularity: Int) async throws -> Unit {
            try JSONDecoder().decode(Unit.self, from: Data(try #require(try await Self.client(session, ["text-at", "Notes", "\(offset)", "\(granularity)"]).last).utf8))
        }
        let lines = notes.layout(of: 0).lines
        #expect(lines.count >= 2)
        let first = try await unit(0, 3)
        #expect(first.start == 0 && first.end == lines[1].bytes.lowerBound && words.hasPrefix(first.text), "\(first)")
        let last = try await unit(words.count + 3, 3)
        #expect(last.text == "second paragraph" && last.start == words.count + 1, "\(last)")
        let paragraph = try await unit(5, 4)
        #expect(paragraph.text == words + "\n" && paragraph.start == 0 && paragraph.end == words.count + 1, "\(paragraph)")

        // An edit in the middle is told as an insert at its offset, carrying only what came.
        let (listener, log) = try Self.startClient(session, ["listen", "8", "object:text-changed"])
        defer { listener.terminate() }
        try await until("the listener to listen") { try? app.loop?.turn(timeout: 0.01); return ClipboardTests.contents(of: log).contains("listening") }
        let exporter = try #require(app.accessibilityExporter)
        try await until("the app to know of the listener") {
            try? app.loop?.turn(timeout: 0.01)
            return exporter.listeners.wants("org.a11y.atspi.Event.Object", "TextChanged", detail: "insert")
        }
        notes.becomeFirstResponder()
        notes.selectedTextRange = notes.text.range(of: "two")!
        InputDriver(window: window).type("2")
        #expect(notes.text.hasPrefix("one 2 three"))
        try await until("the listener to finish", timeout: 30) { try? app.loop?.turn(timeout: 0.01); return listener.wait(timeout: 0) != nil }
        let events = ClipboardTests.contents(of: log).split(separator: "\n").compactMap { try? JSONDecoder().decode(Event.self, from: Data($0.utf8)) }
        #expect(events.contains { $0.type == "object:text-changed:delete" && $0.detail1 == 4 && $0.data == "two" }, "\(events)")
        #expect(events.contains { $0.type == "object:text-changed:insert" && $0.detail1 == 4 && $0.data == "2" }, "\(events)")
        #expect(!events.contains { ($0.data?.count ?? 0) > 10 }, "no event carries the whole text: \(events)")

        #expect(try await Self.client(session, ["set-text", "Notes", "replaced\nby EditableText"]).last == #"{"done": true}"#)
        #expect(notes.text == "replaced\nby EditableText")
        notes.isEditable = false
        #expect(try await Self.client(session, ["set-text", "Notes", "refused"]).last == #"{"done": false}"#)
        #expect(try await Self.tree(session).find("Notes")?.states.contains("editable") == false)
    }
}
