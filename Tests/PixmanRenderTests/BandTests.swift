import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// Frames drawn in bands on several threads (issue 5, item 4): the bands split
/// the damage evenly, and the pixels never depend on how many there are.
@MainActor
@Suite("Parallel bands", .serialized, .isolatedLayerContext)
struct BandTests {
    /// Renders the same tree with one thread and in `bands` bands, and compares.
    func expectSameInBands(_ root: Layer, width: Int, height: Int, bands: Int = 6, time: Double = 100,
                           background: Color = .clear, _ what: String) {
        let one = OffscreenRenderer(width: width, height: height)
        one.maximumThreads = 1
        one.backgroundColor = background
        one.rootLayer = root
        let whole = one.render(atTime: time)
        one.rootLayer = nil
        #expect(one.renderer.lastBands == 1)
        let many = OffscreenRenderer(width: width, height: height)
        many.maximumThreads = bands
        many.renderer.minimumBandArea = 1
        many.backgroundColor = background
        many.rootLayer = root
        let banded = many.render(atTime: time)
        many.rootLayer = nil
        #expect(many.renderer.lastBands == bands)
        let same = banded == whole   // (not inside #expect: it would print every pixel)
        #expect(same, "\(what): bands differ from one pass by \(banded.maximumDifference(from: whole) ?? -1)")
    }

    @Test("bands are strips as wide as the damage, splitting its area evenly")
    func splitting() {
        let rects = [PixelBox(x0: 0, y0: 0, x1: 100, y1: 10), PixelBox(x0: 0, y0: 10, x1: 10, y1: 110),
                     PixelBox(x0: 50, y0: 50, x1: 60, y1: 60)]   // overlaps nothing: 1000 + 1000 + 100 pixels
        let bands = BandedPlayback.bands(of: rects, count: 2, minimumArea: 1)
        #expect(bands.count == 2)
        #expect(bands.first?.y0 == 0 && bands.last?.y1 == 110)
        #expect(bands[0].y1 == bands[1].y0)
        #expect(bands.allSatisfy { $0.x0 == 0 && $0.x1 == 100 })
        let areas = bands.map { band in BandedPlayback.exactArea(rects.map { $0.intersection(band) }.filter { !$0.isEmpty }) }
        #expect(areas.reduce(0, +) == 2100)
        #expect(abs(areas[0] - areas[1]) <= 100, "areas \(areas)")
        // Small damage is not worth a thread; one band never exceeds the rows.
        #expect(BandedPlayback.bands(of: rects, count: 8, minimumArea: 96 * 1024).count == 1)
        #expect(BandedPlayback.bands(of: [PixelBox(x0: 0, y0: 0, x1: 1000, y1: 3)], count: 8, minimumArea: 1).count == 3)
        let renderer = LayerRenderer()
        renderer.maximumThreads = -3
        #expect(renderer.maximumThreads == 1, "no threads at all means one")
    }

    @Test("cards, shadows, clips, masks, shapes and perspective come out the same in bands")
    func effectsInBands() {
        for (name, scene) in [("cards", GoldenImageTests.cardsScene(in:)), ("effects", GoldenImageTests.effectsScene(in:))] {
            for bands in [2, 5, 16] {
                let (_, root, _) = makeRenderer(width: 240, height: 160)
                scene(root)
                expectSameInBands(root, width: 240, height: 160, bands: bands, background: Color(white: 0.9), "\(name) in \(bands)")
            }
        }
    }

