import CPixman
import Glibc
import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// The coverage fast paths: convex outlines swept along their sides, and upright
/// rectangles filled at their exact coverage instead of rasterized.
@Suite("Coverage", .isolatedLayerContext)
struct CoverageTests {
    /// The a8 coverage of `traps` over `width × height`, as bytes.
    func coverage(_ traps: [pixman_trapezoid_t], width: Int = 64, height: Int = 64) -> [UInt8] {
        guard let m = ShapeRasterizer.mask(traps, width: width, height: height) else { return [] }
        defer { pixman_image_unref(m) }
        let stride = Int(pixman_image_get_stride(m))
        let bytes = UnsafeRawPointer(pixman_image_get_data(m)!).assumingMemoryBound(to: UInt8.self)
        return (0..<height).flatMap { y in (0..<width).map { bytes[y * stride + $0] } }
    }

    /// The a8 coverage drawn by the display-list player (split into boxes and rasterized rows).
    func played(_ traps: [pixman_trapezoid_t], width: Int = 64, height: Int = 64) -> [UInt8] {
        let box = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        guard let m = DisplayListPlayer.mask(Coverage(traps, within: box), over: box, opacity: 1) else { return [] }
        defer { pixman_image_unref(m) }
        let stride = Int(pixman_image_get_stride(m))
        let bytes = UnsafeRawPointer(pixman_image_get_data(m)!).assumingMemoryBound(to: UInt8.self)
        return (0..<height).flatMap { y in (0..<width).map { bytes[y * stride + $0] } }
    }

    func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).map { abs(Int($0) - Int($1)) }.max() ?? 255
    }

    @Test("convex outlines and rings swept along their sides cover what the general fill covers")
    func convexSweepMatchesGeneralFill() {
        var rng = SeededRandom(seed: 7)
        for _ in 0..<40 {
            let rect = Rect(x: rng.double(2, 20), y: rng.double(2, 20), width: rng.double(5, 40), height: rng.double(5, 40))
            let radius = rng.double(0, 15)
            let m = AffineTransform(rotationAngle: rng.double(-1, 1)).concatenating(AffineTransform(translationX: 10, y: 10))
                .concatenating(AffineTransform(scaleX: 0.7, y: 0.7))
            let outer = ShapeRasterizer.roundedRect(rect, radius: radius, segments: 6).applying(m)
            let inner = ShapeRasterizer.roundedRect(rect.insetBy(dx: 3, dy: 3), radius: max(0, radius - 3), segments: 6).applying(m)
            let general = coverage(PolygonFill.trapezoids([outer], evenOdd: false))
            #expect(maxDifference(coverage(ShapeRasterizer.convex(outer)), general) <= 1)
            let generalRing = coverage(PolygonFill.trapezoids([outer, inner], evenOdd: true))
            #expect(maxDifference(coverage(ShapeRasterizer.ring(outer: outer, inner: inner)), generalRing) <= 1)
        }
        #expect(ShapeRasterizer.convex([Point(x: 0, y: 0), Point(x: 5, y: 0)]).isEmpty)
        #expect(ShapeRasterizer.convex([Point(x: 0, y: 0), Point(x: .nan, y: 4), Point(x: 5, y: 5)]).isEmpty)
    }

    @Test("an upright rectangle on fractional pixels is filled directly, at its exact coverage")
    func uprightRectangle() {
        let rect = [Point(x: 10.25, y: 5.5), Point(x: 20.75, y: 5.5), Point(x: 20.75, y: 15.5), Point(x: 10.25, y: 15.5)]
        let traps = ShapeRasterizer.convex(rect)
        let split = CoverageSplit(traps)
        // Only the half-covered top and bottom rows are left to the rasterizer.
        let rows: [[Int32]] = split.rasterized.map { [$0.top >> 16, ($0.bottom + 0xFFFF) >> 16] }
        #expect(rows.sorted { $0[0] < $1[0] } == [[5, 6], [15, 16]])
        let boxes = split.boxes.sorted { $0.box.x0 < $1.box.x0 }
        #expect(boxes.map(\.box) == [PixelBox(x0: 10, y0: 6, x1: 11, y1: 15), PixelBox(x0: 11, y0: 6, x1: 20, y1: 15),
                                     PixelBox(x0: 20, y0: 6, x1: 21, y1: 15)])
        #expect(boxes.map(\.coverage) == [0.75, 1, 0.75])
        let pixels = played(traps)
        #expect(abs(Int(pixels[10 * 64 + 10]) - 191) <= 1)   // ¾ of the left column
        #expect(pixels[10 * 64 + 15] == 255)
        // Half the top row and ¾ × ½ at the corner, rasterized: pixman samples 15 sub-rows a pixel.
        #expect(abs(Int(pixels[5 * 64 + 15]) - 128) <= 9)
        #expect(abs(Int(pixels[5 * 64 + 10]) - 96) <= 9)
        #expect(maxDifference(pixels, coverage(traps)) <= 8) // the rasterizer samples 17 × 15 per pixel
    }

    @Test("rectangles sharing a column are rasterized there, not blended twice")
    func abuttingRectangles() {
        func rect(_ x0: Double, _ x1: Double) -> [pixman_trapezoid_t] {
            ShapeRasterizer.convex([Point(x: x0, y: 2), Point(x: x1, y: 2), Point(x: x1, y: 30), Point(x: x0, y: 30)])
        }
        let traps = rect(10, 15.5) + rect(15.5, 20)
        let split = CoverageSplit(traps)
        #expect(split.boxes.isEmpty)
        let pixels = played(traps)
        #expect(pixels[10 * 64 + 15] == 255, "the shared column is covered once, fully")
    }

    @Test("a ring of upright bars is split; a rotated shape is left to the rasterizer")
    func ringsAndTurns() {
        let outer = ShapeRasterizer.roundedRect(Rect(x: 4.5, y: 4.5, width: 40, height: 30), radius: 0, segments: 1)
        let inner = ShapeRasterizer.roundedRect(Rect(x: 7, y: 7, width: 35, height: 25), radius: 0, segments: 1)
        let ring = ShapeRasterizer.ring(outer: outer, inner: inner)
        #expect(!CoverageSplit(ring).boxes.isEmpty)
        #expect(maxDifference(played(ring), coverage(ring)) <= 8)
        #expect(played(ring)[20 * 64 + 20] == 0, "the hole stays empty")
        let turned = ShapeRasterizer.convex(outer.applying(AffineTransform(rotationAngle: 0.1)))
        #expect(CoverageSplit(turned).boxes.isEmpty)
        #expect(CoverageSplit(turned).rasterized.count == turned.count)
    }
}
