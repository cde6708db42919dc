import LayerKitTesting
import Glibc
import StrataTesting
import Testing
import WaylandClient
import CPixman

extension Integration {
/// The compositor abstraction and the capability probe, on real compositors.
@MainActor
@Suite("Compositors and their capabilities", .serialized, .mainLayerContext)
struct CompositorTests {
    @Test("weston and sway behind one Compositor protocol; each reports what it offers")
    func capabilities() throws {
        let weston = try HeadlessWeston(), sway = try HeadlessSway()
        defer { weston.stop(); sway.stop() }
        let compositors: [any Compositor] = [weston, sway]
        #expect(compositors.map(\.name) == ["weston", "sway"])
        let w = CompositorCapabilities(try weston.connect())
        let s = CompositorCapabilities(try sway.connect())
        #expect(w.has(.xdgShell) && w.has(.viewporter) && w.has(.presentationFeedback) && w.has(.screencopy))
        #expect(!w.has(.seat) && !w.has(.serverSideDecorations))
        #expect(w.missing([.xdgShell, .seat]) == "the compositor offers no seat (wl_seat)")
        #expect(s.has(.seat) && s.has(.serverSideDecorations) && s.has(.virtualKeyboard) && s.has(.screencopy)
                && s.has(.clipboard) && s.has(.primarySelection))
        #expect(s.missing([.xdgShell, .seat]) == nil)
        // Skip with a reason, or fail in strict mode.
        #expect(try w.skipReason(for: [.seat], strict: false) == "the compositor offers no seat (wl_seat)")
        #expect(try s.skipReason(for: [.seat], strict: true) == nil)
        #expect(throws: CompositorCapabilities.FeatureUnavailable.self) { try w.skipReason(for: [.seat], strict: true) }
        #expect((w.globals["xdg_wm_base"] ?? 0) >= 1 && w.description.contains("xdg_wm_base v"))
    }

