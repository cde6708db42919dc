/// Sub-values reachable by key path below a property: `position.x`,
/// `bounds.size.width`, `transform.rotation.z`, `shadowOffset.height` (rule E11).
protocol KeyPathComponents {
    /// The value at `path` below this one, or nil when `path` names nothing.
    func value(at path: ArraySlice<String>) -> Any?
    /// A copy with the value at `path` replaced, or nil when `path` names nothing
    /// or `newValue` has the wrong type.
    func setting(_ newValue: Any, at path: ArraySlice<String>) -> Self?
}

extension Point: KeyPathComponents {
    func value(at path: ArraySlice<String>) -> Any? {
        guard path.count == 1 else { return nil }
        switch path.first { case "x": return x; case "y": return y; default: return nil }
    }
    func setting(_ newValue: Any, at path: ArraySlice<String>) -> Point? {
        guard path.count == 1, let v = AnyValue.normalized(newValue) as? Double else { return nil }
        var p = self
        switch path.first { case "x": p.x = v; case "y": p.y = v; default: return nil }
        return p
    }
}

extension Size: KeyPathComponents {
    func value(at path: ArraySlice<String>) -> Any? {
        guard path.count == 1 else { return nil }
        switch path.first { case "width": return width; case "height": return height; default: return nil }
    }
    func setting(_ newValue: Any, at path: ArraySlice<String>) -> Size? {
        guard path.count == 1, let v = AnyValue.normalized(newValue) as? Double else { return nil }
        var s = self
        switch path.first { case "width": s.width = v; case "height": s.height = v; default: return nil }
        return s
    }
}

extension Rect: KeyPathComponents {
    func value(at path: ArraySlice<String>) -> Any? {
        switch path.first {
        case "origin": return path.count == 1 ? origin : origin.value(at: path.dropFirst())
        case "size": return path.count == 1 ? size : size.value(at: path.dropFirst())
        default: return nil
        }
    }
    func setting(_ newValue: Any, at path: ArraySlice<String>) -> Rect? {
        var r = self
        switch path.first {
        case "origin":
            if path.count == 1 { guard let p = newValue as? Point else { return nil }; r.origin = p }
            else { guard let p = origin.setting(newValue, at: path.dropFirst()) else { return nil }; r.origin = p }
        case "size":
            if path.count == 1 { guard let s = newValue as? Size else { return nil }; r.size = s }
            else { guard let s = size.setting(newValue, at: path.dropFirst()) else { return nil }; r.size = s }
        default: return nil
        }
        return r
    }
}

/// `transform.scale` (uniform: reads the mean of x and y), `transform.scale.x|y|z`,
/// `transform.rotation` (= `.z`), `transform.rotation.x|y|z` (radians),
/// `transform.translation` (a `Size`), `transform.translation.x|y|z`, and `m11`…`m44`.
/// Writing a part keeps the others, through the decomposition.
extension Transform3D: KeyPathComponents {
    func value(at path: ArraySlice<String>) -> Any? {
        let name = path.joined(separator: ".")
        if let m = matrixElement(name) { return self[keyPath: m] }
        guard let d = decomposed else {
            // A singular matrix: only translation is still meaningful.
            switch name {
            case "translation": return Size(width: m41, height: m42)
            case "translation.x": return m41
            case "translation.y": return m42
            case "translation.z": return m43
            case "scale", "scale.x", "scale.y", "scale.z": return 0.0
            case "rotation", "rotation.x", "rotation.y", "rotation.z": return 0.0
            default: return nil
            }
        }
        switch name {
        case "scale": return (d.scale.x + d.scale.y) / 2
        case "scale.x": return d.scale.x
        case "scale.y": return d.scale.y
        case "scale.z": return d.scale.z
        case "rotation", "rotation.z": return d.rotation.z
        case "rotation.x": return d.rotation.x
        case "rotation.y": return d.rotation.y
        case "translation": return Size(width: d.translation.x, height: d.translation.y)
        case "translation.x": return d.translation.x
        case "translation.y": return d.translation.y
        case "translation.z": return d.translation.z
        default: return nil
        }
    }

    func setting(_ newValue: Any, at path: ArraySlice<String>) -> Transform3D? {
        let name = path.joined(separator: ".")
        if let m = matrixElement(name) {
            guard let v = AnyValue.normalized(newValue) as? Double else { return nil }
            var t = self
            t[keyPath: m] = v
            return t
        }
        if name == "translation" {
            guard let s = newValue as? Size else { return nil }
            return setting(s.width, at: ["translation", "x"])?.setting(s.height, at: ["translation", "y"])
        }
        guard let v = AnyValue.normalized(newValue) as? Double else { return nil }
        // A singular matrix (zero scale) decomposes as identity with zero scale.
        var d = decomposed ?? DecomposedTransform(translation: (m41, m42, m43), scale: (0, 0, 0), skew: (0, 0, 0),
                                                  perspective: (0, 0, 0, 1), quaternion: (0, 0, 0, 1))
        switch name {
        case "scale": d.scale = (v, v, v)
        case "scale.x": d.scale.x = v
        case "scale.y": d.scale.y = v
        case "scale.z": d.scale.z = v
        case "rotation", "rotation.z": var r = d.rotation; r.z = v; d.rotation = r
        case "rotation.x": var r = d.rotation; r.x = v; d.rotation = r
        case "rotation.y": var r = d.rotation; r.y = v; d.rotation = r
        case "translation.x": d.translation.x = v
        case "translation.y": d.translation.y = v
        case "translation.z": d.translation.z = v
        default: return nil
        }
        return d.recomposed
    }

    private func matrixElement(_ name: String) -> WritableKeyPath<Transform3D, Double>? {
        let table: [String: WritableKeyPath<Transform3D, Double>] = [
            "m11": \.m11, "m12": \.m12, "m13": \.m13, "m14": \.m14, "m21": \.m21, "m22": \.m22, "m23": \.m23, "m24": \.m24,
            "m31": \.m31, "m32": \.m32, "m33": \.m33, "m34": \.m34, "m41": \.m41, "m42": \.m42, "m43": \.m43, "m44": \.m44,
        ]
        return table[name]
    }
}
