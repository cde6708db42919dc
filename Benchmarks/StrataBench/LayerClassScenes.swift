import CPixman
import Glibc
import LayerKit
import PixmanRender

/// R1 `gradient-1080p`, R2 `replicator-1000` and R3 `particles-5000` (issue 28): a layer class drawn
/// by the toolkit next to hand-written pixman drawing the same picture, frame by
/// frame in one run. Frames alternate between the toolkit on one thread, the
/// toolkit on every core and the reference (one thread), so all see the same noise.
@MainActor
func sceneLayerClasses(frames: Int) -> [Figure] {
    sceneGradient(frames: frames) + sceneReplicator(frames: frames) + sceneParticles(frames: frames)
}

/// The toolkit's renderer on a target of the benchmark's, committing and drawing one frame.
@MainActor
private final class ToolkitFrames {
    let renderer = LayerRenderer()
    let target: ReferenceRenderer
    let root = Layer()
    let cores: Int
    private var age = 0

    init(width: Int, height: Int) {
        target = ReferenceRenderer(width: width, height: height)
        cores = renderer.maximumThreads
        Transaction.withoutActions {
            root.anchorPoint = .zero
            root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        }
    }

    func frame(threads: Int) {
        renderer.maximumThreads = threads
        Transaction.flush()
        root.layoutIfNeeded()
        root.displayIfNeededInSubtree()
        _ = renderer.render(root, into: target.image, scale: 1, atTime: currentMediaTime(), background: .black, bufferAge: age)
        age = 1
    }

    /// `frames` frames, the toolkit's alternating between one thread per core and
    /// one thread, each followed by the reference's: `before` runs untimed, `change`
    /// is timed with the toolkit's frame, `reference` draws the reference's, `after`
    /// looks at both. Their times in seconds.
    func race(_ frames: Int, before: (Int) -> Void = { _ in }, change: (Int) -> Void = { _ in }, reference: (Int) -> Void,
              after: (Int) -> Void = { _ in }) -> (all: [Double], one: [Double], reference: [Double]) {
        var all: [Double] = [], one: [Double] = [], written: [Double] = []
        for f in 1...frames {
            before(f)
            let t0 = now()
            change(f)
            frame(threads: f % 2 == 0 ? 1 : cores)
            let t1 = now()
            reference(f)
            let t2 = now()
            after(f)
            if f % 2 == 0 { one.append(t1 - t0) } else { all.append(t1 - t0) }
            written.append(t2 - t1)
        }
        renderer.maximumThreads = cores
        return (all, one, written)
    }

    func difference(from reference: ReferenceRenderer) -> Int {
        let n = target.width * target.height
        let a = RenderedImage(width: target.width, height: target.height, pixels: Array(UnsafeBufferPointer(start: target.pixels, count: n)))
        let b = RenderedImage(width: target.width, height: target.height, pixels: Array(UnsafeBufferPointer(start: reference.pixels, count: n)))
        return a.maximumDifference(from: b) ?? 255
    }
}

private func figures(_ scene: String, toolkit: [Double], oneThread: [Double], reference: [Double], cores: Int,
                     difference: Int) -> [Figure] {
    let (a, a1, b) = (median(toolkit) * 1e3, median(oneThread) * 1e3, median(reference) * 1e3)
    return [
        Figure(scene: scene, metric: "toolkit, \(cores) threads", value: a, unit: "ms/frame", repetitions: toolkit.count),
        Figure(scene: scene, metric: "toolkit, 1 thread", value: a1, unit: "ms/frame", repetitions: oneThread.count),
        Figure(scene: scene, metric: "hand-written pixman, 1 thread", value: b, unit: "ms/frame", repetitions: reference.count),
        Figure(scene: scene, metric: "ratio toolkit (1 thread)/hand-written", value: a1 / b, unit: "x", repetitions: reference.count),
        Figure(scene: scene, metric: "ratio toolkit (\(cores) threads)/hand-written", value: a / b, unit: "x", repetitions: reference.count),
        Figure(scene: scene, metric: "largest channel difference between the two pictures", value: Double(difference), unit: "/255", repetitions: 1),
    ]
}

