import LayerKitTesting
import StrataTesting
import Testing
@testable import WaylandClient

extension Integration {
/// The same client against sway 1.7 (wlroots), headless: what weston 10 cannot
/// show — server-side decorations, a seat — and late buffer releases.
@MainActor
@Suite("WaylandClient on headless sway", .serialized, .mainLayerContext)
struct SwayTests {
    @Test("sway offers a seat and server-side decorations, and the window takes them")
    func decorationsAndSeat() throws {
        let sway = try HeadlessSway()
        let display = try sway.connect()
        #expect(display.decorationManager != nil)
        #expect(display.seats.count == 1)
        let window = ToplevelWindow(display: display, title: "decorated")
        window.onDraw = { ctx in paint(ctx, rgb: 0x2266AA); return .full }
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        try display.connection.roundtrip()
        #expect(window.hasServerSideDecorations)
        // sway tiles the only window over the whole output.
        #expect(window.width == 640 && window.height == 480)
    }

    @Test("a window's exported handle (for a portal's dialog) is one another client imports with xdg-foreign v1, as GTK's portal backend does: its window becomes the child (sway floats it); a made-up handle is refused")
    func exportedHandleImports() throws {
        let sway = try HeadlessSway()
        let display = try sway.connect()
        #expect(display.exporterV1 != nil && display.exporter != nil, "wlroots offers both versions")
        let window = ToplevelWindow(display: display, title: "parent")
        window.onDraw = { ctx in paint(ctx, rgb: 0x2266AA); return .full }
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        var handle: String?
        window.exportHandle { handle = $0 }
        try display.connection.dispatch(until: { handle != nil }, timeout: 5)
        var again: String?
        window.exportHandle { again = $0 }
        #expect(again == handle, "the second ask is answered at once with the same handle")

        // Another client, as the portal's backend would be.
        let other = try sway.connect()
        let importer = try other.registry.bind(ZxdgImporterV1.self)
        let dialog = ToplevelWindow(display: other, title: "dialog")
        dialog.onDraw = { ctx in paint(ctx, rgb: 0xCC6633); return .full }
        var refused = false, made: [Bool] = []
        let imported = importer.import(handle: try #require(handle))
        imported.onEvent = { if case .destroyed = $0 { made.append(false) } }
        imported.setParentOf(surface: dialog.surface)
        let bogus = importer.import(handle: "no-such-handle")
        bogus.onEvent = { if case .destroyed = $0 { refused = true } }
        try other.connection.dispatch(until: { dialog.frameNumber > 0 && refused }, timeout: 5)
        try other.connection.roundtrip()
        #expect(made.isEmpty, "the real handle was not refused")
        #expect(try sway.nodeType(with: "\"name\": \"dialog\"") == "floating_con", "the child floats: \((try? sway.tree()) ?? "")")
    }

    @Test("the window's pixels reach the screen (grim capture)")
    func pixelsOnSway() throws {
        let sway = try HeadlessSway()
        let display = try sway.connect()
        let window = ToplevelWindow(display: display, title: "pixels")
        window.onDraw = { ctx in paint(ctx, rgb: 0xCC6633); return .full }
        try display.connection.dispatch(until: { window.frameNumber > 0 && window.width == 640 }, timeout: 5)
        // sway shows a new window once its layout transaction completes, a little after the
        // first frame callback: capture until the window is there (or give up after 5 s).
        var shot = try sway.screenshot()
        let s0 = MonotonicClock.now
        while shot.rgba8(x: 320, y: 300).r != 0xCC && MonotonicClock.now - s0 < 5 {
            try display.connection.dispatch(timeout: 0.2)
            shot = try sway.screenshot()
        }
        #expect(shot.width == 640 && shot.height == 480)
        let p = shot.rgba8(x: 320, y: 300)
        #expect(p.r == 0xCC && p.g == 0x66 && p.b == 0x33)
        #expect(shot.rgba8(x: 15, y: 15).g == 255)
    }

    @Test("a steady animation never stalls though sway releases buffers late")
    func lateReleasesDoNotStall() throws {
        let sway = try HeadlessSway()
        let display = try sway.connect()
        let window = ToplevelWindow(display: display, title: "late releases")
        window.isAnimating = { true }
        window.onDraw = { ctx in paint(ctx, rgb: UInt32(ctx.frame % 250)); return .full }
        let start = MonotonicClock.now
        try display.connection.dispatch(until: { MonotonicClock.now - start > 1.5 }, timeout: 10)
        // ~60 Hz frame callbacks on sway's headless output: a stall would show as far fewer frames.
        #expect(window.frameNumber > 45)
        #expect(window.pool.allocationCount <= 4)
        #expect(UInt64(window.statistics.callbackCount) + 1 >= window.frameNumber)
    }
}
}

extension Integration.SwayTests {
    @Test("pings are answered, close requests reach the app, and states follow the compositor")
    func pingCloseAndStates() throws {
        let sway = try HeadlessSway()
        let display = try sway.connect()
        let window = ToplevelWindow(display: display, title: "commands")
        var closeRequests = 0
        window.onCloseRequest = { _ in closeRequests += 1 }
        window.onDraw = { ctx in paint(ctx, rgb: 0x777777); return .full }
        let traffic = try WaylandTraffic.recording {
            try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
            try display.connection.roundtrip()
        }
        // sway pings every new toplevel; the display answers.
        let names = traffic.map(\.name)
        let ping = try #require(names.firstIndex(of: "ping"))
        #expect(names[ping...].contains("pong"))
        #expect(try sway.command("fullscreen enable").status == 0)
        try display.connection.dispatch(until: { window.states.contains(.fullscreen) }, timeout: 5, what: "fullscreen")
        #expect(try sway.command("kill").status == 0)
        try display.connection.dispatch(until: { closeRequests == 1 }, timeout: 5, what: "a close request")
        window.close()
        try display.connection.roundtrip()
        #expect(display.connection.error == nil)
    }

