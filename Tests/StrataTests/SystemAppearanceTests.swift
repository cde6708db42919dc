@testable import Strata
import CGio
import PixmanRender
import StrataTesting
import Glibc
import Testing

/// The desktop's appearance through the real xdg-desktop-portal and its GTK
/// backend over dconf, on a private session bus, changed with `gsettings` as a
/// person's settings app would (issue 25, item 2). The GTK backend needs a
/// display: it gets a headless weston.
@MainActor
@Suite("System appearance through the Settings portal", .mainLayerContext)
struct SystemAppearanceTests {
    @Test("gsettings turns a running app dark within a frame, then back; text scaling, high contrast and enable-animations follow; a bus without a portal is a fallback, not an error")
    func followsGSettings() async throws {
        let dir = makeTemporaryDirectory("strata-portal")
        defer { removeTemporaryDirectory(dir) }
        mkdir(dir + "/config", 0o700)
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let environment = ["WAYLAND_DISPLAY": weston.socketName, "XDG_RUNTIME_DIR": weston.runtimeDirectory,
                           "XDG_CONFIG_HOME": dir + "/config", "XDG_CURRENT_DESKTOP": "GNOME", "GSETTINGS_BACKEND": "dconf"]
        var bus = try SessionBus(in: dir, environment: environment)
        defer { bus.stop() }
        let app = Application.shared
        app.disconnect()
        defer {
            app.disconnect()
            LayerContext.main.systemTraits = .standard
            app.isReduceMotionEnabled = false
        }
        // Every signal on the bus, so a change that never arrives says where it stopped:
        // dconf's Notify, the GTK backend's SettingChanged, or the portal's.
        let monitor = try Subprocess.spawn(["dbus-monitor", "--address", bus.address, "type='signal'"], environment: [:], directory: dir, logPath: dir + "/signals.log")
        defer { _ = monitor.terminate(grace: 0) }
        // dconf announces each write it makes (`Notify` with the key's path). In a full
        // run a `gsettings set` once exited 0 having written nothing — no Notify, no
        // portal signal, nothing for the app to follow — so a write not announced
        // within 5 s is made again (three times at most).
        func gsettings(_ schema: String, _ key: String, _ value: String) async throws {
            let path = "/" + schema.split(separator: ".").joined(separator: "/") + "/" + key
            func announced() -> Int { tail(of: dir + "/signals.log", lines: .max).split(separator: "\n").filter { $0.contains("string \"\(path)\"") }.count }
            let before = announced()
            for _ in 0..<3 {
                let p = try Subprocess.spawn(["gsettings", "set", schema, key, value], environment: environment.merging(["DBUS_SESSION_BUS_ADDRESS": bus.address]) { $1 },
                                             directory: dir, logPath: dir + "/gsettings.log")
                var status: Int32?
                try await until("gsettings set \(key) \(value)") { status = p.wait(timeout: 0); return status != nil }
                #expect(status == 0, "\(tail(of: dir + "/gsettings.log", lines: 5))")
                for _ in 0..<100 where announced() == before { try await Task.sleep(for: .milliseconds(50)) }
                if announced() > before { return }
            }
            Issue.record("dconf announced no write of \(path) after three `gsettings set`: \(tail(of: dir + "/gsettings.log", lines: 10))")
        }
        func until(_ what: String, _ condition: () -> Bool) async throws {
            do { try await StrataTests.until(what, condition) } catch {
                Issue.record("the app's system traits: \(LayerContext.main.systemTraits); the signals on the bus, last 40 lines:\n\(tail(of: dir + "/signals.log", lines: 40))")
                throw error
            }
        }

        let window = Window(title: "appearance", size: Size(width: 120, height: 80))
        let label = Label()
        label.text = "Aa"
        label.frame = Rect(x: 0, y: 0, width: 120, height: 40)
        window.rootView.addSubview(label)
        Transaction.flush()
        #expect(window.snapshot().rgba8(x: 100, y: 70) == (255, 255, 255, 255))

        #expect(app.followSystemAppearance(busAddress: bus.address, timeout: 20), "the portal answers (\(tail(of: dir + "/dbus.log", lines: 5)))")
        #expect(LayerContext.main.systemTraits == .standard, "a fresh configuration says light, default size")

        try await gsettings("org.gnome.desktop.interface", "color-scheme", "prefer-dark")
        try await until("dark") { LayerContext.main.systemTraits.userInterfaceStyle == .dark }
        #expect(window.traitCollection.userInterfaceStyle == .dark && label.traitCollection.userInterfaceStyle == .dark)
        let dark = window.snapshot()
        #expect(dark.rgba8(x: 100, y: 70) == (0, 0, 0, 255), "the window's background is black in the next frame")

        try await gsettings("org.gnome.desktop.interface", "text-scaling-factor", "1.5")
        try await until("larger text") { LayerContext.main.systemTraits.preferredContentSizeCategory == .extraExtraExtraLarge }
        try await gsettings("org.gnome.desktop.a11y.interface", "high-contrast", "true")
        try await until("high contrast") { LayerContext.main.systemTraits.accessibilityContrast == .high }
        try await gsettings("org.gnome.desktop.interface", "enable-animations", "false")
        try await until("reduce motion") { app.isReduceMotionEnabled }

        try await gsettings("org.gnome.desktop.interface", "color-scheme", "default")
        try await until("light again") { LayerContext.main.systemTraits.userInterfaceStyle == .light }
        #expect(window.snapshot().rgba8(x: 100, y: 70) == (255, 255, 255, 255))

        // Nobody at the address: a quick fallback to the defaults, never an error.
        app.disconnect()
        LayerContext.main.systemTraits = TraitCollection.standard.overlaid(by: TraitCollection(userInterfaceStyle: .dark))
        let start = MonotonicMediaClock().now
        #expect(!app.followSystemAppearance(busAddress: "unix:path=\(dir)/nobody"))
        #expect(MonotonicMediaClock().now - start < 2 && LayerContext.main.systemTraits == .standard)
    }
}

