import LayerKitTesting
import Testing
import PixmanRender
import WaylandClient
@testable import Strata
@testable import StrataTesting

/// A normal window — not fullscreen, where the compositor put it, with its
/// decorations — driven by injected input at window coordinates: the driver
/// finds the window on the screen by its last committed frame.
@MainActor
@Suite("Injected input to windows wherever they are", .serialized, .mainLayerContext)
struct WindowPlaceTests {
    @Test("on kwin and mutter, InputDriver(window:on:) clicks a button and types into a field of a normal window; its place agrees with kwin's own")
    func clicksWhereTheWindowIs() throws {
        for start in [{ try HeadlessKWin() }, { try HeadlessMutter() }] as [() throws -> any Compositor] {
            let (compositor, _) = try startApp(start)
            defer { withExtendedLifetime(compositor) { Application.shared.disconnect() } }
            let scene = PressAndTypeWindow(title: "placed")
            let (window, field) = (scene.window, scene.field)
            window.show()
            try #require(try Application.shared.loop?.turn(until: { window.frameNumber > 0 }, timeout: 10) == true)
            let driver = try InputDriver(window: window, on: compositor)
            driver.click(at: Point(x: 100, y: 60))
            #expect(scene.presses == 1, "\(compositor.name)")
            driver.click(at: Point(x: 250, y: 60))   // beside the button
            #expect(scene.presses == 1)
            driver.click(at: Point(x: 140, y: 136))
            #expect(field.isFirstResponder, "\(compositor.name)")
            driver.type("Hi!")
            #expect(field.text == "Hi!" && driver.errors.isEmpty, "\(compositor.name): \(driver.errors)")
            #expect(!window.isFullscreen && !window.isMaximized)
            let place = try window.placeOnScreen(of: compositor)
            if let kwin = compositor as? HeadlessKWin, let margins = window.toplevel?.margins {
                // kwin's frame is the window's geometry: the surface less its margins.
                let listed = try #require(try kwin.windows()?.first { $0.title == "placed" })
                #expect(Int(place.x) + margins.left == listed.x && Int(place.y) + margins.top == listed.y, "\(place) \(margins) \(listed)")
            } else {
                #expect(place != Point(x: 0, y: 0), "mutter placed the window away from the corner: \(place)")
            }
        }
    }

    @Test("a window the screen does not show is a clear error, bounded in time")
    func notOnScreen() throws {
        let (weston, _) = try appOnWeston()
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }
        let window = Window(title: "hidden", size: Size(width: 120, height: 80))
        window.backgroundColor = Color(rgba8: 0x12, 0x34, 0x56)
        window.show()
        try #require(try Application.shared.loop?.turn(until: { window.frameNumber > 0 }, timeout: 10) == true)
        // A frame that is not the one on screen: found nowhere.
        let other = RenderedImage(width: 50, height: 40, pixels: [UInt32](repeating: 0xff65_4321, count: 2000))
        #expect(Window.find(other, in: try weston.screenshot(timeout: 10)) == nil)
        let found = try window.placeOnScreen(of: weston)
        let shot = try weston.screenshot(timeout: 10)
        #expect(shot.rgba8(x: Int(found.x) + 60 + (window.toplevel?.margins.left ?? 0), y: Int(found.y) + 40 + (window.toplevel?.margins.top ?? 0)) == (0x12, 0x34, 0x56, 255))
        window.close()
        let start = MonotonicClock.now
        #expect(throws: WindowNotFound.self) { try window.placeOnScreen(of: weston, timeout: 1) }
        #expect(MonotonicClock.now - start < 5)
    }
}
