import LayerKitTesting
import PixmanRender
import Strata
import StrataTesting
import Testing
import WaylandClient

extension Integration {
/// A layer tree in a real window on headless weston (issue: PixmanRender glue).
@MainActor
@Suite("Layer trees in windows", .serialized, .mainLayerContext)
struct LayerWindowTests {
    func buildScene(in root: Layer) {
        Transaction.withoutActions {
            let card = Layer()
            card.frame = Rect(x: 40, y: 40, width: 200, height: 140)
            card.backgroundColor = Color(red: 0.9, green: 0.3, blue: 0.2)
            card.cornerRadius = 24
            card.borderWidth = 4
            card.borderColor = .white
            root.addSublayer(card)
            let group = Layer()
            group.frame = Rect(x: 300, y: 80, width: 260, height: 260)
            group.opacity = 0.6
            root.addSublayer(group)
            for i in 0..<3 {
                let l = Layer()
                l.frame = Rect(x: Double(i) * 60, y: Double(i) * 60, width: 120, height: 120)
                l.backgroundColor = [Color.green, .blue, .yellow][i]
                group.addSublayer(l)
            }
            let turned = Layer()
            turned.frame = Rect(x: 80, y: 300, width: 160, height: 40)
            turned.backgroundColor = .cyan
            turned.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1)
            root.addSublayer(turned)
        }
    }

    /// A headless weston and a client, on the system clock with no transaction open.
    func startWeston() throws -> (HeadlessWeston, Display) {
        MediaTime.clock = MonotonicMediaClock()
        Transaction.reset()
        let weston = try HeadlessWeston()
        return (weston, try weston.connect())
    }

    /// Waits until everything the tree shows is committed (frames are drawn off the
    /// main thread, so a frame may still be on its way) and one more frame callback
    /// came, which says the compositor has shown it.
    func waitUntilShown(_ lw: LayerWindow, _ display: Display) throws {
        while true {
            let frames = lw.window.frameNumber, callbacks = lw.window.statistics.callbackCount
            lw.window.setNeedsDisplay()
            try display.connection.dispatch(until: { lw.window.statistics.callbackCount > callbacks && !lw.window.isDrawing },
                                            timeout: 5, what: "a frame callback with nothing left to draw")
            if lw.window.frameNumber == frames { return }   // nothing new was committed meanwhile
        }
    }

    /// Once the compositor has shown the last frame, the screen equals an offscreen
    /// render of the window's tree.
    @discardableResult
    func expectScreenMatchesOffscreen(_ lw: LayerWindow, _ display: Display, _ weston: HeadlessWeston, scale: Double = 1) throws -> RenderedImage {
        try waitUntilShown(lw, display)
        let shot = try weston.screenshot()
        let offscreen = OffscreenRenderer(width: 640, height: 480, scale: scale)
        offscreen.backgroundColor = lw.backgroundColor
        offscreen.rootLayer = lw.rootLayer
        let expected = offscreen.render()
        offscreen.rootLayer = nil
        let difference = try #require(shot.maximumDifference(from: expected))
        #expect(difference <= 1, "screen and offscreen render (scale \(scale)) differ by \(difference)")
        return shot
    }

