import Glibc

/// An emitter's births, counted from the start of its emission: each cell's count
/// grows at its rate, and a birth happens each time it passes a whole number —
/// worked out in closed form over every stretch of constant rate, so a long jump of
/// the clock costs nothing per second of it. While an animation of the layer runs
/// (its `birthRate`, a cell's by key path), the rates are the presentation's,
/// sampled on a fixed grid of 1/240 s, each tick a stretch of its own. Only the
/// births still alive are kept, each with what it was born with: its cell's values,
/// the layer's multipliers and the point it left from (as Core Animation's
/// particles keep theirs: a later change to a cell reaches new particles only). A
/// particle's random values follow from its cell, its birth index and the seed
/// (`ParticleRandom`), and its motion from its age: a frame at a time shows what
/// the counts say, whatever frames came before.
@MainActor
final class EmitterSimulation {
    static let tick = 1.0 / 240
    /// Ticks sampled from the presentation, at most, in one call; earlier ones (a
    /// long jump of the clock) are counted at the model's rates.
    static let presentationTicks = 240 * 10

    /// The layer's values a particle multiplies its cell's by.
    struct Multipliers {
        var birthRate, lifetime, velocity, scale, spin: Double

        init(_ e: EmitterLayer.EmitterState) {
            (birthRate, lifetime, velocity, scale, spin) = (e.birthRate, e.lifetime, e.velocity, e.scale, e.spin)
        }
    }

    /// A particle as born: when, its random values, its cell then, the layer's
    /// multipliers then, where it left from, and how long it can live at most.
    struct Birth {
        let time: Double
        let key: ParticleRandom
        let cell: EmitterCell
        let layer: Multipliers
        let origin: Point
        let longest: Double
    }

    /// One cell's count: `count` at `time`, growing at `rate` since; births so far.
    private struct Count {
        var time: Double
        var count = 0.0
        var rate = 0.0
        var born = 0
        var births: [Birth] = []

        func count(at t: Double) -> Double { count + rate * (t - time) }
    }

    private var start: Double?
    /// The time the counts have reached.
    private var reached = -Double.infinity
    private var counts: [Count] = []
    private var cached: (time: Double, particles: [Particle], extent: Rect??)?

    /// Everything the particles at `t` cover (each as the circle its turning picture
    /// sweeps), in the layer's coordinates; nil when none is drawn. Worked out once a
    /// time: the damage pass and the display list both ask.
    func extent(of layer: EmitterLayer, atTime t: Double) -> Rect? {
        let particles = self.particles(of: layer, atTime: t)
        if let known = cached?.extent { return known }
        var box: Rect?
        for p in particles {
            guard let image = p.contents else { continue }
            let reach = Double(max(image.width, image.height)) * p.scale / max(p.contentsScale, 0.0001) * 0.7072
            let r = Rect(x: p.position.x - reach, y: p.position.y - reach, width: 2 * reach, height: 2 * reach)
            box = box.map { $0.union(r) } ?? r
        }
        cached?.extent = .some(box)
        return box
    }

    func particles(of layer: EmitterLayer, atTime t: Double) -> [Particle] {
        if let cached, cached.time == t { return cached.particles }
        let cells = layer.emitter.cells ?? []
        if start == nil {
            // The emission began when its clock did (committed with the cells), or now.
            let clock = layer.animationEntries.first { $0.animation is EmissionClock && $0.isCommitted }
            start = clock.map { layer.rootTime(fromLocal: $0.timing.beginTime) }.flatMap { $0.isFinite ? $0 : nil } ?? t
        }
        let start = self.start!
        // Cells added or taken away, or the clock set back: the emission starts over.
        if cells.count != counts.count || t < reached {
            counts = cells.map { _ in Count(time: start) }
            reached = start
        }
        if t > reached { advance(layer, cells, to: t) }
        let particles = Self.particles(layer, cells, counts.map(\.births), atTime: t)
        cached = (t, particles, nil)
        return particles
    }

