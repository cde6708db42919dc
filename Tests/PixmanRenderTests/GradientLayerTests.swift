import LayerKit
@testable import PixmanRender
import Glibc
import Testing
import LayerKitTesting

/// `GradientLayer` (issue 28, item 1) against colours worked out here from the
/// gradient's geometry: axial, radial and conic ramps at known points, locations,
/// premultiplied blending, implicit animation at manual times, dithering, and the
/// documented fallbacks for odd input.
@MainActor
@Suite("Gradient layers", .serialized, .isolatedLayerContext)
struct GradientLayerTests {
    /// A gradient layer filling `frame` of the root, with no implicit animation.
    func gradient(_ frame: Rect, _ colors: [Color], in root: Layer, _ configure: (GradientLayer) -> Void = { _ in }) -> GradientLayer {
        let g = GradientLayer()
        Transaction.withoutActions {
            g.frame = frame
            g.colors = colors
            configure(g)
            root.addSublayer(g)
        }
        Transaction.flush()
        return g
    }

    /// The straight colour `t` of the way from `a` to `b`, blended premultiplied, in 8 bits over white.
    func expected(_ a: Color, _ b: Color, _ t: Double, over back: Color = .white) -> (Int, Int, Int, Int) {
        let alpha = a.alpha * (1 - t) + b.alpha * t
        func ch(_ x: Double, _ y: Double, _ z: Double) -> Int {
            Int(((x * a.alpha * (1 - t) + y * b.alpha * t) + z * (1 - alpha)) * 255 + 0.5)
        }
        return (ch(a.red, b.red, back.red), ch(a.green, b.green, back.green), ch(a.blue, b.blue, back.blue), 255)
    }

    @Test("an axial ramp runs from start to end point, sampled at pixel centres")
    func axial() {
        let (r, root, _) = makeRenderer(width: 100, height: 20)
        Transaction.withoutActions { root.backgroundColor = .white }
        _ = gradient(Rect(x: 0, y: 0, width: 100, height: 20), [.red, .blue], in: root) {
            $0.startPoint = Point(x: 0, y: 0.5)
            $0.endPoint = Point(x: 1, y: 0.5)
        }
        let img = r.render()
        for x in [0, 10, 37, 50, 81, 99] {
            let want = expected(.red, .blue, (Double(x) + 0.5) / 100)
            #expect(near(img.rgba8(x: x, y: 10), want, 2), "x = \(x): \(img.rgba8(x: x, y: 10)) against \(want)")
        }
        // Constant across the ramp's direction.
        #expect(near(img.rgba8(x: 37, y: 0), want(img.rgba8(x: 37, y: 19)), 2))
    }

