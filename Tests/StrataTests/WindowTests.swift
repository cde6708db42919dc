@testable import Strata
import LayerKitTesting
import Glibc
import PixmanRender
import StrataTesting
import Testing
import WaylandClient

/// Windows and the application without a compositor (rules W2, W3).
@MainActor
@Suite("Windows offscreen", .mainLayerContext)
struct WindowOffscreenTests {
    /// Lays out its two subviews side by side, each half of its width.
    final class Halves: View {
        var laidOutSizes: [Size] = []
        override func layoutSubviews() {
            laidOutSizes.append(bounds.size)
            let w = bounds.width / 2
            subviews[0].frame = Rect(x: 0, y: 0, width: w, height: bounds.height)
            subviews[1].frame = Rect(x: w, y: 0, width: w, height: bounds.height)
        }
    }

    func halvesWindow(_ f: ViewFixture) -> Halves {
        let halves = Halves(frame: .zero)
        let left = View(), right = View()
        left.backgroundColor = .red
        right.backgroundColor = .blue
        halves.addSubview(left)
        halves.addSubview(right)
        f.window.rootView = halves
        return halves
    }

    @Test("rule W2: the root view fills the window; a resize lays it out in the same transaction")
    func resizeLaysOut() {
        let f = ViewFixture(size: Size(width: 200, height: 100))
        let halves = halvesWindow(f)
        #expect(halves.frame == Rect(x: 0, y: 0, width: 200, height: 100))
        halves.laidOutSizes = []
        var commitsSeen: [Size] = []
        Transaction.afterCommit { commitsSeen.append(halves.laidOutSizes.last ?? .zero) }
        f.window.size = Size(width: 300, height: 80)
        #expect(halves.laidOutSizes == [Size(width: 300, height: 80)])   // laid out before the resize returned
        #expect(halves.subviews[1].frame == Rect(x: 150, y: 0, width: 150, height: 80))
        Transaction.flush()
        #expect(commitsSeen == [Size(width: 300, height: 80)])
        let image = f.window.snapshot()
        #expect(image.width == 300 && image.height == 80)
        #expect(image.rgba8(x: 149, y: 40).r == 255 && image.rgba8(x: 150, y: 40).b == 255)
    }

    @Test("rule W2: a resize inside an animation block animates the new layout")
    func animatedResize() {
        let f = ViewFixture(size: Size(width: 200, height: 100))
        let halves = halvesWindow(f)
        f.window.layoutIfNeeded()
        Transaction.flush()
        View.animate(duration: 1, options: .curveLinear) { f.window.size = Size(width: 400, height: 100) }
        Transaction.flush()
        f.advance(0.5)
        #expect(close(f.shownPoint(halves.subviews[1]).x, 150 + 75))   // centre from 150 to 300
    }

    @Test("rule W3: a window never shown snapshots at its size, scale 1, at any media time")
    func snapshotNeverShown() {
        let f = ViewFixture()
        let window = Window(title: "never shown", size: Size(width: 120, height: 80))
        window.backgroundColor = .black
        let card = View(frame: Rect(x: 10, y: 10, width: 50, height: 50))
        card.backgroundColor = .green
        window.rootView.addSubview(card)
        let image = window.snapshot()
        #expect(image.width == 120 && image.height == 80)
        #expect(image.rgba8(x: 30, y: 30).g == 255 && image.rgba8(x: 100, y: 30).g == 0)
        // Its tree is not presented: a plain layer's change does not animate (rule B5).
        let plain = Layer()
        card.layer.addSublayer(plain)
        Transaction.flush()
        plain.opacity = 0.5
        #expect(plain.animationKeys.isEmpty)
        _ = f
    }

    @Test("rule W3: snapshots and filmstrips show an animation at the times asked")
    func filmstrip() {
        let f = ViewFixture(size: Size(width: 100, height: 50))
        f.window.backgroundColor = .black
        let card = f.addView(Rect(x: 0, y: 0, width: 100, height: 50), color: .white)
        View.animate(duration: 1, options: .curveLinear) { card.alpha = 0 }
        Transaction.flush()
        let strip = f.window.filmstrip(from: 100, to: 101, frames: 5)
        #expect(strip.width == 500 && strip.height == 50)
        let greys = (0..<5).map { Int(strip.rgba8(x: $0 * 100 + 50, y: 25).r) }
        #expect(greys == [255, 191, 128, 64, 0].map { $0 } || zip(greys, [255, 191, 128, 64, 0]).allSatisfy { abs($0 - $1) <= 1 })
        #expect(f.window.snapshot(atTime: 100.5) == f.window.snapshot(atTime: 100.5))
    }

