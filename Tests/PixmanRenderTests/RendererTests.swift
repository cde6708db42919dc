import LayerKit
@testable import PixmanRender
import CPixman
import Glibc
import Testing
import LayerKitTesting

/// A clean world with a ManualMediaClock at t = 100 and an offscreen renderer.
@MainActor
func makeRenderer(width: Int = 100, height: Int = 100, scale: Double = 1) -> (OffscreenRenderer, Layer, ManualMediaClock) {
    Transaction.reset()
    AnimationTimeline.reset()
    Transaction.endOfTurnScheduler = { _ in }
    let clock = ManualMediaClock(now: 100)
    MediaTime.clock = clock
    let root = Layer()
    root.anchorPoint = .zero
    root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    let r = OffscreenRenderer(width: width, height: height, scale: scale)
    r.rootLayer = root
    Transaction.flush()
    return (r, root, clock)
}

@MainActor
func box(_ frame: Rect, _ color: Color?, in parent: Layer) -> Layer {
    let l = Layer()
    l.frame = frame
    l.backgroundColor = color
    Transaction.withoutActions { parent.addSublayer(l) }
    return l
}

/// A five-pointed star drawn in one stroke (a self-intersecting path).
func starPath(center: Point, radius: Double) -> Path {
    let star = Path()
    for k in 0..<5 {
        let a = -Double.pi / 2 + Double(k * 2) * 2 * .pi / 5
        let p = Point(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
        k == 0 ? star.move(to: p) : star.addLine(to: p)
    }
    star.closeSubpath()
    return star
}

/// The tree drawn by a renderer that has never seen it (no damage, no caches).
@MainActor
func fresh(_ root: Layer, width: Int = 160, height: Int = 120) -> RenderedImage {
    let r = OffscreenRenderer(width: width, height: height)
    r.rootLayer = root
    defer { r.rootLayer = nil }
    return r.render()
}

func near(_ a: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), _ b: (Int, Int, Int, Int), _ tol: Int = 1) -> Bool {
    abs(Int(a.r) - b.0) <= tol && abs(Int(a.g) - b.1) <= tol && abs(Int(a.b) - b.2) <= tol && abs(Int(a.a) - b.3) <= tol
}

/// Pixels drawn by the offscreen renderer against independently computed
/// expectations (rules R1–R5).
@MainActor
@Suite("Offscreen rendering (R1–R5)", .serialized, .isolatedLayerContext)
struct RendererTests {
    @Test("rule R1: a layer's background fills its frame exactly")
    func ruleR1SolidBackground() {
        let (r, root, _) = makeRenderer()
        _ = box(Rect(x: 10, y: 20, width: 30, height: 40), .red, in: root)
        let img = r.render()
        #expect(near(img.rgba8(x: 10, y: 20), (255, 0, 0, 255), 0))
        #expect(near(img.rgba8(x: 39, y: 59), (255, 0, 0, 255), 0))
        #expect(img.rgba8(x: 40, y: 20).a == 0 && img.rgba8(x: 9, y: 20).a == 0 && img.rgba8(x: 10, y: 60).a == 0)
    }

    @Test("rule R1: edges are anti-aliased by their true coverage")
    func ruleR1AntialiasedEdges() {
        let (r, root, _) = makeRenderer()
        _ = box(Rect(x: 10.5, y: 10, width: 20, height: 20.25), .white, in: root)
        let img = r.render()
        // pixman rasterizes 8-bit coverage on a 17×15 sample grid per pixel, so a true
        // coverage is met within about one sample column (1/17 ≈ 15/255).
        #expect(abs(Int(img.rgba8(x: 10, y: 15).a) - 128) <= 10)    // half the pixel covered
        #expect(abs(Int(img.rgba8(x: 30, y: 15).a) - 128) <= 10)
        #expect(abs(Int(img.rgba8(x: 20, y: 30).a) - 64) <= 10)     // a quarter
        #expect(img.rgba8(x: 9, y: 15).a == 0 && img.rgba8(x: 31, y: 15).a == 0)
        #expect(img.rgba8(x: 20, y: 15).a == 255)
    }

    @Test("rule R1: sublayers draw in zPosition, then insertion order, before the border")
    func ruleR1Order() {
        let (r, root, _) = makeRenderer()
        let parent = box(Rect(x: 0, y: 0, width: 60, height: 60), .black, in: root)
        Transaction.withoutActions {
            parent.borderWidth = 5
            parent.borderColor = .white
        }
        let a = box(Rect(x: 0, y: 0, width: 40, height: 40), .red, in: parent)
        _ = box(Rect(x: 20, y: 20, width: 40, height: 40), .green, in: parent)
        let img = r.render()
        #expect(near(img.rgba8(x: 30, y: 30), (0, 255, 0, 255), 0))   // inserted later: on top
        #expect(near(img.rgba8(x: 2, y: 20), (255, 255, 255, 255), 0)) // the border covers sublayers
        Transaction.withoutActions { a.zPosition = 1 }
        #expect(near(r.render().rgba8(x: 30, y: 30), (255, 0, 0, 255), 0))
    }

