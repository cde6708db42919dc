/// A timing curve: a cubic Bézier from (0, 0) to (1, 1) with two control points,
/// matching `CAMediaTimingFunction` (rule E10).
public struct MediaTimingFunction: Hashable, Sendable, CustomStringConvertible {
    public enum Name: String, Hashable, Sendable {
        case linear, easeIn, easeOut, easeInEaseOut, `default`
    }

    public let c1x, c1y, c2x, c2y: Double

    /// Control x values outside 0…1 would make the curve fold back on itself in
    /// time; they are clamped into 0…1, a documented fallback. NaN becomes 0.
    public init(controlPoints c1x: Double, _ c1y: Double, _ c2x: Double, _ c2y: Double) {
        func clampX(_ v: Double) -> Double { v.isNaN ? 0 : min(1, max(0, v)) }
        func finiteY(_ v: Double) -> Double { v.isFinite ? v : 0 }
        (self.c1x, self.c1y, self.c2x, self.c2y) = (clampX(c1x), finiteY(c1y), clampX(c2x), finiteY(c2y))
    }

    public init(name: Name) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }

    public static let linear = MediaTimingFunction(name: .linear)
    public static let easeIn = MediaTimingFunction(name: .easeIn)
    public static let easeOut = MediaTimingFunction(name: .easeOut)
    public static let easeInEaseOut = MediaTimingFunction(name: .easeInEaseOut)
    public static let `default` = MediaTimingFunction(name: .default)

    /// The curve's y at time fraction x (clamped to 0…1): solves x(s) = x for the
    /// curve parameter s by Newton's method, falling back to bisection, to ~1e-12.
    public func value(at x: Double) -> Double {
        guard x.isFinite else { return x > 0 ? 1 : 0 }
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if c1x == c1y && c2x == c2y { return x }  // a straight line
        let s = solveParameter(x)
        return Self.bezier(s, c1y, c2y)
    }

    /// The control points as `[c1x, c1y, c2x, c2y]` (`getControlPoint(at:)` of CA).
    public var controlPoints: [Double] { [c1x, c1y, c2x, c2y] }

    static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
    }

    static func bezierSlope(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let u = 1 - s
        return 3 * u * u * p1 + 6 * u * s * (p2 - p1) + 3 * s * s * (1 - p2)
    }

    private func solveParameter(_ x: Double) -> Double {
        // Newton's method where the curve is well conditioned.
        var s = x
        for _ in 0..<8 {
            let slope = Self.bezierSlope(s, c1x, c2x)
            if abs(slope) < 1e-3 { break }
            let err = Self.bezier(s, c1x, c2x) - x
            if abs(err) < 1e-14 { return s }
            s -= err / slope
            if s < 0 || s > 1 { break }
        }
        // Bisection to full precision where the slope nearly vanishes (x(s) is monotonic).
        var lo = 0.0, hi = 1.0
        while hi - lo > 1e-15 {
            let mid = (lo + hi) / 2
            if Self.bezier(mid, c1x, c2x) < x { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    public var description: String { "MediaTimingFunction(\(c1x), \(c1y), \(c2x), \(c2y))" }
}
