/// A colour: straight (not premultiplied) sRGB components in 0…1.
///
/// Colours animate in premultiplied space, as Core Animation does, so a fade from
/// `.clear` to `.red` never passes through dark grey.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red, green, blue, alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// From 8-bit components, e.g. `Color(rgba8: 0x20, 0x24, 0x28, 0xFF)`.
    public init(rgba8 r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.init(red: Double(r) / 255, green: Double(g) / 255, blue: Double(b) / 255, alpha: Double(a) / 255)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let gray = Color(white: 0.5)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 1, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    public static let cyan = Color(red: 0, green: 1, blue: 1)
    public static let magenta = Color(red: 1, green: 0, blue: 1)
    public static let orange = Color(red: 1, green: 0.5, blue: 0)

    public func withAlpha(_ a: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: a) }

    /// Every component multiplied by `k` (for colour offsets of additive animations).
    func scaled(by k: Double) -> Color { Color(red: red * k, green: green * k, blue: blue * k, alpha: alpha * k) }

    /// The components clamped to 0…1, NaN taken as 0.
    public var clamped: Color {
        func c(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }

    public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" }
}
