@testable import Strata
import Testing
import LayerKitTesting

/// The README's small app, as written there, driven on a manual clock.
@MainActor
@Suite("README example", .isolatedLayerContext)
struct ReadmeExampleTests {
    @Test("the README's app: a spring, then a flip in the completion, all offscreen")
    func readmeApp() {
        let f = ViewFixture()
        // From the README (Application.shared.run() left out: the test drives time).
        let window = Window(title: "Hello", size: Size(width: 400, height: 300))
        let card = View(frame: Rect(x: 40, y: 40, width: 120, height: 80))
        card.backgroundColor = .blue
        card.layer.cornerRadius = 12
        window.rootView.addSubview(card)
        window.show()

        card.alpha = 0.5                          // outside a block: at once (rule V2)

        View.animate(duration: 0.6, dampingRatio: 0.5) {
            card.center = Point(x: 300, y: 200)   // a spring, from where it is
        } completion: { finished in
            View.transition(with: card, duration: 0.5, options: .transitionFlipFromLeft) {
                card.backgroundColor = .orange
            }
        }
        // …
        #expect(card.layer.animationKeys == ["position"])
        Transaction.flush()
        f.advance(0.625)
        #expect(card.layer.animationKeys == [Layer.transition])
        #expect(card.backgroundColor == .orange)
        Transaction.flush()
        f.advance(0.5)
        f.advance(0.125)
        #expect(card.layer.animationKeys.isEmpty)
        let image = window.snapshot()
        let pixel = image.rgba8(x: 300, y: 200)   // half-transparent orange on the white window
        #expect(pixel.r == 255 && abs(Int(pixel.g) - 191) <= 1 && abs(Int(pixel.b) - 128) <= 1)
        window.close()
    }
}