    @Test("rule R1: transforms turn about the anchor point")
    func ruleR1Transform() {
        let (r, root, _) = makeRenderer()
        let bar = box(Rect(x: 20, y: 45, width: 60, height: 10), .blue, in: root)
        Transaction.withoutActions { bar.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1) }
        let img = r.render()
        #expect(near(img.rgba8(x: 50, y: 25), (0, 0, 255, 255), 0))   // now vertical through the centre
        #expect(img.rgba8(x: 25, y: 50).a == 0)
    }

    @Test("rule R2: opacity is group opacity over overlapping sublayers")
    func ruleR2GroupOpacity() {
        let (r, root, _) = makeRenderer()
        let group = box(Rect(x: 0, y: 0, width: 100, height: 100), nil, in: root)
        _ = box(Rect(x: 0, y: 0, width: 60, height: 60), .red, in: group)
        _ = box(Rect(x: 40, y: 40, width: 60, height: 60), .blue, in: group)
        Transaction.withoutActions { group.opacity = 0.5 }
        let img = r.render()
        #expect(near(img.rgba8(x: 50, y: 50), (0, 0, 255, 128)))     // blue alone, half transparent
        #expect(near(img.rgba8(x: 10, y: 10), (255, 0, 0, 128)))
        // Per-layer opacity would let the red show through the blue instead.
        let (r2, root2, _) = makeRenderer()
        let a = box(Rect(x: 0, y: 0, width: 60, height: 60), .red, in: root2)
        let b = box(Rect(x: 40, y: 40, width: 60, height: 60), .blue, in: root2)
        Transaction.withoutActions { a.opacity = 0.5; b.opacity = 0.5 }
        let mixed = r2.render().rgba8(x: 50, y: 50)
        #expect(mixed.r > 60 && mixed.b > 100 && mixed.a > 180)
    }

    @Test("rule R3: masksToBounds clips sublayers to the rounded bounds")
    func ruleR3RoundedClip() {
        let (r, root, _) = makeRenderer()
        let clip = box(Rect(x: 10, y: 10, width: 80, height: 80), nil, in: root)
        Transaction.withoutActions {
            clip.cornerRadius = 40
            clip.masksToBounds = true
        }
        _ = box(Rect(x: -10, y: -10, width: 100, height: 100), .green, in: clip)
        let img = r.render()
        #expect(img.rgba8(x: 12, y: 12).a == 0)          // outside the circle
        #expect(img.rgba8(x: 5, y: 50).a == 0)           // outside the bounds
        #expect(near(img.rgba8(x: 50, y: 50), (0, 255, 0, 255), 0))
        // Coverage adds up to the circle's area (π·40²) within half a percent.
        var sum = 0.0
        for y in 0..<100 { for x in 0..<100 { sum += Double(img.rgba8(x: x, y: y).a) / 255 } }
        #expect(abs(sum - Double.pi * 1600) / (Double.pi * 1600) < 0.005)
    }

    @Test("rule R3: corner radius rounds the background and the border follows it")
    func ruleR3RoundedBackgroundAndBorder() {
        let (r, root, _) = makeRenderer()
        let l = box(Rect(x: 0, y: 0, width: 100, height: 100), .black, in: root)
        Transaction.withoutActions {
            l.cornerRadius = 30
            l.borderWidth = 4
            l.borderColor = .white
        }
        let img = r.render()
        #expect(img.rgba8(x: 1, y: 1).a == 0)
        #expect(near(img.rgba8(x: 50, y: 1), (255, 255, 255, 255), 0))      // straight border
        #expect(near(img.rgba8(x: 50, y: 50), (0, 0, 0, 255), 0))
        // On the diagonal the border is at distance 30 − 30/√2 ≈ 8.8 from the corner, 4 wide.
        #expect(near(img.rgba8(x: 10, y: 10), (255, 255, 255, 255), 2))
        #expect(near(img.rgba8(x: 14, y: 14), (0, 0, 0, 255), 2))
    }

    @Test("rule R4: hidden layers and their subtrees are not drawn")
    func ruleR4Hidden() {
        let (r, root, _) = makeRenderer()
        let l = box(Rect(x: 0, y: 0, width: 50, height: 50), .red, in: root)
        _ = box(Rect(x: 0, y: 0, width: 10, height: 10), .blue, in: l)
        Transaction.withoutActions { l.isHidden = true }
        let img = r.render()
        #expect(img.pixels.allSatisfy { $0 == 0 })
    }

    @Test("rule R5: a frame shows presentation values at its time, never model values mid-animation")
    func ruleR5PresentationAtFrameTime() {
        let (r, root, clock) = makeRenderer()
        let l = box(Rect(x: 0, y: 0, width: 20, height: 20), .white, in: root)
        Transaction.flush()
        Transaction.begin()
        Transaction.animationTimingFunction = .linear
        Transaction.animationDuration = 1
        l.position = Point(x: 80, y: 10)    // from (10, 10)
        Transaction.commit()
        let mid = r.render(atTime: 100.5)
        #expect(mid.rgba8(x: 45, y: 10).a == 255 && mid.rgba8(x: 75, y: 10).a == 0)
        clock.advance(by: 1)
        let end = r.render()
        #expect(end.rgba8(x: 75, y: 10).a == 255 && end.rgba8(x: 45, y: 10).a == 0)
    }

    @Test("contents are drawn into the bounds, by gravity and contentsRect")
    func contentsImages() throws {
        let (r, root, _) = makeRenderer()
        // A 2×2 image: red, green / blue, white.
        let image = try #require(Image(width: 2, height: 2, pixels: [0xFFFF0000, 0xFF00FF00, 0xFF0000FF, 0xFFFFFFFF]))
        let exact = box(Rect(x: 0, y: 0, width: 2, height: 2), nil, in: root)
        let big = box(Rect(x: 10, y: 10, width: 40, height: 40), nil, in: root)
        let cropped = box(Rect(x: 60, y: 10, width: 20, height: 20), nil, in: root)
        Transaction.withoutActions {
            exact.contents = image
            big.contents = image
            cropped.contents = image
            cropped.contentsRect = Rect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)   // the white pixel only
        }
        let img = r.render()
        #expect(near(img.rgba8(x: 0, y: 0), (255, 0, 0, 255), 0) && near(img.rgba8(x: 1, y: 1), (255, 255, 255, 255), 0))
        #expect(near(img.rgba8(x: 12, y: 12), (255, 0, 0, 255), 0))   // top-left quadrant
        #expect(near(img.rgba8(x: 47, y: 12), (0, 255, 0, 255), 0))
        #expect(near(img.rgba8(x: 12, y: 47), (0, 0, 255, 255), 0))
        #expect(near(img.rgba8(x: 70, y: 20), (255, 255, 255, 255), 0))
        Transaction.withoutActions { big.contentsGravity = .center }
        let centred = r.render()
        #expect(near(centred.rgba8(x: 29, y: 29), (255, 0, 0, 255), 0) && centred.rgba8(x: 12, y: 12).a == 0)
    }

    @Test("rendering is deterministic and survives a PNG round trip")
    func deterministicAndPNG() throws {
        let (r, root, _) = makeRenderer()
        let a = box(Rect(x: 5.3, y: 7.7, width: 50, height: 30), Color(red: 0.2, green: 0.6, blue: 0.9, alpha: 0.7), in: root)
        Transaction.withoutActions { a.cornerRadius = 9; a.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1) }
        let one = r.render(), two = r.render()
        #expect(one == two)
        let back = try RenderedImage(pngData: one.pngData())
        #expect(back.maximumDifference(from: one)! <= 1)
        #expect(RenderedImage(width: 0, height: 0, pixels: []).pngData().isEmpty)   // nothing to encode
        #expect(throws: PNGError.self) { try RenderedImage(width: 0, height: 0, pixels: []).writePNG(to: "/tmp/strata-empty.png") }
    }

    @Test("pixel-aligned rounded rectangles and borders (cached corner masks) match the general rasterizer")
    func alignedFastPathMatchesGeneralPath() {
        func scene(turn: Double) -> (RenderedImage, fastFills: Int) {
            let (r, root, _) = makeRenderer(width: 120, height: 120)
            for (i, radius) in [0.0, 6, 13, 25].enumerated() {
                let l = box(Rect(x: 5 + Double(i % 2) * 58, y: 5 + Double(i / 2) * 58, width: 52, height: 52),
                            Color(red: 0.8, green: 0.4, blue: 0.1, alpha: 0.9), in: root)
                Transaction.withoutActions {
                    l.cornerRadius = radius
                    l.borderWidth = Double(i + 1)
                    l.borderColor = Color(white: 1, alpha: 0.8)
                    l.opacity = 0.7
                    // A negligible turn takes the layer off the pixel-aligned path.
                    l.transform = Transform3D(rotationAngle: turn, x: 0, y: 0, z: 1)
                }
            }
            let image = r.render()
            return (image, r.renderer.aligned.fastFills)
        }
        let (fast, fastCount) = scene(turn: 0), (general, generalCount) = scene(turn: 1e-9)
        #expect(fastCount == 4 && generalCount == 0)   // the 4 translucent bordered cards took the fast path
        let worst = fast.maximumDifference(from: general) ?? 255
        #expect(worst <= 12, "fast and general paths differ by \(worst)")
    }

    @Test("bad input: empty, huge and degenerate layers, corrupt images")
    func badInput() {
        let (r, root, _) = makeRenderer()
        _ = box(Rect(x: 0, y: 0, width: 0, height: 0), .red, in: root)
        let huge = box(Rect(x: -5e8, y: -5e8, width: 1e9, height: 1e9), .blue, in: root)
        Transaction.withoutActions { huge.cornerRadius = 1e12 }
        let flat = box(Rect(x: 0, y: 0, width: 50, height: 50), .green, in: root)
        Transaction.withoutActions {
            flat.transform = Transform3D(scaleX: 0, y: 1, z: 1)
            flat.contents = Image(width: 0, height: 0, pixels: [])
        }
        var deep = root
        for _ in 0..<2000 { deep = box(Rect(x: 0, y: 0, width: 1, height: 1), nil, in: deep) }
        let img = r.render()
        #expect(img.width == 100)
        #expect(Image(pngData: [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]) == nil)
        #expect(Image(contentsOfFile: "/nonexistent.png") == nil)
        #expect(OffscreenRenderer(width: -5, height: 0).width == 1)
    }
}

/// Transitions drawn between the old and the new state (rule G2).
@MainActor
@Suite("Transitions on screen (G2)", .serialized, .isolatedLayerContext)
struct TransitionRenderingTests {
    /// Listing 6-1's delegate, with a type of our choosing.
    final class ContentsTransitionDelegate: LayerDelegate {
        let type: TransitionType
        init(_ type: TransitionType) { self.type = type }
        func action(for layer: Layer, forKey event: String) -> (any Action)? {
            guard event == "contents" else { return nil }
            let t = Transition()
            t.duration = 1
            t.timingFunction = .linear
            t.type = type
            t.subtype = .fromRight
            return t
        }
    }

    func scene(_ type: TransitionType) -> (OffscreenRenderer, Layer, ManualMediaClock, ContentsTransitionDelegate) {
        let (r, root, clock) = makeRenderer()
        let l = box(Rect(x: 0, y: 0, width: 100, height: 100), nil, in: root)
        Transaction.withoutActions { l.contents = Image(width: 4, height: 4, color: .red) }
        Transaction.flush()
        let d = ContentsTransitionDelegate(type)
        l.delegate = d
        l.contents = Image(width: 4, height: 4, color: .blue)   // through the delegate's transition
        Transaction.flush()
        return (r, l, clock, d)
    }

    @Test("push from the right: the new contents push the old ones out to the left")
    func push() {
        let (r, _, _, d) = scene(.push)
        let img = r.render(atTime: 100.25)
        #expect(near(img.rgba8(x: 10, y: 50), (255, 0, 0, 255), 0))    // old, moved left by 25
        #expect(near(img.rgba8(x: 70, y: 50), (255, 0, 0, 255), 0))
        #expect(near(img.rgba8(x: 80, y: 50), (0, 0, 255, 255), 0))    // new, 75 still to come
        _ = d
    }

