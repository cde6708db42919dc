/// The action a view returns for a change inside an animation block (rules V3,
/// V7, V8). Made when the action is looked up — before the model changes — it
/// keeps the old value; run after the change, it animates from there to the new
/// model value.
@MainActor
final class ViewAnimationAction: Action {
    let block: AnimationBlock
    weak var view: View?
    /// The model value before the change.
    let oldValue: Any?
    /// The presentation value before the change (`.beginFromCurrentState`).
    let shownValue: Any?

    init(block: AnimationBlock, view: View, oldValue: Any?, shownValue: Any?) {
        self.block = block
        self.view = view
        self.oldValue = oldValue
        self.shownValue = shownValue
    }

    func run(forKey event: String, object layer: Layer, arguments: [String: Any]?) {
        guard let view else { return }
        let newValue = layer.value(forKey: event)
        let animation = block.makeAnimation(keyPath: event, on: layer)
        let key: String
        if AnimationBlock.additiveKeys.contains(event),
           let old = oldValue, let new = newValue, let offset = Self.offset(from: old, to: new) {
            // Rule V7: from (old − new) to zero on top of the model; a change
            // mid-flight adds another such animation, so the motion stays continuous.
            animation.isAdditive = true
            animation.fromValue = offset
            animation.toValue = Self.zero(like: new)
            key = Self.freeKey(event, on: layer)
        } else {
            // Replaces a running animation of the key (which completes unfinished).
            animation.fromValue = shownValue ?? oldValue
            animation.toValue = newValue
            key = event
        }
        block.add(animation, to: view, forKey: key, property: event, oldValue: oldValue)
    }

    /// `old − new` for the property types UIKit animates additively; for a
    /// transform, the transform that takes the new one back to the old one.
    static func offset(from old: Any, to new: Any) -> Any? {
        if let o = old as? Transform3D, let n = new as? Transform3D {
            return o.concatenating(n.inverted())
        }
        return AnyValue.subtract(old, new)
    }

    /// The additive zero of `value`'s type.
    static func zero(like value: Any) -> Any? {
        if value is Transform3D { return Transform3D.identity }
        return AnyValue.subtract(value, value)
    }

    /// `key`, or `key-2`, `key-3`… when an animation runs under it already.
    static func freeKey(_ key: String, on layer: Layer) -> String {
        guard layer.animation(forKey: key) != nil else { return key }
        var n = 2
        while layer.animation(forKey: "\(key)-\(n)") != nil { n += 1 }
        return "\(key)-\(n)"
    }
}
