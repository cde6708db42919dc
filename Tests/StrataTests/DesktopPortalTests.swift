@testable import Strata
import CGio
import FoundationEssentials
import Synchronization
import StrataTesting
import Glibc
import Testing

/// Files and links through the real xdg-desktop-portal (issue 25, item 6): its
/// GTK backend shows the file chooser over the app on a headless kwin, typed
/// into through kwin's seat as a person would; links go to a handler the test registers as the desktop's
/// default, as a browser or mail client is.
@MainActor
@Suite("Files and links through xdg-desktop-portal", .mainLayerContext)
struct DesktopPortalTests {
    /// A private session bus whose portal shows its dialogs on the compositor at `socketPath`, with
    /// private data and configuration directories; the app reaches the portal on it until ``stop()``.
    @MainActor
    struct PortalSession {
        let directory: String
        let environment: [String: String]
        var bus: SessionBus

        init(socketPath: String) throws {
            directory = makeTemporaryDirectory("strata-portal")
            for sub in ["config", "data", "data/applications", "runtime", "files"] { mkdir(directory + "/" + sub, 0o700) }
            environment = ["WAYLAND_DISPLAY": socketPath, "XDG_RUNTIME_DIR": directory + "/runtime", "GDK_BACKEND": "wayland",
                           "XDG_CONFIG_HOME": directory + "/config", "XDG_DATA_HOME": directory + "/data",
                           "XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "memory", "HOME": directory]
            bus = try SessionBus(in: directory, environment: environment)
            Application.shared.desktopBusAddress = bus.address
            try startPortal()
        }

        /// Starts the portal (the bus activates it) before a test times its calls: on a
        /// loaded machine its start alone once took a step past its 30 s.
        private func startPortal() throws {
            let (status, output) = try bus.call("org.freedesktop.portal.Desktop", "/org/freedesktop/portal/desktop", "org.freedesktop.DBus.Peer.Ping",
                                                timeout: 90, environment: environment)
            #expect(status == 0, "the portal did not start: \(output)")
        }

        /// Ends the bus (its services exit with it, the document portal
        /// unmounting its directory) and removes the files.
        mutating func stop() {
            Application.shared.desktopBusAddress = nil
            bus.stop()
            let deadline = MonotonicMediaClock().now + 5
            while isMounted(directory + "/runtime/doc"), MonotonicMediaClock().now < deadline { usleep(50_000) }
            removeTemporaryDirectory(directory)
        }

        private func isMounted(_ path: String) -> Bool {
            var here = stat(), parent = stat()
            return stat(path, &here) == 0 && stat(path + "/..", &parent) == 0 && here.st_dev != parent.st_dev
        }
    }

    static func writeText(_ text: String, to path: String) {
        guard let f = fopen(path, "w") else { Issue.record("cannot write \(path)"); return }
        fputs(text, f)
        fclose(f)
    }

    /// Turns the app's loop while waiting (the portal's answer arrives on the main queue).
    static func pump(_ what: String, timeout: Double = 30, until condition: () -> Bool) async throws {
        try await until(what, timeout: timeout) {
            try? Application.shared.loop?.turn(timeout: 0)
            return condition()
        }
    }

    /// Evdev codes of the keys the tests type.
    static let keyCodes: [Character: UInt32] = [
        "a": 30, "b": 48, "c": 46, "d": 32, "e": 18, "f": 33, "g": 34, "h": 35, "i": 23, "j": 36, "k": 37, "l": 38, "m": 50,
        "n": 49, "o": 24, "p": 25, "q": 16, "r": 19, "s": 31, "t": 20, "u": 22, "v": 47, "w": 17, "x": 45, "y": 21, "z": 44, ".": 52,
        "1": 2, "2": 3, "3": 4, "4": 5, "5": 6, "6": 7, "7": 8, "8": 9, "9": 10, "0": 11, "-": 12, "/": 53,
    ]
    static let enter: UInt32 = 28, escape: UInt32 = 1, leftControl: UInt32 = 29

