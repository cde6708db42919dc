import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// A rasterizer of boxes: glyph `id` is a solid `id`×`id` pixel square at the
/// size asked for (scaled by pixelsPerEm / 10), its bottom left on the pen
/// position moved right by one pixel per subpixel phase; glyph 0 has no ink and
/// glyph 99 is a colour glyph.
@MainActor
private final class BoxRasterizer: GlyphRasterizer {
    let subpixelPhases = 4
    var asked: [(id: UInt32, face: Int, pixelsPerEm: Double, phase: Int)] = []

    func rasterize(glyph id: UInt32, face: Int, pixelsPerEm: Double, phase: Int) -> GlyphBitmap? {
        asked.append((id, face, pixelsPerEm, phase))
        if id == 0 { return GlyphBitmap(width: 0, height: 0, pixels: .coverage([]), left: 0, top: 0) }
        let side = Int((Double(id) * pixelsPerEm / 10).rounded())
        if id == 99 {
            return GlyphBitmap(width: 4, height: 4, pixels: .color(Image(width: 4, height: 4, color: .green)), left: 0, top: 4)
        }
        return GlyphBitmap(width: side, height: side, pixels: .coverage(Array(repeating: 255, count: side * side)), left: phase, top: side)
    }
}

/// Glyph drawing is part of the drawing context (issue 22, item 3): the context
/// places glyphs at device pixels, asks the rasterizer for those it has not kept,
/// and keeps them in its glyph cache within a budget.
@MainActor
@Suite("Glyph drawing", .isolatedLayerContext)
struct GlyphDrawingTests {
    private func alpha(_ image: Image, _ x: Int, _ y: Int) -> UInt32 { image.pixels[y * image.width + x] >> 24 }

    @Test("glyphs land at device pixels through the transform, in their colours, rasterized at the device size")
    func placement() {
        let rasterizer = BoxRasterizer()
        let context = PixmanDrawingContext(bounds: Rect(x: 0, y: 0, width: 40, height: 20), scale: 2)
        context.drawGlyphs([Glyph(id: 4, font: 0, position: Point(x: 5, y: 10)),
                            Glyph(id: 4, font: 0, position: Point(x: 20, y: 10), color: .red)],
                           fonts: [GlyphFont(face: 7, size: 10)], color: .blue, rasterizer: rasterizer)
        let image = context.image
        // 10 points at scale 2: 20 pixels per em, an 8-pixel box from (10, 12) to (18, 20).
        #expect(rasterizer.asked.count == 1, "one rasterization for both: the second comes from the cache")
        #expect(rasterizer.asked.first?.pixelsPerEm == 20)
        #expect(rasterizer.asked.first?.face == 7)
        #expect(image.pixels[12 * image.width + 10] == 0xFF00_00FF, "blue, the run's colour")
        #expect(image.pixels[19 * image.width + 17] == 0xFF00_00FF)
        #expect(alpha(image, 18, 19) == 0 && alpha(image, 10, 11) == 0 && alpha(image, 9, 12) == 0)
        #expect(image.pixels[12 * image.width + 40] == 0xFFFF_0000, "red, the glyph's own colour")
    }

    @Test("pen positions round to quarter pixels, each phase rasterized apart; baselines round to whole pixels")
    func phases() {
        let rasterizer = BoxRasterizer()
        let context = PixmanDrawingContext(bounds: Rect(x: 0, y: 0, width: 30, height: 20), scale: 1)
        let xs = [2.0, 6.26, 10.5, 14.74, 18.9]
        context.drawGlyphs(xs.map { Glyph(id: 2, font: 0, position: Point(x: $0, y: 10.4)) },
                           fonts: [GlyphFont(face: 0, size: 10)], color: .black, rasterizer: rasterizer)
        #expect(rasterizer.asked.map(\.phase) == [0, 1, 2, 3], "18.9 rounds to 19, phase 0 again: kept")
        let image = context.image
        // Glyph 2 at 10 px per em: 2×2 px, its top 2 px above the baseline at y = 10.
        #expect(alpha(image, 2, 8) == 255 && alpha(image, 2, 10) == 0 && alpha(image, 2, 7) == 0)
        #expect(alpha(image, 6 + 1, 9) == 255, "phase 1 box moved right by the rasterizer, at x = 6")
        #expect(alpha(image, 17, 8) == 255 && alpha(image, 16, 8) == 0, "phase 3 at x = 14, moved right by 3")
        #expect(alpha(image, 20, 8) == 255 && alpha(image, 21, 8) == 0, "18.9: the pixel at 19, phase 0")
    }

