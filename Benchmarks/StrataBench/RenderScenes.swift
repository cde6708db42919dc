import CPixman
import Glibc
import LayerKit
import PixmanRender

/// One card of the `cards(N, W, H)` generator (Benchmarks.md).
struct Card {
    let size: Int, x: Int, y: Int
    let r: UInt8, g: UInt8, b: UInt8
    let opacity: Double
    let radius: Double
    let border: Bool

    init(_ i: Int, _ w: Int, _ h: Int) {
        size = 64 + (i * 37) % 192
        x = (i * 131) % w
        y = (i * 71) % h
        (r, g, b) = (UInt8((i * 53) % 256), UInt8((i * 97) % 256), UInt8((i * 193) % 256))
        opacity = 0.5 + 0.1 * Double(i % 5)
        radius = i % 2 == 0 ? 12 : 0
        border = i % 3 == 0
    }

    /// The card as a layer (anchor point at its top left, at its place).
    @MainActor
    func makeLayer() -> Layer {
        let l = Layer()
        l.anchorPoint = .zero
        l.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
        l.position = Point(x: Double(x), y: Double(y))
        l.backgroundColor = Color(rgba8: r, g, b)
        l.opacity = opacity
        l.cornerRadius = radius
        if border { l.borderWidth = 2; l.borderColor = .white }
        return l
    }
}

/// The hand-written pixman reference: what a careful C client would write for the
/// scene — rectangle fills, corner masks rasterized once.
final class ReferenceRenderer {
    let width: Int, height: Int
    let pixels: UnsafeMutablePointer<UInt32>
    let image: OpaquePointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        pixels = .allocate(capacity: width * height)
        image = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(width), Int32(height), pixels, Int32(width * 4))!
    }

    deinit {
        pixman_image_unref(image)
        pixels.deallocate()
    }

    func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t(v * 65536) }

    /// Every pixel opaque black (the toolkit's frames start from a black background too).
    func fillBlack() {
        var black = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 0xffff)
        var all = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(width), height: UInt16(height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &black, 1, &all)
    }

    func outline(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) -> [(Double, Double)] {
        guard r > 0 else { return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)] }
        var pts: [(Double, Double)] = []
        for (cx, cy, a0) in [(x + r, y + r, Double.pi), (x + w - r, y + r, 1.5 * .pi), (x + w - r, y + h - r, 0.0), (x + r, y + h - r, 0.5 * .pi)] {
            for k in 0...6 { let a = a0 + Double(k) / 6 * .pi / 2; pts.append((cx + cos(a) * r, cy + sin(a) * r)) }
        }
        return pts
    }

    func point(_ p: (Double, Double)) -> pixman_point_fixed_t { pixman_point_fixed_t(x: fixed(p.0), y: fixed(p.1)) }

    /// Coverage of a 24×24 rounded square of radius 12 (fill), and of its 2-pixel
    /// ring: their quadrants are the corners. Rasterized once, as a careful C
    /// client would.
    lazy var cornerFill: OpaquePointer = cornerMask(ring: false)
    lazy var cornerRing: OpaquePointer = cornerMask(ring: true)
    /// The radius-10 corners of the fill inside a border.
    lazy var cornerInner: OpaquePointer = cornerMask(ring: false, radius: 10)

    func cornerMask(ring: Bool, radius: Double = 12) -> OpaquePointer {
        let side = Int32(2 * radius)
        let m = pixman_image_create_bits(PIXMAN_a8, side, side, nil, 0)!
        let outer = outline(0, 0, 2 * radius, 2 * radius, radius), inner = outline(2, 2, 2 * radius - 4, 2 * radius - 4, radius - 2)
        var tris: [pixman_triangle_t]
        if ring {
            tris = []
            for i in 0..<outer.count {
                let j = (i + 1) % outer.count
                tris.append(pixman_triangle_t(p1: point(outer[i]), p2: point(outer[j]), p3: point(inner[i])))
                tris.append(pixman_triangle_t(p1: point(inner[i]), p2: point(outer[j]), p3: point(inner[j])))
            }
        } else {
            tris = (1..<(outer.count - 1)).map { pixman_triangle_t(p1: point(outer[0]), p2: point(outer[$0]), p3: point(outer[$0 + 1])) }
        }
        var white = pixman_color_t(red: 0xffff, green: 0xffff, blue: 0xffff, alpha: 0xffff)
        let src = pixman_image_create_solid_fill(&white)
        pixman_composite_triangles(PIXMAN_OP_ADD, src, m, PIXMAN_a8, 0, 0, 0, 0, Int32(tris.count), &tris)
        pixman_image_unref(src)
        return m
    }

    /// Rectangles, plus the four corners through `mask` when `r` > 0.
    func shape(_ src: OpaquePointer, _ rects: [(Int, Int, Int, Int)], corners mask: OpaquePointer?, _ x: Int, _ y: Int, _ s: Int, _ r: Int) {
        for (a, b, w, h) in rects where w > 0 && h > 0 {
            pixman_image_composite32(PIXMAN_OP_OVER, src, nil, image, 0, 0, 0, 0, Int32(a), Int32(b), Int32(w), Int32(h))
        }
        guard let mask, r > 0 else { return }
        for (mx, my, dx, dy) in [(0, 0, x, y), (r, 0, x + s - r, y), (0, r, x, y + s - r), (r, r, x + s - r, y + s - r)] {
            pixman_image_composite32(PIXMAN_OP_OVER, src, mask, image, 0, 0, Int32(mx), Int32(my), Int32(dx), Int32(dy), Int32(r), Int32(r))
        }
    }

    func draw(_ cards: [(Card, Int)], clip: (Int, Int, Int, Int)? = nil) {
        if let clip {
            var region = pixman_region32_t()
            pixman_region32_init_rect(&region, Int32(clip.0), Int32(clip.1), UInt32(clip.2), UInt32(clip.3))
            pixman_image_set_clip_region32(image, &region)
            pixman_region32_fini(&region)
        }
        var bg = pixman_color_t(red: 0x2020, green: 0x2424, blue: 0x2828, alpha: 0xffff)
        var all = pixman_rectangle16_t(x: 0, y: 0, width: UInt16(width), height: UInt16(height))
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, image, &bg, 1, &all)
        for (c, x) in cards {
            // A careful client draws only the cards that touch the damage.
            if let clip, x >= clip.0 + clip.2 || x + c.size <= clip.0 || c.y >= clip.1 + clip.3 || c.y + c.size <= clip.1 { continue }
            let a = c.opacity
            func solid(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> OpaquePointer {
                var color = pixman_color_t(red: UInt16(Double(r) * a * 257), green: UInt16(Double(g) * a * 257),
                                           blue: UInt16(Double(b) * a * 257), alpha: UInt16(a * 65535))
                return pixman_image_create_solid_fill(&color)
            }
            let (y, s, r) = (c.y, c.size, Int(c.radius))
            let bw = c.border ? 2 : 0
            // The background inside the border and the border ring do not overlap,
            // so drawing both at the card's opacity is its group opacity.
            let fill = solid(c.r, c.g, c.b)
            if bw == 0 {
                shape(fill, [(x + r, y, s - 2 * r, s), (x, y + r, r, s - 2 * r), (x + s - r, y + r, r, s - 2 * r)], corners: cornerFill, x, y, s, r)
            } else if r == 0 {
                shape(fill, [(x + bw, y + bw, s - 2 * bw, s - 2 * bw)], corners: nil, x, y, s, 0)
            } else {
                // Inside a radius-12 ring of width 2: a radius-10 fill.
                let ix = x + bw, iy = y + bw, si = s - 2 * bw, ri = r - bw
                shape(fill, [(ix + ri, iy, si - 2 * ri, si), (ix, iy + ri, ri, si - 2 * ri), (ix + si - ri, iy + ri, ri, si - 2 * ri)],
                      corners: cornerInner, ix, iy, si, ri)
            }
            pixman_image_unref(fill)
            if bw > 0 {
                let white = solid(255, 255, 255)
                if r == 0 {
                    shape(white, [(x, y, s, bw), (x, y + s - bw, s, bw), (x, y + bw, bw, s - 2 * bw), (x + s - bw, y + bw, bw, s - 2 * bw)],
                          corners: nil, x, y, s, 0)
                } else {
                    shape(white, [(x + r, y, s - 2 * r, bw), (x + r, y + s - bw, s - 2 * r, bw), (x, y + r, bw, s - 2 * r), (x + s - bw, y + r, bw, s - 2 * r)],
                          corners: cornerRing, x, y, s, r)
                }
                pixman_image_unref(white)
            }
        }
        if clip != nil { pixman_image_set_clip_region32(image, nil) }
    }
}

