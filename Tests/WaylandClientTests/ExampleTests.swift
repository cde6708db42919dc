import LayerKitTesting
import Glibc
import PixmanRender
import StrataTesting
import Testing

extension Integration {
/// The examples run for real against a headless weston.
@MainActor
@Suite("Examples", .serialized, .mainLayerContext)
struct ExampleTests {
    @Test("rounded-rects animates in a blocking EventLoop.run() and stops from a main-actor task")
    func roundedRects() throws {
        let binary = ".build/debug/rounded-rects"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let weston = try HeadlessWeston()
        let (status, output) = try weston.runClient([binary, "--seconds", "1"], timeout: 20)
        #expect(status == 0, "\(output)")
        let frames = output.split(separator: "\n").first { $0.hasPrefix("frames: ") }
            .flatMap { Int($0.dropFirst(8).prefix { $0.isNumber }) }
        #expect((frames ?? 0) > 15, "\(output)")
        #expect(output.contains("buffers allocated: 2") || output.contains("buffers allocated: 3"), "\(output)")
    }

    @Test("layer-snapshot renders its scene offscreen to a PNG")
    func layerSnapshot() throws {
        let binary = ".build/debug/layer-snapshot"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let weston = try HeadlessWeston()   // not needed by the example; gives a private directory
        let path = weston.runtimeDirectory + "/snapshot.png"
        let (status, output) = try weston.runClient([binary, path], timeout: 20)
        #expect(status == 0, "\(output)")
        let image = try RenderedImage(contentsOfFile: path)
        #expect(image.width == 480 && image.height == 320)
        let stripe = image.rgba8(x: 220, y: 240)
        #expect(stripe.r == 255 && stripe.g == 0 && stripe.b == 255)   // the clipped, masked magenta stripe
        #expect(image.rgba8(x: 300, y: 215).g > 200)                    // masked away: the clip's light background
        #expect(image.rgba8(x: 150, y: 195).r == 0x20)                 // clipped away by the rounded corner
    }

    @Test("seed-listings renders the guide's listings as strips of frames")
    func seedListings() throws {
        let binary = ".build/debug/seed-listings"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let weston = try HeadlessWeston()   // for its private directory
        let (status, output) = try weston.runClient([binary, weston.runtimeDirectory], timeout: 30)
        #expect(status == 0, "\(output)")
        let push = try RenderedImage(contentsOfFile: weston.runtimeDirectory + "/listing-6-1-push.png")
        #expect(push.width == 720 && push.height == 120)
        #expect(push.rgba8(x: 60, y: 60).r == 255)          // first frame: the old (red) contents
        #expect(push.rgba8(x: 660, y: 60).b == 255)         // last frame: the new (blue) contents
        let bounce = try RenderedImage(contentsOfFile: weston.runtimeDirectory + "/listing-3-3-bounce.png")
        #expect(bounce.width == 320 * 9)
    }

    @Test("gallery and clock run in a window on weston and stop on time")
    func galleryAndClockOnScreen() throws {
        for name in ["gallery", "clock"] {
            let binary = ".build/debug/\(name)"
            try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
            let weston = try HeadlessWeston()
            let (status, output) = try weston.runClient([binary, "--seconds", "1"], timeout: 30)
            #expect(status == 0, "\(output)")
            let frames = output.split(separator: "\n").first { $0.hasPrefix("frames: ") }
                .flatMap { Int($0.dropFirst(8).prefix { $0.isNumber }) }
            #expect((frames ?? 0) > 5, "\(name): \(output)")
        }
    }

    @Test("rule W3: gallery, clock and the demo render offscreen with STRATA_OFFSCREEN, no compositor needed")
    func examplesOffscreen() throws {
        let weston = try HeadlessWeston()   // for its private directory; the apps do not connect
        let dir = weston.runtimeDirectory + "/offscreen"
        for name in ["gallery", "clock", "strata-demo"] {
            let (status, output) = try weston.runClient([".build/debug/\(name)", "--appearance", "dark"],
                                                        environment: ["STRATA_OFFSCREEN": dir, "STRATA_OFFSCREEN_DURATION": "0.5",
                                                                      "WAYLAND_DISPLAY": "strata-nothing-here"], timeout: 30)
            #expect(status == 0, "\(name): \(output)")
        }
        let gallery = try RenderedImage(contentsOfFile: dir + "/Strata-gallery.png")
        #expect(gallery.width == 640 && gallery.height == 480)
        #expect(gallery.rgba8(x: 30, y: 25) == (0x1c, 0x1c, 0x1e, 255))          // a tile's panel: dark secondary grouped background
        let clock = try RenderedImage(contentsOfFile: dir + "/Strata-clock.png")
        #expect(clock.width == 320 && clock.rgba8(x: 160, y: 160).r == 0xd8)      // the red pin in the middle
        let strip = try RenderedImage(contentsOfFile: dir + "/Strata-demo-filmstrip.png")
        #expect(strip.width == 640 * 5 && strip.height == 480)                    // 0.5 s at 8 frames a second
    }