    @Test("the glyph cache keeps glyphs within its budget and asks again for what it dropped")
    func budget() {
        let rasterizer = BoxRasterizer()
        let cache = GlyphCache(byteBudget: 2_000)
        func draw(_ ids: [UInt32]) {
            let context = PixmanDrawingContext(bounds: Rect(x: 0, y: 0, width: 100, height: 100), scale: 1, glyphCache: cache)
            context.drawGlyphs(ids.map { Glyph(id: $0, font: 0, position: Point(x: 10, y: 90)) },
                               fonts: [GlyphFont(face: 0, size: 10)], color: .black, rasterizer: rasterizer)
        }
        draw([30])          // 30×30 = 900 bytes
        draw([30])
        #expect(rasterizer.asked.count == 1)
        draw([31, 32])      // 31×32 + 32×32: past the budget, the oldest go
        #expect(cache.cachedBytes <= 2_000)
        draw([30])
        #expect(rasterizer.asked.count == 4, "glyph 30 was dropped and is rasterized again")
    }

    @Test("colour glyphs keep their colours and fade with the text's alpha; inkless glyphs are kept, not asked again")
    func colorAndEmpty() {
        let rasterizer = BoxRasterizer()
        let context = PixmanDrawingContext(bounds: Rect(x: 0, y: 0, width: 20, height: 20), scale: 1)
        let glyphs = [Glyph(id: 99, font: 0, position: Point(x: 2, y: 10)), Glyph(id: 0, font: 0, position: Point(x: 10, y: 10))]
        context.drawGlyphs(glyphs, fonts: [GlyphFont(face: 0, size: 10)], color: Color(red: 1, green: 0, blue: 0, alpha: 0.5),
                           rasterizer: rasterizer)
        context.drawGlyphs(glyphs, fonts: [GlyphFont(face: 0, size: 10)], color: .black, rasterizer: rasterizer)
        #expect(rasterizer.asked.count == 2)
        let image = context.image
        // Half green, then full green over it.
        #expect(image.pixels[7 * image.width + 3] == 0xFF00_FF00)
        #expect(alpha(image, 11, 9) == 0)
    }

    @Test("a context without a glyph cache of its own draws glyphs as images at its scale")
    func plainContexts() {
        final class Recorder: DrawingContext {
            let bounds = Rect(x: 0, y: 0, width: 50, height: 50)
            let scale = 2.0
            var images: [(Image, Rect)] = []
            func fill(_ path: Path, color: Color, rule: FillRule) {}
            func stroke(_ path: Path, color: Color, lineWidth: Double, cap: LineCap, join: LineJoin) {}
            func draw(_ image: Image, in rect: Rect) { images.append((image, rect)) }
            func clip(to rect: Rect) {}
            func concatenate(_ transform: AffineTransform) {}
            func saveState() {}
            func restoreState() {}
        }
        let recorder = Recorder()
        let context: any DrawingContext = recorder
        context.drawGlyphs([Glyph(id: 5, font: 0, position: Point(x: 10, y: 20))], fonts: [GlyphFont(face: 0, size: 10)],
                           color: .red, rasterizer: BoxRasterizer())
        #expect(recorder.images.count == 1)
        // 20 px per em: a 10-pixel box, 5 points, its bottom on the baseline.
        #expect(recorder.images.first?.1 == Rect(x: 10, y: 15, width: 5, height: 5))
        #expect(recorder.images.first?.0.pixels.first == 0xFFFF_0000)
    }
}
