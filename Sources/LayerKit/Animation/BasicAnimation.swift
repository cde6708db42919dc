/// A single-keyframe animation of a property from one value to another
/// (`CABasicAnimation`).
///
/// The endpoints follow Core Animation's rules (rule E2):
///
/// | set | animates |
/// | --- | --- |
/// | from, to | from → to |
/// | from, by | from → from + by |
/// | by, to | to − by → to |
/// | from | from → the model value |
/// | to | the presentation value when added → to |
/// | by | the presentation value when added → that + by |
/// | none | the presentation value when added → the model value |
///
/// With all three set, `byValue` is ignored. Values are the property's own type
/// (`Double`, `Point`, `Rect`, `Color`, `Transform3D`…); integers are taken as
/// `Double`. A value of another type keeps the animation from being added, with a
/// ``LayerKitDiagnostic/typeMismatch(keyPath:expected:got:)``.
@MainActor
open class BasicAnimation: PropertyAnimation {
    public var fromValue: Any?
    public var toValue: Any?
    public var byValue: Any?
    /// Made by the action search as the implicit animation (rule B1).
    var isImplicit = false
    /// The implicit animation's `fromValue` is the old value even when that is nil
    /// (no colour, no contents), so nothing is captured in its place.
    var fromValueIsExplicit: Bool { isImplicit }

    public override init(keyPath: String?) {
        super.init(keyPath: keyPath)
    }

    public required init(copying other: Animation) {
        if let o = other as? BasicAnimation {
            fromValue = o.fromValue
            toValue = o.toValue
            byValue = o.byValue
            isImplicit = o.isImplicit
        }
        super.init(copying: other)
    }

    override var animationValues: [Any] {
        var values: [Any] = []
        values.reserveCapacity(3)
        if let fromValue { values.append(fromValue) }
        if let toValue { values.append(toValue) }
        if let byValue { values.append(byValue) }
        return values
    }

    override func prepare(for layer: Layer, entry: AnimationEntry) {
        if isImplicit { return }   // both ends were set from the layer's own values
        fromValue = AnyValue.normalized(fromValue)
        toValue = AnyValue.normalized(toValue)
        byValue = AnyValue.normalized(byValue)
        guard fromValue == nil, !fromValueIsExplicit, !(byValue != nil && toValue != nil), let keyPath else { return }
        if isAdditive {
            // An additive animation's endpoints are offsets: a missing start is "no offset".
            if let end = toValue ?? byValue { entry.extras.capturedFrom = AnyValue.subtract(end, end) }
        } else {
            entry.extras.capturedFrom = layer.presentationValue(forKeyPath: keyPath)
        }
    }

    /// The start and end values, reading the model where the rules say so.
    func rawEndpoints(model: Layer, entry: AnimationEntry) -> (from: Any?, to: Any?)? {
        guard let keyPath else { return nil }
        let from: Any?
        let to: Any?
        switch (fromValue, toValue, byValue) {
        case let (f?, t?, _): (from, to) = (f, t)
        case let (f?, nil, b?): (from, to) = (f, AnyValue.add(f, b))
        case let (nil, t?, b?): (from, to) = (AnyValue.subtract(t, b), t)
        case let (f?, nil, nil): (from, to) = (f, model.value(forKeyPath: keyPath))
        case let (nil, t?, nil): (from, to) = (entry.extras.capturedFrom, t)
        case let (nil, nil, b?): (from, to) = (entry.extras.capturedFrom, entry.extras.capturedFrom.flatMap { AnyValue.add($0, b) })
        case (nil, nil, nil): (from, to) = (entry.extras.capturedFrom, model.value(forKeyPath: keyPath))
        }
        return (from, to)
    }

    /// The start and end values, with a missing colour taken as clear.
    func endpoints(model: Layer, entry: AnimationEntry) -> (from: Any, to: Any)? {
        if let fixed = entry.extras.fixedEndpoints { return fixed }
        guard let (from, to) = rawEndpoints(model: model, entry: entry) else { return nil }
        // A missing optional colour (e.g. no backgroundColor) animates as clear.
        func filled(_ v: Any?, _ other: Any?) -> Any? { v ?? (other is Color ? Color.clear : nil) }
        guard let a = filled(from, to), let b = filled(to, from) else { return nil }
        // Unless an end is the model value (from-only, or nothing given), the ends never change.
        if !(fromValue != nil && toValue == nil && byValue == nil) && !(fromValue == nil && toValue == nil && byValue == nil) {
            entry.extras.fixedEndpoints = (a, b)
        }
        return (a, b)
    }

    override func applyEffect(to presentation: Layer, model: Layer, fraction: Double, iteration: Int, entry: AnimationEntry) {
        guard let keyPath else { return }
        let progress = eased(fraction)
        if keyPath == "contents" {
            // Images cross-fade in the renderer; either end may be no image.
            guard let (from, to) = rawEndpoints(model: model, entry: entry) else { return }
            presentation.contentsTransition = ContentsTransition(from: from as? Image, progress: progress)
            presentation.setValue(to, forKey: keyPath)
            return
        }
        guard let (from, to) = endpoints(model: model, entry: entry) else { return }
        let target = entry.extras.target ?? ParsedKeyPath(keyPath, for: type(of: presentation))
        entry.extras.target = target
        if entry.extras.ops == nil { entry.extras.ops = ValueOps.of(from) }
        guard let ops = entry.extras.ops else {
            // Not interpolable (a layer, an enum): switch half-way.
            return target.write(progress < 0.5 ? from : to, to: presentation)
        }
        var value = ops.interpolate(from, to, progress) ?? (progress < 0.5 ? from : to)
        if isAdditive, let a = from as? Color, let b = to as? Color {
            // Additive colours are offsets, not colours: interpolate them component by component.
            value = a.adding(b.subtracting(a).scaled(by: progress))
        }
        if isCumulative && iteration > 0,
           let shifted = ops.interpolate(from, to, Double(iteration)), let shift = ops.subtract(shifted, from) {
            // Each repeat starts where the previous one ended: shift by whole cycles.
            value = ops.add(value, shift) ?? value
        }
        if isAdditive {
            value = combine(value, base: target.read(presentation))
        }
        target.write(value, to: presentation)
    }
}
