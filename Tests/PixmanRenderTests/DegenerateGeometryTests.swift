import LayerKit
@testable import PixmanRender
import CPixman
import Testing
import LayerKitTesting

/// Geometry whose maps to pixman's 16.16 fixed point are enormous, infinite or
/// not numbers (issue 30, items 1 and 3): every conversion is held in range, a map
/// that cannot be sampled draws nothing, and what is drawable still is.
@MainActor
@Suite("Degenerate geometry reaches pixman in range", .serialized, .isolatedLayerContext)
struct DegenerateGeometryTests {
    @Test("contents in a 1e-13-point frame 1e19 points down draw nothing and do not trap")
    func contentsInAVanishingFarFrame() {
        let (r, root, _) = makeRenderer(width: 98, height: 106)
        let marker = box(Rect(x: 0, y: 0, width: 10, height: 10), .red, in: root)
        let far = Layer()
        far.frame = Rect(x: -71.98, y: 1e19, width: 1e-13, height: 1e-13)
        far.contents = Image(width: 1, height: 1, color: .blue)
        Transaction.withoutActions { root.addSublayer(far) }
        Transaction.flush()
        let image = r.render()
        #expect(near(image.rgba8(x: 5, y: 5), (255, 0, 0, 255)))
        #expect(image.rgba8(x: 50, y: 50).a == 0)
        _ = marker
    }

    @Test("a background in a 1e-9-point-tall frame 1e12 points down, at scale 2, draws nothing")
    func backgroundFarAwayAtScale2() {
        let (r, root, _) = makeRenderer(width: 40, height: 40, scale: 2)
        let far = box(Rect(x: 3, y: 1e12, width: 0.9, height: 1e-9), .blue, in: root)
        far.setNeedsDisplay()
        Transaction.flush()
        let image = r.render()
        #expect(image.rgba8(x: 3, y: 3).a == 0)
    }

    @Test("contents under a nearly singular transform (d = 8e-179) draw nothing and do not trap")
    func nearlySingularTransform() {
        let (r, root, _) = makeRenderer(width: 60, height: 60)
        let holder = Layer()
        holder.frame = Rect(x: 0, y: 0, width: 60, height: 60)
        let picture = Layer()
        picture.frame = Rect(x: 0, y: 0, width: 40, height: 40)
        picture.contents = Image(width: 2, height: 2, color: .green)
        holder.addSublayer(picture)
        holder.transform = Transform3D(AffineTransform(a: 241, b: 0, c: 0, d: 7.99e-179, tx: 0, ty: 0))
        Transaction.withoutActions { root.addSublayer(holder) }
        Transaction.flush()
        let image = r.render()
        #expect(image.rgba8(x: 30, y: 30).a == 0)
        // The same picture with a plain transform is drawn: the guard is not "never draw".
        Transaction.withoutActions { holder.transform = .identity }
        Transaction.flush()
        #expect(near(r.render().rgba8(x: 20, y: 20), (0, 255, 0, 255)))
    }

    @Test("contents 1e15 points to the right draw nothing and do not trap")
    func contentsFarToTheRight() {
        let (r, root, _) = makeRenderer(width: 60, height: 60)
        let far = Layer()
        far.frame = Rect(x: 1e15, y: 10, width: 100, height: 30)
        far.contents = Image(width: 4, height: 4, color: .blue)
        Transaction.withoutActions { root.addSublayer(far) }
        Transaction.flush()
        #expect(r.render().rgba8(x: 30, y: 20).a == 0)
    }

    @Test("pixmanFixed holds NaN, ±∞ and huge numbers in 16.16's range")
    func fixedPointConversion() {
        #expect(pixmanFixed(.nan) == 0)
        #expect(pixmanFixed(.infinity) == pixman_fixed_t(Int32.max))
        #expect(pixmanFixed(-.infinity) == pixman_fixed_t(-Int32.max))
        #expect(pixmanFixed(1e300) == pixman_fixed_t(Int32.max))
        #expect(pixmanFixed(1.5) == 98304)
        #expect(pixmanTransform(AffineTransform(a: .infinity, b: 0, c: 0, d: 1, tx: 0, ty: 0)) == nil)
    }
}

/// A layer that starts or stops clipping shows or hides what its sublayers draw
/// outside its bounds: the damage pass repaints it (found by the fuzzer: a moved
/// root turning `masksToBounds` on kept 1,248 stale pixels).
@MainActor
@Suite("Damage when clipping changes", .serialized, .isolatedLayerContext)
struct ClipDamageTests {
    /// A 16-point layer in a 48-pixel target with a blue sublayer reaching well
    /// outside it on every side, drawn once.
    func holderWithWideSublayer() -> (OffscreenRenderer, Layer, ManualMediaClock, Layer, Layer) {
        let (r, root, clock) = makeRenderer(width: 48, height: 48)
        let holder = Layer()
        Transaction.withoutActions {
            holder.frame = Rect(x: 20, y: 10, width: 16, height: 16)
            root.addSublayer(holder)
        }
        let wide = box(Rect(x: -20, y: -5, width: 60, height: 30), .blue, in: holder)
        Transaction.flush()
        _ = r.render(atTime: clock.now)
        return (r, root, clock, holder, wide)
    }

