/// One kind of particle an emitter layer sends out (`CAEmitterCell`): how many a
/// second, for how long, how fast and which way, how they grow, turn and change
/// colour, what they look like (`contents`), and the cells their particles emit
/// in turn (`emitterCells`).
///
/// A range is the most a particle's value differs from the cell's, either way,
/// drawn at random for each particle (from the emitter's `seed`); a speed is a
/// change per second of a particle's life. Angles are radians. Colour components
/// are clamped to 0…1 when drawn. A cell is a value inside its emitter: the
/// emitter keeps its own copies, so change a cell through the emitter
/// (`emitterCells`, or key paths such as `emitterCells.spark.birthRate`, which
/// animate).
public final class EmitterCell {
    /// The name key paths use (`emitterCells.NAME.birthRate`).
    public var name: String?
    /// Whether it emits (`isEnabled`).
    public var isEnabled = true
    /// The picture of a particle, drawn centred on it, one image pixel a point at
    /// scale 1 (`contentsScale`). Its alpha is the particle's shape, filled with
    /// the particle's colour: white images (the usual ones) look as in Core
    /// Animation. No contents: nothing is drawn (the particles still emit cells).
    public var contents: Image?
    public var contentsScale = 1.0
    /// Particles a second (times the layer's `birthRate`).
    public var birthRate = 0.0
    /// Seconds a particle lives (times the layer's `lifetime`), ± `lifetimeRange`.
    public var lifetime = 0.0, lifetimeRange = 0.0
    /// Points a second, ± `velocityRange` (times the layer's `velocity`).
    public var velocity = 0.0, velocityRange = 0.0
    /// The direction: longitude in the x–y plane from +x (clockwise on screen),
    /// latitude towards the viewer; particles leave within `emissionRange` of it
    /// (a cone; π or more: every direction). Seen from the front, a particle's
    /// speed on screen is its speed across the plane.
    public var emissionLongitude = 0.0, emissionLatitude = 0.0, emissionRange = 0.0
    /// Points a second², on screen.
    public var xAcceleration = 0.0, yAcceleration = 0.0
    /// Size of the contents (times the layer's `scale`), ± `scaleRange`, + `scaleSpeed` a second.
    public var scale = 1.0, scaleRange = 0.0, scaleSpeed = 0.0
    /// Turns a second (times the layer's `spin`), ± `spinRange`.
    public var spin = 0.0, spinRange = 0.0
    /// The colour (straight components), each ± its range, + its speed a second.
    public var color: Color = .white
    public var redRange = 0.0, greenRange = 0.0, blueRange = 0.0, alphaRange = 0.0
    public var redSpeed = 0.0, greenSpeed = 0.0, blueSpeed = 0.0, alphaSpeed = 0.0
    /// Cells whose particles each particle of this cell emits, from where it is.
    public var emitterCells: [EmitterCell]?

    public init() {}

    /// A deep copy: the cell and the cells under it.
    public func copy() -> EmitterCell {
        let c = EmitterCell()
        c.name = name; c.isEnabled = isEnabled; c.contents = contents; c.contentsScale = contentsScale
        c.birthRate = birthRate; c.lifetime = lifetime; c.lifetimeRange = lifetimeRange
        c.velocity = velocity; c.velocityRange = velocityRange
        c.emissionLongitude = emissionLongitude; c.emissionLatitude = emissionLatitude; c.emissionRange = emissionRange
        c.xAcceleration = xAcceleration; c.yAcceleration = yAcceleration
        c.scale = scale; c.scaleRange = scaleRange; c.scaleSpeed = scaleSpeed; c.spin = spin; c.spinRange = spinRange
        c.color = color
        (c.redRange, c.greenRange, c.blueRange, c.alphaRange) = (redRange, greenRange, blueRange, alphaRange)
        (c.redSpeed, c.greenSpeed, c.blueSpeed, c.alphaSpeed) = (redSpeed, greenSpeed, blueSpeed, alphaSpeed)
        c.emitterCells = emitterCells?.map { $0.copy() }
        return c
    }

