import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// Masks kept between frames (issue 5, item 5): reused while their geometry holds,
/// made anew when it changes, within a byte budget.
@MainActor
@Suite("Mask caches", .serialized, .isolatedLayerContext)
struct CacheTests {
    @Test("a shadow that stays put or moves by whole pixels reuses its mask; a new shape or blur makes a new one")
    func shadowMasks() {
        let (r, root, _) = makeRenderer(width: 120, height: 120)
        let card = box(Rect(x: 20, y: 20, width: 50, height: 40), .white, in: root)
        Transaction.withoutActions {
            card.cornerRadius = 8
            card.shadowOpacity = 0.7
            card.shadowRadius = 6
            card.shadowOffset = Size(width: 3, height: 5)
        }
        func frame(_ what: String) {
            let image = r.render()
            let same = image == fresh(root, width: 120, height: 120)
            #expect(same, "\(what): the kept mask draws what a new one would")
        }
        frame("first")
        let shadows = r.renderer.shadows
        #expect(shadows.count == 1)
        Transaction.withoutActions { card.position = Point(x: card.position.x + 7, y: card.position.y - 3) }
        frame("moved by whole pixels")
        #expect(shadows.count == 1, "moved by whole pixels: the same mask")
        Transaction.withoutActions { card.backgroundColor = .red }
        frame("recoloured")
        #expect(shadows.count == 1, "an opaque colour blurs to the same alpha")
        Transaction.withoutActions { card.cornerRadius = 16 }
        frame("rounder")
        #expect(shadows.count == 2)
        Transaction.withoutActions { card.shadowRadius = 10 }
        frame("blurrier")
        #expect(shadows.count == 3)
        Transaction.withoutActions { card.position = Point(x: card.position.x + 0.5, y: card.position.y) }
        frame("half a pixel")
        #expect(shadows.count == 4, "a fractional move is a new shape in device pixels")
    }

    @Test("kept shadow masks stay within their byte budget")
    func shadowBudget() {
        let (r, root, _) = makeRenderer(width: 120, height: 120)
        r.renderer.shadows.byteLimit = 3 * 80 * 80
        let card = box(Rect(x: 20, y: 20, width: 40, height: 40), .white, in: root)
        Transaction.withoutActions { card.shadowOpacity = 1; card.shadowRadius = 4 }
        for k in 0..<20 {
            Transaction.withoutActions { card.cornerRadius = Double(k) }
            _ = r.render()
            #expect(r.renderer.shadows.heldBytes <= 3 * 80 * 80)
        }
        #expect(r.renderer.shadows.count >= 1)
    }

    @Test("a shadow of drawn contents is blurred each frame, not kept")
    func imageShadowsAreNotKept() {
        let (r, root, _) = makeRenderer(width: 120, height: 120)
        let picture = box(Rect(x: 20, y: 20, width: 40, height: 40), nil, in: root)
        Transaction.withoutActions {
            picture.contents = Image(width: 2, height: 2, pixels: [0xFFFF_0000, 0, 0, 0xFF00_00FF])
            picture.shadowOpacity = 1
            picture.shadowOffset = Size(width: 0, height: 10)
        }
        let image = r.render()
        #expect(r.renderer.shadows.count == 0)
        #expect(image.rgba8(x: 40, y: 66).a > 0, "the shadow is drawn all the same")
    }

    @Test("a shape that stays put or moves by whole pixels is swept once; a changed path or style is swept again")
    func shapeCoverage() {
        let (r, root, _) = makeRenderer(width: 120, height: 120)
        let shape = ShapeLayer()
        let star = starPath(center: Point(x: 30, y: 30), radius: 25)
        Transaction.withoutActions {
            shape.frame = Rect(x: 10, y: 10, width: 60, height: 60)
            shape.path = star
            shape.fillColor = .yellow
            shape.strokeColor = .black
            shape.lineWidth = 3
            root.addSublayer(shape)
        }
        let shapes = r.renderer.shapes
        func frame(_ what: String, sweeps: Int) {
            let image = r.render()
            let same = image == fresh(root, width: 120, height: 120)
            #expect(same, "\(what): kept coverage draws what a new sweep would")
            #expect(shapes.sweeps == sweeps, "\(what)")
        }
        frame("first", sweeps: 2)   // the fill and the stroke
        Transaction.withoutActions { shape.position = Point(x: shape.position.x + 12, y: shape.position.y + 5) }
        frame("moved by whole pixels", sweeps: 2)
        Transaction.withoutActions { shape.fillColor = .red }
        frame("recoloured", sweeps: 2)
        Transaction.withoutActions { shape.lineWidth = 5 }
        frame("wider stroke", sweeps: 3)
        star.move(to: Point(x: 5, y: 5))
        star.addLine(to: Point(x: 55, y: 8))
        star.addLine(to: Point(x: 30, y: 20))
        star.closeSubpath()
        frame("the caller's path changed: the layer keeps its copy", sweeps: 3)
        Transaction.withoutActions { shape.path = star }
        frame("a new path", sweeps: 5)
        #expect(shapes.heldBytes > 0 && shapes.count == 5)
    }

    @Test("corner masks are kept per radius; a huge radius takes the general path instead of a huge mask")
    func cornerMasks() {
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        for i in 0..<3 {
            let l = box(Rect(x: Double(i * 30), y: 0, width: 28, height: 28), .white, in: root)
            Transaction.withoutActions { l.cornerRadius = 6 }
        }
        _ = r.render()
        #expect(r.renderer.aligned.maskCount == 1, "three cards of one radius share a mask")
        // A circle of radius 550 around (50, 600): at x = 0 its edge is at y ≈ 52.3.
        let huge = box(Rect(x: -500, y: 50, width: 1100, height: 1100), .red, in: root)
        Transaction.withoutActions { huge.cornerRadius = 550 }
        let image = r.render()
        #expect(r.renderer.aligned.maskCount == 1)
        #expect(image.rgba8(x: 0, y: 51).a == 0, "outside the round edge")
        #expect(image.rgba8(x: 0, y: 54).a == 255)
        #expect(image.rgba8(x: 50, y: 50).a == 255)
    }
}
