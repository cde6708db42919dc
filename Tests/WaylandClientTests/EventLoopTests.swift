import LayerKitTesting
import StrataTesting
import Testing
@testable import WaylandClient

extension Integration {
/// The main-thread event loop against a real headless weston. The test runner
/// serves the main queue itself, so these drive the loop with `runAsync()`.
@MainActor
@Suite("Event loop", .serialized, .mainLayerContext)
struct EventLoopTests {
    @Test("main-actor tasks, timers and end-of-turn hooks run inside the loop")
    func tasksTimersAndHooks() async throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let loop = EventLoop(connection: display.connection)
        var log: [String] = []
        loop.schedule(after: 0.05) {
            log.append("timer")
            loop.atEndOfTurn { log.append("end of turn") }
        }
        Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(150))
            log.append("task")
            loop.stop()
        }
        let start = MonotonicClock.now
        try await loop.runAsync()
        #expect(log == ["timer", "end of turn", "task"])
        // Other suites share the main actor and may hold it a while: only guard against a hang.
        #expect(MonotonicClock.now - start < 30)
    }

    @Test("a window animates inside the loop, and the loop sleeps when it is idle")
    func windowInLoop() async throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let loop = EventLoop(connection: display.connection)
        let window = ToplevelWindow(display: display, title: "loop")
        var animating = true
        window.isAnimating = { animating }
        window.onDraw = { ctx in paint(ctx, rgb: 0x336699); return .full }
        // Animate until 10 frames are drawn, then stop animating and let it settle for a second.
        func check() {
            if window.frameNumber >= 10 {
                animating = false
                loop.schedule(after: 1) { loop.stop() }
            } else {
                loop.schedule(after: 0.05, check)
            }
        }
        loop.schedule(after: 0.05, check)
        loop.schedule(after: 30) { loop.stop() }   // a hang guard
        try await loop.runAsync()
        #expect(window.frameNumber >= 10)
        // Idle for a second: a handful of turns (timers, late releases), not a spin.
        let turns = loop.turns
        let framesWhenIdle = window.frameNumber
        loop.schedule(after: 1) { loop.stop() }
        try await loop.runAsync()
        #expect(loop.turns - turns < 10)
        #expect(window.frameNumber == framesWhenIdle)
    }

    @Test("the loop ends with .disconnected when the compositor dies")
    func loopDisconnect() async throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let loop = EventLoop(connection: display.connection)
        loop.schedule(after: 0.1) { weston.crash() }
        var caught: WaylandError?
        do { try await loop.runAsync() } catch { caught = error }
        guard case .disconnected? = caught else {
            Issue.record("expected .disconnected, got \(String(describing: caught))")
            return
        }
    }
}
}

extension Integration.EventLoopTests {
    @Test("run() refuses, with a clear error, where the main queue is served elsewhere")
    func runRefusedUnderDispatchMain() throws {
        let weston = try HeadlessWeston()
        let display = try weston.connect()
        let loop = EventLoop(connection: display.connection)
        // The test runner serves the main queue itself (dispatchMain), so the blocking run() cannot.
        #expect(throws: WaylandError.self) { try loop.run() }
        do { try loop.run() } catch {
            guard case .loopUnavailable = error else { Issue.record("expected .loopUnavailable, got \(error)"); return }
        }
    }
}