    func want(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> (Int, Int, Int, Int) { (Int(p.r), Int(p.g), Int(p.b), Int(p.a)) }

    @Test("the default ramp runs top to bottom; locations place the colours")
    func defaultsAndLocations() {
        let (r, root, _) = makeRenderer(width: 20, height: 100)
        Transaction.withoutActions { root.backgroundColor = .white }
        let g = gradient(Rect(x: 0, y: 0, width: 20, height: 100), [.red, .green, .blue], in: root) {
            $0.locations = [0, 0.2, 1]
        }
        #expect(g.startPoint == Point(x: 0.5, y: 0) && g.endPoint == Point(x: 0.5, y: 1) && g.type == .axial)
        let img = r.render()
        // 10.5 of 20 (first segment), then 60.5: (60.5 − 20) / 80 of the second.
        #expect(near(img.rgba8(x: 10, y: 10), expected(.red, .green, 10.5 / 20), 2))
        #expect(near(img.rgba8(x: 10, y: 60), expected(.green, .blue, 40.5 / 80), 2))
    }

    @Test("a radial ramp spreads over the ellipse given by the end point, a conic one turns clockwise from it")
    func radialAndConic() {
        let (r, root, _) = makeRenderer(width: 200, height: 100)
        Transaction.withoutActions { root.backgroundColor = .white }
        _ = gradient(Rect(x: 0, y: 0, width: 100, height: 50), [.red, .blue], in: root) {
            $0.type = .radial
            $0.startPoint = Point(x: 0.5, y: 0.5)
            $0.endPoint = Point(x: 1, y: 1)   // half-axes 50 × 25
        }
        _ = gradient(Rect(x: 100, y: 0, width: 100, height: 100), [.red, .blue], in: root) {
            $0.type = .conic
            $0.startPoint = Point(x: 0.5, y: 0.5)
            $0.endPoint = Point(x: 1, y: 0.5)   // starts pointing right
        }
        let img = r.render()
        // Radial: pixel centres at (75.5, 25.5) and (50.5, 37.5 + 0.5) from the centre (50, 25).
        func radial(_ x: Int, _ y: Int) -> Double {
            let dx = (Double(x) + 0.5 - 50) / 50, dy = (Double(y) + 0.5 - 25) / 25
            return min(1, (dx * dx + dy * dy).squareRoot())
        }
        for (x, y) in [(50, 25), (75, 25), (50, 37), (60, 30), (95, 25), (2, 2)] {
            #expect(near(img.rgba8(x: x, y: y), expected(.red, .blue, radial(x, y)), 2), "radial at \(x), \(y)")
        }
        // Conic about (150, 50): the angle clockwise from the right, on screen.
        func conic(_ x: Int, _ y: Int) -> Double {
            var a = Glibc.atan2(Double(y) + 0.5 - 50, Double(x) + 0.5 - 150) / (2 * .pi)
            if a < 0 { a += 1 }
            return a
        }
        for (x, y) in [(180, 70), (150, 90), (110, 50), (150, 10), (170, 45)] {
            #expect(near(img.rgba8(x: x, y: y), expected(.red, .blue, conic(x, y)), 3), "conic at \(x), \(y): \(conic(x, y))")
        }
        // Just below the start direction: almost red; just above: almost blue.
        #expect(img.rgba8(x: 190, y: 52).r > 240 && img.rgba8(x: 190, y: 47).b > 230)
    }

    @Test("colours blend premultiplied: a ramp to clear keeps its hue, one to a translucent colour weighs by alpha")
    func premultiplied() {
        let (r, root, _) = makeRenderer(width: 100, height: 20)
        Transaction.withoutActions { root.backgroundColor = .white }
        let half = Color(red: 0, green: 0, blue: 1, alpha: 0.5)
        for (i, (a, b)) in [(Color.red, Color.clear), (Color.red, half)].enumerated() {
            _ = gradient(Rect(x: 0, y: Double(i * 10), width: 100, height: 10), [a, b], in: root) {
                $0.startPoint = Point(x: 0, y: 0.5)
                $0.endPoint = Point(x: 1, y: 0.5)
            }
        }
        let img = r.render()
        for x in [20, 49, 73] {
            let t = (Double(x) + 0.5) / 100
            #expect(near(img.rgba8(x: x, y: 5), expected(.red, .clear, t), 2), "to clear at \(x): \(img.rgba8(x: x, y: 5))")
            #expect(near(img.rgba8(x: x, y: 15), expected(.red, half, t), 3), "to translucent at \(x): \(img.rgba8(x: x, y: 15))")
        }
        // Straight blending would give 191,128,128 half way to clear: far from this.
        #expect(abs(Int(img.rgba8(x: 49, y: 5).r) - 255) <= 2 && abs(Int(img.rgba8(x: 49, y: 5).g) - 129) <= 3)
    }

    @Test("colours, locations and points animate implicitly, read at manual times")
    func implicitAnimation() {
        let (r, root, clock) = makeRenderer(width: 40, height: 40)
        Transaction.withoutActions { root.backgroundColor = .white }
        let g = gradient(Rect(x: 0, y: 0, width: 40, height: 40), [.red, .red], in: root)
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = MediaTimingFunction(name: .linear)
        g.colors = [.blue, .blue]
        g.locations = [0, 1]
        Transaction.commit()
        Transaction.flush()
        #expect(g.animationKeys.sorted() == ["colors", "locations"])
        clock.now += 0.5
        #expect(g.presentation()?.colors == [Color(red: 0.5, green: 0, blue: 0.5), Color(red: 0.5, green: 0, blue: 0.5)])
        #expect(near(r.render().rgba8(x: 20, y: 20), (128, 0, 128, 255), 1))
        clock.now += 0.6
        #expect(near(r.render().rgba8(x: 20, y: 20), (0, 0, 255, 255), 0))

        // An explicit animation of the end point, by key path.
        let move = BasicAnimation(keyPath: "endPoint")
        move.fromValue = Point(x: 0.5, y: 1)
        move.toValue = Point(x: 0.5, y: 0.5)
        move.duration = 2
        g.colors = [.black, .white]
        g.add(move, forKey: "end")
        Transaction.flush()
        clock.now += 1   // end point at 0.75: the pixel row 15 sits at 15.5 / 30 of the ramp
        let p = r.render().rgba8(x: 5, y: 15)
        #expect(abs(Int(p.r) - Int(15.5 / 30 * 255 + 0.5)) <= 2, "\(p)")
    }

    @Test("a slow ramp is dithered: 8-bit bands become noise whose average is the true colour")
    func dithering() {
        let (r, root, _) = makeRenderer(width: 256, height: 64)
        let dark = Color(white: 100.0 / 255), light = Color(white: 104.0 / 255)
        _ = gradient(Rect(x: 0, y: 0, width: 256, height: 64), [dark, light], in: root) {
            $0.startPoint = Point(x: 0, y: 0.5)
            $0.endPoint = Point(x: 1, y: 0.5)
        }
        let img = r.render()
        // Column 96.5 / 256 of the way: 101.51 levels. Banded it would be all 101 or all 102.
        var seen = Set<UInt8>(), sum = 0
        for y in 0..<64 { let v = img.rgba8(x: 96, y: y).r; seen.insert(v); sum += Int(v) }
        #expect(seen.count >= 2, "one level down the column: \(seen)")
        #expect(abs(Double(sum) / 64 - (100 + 4 * 96.5 / 256)) < 0.35, "mean \(Double(sum) / 64)")
        // A steep ramp is not dithered (no band is wider than two pixels).
        let steep = GradientPaint.bands([(0, Color.black), (1, Color.white)], overDevicePixels: 256)
        #expect(!steep)
        #expect(GradientPaint.bands([(0, dark), (1, light)], overDevicePixels: 256))
    }

    @Test("dithering leaves pixels outside the ramp alone, and comes out the same in bands and after damage")
    func ditheringIsStable() {
        let (r, root, _) = makeRenderer(width: 200, height: 120)
        Transaction.withoutActions { root.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.6) }
        let g = gradient(Rect(x: 10, y: 10, width: 180, height: 100), [Color(white: 0.5), Color(white: 0.52)], in: root) {
            $0.cornerRadius = 30
        }
        let first = r.render()
        #expect(first.rgba8(x: 11, y: 11) == (51, 102, 153, 255), "the corner outside the rounded ramp: \(first.rgba8(x: 11, y: 11))")
        BandTests().expectSameInBands(root, width: 200, height: 120, bands: 5, "a dithered ramp")
        // A small change repaints part of the frame: it must match a fresh full frame.
        let dot = box(Rect(x: 100, y: 50, width: 7, height: 9), .red, in: root)
        _ = r.render()
        Transaction.withoutActions { dot.position.x += 13; g.colors = [Color(white: 0.5), Color(white: 0.53)] }
        Transaction.flush()
        let damaged = r.render()
        #expect(!r.lastDamage.isEmpty)
        let same = damaged == fresh(root, width: 200, height: 120)
        #expect(same, "damage-tracked frame differs from a full one")
    }

