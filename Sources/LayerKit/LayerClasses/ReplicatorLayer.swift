/// A layer that draws its sublayers several times (`CAReplicatorLayer`): instance
/// k is instance k−1 moved by `instanceTransform` (about the centre of the
/// replicator's bounds), later in time by `instanceDelay`, and tinted by a colour
/// that starts at `instanceColor` and gains the four offsets per instance.
///
/// Instance 0 is the sublayers as they are. Copies are drawn, never made: no
/// layer is added to the tree, hit testing and the accessibility tree see the
/// sublayers once. Each copy shows the sublayers' animations `k · instanceDelay`
/// seconds earlier (a copy whose time comes before an animation's start shows the
/// value before it, as Core Animation does). The tint multiplies every colour
/// channel, alpha included, of what the copy draws; channels are clamped to 0…1.
///
/// At most ``maximumInstanceCount`` copies are drawn: a larger count is kept (it
/// reads back as set) with a diagnostic. A negative count is refused.
@MainActor
public final class ReplicatorLayer: Layer {
    /// Copies drawn at most, whatever `instanceCount` says (memory and time stay bounded).
    public static let maximumInstanceCount = 10_000

    /// How many copies, the sublayers themselves included (default 1). Not animatable.
    public var instanceCount: Int {
        get { replication.instanceCount }
        set {
            guard newValue >= 0 else {
                return Diagnostics.report(.invalidValue(key: "instanceCount", reason: "negative: \(newValue); kept \(replication.instanceCount)"))
            }
            if newValue > Self.maximumInstanceCount {
                Diagnostics.report(.invalidValue(key: "instanceCount",
                                                 reason: "\(newValue) copies: \(Self.maximumInstanceCount) are drawn"))
            }
            changeStored("instanceCount", \ReplicatorLayer.replication, \.instanceCount, newValue)
        }
    }
    /// The step from one copy to the next, about the centre of the bounds. Animatable.
    public var instanceTransform: Transform3D {
        get { replication.instanceTransform }
        set { changeStored("instanceTransform", \ReplicatorLayer.replication, \.instanceTransform, newValue) }
    }
    /// Seconds between one copy's time and the next's. Animatable.
    public var instanceDelay: Double {
        get { replication.instanceDelay }
        set { changeStored("instanceDelay", \ReplicatorLayer.replication, \.instanceDelay, newValue) }
    }
    /// The first copy's tint (default opaque white: no change). Animatable.
    public var instanceColor: Color? {
        get { replication.instanceColor }
        set { changeStored("instanceColor", \ReplicatorLayer.replication, \.instanceColor, newValue.map { FixedColor($0).color }) }
    }
    /// Added to the tint's red per copy. Animatable.
    public var instanceRedOffset: Double {
        get { replication.redOffset }
        set { changeStored("instanceRedOffset", \ReplicatorLayer.replication, \.redOffset, newValue) }
    }
    /// Added to the tint's green per copy. Animatable.
    public var instanceGreenOffset: Double {
        get { replication.greenOffset }
        set { changeStored("instanceGreenOffset", \ReplicatorLayer.replication, \.greenOffset, newValue) }
    }
    /// Added to the tint's blue per copy. Animatable.
    public var instanceBlueOffset: Double {
        get { replication.blueOffset }
        set { changeStored("instanceBlueOffset", \ReplicatorLayer.replication, \.blueOffset, newValue) }
    }
    /// Added to the tint's alpha per copy. Animatable.
    public var instanceAlphaOffset: Double {
        get { replication.alphaOffset }
        set { changeStored("instanceAlphaOffset", \ReplicatorLayer.replication, \.alphaOffset, newValue) }
    }
    /// Whether the copies keep their depth (as a transform layer's sublayers do)
    /// instead of being flattened into the replicator's plane. Not animatable.
    public var preservesDepth: Bool {
        get { replication.preservesDepth }
        set { changeStored("preservesDepth", \ReplicatorLayer.replication, \.preservesDepth, newValue) }
    }

    struct ReplicationState {
        var instanceCount = 1
        var instanceTransform = Transform3D.identity
        var instanceDelay = 0.0
        var instanceColor: Color? = .white
        var redOffset = 0.0, greenOffset = 0.0, blueOffset = 0.0, alphaOffset = 0.0
        var preservesDepth = false
    }

    var replication = ReplicationState()

    public required init() { super.init() }

    public required init(layer: Layer) {
        if let r = layer as? ReplicatorLayer { replication = r.replication }
        super.init(layer: layer)
    }

    /// One copy as drawn: its transform in the replicator's coordinates (applied
    /// after each sublayer's own), how far back in time it is, and its tint
    /// (straight components, clamped; nil for none).
    public struct Instance: Sendable {
        public let index: Int
        public let transform: Transform3D
        public let delay: Double
        public let tint: Color?
    }

    /// The copies drawn, in drawing order (instance 0 first, below the others).
    public var instances: [Instance] {
        let n = min(replication.instanceCount, Self.maximumInstanceCount)
        guard n > 0 else { return [] }
        let b = bounds
        let step = Transform3D(translationX: -b.midX, y: -b.midY, z: 0)
            .concatenating(replication.instanceTransform)
            .concatenating(Transform3D(translationX: b.midX, y: b.midY, z: 0))
        let base = replication.instanceColor ?? .white
        var out: [Instance] = []
        out.reserveCapacity(n)
        var transform = Transform3D.identity
        for k in 0..<n {
            let d = Double(k)
            func ch(_ v: Double, _ offset: Double) -> Double { min(1, max(0, v + d * offset)) }
            let tint = Color(red: ch(base.red, replication.redOffset), green: ch(base.green, replication.greenOffset),
                             blue: ch(base.blue, replication.blueOffset), alpha: ch(base.alpha, replication.alphaOffset))
            let plain = tint.red == 1 && tint.green == 1 && tint.blue == 1 && tint.alpha == 1
            out.append(Instance(index: k, transform: transform, delay: d * replication.instanceDelay, tint: plain ? nil : tint))
            transform = transform.concatenating(step)
        }
        return out
    }


    private static let replicatorProperties = PropertyDescriptor.layerProperties(adding: [
            .stored("instanceCount", \ReplicatorLayer.instanceCount, animatable: false),
            .stored("instanceTransform", \ReplicatorLayer.instanceTransform, animatable: true),
            .stored("instanceDelay", \ReplicatorLayer.instanceDelay, animatable: true),
            .stored("instanceColor", \ReplicatorLayer.instanceColor, animatable: true),
            .stored("instanceRedOffset", \ReplicatorLayer.instanceRedOffset, animatable: true),
            .stored("instanceGreenOffset", \ReplicatorLayer.instanceGreenOffset, animatable: true),
            .stored("instanceBlueOffset", \ReplicatorLayer.instanceBlueOffset, animatable: true),
            .stored("instanceAlphaOffset", \ReplicatorLayer.instanceAlphaOffset, animatable: true),
            .stored("preservesDepth", \ReplicatorLayer.preservesDepth, animatable: false),
    ])

    public override class var propertyDescriptors: [String: PropertyDescriptor] { replicatorProperties }
}