    @Test("moveIn covers the old state; reveal uncovers the new one; fade cross-fades")
    func moveInRevealFade() {
        let (r1, _, _, d1) = scene(.moveIn)
        let moveIn = r1.render(atTime: 100.5)
        #expect(near(moveIn.rgba8(x: 25, y: 50), (255, 0, 0, 255), 0) && near(moveIn.rgba8(x: 75, y: 50), (0, 0, 255, 255), 0))
        let (r2, _, _, d2) = scene(.reveal)
        let reveal = r2.render(atTime: 100.5)
        #expect(near(reveal.rgba8(x: 25, y: 50), (255, 0, 0, 255), 0) && near(reveal.rgba8(x: 75, y: 50), (0, 0, 255, 255), 0))
        let (r3, _, clock, d3) = scene(.fade)
        let fade = r3.render(atTime: 100.5)
        #expect(near(fade.rgba8(x: 50, y: 50), (128, 0, 128, 255), 2))
        clock.advance(by: 1)
        #expect(near(r3.render().rgba8(x: 50, y: 50), (0, 0, 255, 255), 0))   // over: the new state alone
        _ = (d1, d2, d3)
    }

    @Test("replaceSublayer's transition starts from the replaced layer")
    func replaceSublayer() {
        let (r, root, _) = makeRenderer()
        let holder = box(Rect(x: 0, y: 0, width: 100, height: 100), nil, in: root)
        let old = box(Rect(x: 0, y: 0, width: 100, height: 100), .green, in: holder)
        Transaction.flush()
        let new = Layer()
        new.frame = Rect(x: 0, y: 0, width: 100, height: 100)
        new.backgroundColor = .yellow
        let fade = Transition()
        fade.duration = 1
        fade.timingFunction = .linear
        new.actions[Layer.transition] = fade
        holder.replaceSublayer(old, with: new)
        Transaction.flush()
        let mid = r.render(atTime: 100.5).rgba8(x: 50, y: 50)
        #expect(near(mid, (255, 255, 0, 255), 2) == false)          // not yet all yellow
        #expect(mid.g == 255 && abs(Int(mid.r) - 128) <= 2)         // green fading into yellow
    }
}

/// Shadows, mask layers and polygon fills.
@MainActor
@Suite("Shadows and masks", .serialized, .isolatedLayerContext)
struct ShadowAndMaskTests {
    @Test("a shadow falls off smoothly and symmetrically, offset by shadowOffset, under the layer")
    func shadowFalloff() {
        let (r, root, _) = makeRenderer(width: 120, height: 120)
        let l = box(Rect(x: 40, y: 40, width: 40, height: 40), .white, in: root)
        Transaction.withoutActions {
            l.shadowOpacity = 1
            l.shadowRadius = 8
            l.shadowOffset = Size(width: 0, height: 10)
            l.shadowColor = .black
        }
        let img = r.render()
        #expect(near(img.rgba8(x: 60, y: 60), (255, 255, 255, 255), 0))     // the layer covers its shadow
        // Below the layer (the offset side) the shadow fades with distance…
        let column = (82...96).map { Int(img.rgba8(x: 60, y: $0).a) }
        #expect(zip(column, column.dropFirst()).allSatisfy { $0 >= $1 }, "\(column)")
        #expect(column.first! > 100 && column.last! < column.first! / 3)
        // …the same on the left and the right…
        for y in [70, 85] {
            for d in 1...10 { #expect(abs(Int(img.rgba8(x: 39 - d + 1, y: y).a) - Int(img.rgba8(x: 80 + d - 1, y: y).a)) <= 2) }
        }
        // …and above the layer less of it reaches than below.
        #expect(img.rgba8(x: 60, y: 37).a < img.rgba8(x: 60, y: 84).a)
    }

    @Test("shadowPath shapes the shadow; masksToBounds clips it away")
    func shadowPathAndClip() {
        let (r, root, _) = makeRenderer(width: 120, height: 120)
        let l = box(Rect(x: 10, y: 10, width: 40, height: 40), nil, in: root)
        let triangle = Path()
        triangle.move(to: Point(x: 0, y: 0))
        triangle.addLine(to: Point(x: 80, y: 0))
        triangle.addLine(to: Point(x: 0, y: 80))
        triangle.closeSubpath()
        Transaction.withoutActions {
            l.shadowOpacity = 1
            l.shadowRadius = 0
            l.shadowOffset = .zero
            l.shadowPath = triangle
        }
        let img = r.render()
        #expect(img.rgba8(x: 20, y: 20).a == 255 && img.rgba8(x: 70, y: 15).a == 255)   // inside the triangle
        #expect(img.rgba8(x: 60, y: 60).a == 0)                                          // beyond its diagonal
        Transaction.withoutActions { l.masksToBounds = true }
        #expect(r.render().pixels.allSatisfy { $0 == 0 })
    }

    @Test("rule R3: a mask layer clips by its alpha")
    func maskLayer() {
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        let l = box(Rect(x: 0, y: 0, width: 100, height: 100), .blue, in: root)
        let m = Layer()
        Transaction.withoutActions {
            m.frame = Rect(x: 50, y: 0, width: 50, height: 100)
            m.backgroundColor = Color(white: 0, alpha: 0.5)
            l.mask = m
        }
        let img = r.render()
        #expect(img.rgba8(x: 25, y: 50).a == 0)                        // outside the mask
        #expect(abs(Int(img.rgba8(x: 75, y: 50).a) - 128) <= 1)        // half the mask's alpha
        #expect(img.rgba8(x: 75, y: 50).b == 255)
    }

    @Test("polygons fill by non-zero or even-odd winding")
    func polygonWinding() {
        let outer = [Point(x: 0, y: 0), Point(x: 40, y: 0), Point(x: 40, y: 40), Point(x: 0, y: 40)]
        let inner = [Point(x: 10, y: 10), Point(x: 30, y: 10), Point(x: 30, y: 30), Point(x: 10, y: 30)]
        func coverage(evenOdd: Bool) -> RenderedImage {
            let canvas = Canvas(width: 40, height: 40)
            var white = pixmanColor(.white)
            let solid = pixman_image_create_solid_fill(&white)!
            PolygonFill.composite(PolygonFill.trapezoids([outer, inner], evenOdd: evenOdd), source: solid, onto: canvas.image)
            pixman_image_unref(solid)
            return RenderedImage(width: 40, height: 40, pixels: canvas.words)
        }
        let nonZero = coverage(evenOdd: false), evenOdd = coverage(evenOdd: true)
        #expect(nonZero.rgba8(x: 20, y: 20).a == 255 && nonZero.rgba8(x: 5, y: 5).a == 255)   // same direction: no hole
        #expect(evenOdd.rgba8(x: 20, y: 20).a == 0 && evenOdd.rgba8(x: 5, y: 5).a == 255)     // even-odd: a hole
    }
}

/// ShapeLayer fills and strokes.
@MainActor
@Suite("Shape layers", .serialized, .isolatedLayerContext)
struct ShapeLayerTests {
    func shape(_ configure: (ShapeLayer) -> Void) -> RenderedImage {
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        let s = ShapeLayer()
        Transaction.withoutActions {
            s.frame = Rect(x: 0, y: 0, width: 100, height: 100)
            configure(s)
            root.addSublayer(s)
        }
        return r.render()
    }

    @Test("paths fill by their fill rule; the default fill is opaque black")
    func fills() {
        let ring = Path(rect: Rect(x: 10, y: 10, width: 80, height: 80))
        ring.append(Path(rect: Rect(x: 30, y: 30, width: 40, height: 40)))   // same direction
        let nonZero = shape { $0.path = ring }
        #expect(near(nonZero.rgba8(x: 50, y: 50), (0, 0, 0, 255), 0) && nonZero.rgba8(x: 5, y: 5).a == 0)
        let evenOdd = shape { $0.path = ring; $0.fillRule = .evenOdd; $0.fillColor = .green }
        #expect(evenOdd.rgba8(x: 50, y: 50).a == 0 && near(evenOdd.rgba8(x: 20, y: 20), (0, 255, 0, 255), 0))
    }

    @Test("a self-intersecting star: even-odd leaves the centre empty, non-zero fills it")
    func selfIntersecting() {
        let star = starPath(center: Point(x: 50, y: 52), radius: 45)
        let evenOdd = shape { $0.path = star; $0.fillRule = .evenOdd }
        let nonZero = shape { $0.path = star }
        #expect(evenOdd.rgba8(x: 50, y: 55).a == 0 && nonZero.rgba8(x: 50, y: 55).a == 255)
        #expect(evenOdd.rgba8(x: 50, y: 15).a == 255 && nonZero.rgba8(x: 50, y: 15).a == 255)   // the top point
        #expect(evenOdd.rgba8(x: 50, y: 2).a == 0)
    }