/// S1 `cards-1080p` and S2 `one-mover-1080p`: the toolkit (OffscreenRenderer over
/// a LayerKit tree) next to the hand-written reference, in one run.
@MainActor
func sceneCards(frames: Int) -> [Figure] {
    let (w, h, n) = (1920, 1080, 1000)
    let cards = (0..<n).map { Card($0, w, h) }
    MediaTime.clock = ManualMediaClock(now: 3000)
    // The toolkit draws into a pixman image of the benchmark's, as into a window's buffer.
    let renderer = LayerRenderer()
    let background = Color(rgba8: 0x20, 0x24, 0x28)
    let target = ReferenceRenderer(width: w, height: h)
    var age = 0
    func render() -> [Rect]? {
        defer { age = 1 }
        root.layoutIfNeeded()
        root.displayIfNeededInSubtree()
        return renderer.render(root, into: target.image, scale: 1, atTime: currentMediaTime(), background: background, bufferAge: age)
    }
    let root = Layer()
    var layers: [Layer] = []
    Transaction.withoutActions {
        root.anchorPoint = .zero
        root.bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        for c in cards {
            let l = c.makeLayer()
            root.addSublayer(l)
            layers.append(l)
        }
    }
    PresentationHosts.attach(root)
    Transaction.flush()
    let reference = ReferenceRenderer(width: w, height: h)

    // Frames alternate between one thread and one per core, so both see the same noise.
    var toolkit: [Double] = [], toolkitOneThread: [Double] = [], handWritten: [Double] = []
    var difference = 0
    let cores = renderer.maximumThreads
    for f in 1...frames {
        let xs = cards.map { ($0.x + 3 * f) % w }
        renderer.maximumThreads = f % 2 == 0 ? 1 : cores
        let t0 = now()
        Transaction.withoutActions {
            for (l, x) in zip(layers, xs) { l.position = Point(x: Double(x), y: l.position.y) }
        }
        Transaction.flush()
        _ = render()
        let t1 = now()
        reference.draw(Array(zip(cards, xs)))
        let t2 = now()
        if f == 1 {
            // Both draw the same picture (within rounding): the comparison is fair.
            let ref = RenderedImage(width: w, height: h, pixels: Array(UnsafeBufferPointer(start: reference.pixels, count: w * h)))
            let frame = RenderedImage(width: w, height: h, pixels: Array(UnsafeBufferPointer(start: target.pixels, count: w * h)))
            difference = frame.maximumDifference(from: ref) ?? 255
        }
        if f % 2 == 0 { toolkitOneThread.append(t1 - t0) } else { toolkit.append(t1 - t0) }
        handWritten.append(t2 - t1)
    }
    renderer.maximumThreads = cores

    // S2: the cards stand still; one 64×64 red layer moves 4 px a frame.
    Transaction.withoutActions { for (l, c) in zip(layers, cards) { l.position = Point(x: Double(c.x), y: Double(c.y)) } }
    let mover = Layer()
    Transaction.withoutActions {
        mover.anchorPoint = .zero
        mover.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        mover.backgroundColor = .red
        root.addSublayer(mover)
    }
    var toolkit2: [Double] = [], reference2: [Double] = [], written: [Double] = []
    let placed = cards.map { ($0, $0.x) }
    for f in 1...frames {
        let x = (f * 4) % (w - 64)
        let t0 = now()
        Transaction.withoutActions { mover.position = Point(x: Double(x), y: 500) }
        Transaction.flush()
        let damage = render()
        let t1 = now()
        written.append((damage ?? []).reduce(0) { $0 + $1.width * $1.height })
        // Reference with damage: repaint only the mover's old and new rectangles.
        reference.draw(placed, clip: (max(0, x - 4), 500, 68, 64))
        var red = pixman_color_t(red: 0xffff, green: 0, blue: 0, alpha: 0xffff)
        var rect = pixman_rectangle16_t(x: Int16(x), y: 500, width: 64, height: 64)
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, reference.image, &red, 1, &rect)
        let t2 = now()
        toolkit2.append(t1 - t0)
        reference2.append(t2 - t1)
    }
    // S2 again through OffscreenRenderer, each frame's image let go before the next
    // (copy on write: no copy of the canvas).
    var offscreen2: [Double] = []
    let offscreen = OffscreenRenderer(width: w, height: h)
    offscreen.backgroundColor = background
    offscreen.rootLayer = root
    _ = offscreen.render()
    for f in 1...frames {
        let x = (f * 4) % (w - 64)
        let t0 = now()
        Transaction.withoutActions { mover.position = Point(x: Double(x), y: 500) }
        Transaction.flush()
        let image = offscreen.render()
        let t1 = now()
        if image.width != w { print("unexpected size") }
        offscreen2.append(t1 - t0)
    }
    offscreen.rootLayer = nil
    PresentationHosts.detach(root)
    let (a, b, c, d) = (median(toolkit) * 1e3, median(handWritten) * 1e3, median(toolkit2) * 1e3, median(reference2) * 1e3)
    let e = median(offscreen2) * 1e3
    let a1 = median(toolkitOneThread) * 1e3
    return [
        Figure(scene: "S1 cards-1080p", metric: "toolkit, \(cores) threads", value: a, unit: "ms/frame", repetitions: toolkit.count),
        Figure(scene: "S1 cards-1080p", metric: "toolkit, 1 thread", value: a1, unit: "ms/frame", repetitions: toolkitOneThread.count),
        Figure(scene: "S1 cards-1080p", metric: "hand-written pixman, 1 thread", value: b, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S1 cards-1080p", metric: "ratio toolkit (\(cores) threads)/hand-written", value: a / b, unit: "x", repetitions: frames),
        Figure(scene: "S1 cards-1080p", metric: "ratio toolkit (1 thread)/hand-written", value: a1 / b, unit: "x", repetitions: frames),
        Figure(scene: "S1 cards-1080p", metric: "largest channel difference between the two pictures", value: Double(difference), unit: "/255", repetitions: 1),
        Figure(scene: "S2 one-mover-1080p", metric: "toolkit (damage tracked)", value: c, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "hand-written, damage only", value: d, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "ratio toolkit/hand-written", value: c / d, unit: "x", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "toolkit through OffscreenRenderer", value: e, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "ratio OffscreenRenderer/hand-written", value: e / d, unit: "x", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "pixels written per frame, toolkit", value: median(written), unit: "px", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "pixels written per frame, hand-written", value: Double(68 * 64), unit: "px", repetitions: frames),
    ]
}
