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