    @Test("strokes have the line width, caps and joins; strokeEnd trims them")
    func strokes() {
        let line = Path()
        line.move(to: Point(x: 20, y: 50))
        line.addLine(to: Point(x: 80, y: 50))
        let butt = shape { $0.path = line; $0.fillColor = nil; $0.strokeColor = .red; $0.lineWidth = 10 }
        #expect(butt.rgba8(x: 50, y: 45).a == 255 && butt.rgba8(x: 50, y: 54).a == 255 && butt.rgba8(x: 50, y: 56).a == 0)
        #expect(butt.rgba8(x: 18, y: 50).a == 0)                       // butt: ends at the end point
        let square = shape { $0.path = line; $0.fillColor = nil; $0.strokeColor = .red; $0.lineWidth = 10; $0.lineCap = .square }
        #expect(square.rgba8(x: 17, y: 50).a == 255 && square.rgba8(x: 14, y: 50).a == 0)
        let half = shape { $0.path = line; $0.fillColor = nil; $0.strokeColor = .red; $0.lineWidth = 10; $0.strokeEnd = 0.5 }
        #expect(half.rgba8(x: 45, y: 50).a == 255 && half.rgba8(x: 55, y: 50).a == 0)
        let corner = Path()
        corner.move(to: Point(x: 20, y: 80))
        corner.addLine(to: Point(x: 50, y: 20))
        corner.addLine(to: Point(x: 80, y: 80))
        let miter = shape { $0.path = corner; $0.fillColor = nil; $0.strokeColor = .blue; $0.lineWidth = 8 }
        let bevel = shape { $0.path = corner; $0.fillColor = nil; $0.strokeColor = .blue; $0.lineWidth = 8; $0.lineJoin = .bevel }
        // The miter's tip reaches above the corner; a bevel cuts it off.
        #expect(miter.rgba8(x: 50, y: 13).a > 200 && bevel.rgba8(x: 50, y: 13).a == 0)
    }
}

/// Damage tracking: what a frame repaints, and that repainting only that is exact.
@MainActor
@Suite("Damage tracking", .serialized, .isolatedLayerContext)
struct DamageTests {
    func area(_ rects: [Rect]) -> Double { rects.reduce(0) { $0 + $1.width * $1.height } }

    @Test("a moved layer damages its old and new place; an unchanged frame repaints nothing")
    func movingLayer() {
        let (r, root, _) = makeRenderer(width: 200, height: 200)
        _ = box(Rect(x: 100, y: 100, width: 50, height: 50), .blue, in: root)
        let l = box(Rect(x: 10, y: 10, width: 20, height: 20), .red, in: root)
        _ = r.render()
        #expect(area(r.lastDamage) == 200 * 200)   // the first frame is whole
        _ = r.render()
        #expect(r.lastDamage.isEmpty)
        Transaction.withoutActions { l.position = Point(x: 60, y: 20) }
        _ = r.render()
        // Old place (9…31) and new place (49…71), a pixel of slack around each.
        let expected = [Rect(x: 9, y: 9, width: 22, height: 22), Rect(x: 49, y: 9, width: 22, height: 22)]
        #expect(Set(r.lastDamage) == Set(expected))
    }

    @Test("resizing, fading, hiding and reparenting damage what they should")
    func otherChanges() {
        let (r, root, _) = makeRenderer(width: 200, height: 200)
        let a = box(Rect(x: 10, y: 10, width: 20, height: 20), .red, in: root)
        let holder = box(Rect(x: 100, y: 100, width: 80, height: 80), nil, in: root)
        _ = r.render()
        Transaction.withoutActions { a.bounds.size = Size(width: 40, height: 20) }   // grows about its centre
        _ = r.render()
        // Old 9…31 and new −1…41 (clipped to the image at 0), with a pixel of slack.
        #expect(Rect.boundingBox(of: r.lastDamage.flatMap(\.corners)) == Rect(x: 0, y: 9, width: 41, height: 22))
        Transaction.withoutActions { a.opacity = 0.5 }
        _ = r.render()
        #expect(Set(r.lastDamage) == [Rect(x: 0, y: 9, width: 41, height: 22)])   // in place: the same rectangle
        Transaction.withoutActions { a.isHidden = true }
        _ = r.render()
        #expect(!r.lastDamage.isEmpty)
        Transaction.withoutActions { a.isHidden = false; holder.addSublayer(a) }
        _ = r.render()
        #expect(r.lastDamage.contains { $0.contains(Point(x: 120, y: 120)) })   // its new place inside the holder
    }

    @Test("a frame looks only at what changed: unchanged subtrees are passed over")
    func incrementalDamage() {
        let (r, root, _) = makeRenderer(width: 160, height: 120)
        var cards: [Layer] = []
        for i in 0..<200 {
            let card = box(Rect(x: Double(i % 20) * 8, y: Double(i / 20) * 12, width: 7, height: 10), .blue, in: root)
            _ = box(Rect(x: 1, y: 1, width: 3, height: 3), .white, in: card)
            cards.append(card)
        }
        _ = r.render()
        #expect(r.renderer.damage.visited == 401)
        _ = r.render()
        #expect(r.renderer.damage.visited == 0, "nothing changed: nothing looked at")
        Transaction.withoutActions { cards[57].sublayers[0].backgroundColor = .red }
        let image = r.render()
        #expect(r.renderer.damage.visited == 3, "the root, the card and its changed sublayer")
        let same = image == fresh(root)
        #expect(same)
        #expect(Set(r.lastDamage) == [Rect(x: 136, y: 24, width: 5, height: 5)])
    }

    @Test("a layer put where a gone one was, made the same way, draws its own colour")
    func replacedLayers() {
        let (r, root, _) = makeRenderer(width: 60, height: 60)
        // An empty container: its own change damages nothing, so only the new layer's record can.
        let container = box(Rect(x: 0, y: 0, width: 0, height: 0), nil, in: root)
        var current = box(Rect(x: 10, y: 10, width: 40, height: 40), .red, in: container)
        _ = r.render()
        for k in 0..<40 {
            Transaction.withoutActions { current.removeFromSuperlayer() }   // no `sublayers` transition
            // Freed and made again: the allocator may well hand out a gone layer's address.
            current = box(Rect(x: 10, y: 10, width: 40, height: 40), k % 2 == 0 ? .blue : .red, in: container)
            let image = r.render()
            #expect(image.rgba8(x: 30, y: 30).b == (k % 2 == 0 ? 255 : 0), "replacement \(k)")
        }
    }

    @Test("a mask changing on its own, moves between superlayers, hidden subtrees, sublayers of a turned plane: damage follows")
    func structuralDamage() {
        let (r, root, _) = makeRenderer(width: 160, height: 120)
        let left = box(Rect(x: 0, y: 0, width: 80, height: 120), nil, in: root)
        let right = box(Rect(x: 80, y: 0, width: 80, height: 120), nil, in: root)
        let masked = box(Rect(x: 10, y: 10, width: 50, height: 50), .green, in: left)
        let mask = Layer()
        let mover = box(Rect(x: 10, y: 80, width: 20, height: 20), .red, in: left)
        Transaction.withoutActions {
            mask.frame = Rect(x: 0, y: 0, width: 20, height: 20)
            mask.backgroundColor = .black
            masked.mask = mask
        }
        _ = r.render()
        func check(_ what: String) {
            let image = r.render()
            #expect(!r.lastDamage.isEmpty, "\(what): something was repainted")
            let same = image == fresh(root)
            #expect(same, "\(what): the damaged frame equals a full repaint")
        }
        Transaction.withoutActions { mask.position = Point(x: 40, y: 40) }
        check("the mask moved")
        Transaction.withoutActions { mask.backgroundColor = Color(white: 0, alpha: 0.3) }
        check("the mask faded")
        Transaction.withoutActions { right.addSublayer(mover) }
        check("moved to another superlayer")
        Transaction.withoutActions { right.isHidden = true }
        check("its new superlayer hidden")
        Transaction.withoutActions { right.isHidden = false }
        check("shown again")
        Transaction.withoutActions { mover.removeFromSuperlayer() }
        check("removed")
        // A sublayer of a layer in perspective lands where the warp puts it.
        let stage = box(Rect(x: 0, y: 0, width: 160, height: 120), nil, in: root)
        let turned = box(Rect(x: 40, y: 20, width: 80, height: 80), .white, in: stage)
        let spot = box(Rect(x: 50, y: 10, width: 20, height: 20), .blue, in: turned)
        Transaction.withoutActions {
            var perspective = Transform3D.identity
            perspective.m34 = -1.0 / 200
            stage.sublayerTransform = perspective
            turned.transform = Transform3D(rotationAngle: 0.9, x: 0, y: 1, z: 0)
        }
        check("a turned plane")
        Transaction.withoutActions { spot.position = Point(x: 20, y: 60) }
        check("a sublayer moved within the turned plane")
        Transaction.withoutActions { spot.backgroundColor = .red }
        check("and recoloured")
        let hidden = box(Rect(x: 0, y: 0, width: 10, height: 10), nil, in: root)
        Transaction.withoutActions { hidden.isHidden = true; left.addSublayer(mover) }
        check("put back")
        Transaction.withoutActions { hidden.addSublayer(mover) }
        check("moved into a hidden superlayer")
    }