    @Test("masksToBounds on and off on a moved layer: each damage-tracked frame equals a full repaint")
    func togglingMasksToBounds() {
        let (r, root, clock, holder, wide) = holderWithWideSublayer()
        for clips in [true, false, true] {
            Transaction.withoutActions { holder.masksToBounds = clips }
            Transaction.flush()
            let tracked = r.render(atTime: clock.now)
            #expect(tracked == fresh(root, width: 48, height: 48), "masksToBounds \(clips)")
            #expect(tracked.rgba8(x: 4, y: 12).b == (clips ? 0 : 255))   // outside the holder: shown only unclipped
        }
        _ = wide
    }

    @Test("a curve out near 10³⁰⁵ counts as flat when it is: flattened to a few points, not halved to 65,536 (products of such coordinates overflowed; the fuzzer's slow frame)")
    func farCurveIsFlat() {
        let p = Path()
        p.move(to: Point(x: 1e6, y: 62.28))
        p.addQuadCurve(to: Point(x: 1e305, y: 1e305), control: Point(x: 1e305, y: 1e305))
        p.closeSubpath()
        let lines = VisibleFlattening.polylines(p, .identity, area: Rect(x: 0, y: 0, width: 48, height: 48), pad: 1e305)
        #expect(lines.map(\.count).reduce(0, +) < 100, "\(lines.map(\.count))")
    }

    @Test("a mask set on, changed on and removed from a layer whose sublayer draws outside its bounds: each damage-tracked frame equals a full repaint (found by the fuzzer)")
    func maskOverSublayersOutside() {
        let (r, root, clock, holder, wide) = holderWithWideSublayer()
        let nothing = Layer(), part = Layer()
        Transaction.withoutActions {
            nothing.frame = Rect(x: -80, y: -80, width: 10, height: 10)
            nothing.backgroundColor = .black
            part.frame = Rect(x: -20, y: 0, width: 30, height: 16)
            part.backgroundColor = .black
        }
        for (mask, shown) in [(nothing, false), (part, true), (nil, true)] as [(Layer?, Bool)] {
            Transaction.withoutActions { holder.mask = mask }
            Transaction.flush()
            let tracked = r.render(atTime: clock.now)
            #expect(tracked == fresh(root, width: 48, height: 48), "mask \(mask.map { "\($0.frame)" } ?? "nil")")
            #expect(tracked.rgba8(x: 4, y: 12).b == (shown ? 255 : 0))   // left of the holder: only where the mask covers it
        }
        _ = wide
    }

    @Test("a shape whose stroke reach overflows to ∞ (width × miter limit) still counts its path in damage: a repaint beside it draws its fill (found by the fuzzer)")
    func infiniteStrokeReach() {
        let (r, root, clock) = makeRenderer(width: 48, height: 48)
        let holder = box(Rect(x: 2, y: 2, width: 2, height: 2), nil, in: root)
        let shape = ShapeLayer()
        let fill = Path()
        fill.move(to: Point(x: -10, y: -10))
        fill.addLine(to: Point(x: 60, y: -10))
        fill.addLine(to: Point(x: 60, y: 60))
        fill.addLine(to: Point(x: -10, y: 60))
        fill.closeSubpath()
        Transaction.withoutActions {
            shape.frame = Rect(x: 0, y: 0, width: 4, height: 4)
            shape.path = fill           // far outside its 4-point bounds
            shape.fillColor = .green
            shape.lineWidth = 1e308     // no stroke colour: nothing stroked, but times the miter limit the reach was ∞
            holder.addSublayer(shape)
        }
        let spot = box(Rect(x: 30, y: 30, width: 8, height: 8), .red, in: root)
        Transaction.flush()
        _ = r.render(atTime: clock.now)
        // Only the spot changes: the repaint area lies far from the shape's bounds but on its fill.
        Transaction.withoutActions { spot.backgroundColor = nil }
        Transaction.flush()
        let tracked = r.render(atTime: clock.now)
        #expect(tracked == fresh(root, width: 48, height: 48))
        #expect(tracked.rgba8(x: 33, y: 33).g > 100)   // the fill shows where the spot was
    }
    @Test("contents sampled from a million image widths away draw nothing, the same in a damaged frame and a full one")
    func contentsRectFarAway() {
        // Found by the fuzzer: pixman clamped the map, and what it then sampled
        // depended on where the composite started.
        let (r, root, _) = makeRenderer(width: 48, height: 48)
        let layer = Layer()
        Transaction.withoutActions {
            root.backgroundColor = .white
            root.contents = Image(width: 4, height: 4, color: Color(red: 0.2, green: 0.5, blue: 0.9, alpha: 0.7))
            root.contentsRect = Rect(x: -1_000_000, y: 71.08, width: 42.59, height: -9.61)
            layer.frame = Rect(x: 14.6, y: 0, width: 100.8, height: 29.7)
            layer.backgroundColor = .yellow
            root.addSublayer(layer)
        }
        Transaction.flush()
        _ = r.render()
        Transaction.withoutActions { layer.position.x += 1 }
        Transaction.flush()
        let tracked = r.render()
        #expect(tracked == fresh(root, width: 48, height: 48))
        #expect(near(tracked.rgba8(x: 5, y: 40), (255, 255, 255, 255), 0))
    }
}