    /// Counts births from `reached` to `t`.
    private func advance(_ layer: EmitterLayer, _ cells: [EmitterCell], to t: Double) {
        let modelRates = cells.map { Self.rate(of: $0, in: layer) }
        var live = counts.reduce(0) { $0 + $1.births.count }
        if Self.animatesRates(layer) {
            // Up to the sampled stretch, at the model's rates in one step.
            let sampledFrom = start! + ((t - start!) / Self.tick - Double(Self.presentationTicks)).rounded(.down) * Self.tick
            if sampledFrom > reached {
                for c in cells.indices { Self.count(&counts[c], c, cells[c], layer.emitter, rate: modelRates[c], from: reached, to: sampledFrom, live: &live) }
                reached = sampledFrom
            }
            var tickStart = start! + ((reached - start!) / Self.tick).rounded(.down) * Self.tick
            while reached < t {
                let tickEnd = min(t, tickStart + Self.tick)
                let p = layer.presentation(atTime: max(tickStart, reached))
                let shown = p.emitter.cells ?? []
                for c in cells.indices {
                    let cell = shown.count == cells.count ? shown[c] : cells[c]
                    Self.count(&counts[c], c, cell, p.emitter, rate: Self.rate(of: cell, in: p), from: reached, to: tickEnd, live: &live)
                }
                reached = tickEnd
                tickStart += Self.tick
            }
        } else {
            for c in cells.indices { Self.count(&counts[c], c, cells[c], layer.emitter, rate: modelRates[c], from: reached, to: t, live: &live) }
            reached = t
        }
        prune(now: t)
    }

    /// The births of cell `c` from `reached` to `t` at `rate`, of `cell` under the
    /// layer's values `e`: those that can still be alive at `t` are kept (while the
    /// budget lasts), the others only counted. (In place: a copy of the count would
    /// copy its births.)
    private static func count(_ k: inout Count, _ c: Int, _ cell: EmitterCell, _ e: EmitterLayer.EmitterState, rate: Double,
                              from reached: Double, to t: Double, live: inout Int) {
        if rate != k.rate {   // a new stretch from where the count is
            k.count = k.count(at: reached)
            k.time = reached
            k.rate = rate
        }
        let total = k.count(at: t)
        guard rate > 0, total.isFinite else { k.time = t; k.count = total.isFinite ? total : k.count; return }
        let last = Int(min(total.rounded(.down), 9e15))
        // The first birth that can be alive at `t`.
        let multipliers = Multipliers(e)
        let longest = longestLife(cell, multipliers)
        var m = k.born + 1
        if longest.isFinite { m = max(m, Int(min(9e15, max(0, k.count(at: t - longest - Self.tick)).rounded(.down)))) }
        while m <= last, live < EmitterLayer.maximumParticles {
            let key = ParticleRandom(seed: e.seed, path: [UInt64(c)], index: m - 1)
            k.births.append(Birth(time: k.time + (Double(m) - k.count) / rate, key: key, cell: cell, layer: multipliers,
                                  origin: emissionPoint(e, key), longest: longest))
            live += 1
            m += 1
        }
        k.born = max(k.born, last)
    }

    /// Births that cannot be alive at `now` are let go.
    private func prune(now: Double) {
        for c in counts.indices { counts[c].births.removeAll { !(now - $0.time < $0.longest) } }
    }

    /// True when an animation runs on the layer's `birthRate` or on its cells (their rates).
    static func animatesRates(_ layer: EmitterLayer) -> Bool {
        func affects(_ a: Animation) -> Bool {
            if let group = a as? AnimationGroup { return group.animations?.contains(where: affects) ?? false }
            guard !(a is EmissionClock), let path = (a as? PropertyAnimation)?.keyPath else { return false }
            return path == "birthRate" || path.hasPrefix("emitterCells")
        }
        return layer.animationEntries.contains { $0.isKeptAsTrack ? $0.key == "birthRate" : affects($0.animation) }
    }

    static func rate(of cell: EmitterCell, in layer: EmitterLayer) -> Double {
        guard cell.isEnabled, cell.isFinite else { return 0 }
        let r = cell.birthRate * layer.emitter.birthRate
        return r.isFinite && r > 0 ? r : 0
    }

    /// The longest a particle of `cell` lives (a cell's range either way).
    static func longestLife(_ cell: EmitterCell, _ e: Multipliers) -> Double {
        max(0, (cell.lifetime + abs(cell.lifetimeRange)) * e.lifetime)
    }

