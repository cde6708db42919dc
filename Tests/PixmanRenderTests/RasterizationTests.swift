import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// `shouldRasterize`, `allowsGroupOpacity` and the contents filters (issue 28,
/// item 6): a rasterized
/// subtree draws as the live one, is kept between frames and drawn again exactly
/// when something below it changes or animates; nearest, linear and trilinear
/// sampling when contents are enlarged or shrunk.
@MainActor
@Suite("Rasterization, group opacity and filters", .serialized, .isolatedLayerContext)
struct RasterizationTests {
    /// A card with a rounded, bordered background and two sublayers, one reaching outside it.
    func card(in root: Layer) -> (Layer, Layer) {
        let card = box(Rect(x: 10, y: 10, width: 60, height: 40), Color(red: 0.2, green: 0.5, blue: 0.8), in: root)
        let inner = Layer()
        Transaction.withoutActions {
            card.cornerRadius = 8
            card.borderWidth = 2
            card.borderColor = .white
            inner.frame = Rect(x: 40, y: 20, width: 30, height: 30)   // beyond the card's right and bottom edges
            inner.backgroundColor = .orange
            inner.opacity = 0.7
            card.addSublayer(inner)
            _ = box(Rect(x: 5, y: 5, width: 10, height: 10), .green, in: card)
        }
        Transaction.flush()
        return (card, inner)
    }