    @Test("render() shares its pixels with the image it returns: held images never change, released ones are drawn over in place")
    func copyOnWriteImages() {
        let (r, root, _) = makeRenderer(width: 160, height: 120)
        let mover = box(Rect(x: 0, y: 0, width: 20, height: 20), .red, in: root)
        let first = r.render()
        Transaction.withoutActions { mover.position = Point(x: 80, y: 60) }
        let second = r.render()
        // The first image still shows the first frame: the renderer copied before drawing.
        #expect(first.rgba8(x: 10, y: 10) == (255, 0, 0, 255) && first.rgba8(x: 80, y: 60) == (0, 0, 0, 0))
        #expect(second.rgba8(x: 10, y: 10) == (0, 0, 0, 0) && second.rgba8(x: 80, y: 60) == (255, 0, 0, 255))
        #expect(second == fresh(root))
        func address(_ image: RenderedImage) -> Int { image.pixels.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }
        // Frames whose images are let go reuse one buffer.
        var addresses: Set<Int> = []
        for x in stride(from: 0.0, to: 100, by: 10) {
            Transaction.withoutActions { mover.position = Point(x: x, y: 30) }
            addresses.insert(address(r.render()))
        }
        #expect(addresses.count == 1)
        #expect(address(first) != address(second))
    }

    @Test("a transition draws sublayers where its states put them, even outside the area the damage pass saw them in")
    func transitionMovesSublayersIntoView() {
        for subtype in [TransitionSubtype.fromLeft, .fromRight] {
            let (r, root, clock) = makeRenderer(width: 160, height: 120)
            let holder = box(Rect(x: 0, y: 0, width: 160, height: 120), nil, in: root)
            // Outside the view, except while a push brings the new state in from a side.
            _ = box(Rect(x: 170, y: 40, width: 40, height: 40), .red, in: holder)
            _ = box(Rect(x: -210, y: 40, width: 40, height: 40), .blue, in: holder)
            _ = r.render()
            let push = Transition()
            push.type = .push
            push.subtype = subtype
            push.duration = 1
            push.timingFunction = MediaTimingFunction(name: .linear)
            holder.add(push, forKey: "transition")
            Transaction.flush()
            clock.advance(by: 0.5)
            let image = r.render()
            let full = fresh(root)
            #expect(full.rgba8(x: 110, y: 60).a == 255 || full.rgba8(x: 50, y: 60).a == 255, "\(subtype): a square is in view")
            let differing = zip(image.pixels, full.pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(subtype)")
        }
    }

    @Test("a transition's old state that names a layer now above it (the root moved under its old sublayer) is drawn once, not round the loop")
    func transitionLoop() {
        let (r, root, clock) = makeRenderer(width: 160, height: 120)
        let old = box(Rect(x: 10, y: 10, width: 40, height: 40), .red, in: root)
        Transaction.flush()
        root.addSublayer(Layer())   // with actions: a `sublayers` fade whose old state holds `old`
        Transaction.flush()
        clock.advance(by: 0.1)
        #expect(root.animationKeys.contains("transition"))
        Transaction.withoutActions {
            old.removeFromSuperlayer()
            old.addSublayer(root)     // the rendered root, now under the layer its old state draws
        }
        _ = r.render()
        func count(_ items: [DisplayItem]) -> Int {
            items.reduce(0) { n, item in
                switch item {
                case .group(let g): n + 1 + count(g.items)
                case .shadow(let s): n + 1 + count(s.source)
                case .plane(let p): n + 1 + count(p.items)
                default: n + 1
                }
            }
        }
        #expect(count(r.renderer.lastItems) < 20, "\(count(r.renderer.lastItems)) items")
    }

    @Test("a shape reaching to −10³⁰⁸ is not culled by bounds that lost their far edge to rounding (found by the fuzzer)")
    func boundsBeyondPrecision() {
        let (r, root, _) = makeRenderer(width: 160, height: 120)
        let shape = ShapeLayer()
        let path = Path()
        path.move(to: .zero)
        path.addLine(to: Point(x: 100, y: 80))
        path.addLine(to: Point(x: -Double.greatestFiniteMagnitude, y: 40))
        Transaction.withoutActions {
            shape.path = path
            shape.fillColor = .red
            shape.frame = Rect(x: 20, y: 20, width: 10, height: 10)
            root.addSublayer(shape)
        }
        _ = r.render()
        r.renderer.repaintEverything()   // the next frame repaints through the damage pass's culling
        let again = r.render()
        #expect(again.rgba8(x: 70, y: 80).r == 255, "the part right of x = 0 is drawn")
        #expect(again == fresh(root))
    }

    @Test("a layer gone from the tree that a running transition still shows is repainted when it changes (found by the fuzzer)")
    func transitionShowsLayerOutsideTree() {
        let (r, root, _) = makeRenderer(width: 160, height: 120)
        let leaving = Layer()
        Transaction.withoutActions {
            leaving.frame = Rect(x: 10, y: 10, width: 40, height: 40)
            leaving.backgroundColor = .red
        }
        _ = r.render()
        root.addSublayer(leaving)         // with actions: the root fades between its states
        leaving.removeFromSuperlayer()    // the old state still has it
        Transaction.flush()
        _ = r.render()
        Transaction.withoutActions { leaving.position = Point(x: 100, y: 70) }   // outside the tree: no version above it changes
        let image = r.render()
        #expect(image == fresh(root))
    }

    @Test("a shadow under a squashing transform spreads as far sideways as it is drawn, and its damage covers that (found by the fuzzer)")
    func anisotropicShadowDamage() {
        let (r, root, _) = makeRenderer(width: 160, height: 120)
        let squashed = box(Rect(x: 40, y: 40, width: 40, height: 10), .red, in: root)
        Transaction.withoutActions {
            squashed.transform = Transform3D(scaleX: 1, y: 6, z: 1)   // the blur's σ follows the longer axis
            squashed.shadowOpacity = 1
            squashed.shadowRadius = 4
        }
        _ = r.render()
        Transaction.withoutActions { squashed.position = Point(x: 100, y: 60) }
        let moved = r.render()
        let differing = zip(moved.pixels, fresh(root).pixels).filter { $0 != $1 }.count
        #expect(differing == 0)
    }

    @Test("a mask whose sublayer animates changes the clip every frame: the masked layer is repainted (found by the fuzzer)")
    func maskSublayerAnimates() {
        let (r, root, clock) = makeRenderer(width: 160, height: 120)
        let masked = box(Rect(x: 0, y: 0, width: 160, height: 120), .red, in: root)
        let mask = Layer()
        let window = Layer()
        Transaction.withoutActions {
            mask.frame = Rect(x: 0, y: 0, width: 160, height: 120)
            window.frame = Rect(x: 0, y: 40, width: 40, height: 40)
            window.backgroundColor = .black
            mask.addSublayer(window)   // the mask itself draws nothing: only its sublayer clips
            masked.mask = mask
        }
        _ = r.render()
        let slide = BasicAnimation(keyPath: "position.x")
        slide.fromValue = 20.0
        slide.toValue = 140.0
        slide.duration = 1
        window.add(slide, forKey: "slide")
        Transaction.flush()
        for step in 1...4 {
            clock.advance(by: 0.2)
            let frame = r.render()
            #expect(frame == fresh(root), "frame \(step)")
        }
    }

    @Test("a shadow cast by sublayers: they are drawn into it even outside the repainted area, and their moves damage it")
    func sublayerShadowDamage() {
        let (r, root, _) = makeRenderer(width: 160, height: 120)
        let holder = box(Rect(x: 10, y: 10, width: 40, height: 40), .white, in: root)
        // Outside the view, but its shadow reaches up into it.
        let below = box(Rect(x: 0, y: 112, width: 30, height: 20), .blue, in: holder)
        let beside = box(Rect(x: 60, y: 0, width: 20, height: 20), .green, in: holder)
        let strip = box(Rect(x: 0, y: 100, width: 160, height: 10), Color(white: 1, alpha: 0.5), in: root)
        Transaction.withoutActions {
            holder.shadowOpacity = 1
            holder.shadowRadius = 6
            holder.shadowOffset = Size(width: 0, height: -8)
        }
        _ = r.render()
        func check(_ what: String) {
            let image = r.render()
            let differing = zip(image.pixels, fresh(root).pixels).filter { $0 != $1 }.count
            #expect(differing == 0, "\(what)")
        }
        #expect(fresh(root).rgba8(x: 20, y: 116).a > 100, "the sublayer below the view casts into it")
        // Only the strip is damaged; the shadow under it is still cast by `below`.
        Transaction.withoutActions { strip.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 0.5) }
        check("a layer over the shadow recoloured")
        Transaction.withoutActions { beside.position = Point(x: 95, y: 60) }
        check("a sublayer moved: its shadow moved with it")
        Transaction.withoutActions { below.position = Point(x: 40, y: 124) }
        check("the one below the view moved")
    }

