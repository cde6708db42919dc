@testable import Strata
import PixmanRender
import StrataTesting
import Testing
@testable import WaylandClient

/// Shell windows (issue 26, item 1; wlr-layer-shell) on sway and kwin, which
/// offer the shell layers here.
@MainActor
@Suite("Shell windows on compositors", .serialized, .mainLayerContext)
struct ShellWindowTests {
    static let blue = Color(rgba8: 0x33, 0x66, 0xcc)

    static func start(_ name: String) throws -> (any Compositor, Display) {
        try startApp { name == "sway" ? try HeadlessSway() as any Compositor : try HeadlessKWin() }
    }

    @Test("a top panel spans the output and takes its exclusive zone (a window shrinks by it, captured); an overlay shows above a fullscreen window; an exclusive keyboard overlay gets the keys; a menu from the panel opens as its popup",
          arguments: ["sway", "kwin"])
    func panelOverlayKeysAndPopup(_ name: String) throws {
        let (compositor, display) = try Self.start(name)
        defer { Application.shared.disconnect(); compositor.stop() }
        #expect(display.layerShell != nil)
        let window = Window(title: "app", size: Size(width: 300, height: 200))
        window.backgroundColor = Self.blue
        window.show()
        window.isMaximized = true   // sway tiles it: it fills the output as well
        try MenusOnCompositorsTests.wait("\(name): the maximized window") { window.frameNumber > 0 && window.size.width > 300 }
        let before = window.size.height

        let panel = ShellWindow(layer: .top, namespace: "panel", size: Size(width: 100, height: 40))
        panel.anchors = [.top, .left, .right]
        panel.exclusiveZone = .automatic
        panel.backgroundColor = .red
        let menuButton = Button(title: "Menu")
        menuButton.frame = Rect(x: 10, y: 4, width: 80, height: 32)
        menuButton.menu = Menu(children: [MenuAction(title: "About") { _ in }])
        menuButton.showsMenuAsPrimaryAction = true
        panel.rootView.addSubview(menuButton)
        panel.show()
        try MenusOnCompositorsTests.wait("\(name): the panel configured and drawn") { panel.frameNumber > 0 }
        #expect(panel.size == Size(width: 640, height: 40) && panel.shellSurface?.exclusiveZone == 40, "\(panel.size)")
        try MenusOnCompositorsTests.wait("\(name): the window shrunk by the panel's zone (\(before) → \(window.size.height))") {
            window.size.height == before - 40
        }
        try MenusOnCompositorsTests.eventually("\(name): the panel on top of the screen, the window below it") {
            let shot = try compositor.screenshot(timeout: 10)
            return shot.rgba8(x: 600, y: 20) == (255, 0, 0, 255) && shot.rgba8(x: 600, y: 400) == (0x33, 0x66, 0xcc, 255)
        }

        // A menu from the panel: an xdg_popup given to the layer surface (get_popup).
        let traffic = try WaylandTraffic.recording {
            menuButton.touchUpInsideTriggered()   // as a click on it (no input: no grab)
            try MenusOnCompositorsTests.wait("\(name): the panel's menu") {
                (panel.popupWindows.first?.frameNumber ?? 0) > 0
            }
        }
        #expect(traffic.contains { $0.interface == "zwlr_layer_surface_v1" && $0.name == "get_popup" })
        let menu = try #require(panel.popupsInStackingOrder.first)
        // Under the button (its bottom is at 36); kwin keeps it out of the panel's own zone (40).
        #expect((36...40).contains(menu.geometryFrame.y) && menu.geometryFrame.x == 10, "under the button: \(menu.geometryFrame)")
        panel.dismissPopups()

        // An overlay above a fullscreen window, taking the keys.
        window.isFullscreen = true
        try MenusOnCompositorsTests.wait("\(name): the fullscreen window") { window.isFullscreen && window.size.height == 480 }
        let osd = ShellWindow(layer: .overlay, namespace: "osd", size: Size(width: 120, height: 60))
        osd.backgroundColor = .green
        osd.keyboardInteractivity = .exclusive
        let field = RecordingView(frame: Rect(x: 0, y: 0, width: 120, height: 60))
        field.takesFocus = true
        osd.rootView.addSubview(field)
        osd.show()
        field.becomeFirstResponder()
        try MenusOnCompositorsTests.wait("\(name): the overlay drawn") { osd.frameNumber > 0 }
        try MenusOnCompositorsTests.eventually("\(name): the overlay centred above the fullscreen window") {
            let shot = try compositor.screenshot(timeout: 10)
            return shot.rgba8(x: 320, y: 240) == (0, 255, 0, 255) && shot.rgba8(x: 100, y: 240) == (0x33, 0x66, 0xcc, 255)
        }
        if name == "sway", let sway = compositor as? HeadlessSway {
            let (wtype, _) = try sway.startClient(["wtype", "-s", "300", "k"])
            defer { wtype.terminate() }
            try MenusOnCompositorsTests.wait("sway: a key to the overlay") { field.log.contains("key k") }
        } else {
            let driver = InputDriver(window: osd, injecting: try compositor.injectedInput())
            driver.type("k")
            #expect(field.log.contains("key k"), "\(field.log) \(driver.errors)")
        }
    }