    @Test("text, controls and todo run on weston and offscreen; their pictures show text and controls")
    func textAndControls() throws {
        let weston = try HeadlessWeston()
        let dir = weston.runtimeDirectory + "/offscreen"
        for name in ["text", "controls", "todo"] {
            let binary = ".build/debug/\(name)"
            try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
            let onScreen = try weston.runClient([binary, "--seconds", "1"], timeout: 30)
            #expect(onScreen.status == 0, "\(name): \(onScreen.output)")
            let offscreen = try weston.runClient([binary], environment: ["STRATA_OFFSCREEN": dir, "STRATA_OFFSCREEN_DURATION": "0.3",
                                                                       "WAYLAND_DISPLAY": "strata-nothing-here"], timeout: 30)
            #expect(offscreen.status == 0, "\(name): \(offscreen.output)")
        }
        let text = try RenderedImage(contentsOfFile: dir + "/Strata-text.png")
        #expect(text.width == 900 && text.height == 680)
        // The file and link buttons along the bottom, filled with the tint.
        #expect(text.rgba8(x: 30, y: 640).b > 200 && text.rgba8(x: 30, y: 640).r < 60)
        // Hebrew is right-aligned: ink near the right edge of its row; the emoji row has colour.
        #expect((820..<880).contains { x in (150..<170).contains { y in text.rgba8(x: x, y: y).r < 100 } })
        #expect((280..<520).contains { x in (300..<330).contains { y in let p = text.rgba8(x: x, y: y); return p.r > 200 && p.g > 150 && p.b < 90 } })
        let controls = try RenderedImage(contentsOfFile: dir + "/Strata-controls.png")
        let on = controls.rgba8(x: 250, y: 85)                           // the switch that is on: green
        #expect(on.g > 180 && on.r < 80 && on.b < 120)
        let todo = try RenderedImage(contentsOfFile: dir + "/To-do.png")
        #expect(todo.rgba8(x: 312, y: 77).b == 255 && todo.rgba8(x: 312, y: 77).r < 50)   // the filled Add button, below the navigation bar
    }

    @Test("on a machine with no fonts, the text example says so clearly and fails")
    func noFonts() throws {
        let weston = try HeadlessWeston()
        let config = weston.runtimeDirectory + "/fonts.conf"
        let empty = "<?xml version=\"1.0\"?><!DOCTYPE fontconfig SYSTEM \"fonts.dtd\"><fontconfig><cachedir>\(weston.runtimeDirectory)/fc</cachedir></fontconfig>"
        try #require(empty.withCString { s in fopen(config, "w").map { f in defer { fclose(f) }; return fputs(s, f) >= 0 } } == true)
        let (status, output) = try weston.runClient([".build/debug/text"], environment: ["FONTCONFIG_FILE": config, "STRATA_OFFSCREEN": weston.runtimeDirectory],
                                                    timeout: 30)
        #expect(status == 1, "\(output)")
        #expect(output.contains("fontconfig finds no fonts"), "\(output)")
    }

    @Test("strata-probe reports what a compositor offers: attached, started headless, as a table or JSON; bad input is a clear error")
    func strataProbe() throws {
        let binary = ".build/debug/strata-probe"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let weston = try HeadlessWeston()
        let attached = try weston.runClient([binary, "probe"], timeout: 30)     // WAYLAND_DISPLAY is weston's
        #expect(attached.status == 0, "\(attached.output)")
        #expect(attached.output.contains("yes  xdg-shell") && attached.output.contains("no   seat"), "\(attached.output)")
        let started = try weston.runClient([binary, "probe", "--compositor", "sway", "--json"], timeout: 30)
        #expect(started.status == 0, "\(started.output)")
        #expect(started.output.contains("\"compositor\": \"sway\"") && started.output.contains("\"seat\": true")
                && started.output.contains("\"wl_seat\": "), "\(started.output)")
        let missing = try weston.runClient([binary, "probe"], environment: ["WAYLAND_DISPLAY": "strata-nothing-here"], timeout: 30)
        #expect(missing.status == 1 && missing.output.contains("strata-nothing-here"), "\(missing.output)")
        let bad = try weston.runClient([binary, "probe", "--compositor", "nonesuch"], timeout: 30)
        #expect(bad.status == 2 && bad.output.contains("unknown compositor 'nonesuch'"), "\(bad.output)")
        // Required features: a skip (77) with the reason, a failure in strict mode, on when offered.
        let skip = try weston.runClient([binary, "probe", "--require", "xdg-shell,seat"], timeout: 30)
        #expect(skip.status == 77 && skip.output.contains("skip: the compositor offers no seat (wl_seat)"), "\(skip.output)")
        let strict = try weston.runClient([binary, "probe", "--require", "seat", "--strict"], timeout: 30)
        #expect(strict.status == 1 && strict.output.contains("strict mode"), "\(strict.output)")
        let offered = try weston.runClient([binary, "probe", "--require", "xdg-shell,viewporter"], timeout: 30)
        #expect(offered.status == 0 && offered.output.contains("yes  xdg-shell"), "\(offered.output)")
    }