    /// A key through kwin's seat, as a person's keyboard, then a pause: the
    /// dialog reacts to a key (Ctrl+L makes the location entry) before the next
    /// one is meant for what it made.
    static func press(_ input: InjectedInput, _ code: UInt32, with modifier: UInt32? = nil, pause: Int = 400) async throws {
        if let modifier { try input.key(modifier, pressed: true) }
        try input.key(code, pressed: true)
        try input.key(code, pressed: false)
        if let modifier { try input.key(modifier, pressed: false) }
        try await Task.sleep(for: .milliseconds(pause))
    }

    static func type(_ input: InjectedInput, _ text: String) async throws {
        for c in text { try await press(input, keyCodes[c]!, pause: 30) }
        try await Task.sleep(for: .milliseconds(400))
    }

    /// The app's window fills kwin's screen in one colour; a dialog over it is seen at the middle.
    static let windowColor = (UInt8(0x33), UInt8(0x66), UInt8(0xcc), UInt8(255))

    static func dialogShown(_ kwin: HeadlessKWin) -> Bool {
        guard let shot = try? kwin.screenshot(timeout: 10) else { return false }
        return shot.rgba8(x: 640, y: 512) != windowColor
    }

    @Test("the file chooser portal's dialog opens over the app on a headless kwin; a path typed and Return give the app that file's URL; Escape and a cancelled task are cancellations that close the dialog; an exported file is copied to the name typed")
    func fileChooser() async throws {
        let (kwin, _) = try appOnKWin(width: 1280, height: 1024)
        defer { withExtendedLifetime(kwin) { Application.shared.disconnect() } }
        var session = try PortalSession(socketPath: kwin.socketPath)
        defer { session.stop() }
        let app = Application.shared
        let window = Window(title: "documents", size: Size(width: 200, height: 100))
        window.backgroundColor = Color(rgba8: 0x33, 0x66, 0xcc)
        try MenusOnCompositorsTests.showFullscreen(window, on: kwin)
        let input = try kwin.injectedInput()
        // A folder whose path can be typed on kwin's keymap without Shift.
        let files = session.directory + "/files"
        let typeable = "/tmp/strata-portal-files-\(getpid())"
        #expect(symlink(files, typeable) == 0)
        defer { unlink(typeable) }
        let chosen = typeable + "/notes.txt"
        Self.writeText("notes ✓\n", to: chosen)

        // Opening: Ctrl+L, the file's path, Return (GTK's dialog starts in its recent files).
        let picker = DocumentPicker(forOpeningContentTypes: ["txt", "public.plain-text"])
        var result: Result<[URL], DocumentPicker.PickerError>?
        picker.present(in: window) { result = $0 }
        try await Self.pump("the portal's file chooser over the window") { Self.dialogShown(kwin) }
        try await Task.sleep(for: .milliseconds(500))
        try await Self.press(input, Self.keyCodes["l"]!, with: Self.leftControl)
        try await Self.type(input, chosen)
        try await Self.press(input, Self.enter)
        try await Self.pump("the chosen file") { result != nil }
        #expect(try result?.get() == [URL(filePath: chosen)])
        try await Self.pump("the dialog closed") { !Self.dialogShown(kwin) }

        // Escape in the dialog.
        result = nil
        picker.present(in: window) { result = $0 }
        try await Self.pump("the dialog again") { Self.dialogShown(kwin) }
        try await Task.sleep(for: .milliseconds(500))
        try await Self.press(input, Self.escape)
        try await Self.pump("Escape's answer") { result != nil }
        #expect(throws: DocumentPicker.PickerError.cancelled) { try result?.get() }
        try await Self.pump("the dialog closed by Escape") { !Self.dialogShown(kwin) }

        // The asking task cancelled: the portal closes its dialog.
        let task = Task { @MainActor in try await picker.present(in: window) }
        try await Self.pump("the dialog a third time") { Self.dialogShown(kwin) }
        task.cancel()
        await #expect(throws: DocumentPicker.PickerError.cancelled) { try await task.value }
        try await Self.pump("the dialog closed by Request.Close") { !Self.dialogShown(kwin) }

        // Exporting: a save dialog with the file's name; the copy lands at the name typed.
        let exporter = DocumentPicker(forExporting: [URL(filePath: chosen)])
        exporter.directoryURL = URL(filePath: typeable)
        result = nil
        exporter.present(in: window) { result = $0 }
        try await Self.pump("the save dialog") { Self.dialogShown(kwin) }
        try await Task.sleep(for: .milliseconds(500))
        try await Self.press(input, Self.keyCodes["a"]!, with: Self.leftControl)
        try await Self.type(input, "exported.txt")
        try await Self.press(input, Self.enter)
        try await Self.pump("the exported file") { result != nil }
        #expect(try result?.get() == [URL(filePath: typeable + "/exported.txt")])
        #expect(ClipboardTests.contents(of: files + "/exported.txt") == "notes ✓\n")
    }