    @Test("frames repainted from damage equal full repaints (random trees, random changes)")
    func damageEqualsFullRepaint() {
        var rng = SeededRandom(seed: 42)
        let (r, root, clock) = makeRenderer(width: 160, height: 120)
        var layers: [Layer] = [root]
        for _ in 0..<25 {
            let parent = layers[rng.int(layers.count)]
            let l = box(Rect(x: rng.double(-20, 140), y: rng.double(-20, 100), width: rng.double(2, 60), height: rng.double(2, 60)),
                        Color(red: rng.double(0, 1), green: rng.double(0, 1), blue: rng.double(0, 1), alpha: rng.double(0.3, 1)), in: parent)
            Transaction.withoutActions {
                l.cornerRadius = rng.double(0, 12)
                if rng.int(3) == 0 { l.borderWidth = 2; l.borderColor = .white }
                if rng.int(4) == 0 { l.opacity = 0.6 }
                if rng.int(5) == 0 { l.masksToBounds = true }
            }
            layers.append(l)
        }
        _ = r.render()
        for step in 0..<120 {
            let l = layers[1 + rng.int(layers.count - 1)]
            let other = layers[rng.int(layers.count)]
            Transaction.withoutActions {
                switch rng.int(13) {
                case 0: l.position = Point(x: rng.double(0, 160), y: rng.double(0, 120))
                case 1: l.opacity = rng.double(0.2, 1)
                case 2: l.isHidden.toggle()
                case 3: l.backgroundColor = Color(red: rng.double(0, 1), green: 0.5, blue: 0.5)
                case 4: l.transform = Transform3D(rotationAngle: rng.double(-1, 1), x: 0, y: 0, z: 1)
                case 5: l.zPosition = rng.double(-1, 1)
                case 6: l.removeFromSuperlayer()
                case 7: if !other.isDescendant(of: l) { other.addSublayer(l) }   // reparent (or put back)
                case 8:
                    let m = Layer()
                    m.frame = Rect(x: rng.double(-10, 20), y: rng.double(-10, 20), width: rng.double(5, 40), height: rng.double(5, 40))
                    m.backgroundColor = Color(white: 0, alpha: rng.double(0.2, 1))
                    l.mask = rng.int(3) == 0 ? nil : m
                case 9: l.mask?.position = Point(x: rng.double(0, 30), y: rng.double(0, 30))   // a mask changes on its own
                case 10: l.sublayerTransform = Transform3D(scaleX: rng.double(0.5, 1.5), y: 1, z: 1)
                case 11: if !other.isDescendant(of: l) { other.insertSublayer(l, at: 0) }
                default:
                    let fade = BasicAnimation(keyPath: "opacity")
                    fade.fromValue = 0.2
                    fade.toValue = 1.0
                    fade.duration = 0.5
                    l.add(fade, forKey: "fade")
                }
            }
            if step % 7 == 0 { clock.advance(by: 0.1) }
            let damaged = r.render()
            let fresh = OffscreenRenderer(width: 160, height: 120)
            fresh.rootLayer = root
            let full = fresh.render()
            fresh.rootLayer = nil
            let same = damaged == full
            #expect(same, "step \(step) differs by \(damaged.maximumDifference(from: full) ?? -1)")
        }
    }
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed &* 0x9E3779B97F4A7C15 | 1 }
    mutating func next() -> UInt64 {
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return state
    }
    mutating func int(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
    mutating func double(_ a: Double, _ b: Double) -> Double { a + (b - a) * Double(next() % 1_000_000) / 1_000_000 }
}

/// Perspective and back faces (rule R1 with 3D transforms).
@MainActor
@Suite("Perspective", .serialized, .isolatedLayerContext)
struct PerspectiveTests {
    /// A 100×100 white layer in the middle of a 200×200 image, its parent giving perspective.
    func scene(turn: Double, doubleSided: Bool = true) -> RenderedImage {
        let (r, root, _) = makeRenderer(width: 200, height: 200)
        // The perspective's vanishing point is the container's anchor point: its centre.
        let container = box(Rect(x: 0, y: 0, width: 200, height: 200), nil, in: root)
        let l = box(Rect(x: 50, y: 50, width: 100, height: 100), .white, in: container)
        Transaction.withoutActions {
            var perspective = Transform3D.identity
            perspective.m34 = -1.0 / 300
            container.sublayerTransform = perspective
            l.transform = Transform3D(rotationAngle: turn, x: 0, y: 1, z: 0)
            l.isDoubleSided = doubleSided
        }
        return r.render()
    }

    @Test("corners land where the projection puts them")
    func projectedCorners() {
        let img = scene(turn: 0.6)
        // Independently: the corner (x, y) of the layer, about its centre (100, 100), through the turn and m34.
        func projected(_ x: Double, _ y: Double) -> Point {
            let (cx, cy) = (x - 50, y - 50)
            let c = cos(0.6), s = sin(0.6)
            let X = cx * c, Z = -cx * s            // turned about y (row-vector convention: z = x·m13)
            let w = 1 - Z / 300
            return Point(x: 100 + X / w, y: 100 + cy / w)
        }
        for (x, y) in [(0.0, 0.0), (100.0, 0.0), (0.0, 100.0), (100.0, 100.0)] {
            let p = projected(x, y)
            // Just inside the corner (towards the centre) is white; just outside is empty.
            let inX = p.x + (p.x < 100 ? 2 : -2), inY = p.y + (p.y < 100 ? 2 : -2)
            let outX = p.x + (p.x < 100 ? -2 : 2), outY = p.y + (p.y < 100 ? -2 : 2)
            #expect(img.rgba8(x: Int(inX), y: Int(inY)).a > 200, "inside \(p)")
            #expect(img.rgba8(x: Int(outX), y: Int(outY)).a < 60, "outside \(p)")
        }
        // Perspective, measured in the picture: the side nearer the eye is taller than
        // the far side, by what the projection says (±2 pixels of edge coverage).
        let left = projected(0, 0), right = projected(100, 0)
        func heightDrawn(atX x: Double) -> Int { (0..<200).filter { img.rgba8(x: Int(x), y: $0).a > 127 }.count }
        let leftHeight = heightDrawn(atX: left.x + 3), rightHeight = heightDrawn(atX: right.x - 3)
        let nearIsLeft = abs(left.y - 100) > abs(right.y - 100)
        #expect(nearIsLeft ? leftHeight > rightHeight + 10 : rightHeight > leftHeight + 10, "\(leftHeight) vs \(rightHeight)")
        #expect(abs(Double(max(leftHeight, rightHeight)) - 2 * max(abs(left.y - 100), abs(right.y - 100))) <= 4)
    }

    @Test("a back-facing layer shows only when double-sided")
    func backFaces() {
        let front = scene(turn: 0), back = scene(turn: .pi), hidden = scene(turn: .pi, doubleSided: false)
        #expect(front.rgba8(x: 100, y: 100).a == 255 && back.rgba8(x: 100, y: 100).a == 255)
        #expect(hidden.pixels.allSatisfy { $0 == 0 })
    }

    @Test("a layer reaching behind the eye is skipped, not drawn wrongly or crashing")
    func behindTheEye() {
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        let l = box(Rect(x: 0, y: 0, width: 100, height: 100), .red, in: root)
        Transaction.withoutActions {
            // Perspective with the eye 20 units away, turned almost edge-on: one side passes behind the eye.
            var t = Transform3D.identity
            t.m34 = -1.0 / 20
            l.transform = t.rotated(by: 1.4, x: 0, y: 1, z: 0)
        }
        let img = r.render()
        #expect(img.width == 100)
        #expect(img.pixels.allSatisfy { $0 == 0 })
    }
}

/// Layers that draw themselves: `setNeedsDisplay()`, `display()`, `draw(in:)`.
@MainActor
@Suite("Custom drawing", .serialized, .isolatedLayerContext)
struct CustomDrawingTests {
    final class Dial: Layer {
        var draws = 0
        override func draw(in context: any DrawingContext) {
            draws += 1
            context.fill(Path(ellipseIn: context.bounds), color: .green)
            context.saveState()
            context.clip(to: Rect(x: 0, y: 0, width: context.bounds.width / 2, height: context.bounds.height))
            context.fill(context.bounds, color: .red)          // only the left half
            context.restoreState()
            context.concatenate(AffineTransform(translationX: 30, y: 0))
            context.stroke(Path(rect: Rect(x: 5, y: 5, width: 10, height: 10)), color: .blue, lineWidth: 2)
        }
    }