    @Test("bad input: a size the anchors do not allow is refused before it is sent; a compositor without the shell layer (weston) leaves the window off screen with a clear error")
    func badInput() throws {
        let (compositor, display) = try startApp { try HeadlessWeston() }
        defer { Application.shared.disconnect(); compositor.stop() }
        var diagnostics: [String] = []
        Diagnostics.handler = { diagnostics.append("\($0)") }
        defer { Diagnostics.handler = nil }
        #expect(display.layerShell == nil)
        #expect(throws: ShellSurfaceError.unsupported) { try ShellSurface(display: display, layer: .top, namespace: "x", width: 10, height: 10) }
        let panel = ShellWindow(layer: .top, namespace: "panel", size: Size(width: 100, height: 40))
        panel.show()
        #expect(panel.shellError == .unsupported && panel.onscreen == nil && diagnostics.contains { $0.contains("zwlr_layer_shell_v1") })
        panel.close()
        #expect(throws: ShellSurfaceError.invalidSize(width: 0, height: 30, anchors: [.top, .left])) {
            try ShellSurface.validate(width: 0, height: 30, anchors: [.top, .left])
        }
        #expect(throws: Never.self) { try ShellSurface.validate(width: 0, height: 30, anchors: [.top, .left, .right]) }
    }
}

extension ShellWindowTests {
    @Test("screens: sway's outputs as Screens; one created at run time appears, and a panel made on it spans it; a window goes fullscreen on the screen asked for; the usable area follows the panels' zones")
    func screensComeAndGo() throws {
        let (compositor, _) = try startApp { try HeadlessSway() }
        defer { Application.shared.disconnect(); compositor.stop() }
        let sway = try #require(compositor as? HeadlessSway)
        let app = Application.shared
        defer { app.onScreenAdded = nil; app.onScreenRemoved = nil }
        #expect(Screen.screens.count == 1)
        let first = try #require(Screen.screens.first)
        #expect(first.name == "HEADLESS-1" && first.bounds.size == Size(width: 640, height: 480) && first.scale == 1, "\(first.name) \(first.bounds)")
        var panels: [String: ShellWindow] = [:]
        var removed: [String] = []
        func addPanel(_ screen: Screen) {
            let panel = ShellWindow(layer: .top, namespace: "panel", screen: screen, size: Size(width: 100, height: 30))
            panel.anchors = [.top, .left, .right]
            panel.exclusiveZone = .automatic
            panel.backgroundColor = .red
            panel.show()
            panels[screen.name] = panel
        }
        addPanel(first)
        app.onScreenAdded = { addPanel($0) }
        app.onScreenRemoved = { removed.append($0.name) }
        #expect(try sway.command("create_output").status == 0)
        try MenusOnCompositorsTests.wait("a second screen with its panel drawn") {
            Screen.screens.count == 2 && (panels["HEADLESS-2"]?.frameNumber ?? 0) > 0
        }
        let second = Screen.screens[1]
        #expect(panels["HEADLESS-2"]?.size == Size(width: second.bounds.width, height: 30) && panels["HEADLESS-1"]?.size.width == 640,
                "the panels span their own outputs: \(second.bounds)")
        // sway 1.7 keeps a disabled headless output's global and its layer surfaces
        // (`output … disable` changes nothing a client sees; `unplug` came later), so
        // an output going away is not exercised here.
        #expect(removed.isEmpty && panels.values.allSatisfy(\.isVisible))

