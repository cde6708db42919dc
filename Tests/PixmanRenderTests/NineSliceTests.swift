import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// `contentsCenter` (issue 28, item 6): nine-slice scaling keeps the corners'
/// pixels at any size, stretches edges and centre, animates, and takes odd
/// centres by its documented fallbacks.
@MainActor
@Suite("Nine-slice contents", .serialized, .isolatedLayerContext)
struct NineSliceTests {
    /// A 9 × 9 image: each 3 × 3 block its own colour (corners, edges, centre).
    static let blocks: [UInt32] = [0xFFFF0000, 0xFF00FF00, 0xFF0000FF,
                                   0xFFFFFF00, 0xFF808080, 0xFF00FFFF,
                                   0xFFFF00FF, 0xFF400000, 0xFF004000]
    static let image: Image = {
        var pixels: [UInt32] = []
        for y in 0..<9 { for x in 0..<9 { pixels.append(blocks[(y / 3) * 3 + x / 3]) } }
        return Image(width: 9, height: 9, pixels: pixels)!
    }()

    func rgb(_ word: UInt32) -> (Int, Int, Int, Int) {
        (Int(word >> 16 & 0xff), Int(word >> 8 & 0xff), Int(word & 0xff), Int(word >> 24))
    }

    @Test("the corners keep their pixels at any size, edges stretch along their side, the centre both ways")
    func cornersUntouched() {
        for size in [Size(width: 9, height: 9), Size(width: 30, height: 20), Size(width: 100, height: 50), Size(width: 12, height: 41)] {
            let (r, root, _) = makeRenderer(width: 120, height: 60)
            let l = Layer()
            Transaction.withoutActions {
                l.frame = Rect(x: 5, y: 4, width: size.width, height: size.height)
                l.contents = Self.image
                l.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
                root.addSublayer(l)
            }
            Transaction.flush()
            let img = r.render()
            let (w, h) = (Int(size.width), Int(size.height))
            for dy in 0..<3 {
                for dx in 0..<3 {
                    #expect(near(img.rgba8(x: 5 + dx, y: 4 + dy), rgb(Self.blocks[0]), 0), "top left at \(size)")
                    #expect(near(img.rgba8(x: 5 + w - 3 + dx, y: 4 + dy), rgb(Self.blocks[2]), 0), "top right at \(size)")
                    #expect(near(img.rgba8(x: 5 + dx, y: 4 + h - 3 + dy), rgb(Self.blocks[6]), 0), "bottom left at \(size)")
                    #expect(near(img.rgba8(x: 5 + w - 3 + dx, y: 4 + h - 3 + dy), rgb(Self.blocks[8]), 0), "bottom right at \(size)")
                }
            }
            // Inside each edge and the centre (away from where neighbours blend): their colour.
            #expect(near(img.rgba8(x: 5 + w / 2, y: 5), rgb(Self.blocks[1]), 0), "top edge at \(size)")
            #expect(near(img.rgba8(x: 5, y: 4 + h / 2), rgb(Self.blocks[3]), 0), "left edge at \(size)")
            #expect(near(img.rgba8(x: 5 + w / 2, y: 4 + h / 2), rgb(Self.blocks[4]), 0), "centre at \(size)")
        }
    }

    @Test("without a centre the image stretches whole; corners too big for the bounds shrink in proportion")
    func wholeAndShrunk() {
        let (r, root, _) = makeRenderer(width: 40, height: 40)
        let l = Layer()
        Transaction.withoutActions {
            l.frame = Rect(x: 0, y: 0, width: 36, height: 36)
            l.contents = Self.image
            root.addSublayer(l)
        }
        Transaction.flush()
        #expect(near(r.render().rgba8(x: 5, y: 5), rgb(Self.blocks[0]), 0))   // well inside its 12 × 12 block
        Transaction.withoutActions {
            l.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            l.contentsScale = 0.5   // corners 6 points each, but only 4 × 4 points of layer
            l.frame = Rect(x: 0, y: 0, width: 4, height: 4)
        }
        Transaction.flush()
        let img = r.render()
        #expect(near(img.rgba8(x: 0, y: 0), rgb(Self.blocks[0]), 0) && near(img.rgba8(x: 3, y: 3), rgb(Self.blocks[8]), 0))
    }

    @Test("contentsCenter animates: half way, the corner band is between its sizes")
    func animates() {
        let (r, root, clock) = makeRenderer(width: 60, height: 60)
        let l = Layer()
        Transaction.withoutActions {
            l.frame = Rect(x: 0, y: 0, width: 60, height: 60)
            l.contents = Self.image
            l.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            root.addSublayer(l)
        }
        Transaction.flush()
        let a = BasicAnimation(keyPath: "contentsCenter")
        a.toValue = Rect(x: 0, y: 0, width: 1, height: 1)   // to a plain stretch: the corner grows to 20 points
        a.duration = 1
        l.add(a, forKey: "c")
        Transaction.flush()
        clock.now += 0.5
        // Half way: the centre starts at 1/6 of the image (1.5 pixels: a 1.5-point corner cap).
        #expect(l.presentation()!.contentsCenter.minX == 1.0 / 6)
        let img = r.render()
        #expect(near(img.rgba8(x: 0, y: 0), rgb(Self.blocks[0]), 0))
        #expect(img == fresh(root, width: 60, height: 60))
    }

    @Test("odd centres: outside the unit rectangle clamped, NaN refused, no width stretches a line, zero-size layers draw nothing")
    func oddInput() {
        let (r, root, _) = makeRenderer(width: 40, height: 40)
        let l = Layer()
        let seen = Diagnostics.recording {
            l.contentsCenter = Rect(x: .nan, y: 0, width: 1, height: 1)
        }
        #expect(seen.count == 1 && l.contentsCenter == Rect(x: 0, y: 0, width: 1, height: 1))
        Transaction.withoutActions {
            l.frame = Rect(x: 0, y: 0, width: 30, height: 30)
            l.contents = Self.image
            l.contentsCenter = Rect(x: -3, y: 0.5, width: 10, height: 0)   // clamped to 0…1 across, a line down
            root.addSublayer(l)
        }
        Transaction.flush()
        let img = r.render()
        // Across: the whole width stretches (no caps). Down: caps of 4 pixels, the row at 4 (the middle blocks) stretched between.
        #expect(near(img.rgba8(x: 15, y: 15), rgb(Self.blocks[4]), 0) && near(img.rgba8(x: 1, y: 1), rgb(Self.blocks[0]), 0))
        #expect(near(img.rgba8(x: 1, y: 28), rgb(Self.blocks[6]), 0))
        Transaction.withoutActions { l.bounds.size = .zero }
        Transaction.flush()
        #expect(r.render().rgba8(x: 1, y: 1).a == 0)
    }
    @Test("patches meet on whole device pixels: at a fractional size no seam lets the background through")
    func noSeams() {
        let (r, root, _) = makeRenderer(width: 60, height: 30)
        let l = Layer()
        Transaction.withoutActions {
            root.backgroundColor = .white
            l.frame = Rect(x: 2.3, y: 2, width: 41.45, height: 20.6)
            l.contents = Image(width: 9, height: 9, color: .black)
            l.contentsCenter = Rect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3)
            root.addSublayer(l)
        }
        Transaction.flush()
        let img = r.render()
        // Every pixel wholly inside the layer is black: a seam would be grey.
        for y in 3..<22 { for x in 3..<43 { #expect(img.rgba8(x: x, y: y).r == 0, "\(x), \(y): \(img.rgba8(x: x, y: y))") } }
    }
}
