/// The `style` dictionary as a source of default values (`CALayer.style`): a
/// property never set explicitly takes its value from `style[key]`, or from the
/// nested `style["style"]`, recursively, before the class's default. Setting the
/// property explicitly takes it out of the style's hands for good. Applying a
/// style runs no actions. The keys `"actions"` and `"style"` are the style's own.
extension Layer {
    /// The value the style chain gives for `key`, if any.
    public func styleValue(forKey key: String) -> Any? {
        guard key != "actions", key != "style" else { return nil }
        var dictionary: [String: Any]? = style
        var depth = 0
        while let d = dictionary, depth < 64 {
            if let v = d[key] { return v }
            dictionary = d["style"] as? [String: Any]
            depth += 1
        }
        return nil
    }

    func markExplicit(_ key: String) {
        explicitlySet.insert(key)
        styledKeys.remove(key)
    }

    /// Writes style values into properties not set explicitly, and restores the
    /// class default where a style value went away.
    func applyStyleDefaults() {
        for (key, d) in type(of: self).propertyDescriptors where !explicitlySet.contains(key) {
            if let v = styleValue(forKey: key).flatMap(AnyValue.normalized) {
                guard d.accepts(v), AnyValue.isFinite(v) else {
                    Diagnostics.report(.invalidValue(key: key, reason: "style value \(v) is not a \(d.valueType); ignored"))
                    continue
                }
                _ = d.write(self, v)
                styledKeys.insert(key)
                propertyDidChange(key)
            } else if styledKeys.remove(key) != nil {
                _ = d.write(self, type(of: self).defaultValue(forKey: key))
                propertyDidChange(key)
            }
        }
    }
}