    @Test("outputs that appear later are bound and tracked")
    func outputHotplug() throws {
        let sway = try HeadlessSway()
        let display = try sway.connect()
        #expect(display.outputs.count == 1)
        #expect(try sway.command("create_output").status == 0)
        try display.connection.dispatch(until: { display.outputs.count == 2 }, timeout: 5, what: "a second output")
        try display.connection.roundtrip()
        #expect(display.outputs.values.allSatisfy { $0.scale >= 1 })
    }
}

extension Integration.SwayTests {
    @Test("a hidden window gets no frame callbacks and does not spin")
    func hiddenWindowDoesNotSpin() throws {
        let sway = try HeadlessSway()
        let display = try sway.connect()
        let window = ToplevelWindow(display: display, title: "hidden")
        window.isAnimating = { true }
        window.onDraw = { ctx in paint(ctx, rgb: UInt32(ctx.frame % 200)); return .full }
        try display.connection.dispatch(until: { window.frameNumber > 10 }, timeout: 5)
        // Move it to another workspace: the output keeps showing the (now empty) first one.
        #expect(try sway.command("move container to workspace 2").status == 0)
        let settle = MonotonicClock.now
        try display.connection.dispatch(until: { MonotonicClock.now - settle > 0.3 }, timeout: 5)
        let frames = window.frameNumber
        var dispatches = 0
        let start = MonotonicClock.now
        while MonotonicClock.now - start < 1 {
            try display.connection.dispatch(timeout: 1 - (MonotonicClock.now - start))
            dispatches += 1
        }
        #expect(window.frameNumber == frames)   // no callbacks, no frames
        #expect(dispatches < 10)                // the client slept instead of spinning
        // Back on screen, it animates again.
        #expect(try sway.command("workspace 2").status == 0)
        try display.connection.dispatch(until: { window.frameNumber > frames + 5 }, timeout: 5, what: "frames after showing the window again")
    }
}
