/// Values made of numbers that must all be finite to be stored in a layer.
/// Setting a property to a value with NaN or ±∞ in it is refused with a
/// diagnostic, and the property keeps its value.
protocol FiniteValue {
    var isAllFinite: Bool { get }
}

extension Double: FiniteValue { var isAllFinite: Bool { isFinite } }
extension Point: FiniteValue { var isAllFinite: Bool { x.isFinite && y.isFinite } }
extension Size: FiniteValue { var isAllFinite: Bool { width.isFinite && height.isFinite } }
extension Rect: FiniteValue { var isAllFinite: Bool { origin.isAllFinite && size.isAllFinite } }
extension Color: FiniteValue { var isAllFinite: Bool { [red, green, blue, alpha].allSatisfy(\.isFinite) } }
extension Transform3D: FiniteValue { var isAllFinite: Bool { rows.joined().allSatisfy(\.isFinite) } }
extension Array: FiniteValue where Element: FiniteValue { var isAllFinite: Bool { allSatisfy(\.isAllFinite) } }

extension AnyValue {
    /// False when `v` is a number-based value with a non-finite component.
    static func isFinite(_ v: Any?) -> Bool {
        // The usual values, without a run-time protocol cast.
        if let d = v as? Double { return d.isFinite }
        if let p = v as? Point { return p.isAllFinite }
        switch v {
        case let f as FiniteValue: return f.isAllFinite
        case let c as Color?: return c.map(\.isAllFinite) ?? true
        default: return true
        }
    }
}