    @Test("rule W3: an offscreen run renders every window over time into PNGs: last frame and filmstrip")
    func offscreenRun() throws {
        let f = ViewFixture(size: Size(width: 60, height: 40))
        f.window.title = "Offscreen run/1"
        f.window.backgroundColor = .black
        let card = f.addView(Rect(x: 0, y: 0, width: 60, height: 40), color: .white)
        View.animate(duration: 1, options: .curveLinear) { card.alpha = 0 }
        let dir = "/tmp/strata-offscreen-\(getpid())"
        try Application.shared.run(mode: .offscreen(directory: dir, duration: 1, framesPerSecond: 4))
        let last = try RenderedImage(contentsOfFile: "\(dir)/Offscreen-run-1.png")
        let strip = try RenderedImage(contentsOfFile: "\(dir)/Offscreen-run-1-filmstrip.png")
        #expect(last.width == 60 && last.rgba8(x: 30, y: 20).r == 0)        // faded out at the end
        #expect(strip.width == 60 * 5 && strip.rgba8(x: 30, y: 20).r == 255)
        #expect(abs(Int(strip.rgba8(x: 120 + 30, y: 20).r) - 128) <= 1)    // half-way at t = 0.5
        #expect(MediaTime.clock === f.clock)                               // the clock is given back
    }

    @Test("an offscreen run of 60 s keeps at most 16 filmstrip frames, spread over the run; windows with one title get files of their own (issue 30, item 10)")
    func offscreenRunIsBounded() throws {
        let f = ViewFixture(size: Size(width: 40, height: 20))
        f.window.title = "same"
        f.window.backgroundColor = .black
        let card = f.addView(Rect(x: 0, y: 0, width: 40, height: 20), color: .white)
        View.animate(duration: 60, options: .curveLinear) { card.alpha = 0 }
        let twin = Window(title: "same", size: Size(width: 40, height: 20))
        twin.backgroundColor = .red
        twin.show()
        defer { twin.close() }
        let dir = "/tmp/strata-offscreen-bounded-\(getpid())"
        try Application.shared.run(mode: .offscreen(directory: dir, duration: 60, framesPerSecond: 30))
        let strip = try RenderedImage(contentsOfFile: "\(dir)/same-filmstrip.png")
        #expect(strip.width == 40 * 16)
        #expect(strip.rgba8(x: 20, y: 10).r == 255 && strip.rgba8(x: 15 * 40 + 20, y: 10).r == 0)   // first and last
        #expect(abs(Int(strip.rgba8(x: 5 * 40 + 20, y: 10).r) - 170) <= 2)                       // a third of the way: alpha 2/3
        let twinLast = try RenderedImage(contentsOfFile: "\(dir)/same-2.png")
        #expect(twinLast.rgba8(x: 20, y: 10) == (255, 0, 0, 255))
        #expect(try RenderedImage(contentsOfFile: "\(dir)/same.png").rgba8(x: 20, y: 10).r == 0)
        // The steps chosen: ends included, evenly spread, never more than asked.
        #expect(OffscreenRun.filmstripSteps(steps: 4, windows: [f.window]) == [0, 1, 2, 3, 4])
        #expect(OffscreenRun.filmstripSteps(steps: 1_800, windows: [f.window]).count == 16)
        #expect(OffscreenRun.filmstripSteps(steps: 1_800, windows: [f.window]).isSuperset(of: [0, 1_800]))
    }

    @Test("a window closed while its views animate: the animations run on and complete")
    func closeWhileAnimating() {
        let f = ViewFixture()
        let card = f.addView()
        var done: [Bool] = []
        View.animate(duration: 1, { card.alpha = 0 }, completion: { done.append($0) })
        Transaction.flush()
        f.advance(0.5)
        f.window.close()
        #expect(!f.window.isVisible && Application.shared.windows.isEmpty)
        f.advance(0.5)
        #expect(done == [true])
        f.window.show()
        #expect(Application.shared.windows.count == 1)
    }