    @Test("a rasterized subtree draws the pixels of the live one (within the rounding of a translucent sublayer over the bitmap's clear ground), its sublayers beyond its bounds included")
    func sameAsLive() {
        let (r, root, _) = makeRenderer(width: 100, height: 80)
        Transaction.withoutActions { root.backgroundColor = .white }
        let (card, _) = card(in: root)
        let live = r.render()
        Transaction.withoutActions { card.shouldRasterize = true }
        Transaction.flush()
        let rasterized = r.render()
        #expect((rasterized.maximumDifference(from: live) ?? 255) <= 2, "differs by \(rasterized.maximumDifference(from: live) ?? -1)")
        #expect(rasterized.rgba8(x: 75, y: 45) == live.rgba8(x: 75, y: 45) || near(rasterized.rgba8(x: 75, y: 45), (255, 211, 179, 255), 2),
                "the sublayer's part outside the card is drawn")
        #expect(r.renderer.rasters.count == 1)
    }

    @Test("the bitmap is kept while nothing below changes, drawn again when something does, and every frame while something animates")
    func keptAndInvalidated() {
        let (r, root, clock) = makeRenderer(width: 100, height: 80)
        Transaction.withoutActions { root.backgroundColor = .white }
        let (card, inner) = card(in: root)
        Transaction.withoutActions { card.shouldRasterize = true }
        Transaction.flush()
        _ = r.render()
        let other = box(Rect(x: 80, y: 60, width: 10, height: 10), .red, in: root)
        Transaction.withoutActions { other.position.x -= 3; card.position.x += 2 }   // moved, not changed inside
        Transaction.flush()
        _ = r.render()
        #expect(r.renderer.rasters.made == 1, "kept: \(r.renderer.rasters.made) bitmaps made")
        Transaction.withoutActions { inner.backgroundColor = .blue }
        Transaction.flush()
        let changed = r.render()
        #expect(r.renderer.rasters.made == 2)
        #expect(changed == fresh(root, width: 100, height: 80))
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 1
        inner.add(fade, forKey: "fade")
        Transaction.flush()
        clock.now += 0.5
        let half = r.render()
        clock.now += 0.25
        _ = r.render()
        #expect(r.renderer.rasters.made == 2, "while animating, nothing is kept")
        #expect(half.rgba8(x: 60, y: 45) != changed.rgba8(x: 60, y: 45), "the fade shows in the rasterized subtree")
    }

    @Test("a coarse rasterization scale draws a coarser bitmap; a scale not above 0 is refused")
    func scale() {
        let (r, root, _) = makeRenderer(width: 100, height: 80)
        Transaction.withoutActions { root.backgroundColor = .white }
        let (card, _) = card(in: root)
        let live = r.render()
        let seen = Diagnostics.recording { card.rasterizationScale = 0; card.rasterizationScale = -1 }
        #expect(seen.count == 2 && card.rasterizationScale == 1)
        Transaction.withoutActions { card.shouldRasterize = true; card.rasterizationScale = 0.25 }
        Transaction.flush()
        let coarse = r.render()
        #expect((coarse.maximumDifference(from: live) ?? 0) > 40)
        #expect(near(coarse.rgba8(x: 40, y: 30), (51, 128, 204, 255), 6), "the card's middle keeps its colour")
    }

    /// A 2 × 2 image: red, green / blue, white.
    static let quad = Image(width: 2, height: 2, pixels: [0xFFFF0000, 0xFF00FF00, 0xFF0000FF, 0xFFFFFFFF])!

    @Test("enlarged: nearest keeps hard blocks, linear blends between pixels")
    func magnification() {
        let (r, root, _) = makeRenderer(width: 60, height: 20)
        for (i, filter) in [ContentsFilter.nearest, .linear].enumerated() {
            let l = Layer()
            Transaction.withoutActions {
                l.frame = Rect(x: Double(i) * 30, y: 0, width: 20, height: 20)
                l.contents = Self.quad
                l.magnificationFilter = filter
                root.addSublayer(l)
            }
        }
        Transaction.flush()
        let img = r.render()
        #expect(near(img.rgba8(x: 9, y: 4), (255, 0, 0, 255), 0) && near(img.rgba8(x: 10, y: 4), (0, 255, 0, 255), 0))
        let blended = img.rgba8(x: 40, y: 4)
        #expect(blended.r > 60 && blended.g > 60, "linear mixes red and green at the middle: \(blended)")
    }

    @Test("shrunk to an eighth: trilinear takes a mipmap level (the mean: grey), nearest picks single pixels (black or white)")
    func minification() {
        var checker: [UInt32] = []
        for y in 0..<64 { for x in 0..<64 { checker.append((x + y) % 2 == 0 ? 0xFF000000 : 0xFFFFFFFF) } }
        let image = Image(width: 64, height: 64, pixels: checker)!
        let (r, root, _) = makeRenderer(width: 20, height: 8)
        for (i, filter) in [ContentsFilter.trilinear, .nearest].enumerated() {
            let l = Layer()
            Transaction.withoutActions {
                l.frame = Rect(x: Double(i) * 10, y: 0, width: 8, height: 8)
                l.contents = image
                l.minificationFilter = filter
                root.addSublayer(l)
            }
        }
        Transaction.flush()
        let img = r.render()
        for x in 1..<7 {
            let g = Int(img.rgba8(x: x, y: 3).r)
            #expect(abs(g - 128) < 12, "trilinear at \(x): \(g)")
            let n = Int(img.rgba8(x: 10 + x, y: 3).r)
            #expect(n < 5 || n > 250, "nearest at \(x): \(n)")
        }
    }
    @Test("allowsGroupOpacity false: each sublayer takes the opacity on its own, so overlaps show through; true (the default): one picture")
    func groupOpacity() {
        func overlap(group: Bool) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
            let (r, root, _) = makeRenderer(width: 60, height: 30)
            let parent = Layer()
            Transaction.withoutActions {
                root.backgroundColor = .white
                parent.frame = root.bounds
                parent.opacity = 0.5
                parent.allowsGroupOpacity = group
                root.addSublayer(parent)
                _ = box(Rect(x: 0, y: 0, width: 40, height: 30), .red, in: parent)
                let blue = box(Rect(x: 20, y: 0, width: 40, height: 30), .blue, in: parent)
                _ = box(Rect(x: 5, y: 5, width: 10, height: 10), .green, in: blue)   // a grandchild: the product too
            }
            Transaction.flush()
            #expect(parent.allowsGroupOpacity == group)
            return r.render().rgba8(x: 30, y: 15)
        }
        #expect(near(overlap(group: true), (128, 128, 255, 255), 1))
        #expect(near(overlap(group: false), (128, 64, 191, 255), 1))
        // A change of the ancestor's opacity reaches leaves two levels down (their kept items hold the old one).
        let (r, root, _) = makeRenderer(width: 40, height: 20)
        let top = Layer(), middle = Layer()
        Transaction.withoutActions {
            root.backgroundColor = .white
            top.frame = root.bounds
            top.allowsGroupOpacity = false
            top.opacity = 0.5
            middle.frame = root.bounds
            root.addSublayer(top)
            top.addSublayer(middle)
            _ = box(Rect(x: 0, y: 0, width: 40, height: 20), .black, in: middle)
        }
        Transaction.flush()
        _ = r.render()
        _ = r.render()
        Transaction.withoutActions { top.opacity = 0.25 }
        Transaction.flush()
        #expect(near(r.render().rgba8(x: 10, y: 10), (191, 191, 191, 255), 1))
    }
    @Test("edges left out of edgeAntialiasingMask land on whole pixels: two layers meeting at x 30.4 leave no blended seam")
    func edgeAntialiasing() {
        func seam(_ masked: Bool) -> ((r: UInt8, g: UInt8, b: UInt8, a: UInt8), (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) {
            let (r, root, _) = makeRenderer(width: 60, height: 10)
            Transaction.withoutActions { root.backgroundColor = .white }
            let a = box(Rect(x: 10.4, y: 0, width: 20, height: 10), .red, in: root)
            let b = box(Rect(x: 30.4, y: 0, width: 20, height: 10), .blue, in: root)
            if masked {
                Transaction.withoutActions { a.edgeAntialiasingMask = [.minXEdge, .minYEdge, .maxYEdge]; b.edgeAntialiasingMask = [.maxXEdge, .minYEdge, .maxYEdge] }
            }
            Transaction.flush()
            let img = r.render()
            return (img.rgba8(x: 29, y: 5), img.rgba8(x: 30, y: 5))
        }
        let (left, right) = seam(true)
        #expect(near(left, (255, 0, 0, 255), 0) && near(right, (0, 0, 255, 255), 0), "\(left) | \(right)")
        let (_, blended) = seam(false)
        #expect(blended.r > 60 && blended.b > 60, "anti-aliased by default: \(blended)")
    }
    @Test("turned, or with rounded corners, edges left out of the mask are hard: no pixel between the layer's colour and the ground along them, border included")
    func edgeAntialiasingTurned() {
        func partial(_ mask: EdgeAntialiasingMask, radius: Double = 0, turned: Bool = true) -> Int {
            let (r, root, _) = makeRenderer(width: 80, height: 80)
            Transaction.withoutActions { root.backgroundColor = .white }
            let l = box(Rect(x: 20, y: 20, width: 40, height: 40), .black, in: root)
            Transaction.withoutActions {
                if turned { l.transform = Transform3D(rotationAngle: 0.4, x: 0, y: 0, z: 1) }
                l.cornerRadius = radius
                l.borderWidth = 3
                l.borderColor = .black
                l.edgeAntialiasingMask = mask
            }
            Transaction.flush()
            let img = r.render()
            var n = 0
            for y in 0..<80 { for x in 0..<80 { let v = img.rgba8(x: x, y: y).r; if v > 20 && v < 235 { n += 1 } } }
            return n
        }
        #expect(partial(.all) > 40, "anti-aliased edges blend")
        #expect(partial([]) == 0, "no edge blends: \(partial([]))")
        #expect(partial([.minXEdge, .maxXEdge]) > 10 && partial([.minXEdge, .maxXEdge]) < partial(.all), "two edges blend, two do not")
        #expect(partial([], radius: 10, turned: false) == 0, "rounded corners, hard too")
        #expect(partial([], radius: 10, turned: false) < partial(.all, radius: 10, turned: false))
    }
}