    @Test("setNeedsDisplay makes a layer draw itself once into its contents, at contentsScale")
    func subclassDraws() throws {
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        let dial = Dial()
        Transaction.withoutActions {
            dial.frame = Rect(x: 0, y: 0, width: 60, height: 40)
            dial.contentsScale = 2
            root.addSublayer(dial)
        }
        dial.setNeedsDisplay()
        let img = r.render()
        #expect(dial.draws == 1)
        let contents = try #require(dial.contents)
        #expect(contents.width == 120 && contents.height == 80)
        #expect(near(img.rgba8(x: 10, y: 20), (255, 0, 0, 255), 0))        // the clipped red half
        #expect(near(img.rgba8(x: 50, y: 20), (0, 255, 0, 255), 1))        // the ellipse's right half
        #expect(near(img.rgba8(x: 35, y: 10), (0, 0, 255, 255), 1))        // the translated stroke
        _ = r.render()
        #expect(dial.draws == 1)                                            // not marked: not drawn again
        dial.setNeedsDisplay()
        _ = r.render()
        #expect(dial.draws == 2)
    }

    @Test("a delegate's draw(_:in:) draws; a delegate's display(_:) takes over")
    func delegateDrawing() {
        final class Painter: LayerDelegate {
            func draw(_ layer: Layer, in context: any DrawingContext) { context.fill(context.bounds, color: .yellow) }
        }
        final class Provider: LayerDelegate {
            func display(_ layer: Layer) { layer.contents = Image(width: 1, height: 1, color: .magenta) }
        }
        let (r, root, _) = makeRenderer(width: 40, height: 20)
        let painted = box(Rect(x: 0, y: 0, width: 20, height: 20), nil, in: root)
        let provided = box(Rect(x: 20, y: 0, width: 20, height: 20), nil, in: root)
        let painter = Painter(), provider = Provider()
        painted.delegate = painter
        provided.delegate = provider
        painted.setNeedsDisplay()
        provided.setNeedsDisplay()
        let img = r.render()
        #expect(near(img.rgba8(x: 10, y: 10), (255, 255, 0, 255), 0))
        #expect(near(img.rgba8(x: 30, y: 10), (255, 0, 255, 255), 0))
    }
}

/// Limits: caches stay bounded, deep nesting stays safe.
@MainActor
@Suite("Renderer limits", .serialized, .isolatedLayerContext)
struct RendererLimitTests {
    @Test("the contents cache stays within its byte limit, dropping the least recently used")
    func contentsCacheBound() throws {
        let cache = ContentsCache()
        cache.byteLimit = 3 * 100 * 100 * 4
        let images = (0..<6).map { Image(width: 100, height: 100, color: Color(white: Double($0) / 6)) }
        for image in images { #expect(cache.sharedImage(for: image) != nil) }
        #expect(cache.heldBytes <= cache.byteLimit)
        #expect(cache.heldBytes == 3 * 100 * 100 * 4)
    }

    @Test("thousands of nested masks render without crashing or hanging")
    func nestedMasks() {
        let (r, root, _) = makeRenderer(width: 50, height: 50)
        let top = box(Rect(x: 0, y: 0, width: 50, height: 50), .red, in: root)
        var current = top
        Transaction.withoutActions {
            for _ in 0..<2000 {
                let m = Layer()
                m.frame = Rect(x: 0, y: 0, width: 50, height: 50)
                m.backgroundColor = .black
                current.mask = m
                current = m
            }
        }
        let img = r.render()
        #expect(near(img.rgba8(x: 25, y: 25), (255, 0, 0, 255), 0))   // every mask is opaque: the layer shows
    }
}

/// Layers turned steeply in perspective either way are drawn solid: the
/// projective sampling keeps w positive where the layer is, whatever its sign at
/// the device origin (a layer at −72° about y used to come out a quarter bright).
@MainActor
@Suite("Perspective sampling", .isolatedLayerContext)
struct PerspectiveSamplingTests {
    @Test("rule R1: a layer turned ±72° about y in perspective is opaque where it covers")
    func steepTurnsBothWays() {
        for angle in [1.2566, -1.2566, 1.45, -1.45] {
            let (renderer, root, _) = makeRenderer(width: 200, height: 200)
            renderer.backgroundColor = .black
            let layer = box(Rect(x: 50, y: 50, width: 100, height: 100), .blue, in: root)
            var perspective = Transform3D.identity
            perspective.m34 = -1.0 / 200
            Transaction.withoutActions {
                layer.transform = Transform3D(rotationAngle: angle, x: 0, y: 1, z: 0).concatenating(perspective)
            }
            let pixel = renderer.render().rgba8(x: 100, y: 100)
            #expect(pixel.b == 255 && pixel.a == 255, "turned \(angle): \(pixel)")
        }
    }
}

@MainActor
@Suite("Offscreen renderer size", .isolatedLayerContext)
struct OffscreenSizeTests {
    @Test("a renderer asked for more than it supports says so and stays within its pixel budget")
    func hugeRenderer() {
        var seen: [LayerKitDiagnostic] = []
        Diagnostics.handler = { seen.append($0) }
        defer { Diagnostics.handler = nil }
        let r = OffscreenRenderer(width: 100_000, height: 100_000)
        #expect(r.width * r.height <= OffscreenRenderer.maximumPixels && r.width == r.height)
        let wide = OffscreenRenderer(width: 20_000, height: 10)
        #expect(wide.width == 16_384 && wide.height == 10)
        #expect(seen.count == 2)
        _ = OffscreenRenderer(width: 640, height: 480)
        #expect(seen.count == 2)
    }
}

extension PerspectiveTests {
    @Test("rule R1: a single-sided layer turned half a turn about y, without perspective, is not drawn")
    func backFaceWithoutPerspective() {
        for doubleSided in [true, false] {
            let (r, root, _) = makeRenderer(width: 100, height: 100)
            let l = box(Rect(x: 20, y: 20, width: 60, height: 60), .red, in: root)
            Transaction.withoutActions {
                l.transform = Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0)
                l.isDoubleSided = doubleSided
            }
            #expect(r.render().rgba8(x: 50, y: 50).a == (doubleSided ? 255 : 0))
        }
    }
}

@MainActor
@Suite("Huge shapes", .isolatedLayerContext)
struct HugeShapeTests {
    /// A 200×200 render of a filled circle of `radius` whose edge crosses the
    /// target's middle column: centred `radius − 100` to the left of it.
    func circle(radius: Double, stroked: Bool = false) -> RenderedImage {
        let (r, root, _) = makeRenderer(width: 200, height: 200)
        r.backgroundColor = .black
        let shape = ShapeLayer()
        Transaction.withoutActions {
            shape.frame = Rect(x: 0, y: 0, width: 200, height: 200)
            shape.path = Path(ellipseIn: Rect(x: 100 - 2 * radius, y: 100 - radius, width: 2 * radius, height: 2 * radius))
            if stroked {
                shape.fillColor = nil
                shape.strokeColor = .green
                shape.lineWidth = 20
            } else {
                shape.fillColor = .red
            }
            root.addSublayer(shape)
        }
        return r.render()
    }

    @Test("filled circles of radius 10⁴ to 10⁶ crossing the target are drawn where they cover it (they vanished past 2·10⁴)")
    func hugeFills() {
        for radius in [1e4, 3e4, 1e5, 1e6] {
            let img = circle(radius: radius)
            #expect(img.rgba8(x: 50, y: 100) == (255, 0, 0, 255), "radius \(radius): inside")
            #expect(img.rgba8(x: 150, y: 100) == (0, 0, 0, 255), "radius \(radius): outside")
        }
    }

    @Test("a huge stroked circle is drawn along its edge where it crosses the target")
    func hugeStroke() {
        let img = circle(radius: 5e4, stroked: true)
        #expect(img.rgba8(x: 100, y: 100).g == 255)      // on the edge (line width 20)
        #expect(img.rgba8(x: 40, y: 100).g == 0 && img.rgba8(x: 160, y: 100).g == 0)
    }