    @Test("on sway the portal's dialog is the app window's child (the window's exported handle, which GTK's backend imports): sway floats it; the cancelled task closes it")
    func dialogIsTheWindowsChild() async throws {
        let (sway, _) = try appOnSway()
        defer { withExtendedLifetime(sway) { Application.shared.disconnect() } }
        var session = try PortalSession(socketPath: sway.socketPath)
        defer { session.stop() }
        let app = Application.shared
        let window = Window(title: "documents", size: Size(width: 200, height: 100))
        window.show()
        try await Self.pump("the window drawn") { window.frameNumber > 0 }
        let picker = DocumentPicker(forOpeningContentTypes: ["txt"])
        picker.title = "Strata parent check"
        let task = Task { @MainActor in try await picker.present(in: window) }
        var type: String?
        // The portal starts its GTK backend for this first dialog; beside other suites that takes a while.
        try await Self.pump("the dialog in sway's tree", timeout: 90) {
            type = try? sway.nodeType(with: "\"name\": \"Strata parent check\"")
            return type != nil
        }
        #expect(type == "floating_con", "a child floats; a dialog without a parent would tile: \((try? sway.tree()) ?? "")")
        task.cancel()
        await #expect(throws: DocumentPicker.PickerError.cancelled) { try await task.value }
        try await Self.pump("the dialog closed", timeout: 60) { (try? sway.nodeType(with: "\"name\": \"Strata parent check\"")) == nil }
    }

    @Test("open(_:) hands a link and a local file to the handler the desktop has for them, through OpenURI; odd schemes, missing files and a bus without a portal are clear errors")
    func openURLs() async throws {
        let (kwin, _) = try appOnKWin(width: 1280, height: 1024)
        defer { withExtendedLifetime(kwin) { Application.shared.disconnect() } }
        var session = try PortalSession(socketPath: kwin.socketPath)
        defer { session.stop() }
        let dir = session.directory
        // The test's handler: the desktop's only and default one for its scheme and for text.
        Self.writeText("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> \(dir)/opened; done\n", to: dir + "/handler")
        chmod(dir + "/handler", 0o755)
        Self.writeText("""
            [Desktop Entry]
            Type=Application
            Name=Strata test handler
            Exec=\(dir)/handler %u
            MimeType=x-scheme-handler/strata-test;text/plain;

            """, to: dir + "/data/applications/strata-test-handler.desktop")
        // GIO learns which applications take a type from the directory's cache (update-desktop-database writes it).
        Self.writeText("[MIME Cache]\nx-scheme-handler/strata-test=strata-test-handler.desktop;\ntext/plain=strata-test-handler.desktop;\n",
                       to: dir + "/data/applications/mimeinfo.cache")
        Self.writeText("[Default Applications]\nx-scheme-handler/strata-test=strata-test-handler.desktop\ntext/plain=strata-test-handler.desktop\n",
                  to: dir + "/config/mimeapps.list")
        let app = Application.shared
        let window = Window(title: "links", size: Size(width: 200, height: 100))
        window.backgroundColor = Color(rgba8: 0x33, 0x66, 0xcc)
        try MenusOnCompositorsTests.showFullscreen(window, on: kwin)

        var failure: Application.OpenURLError?, done = false
        Task { @MainActor in
            do throws(Application.OpenURLError) { try await app.open(URL(string: "strata-test://example/a?b=c")!) } catch { failure = error }
            done = true
        }
        // With one application for the scheme, and it the default, the portal asks nobody.
        try await Self.pump("the link handed over") { done }
        #expect(!Self.dialogShown(kwin))
        #expect(failure == nil)
        try await Self.pump("the handler to run") { ClipboardTests.contents(of: dir + "/opened").contains("strata-test://example/a?b=c") }

        let file = dir + "/files/readme.txt"
        Self.writeText("hello\n", to: file)
        done = false
        Task { @MainActor in
            do throws(Application.OpenURLError) { try await app.open(URL(filePath: file)) } catch { failure = error }
            done = true
        }
        try await Self.pump("the file handed over") { done }
        #expect(failure == nil)
        try await Self.pump("the handler to get the file") { ClipboardTests.contents(of: dir + "/opened").contains("readme.txt") }

        // Bad input.
        await #expect(throws: Application.OpenURLError.unsupportedURL("javascript:alert(1)")) { try await app.open(URL(string: "javascript:alert(1)")!) }
        await #expect(throws: Application.OpenURLError.unsupportedURL("data:text/plain,hi")) { try await app.open(URL(string: "data:text/plain,hi")!) }
        await #expect(throws: Application.OpenURLError.unsupportedURL("relative/path")) { try await app.open(URL(string: "relative/path")!) }
        let gone = URL(filePath: dir + "/files/gone.txt")
        await #expect(throws: Application.OpenURLError.fileNotFound(gone)) { try await app.open(gone) }
        app.desktopBusAddress = "unix:path=\(dir)/nobody"
        let start = MonotonicMediaClock().now
        do {
            try await app.open(URL(string: "https://example.org")!)
            Issue.record("opened through a bus nobody listens at")
        } catch {
            guard case .portal(.unavailable) = error else { Issue.record("\(error)"); return }
        }
        #expect(MonotonicMediaClock().now - start < 30, "refused at once, not after a call timeout (loose: the main actor may be busy beside other suites)")
    }