    @Test("strata-probe pacing and capture: statistics as a table and JSON on all five compositors, a plot, a screenshot; bad options are clear errors")
    func strataProbePacingAndCapture() throws {
        let binary = ".build/debug/strata-probe"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let weston = try HeadlessWeston()
        let plot = weston.runtimeDirectory + "/pacing.png"
        let pacing = try weston.runClient([binary, "pacing", "--seconds", "1.5", "--json", "--plot", plot], timeout: 60)
        #expect(pacing.status == 0, "\(pacing.output)")
        let line = pacing.output.split(separator: "\n").first { $0.hasPrefix("{\"compositor\"") }.map(String.init) ?? ""
        #expect(line.contains("\"frames_per_second\": ") && line.contains("\"callback_to_commit_p99_ms\": "), "\(pacing.output)")
        // The client answered most callbacks: frames within a few of the callbacks.
        func figure(_ name: String) -> Double? {
            line.firstRange(of: "\"\(name)\": ").flatMap { Double(line[$0.upperBound...].prefix { $0.isNumber || $0 == "." }) }
        }
        let frames = try #require(figure("frames")), callbacks = try #require(figure("callbacks"))
        #expect(frames > 20 && abs(frames - callbacks) <= 3, "\(line)")
        let image = try RenderedImage(contentsOfFile: plot)
        #expect(image.width == 800 && image.height == 300)
        // capture on sway, started for the run.
        let shot = weston.runtimeDirectory + "/sway.png"
        let capture = try weston.runClient([binary, "capture", shot, "--compositor", "sway"], timeout: 60)
        #expect(capture.status == 0, "\(capture.output)")
        #expect(try RenderedImage(contentsOfFile: shot).width > 0)
        // On each of the other compositors, started for the run: the client keeps up with its callbacks;
        // mutter's presentation feedback is real, so there frames are counted as presented.
        for name in ["sway", "cage", "kwin", "mutter"] {
            let run = try weston.runClient([binary, "pacing", "--seconds", "1.5", "--json", "--compositor", name], timeout: 60)
            #expect(run.status == 0, "\(name): \(run.output)")
            let json = run.output.split(separator: "\n").first { $0.hasPrefix("{\"compositor\"") }.map(String.init) ?? ""
            func value(_ key: String) -> Double? {
                json.firstRange(of: "\"\(key)\": ").flatMap { Double(json[$0.upperBound...].prefix { $0.isNumber || $0 == "." }) }
            }
            let frames = try #require(value("frames"), "\(name): \(run.output)"), callbacks = try #require(value("callbacks"))
            #expect(json.contains("\"compositor\": \"\(name)\"") && frames > 20 && abs(frames - callbacks) <= 3, "\(json)")
            if name == "mutter" { #expect(try #require(value("presented")) >= frames - 3, "\(json)") }
        }
        for (args, message) in [(["pacing", "--seconds", "-1"], "--seconds needs"), (["capture"], "capture needs one file name"),
                                (["pacing", "extra"], "unexpected 'extra'")] {
            let bad = try weston.runClient([binary] + args, timeout: 30)
            #expect(bad.status == 2 && bad.output.contains(message), "\(args): \(bad.output)")
        }
    }

    @Test("strata-demo told to use a compositor that is not there says so and fails")
    func demoUnreachableCompositor() throws {
        let weston = try HeadlessWeston()
        let (status, output) = try weston.runClient([".build/debug/strata-demo", "--seconds", "1"],
                                                    environment: ["WAYLAND_DISPLAY": "strata-nothing-here"], timeout: 30)
        #expect(status == 1, "\(output)")
        #expect(output.contains("strata-nothing-here") && output.contains(weston.runtimeDirectory), "\(output)")
        #expect(!output.contains("starting a headless weston"), "\(output)")
    }

    @Test("strata-demo animates views in a window and stops on time")
    func strataDemo() throws {
        let binary = ".build/debug/strata-demo"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let weston = try HeadlessWeston()
        let (status, output) = try weston.runClient([binary, "--seconds", "2"], timeout: 30)
        #expect(status == 0, "\(output)")
        let frames = output.split(separator: "\n").first { $0.hasPrefix("frames: ") }
            .flatMap { Int($0.dropFirst(8).prefix { $0.isNumber }) }
        #expect((frames ?? 0) > 20, "\(output)")
    }
}
}