    @Test("bad input: thousands of windows open and close; sizes that are not finite are clamped")
    func manyWindows() {
        let f = ViewFixture()
        var windows: [Window] = []
        for i in 0..<2000 {
            let w = Window(title: "w\(i)", size: Size(width: 10, height: 10))
            w.rootView.addSubview(View(frame: Rect(x: 0, y: 0, width: 5, height: 5)))
            w.show()
            windows.append(w)
        }
        #expect(Application.shared.windows.count == 2001)
        Transaction.flush()
        for w in windows { w.close() }
        #expect(Application.shared.windows.count == 1)
        let odd = Window(title: "odd", size: Size(width: .nan, height: -.infinity))
        #expect(odd.size == Size(width: 1, height: 1))
        odd.size = Size(width: 1e12, height: 50)
        #expect(odd.size == Size(width: 16_384, height: 50))
        odd.minimumSize = Size(width: 100, height: 100)
        #expect(odd.size == Size(width: 16_384, height: 100))
        #expect(!f.diagnostics.isEmpty)
    }

    @Test("a compositor that cannot be reached is a clear error naming the socket")
    func unreachableCompositor() {
        let f = ViewFixture()
        setenv("WAYLAND_DISPLAY", "strata-no-such-socket", 1)
        defer { unsetenv("WAYLAND_DISPLAY") }
        #expect {
            try Application.shared.run(mode: .compositor)
        } throws: { error in
            "\(error)".contains("strata-no-such-socket") && "\(error)".contains("STRATA_OFFSCREEN")
        }
        _ = f
    }
}

/// Windows on a real compositor (rules W1, W2).
@MainActor
@Suite("Windows on weston", .serialized, .mainLayerContext)
struct WindowOnWestonTests {
    /// Waits until the window has committed everything and weston has shown it.
    func waitUntilShown(_ window: Window, _ display: Display) throws {
        let toplevel = try #require(window.onscreen?.toplevel)
        while true {
            let frames = toplevel.frameNumber, callbacks = toplevel.statistics.callbackCount
            toplevel.setNeedsDisplay()
            try display.connection.dispatch(until: { toplevel.statistics.callbackCount > callbacks && !toplevel.isDrawing },
                                            timeout: 5, what: "a frame callback with nothing left to draw")
            if toplevel.frameNumber == frames { return }
        }
    }

    @Test("rules W1, W2: a view tree on screen equals its snapshot, also after the compositor resizes the window")
    func onScreenAndResized() throws {
        let (weston, display) = try appOnWeston()
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }

        let window = Window(title: "halves", size: Size(width: 320, height: 240))
        let halves = WindowOffscreenTests.Halves(frame: .zero)
        for color in [Color.red, .blue] {
            let v = View()
            v.backgroundColor = color
            v.layer.cornerRadius = 12
            halves.addSubview(v)
        }
        window.rootView = halves
        window.show()
        window.isFullscreen = true      // weston answers with its output's size: a resize by the compositor
        try display.connection.dispatch(until: { window.isFullscreen && window.size == Size(width: 640, height: 480) }, timeout: 5)
        #expect(halves.laidOutSizes.last == Size(width: 640, height: 480))
        try waitUntilShown(window, display)
        let shot = try weston.screenshot()
        let expected = window.snapshot()
        #expect(shot.width == 640 && expected.width == 640)
        // The compositor's capture against the offscreen render of the same tree (pictures written on a mismatch).
        #expect(throws: Never.self) {
            try ImageComparison(tolerance: 1).check(shot, against: expected, name: "halves-on-weston", artifactsDirectory: weston.runtimeDirectory)
        }
        #expect(shot.rgba8(x: 500, y: 240).b == 255 && shot.rgba8(x: 100, y: 240).r == 255)
        // The client's own last committed buffer is what the compositor shows.
        let own = try #require(window.lastCommittedFrame())
        #expect(throws: Never.self) {
            try ImageComparison(tolerance: 1).check(own, against: shot, name: "halves-own-buffer", artifactsDirectory: weston.runtimeDirectory)
        }
    }

    @Test("frames show the presentation at media times of the installed clock, a ManualMediaClock too — on weston, sway, kwin and mutter, each capture equal to the offscreen render at that time",
          arguments: ["weston", "sway", "kwin", "mutter"])
    func framesAtManualMediaTimes(compositorName: String) throws {
        Transaction.reset()
        Application.shared.disconnect()
        let clock = ManualMediaClock(now: 100)
        MediaTime.clock = clock
        defer { MediaTime.clock = MonotonicMediaClock() }
        let compositor: any Compositor = switch compositorName {
        case "sway": try HeadlessSway(width: 320, height: 240)
        case "kwin": try HeadlessKWin(width: 320, height: 240)
        case "mutter": try HeadlessMutter(width: 320, height: 240)
        default: try HeadlessWeston(width: 320, height: 240)
        }
        defer { compositor.stop() }
        let display = try compositor.connect()
        Application.shared.use(display)
        defer { Application.shared.disconnect() }
        let window = Window(title: "manual time", size: Size(width: 320, height: 240))
        window.backgroundColor = .black
        let card = View(frame: Rect(x: 0, y: 0, width: 320, height: 240))
        card.backgroundColor = .white
        window.rootView.addSubview(card)
        window.show()
        window.isFullscreen = true
        try display.connection.dispatch(until: { window.isFullscreen && window.size == Size(width: 320, height: 240) }, timeout: 10)
        View.animate(duration: 1, options: .curveLinear) { card.alpha = 0 }
        Transaction.flush()
        /// The centre pixel's red once the compositor shows `want` (some show a frame
        /// a little after its commit: mutter), or the last seen after 3 s.
        func shown(_ want: Int) throws -> Int {
            try waitUntilShown(window, display)
            let deadline = MonotonicClock.now + 3
            while true {
                let red = Int(try compositor.screenshot(timeout: 10).rgba8(x: 160, y: 120).r)
                if abs(red - want) <= 1 || MonotonicClock.now > deadline { return red }
                try display.connection.roundtrip()
            }
        }
        // Time stands still at 100: the card is opaque. (Mutter's capture goes
        // through GStreamer's videoconvert, which may round a level by one.)
        let first = try shown(255)
        #expect(abs(first - 255) <= 1, "\(compositorName): \(first)")
        clock.advance(by: 0.5)
        let offscreen = Int(window.snapshot(atTime: clock.now).rgba8(x: 160, y: 120).r)
        #expect(abs(offscreen - 128) <= 1, "half-way through the fade offscreen: \(offscreen)")
        let half = try shown(offscreen)
        #expect(abs(half - offscreen) <= 1, "\(compositorName): on screen \(half), offscreen \(offscreen)")
    }
}

/// Closing windows on a compositor that sends close requests (sway's `kill`).
@MainActor
@Suite("Windows closed by the compositor", .serialized, .mainLayerContext)
struct WindowCloseTests {
    @Test("a close request asks shouldClose; the last window closing ends Application.run()")
    func closeRequests() async throws {
        let (sway, display) = try appOnSway()
        let app = Application.shared
        defer { withExtendedLifetime(sway) { app.disconnect() } }
        let window = Window(title: "closable", size: Size(width: 200, height: 100))
        var asked = 0
        var closingTurn: Int?    // the loop's turn that let the window close
        window.shouldClose = { _ in
            asked += 1
            guard asked > 1 else { return false }      // refuses the first request
            closingTurn = app.loop?.turns
            return true
        }
        window.show()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        try display.connection.roundtrip()
        #expect(try sway.command("[title=\"closable\"] kill").status == 0)
        try display.connection.dispatch(until: { asked == 1 }, timeout: 5, what: "a close request")
        #expect(window.isVisible && app.windows.count == 1)
        let loop = try #require(app.loop)
        var killed = false
        loop.schedule(after: 0.3) { killed = (try? sway.command("[title=\"closable\"] kill").status) == 0 }
        // A bound should the close never end run(). Not a measure of how soon it
        // ends: while this test awaits, the parallel suite's other main-actor tests
        // may hold the main queue for many seconds (once 23 s). A turn dispatches
        // the events it read before the timers due, so a close in the bound's own
        // turn ended run() by itself.
        var stoppedByBound = false
        loop.schedule(after: 60) {
            stoppedByBound = closingTurn.map { loop.turns > $0 } ?? true
            app.stop()
        }
        try await app.runAsync(mode: .compositor)
        #expect(killed)
        #expect(!stoppedByBound, "run() went on after the last window closed")
        #expect(asked == 2 && !window.isVisible && app.windows.isEmpty)
    }
}


/// Client-side decorations where the compositor draws none (rule W1): weston
/// headless offers no xdg-decoration.
@MainActor
@Suite("Window decorations", .serialized, .mainLayerContext)
struct WindowDecorationTests {
    func start() throws -> (HeadlessWeston, Display, Window) {
        let (weston, display) = try appOnWeston()
        let window = Window(title: "decorated", size: Size(width: 300, height: 200))
        window.backgroundColor = Color(rgba8: 0x30, 0x60, 0x90)
        window.show()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        return (weston, display, window)
    }