    @Test("odd input: wrong-count or unsorted locations, one colour, NaN, degenerate points, zero size")
    func oddInput() {
        let (r, root, _) = makeRenderer(width: 100, height: 60)
        Transaction.withoutActions { root.backgroundColor = .white }
        let even = gradient(Rect(x: 0, y: 0, width: 100, height: 10), [.red, .green, .blue], in: root) {
            $0.startPoint = Point(x: 0, y: 0.5); $0.endPoint = Point(x: 1, y: 0.5)
        }
        let wrongCount = gradient(Rect(x: 0, y: 10, width: 100, height: 10), [.red, .green, .blue], in: root) {
            $0.startPoint = Point(x: 0, y: 0.5); $0.endPoint = Point(x: 1, y: 0.5)
            $0.locations = [0, 1]
        }
        let unsorted = gradient(Rect(x: 0, y: 20, width: 100, height: 10), [.red, .green, .blue], in: root) {
            $0.startPoint = Point(x: 0, y: 0.5); $0.endPoint = Point(x: 1, y: 0.5)
            $0.locations = [0.6, 0.2, 1]   // the second is taken as 0.6: a hard edge there
        }
        _ = gradient(Rect(x: 0, y: 30, width: 100, height: 10), [.green], in: root)
        _ = gradient(Rect(x: 0, y: 40, width: 100, height: 10), [.red, .blue], in: root) {
            $0.startPoint = Point(x: 0.3, y: 0.3); $0.endPoint = Point(x: 0.3, y: 0.3)   // no length: the last colour
        }
        _ = gradient(Rect(x: 0, y: 50, width: 0, height: 0), [.red, .blue], in: root)
        let seen = Diagnostics.recording {
            even.startPoint = Point(x: .nan, y: 0)
            even.colors = [.red, Color(red: .infinity, green: 0, blue: 0)]
            even.locations = [0, .nan, 1]
        }
        #expect(seen.count == 3)
        #expect(even.colors == [.red, .green, .blue] && even.locations == nil && even.startPoint == Point(x: 0, y: 0.5))
        #expect(wrongCount.resolvedStops.map(\.location) == [0, 0.5, 1])
        #expect(unsorted.resolvedStops.map(\.location) == [0.6, 0.6, 1])
        let img = r.render()
        for x in [5, 30, 70] { #expect(img.rgba8(x: x, y: 5) == img.rgba8(x: x, y: 15), "x = \(x)") }
        #expect(near(img.rgba8(x: 40, y: 25), (255, 0, 0, 255), 0) && img.rgba8(x: 61, y: 25).g > 240)
        #expect(near(img.rgba8(x: 50, y: 35), (0, 255, 0, 255), 0))
        #expect(near(img.rgba8(x: 50, y: 45), (0, 0, 255, 255), 0))
        #expect(near(img.rgba8(x: 50, y: 55), (255, 255, 255, 255), 0))
    }
}
