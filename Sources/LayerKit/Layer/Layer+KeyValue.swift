/// Key-value access, as Core Animation's KVC: standard properties by their Core
/// Animation keys, sub-values by key path (rule E11), and custom properties —
/// any other key — stored on the layer, with actions and animations like the
/// standard ones (rule A2).
extension Layer {
    /// The value for a key: a standard property (`"opacity"`, `"hidden"`), a custom
    /// property, or nil. `"frame"` and `"sublayers"` are readable too.
    public func value(forKey key: String) -> Any? {
        if let d = type(of: self).propertyDescriptors[key] { return d.read(self) }
        switch key {
        case "frame": return frame
        case "sublayers": return sublayers
        default: return state.custom[key] ?? styleValue(forKey: key)
        }
    }

    /// Sets a standard property (through its action, like the Swift setter), or a
    /// custom property for any other key. A value of the wrong type for a standard
    /// property, or a non-finite number, is refused with a diagnostic.
    public func setValue(_ value: Any?, forKey key: String) {
        let value = AnyValue.normalized(value)
        if key == "frame" {
            guard let r = value as? Rect else { return reportType(key, Rect.self, value) }
            frame = r
            return
        }
        if let d = type(of: self).propertyDescriptors[key] {
            guard AnyValue.isFinite(value) else {
                return Diagnostics.report(.invalidValue(key: key, reason: "not finite: \(value!)"))
            }
            guard var typed = checked(value, for: d) else { return reportType(key, d.valueType, value) }
            // The typed setters' rules, for the same property by name.
            if Layer.unitIntervalKeys.contains(key), let fraction = typed as? Double { typed = Layer.unitInterval(fraction) }
            if Layer.nonNegativeKeys.contains(key), let length = typed as? Double, length < 0 {
                return Diagnostics.report(.invalidValue(key: key, reason: "negative: \(length)"))
            }
            changeProperty(key, changed: !AnyValue.equal(d.read(self), typed)) { _ = d.write($0, typed) }
            return
        }
        guard key != "sublayers" else {
            return Diagnostics.report(.invalidTree("set sublayers with addSublayer/removeFromSuperlayer"))
        }
        changeProperty(key, changed: !AnyValue.equal(state.custom[key], value)) { $0.state.custom[key] = value }
    }

    /// The value at a key path: `"position.x"`, `"bounds.size.width"`,
    /// `"transform.rotation.z"`, or a plain key. Nil when it names nothing.
    public func value(forKeyPath keyPath: String) -> Any? {
        if !keyPath.utf8.contains(UInt8(ascii: ".")) { return value(forKey: keyPath) }
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let first = parts.first, let base = value(forKey: first) else { return nil }
        if parts.count == 1 { return base }
        return (base as? KeyPathComponents)?.value(at: parts.dropFirst())
    }

    /// Sets the value at a key path: the property named by its first key changes
    /// (and runs that key's action). A key path that names nothing, or a value of
    /// the wrong type, is refused with a diagnostic.
    public func setValue(_ value: Any?, forKeyPath keyPath: String) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return setValue(value, forKey: keyPath) }
        guard let base = self.value(forKey: parts[0]) as? KeyPathComponents,
              let value = AnyValue.normalized(value),
              let updated = base.setting(value, at: parts.dropFirst()) else {
            return Diagnostics.report(.invalidValue(key: keyPath, reason: "the key path names nothing settable to \(AnyValue.typeName(value))"))
        }
        setValue(updated, forKey: parts[0])
    }

    private func checked(_ value: Any?, for d: PropertyDescriptor) -> Any?? {
        guard let value else { return d.isOptional ? .some(nil) : nil }
        return d.accepts(value) ? .some(value) : nil
    }

    private func reportType(_ key: String, _ expected: Any.Type, _ value: Any?) {
        Diagnostics.report(.invalidValue(key: key, reason: "expected \(expected), got \(AnyValue.typeName(value))"))
    }
}

/// A key path split once, with its property's descriptor looked up once, so an
/// animation reads and writes it every frame without parsing strings.
@MainActor
struct ParsedKeyPath {
    let key: String
    let rest: ArraySlice<String>
    let descriptor: PropertyDescriptor?

    init(_ keyPath: String, for layerType: Layer.Type) {
        let parts = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        key = parts.first ?? ""
        rest = parts.dropFirst()
        descriptor = layerType.propertyDescriptors[key]
    }

    func read(_ layer: Layer) -> Any? {
        let base = descriptor.map { $0.read(layer) } ?? layer.value(forKey: key)
        guard !rest.isEmpty else { return base }
        return (base as? KeyPathComponents)?.value(at: rest)
    }

    /// Writes the stored value directly: no action, no validation. For presentation copies.
    /// A value that is not finite (an animation's arithmetic overflowed: huge
    /// keyframe tensions, a cumulative repeat counted up to ∞) is not written, so
    /// the presentation shows the property as it is without that animation.
    func write(_ value: Any, to layer: Layer) {
        guard AnyValue.isFinite(value) else { return }
        var value = value
        if !rest.isEmpty {
            let base = descriptor.map { $0.read(layer) } ?? layer.state.custom[key]
            guard let updated = (base as? KeyPathComponents)?.setting(value, at: rest) else { return }
            value = updated
        }
        if let descriptor {
            _ = descriptor.write(layer, value)
        } else {
            layer.state.custom[key] = value
        }
    }
}