        // A window shown fullscreen on the second screen takes that screen's size.
        let window = Window(title: "on the second screen", size: Size(width: 200, height: 100))
        window.show()
        try MenusOnCompositorsTests.wait("the window") { window.frameNumber > 0 }
        #expect(second.bounds.size != first.bounds.size, "told apart by size")
        window.showFullscreen(on: second)
        try MenusOnCompositorsTests.wait("fullscreen on the second screen (\(second.bounds))") {
            window.isFullscreen && window.size == second.bounds.size
        }
        window.close()

        // The free area: the first screen less its panel's 30 points, learnt from the compositor.
        var changes = 0
        first.onUsableBoundsChange = { _ in changes += 1 }
        #expect(first.usableBounds == first.bounds, "the bounds until the compositor says")
        try MenusOnCompositorsTests.wait("the usable area") { changes > 0 }
        #expect(first.usableBounds == Rect(x: 0, y: 0, width: 640, height: 450), "\(first.usableBounds)")
        panels["HEADLESS-1"]?.exclusiveZone = .points(70)
        try MenusOnCompositorsTests.wait("the usable area after the panel keeps 70 points") { first.usableBounds.height == 410 }
        panels["HEADLESS-1"]?.close()
        try MenusOnCompositorsTests.wait("the usable area once the panel went") { first.usableBounds.height == 480 }
    }
}

/// A shell window sized by its content (issue 26, item 1), offscreen on a manual clock.
@MainActor
@Suite("Shell windows sized by their content", .isolatedLayerContext)
struct ShellWindowFittingTests {
    /// A view with an intrinsic size, as a label or control has.
    final class Block: View {
        let natural: Size
        init(_ natural: Size) { self.natural = natural; super.init(frame: Rect(origin: .zero, size: natural)) }
        override var intrinsicContentSize: Size { natural }
    }
    static func block(_ height: Double) -> View { Block(Size(width: 200, height: height)) }

    @Test("sizesToFitContent: the window takes the stack's fitting size on the axes it does not span; a view added in an animation block grows it at once, one hidden in a block shrinks it only after the content's animation ends")
    func fitsItsContent() throws {
        let f = ViewFixture()
        let panel = ShellWindow(layer: .overlay, namespace: "osd", size: Size(width: 50, height: 50))
        panel.anchors = [.top]
        let first = Self.block(30)
        let stack = StackView(arrangedSubviews: [first, Self.block(30)])
        stack.axis = .vertical
        stack.spacing = 10
        panel.rootView = stack
        panel.sizesToFitContent = true
        panel.show()
        panel.layoutIfNeeded()
        #expect(panel.size == Size(width: 200, height: 70))

        let third = Self.block(40)
        View.animate(duration: 1) { stack.addArrangedSubview(third); panel.layoutIfNeeded() }
        #expect(panel.size == Size(width: 200, height: 120), "a grown content grows the window at once")

        // The first hidden: the others slide up (animated) while the window keeps its size.
        View.animate(duration: 1) { first.isHidden = true; stack.layoutIfNeeded() }
        Transaction.flush()
        f.advance(0.5)
        panel.layoutIfNeeded()
        #expect(panel.size.height == 120, "kept while the content animates")
        f.advance(0.6)   // the animation has ended; the re-check timer marks the root for layout
        panel.layoutIfNeeded()
        #expect(panel.size == Size(width: 200, height: 80))

        // Anchored to both horizontal edges, the width stays the compositor's (here the window's own).
        panel.anchors = [.top, .left, .right]
        panel.size = Size(width: 500, height: 70)
        stack.addArrangedSubview(Self.block(20))
        panel.layoutIfNeeded()
        #expect(panel.size == Size(width: 500, height: 110))
        panel.close()
    }
}

