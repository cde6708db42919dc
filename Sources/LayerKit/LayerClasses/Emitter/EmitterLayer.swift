/// Where an emitter's particles are born (`CAEmitterLayerEmitterShape`), about
/// `emitterPosition`, sized by `emitterSize`.
public enum EmitterShape: String, Hashable, Sendable {
    case point
    /// Along x, `emitterSize.width` long.
    case line
    case rectangle
    /// `emitterSize.width` across.
    case circle
    /// A sphere `emitterSize.width` across, seen from the front: as a circle.
    case sphere
}

/// Which part of the shape emits (`CAEmitterLayerEmitterMode`).
public enum EmitterMode: String, Hashable, Sendable {
    /// Its corners (a point's point, a line's ends, a rectangle's corners, a circle's centre).
    case points
    case outline
    case surface
    /// Seen from the front, as `surface`.
    case volume
}

/// The order particles are drawn in (`CAEmitterLayerRenderMode`).
public enum EmitterRenderMode: String, Hashable, Sendable {
    /// Oldest first: the newest on top.
    case unordered
    case oldestFirst
    case oldestLast
    /// By depth: as `unordered`, particles being flat.
    case backToFront
    /// Colours added together (light), in any order.
    case additive
}

/// A layer that emits particles (`CAEmitterLayer`), simulated against media time:
/// which particles are alive at a time, and where, follows from the `seed`, the
/// cells and the time alone — a paused or manual clock shows the same particles
/// at the same time, and two runs with the same seed draw the same pixels.
///
/// Emission starts when the cells are committed (with the layer's own clock,
/// below), or when first asked for particles if that is earlier than a commit.
/// Births are counted on a fixed grid of 1/240 s, so an animated `birthRate` (the
/// layer's, or a cell's by key path: `emitterCells.spark.birthRate`) changes how
/// many are born from then on, never the particles already out. A particle keeps
/// what it was born with — its cell's values, the layer's multipliers, the point it
/// left from — so a change to a cell (or a moving `emitterPosition`) reaches the
/// particles born after it, as in Core Animation. Positions are in the layer's
/// coordinates, projected on its plane (depth is not kept).
///
/// Budget: at most ``maximumParticles`` live at once per emitter; births beyond
/// are dropped. A lifetime of ∞ lives as long as the budget allows; birth rates
/// of 10⁹ fill the budget at once. A cell with NaN or ∞ in it emits nothing.
/// Going back in time (a clock set back) starts the emission over from its start.
@MainActor
public final class EmitterLayer: Layer {
    public static let maximumParticles = 100_000
    /// Cells nested deeper than this emit nothing.
    public static let maximumCellDepth = 4

    public var emitterCells: [EmitterCell]? {
        get { emitter.cells }
        set {
            // (Cells compare by identity: new copies always count as a change.)
            changeStored("emitterCells", \EmitterLayer.emitter, \.cells, newValue.map { $0.map { $0.copy() } })
            keepsTimeFlowing()
        }
    }
    public var emitterPosition: Point {
        get { emitter.position }
        set { changeStored("emitterPosition", \EmitterLayer.emitter, \.position, newValue) }
    }
    public var emitterSize: Size {
        get { emitter.size }
        set { changeStored("emitterSize", \EmitterLayer.emitter, \.size, newValue) }
    }
    public var emitterShape: EmitterShape {
        get { emitter.shape }
        set { changeStored("emitterShape", \EmitterLayer.emitter, \.shape, newValue) }
    }
    public var emitterMode: EmitterMode {
        get { emitter.mode }
        set { changeStored("emitterMode", \EmitterLayer.emitter, \.mode, newValue) }
    }
    public var renderMode: EmitterRenderMode {
        get { emitter.renderMode }
        set { changeStored("renderMode", \EmitterLayer.emitter, \.renderMode, newValue) }
    }
    /// Multiplies every cell's. Animatable.
    public var birthRate: Double {
        get { emitter.birthRate }
        set { changeStored("birthRate", \EmitterLayer.emitter, \.birthRate, newValue) }
    }
    /// Multiplies every cell's. Animatable.
    public var lifetime: Double {
        get { emitter.lifetime }
        set { changeStored("lifetime", \EmitterLayer.emitter, \.lifetime, newValue) }
    }
    /// Multiplies every cell's. Animatable.
    public var velocity: Double {
        get { emitter.velocity }
        set { changeStored("velocity", \EmitterLayer.emitter, \.velocity, newValue) }
    }
    /// Multiplies every cell's. Animatable.
    public var scale: Double {
        get { emitter.scale }
        set { changeStored("scale", \EmitterLayer.emitter, \.scale, newValue) }
    }
    /// Multiplies every cell's. Animatable.
    public var spin: Double {
        get { emitter.spin }
        set { changeStored("spin", \EmitterLayer.emitter, \.spin, newValue) }
    }
    /// The seed of every particle's random values.
    public var seed: UInt32 {
        get { emitter.seed }
        set { changeStored("seed", \EmitterLayer.emitter, \.seed, newValue) }
    }

