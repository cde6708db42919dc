/// A colour: straight (not premultiplied) sRGB components in 0…1.
///
/// Colours animate in premultiplied space, as Core Animation does, so a fade from
/// `.clear` to `.red` never passes through dark grey.
///
/// A **dynamic** colour (``init(dynamicProvider:)``, as `UIColor(dynamicProvider:)`)
/// is worked out from the traits it is drawn under: views resolve it against their
/// ``TraitCollection`` when they draw and again when their traits change (rule P2).
/// Its components are its resolution under ``TraitCollection/standard`` (light):
/// that is what a layer given one directly shows, as a `CGColor` made from a
/// dynamic `UIColor` is one fixed colour.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red, green, blue, alpha: Double
    /// The provider of a dynamic colour; nil for a fixed one.
    private var provider: DynamicProvider?

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
        provider = nil
    }

    /// A colour worked out from the traits it is drawn under (`init(dynamicProvider:)`).
    public init(dynamicProvider: @escaping @Sendable (TraitCollection) -> Color) {
        let provider = DynamicProvider(dynamicProvider)
        self = provider.resolve(with: .standard)
        self.provider = provider
    }

    /// A dynamic colour with one value for light and one for dark, and optionally
    /// others for high contrast (what an asset catalog's colour set holds).
    public init(light: Color, dark: Color, highContrastLight: Color? = nil, highContrastDark: Color? = nil) {
        self.init { traits in
            let high = traits.accessibilityContrast == .high
            if traits.userInterfaceStyle == .dark { return high ? highContrastDark ?? dark : dark }
            return high ? highContrastLight ?? light : light
        }
    }

    /// Whether the colour depends on traits.
    public var isDynamic: Bool { provider != nil }

    /// The fixed colour this one is under `traits` (`resolvedColor(with:)`): itself
    /// when fixed. A provider that answers with another dynamic colour is followed
    /// (at most eight deep: past that, the components of the last answer).
    public func resolvedColor(with traits: TraitCollection) -> Color {
        provider?.resolve(with: traits) ?? self
    }

    /// Holds a dynamic colour's closure; colours compare equal when they share it.
    private final class DynamicProvider: Sendable {
        let body: @Sendable (TraitCollection) -> Color
        init(_ body: @escaping @Sendable (TraitCollection) -> Color) { self.body = body }

        func resolve(with traits: TraitCollection) -> Color {
            var color = body(traits)
            for _ in 0..<8 {
                guard let next = color.provider else { break }
                color = next.body(traits)
            }
            color.provider = nil
            return color
        }
    }

    public static func == (a: Color, b: Color) -> Bool {
        a.red == b.red && a.green == b.green && a.blue == b.blue && a.alpha == b.alpha && a.provider === b.provider
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(red); hasher.combine(green); hasher.combine(blue); hasher.combine(alpha)
        hasher.combine(provider.map(ObjectIdentifier.init))
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

    /// The same colour with another alpha (`withAlphaComponent(_:)`); a dynamic colour stays dynamic.
    public func withAlpha(_ a: Double) -> Color {
        guard provider != nil else { return Color(red: red, green: green, blue: blue, alpha: a) }
        let base = self
        return Color { base.resolvedColor(with: $0).withAlpha(a) }
    }

    /// Every component multiplied by `k` (for colour offsets of additive animations).
    func scaled(by k: Double) -> Color { Color(red: red * k, green: green * k, blue: blue * k, alpha: alpha * k) }

    /// The components clamped to 0…1, NaN taken as 0.
    public var clamped: Color {
        func c(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        return Color(red: c(red), green: c(green), blue: c(blue), alpha: c(alpha))
    }

    public var description: String { "rgba(\(red), \(green), \(blue), \(alpha))" + (provider != nil ? " (dynamic)" : "") }
}

/// A colour's components, without a dynamic provider: a plain value, as a layer
/// keeps its colours and changes and tracks carry them (no reference counting).
package struct FixedColor {
    var red, green, blue, alpha: Double
    package init(_ c: Color) { (red, green, blue, alpha) = (c.red, c.green, c.blue, c.alpha) }
    package var color: Color { Color(red: red, green: green, blue: blue, alpha: alpha) }
}
