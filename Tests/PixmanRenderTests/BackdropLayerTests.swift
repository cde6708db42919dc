import LayerKit
@testable import PixmanRender
import Glibc
import Testing
import LayerKitTesting

/// `BackdropLayer` (issue 28, item 7): what is behind it blurred — against a
/// Gaussian worked out here — its saturation scaled, rounded, turned and scaled
/// with the layer, animated; damage-tracked and banded frames equal full ones.
@MainActor
@Suite("Backdrop layers", .serialized, .isolatedLayerContext)
struct BackdropLayerTests {
    /// White with a black stripe at x 50…60, and a backdrop over 20…80 × 20…80.
    func scene(_ configure: (BackdropLayer) -> Void = { _ in }) -> (OffscreenRenderer, Layer, ManualMediaClock, BackdropLayer) {
        let (r, root, clock) = makeRenderer(width: 100, height: 100)
        let b = BackdropLayer()
        Transaction.withoutActions {
            root.backgroundColor = .white
            _ = box(Rect(x: 50, y: 0, width: 10, height: 100), .black, in: root)
            b.frame = Rect(x: 20, y: 20, width: 60, height: 60)
            b.blurRadius = 8
            configure(b)
            root.addSublayer(b)
        }
        Transaction.flush()
        return (r, root, clock, b)
    }

    /// The stripe blurred by a Gaussian of σ, at pixel x (0…255).
    func reference(_ x: Int, sigma: Double) -> Double {
        var sum = 0.0, weight = 0.0
        for k in -40...40 {
            let w = exp(-Double(k * k) / (2 * sigma * sigma))
            let v = (50..<60).contains(x - k) ? 0.0 : 255.0
            sum += w * v
            weight += w
        }
        return sum / weight
    }

    @Test("the backdrop is blurred as a Gaussian of half the blur radius would, within a few levels; outside it nothing changes")
    func blurMatchesReference() {
        let (r, _, _, _) = scene()
        let img = r.render()
        var worst = 0.0
        for x in 22..<78 {
            let got = Double(img.rgba8(x: x, y: 50).r)
            worst = max(worst, abs(got - reference(x, sigma: 4)))
        }
        #expect(worst <= 12, "largest difference from the reference Gaussian: \(worst)")
        // The stripe's middle is lighter than black, its edge darker than white: blurred.
        #expect(img.rgba8(x: 55, y: 50).r > 40 && img.rgba8(x: 47, y: 50).r < 215)
        // Outside: the crisp stripe and white.
        #expect(img.rgba8(x: 55, y: 10).r == 0 && img.rgba8(x: 49, y: 10).r == 255 && img.rgba8(x: 10, y: 50).r == 255)
    }

    @Test("saturation 0 turns the backdrop grey, above 1 makes it more vivid; the tint (background) lies over the blur")
    func saturationAndTint() {
        let (r, root, _, b) = scene { $0.blurRadius = 0; $0.saturation = 0 }
        Transaction.withoutActions { root.backgroundColor = Color(red: 1, green: 0.2, blue: 0.2) }
        Transaction.flush()
        let grey = r.render().rgba8(x: 30, y: 30)
        #expect(abs(Int(grey.r) - Int(grey.g)) <= 1 && abs(Int(grey.g) - Int(grey.b)) <= 1 && grey.r > 60 && grey.r < 110, "\(grey)")
        Transaction.withoutActions { b.saturation = 1; b.backgroundColor = Color(red: 0, green: 0, blue: 1, alpha: 0.5) }
        Transaction.flush()
        #expect(near(r.render().rgba8(x: 30, y: 30), (128, 26, 153, 255), 2))
    }

    @Test("damage-tracked frames equal full ones when something moves under the blur, and bands equal one pass")
    func damageAndBands() {
        let (r, root, _, _) = scene()
        let mover = box(Rect(x: 0, y: 40, width: 8, height: 8), .red, in: root)
        Transaction.withoutActions { mover.removeFromSuperlayer(); root.insertSublayer(mover, at: 1) }   // under the backdrop
        Transaction.flush()
        _ = r.render()
        for step in 1...6 {
            Transaction.withoutActions { mover.position.x += 9 }
            Transaction.flush()
            let same = r.render() == fresh(root, width: 100, height: 100)
            #expect(same, "step \(step)")
        }
        BandTests().expectSameInBands(root, width: 100, height: 100, bands: 4, "a backdrop")
    }

    @Test("turned and at scale 2 the blur follows the layer's outline; blurRadius animates")
    func turnedScaledAnimated() {
        let (_, root, clock, b) = scene()
        Transaction.withoutActions { b.transform = Transform3D(rotationAngle: .pi / 6, x: 0, y: 0, z: 1); b.cornerRadius = 10 }
        Transaction.flush()
        let r2 = OffscreenRenderer(width: 200, height: 200, scale: 2)
        r2.rootLayer = root
        let img = r2.render()
        // Inside the turned square, on the stripe: blurred (not black); a corner of the unturned square outside it: crisp white.
        #expect(img.rgba8(x: 110, y: 100).r > 30)
        #expect(img.rgba8(x: 44, y: 44).r == 255)
        Transaction.begin()
        Transaction.animationDuration = 1
        Transaction.animationTimingFunction = MediaTimingFunction(name: .linear)
        b.blurRadius = 0
        Transaction.commit()
        Transaction.flush()
        clock.now += 0.5
        #expect(abs((b.presentation()?.blurRadius ?? -1) - 4) < 1e-9)
        clock.now += 0.6
        #expect(r2.render().rgba8(x: 110, y: 100).r < 5, "no blur left: the stripe is black again")
        r2.rootLayer = nil
    }

    @Test("odd input: NaN refused, huge radii clamped, saturation bounded, a zero-size backdrop draws nothing")
    func oddInput() {
        let (r, _, _, b) = scene()
        let seen = Diagnostics.recording { b.blurRadius = .nan; b.saturation = .nan }
        #expect(seen.count == 2 && b.blurRadius == 8 && b.saturation == 1)
        Transaction.withoutActions { b.blurRadius = 1e9; b.saturation = -3 }
        #expect(b.blurRadius == 100 && b.saturation == 0)
        Transaction.flush()
        _ = r.render()
        Transaction.withoutActions { b.bounds.size = .zero }
        Transaction.flush()
        #expect(r.render().rgba8(x: 55, y: 50).r == 0)
    }
}