/// Session locks (issue 26, item 3; rule S4). No compositor here offers
/// `ext_session_lock_v1` (sway 1.8 and later do): the lock runs against the
/// libwayland-server harness, and every real compositor here is probed for the
/// refusal a program gets.
@MainActor
@Suite("Session locks", .serialized, .mainLayerContext)
struct SessionLockTests {
    /// Runs `lock` as the app would, turning the loop until it answers.
    static func lock(_ content: @escaping (Window, Screen) -> Void = { _, _ in }) throws -> Result<SessionLock, SessionLockError> {
        var result: Result<SessionLock, SessionLockError>?
        SessionLock.lock(content: content) { result = $0 }
        try Application.shared.display?.connection.dispatch(until: { result != nil }, timeout: 10, what: "the compositor's answer to the lock")
        return try #require(result)
    }

    @Test("on the harness: a lock window per screen drawn before the compositor says locked; a screen plugged in while locked gets one, one unplugged loses it (and leaves Screen.screens); unlock ends it and gives back the app's screen handlers")
    func lockAndUnlock() throws {
        let harness = try ProtocolHarness(sessionLocks: .granted)
        defer { harness.stop() }
        Application.shared.disconnect()   // no window another test left may go on the harness (it refuses xdg surfaces)
        Application.shared.use(try harness.connect())
        defer { Application.shared.disconnect() }
        #expect(Screen.screens.count == 1)
        var filled: [Size] = []
        let lock = try Self.lock { window, screen in
            let label = Label(frame: Rect(x: 4, y: 4, width: 56, height: 20))
            label.text = "Locked"
            label.textColor = .white
            window.rootView.addSubview(label)
            filled.append(screen.bounds.size)
        }.get()
        harness.read(timeout: 0.5)
        #expect(lock.isLocked && lock.windows.count == 1 && filled == [Size(width: 64, height: 48)])
        let lines = harness.lines.filter { $0.hasPrefix("lock") }
        #expect(lines == ["lock", "lock_surface 64 48", "locked"], "drawn before locked: \(lines)")
        #expect(lock.windows[0].size == Size(width: 64, height: 48) && lock.windows[0].frameNumber > 0)

        harness.addOutput()
        try Application.shared.display?.connection.dispatch(until: { lock.windows.count == 2 && lock.windows[1].frameNumber > 0 }, timeout: 5)
        #expect(lock.windows.count == 2 && Screen.screens.count == 2)
        harness.removeOutput()
        try Application.shared.display?.connection.dispatch(until: { lock.windows.count == 1 }, timeout: 5)
        #expect(lock.windows.count == 1 && Screen.screens.count == 1)

        lock.unlock()
        try Application.shared.display?.connection.roundtrip()
        harness.read(timeout: 1)
        #expect(harness.lines.contains("unlocked") && !lock.isLocked && lock.windows.isEmpty)
        #expect(Application.shared.onScreenAdded == nil, "the app's screen handler given back")
    }

    @Test("refused (another client holds the lock): .refused and no window left; offscreen: .unsupported")
    func refused() async throws {
        let harness = try ProtocolHarness(sessionLocks: .refused)
        defer { harness.stop() }
        Application.shared.disconnect()   // no window another test left may go on the harness (it refuses xdg surfaces)
        Application.shared.use(try harness.connect())
        defer { Application.shared.disconnect() }
        let result = try Self.lock()
        #expect(throws: SessionLockError.refused) { try result.get() }
        #expect(Application.shared.windows.isEmpty)
        Application.shared.disconnect()
        var offscreen: SessionLockError?
        do throws(SessionLockError) { _ = try await SessionLock.lock() } catch { offscreen = error }
        #expect(offscreen == .unsupported)
    }

    @Test("weston, sway and kwin here offer no session lock: .unsupported, naming the global", arguments: ["weston", "sway", "kwin"])
    func realCompositorsRefuse(_ name: String) throws {
        let (compositor, display) = try startApp {
            switch name {
            case "weston": try HeadlessWeston() as any Compositor
            case "sway": try HeadlessSway()
            default: try HeadlessKWin()
            }
        }
        defer { Application.shared.disconnect(); compositor.stop() }
        #expect(display.sessionLockManager == nil, "\(name) now offers ext_session_lock_v1: lock and unlock here")
        let result = try Self.lock()
        #expect(throws: SessionLockError.unsupported) { try result.get() }
        #expect("\(SessionLockError.unsupported)".contains("ext_session_lock_manager_v1"))
    }
}