/// R1: a full-window 1920×1080 axial gradient whose two colours animate (an
/// explicit animation, evaluated each frame); slow enough to be dithered.
@MainActor
func sceneGradient(frames: Int) -> [Figure] {
    let (w, h) = (1920, 1080)
    let clock = ManualMediaClock(now: 5000)
    MediaTime.clock = clock
    let toolkit = ToolkitFrames(width: w, height: h)
    let gradient = GradientLayer()
    let from: [Color] = [Color(red: 0.1, green: 0.2, blue: 0.6), Color(red: 0.9, green: 0.5, blue: 0.2)]
    let to: [Color] = [Color(red: 0.5, green: 0.1, blue: 0.5), Color(red: 0.2, green: 0.7, blue: 0.6)]
    Transaction.withoutActions {
        gradient.frame = toolkit.root.bounds
        gradient.colors = from
        toolkit.root.addSublayer(gradient)
    }
    PresentationHosts.attach(toolkit.root)
    defer { PresentationHosts.detach(toolkit.root) }
    Transaction.flush()
    let change = BasicAnimation(keyPath: "colors")
    change.fromValue = from
    change.toValue = to
    change.duration = 100
    change.timingFunction = MediaTimingFunction(name: .linear)
    gradient.add(change, forKey: "colors")
    Transaction.flush()
    let begin = clock.now

    // The reference: the colours worked out for the frame, one linear gradient
    // picture, composited over the whole frame, dithered as the toolkit's is.
    let reference = ReferenceRenderer(width: w, height: h)
    func drawReference() {
        let t = (clock.now - begin) / 100
        var stops = zip(from, to).enumerated().map { i, pair -> pixman_gradient_stop_t in
            let c = pair.0.interpolated(to: pair.1, fraction: t)
            func ch(_ v: Double) -> UInt16 { UInt16((v * 65535).rounded()) }
            return pixman_gradient_stop_t(x: pixman_fixed_t(i * 65536),
                                          color: pixman_color_t(red: ch(c.red), green: ch(c.green), blue: ch(c.blue), alpha: 0xffff))
        }
        var p1 = pixman_point_fixed_t(x: 0, y: 0), p2 = pixman_point_fixed_t(x: 0, y: pixman_fixed_t(h * 65536))
        let source = pixman_image_create_linear_gradient(&p1, &p2, &stops, Int32(stops.count))
        pixman_image_set_repeat(source, PIXMAN_REPEAT_PAD)
        pixman_image_set_dither(reference.image, PIXMAN_DITHER_ORDERED_BLUE_NOISE_64)
        pixman_image_composite32(PIXMAN_OP_SRC, source, nil, reference.image, 0, 0, 0, 0, 0, 0, Int32(w), Int32(h))
        pixman_image_set_dither(reference.image, PIXMAN_DITHER_NONE)
        pixman_image_unref(source)
    }

    var difference = 0
    let times = toolkit.race(frames, before: { _ in clock.now += 1.0 / 60 }, reference: { _ in drawReference() },
                             after: { f in if f == 1 { difference = toolkit.difference(from: reference) } })
    return figures("R1 gradient-1080p", toolkit: times.all, oneThread: times.one, reference: times.reference, cores: toolkit.cores,
                   difference: difference)
}