    /// The live particles of every cell (and of the cells they emit), in drawing order.
    private static func particles(_ layer: EmitterLayer, _ cells: [EmitterCell], _ births: [[Birth]], atTime t: Double) -> [Particle] {
        var out: [(birth: Double, particle: Particle)] = []
        let e = layer.emitter
        for c in cells.indices {
            // (Only cells with finite values have births: `rate(of:in:)` is 0 for the others.)
            for b in births[c] where b.time <= t {
                emit(b.cell, b.layer, b.key, origin: b.origin, born: b.time, at: t, depth: 1, into: &out)
                if out.count >= EmitterLayer.maximumParticles { break }
            }
        }
        switch e.renderMode {
        case .oldestLast: out.sort { $0.birth > $1.birth }
        default: out.sort { $0.birth < $1.birth }
        }
        return out.map(\.particle)
    }

    /// One particle of `cell` born at `born` from `origin`, if alive at `t`, and the particles it has emitted.
    private static func emit(_ cell: EmitterCell, _ e: Multipliers, _ key: ParticleRandom, origin: Point, born: Double,
                             at t: Double, depth: Int, into out: inout [(birth: Double, particle: Particle)]) {
        let life = max(0, (cell.lifetime + cell.lifetimeRange * key.signed(0)) * e.lifetime)
        let age = t - born
        guard age >= 0, out.count < EmitterLayer.maximumParticles else { return }
        // The direction: within `emissionRange` of the axis, uniformly over the cone's cap.
        let lon = cell.emissionLongitude, lat = cell.emissionLatitude
        let axis = (x: cos(lat) * cos(lon), y: cos(lat) * sin(lon), z: sin(lat))
        let range = min(.pi, abs(cell.emissionRange))
        let cosPhi = 1 - (1 - cos(range)) * key.unit(1), sinPhi = (1 - cosPhi * cosPhi).squareRoot()
        let around = 2 * .pi * key.unit(2)
        // Two directions across the axis.
        let helper = abs(axis.z) < 0.9 ? (x: 0.0, y: 0.0, z: 1.0) : (x: 1.0, y: 0.0, z: 0.0)
        var u = (x: axis.y * helper.z - axis.z * helper.y, y: axis.z * helper.x - axis.x * helper.z, z: axis.x * helper.y - axis.y * helper.x)
        let ul = (u.x * u.x + u.y * u.y + u.z * u.z).squareRoot()
        u = (u.x / ul, u.y / ul, u.z / ul)
        let v = (x: axis.y * u.z - axis.z * u.y, y: axis.z * u.x - axis.x * u.z)
        let dir = (x: axis.x * cosPhi + (u.x * cos(around) + v.x * sin(around)) * sinPhi,
                   y: axis.y * cosPhi + (u.y * cos(around) + v.y * sin(around)) * sinPhi)
        let speed = (cell.velocity + cell.velocityRange * key.signed(3)) * e.velocity
        func position(_ a: Double) -> Point {
            Point(x: origin.x + dir.x * speed * a + 0.5 * cell.xAcceleration * a * a,
                  y: origin.y + dir.y * speed * a + 0.5 * cell.yAcceleration * a * a)
        }
        if age < life {
            let scale = max(0, (cell.scale + cell.scaleRange * key.signed(4) + cell.scaleSpeed * age) * e.scale)
            let spin = (cell.spin + cell.spinRange * key.signed(5)) * e.spin
            func ch(_ v: Double, _ range: Double, _ speed: Double, _ k: Int) -> Double {
                min(1, max(0, v + range * key.signed(k) + speed * age))
            }
            let c = cell.color
            let color = Color(red: ch(c.red, cell.redRange, cell.redSpeed, 6), green: ch(c.green, cell.greenRange, cell.greenSpeed, 7),
                              blue: ch(c.blue, cell.blueRange, cell.blueSpeed, 8), alpha: ch(c.alpha, cell.alphaRange, cell.alphaSpeed, 9))
            out.append((born, Particle(position: position(age), scale: scale, angle: spin * age, color: color,
                                       contents: cell.contents, contentsScale: cell.contentsScale, age: age)))
        }
        // Its cells: births at a steady rate through its life, from where it was then.
        guard depth < EmitterLayer.maximumCellDepth, let subcells = cell.emitterCells else { return }
        for (s, sub) in subcells.enumerated() where sub.isEnabled && sub.isFinite {
            let rate = sub.birthRate * e.birthRate
            guard rate > 0, rate.isFinite else { continue }
            let end = min(t, born + life)
            let longest = longestLife(sub, e)
            let first = max(0, Int(((t - longest - born) * rate).rounded(.up)) - 1)
            var j = first
            while true {
                let when = born + Double(j + 1) / rate
                guard when <= end, out.count < EmitterLayer.maximumParticles else { break }
                emit(sub, e, key.child(UInt64(s), index: j), origin: position(when - born), born: when, at: t, depth: depth + 1, into: &out)
                j += 1
            }
        }
    }