    @Test("content types become the portal's filter: MIME types, extensions and known identifiers; any-file identifiers and folders drop it; unknown ones are left out with a diagnostic")
    func filters() {
        var diagnostics: [String] = []
        Diagnostics.handler = { diagnostics.append("\($0)") }
        defer { Diagnostics.handler = nil }
        let f = DocumentPicker.filter(for: ["image/png", "txt", ".md", "*.swift", "public.jpeg", " text/* ", "org.example.thing", ""])
        #expect(f.patterns.map(\.kind) == [1, 0, 0, 0, 1, 1])
        #expect(f.patterns.map(\.pattern) == ["image/png", "*.txt", "*.md", "*.swift", "image/jpeg", "text/*"])
        #expect(diagnostics.count == 2 && diagnostics[0].contains("org.example.thing"))
        #expect(DocumentPicker.filter(for: ["txt", "public.item"]).patterns.isEmpty)
        let folders = DocumentPicker.filter(for: ["public.folder"])
        #expect(folders.directory && folders.patterns.isEmpty)
        #expect(Application.isOpenable(scheme: "https") && Application.isOpenable(scheme: "x-scheme+1.0"))
        #expect(!Application.isOpenable(scheme: "1http") && !Application.isOpenable(scheme: "ht tp") && !Application.isOpenable(scheme: "JavaScript".lowercased()))
    }
}

/// A portal that stalls, on a real private bus: a service that owns the portal's
/// name and takes the file chooser's calls, and either never answers the call or
/// answers with its request's handle and never responds (as a dialog the person
/// leaves open). It counts the `Request.Close` calls it gets.
final class StalledPortal: @unchecked Sendable {
    let bus: DBusConnection
    let answersCall: Bool
    private let closes = Mutex(0)
    var closeCount: Int { closes.withLock { $0 } }
    private var registrations: [guint] = []
    private let vtable = UnsafeMutablePointer<GDBusInterfaceVTable>.allocate(capacity: 1)

