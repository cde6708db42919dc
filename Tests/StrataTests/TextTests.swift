@testable import Strata
import PixmanRender
import Testing

@MainActor
@Suite(.serialized)
struct TextTests {
    @Test func smoke() throws {
        let f = ViewFixture(size: Size(width: 420, height: 260))
        let texts = ["Office affine ffi — AVA Wave", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया", "你好世界 日本語", "Emoji 😀🎉👍", "Missing: \u{E000}\u{10FFFD}"]
        for (i, t) in texts.enumerated() {
            let l = Label(frame: Rect(x: 10, y: 10 + Double(i) * 34, width: 400, height: 30))
            l.text = t
            l.font = .systemFont(ofSize: 20)
            f.window.rootView.addSubview(l)
        }
        Transaction.flush()
        try f.window.snapshot().writePNG(to: "/tmp/strata-text/smoke.png")
        f.window.scale = 2
        try f.window.snapshot().writePNG(to: "/tmp/strata-text/smoke2.png")
    }
}