/// R2: a replicator of 1,000 copies of one 12-point square, in a spiral (each copy
/// turned and shrunk about the centre), its instance transform changed every frame.
@MainActor
func sceneReplicator(frames: Int) -> [Figure] {
    let (w, h, n) = (1280, 720, 1000)
    MediaTime.clock = ManualMediaClock(now: 6000)
    let toolkit = ToolkitFrames(width: w, height: h)
    let replicator = ReplicatorLayer()
    let square = Layer()
    let colour = Color(red: 1, green: 0.6, blue: 0.2)
    Transaction.withoutActions {
        replicator.frame = toolkit.root.bounds
        replicator.instanceCount = n
        square.frame = Rect(x: Double(w) / 2 - 6, y: 20, width: 12, height: 12)
        square.backgroundColor = colour
        replicator.addSublayer(square)
        toolkit.root.addSublayer(replicator)
    }
    PresentationHosts.attach(toolkit.root)
    defer { PresentationHosts.detach(toolkit.root) }
    func step(_ f: Int) -> Transform3D {
        Transform3D(rotationAngle: 0.06 + 0.0001 * Double(f % 50), x: 0, y: 0, z: 1).concatenating(Transform3D(scaleX: 0.998, y: 0.998, z: 1))
    }

    // The reference: each copy's corners worked out from the accumulated matrix,
    // two anti-aliased triangles composited in the colour.
    let reference = ReferenceRenderer(width: w, height: h)
    var solidColour = pixman_color_t(red: 0xffff, green: 0x9999, blue: 0x3333, alpha: 0xffff)
    let solid = pixman_image_create_solid_fill(&solidColour)
    defer { pixman_image_unref(solid) }
    func drawReference(_ f: Int) {
        reference.fillBlack()
        let (cx, cy) = (Double(w) / 2, Double(h) / 2)
        let s = step(f)
        var m = (a: 1.0, b: 0.0, c: 0.0, d: 1.0)   // the copy's linear part about the centre
        let corners = [(-6.0, 20 - cy), (6.0, 20 - cy), (6.0, 32 - cy), (-6.0, 32 - cy)]
        var triangles: [pixman_triangle_t] = []
        triangles.reserveCapacity(2 * n)
        func fixed(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        for _ in 0..<n {
            let p = corners.map { (x, y) in pixman_point_fixed_t(x: fixed(cx + x * m.a + y * m.c), y: fixed(cy + x * m.b + y * m.d)) }
            triangles.append(pixman_triangle_t(p1: p[0], p2: p[1], p3: p[2]))
            triangles.append(pixman_triangle_t(p1: p[0], p2: p[2], p3: p[3]))
            m = (m.a * s.m11 + m.b * s.m21, m.a * s.m12 + m.b * s.m22, m.c * s.m11 + m.d * s.m21, m.c * s.m12 + m.d * s.m22)
        }
        // One copy at a time, as the toolkit draws them (overlaps blend copy by copy).
        for k in 0..<n {
            triangles.withUnsafeBufferPointer { t in
                pixman_composite_triangles(PIXMAN_OP_OVER, solid, reference.image, PIXMAN_a8, 0, 0, 0, 0, 2, t.baseAddress! + 2 * k)
            }
        }
    }

    var difference = 0
    let times = toolkit.race(frames, change: { f in Transaction.withoutActions { replicator.instanceTransform = step(f) } },
                             reference: drawReference, after: { f in if f == 1 { difference = toolkit.difference(from: reference) } })
    return figures("R2 replicator-1000", toolkit: times.all, oneThread: times.one, reference: times.reference, cores: toolkit.cores,
                   difference: difference)
}

/// R3 `particles-5000`: an emitter of one cell (2,500 births a second, 2 s lives:
/// about 5,000 live particles of an 8 × 8 picture, turning and scaled) in a
/// 1280×720 frame, 1/60 s a frame — next to a particle system written by hand in
/// the same run: an array of particles (position, velocity, angle, spin, colour),
/// moved each frame, each drawn as the picture's alpha in its colour through
/// pixman with its own transform.
@MainActor
func sceneParticles(frames: Int) -> [Figure] {
    let (w, h) = (1280, 720)
    let clock = ManualMediaClock(now: 7000)
    MediaTime.clock = clock
    let toolkit = ToolkitFrames(width: w, height: h)
    let picture = Image(width: 8, height: 8, color: .white)
    let emitter = EmitterLayer()
    let cell = EmitterCell()
    cell.contents = picture
    cell.birthRate = 2500
    cell.lifetime = 2
    cell.velocity = 200
    cell.velocityRange = 60
    cell.emissionRange = .pi
    cell.yAcceleration = 60
    cell.spin = 2
    cell.spinRange = 2
    cell.scale = 1
    cell.scaleRange = 0.3
    cell.color = Color(red: 1, green: 0.7, blue: 0.3, alpha: 0.8)
    Transaction.withoutActions {
        emitter.frame = toolkit.root.bounds
        emitter.emitterPosition = Point(x: Double(w) / 2, y: Double(h) / 2)
        emitter.emitterCells = [cell]
        toolkit.root.addSublayer(emitter)
    }
    PresentationHosts.attach(toolkit.root)
    defer { PresentationHosts.detach(toolkit.root) }
    Transaction.flush()

    // The hand-written system: the same births (2,500 a second, 2 s), motion and drawing.
    struct Mote { var x, y, vx, vy, angle, spin, scale, born: Double }
    var motes: [Mote] = []
    motes.reserveCapacity(6000)
    var seed: UInt64 = 0x1234_5678
    func random() -> Double {
        seed = seed &* 6364136223846793005 &+ 1442695040888963407
        return Double(seed >> 11) / Double(1 << 53)
    }
    let reference = ReferenceRenderer(width: w, height: h)
    // pixman keeps the pointer: pixels of its own, alive as long as the image.
    let maskPixels = UnsafeMutablePointer<UInt32>.allocate(capacity: picture.pixels.count)
    maskPixels.initialize(from: picture.pixels, count: picture.pixels.count)
    defer { maskPixels.deallocate() }
    let maskImage = pixman_image_create_bits(PIXMAN_a8r8g8b8, 8, 8, maskPixels, 32)!
    pixman_image_set_filter(maskImage, PIXMAN_FILTER_BILINEAR, nil, 0)
    defer { pixman_image_unref(maskImage) }
    var clockTime = 0.0, births = 0.0
    func stepReference(_ dt: Double) {
        clockTime += dt
        births += 2500 * dt
        while births >= 1 {
            births -= 1
            // A direction over the whole sphere, seen from the front.
            let z = random() * 2 - 1, a = random() * 2 * .pi, r = (1 - z * z).squareRoot()
            let speed = 200 + 60 * (random() * 2 - 1)
            motes.append(Mote(x: Double(w) / 2, y: Double(h) / 2, vx: speed * r * cos(a), vy: speed * r * sin(a), angle: 0,
                              spin: 2 + 2 * (random() * 2 - 1), scale: 1 + 0.3 * (random() * 2 - 1), born: clockTime))
        }
        motes.removeAll { clockTime - $0.born >= 2 }
        reference.fillBlack()
        var colour = pixman_color_t(red: 0xcccc, green: 0x8f5c, blue: 0x3d71, alpha: 0xcccc)
        for i in motes.indices {
            motes[i].vy += 60 * dt
            motes[i].x += motes[i].vx * dt
            motes[i].y += motes[i].vy * dt
            motes[i].angle += motes[i].spin * dt
            let m = motes[i]
            let (c, s) = (cos(m.angle) / m.scale, sin(m.angle) / m.scale)
            // device → picture: about the particle's centre, turned back and scaled.
            var t = pixman_transform_t()
            t.matrix.0 = (pixman_fixed_t(c * 65536), pixman_fixed_t(s * 65536), pixman_fixed_t((4 - c * m.x - s * m.y) * 65536))
            t.matrix.1 = (pixman_fixed_t(-s * 65536), pixman_fixed_t(c * 65536), pixman_fixed_t((4 + s * m.x - c * m.y) * 65536))
            t.matrix.2 = (0, 0, 65536)
            pixman_image_set_transform(maskImage, &t)
            let reach = 6 * m.scale
            let x0 = max(0, Int(m.x - reach)), y0 = max(0, Int(m.y - reach))
            let x1 = min(w, Int(m.x + reach) + 1), y1 = min(h, Int(m.y + reach) + 1)
            guard x1 > x0, y1 > y0 else { continue }
            let solid = pixman_image_create_solid_fill(&colour)
            pixman_image_composite32(PIXMAN_OP_OVER, solid, maskImage, reference.image, 0, 0, Int32(x0), Int32(y0), Int32(x0), Int32(y0),
                                     Int32(x1 - x0), Int32(y1 - y0))
            pixman_image_unref(solid)
        }
    }

    var live: [Double] = []
    // Both systems run 2 s first, to fill up.
    for _ in 0..<120 { clock.now += 1.0 / 60; toolkit.frame(threads: toolkit.cores); stepReference(1.0 / 60) }
    let times = toolkit.race(frames, before: { _ in clock.now += 1.0 / 60 }, reference: { _ in stepReference(1.0 / 60) },
                             after: { _ in live.append(Double(emitter.particles(atTime: clock.now).count)) })
    var out = figures("R3 particles-5000", toolkit: times.all, oneThread: times.one, reference: times.reference, cores: toolkit.cores,
                      difference: -1)
    out.removeLast()   // the pictures differ (other random numbers): no pixel comparison
    out.append(Figure(scene: "R3 particles-5000", metric: "live particles, toolkit / hand-written", value: median(live), unit: "/ \(motes.count)",
                      repetitions: frames))
    return out
}
