import Glibc
import StrataTesting
import Testing
import WaylandClient

extension Integration {
/// The compositor abstraction and the capability probe, on real compositors.
@MainActor
@Suite("Compositors and their capabilities", .serialized)
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
        #expect((w.globals["xdg_wm_base"] ?? 0) >= 1 && w.description.contains("xdg_wm_base v"))
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