    @Test("contents, transitions and a big blurred shadow come out the same in bands")
    func imagesAndTransitionsInBands() {
        let (_, root, clock) = makeRenderer(width: 200, height: 200)
        let picture = box(Rect(x: 10, y: 10, width: 120, height: 90), nil, in: root)
        let fading = box(Rect(x: 60, y: 80, width: 100, height: 100), .red, in: root)
        let pixels = (0..<(16 * 16)).map { i -> UInt32 in (i / 16 + i % 16) % 2 == 0 ? 0xFF20_60E0 : 0xFFF0_F0F0 }
        Transaction.withoutActions {
            picture.contents = Image(width: 16, height: 16, pixels: pixels)
            picture.transform = Transform3D(rotationAngle: 0.2, x: 0, y: 0, z: 1)
            picture.shadowOpacity = 0.8
            picture.shadowRadius = 20
            picture.shadowOffset = Size(width: 0, height: 12)
        }
        let fade = Transition()
        fade.type = .push
        fade.subtype = .fromRight
        fade.duration = 1
        fading.add(fade, forKey: "transition")
        Transaction.withoutActions { fading.backgroundColor = .blue }
        Transaction.flush()
        clock.advance(by: 0.4)
        expectSameInBands(root, width: 200, height: 200, bands: 7, time: clock.now, "contents and a push")
    }

    @Test("a large frame is drawn in one band per core, the same pixels as with one thread")
    func oneBandPerCore() {
        let (_, root, _) = makeRenderer(width: 960, height: 540)
        for i in 0..<200 {
            let s = Double(32 + (i * 37) % 96)
            let l = box(Rect(x: Double((i * 131) % 960) + 0.25, y: Double((i * 71) % 540) + 0.5, width: s, height: s),
                        Color(red: Double(i % 7) / 7, green: 0.5, blue: Double(i % 3) / 3), in: root)
            Transaction.withoutActions {
                l.opacity = 0.5 + 0.1 * Double(i % 5)
                l.cornerRadius = i % 2 == 0 ? 12 : 0
                if i % 3 == 0 { l.borderWidth = 2; l.borderColor = .white }
            }
        }
        let r = OffscreenRenderer(width: 960, height: 540)
        r.rootLayer = root
        _ = r.render()
        #expect(r.renderer.lastBands == RenderWorkers.coreCount)
        r.rootLayer = nil
        expectSameInBands(root, width: 960, height: 540, bands: RenderWorkers.coreCount + 1, background: .black, "fractional cards")
    }

    @Test("a frame drawn on the workers while the caller goes on ignores later changes and equals a synchronous render")
    func asynchronousFrame() async {
        let (_, root, _) = makeRenderer(width: 640, height: 480)
        for i in 0..<60 {
            let l = box(Rect(x: Double((i * 97) % 560), y: Double((i * 61) % 400), width: 80, height: 80),
                        Color(red: Double(i % 5) / 5, green: 0.4, blue: 0.8), in: root)
            Transaction.withoutActions { l.cornerRadius = 10; l.opacity = 0.8 }
        }
        let first = root.sublayers[0]
        let canvas = Canvas(width: 640, height: 480)
        let renderer = LayerRenderer()
        var done = false
        let repainted: [Rect]? = await withCheckedContinuation { c in
            renderer.renderAsync(root, into: canvas.image, scale: 1, atTime: 100, background: .black) { rects in
                done = true
                c.resume(returning: rects)
            }
            // Back on the main actor at once, before the completion can run: the layers
            // may change now without touching the frame being drawn.
            #expect(!done)
            Transaction.withoutActions { first.backgroundColor = .white }
        }
        #expect(done && repainted == nil)   // the first frame paints everything
        Transaction.withoutActions { first.backgroundColor = Color(red: 0, green: 0.4, blue: 0.8) }
        let expected = OffscreenRenderer(width: 640, height: 480)
        expected.backgroundColor = .black
        expected.rootLayer = root
        let reference = expected.render(atTime: 100)
        expected.rootLayer = nil
        let drawn = RenderedImage(width: 640, height: 480, pixels: canvas.words)
        let same = drawn == reference
        #expect(same, "differs by \(drawn.maximumDifference(from: reference) ?? -1)")
    }

