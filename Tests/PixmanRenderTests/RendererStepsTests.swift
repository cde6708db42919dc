import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// The renderer only turns layers into pixels (issue 22, item 2): layout and
/// display are the frame loop's steps, and `OffscreenRenderer`'s for a tree it
/// renders on its own.
@MainActor
@Suite("Renderer and frame steps", .isolatedLayerContext)
struct RendererStepsTests {
    final class Counting: Layer {
        var layouts = 0, draws = 0
        override func layoutSublayers() { layouts += 1 }
        override func draw(in context: any DrawingContext) {
            draws += 1
            context.fill(bounds, color: .red)
        }
    }

    @Test("LayerRenderer.render neither lays out nor displays; OffscreenRenderer.render does both, once")
    func steps() {
        let (offscreen, root, _) = makeRenderer(width: 20, height: 20)
        let layer = Counting()
        layer.frame = Rect(x: 0, y: 0, width: 10, height: 10)
        Transaction.withoutActions { root.addSublayer(layer) }
        layer.setNeedsLayout()
        layer.setNeedsDisplay()
        Transaction.flush()
        let renderer = LayerRenderer()
        let canvas = Canvas(width: 20, height: 20)
        renderer.render(root, into: canvas.image, scale: 1, atTime: 100, background: .black)
        #expect(layer.layouts == 0 && layer.draws == 0)
        #expect(canvas.words[5 * 20 + 5] == 0xFF00_0000, "nothing drawn yet: the background")
        let image = offscreen.render()
        #expect(layer.layouts == 1 && layer.draws == 1)
        #expect(image.pixels[5 * 20 + 5] == 0xFFFF_0000)
        _ = offscreen.render()
        #expect(layer.layouts == 1 && layer.draws == 1, "nothing marked again: neither runs again")
    }
}