    init(address: String, answersCall: Bool) throws {
        bus = try DBusConnection(address: address)
        self.answersCall = answersCall
        vtable.initialize(to: GDBusInterfaceVTable())
        vtable.pointee.method_call = { _, sender, _, _, method, parameters, invocation, data in
            Unmanaged<StalledPortal>.fromOpaque(data!).takeUnretainedValue().called(String(cString: method!), sender.map { String(cString: $0) } ?? "",
                                                                                      parameters, invocation!)
        }
        let ok: Bool = bus.performAndWait { [self] in
            register("/org/freedesktop/portal/desktop", """
                <node><interface name="org.freedesktop.portal.FileChooser"><method name="OpenFile"><arg direction="in" type="s"/>
                <arg direction="in" type="s"/><arg direction="in" type="a{sv}"/><arg direction="out" type="o"/></method></interface></node>
                """)
            return (try? bus.requestName("org.freedesktop.portal.Desktop").get()) == true
        }
        #expect(ok, "the stalled portal takes the name")
    }

    private func register(_ path: String, _ xml: String) {
        guard let node = g_dbus_node_info_new_for_xml(xml, nil) else { return }
        defer { g_dbus_node_info_unref(node) }
        registrations.append(g_dbus_connection_register_object(bus.raw, path, node.pointee.interfaces[0], vtable,
                                                               Unmanaged.passUnretained(self).toOpaque(), nil, nil))
    }

    private func called(_ method: String, _ sender: String, _ parameters: OpaquePointer?, _ invocation: OpaquePointer) {
        switch method {
        case "OpenFile":
            guard answersCall, let parameters else { return }   // never answered (the invocation is dropped)
            let options = g_variant_get_child_value(parameters, 2)
            var token = "t"
            if let t = g_variant_lookup_value(options, "handle_token", variantType("s")) {
                token = String(cString: g_variant_get_string(t, nil))
                g_variant_unref(t)
            }
            g_variant_unref(options)
            let path = "/org/freedesktop/portal/desktop/request/" + sender.dropFirst().replacing(".", with: "_") + "/" + token
            register(path, """
                <node><interface name="org.freedesktop.portal.Request"><method name="Close"/></interface></node>
                """)
            var reply: [OpaquePointer?] = [g_variant_new_object_path(path)]
            g_dbus_method_invocation_return_value(invocation, g_variant_new_tuple(&reply, 1))
        case "Close":
            closes.withLock { $0 += 1 }
            g_dbus_method_invocation_return_value(invocation, nil)
        default:
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", method)
        }
    }

    func stop() {
        let registrations = registrations
        bus.performAndWait { for r in registrations { g_dbus_connection_unregister_object(self.bus.raw, r) } }
        bus.close()
        vtable.deallocate()
    }
}

@MainActor
@Suite("A stalled portal", .isolatedLayerContext(alone: true))
struct StalledPortalTests {
    @Test("bad input: a portal that never answers the call is unavailable after the call's timeout; one that never responds waits until the task is cancelled, which closes its request")
    func stalled() async throws {
        let dir = makeTemporaryDirectory("strata-portal")
        var bus = try SessionBus(in: dir)
        defer {
            bus.stop()
            removeTemporaryDirectory(dir)
        }

        let silent = try StalledPortal(address: bus.address, answersCall: false)
        let portal = try DesktopPortal(address: bus.address)
        let start = MonotonicMediaClock().now
        do {
            _ = try await portal.request("org.freedesktop.portal.FileChooser", "OpenFile", timeout: 1) { _ in [g_variant_new_string(""), g_variant_new_string("t")] }
            Issue.record("a call nobody answers returned")
        } catch {
            guard case let .unavailable(why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains("Timeout"), "\(why)")
        }
        #expect(MonotonicMediaClock().now - start >= 0.9, "it waited for the call's timeout")
        silent.stop()

        let open = try StalledPortal(address: bus.address, answersCall: true)
        defer { open.stop() }
        let task = Task { @MainActor in
            try await portal.request("org.freedesktop.portal.FileChooser", "OpenFile") { _ in [g_variant_new_string(""), g_variant_new_string("t")] }
        }
        try await Task.sleep(for: .milliseconds(500))
        task.cancel()
        await #expect(throws: PortalError.cancelled) { _ = try await task.value }
        try await until("Request.Close") { open.closeCount == 1 }
    }
}