    struct EmitterState {
        var cells: [EmitterCell]?
        var position = Point.zero
        var size = Size.zero
        var shape = EmitterShape.point
        var mode = EmitterMode.volume
        var renderMode = EmitterRenderMode.unordered
        var birthRate = 1.0, lifetime = 1.0, velocity = 1.0, scale = 1.0, spin = 1.0
        var seed: UInt32 = 0
    }

    var emitter = EmitterState()
    /// The births so far (the model's; a presentation copy asks its model).
    let simulation = EmitterSimulation()

    public required init() { super.init() }

    public required init(layer: Layer) {
        if let e = layer as? EmitterLayer {
            emitter = e.emitter
            // A presentation copy's cells are its own: animations write into them.
            emitter.cells = e.emitter.cells?.map { $0.copy() }
        }
        super.init(layer: layer)
    }

    /// An emitter changes with time by itself: while it has cells, an animation of
    /// its own (anonymous, adding 0 to `birthRate`, forever) keeps frames coming and
    /// its presentation made each frame, as any animation does.
    private func keepsTimeFlowing() {
        guard !isPresentationCopy else { return }
        let clock = animationEntries.first { $0.animation is EmissionClock }
        if emitter.cells?.isEmpty ?? true {
            if let clock { remove(clock, finished: true) }
        } else if clock == nil {
            add(EmissionClock(), forKey: nil)
        }
    }

    /// The particles alive at `time` (root media time), in drawing order.
    public func particles(atTime time: Double) -> [Particle] {
        let model = (modelLayer as? EmitterLayer) ?? self
        return model.simulation.particles(of: model, atTime: time)
    }

    /// Everything the particles alive at `time` cover, in the layer's coordinates
    /// (each as the circle its turning picture sweeps); nil when none is drawn.
    public func particleExtent(atTime time: Double) -> Rect? {
        let model = (modelLayer as? EmitterLayer) ?? self
        return model.simulation.extent(of: model, atTime: time)
    }

    private static let emitterProperties = PropertyDescriptor.layerProperties(adding: [
            .stored("emitterCells", \EmitterLayer.emitterCells, animatable: false),
            .stored("emitterPosition", \EmitterLayer.emitterPosition, animatable: true),
            .stored("emitterSize", \EmitterLayer.emitterSize, animatable: true),
            .stored("emitterShape", \EmitterLayer.emitterShape, animatable: false),
            .stored("emitterMode", \EmitterLayer.emitterMode, animatable: false),
            .stored("renderMode", \EmitterLayer.renderMode, animatable: false),
            .stored("birthRate", \EmitterLayer.birthRate, animatable: true),
            .stored("lifetime", \EmitterLayer.lifetime, animatable: true),
            .stored("velocity", \EmitterLayer.velocity, animatable: true),
            .stored("scale", \EmitterLayer.scale, animatable: true),
            .stored("spin", \EmitterLayer.spin, animatable: true),
            .stored("seed", \EmitterLayer.seed, animatable: false),
    ])

    public override class var propertyDescriptors: [String: PropertyDescriptor] { emitterProperties }
}

/// The emitter's own animation: changes nothing, lasts forever.
final class EmissionClock: BasicAnimation {
    init() {
        super.init(keyPath: "birthRate")
        isAdditive = true
        fromValue = 0.0
        toValue = 0.0
        duration = 1
        repeatCount = .infinity
    }

    required init(copying other: Animation) { super.init(copying: other) }
}

/// One live particle at a time: where (layer coordinates), how large, turned how
/// far, in which colour (straight, clamped), drawn with which image.
public struct Particle: Sendable {
    public var position: Point
    public var scale: Double
    public var angle: Double
    public var color: Color
    public var contents: Image?
    public var contentsScale: Double
    /// Seconds since it was born.
    public var age: Double
}