    @Test("a frame drawn and dropped (a window's frame drawn ahead) counts its damage into the next, so an older buffer is repainted where it must be")
    func droppedFrameCarriesDamage() {
        func run(discarding: Bool) -> Bool {
            let (_, root, _) = makeRenderer(width: 200, height: 60)
            _ = box(Rect(x: 0, y: 0, width: 200, height: 60), .black, in: root)
            let mover = box(Rect(x: 10, y: 10, width: 30, height: 30), .red, in: root)
            Transaction.flush()
            let renderer = LayerRenderer()
            let (older, newer, dropped) = (Canvas(width: 200, height: 60), Canvas(width: 200, height: 60), Canvas(width: 200, height: 60))
            func move(to x: Double) { Transaction.withoutActions { mover.position.x = x + 15 }; Transaction.flush() }
            _ = renderer.render(root, into: older.image, scale: 1, atTime: 100, background: .black, bufferAge: 0)      // frame 1: at 10
            move(to: 50)
            _ = renderer.render(root, into: newer.image, scale: 1, atTime: 100, background: .black, bufferAge: 0)      // frame 2: at 50
            move(to: 90)
            _ = renderer.render(root, into: dropped.image, scale: 1, atTime: 100, background: .black, bufferAge: 0)    // drawn ahead: at 90
            if discarding { renderer.discardLastFrame() }
            move(to: 130)
            // Frame 3 into the buffer that holds frame 1: two frames old.
            _ = renderer.render(root, into: older.image, scale: 1, atTime: 100, background: .black, bufferAge: 2)
            let expected = OffscreenRenderer(width: 200, height: 60)
            expected.backgroundColor = .black
            expected.rootLayer = root
            defer { expected.rootLayer = nil }
            return RenderedImage(width: 200, height: 60, pixels: older.words) == expected.render(atTime: 100)
        }
        #expect(run(discarding: true), "the buffer two frames old equals a full render of the last frame")
        #expect(!run(discarding: false), "(without the discard the mover's first place stays red: the check can fail)")
    }

    @Test("still leaves keep their display items from frame to frame; a change to a leaf, its superlayer, its place or its mask is drawn")
    func keptLeafItems() {
        let (_, root, clock) = makeRenderer(width: 160, height: 100)
        let group = box(Rect(x: 10, y: 10, width: 140, height: 80), Color(red: 0.1, green: 0.1, blue: 0.2), in: root)
        var leaves: [Layer] = []
        for i in 0..<12 {
            let x = Double(i % 4) * 32 + 4, y = Double(i / 4) * 24 + 4, shade = Double(i) / 12
            leaves.append(box(Rect(x: x, y: y, width: 28, height: 20), Color(red: shade, green: 0.5, blue: 1 - shade), in: group))
        }
        Transaction.withoutActions { for l in leaves where l !== leaves[0] { l.cornerRadius = 5; l.borderWidth = 2; l.borderColor = .white } }
        let mover = box(Rect(x: 0, y: 0, width: 20, height: 20), .red, in: root)
        Transaction.flush()
        let renderer = LayerRenderer()
        let canvas = Canvas(width: 160, height: 100)
        var age = 0
        func frame(_ note: String, _ change: () -> Void) {
            Transaction.withoutActions(change)
            Transaction.flush()
            _ = renderer.render(root, into: canvas.image, scale: 1, atTime: clock.now, background: .black, bufferAge: age)
            age = 1
            let expected = OffscreenRenderer(width: 160, height: 100)
            expected.backgroundColor = .black
            expected.rootLayer = root
            defer { expected.rootLayer = nil }
            let drawn = RenderedImage(width: 160, height: 100, pixels: canvas.words)
            let reference = expected.render(atTime: clock.now)
            #expect(drawn == reference, "\(note): differs by \(drawn.maximumDifference(from: reference) ?? -1)")
        }
        frame("first") {}
        for x in stride(from: 10.0, through: 130, by: 20) { frame("the mover over still leaves at \(x)") { mover.position = Point(x: x, y: 40) } }
        #expect(renderer.leaves.reuses > 0, "leaves under the mover reuse their items")
        frame("a leaf's colour") { leaves[5].backgroundColor = Color.green; mover.position.x += 1 }
        frame("the superlayer's sublayer transform") { group.sublayerTransform = Transform3D(translationX: 3, y: 2, z: 0) }
        frame("the superlayer's bounds origin") { group.bounds.origin = Point(x: -4, y: 0) }
        frame("the superlayer moved") { group.position.x += 7 }
        frame("a mask on a leaf") {
            let m = Layer()
            m.frame = Rect(x: 0, y: 0, width: 10, height: 10)
            m.backgroundColor = .white
            leaves[6].mask = m
        }
        frame("the mask's content changes") { leaves[6].mask?.bounds.size.width = 20 }
        frame("... and again") { leaves[6].mask?.bounds.size.height = 4 }
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.2
        fade.duration = 1
        group.add(fade, forKey: "fade")
        frame("the superlayer animating") { clock.advance(by: 0.25) }
        frame("... later") { clock.advance(by: 0.25) }
        frame("a leaf removed") { leaves[2].removeFromSuperlayer() }
        frame("a leaf inserted in its place") { group.insertSublayer(leaves[2], at: 2) }
        // Leaves gone from the tree are forgotten within a bounded number of frames.
        frame("all leaves removed") { for l in leaves { l.removeFromSuperlayer() } }
        #expect(renderer.leaves.count > 0)
        for i in 0...(2 * LeafItemCache.idleFrames) { frame("the mover alone") { mover.position.x = 20 + Double(i % 50) } }
        #expect(renderer.leaves.count <= 2, "only the mover and the emptied group are remembered, not the removed leaves (\(renderer.leaves.count))")
    }