    /// Where a particle is born, by the shape and mode.
    private static func emissionPoint(_ e: EmitterLayer.EmitterState, _ key: ParticleRandom) -> Point {
        let p = e.position, w = e.size.width, h = e.size.height
        let a = key.unit(10), b = key.unit(11)
        switch (e.shape, e.mode) {
        case (.point, _): return p
        case (.line, .points): return Point(x: p.x + (a < 0.5 ? -w / 2 : w / 2), y: p.y)
        case (.line, _): return Point(x: p.x + (a - 0.5) * w, y: p.y)
        case (.rectangle, .points):
            return Point(x: p.x + (a < 0.5 ? -w / 2 : w / 2), y: p.y + (b < 0.5 ? -h / 2 : h / 2))
        case (.rectangle, .outline):
            // A point along the perimeter.
            let along = a * 2 * (abs(w) + abs(h))
            if along < abs(w) { return Point(x: p.x - w / 2 + along, y: p.y - h / 2) }
            if along < abs(w) + abs(h) { return Point(x: p.x + w / 2, y: p.y - h / 2 + (along - abs(w))) }
            if along < 2 * abs(w) + abs(h) { return Point(x: p.x + w / 2 - (along - abs(w) - abs(h)), y: p.y + h / 2) }
            return Point(x: p.x - w / 2, y: p.y + h / 2 - (along - 2 * abs(w) - abs(h)))
        case (.rectangle, _): return Point(x: p.x + (a - 0.5) * w, y: p.y + (b - 0.5) * h)
        case (.circle, .points), (.sphere, .points): return p
        case (.circle, .outline), (.sphere, .outline):
            return Point(x: p.x + cos(2 * .pi * a) * w / 2, y: p.y + sin(2 * .pi * a) * w / 2)
        case (.circle, _), (.sphere, _):
            let r = b.squareRoot() * w / 2
            return Point(x: p.x + cos(2 * .pi * a) * r, y: p.y + sin(2 * .pi * a) * r)
        }
    }
}

/// A particle's random values: a hash of the seed, its cell's place, its birth
/// index and the value's number (SplitMix64 steps), the same on every run.
struct ParticleRandom {
    let state: UInt64

    init(seed: UInt32, path: [UInt64], index: Int) {
        var s = Self.mix(UInt64(seed) &+ 0x9E37_79B9_7F4A_7C15)
        for p in path { s = Self.mix(s ^ (p &+ 0x632B_E59B_D9B4_E019)) }
        state = Self.mix(s ^ UInt64(bitPattern: Int64(index)))
    }

    private init(state: UInt64) { self.state = state }

    func child(_ cell: UInt64, index: Int) -> ParticleRandom {
        ParticleRandom(state: Self.mix(Self.mix(state ^ (cell &+ 0xD1B5_4A32_D192_ED03)) ^ UInt64(bitPattern: Int64(index))))
    }

    /// 0…1.
    func unit(_ k: Int) -> Double {
        Double(Self.mix(state &+ UInt64(k) &* 0x9E37_79B9_7F4A_7C15) >> 11) / Double(1 << 53)
    }

    /// −1…1.
    func signed(_ k: Int) -> Double { unit(k) * 2 - 1 }

    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
