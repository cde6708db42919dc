/// A property reachable by key: its Core Animation key, its value type, whether
/// changing it animates implicitly (rule B2), and how to read and write it.
///
/// `write` sets the stored value and nothing else; on a model layer,
/// `setValue(_:forKey:)` wraps it in the action machinery.
@MainActor
public struct PropertyDescriptor {
    public let key: String
    public let valueType: Any.Type
    public let isOptional: Bool
    public let isImplicitlyAnimatable: Bool
    /// True when a (non-nil) value is of the property's type.
    public let accepts: @Sendable (Any) -> Bool
    public let read: @MainActor (Layer) -> Any?
    /// Returns false when the value is not of `valueType`.
    public let write: @MainActor (Layer, Any?) -> Bool
    /// Where the value lives in ``LayerState``, for `Layer`'s own properties that
    /// typed tracks animate (`TypedTrack`).
    var slot: StateSlot?

    public init(key: String, valueType: Any.Type, isOptional: Bool, isImplicitlyAnimatable: Bool,
                accepts: @escaping @Sendable (Any) -> Bool,
                read: @escaping @MainActor (Layer) -> Any?, write: @escaping @MainActor (Layer, Any?) -> Bool) {
        self.key = key
        self.valueType = valueType
        self.isOptional = isOptional
        self.isImplicitlyAnimatable = isImplicitlyAnimatable
        self.accepts = accepts
        self.read = read
        self.write = write
    }

    /// A descriptor for a stored property of a layer class `L`.
    public static func stored<L: Layer, T>(_ key: String, _ path: ReferenceWritableKeyPath<L, T>, animatable: Bool) -> PropertyDescriptor {
        PropertyDescriptor(key: key, valueType: T.self, isOptional: false, isImplicitlyAnimatable: animatable,
                           accepts: { $0 is T },
                           read: { ($0 as? L)?[keyPath: path] },
                           write: { layer, value in
                               guard let l = layer as? L, let v = (value as? T) ?? (AnyValue.normalized(value) as? T) else { return false }
                               l[keyPath: path] = v
                               return true
                           })
    }

    /// A descriptor for an optional stored property of a layer class `L`; nil clears it.
    public static func stored<L: Layer, T>(_ key: String, _ path: ReferenceWritableKeyPath<L, T?>, animatable: Bool) -> PropertyDescriptor {
        PropertyDescriptor(key: key, valueType: T.self, isOptional: true, isImplicitlyAnimatable: animatable,
                           accepts: { $0 is T },
                           read: { ($0 as? L)?[keyPath: path] as Any? },
                           write: { layer, value in
                               guard let l = layer as? L else { return false }
                               guard let value = value.flatMap(AnyValue.normalized) else { l[keyPath: path] = nil; return true }
                               guard let v = value as? T else { return false }
                               l[keyPath: path] = v
                               return true
                           })
    }

    private static func state<T>(_ key: String, _ path: WritableKeyPath<LayerState, T>, animatable: Bool = true) -> PropertyDescriptor {
        var d = PropertyDescriptor(key: key, valueType: T.self, isOptional: false, isImplicitlyAnimatable: animatable,
                                   accepts: { $0 is T },
                                   read: { $0.state[keyPath: path] },
                                   write: { layer, value in
                                       guard let v = (value as? T) ?? (AnyValue.normalized(value) as? T) else { return false }
                                       layer.state[keyPath: path] = v
                                       return true
                                   })
        d.slot = StateSlot.named[key]
        return d
    }

    private static func state<T>(_ key: String, _ path: WritableKeyPath<LayerState, T?>, animatable: Bool = true) -> PropertyDescriptor {
        PropertyDescriptor(key: key, valueType: T.self, isOptional: true, isImplicitlyAnimatable: animatable,
                           accepts: { $0 is T },
                           read: { $0.state[keyPath: path] as Any? },
                           write: { layer, value in
                               guard let value = value.flatMap(AnyValue.normalized) else { layer.state[keyPath: path] = nil; return true }
                               guard let v = value as? T else { return false }
                               layer.state[keyPath: path] = v
                               return true
                           })
    }

    /// `Layer`'s properties and those a subclass adds (`own`), by key: a layer
    /// class's `propertyDescriptors`.
    public static func layerProperties(adding own: [PropertyDescriptor]) -> [String: PropertyDescriptor] {
        var table = layerProperties
        for d in own { table[d.key] = d }
        return table
    }

    /// `mask`: stored like the others, and linked to its owner (`Layer.maskDidChange`).
    private static let maskProperty: PropertyDescriptor = {
        let stored = state("mask", \.mask)
        return PropertyDescriptor(key: "mask", valueType: Layer.self, isOptional: true, isImplicitlyAnimatable: true,
                                  accepts: stored.accepts, read: stored.read,
                                  write: { layer, value in
                                      let old = layer.state.mask
                                      guard stored.write(layer, value) else { return false }
                                      layer.maskDidChange(from: old)
                                      return true
                                  })
    }()

    /// `Layer`'s own properties, keyed by Core Animation key (`"hidden"` for `isHidden`).
    static let layerProperties: [String: PropertyDescriptor] = {
        let list: [PropertyDescriptor] = [
            state("bounds", \.bounds), state("position", \.position), state("anchorPoint", \.anchorPoint),
            state("anchorPointZ", \.anchorPointZ), state("zPosition", \.zPosition),
            state("transform", \.transform), state("sublayerTransform", \.sublayerTransform),
            state("opacity", \.opacity), state("hidden", \.isHidden), state("backgroundColor", \.backgroundColor),
            state("cornerRadius", \.cornerRadius), state("borderWidth", \.borderWidth), state("borderColor", \.borderColor),
            state("masksToBounds", \.masksToBounds), maskProperty,
            state("doubleSided", \.isDoubleSided, animatable: false),
            state("contents", \.contents), state("contentsRect", \.contentsRect), state("contentsCenter", \.contentsCenter),
            state("contentsGravity", \.contentsGravity, animatable: false), state("contentsScale", \.contentsScale, animatable: false),
            state("minificationFilter", \.minificationFilter, animatable: false),
            state("magnificationFilter", \.magnificationFilter, animatable: false),
            state("shouldRasterize", \.shouldRasterize, animatable: false),
            state("allowsGroupOpacity", \.allowsGroupOpacity, animatable: false),
            state("edgeAntialiasingMask", \.edgeAntialiasingMask, animatable: false),
            state("rasterizationScale", \.rasterizationScale, animatable: false),
            state("shadowColor", \.shadowColor), state("shadowOpacity", \.shadowOpacity), state("shadowOffset", \.shadowOffset),
            state("shadowRadius", \.shadowRadius), state("shadowPath", \.shadowPath),
            state("beginTime", \.beginTime, animatable: false), state("speed", \.speed, animatable: false),
            state("timeOffset", \.timeOffset, animatable: false), state("name", \.name, animatable: false),
        ]
        return Dictionary(uniqueKeysWithValues: list.map { ($0.key, $0) })
    }()
}