    @Test("rule W1: without server-side decorations the window draws a title bar and resize edges around its content")
    func drawnFrame() throws {
        let (weston, display, window) = try start()
        defer { Application.shared.disconnect() }
        let frame = try #require(window.decorations)
        #expect(frame.isFloating)
        #expect(window.toplevel!.margins == (8, 8, 8, 8))
        #expect(window.contentOrigin == Point(x: 8, y: 40))
        #expect(window.rootView.convert(Point.zero, to: nil) == Point(x: 8, y: 40))
        let shot = window.snapshot()
        #expect(shot.width == 316 && shot.height == 248)
        #expect(shot.rgba8(x: 100, y: 20) == (0xeb, 0xeb, 0xed, 255))      // the title bar
        #expect(shot.rgba8(x: 100, y: 100) == (0x30, 0x60, 0x90, 255))     // the content
        // The title, in text, centred in the bar.
        let title = try #require(inkBounds(shot, in: (40..<216, 8..<40)))   // left of the buttons
        #expect(abs(Double(title.minX + title.maxX) / 2 - 158) <= 2 && title.maxX - title.minX > 40)
        window.title = "a much longer title that cannot fit in the bar at all"
        let long = try #require(inkBounds(window.snapshot(), in: (8..<216, 17..<32)))   // below the rounded corners
        #expect(long.minX >= 104 && long.maxX < 214, "\(long)")                     // cut with "…", clear of the buttons
        #expect(shot.rgba8(x: 2, y: 100).a == 0)                          // the resize edge: transparent
        // Maximized: no edges, a known place on screen; the screen equals the snapshot.
        window.isMaximized = true
        try display.connection.dispatch(until: { window.isMaximized && window.size == Size(width: 640, height: 448) }, timeout: 5)
        #expect(!frame.isFloating && window.toplevel!.margins == (0, 0, 0, 0))
        try WindowOnWestonTests().waitUntilShown(window, display)
        let screen = try weston.screenshot()
        #expect((screen.maximumDifference(from: window.snapshot()) ?? 255) <= 1)
        #expect(screen.rgba8(x: 100, y: 16) == (0xeb, 0xeb, 0xed, 255) && screen.rgba8(x: 300, y: 200).b == 0x90)
        try screen.writePNG(to: "/tmp/strata-decorated.png")
    }

    @Test("rule W1: the frame's buttons, title bar and edges ask for what they should")
    func frameRequests() throws {
        let (weston, display, window) = try start()
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }
        let driver = InputDriver(window: window)
        let onscreen = try #require(window.onscreen)
        let frame = try #require(window.decorations)
        driver.click(at: Point(x: 100, y: 24))                    // the title bar
        #expect(onscreen.lastDecorationRequest == .move)
        driver.click(at: Point(x: 4, y: 120))                     // the left edge
        #expect(onscreen.lastDecorationRequest == .resize(.left))
        driver.click(at: Point(x: 312, y: 244))                   // the bottom right corner
        #expect(onscreen.lastDecorationRequest == .resize(.bottomRight))
        driver.movePointer(to: Point(x: 100, y: 24))
        driver.press(.right)
        #expect(onscreen.lastDecorationRequest == .showMenu(Point(x: 100, y: 24)))
        driver.release(.right)
        let maximize = frame.maximizeButton.convert(Point(x: 12, y: 12), to: nil)
        driver.click(at: maximize)
        #expect(onscreen.lastDecorationRequest == .toggleMaximized)
        try display.connection.dispatch(until: { window.isMaximized }, timeout: 5, what: "maximized")
        window.layoutIfNeeded()
        driver.click(at: frame.closeButton.convert(Point(x: 12, y: 12), to: nil))
        #expect(!window.isVisible)
    }

    @Test("rule W1: the content's views get the input inside the frame, at content coordinates")
    func contentInputInsideFrame() throws {
        let (weston, _, window) = try start()
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }
        let view = RecordingView(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        window.rootView.addSubview(view)
        let driver = InputDriver(window: window)
        driver.click(at: view.convert(Point(x: 10, y: 10), to: nil))
        #expect(view.log == ["began 1", "ended"])
        #expect(window.onscreen?.lastDecorationRequest == nil)
    }
}