    @Test("the window on screen matches the offscreen render of the same tree")
    func windowMatchesOffscreen() throws {
        let (weston, display) = try startWeston()
        let lw = LayerWindow(display: display, title: "layers")
        lw.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3)
        lw.window.setFullscreen(true)
        buildScene(in: lw.rootLayer)
        Transaction.flush()
        try display.connection.dispatch(until: { lw.window.states.contains(.fullscreen) && lw.window.frameNumber > 0 }, timeout: 5)
        let shot = try expectScreenMatchesOffscreen(lw, display, weston)
        #expect(shot.rgba8(x: 100, y: 100).r > 200)   // the card is there: not two empty pictures
    }

    @Test("on a scale-2 output the tree is drawn at twice the pixels, as the offscreen render at scale 2")
    func windowAtScale2() throws {
        MediaTime.clock = MonotonicMediaClock()
        Transaction.reset()
        let weston = try HeadlessWeston(width: 320, height: 240, scale: 2)   // 640×480 pixels
        let display = try weston.connect()
        let lw = LayerWindow(display: display, title: "scale 2")
        lw.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3)
        lw.window.setFullscreen(true)
        let card = Layer()
        Transaction.withoutActions {
            card.frame = Rect(x: 20, y: 20, width: 150, height: 100)
            card.backgroundColor = .orange
            card.cornerRadius = 17.25     // on half pixels of the buffer: anti-aliased at scale 2
            card.borderWidth = 1.5
            card.borderColor = .white
            lw.rootLayer.addSublayer(card)
        }
        Transaction.flush()
        try display.connection.dispatch(until: { lw.window.scale == 2 && lw.window.frameNumber > 0 && lw.window.states.contains(.fullscreen) },
                                         timeout: 5, what: "a scale-2 frame")
        let shot = try expectScreenMatchesOffscreen(lw, display, weston, scale: 2)
        #expect(shot.width == 640 && shot.height == 480)
        #expect(shot.rgba8(x: 200, y: 150).g > 100, "the card covers (40…340, 40…240) in buffer pixels")
        #expect(shot.rgba8(x: 345, y: 150).r < 60, "and no more")
    }

    @Test("an implicit animation draws frames while it runs, then the window goes quiet")
    func animationFramesThenIdle() async throws {
        let (weston, display) = try startWeston()
        let loop = EventLoop(connection: display.connection)
        let lw = LayerWindow(display: display, loop: loop, title: "animating")
        let mover = Layer()
        Transaction.withoutActions {
            mover.frame = Rect(x: 0, y: 0, width: 50, height: 50)
            mover.backgroundColor = .red
            lw.rootLayer.addSublayer(mover)
        }
        var framesAtStart: UInt64 = 0, framesAtEnd: UInt64 = 0, framesLater: UInt64 = 0
        loop.schedule(after: 0.3) {
            framesAtStart = lw.window.frameNumber
            Transaction.begin()
            Transaction.animationDuration = 0.4
            mover.position = Point(x: 400, y: 300)   // implicit: the window is presented now
            Transaction.commit()
        }
        loop.schedule(after: 0.9) { framesAtEnd = lw.window.frameNumber }
        loop.schedule(after: 1.6) {
            framesLater = lw.window.frameNumber
            loop.stop()
        }
        try await loop.runAsync()
        #expect(framesAtEnd - framesAtStart >= 5, "\(framesAtStart) → \(framesAtEnd)")
        #expect(framesLater - framesAtEnd <= 2, "\(framesAtEnd) → \(framesLater)")   // quiet once it ended
        #expect(mover.animationKeys.isEmpty)
        Transaction.endOfTurnScheduler = { _ in }
    }

    @Test("frames repaint only the damage, per buffer age, and the screen stays exact; no change, no commit")
    func damageInWindow() throws {
        let (weston, display) = try startWeston()
        let lw = LayerWindow(display: display, title: "damage")
        lw.backgroundColor = Color(red: 0.1, green: 0.2, blue: 0.3)
        lw.window.setFullscreen(true)
        buildScene(in: lw.rootLayer)
        let mover = Layer()
        Transaction.withoutActions {
            mover.frame = Rect(x: 10, y: 400, width: 30, height: 30)
            mover.backgroundColor = .magenta
            lw.rootLayer.addSublayer(mover)
        }
        Transaction.flush()
        try display.connection.dispatch(until: { lw.window.states.contains(.fullscreen) && lw.window.frameNumber > 0 }, timeout: 5)
        // Several small moves: the two buffers take turns, each repaired by the damage of both frames since.
        for step in 1...6 {
            let frames = lw.window.frameNumber
            let traffic = try WaylandTraffic.recording {
                Transaction.withoutActions { mover.position = Point(x: 25 + Double(step) * 37, y: 415) }
                Transaction.flush()
                try display.connection.dispatch(until: { lw.window.frameNumber > frames }, timeout: 5, what: "frame \(step)")
            }
            let damages = traffic.filter { $0.name == "damage_buffer" }.count
            #expect(damages >= 1 && damages <= 4, "step \(step): \(damages) damage rectangles")
        }
        // A redraw with nothing changed commits nothing.
        let quiet = try WaylandTraffic.recording {
            lw.window.setNeedsDisplay()
            let start = MonotonicClock.now
            while MonotonicClock.now - start < 0.3 { try display.connection.dispatch(timeout: 0.05) }
        }
        #expect(!quiet.contains { $0.name == "attach" })
        try expectScreenMatchesOffscreen(lw, display, weston)
    }

    @Test("under a ManualMediaClock a layer window's frames show the media time it was given, not the monotonic one (issue 22)")
    func manualClockInALayerWindow() throws {
        let (weston, display) = try startWeston()
        defer { MediaTime.clock = MonotonicMediaClock() }
        let clock = ManualMediaClock(now: 100)
        MediaTime.clock = clock
        let lw = LayerWindow(display: display, title: "manual clock", width: 200, height: 200)
        lw.window.setFullscreen(true)
        lw.backgroundColor = .black
        let card = Layer()
        Transaction.withoutActions {
            card.frame = Rect(x: 0, y: 0, width: 2000, height: 2000)
            card.backgroundColor = .white
            lw.rootLayer.addSublayer(card)
        }
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 10
        fade.beginTime = 100
        card.add(fade, forKey: "fade")
        Transaction.flush()
        try display.connection.dispatch(until: { lw.window.states.contains(.fullscreen) && lw.window.frameNumber > 0 }, timeout: 5)
        clock.advance(by: 5)              // halfway: opacity 0.5 on the linear curve
        try waitUntilShown(lw, display)
        let grey = try weston.screenshot().rgba8(x: 100, y: 100)
        #expect(abs(Int(grey.r) - 128) <= 3, "the screen shows \(grey), not the halfway grey")
    }

    @Test("an animation event already overdue wakes the window's loop and is delivered without drawing a frame (issue 22)")
    func overdueEventWakes() throws {
        let (weston, display) = try startWeston()
        let loop = EventLoop(connection: display.connection)
        defer { Transaction.endOfTurnScheduler = { body in Task { @MainActor in body() } } }
        let lw = LayerWindow(display: display, loop: loop, title: "overdue", width: 200, height: 200)
        _ = try loop.turn(until: { lw.window.frameNumber > 0 && !lw.window.isDrawing }, timeout: 5)
        final class Stops: AnimationDelegate {
            var stopped = false
            func animationDidStart(_ animation: Animation) {}
            func animationDidStop(_ animation: Animation, finished: Bool) { stopped = finished }
        }
        // A layer in no window, animated in the past: its stop is due at once, and no
        // tree a window shows changes.
        let loose = Layer()
        let past = BasicAnimation(keyPath: "opacity")
        past.fromValue = 0.0
        past.toValue = 1.0
        past.duration = 0.1
        past.beginTime = currentMediaTime() - 10
        let delegate = Stops()
        past.delegate = delegate
        let frames = lw.window.frameNumber
        loose.add(past, forKey: "past")
        Transaction.flush()
        #expect(try loop.turn(until: { delegate.stopped }, timeout: 2))
        #expect(lw.window.frameNumber == frames)
        withExtendedLifetime(weston) {}
    }
}
}