    @Test("random trees with every effect come out the same in any number of bands")
    func randomTreesInBands() {
        var rng = SeededRandom(seed: 2026)
        let picture = Image(width: 8, height: 8, pixels: (0..<64).map { i in i % 3 == 0 ? 0xFF20_80C0 : 0x8040_2010 })
        for round in 0..<6 {
            let (_, root, _) = makeRenderer(width: 180, height: 140)
            var layers: [Layer] = [root]
            for _ in 0..<30 {
                let parent = layers[rng.int(layers.count)]
                let l: Layer = rng.int(6) == 0 ? ShapeLayer() : Layer()
                Transaction.withoutActions {
                    let room = parent.bounds
                    l.frame = Rect(x: rng.double(-10, room.width - 10), y: rng.double(-10, room.height - 10),
                                   width: rng.double(4, max(8, room.width * 0.6)), height: rng.double(4, max(8, room.height * 0.6)))
                    l.backgroundColor = Color(red: rng.double(0, 1), green: rng.double(0, 1), blue: rng.double(0, 1), alpha: rng.double(0.3, 1))
                    l.cornerRadius = rng.double(0, 15)
                    if rng.int(3) == 0 { l.borderWidth = rng.double(1, 4); l.borderColor = .white }
                    if rng.int(3) == 0 { l.opacity = rng.double(0.3, 0.9) }
                    if rng.int(5) == 0 { l.masksToBounds = true }
                    if rng.int(5) == 0 { l.shadowOpacity = 0.7; l.shadowRadius = rng.double(1, 10) }
                    if rng.int(6) == 0 { l.contents = picture }
                    if rng.int(5) == 0 { l.transform = Transform3D(rotationAngle: rng.double(-1, 1), x: 0, y: 0, z: 1) }
                    if rng.int(12) == 0 {
                        var t = Transform3D(rotationAngle: rng.double(-0.8, 0.8), x: 0, y: 1, z: 0)
                        t.m34 = -1.0 / 300
                        l.transform = t
                    }
                    if rng.int(8) == 0 {
                        let m = Layer()
                        m.frame = Rect(x: 0, y: 0, width: rng.double(5, 40), height: rng.double(5, 40))
                        m.backgroundColor = Color(white: 0, alpha: rng.double(0.3, 1))
                        l.mask = m
                    }
                    if let shape = l as? ShapeLayer {
                        shape.path = starPath(center: Point(x: 20, y: 20), radius: 18)
                        shape.fillColor = .yellow
                        shape.strokeColor = .black
                        shape.lineWidth = rng.double(1, 4)
                    }
                    parent.addSublayer(l)
                }
                layers.append(l)
            }
            Transaction.flush()
            expectSameInBands(root, width: 180, height: 140, bands: 2 + rng.int(9), background: Color(white: 0.85), "round \(round)")
        }
    }
}
