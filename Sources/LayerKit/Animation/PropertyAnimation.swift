/// An animation of one property, named by key path (`CAPropertyAnimation`).
@MainActor
open class PropertyAnimation: Animation {
    /// The animated property: `"opacity"`, `"position.x"`, `"transform.rotation.z"`,
    /// or a custom property's key (rule E11).
    public var keyPath: String?
    /// The value is added to the property's value rather than replacing it.
    public var isAdditive = false
    /// Each repeat builds on the end value of the previous one.
    public var isCumulative = false

    public init(keyPath: String?) {
        self.keyPath = keyPath
        super.init()
    }

    public required init(copying other: Animation) {
        if let o = other as? PropertyAnimation {
            keyPath = o.keyPath
            isAdditive = o.isAdditive
            isCumulative = o.isCumulative
        }
        super.init(copying: other)
    }

    override func problem(for layer: Layer) -> LayerKitDiagnostic? {
        valueProblem(for: layer, checkingTypes: true)
    }

    /// The check of the key path and values; `checkingTypes` false when the values
    /// are known to be of the property's type (made from the layer's own).
    func valueProblem(for layer: Layer, checkingTypes: Bool) -> LayerKitDiagnostic? {
        guard let keyPath, !keyPath.isEmpty else { return .missingKeyPath }
        let values = animationValues
        guard !values.isEmpty else { return nil }
        let current = checkingTypes ? layer.value(forKeyPath: keyPath) : nil   // what every value must match
        for raw in values {
            let value = AnyValue.normalized(raw)!
            if checkingTypes, let problem = typeProblem(value, current: current, keyPath: keyPath, layer: layer) { return problem }
            // A value refused on the model is refused in an animation too.
            if !AnyValue.isFinite(value) {
                return .invalidValue(key: keyPath, reason: "not finite in the animation: \(raw); not added")
            }
            if !isAdditive, let length = value as? Double, length < 0, Layer.nonNegativeKeys.contains(keyPath) {
                return .invalidValue(key: keyPath, reason: "negative in the animation: \(length); not added")
            }
        }
        // Finite values whose sums or differences are not (1e305 by 1.8e308): the
        // ends the animation works out from them, and every value between, would
        // be ∞ or NaN. (Between neighbours: what interpolation works with; the first
        // and last: what a cumulative repeat adds.) Animations the toolkit makes
        // from a layer's own values (a view block's: 2,000 for 1,000 views) skip it;
        // the sums they show are checked as they are shown.
        guard checkingTypes else { return nil }
        let given = values.map { AnyValue.normalized($0)! }
        let ends = (current.map { [$0] } ?? []) + given
        var pairs = Array(zip(ends, ends.dropFirst()))
        if isCumulative, given.count > 1, let first = given.first, let last = given.last { pairs.append((first, last)) }
        for (a, b) in pairs where AnyValue.sameType(a, b) {
            for result in [AnyValue.add(a, b), AnyValue.subtract(b, a)] where !AnyValue.isFinite(result) {
                return .invalidValue(key: keyPath, reason: "values \(a) and \(b) are finite but their sum or difference is not; not added")
            }
        }
        return nil
    }

    /// The values the animation was given, to check against the property's type.
    var animationValues: [Any] { [] }

    /// Whether `value` (normalized) is of the type the property at `keyPath` holds
    /// on `layer` (`current`: its value there, if it has one), when known.
    func typeProblem(_ value: Any, current: Any?, keyPath: String, layer: Layer) -> LayerKitDiagnostic? {
        if let current {
            if AnyValue.sameType(current, value) || (current is Layer && value is Layer) { return nil }
            return .typeMismatch(keyPath: keyPath, expected: AnyValue.typeName(current), got: AnyValue.typeName(value))
        }
        if let d = type(of: layer).propertyDescriptors[keyPath] {
            return d.accepts(value) ? nil
                : .typeMismatch(keyPath: keyPath, expected: String(describing: d.valueType), got: AnyValue.typeName(value))
        }
        return nil
    }

    /// The eased progress for a fraction of a cycle.
    func eased(_ fraction: Double) -> Double {
        timingFunction?.value(at: fraction) ?? fraction
    }

    /// Combines an animated value with the accumulated one, for additive animations.
    func combine(_ value: Any, base: Any?) -> Any {
        guard isAdditive, let base else { return value }
        if let b = base as? Color?, let v = value as? Color { return (b ?? .clear).adding(v) }
        return AnyValue.add(base, value) ?? value
    }
}