    /// The numeric properties by key (what key paths reach), in one table.
    nonisolated(unsafe) static let numbers: [String: ReferenceWritableKeyPath<EmitterCell, Double>] = [
        "birthRate": \.birthRate, "lifetime": \.lifetime, "lifetimeRange": \.lifetimeRange,
        "velocity": \.velocity, "velocityRange": \.velocityRange,
        "emissionLongitude": \.emissionLongitude, "emissionLatitude": \.emissionLatitude, "emissionRange": \.emissionRange,
        "xAcceleration": \.xAcceleration, "yAcceleration": \.yAcceleration,
        "scale": \.scale, "scaleRange": \.scaleRange, "scaleSpeed": \.scaleSpeed, "spin": \.spin, "spinRange": \.spinRange,
        "redRange": \.redRange, "greenRange": \.greenRange, "blueRange": \.blueRange, "alphaRange": \.alphaRange,
        "redSpeed": \.redSpeed, "greenSpeed": \.greenSpeed, "blueSpeed": \.blueSpeed, "alphaSpeed": \.alphaSpeed,
        "contentsScale": \.contentsScale,
    ]

    /// True when every number is finite, but a lifetime of +∞ (a cell with NaN or
    /// another ∞ in it does not emit).
    var isFinite: Bool {
        Self.numbers.allSatisfy { key, path in self[keyPath: path].isFinite || (key == "lifetime" && lifetime == .infinity) }
            && [color.red, color.green, color.blue, color.alpha].allSatisfy(\.isFinite)
    }

    func value(forKey key: String) -> Any? {
        if let path = Self.numbers[key] { return self[keyPath: path] }
        switch key {
        case "color": return color
        case "enabled": return isEnabled
        case "name": return name
        default: return nil
        }
    }

    /// Sets a property by key; false when the key names nothing or the value is of the wrong type.
    func setValue(_ value: Any, forKey key: String) -> Bool {
        if let path = Self.numbers[key], let v = AnyValue.normalized(value) as? Double { self[keyPath: path] = v; return true }
        switch (key, value) {
        case ("color", let c as Color): color = c; return true
        case ("enabled", let b as Bool): isEnabled = b; return true
        default: return false
        }
    }
}

extension EmitterCell: Equatable {
    /// Cells are equal when they are the same object: an emitter's copies are its own.
    public static func == (a: EmitterCell, b: EmitterCell) -> Bool { a === b }
}

/// `emitterCells.NAME.KEY` (and `emitterCells.A.emitterCells.B.KEY`): the cell named
/// NAME, then its property. Setting makes new copies along the way: cells are values.
extension Array: KeyPathComponents where Element == EmitterCell {
    func value(at path: ArraySlice<String>) -> Any? {
        guard let name = path.first, let cell = first(where: { $0.name == name }) else { return nil }
        let rest = path.dropFirst()
        if rest.first == "emitterCells", rest.count > 1 { return (cell.emitterCells ?? []).value(at: rest.dropFirst()) }
        return rest.count == 1 ? cell.value(forKey: rest.first!) : nil
    }

    func setting(_ newValue: Any, at path: ArraySlice<String>) -> [EmitterCell]? {
        guard let name = path.first, let i = firstIndex(where: { $0.name == name }) else { return nil }
        let rest = path.dropFirst()
        let cell = self[i].copy()
        if rest.first == "emitterCells", rest.count > 1 {
            guard let below = (cell.emitterCells ?? []).setting(newValue, at: rest.dropFirst()) else { return nil }
            cell.emitterCells = below
        } else {
            guard rest.count == 1, cell.setValue(newValue, forKey: rest.first!) else { return nil }
        }
        var out = self
        out[i] = cell
        return out
    }
}
