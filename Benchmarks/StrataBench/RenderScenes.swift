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
}

/// The hand-written pixman reference: what a C client would write for the scene.
/// A card's border ring and the background inside it do not overlap, so drawing
/// both at the card's opacity equals group opacity.
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

    func outline(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) -> [(Double, Double)] {
        guard r > 0 else { return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)] }
        var pts: [(Double, Double)] = []
        for (cx, cy, a0) in [(x + r, y + r, Double.pi), (x + w - r, y + r, 1.5 * .pi), (x + w - r, y + h - r, 0.0), (x + r, y + h - r, 0.5 * .pi)] {
            for k in 0...6 { let a = a0 + Double(k) / 6 * .pi / 2; pts.append((cx + cos(a) * r, cy + sin(a) * r)) }
        }
        return pts
    }

    func fill(_ tris: inout [pixman_triangle_t], _ color: pixman_color_t) {
        var c = color
        let src = pixman_image_create_solid_fill(&c)
        pixman_composite_triangles(PIXMAN_OP_OVER, src, image, PIXMAN_a8, 0, 0, 0, 0, Int32(tris.count), &tris)
        pixman_image_unref(src)
    }

    func point(_ p: (Double, Double)) -> pixman_point_fixed_t { pixman_point_fixed_t(x: fixed(p.0), y: fixed(p.1)) }

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
            let a = c.opacity
            func col(_ r: UInt8, _ g: UInt8, _ b: UInt8) -> pixman_color_t {
                pixman_color_t(red: UInt16(Double(r) * a * 257), green: UInt16(Double(g) * a * 257), blue: UInt16(Double(b) * a * 257), alpha: UInt16(a * 65535))
            }
            let (fx, fy, s) = (Double(x), Double(c.y), Double(c.size))
            let inset = c.border ? 2.0 : 0
            let inner = outline(fx + inset, fy + inset, s - 2 * inset, s - 2 * inset, max(0, c.radius - inset))
            if c.radius == 0 && !c.border {
                var color = col(c.r, c.g, c.b)
                var rect = pixman_rectangle16_t(x: Int16(clamping: x), y: Int16(clamping: c.y), width: UInt16(c.size), height: UInt16(c.size))
                pixman_image_fill_rectangles(PIXMAN_OP_OVER, image, &color, 1, &rect)
                continue
            }
            var tris = (1..<(inner.count - 1)).map { pixman_triangle_t(p1: point(inner[0]), p2: point(inner[$0]), p3: point(inner[$0 + 1])) }
            fill(&tris, col(c.r, c.g, c.b))
            if c.border {
                let outer = outline(fx, fy, s, s, c.radius)
                var ring: [pixman_triangle_t] = []
                for i in 0..<outer.count {
                    let j = (i + 1) % outer.count
                    ring.append(pixman_triangle_t(p1: point(outer[i]), p2: point(outer[j]), p3: point(inner[i])))
                    ring.append(pixman_triangle_t(p1: point(inner[i]), p2: point(outer[j]), p3: point(inner[j])))
                }
                fill(&ring, col(255, 255, 255))
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
    let renderer = OffscreenRenderer(width: w, height: h)
    renderer.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
    let root = Layer()
    var layers: [Layer] = []
    Transaction.withoutActions {
        root.anchorPoint = .zero
        root.bounds = Rect(x: 0, y: 0, width: Double(w), height: Double(h))
        for c in cards {
            let l = Layer()
            l.anchorPoint = .zero
            l.bounds = Rect(x: 0, y: 0, width: Double(c.size), height: Double(c.size))
            l.position = Point(x: Double(c.x), y: Double(c.y))
            l.backgroundColor = Color(rgba8: c.r, c.g, c.b)
            l.opacity = c.opacity
            l.cornerRadius = c.radius
            if c.border { l.borderWidth = 2; l.borderColor = .white }
            root.addSublayer(l)
            layers.append(l)
        }
    }
    renderer.rootLayer = root
    Transaction.flush()
    let reference = ReferenceRenderer(width: w, height: h)

    var toolkit: [Double] = [], handWritten: [Double] = []
    for f in 1...frames {
        let xs = cards.map { ($0.x + 3 * f) % w }
        let t0 = now()
        Transaction.withoutActions {
            for (l, x) in zip(layers, xs) { l.position = Point(x: Double(x), y: l.position.y) }
        }
        Transaction.flush()
        _ = renderer.render()
        let t1 = now()
        reference.draw(Array(zip(cards, xs)))
        let t2 = now()
        toolkit.append(t1 - t0)
        handWritten.append(t2 - t1)
    }

    // S2: the cards stand still; one 64×64 red layer moves 4 px a frame.
    Transaction.withoutActions { for (l, c) in zip(layers, cards) { l.position = Point(x: Double(c.x), y: Double(c.y)) } }
    let mover = Layer()
    Transaction.withoutActions {
        mover.anchorPoint = .zero
        mover.bounds = Rect(x: 0, y: 0, width: 64, height: 64)
        mover.backgroundColor = .red
        root.addSublayer(mover)
    }
    var toolkit2: [Double] = [], reference2: [Double] = []
    let placed = cards.map { ($0, $0.x) }
    for f in 1...frames {
        let x = (f * 4) % (w - 64)
        let t0 = now()
        Transaction.withoutActions { mover.position = Point(x: Double(x), y: 500) }
        Transaction.flush()
        _ = renderer.render()
        let t1 = now()
        // Reference with damage: repaint only the mover's old and new rectangles.
        reference.draw(placed, clip: (max(0, x - 4), 500, 68, 64))
        var red = pixman_color_t(red: 0xffff, green: 0, blue: 0, alpha: 0xffff)
        var rect = pixman_rectangle16_t(x: Int16(x), y: 500, width: 64, height: 64)
        pixman_image_fill_rectangles(PIXMAN_OP_SRC, reference.image, &red, 1, &rect)
        let t2 = now()
        toolkit2.append(t1 - t0)
        reference2.append(t2 - t1)
    }
    renderer.rootLayer = nil
    let (a, b, c, d) = (median(toolkit) * 1e3, median(handWritten) * 1e3, median(toolkit2) * 1e3, median(reference2) * 1e3)
    return [
        Figure(scene: "S1 cards-1080p", metric: "toolkit", value: a, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S1 cards-1080p", metric: "hand-written pixman", value: b, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S1 cards-1080p", metric: "ratio toolkit/hand-written", value: a / b, unit: "x", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "toolkit (full repaint)", value: c, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "hand-written, damage only", value: d, unit: "ms/frame", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "ratio toolkit/hand-written", value: c / d, unit: "x", repetitions: frames),
        Figure(scene: "S2 one-mover-1080p", metric: "pixels written: toolkit / hand-written", value: Double(w * h) / Double(68 * 64), unit: "x", repetitions: frames),
    ]
}