    @Test("cage: starts headless, shows a Strata window filling its output, captures it, and stops everything it started")
    func cage() throws {
        let cage = try HeadlessCage()
        let directory = cage.runtimeDirectory
        let c = CompositorCapabilities(try cage.connect())
        #expect(c.has(.xdgShell) && c.has(.screencopy) && c.has(.serverSideDecorations))
        let display = try cage.connect()
        let window = ToplevelWindow(display: display, title: "in cage", width: 300, height: 200)
        window.onDraw = { ctx in
            var color = pixman_color_t(red: 0, green: 0x8000, blue: 0xffff, alpha: 0xffff)
            var rect = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(ctx.buffer.width), height: UInt16(ctx.buffer.height))
            pixman_image_fill_rectangles(PIXMAN_OP_SRC, ctx.buffer.image, &color, 1, &rect)
            return .full
        }
        try display.connection.dispatch(until: { window.frameNumber > 1 }, timeout: 10)
        #expect(window.width == 1280 && window.height == 720)        // a kiosk: the window fills the output
        let settle = MonotonicClock.now
        try display.connection.dispatch(until: { MonotonicClock.now - settle > 0.5 }, timeout: 5)
        let shot = try cage.screenshot()
        #expect(shot.width == 1280 && shot.height == 720)
        // cage 0.1.4 headless keeps showing a client's first buffer (here 300×200)
        // in captures, not the later ones: look where both are blue.
        let p = shot.rgba8(x: 100, y: 100)
        #expect(p.b == 255 && p.g == 0x80 && p.r == 0, "\(p)")
        withExtendedLifetime(window) {}
        cage.stop()
        #expect(access(directory, F_OK) != 0)                         // its runtime directory is gone
        #expect(!processTable().contains { $0.contains("cage") && $0.contains(directory) })
    }

    @Test("mutter: starts headless with its bus, PipeWire and RemoteDesktop session, offers no server-side decorations, captures, and stops everything")
    func mutter() throws {
        let mutter = try HeadlessMutter(width: 400, height: 300)
        let directory = mutter.runtimeDirectory
        let c = CompositorCapabilities(try mutter.connect())
        #expect(c.has(.xdgShell) && c.has(.presentationFeedback) && c.has(.textInput) && !c.has(.serverSideDecorations))
        #expect(c.seatCapabilities.contains(.pointer) && c.seatCapabilities.contains(.keyboard), "the session's devices are there from the start")
        let shot = try mutter.screenshot()
        #expect(shot.width == 400 && shot.height == 300)
        #expect(shot.rgba8(x: 200, y: 150) == (27, 76, 124, 255), "mutter's bare screen is blue")
        #expect(access(directory + "/mutter-capture.log", F_OK) != 0)
        // A frame black all over is read again from a screen cast of its own; the
        // input session is untouched.
        let black = ScenarioRunner(compositor: mutter).run(try Scenario(parsing: """
            window "black" 200x100 #000000
            wait-configure
            fullscreen on
            expect-pixel 200,150 #000000
            """))
        #expect(black.passed, "\(black.table)")
        #expect(access(directory + "/mutter-capture.log", F_OK) == 0)
        #expect(throws: Never.self) { try mutter.input().movePointer(toX: 10, y: 10) }
        #expect(processTable(file: "environ").filter { $0.contains("XDG_RUNTIME_DIR=\(directory)") }.count == 5,
                "mutter, PipeWire, WirePlumber, the RemoteDesktop helper and the session bus (which starts services in mutter's session)")
        #expect(processTable().contains { $0.contains("dbus-daemon") && $0.contains(directory) })
        mutter.stop()
        #expect(access(directory, F_OK) != 0)
        #expect(!processTable(file: "environ").contains { $0.contains("XDG_RUNTIME_DIR=\(directory)") })
        #expect(!processTable().contains { $0.contains(directory) })
        #expect(throws: CompositorError.notReady("mutter has been stopped")) { try mutter.input() }
    }

    @Test("ext-image-copy-capture (a libwayland-server harness: no compositor here offers it): an attached compositor's output captured pixel for pixel; a refused buffer is a clear error")
    func imageCopyCapture() throws {
        let harness = try ProtocolHarness(capture: .output)
        defer { harness.stop() }
        let attached = try AttachedCompositor(socket: harness.socketPath)
        #expect(CompositorCapabilities(try attached.connect()).has(.screencopy))
        let shot = try attached.screenshot(timeout: 5)
        #expect(shot.width == 64 && shot.height == 48)
        #expect(shot.rgba8(x: 0, y: 0) == (0, 0, 0x80, 255))
        #expect(shot.rgba8(x: 10, y: 7) == (40, 35, 0x80, 255))
        #expect(shot.rgba8(x: 63, y: 47) == (252, 235, 0x80, 255))
        harness.read(timeout: 0.5)
        #expect(harness.lines.contains("captured 64 48 1"), "xrgb8888 preferred: \(harness.lines)")

        let refusing = try ProtocolHarness(capture: .refusingBuffers)
        defer { refusing.stop() }
        #expect(throws: CompositorError.screenshotFailed("ext-image-copy-capture: the compositor could not capture (reason 1: buffer constraints)")) {
            try AttachedCompositor(socket: refusing.socketPath).screenshot(timeout: 5)
        }
    }

    @Test("attaching to a running compositor through WAYLAND_DISPLAY; a missing one is a clear error")
    func attach() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let attached = try AttachedCompositor(socket: weston.runtimeDirectory + "/" + weston.socketName)
        let display = try attached.connect()
        #expect(CompositorCapabilities(display).has(.xdgShell))
        attached.stop()                                   // attached: it keeps running
        #expect(try weston.connect().registry.globals.isEmpty == false)
        #expect {
            try AttachedCompositor(socket: "/nonexistent/strata-socket")
        } throws: { error in
            "\(error)".contains("/nonexistent/strata-socket")
        }
    }
}
}

/// The command lines of the running processes (or, with `file: "environ"`, their environments).
func processTable(file: String = "cmdline") -> [String] {
    listProcessDirectories().compactMap { pid in
        guard let f = fopen("/proc/\(pid)/\(file)", "r") else { return nil }
        defer { fclose(f) }
        var bytes: [UInt8] = []
        var c = fgetc(f)
        while c != EOF { bytes.append(c == 0 ? 32 : UInt8(c)); c = fgetc(f) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private func listProcessDirectories() -> [String] {
    guard let dir = opendir("/proc") else { return [] }
    defer { closedir(dir) }
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.allSatisfy(\.isNumber) { names.append(name) }
    }
    return names
}
