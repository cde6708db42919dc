@testable import Strata
import LayerKitTesting
import StrataTesting
import WaylandClient
import Testing

/// Each surface asks its own tree when it next changes (issue 22): an animation
/// in one window wakes only that window.
@MainActor
@Suite("One frame loop per surface", .serialized, .mainLayerContext)
struct FrameLoopTests {
    @Test("two windows, one animating for 3 s: the static one commits nothing after its first frames (protocol trace)")
    func staticWindowIsSilentWhileAnotherAnimates() throws {
        let (weston, display) = try appOnWeston()
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }
        let loop = try #require(Application.shared.loop)
        let still = Window(title: "still", size: Size(width: 200, height: 150))
        let moving = Window(title: "moving", size: Size(width: 200, height: 150))
        let label = Label(frame: Rect(x: 10, y: 10, width: 180, height: 30))
        label.text = "static"
        still.rootView.addSubview(label)
        let card = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
        card.backgroundColor = .blue
        moving.rootView.addSubview(card)
        still.show()
        moving.show()
        #expect(try loop.turn(until: { (still.toplevel?.frameNumber ?? 0) > 0 && (moving.toplevel?.frameNumber ?? 0) > 0 }, timeout: 5))
        try loop.turn(for: 0.5)   // first frames and configures settle
        let stillSurface = try #require(still.toplevel?.surface.id)
        let movingSurface = try #require(moving.toplevel?.surface.id)
        let traffic = try WaylandTraffic.recording {
            View.animate(duration: 3, options: [.curveLinear]) { card.center = Point(x: 160, y: 110) }
            try loop.turn(for: 3.2)
        }
        let commits = traffic.filter { $0.interface == "wl_surface" && $0.name == "commit" }
        let stillCommits = commits.filter { $0.objectID == stillSurface }.count
        let movingCommits = commits.filter { $0.objectID == movingSurface }.count
        #expect(movingCommits > 60, "the animating window committed \(movingCommits) frames in 3 s")
        #expect(stillCommits == 0, "the static window committed \(stillCommits) times")
        // A change in the static window still draws it, once.
        let frames = still.toplevel?.frameNumber ?? 0
        label.text = "changed"
        #expect(try loop.turn(until: { (still.toplevel?.frameNumber ?? 0) > frames }, timeout: 5))
    }

    @Test("a configure that resizes the window is committed with its new frame: no bare commit applies its ack (and the geometry of no decorations) to the old buffer")
    func resizingConfigureCommitsItsFrame() throws {
        // Mutter under load kept such a window at its old place: fullscreen at
        // 640x480, but drawn from where its decorated self had been.
        let (weston, _) = try appOnWeston()
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }
        let loop = try #require(Application.shared.loop)
        let window = Window(title: "configure", size: Size(width: 200, height: 150))
        window.rootView.backgroundColor = .blue
        window.show()
        #expect(try loop.turn(until: { (window.toplevel?.frameNumber ?? 0) > 0 }, timeout: 5))
        try loop.turn(for: 0.5)   // idle: no frame callback pending when the configure comes
        #expect(window.toplevel?.margins.top ?? 0 > 0, "weston offers no server-side decorations: the window draws its own, with margins")
        let surface = try #require(window.toplevel?.surface.id)
        let traffic = try WaylandTraffic.recording {
            window.isFullscreen = true
            #expect(try loop.turn(until: { window.toplevel?.states.contains(.fullscreen) == true && window.toplevel?.width == 640 }, timeout: 5))
            try loop.turn(for: 0.3)
        }
        // The fullscreen configure's ack, and what the surface was sent from it to its next commit.
        let ack = try #require(traffic.firstIndex { $0.name == "ack_configure" })
        let after = traffic[(ack + 1)...].filter { $0.objectID == surface && $0.interface == "wl_surface" }
        let upToCommit = after.prefix { $0.name != "commit" }
        #expect(after.count > upToCommit.count, "no commit after the ack")
        #expect(upToCommit.contains { $0.name == "attach" }, "committed without a buffer after the ack: \(upToCommit.map(\.name))")
    }
}