    @Test("circles of radius 10⁹ and 10¹² are flattened where they are seen: drawn exactly at their edge, at the cost of the visible part")
    func astronomicalCurves() {
        for radius in [1e9, 1e12] {
            let fill = circle(radius: radius)
            #expect(fill.rgba8(x: 50, y: 100) == (255, 0, 0, 255), "radius \(radius): inside")
            #expect(fill.rgba8(x: 150, y: 100) == (0, 0, 0, 255), "radius \(radius): outside")
            let stroke = circle(radius: radius, stroked: true)
            #expect(stroke.rgba8(x: 100, y: 100).g == 255, "radius \(radius): on the edge")
            #expect(stroke.rgba8(x: 40, y: 100).g == 0 && stroke.rgba8(x: 160, y: 100).g == 0)
        }
        // The work is what is seen: a 10¹² circle through the view flattens into a
        // few hundred points; one far from the view into its hull's few.
        let area = Rect(x: -2, y: -2, width: 204, height: 204)
        let through = Path(ellipseIn: Rect(x: 100 - 2e12, y: 100 - 1e12, width: 2e12, height: 2e12))
        #expect(VisibleFlattening.polylines(through, .identity, area: area, pad: 20).joined().count < 800)
        let away = Path(ellipseIn: Rect(x: 1e12, y: 1e12, width: 2e12, height: 2e12))
        #expect(VisibleFlattening.polylines(away, .identity, area: area, pad: 20).joined().count < 20)
    }

    @Test("a wide blur, made at a smaller size and enlarged, keeps a Gaussian's profile across an edge: half at the edge, 84% and 16% one sigma either side; the widest spreads over the image (a shadow in a 24× rasterized plane hung the fuzzer)")
    func wideBlurProfile() throws {
        // A 400×400 alpha image, opaque from x = 100 to 300 (all rows).
        let (w, h) = (400, 400)
        let source = try #require(pixman_image_create_bits(PIXMAN_a8, Int32(w), Int32(h), nil, 0))
        defer { pixman_image_unref(source) }
        var opaque = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0xffff)
        var band = pixman_rectangle16_t(x: 100, y: 0, width: 200, height: UInt16(h))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, source, &opaque, 1, &band)
        func alpha(_ image: OpaquePointer, x: Int, y: Int = 200) -> Double {
            let stride = Int(pixman_image_get_stride(image))
            let bytes = pixman_image_get_data(image)!.withMemoryRebound(to: UInt8.self, capacity: stride * h) { $0 }
            return Double(bytes[y * stride + x]) / 255
        }
        let sigma = 30.0
        #expect(sigma > ShadowBlur.wideSigma)
        let blurred = try #require(ShadowBlur.blurredAlpha(of: source, width: w, height: h, sigma: sigma))
        defer { pixman_image_unref(blurred) }
        for (x, expected) in [(100, 0.5), (130, 0.841), (70, 0.159), (200, 0.999), (10, 0.0)] {
            #expect(abs(alpha(blurred, x: x) - expected) < 0.02, "at x = \(x): \(alpha(blurred, x: x)), a Gaussian gives \(expected)")
        }
        #expect(abs(alpha(blurred, x: 100, y: 20) - alpha(blurred, x: 100, y: 380)) < 0.01, "the same down the edge")
        let widest = try #require(ShadowBlur.blurredAlpha(of: source, width: w, height: h, sigma: 1e7))
        defer { pixman_image_unref(widest) }
        #expect(alpha(widest, x: 200) > 0.4 && alpha(widest, x: 200) < 1, "spread, not lost: \(alpha(widest, x: 200))")
    }

    @Test("a shadow under a scale that overflows to ∞ is drawn at the widest blur, not a crash (found by the fuzzer)")
    func shadowUnderInfiniteScale() {
        #expect(ShadowBlur.reach(sigma: .infinity) == 200 && ShadowBlur.reach(sigma: .nan) == 0 && ShadowBlur.reach(sigma: 1) == 3)
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        let holder = box(Rect(x: 0, y: 0, width: 100, height: 100), nil, in: root)
        let shadowed = box(Rect(x: 0, y: 0, width: 1e-300, height: 1e-300), .red, in: holder)
        Transaction.withoutActions {
            holder.sublayerTransform = Transform3D(scaleX: 1e300, y: 1e300, z: 1)
            shadowed.transform = Transform3D(scaleX: 1e300, y: 1e300, z: 1)   // together past the largest double
            shadowed.shadowOpacity = 1
            shadowed.shadowRadius = 4
        }
        let image = r.render()
        #expect(image.width == 100)
    }

    @Test("a plane in perspective with bounds past a double's range, and a round-joined stroke as wide as the largest double, are no crash (found by the fuzzer)")
    func overflowingSizes() {
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        let plane = box(Rect(x: 0, y: 0, width: 50, height: 50), .red, in: root)
        let stroke = ShapeLayer()
        let path = Path()
        path.move(to: Point(x: 10, y: 10))
        path.addLine(to: Point(x: 50, y: 20))
        path.addLine(to: Point(x: 20, y: 60))
        Transaction.withoutActions {
            plane.bounds = Rect(x: 0, y: 0, width: .greatestFiniteMagnitude, height: 10)
            var perspective = Transform3D.identity
            perspective.m34 = -1.0 / 500
            plane.transform = perspective.rotated(by: 0.5, x: 0, y: 1, z: 0)
            stroke.path = path
            stroke.strokeColor = .blue
            stroke.lineJoin = .round
            stroke.lineCap = .round
            stroke.lineWidth = .greatestFiniteMagnitude
            root.addSublayer(stroke)
        }
        #expect(r.render().width == 100)
    }

    @Test("a polygon set whose edges all cross each other is swept in a bounded number of bands (the fuzzer's slow stroke)")
    func crossingScribble() {
        // 1,800 long edges through one square, all crossing: exact, that is a million bands.
        var rng = SeededRandom(seed: 7)
        let star = (0..<600).map { _ in [Point(x: rng.double(0, 200), y: 0), Point(x: rng.double(0, 200), y: 200), Point(x: rng.double(0, 200), y: 100)] }
        let traps = PolygonFill.trapezoids(star, evenOdd: false)
        let bands = Set(traps.map(\.top)).count
        #expect(bands > 100 && bands <= PolygonFill.budget / 1_800 + 2, "\(bands) bands")
        // A few edges stay exact: a square is one trapezoid.
        let square = PolygonFill.trapezoids([[Point(x: 1, y: 1), Point(x: 9, y: 1), Point(x: 9, y: 9), Point(x: 1, y: 9)]], evenOdd: false)
        #expect(square.count == 1)
    }

    @Test("a curve through the largest doubles, or made infinite by its transform, is flattened in bounded work (the fuzzer's hang)")
    func overflowingCurves() {
        let area = Rect(x: -2, y: -2, width: 204, height: 204)
        let huge = Double.greatestFiniteMagnitude
        let path = Path()
        path.move(to: Point(x: 10, y: 10))
        path.addCurve(to: Point(x: 100, y: 100), control1: Point(x: huge, y: -huge), control2: Point(x: -huge, y: huge))
        path.addQuadCurve(to: Point(x: 50, y: 150), control: Point(x: huge, y: 50))
        for m in [AffineTransform.identity, AffineTransform(scaleX: 4, y: 4)] {   // ×4: the control points overflow to ∞
            let points = VisibleFlattening.polylines(path, m, area: area, pad: 2).joined()
            #expect(points.count <= 2 * VisibleFlattening.maximumPoints)
        }
    }

    @Test("a border on a layer of bounds 10⁹ is drawn where its edge is in view")
    func hugeBorder() {
        let r = OffscreenRenderer(width: 200, height: 200)
        let root = Layer()
        let big = Layer()
        Transaction.withoutActions {
            root.frame = Rect(x: 0, y: 0, width: 200, height: 200)
            big.anchorPoint = .zero
            big.bounds = Rect(x: 0, y: 0, width: 1e9, height: 1e9)
            big.position = Point(x: 50, y: -5e8)
            big.borderWidth = 10
            big.borderColor = .blue
            root.addSublayer(big)
        }
        r.rootLayer = root
        let img = r.render()
        #expect(img.rgba8(x: 55, y: 100) == (0, 0, 255, 255))   // the left edge, 10 wide
        #expect(img.rgba8(x: 45, y: 100).b == 0 && img.rgba8(x: 65, y: 100).b == 0)
    }

    @Test("corner segment counts stay bounded for infinite and NaN radii or scales (found by the fuzzer: a crash converting ∞ to Int)")
    func cornerSegmentsForHostileSizes() {
        #expect(ShapeRasterizer.segments(forRadius: .infinity, scale: 1) == 64)
        #expect(ShapeRasterizer.segments(forRadius: 10, scale: .infinity) == 64)
        #expect(ShapeRasterizer.segments(forRadius: .nan, scale: 1) == 1)
        #expect(ShapeRasterizer.segments(forRadius: 1e300, scale: 1e300) == 64)
    }
}