/// KDE's colours as the portal's KDE backend serves them (kdeglobals' groups as
/// `org.kde.kdeglobals.GROUP`), read from real GLib variants.
@MainActor
@Suite("System appearance from KDE's colours")
struct KDEAppearanceTests {
    @Test("KDE's window background decides light or dark, before the portal's own colour scheme (which KDE's backend computes light without Plasma's theme); unreadable colours say nothing")
    func kdeWindowBackground() {
        func settings(_ background: String?, colorScheme: UInt32? = nil) -> SettingsPortal.Settings {
            var s = SettingsPortal.Settings()
            if let background {
                let v = g_variant_ref_sink(g_variant_new_string(background))!
                let taken = s.take(namespace: "org.kde.kdeglobals.Colors:Window", key: "BackgroundNormal", value: v)
                #expect(taken)
                g_variant_unref(v)
            }
            if let colorScheme {
                let v = g_variant_ref_sink(g_variant_new_uint32(colorScheme))!
                let taken = s.take(namespace: "org.freedesktop.appearance", key: "color-scheme", value: v)
                #expect(taken)
                g_variant_unref(v)
            }
            return s
        }
        #expect(settings("32,35,38", colorScheme: 2).traits.userInterfaceStyle == .dark, "Breeze Dark's window colour")
        #expect(settings("239,240,241", colorScheme: 1).traits.userInterfaceStyle == .light, "Breeze's")
        #expect(settings("not a colour", colorScheme: 1).traits.userInterfaceStyle == .dark, "unreadable: the colour scheme decides")
        #expect(settings(nil).traits.userInterfaceStyle == .unspecified)
        var wrongType = SettingsPortal.Settings()
        let number = g_variant_ref_sink(g_variant_new_uint32(7))!
        let taken = wrongType.take(namespace: "org.kde.kdeglobals.Colors:Window", key: "BackgroundNormal", value: number)
        #expect(!taken)
        g_variant_unref(number)
    }
}

/// GNOME's settings read directly through GSettings when no portal answers.
@MainActor
@Suite("System appearance from GSettings")
struct GSettingsAppearanceTests {
    @Test("with no portal, GNOME's settings through GSettings (a keyfile backend here, dconf in a session) give dark, larger text and less motion; a backend with nothing set gives the defaults")
    func readsGSettings() throws {
        let dir = makeTemporaryDirectory("strata-gsettings")
        defer { removeTemporaryDirectory(dir) }
        let path = dir + "/keyfile"
        let text = "[org/gnome/desktop/interface]\ncolor-scheme='prefer-dark'\ntext-scaling-factor=1.5\nenable-animations=false\n"
        let file = try #require(fopen(path, "w"))
        fputs(text, file)
        fclose(file)
        let backend = try #require(g_keyfile_settings_backend_new(path, "/", nil))
        defer { g_object_unref(UnsafeMutableRawPointer(backend)) }
        let settings = try #require(SettingsPortal.Settings.readGSettings(backend: backend), "the schemas are installed (gsettings-desktop-schemas)")
        #expect(settings.traits.userInterfaceStyle == .dark)
        #expect(settings.traits.preferredContentSizeCategory == .extraExtraExtraLarge)
        #expect(settings.enableAnimations == false)
        let empty = try #require(g_keyfile_settings_backend_new(dir + "/none", "/", nil))
        defer { g_object_unref(UnsafeMutableRawPointer(empty)) }
        let defaults = try #require(SettingsPortal.Settings.readGSettings(backend: empty))
        #expect(defaults.traits.userInterfaceStyle == .light && defaults.enableAnimations == true && defaults.traits.accessibilityContrast == .normal)
    }
}

/// The app's identity as the compositor sees it (issue 25, item 7).
@MainActor
@Suite("Application identity", .mainLayerContext)
struct ApplicationIdentityTests {
    @Test("every window carries the app id and its title to the compositor's task list (sway's tree); by default the id is the program's name")
    func appIDOnSway() throws {
        #expect(Application.defaultApplicationID == "StrataPackageTests.xctest")
        let app = Application.shared
        app.applicationID = "org.example.StrataIdentity"
        defer { app.applicationID = Application.defaultApplicationID }
        let (sway, display) = try appOnSway()
        defer { withExtendedLifetime(sway) { app.disconnect() } }
        let window = Window(title: "Notes — draft", size: Size(width: 200, height: 100))
        window.show()
        var tree = ""
        try display.connection.dispatch(until: {
            tree = (try? sway.tree(timeout: 5)) ?? ""
            return tree.contains("org.example.StrataIdentity")
        }, timeout: 10, what: "the window in sway's tree")
        #expect(tree.contains("\"app_id\": \"org.example.StrataIdentity\"") && tree.contains("Notes — draft"), "\(tree.prefix(3000))")
    }
}
