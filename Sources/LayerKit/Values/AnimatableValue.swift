/// A value an animation can interpolate: the property types of `Layer`.
///
/// `interpolated(to:fraction:)` is the in-between value; `adding`/`subtracting`
/// serve `byValue`, additive and cumulative animations (rules E2, V7);
/// `distance(to:)` measures how far apart two values are, for paced keyframes.
public protocol AnimatableValue: Equatable, Sendable {
    func interpolated(to other: Self, fraction: Double) -> Self
    func adding(_ other: Self) -> Self
    func subtracting(_ other: Self) -> Self
    func distance(to other: Self) -> Double
}

extension Double: AnimatableValue {
    public func interpolated(to o: Double, fraction t: Double) -> Double { self * (1 - t) + o * t }  // exact at both ends
    public func adding(_ o: Double) -> Double { self + o }
    public func subtracting(_ o: Double) -> Double { self - o }
    public func distance(to o: Double) -> Double { abs(o - self) }
}

extension Point: AnimatableValue {
    public func interpolated(to o: Point, fraction t: Double) -> Point {
        Point(x: x.interpolated(to: o.x, fraction: t), y: y.interpolated(to: o.y, fraction: t))
    }
    public func adding(_ o: Point) -> Point { Point(x: x + o.x, y: y + o.y) }
    public func subtracting(_ o: Point) -> Point { Point(x: x - o.x, y: y - o.y) }
}

extension Size: AnimatableValue {
    public func interpolated(to o: Size, fraction t: Double) -> Size {
        Size(width: width.interpolated(to: o.width, fraction: t), height: height.interpolated(to: o.height, fraction: t))
    }
    public func adding(_ o: Size) -> Size { Size(width: width + o.width, height: height + o.height) }
    public func subtracting(_ o: Size) -> Size { Size(width: width - o.width, height: height - o.height) }
    public func distance(to o: Size) -> Double {
        ((o.width - width) * (o.width - width) + (o.height - height) * (o.height - height)).squareRoot()
    }
}

extension Rect: AnimatableValue {
    public func interpolated(to o: Rect, fraction t: Double) -> Rect {
        Rect(origin: origin.interpolated(to: o.origin, fraction: t), size: size.interpolated(to: o.size, fraction: t))
    }
    public func adding(_ o: Rect) -> Rect { Rect(origin: origin.adding(o.origin), size: size.adding(o.size)) }
    public func subtracting(_ o: Rect) -> Rect { Rect(origin: origin.subtracting(o.origin), size: size.subtracting(o.size)) }
    public func distance(to o: Rect) -> Double {
        let d = [origin.x - o.origin.x, origin.y - o.origin.y, size.width - o.size.width, size.height - o.size.height]
        return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }
}

extension Color: AnimatableValue {
    /// Interpolates premultiplied components, then returns straight ones.
    public func interpolated(to o: Color, fraction t: Double) -> Color {
        let a = alpha.interpolated(to: o.alpha, fraction: t)
        guard a > 0 else { return Color(red: 0, green: 0, blue: 0, alpha: a) }
        func channel(_ c0: Double, _ c1: Double) -> Double { (c0 * alpha).interpolated(to: c1 * o.alpha, fraction: t) / a }
        return Color(red: channel(red, o.red), green: channel(green, o.green), blue: channel(blue, o.blue), alpha: a)
    }
    public func adding(_ o: Color) -> Color {
        Color(red: red + o.red, green: green + o.green, blue: blue + o.blue, alpha: alpha + o.alpha)
    }
    public func subtracting(_ o: Color) -> Color {
        Color(red: red - o.red, green: green - o.green, blue: blue - o.blue, alpha: alpha - o.alpha)
    }
    public func distance(to o: Color) -> Double {
        let d = [red - o.red, green - o.green, blue - o.blue, alpha - o.alpha]
        return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }
}

extension Transform3D: AnimatableValue {
    /// Interpolates the decomposed parts (rotation by slerp). A matrix that cannot be
    /// decomposed (zero scale, m44 = 0) interpolates element-wise instead.
    public func interpolated(to o: Transform3D, fraction t: Double) -> Transform3D {
        if t == 0 { return self }
        if t == 1 { return o }
        if let a = decomposed, let b = o.decomposed {
            return a.interpolated(to: b, fraction: t).recomposed
        }
        return Transform3D.elementwise(self, o) { $0.interpolated(to: $1, fraction: t) }
    }
    /// Additive transforms concatenate: the animated transform applied after the base.
    public func adding(_ o: Transform3D) -> Transform3D { o.concatenating(self) }
    public func subtracting(_ o: Transform3D) -> Transform3D { o.inverted().concatenating(self) }
    public func distance(to o: Transform3D) -> Double {
        zip(rows.joined(), o.rows.joined()).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }

    static func elementwise(_ a: Transform3D, _ b: Transform3D, _ f: (Double, Double) -> Double) -> Transform3D {
        Transform3D(rows: zip(a.rows, b.rows).map { zip($0, $1).map(f) })
    }
}

extension Bool: AnimatableValue {
    /// Booleans switch discretely, half-way through (rule B2).
    public func interpolated(to o: Bool, fraction t: Double) -> Bool { t < 0.5 ? self : o }
    public func adding(_ o: Bool) -> Bool { self || o }
    public func subtracting(_ o: Bool) -> Bool { self && !o }
    public func distance(to o: Bool) -> Double { self == o ? 0 : 1 }
}

extension Path: AnimatableValue {
    /// Paths with the same structure interpolate point by point; others switch half-way.
    public func interpolated(to o: Path, fraction t: Double) -> Path {
        guard elements.count == o.elements.count else { return t < 0.5 ? self : o }
        func m(_ a: Point, _ b: Point) -> Point { a.interpolated(to: b, fraction: t) }
        var out: [Element] = []
        for (a, b) in zip(elements, o.elements) {
            switch (a, b) {
            case (.move(let p), .move(let q)): out.append(.move(m(p, q)))
            case (.line(let p), .line(let q)): out.append(.line(m(p, q)))
            case (.quadCurve(let p, let c), .quadCurve(let q, let d)): out.append(.quadCurve(to: m(p, q), control: m(c, d)))
            case (.curve(let p, let c1, let c2), .curve(let q, let d1, let d2)):
                out.append(.curve(to: m(p, q), control1: m(c1, d1), control2: m(c2, d2)))
            case (.close, .close): out.append(.close)
            default: return t < 0.5 ? self : o
            }
        }
        return Path(elements: out)
    }
    public func adding(_ o: Path) -> Path { o }
    public func subtracting(_ o: Path) -> Path { self }
    public func distance(to o: Path) -> Double { self == o ? 0 : 1 }
}

extension Image: AnimatableValue {
    /// Images do not blend here: the renderer cross-fades `contents` (rule B2) using
    /// the presentation layer's `contentsTransition`.
    public func interpolated(to o: Image, fraction t: Double) -> Image { t < 1 ? self : o }
    public func adding(_ o: Image) -> Image { o }
    public func subtracting(_ o: Image) -> Image { self }
    public func distance(to o: Image) -> Double { self == o ? 0 : 1 }
}

extension Array: AnimatableValue where Element: AnimatableValue {
    /// Arrays of the same count interpolate element by element (a gradient's
    /// `colors` and `locations`); arrays of different counts switch half way.
    public func interpolated(to o: [Element], fraction t: Double) -> [Element] {
        guard count == o.count else { return t < 0.5 ? self : o }
        return zip(self, o).map { $0.interpolated(to: $1, fraction: t) }
    }
    public func adding(_ o: [Element]) -> [Element] {
        count == o.count ? zip(self, o).map { $0.adding($1) } : o
    }
    public func subtracting(_ o: [Element]) -> [Element] {
        count == o.count ? zip(self, o).map { $0.subtracting($1) } : self
    }
    public func distance(to o: [Element]) -> Double {
        guard count == o.count else { return 1 }
        return zip(self, o).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }
}

extension AnimatableValue {
    // With a value of another type, nil.
    func interpolated(toAny other: Any, fraction t: Double) -> Any? { (other as? Self).map { interpolated(to: $0, fraction: t) } }
    func adding(any other: Any) -> Any? { (other as? Self).map { adding($0) } }
    func subtracting(any other: Any) -> Any? { (other as? Self).map { subtracting($0) } }
    func distance(toAny other: Any) -> Double? { (other as? Self).map { distance(to: $0) } }
}

/// The arithmetic of one value type, resolved once so that an animation does not
/// look up protocol conformances every frame.
struct ValueOps {
    let interpolate: (Any, Any, Double) -> Any?
    let add: (Any, Any) -> Any?
    let subtract: (Any, Any) -> Any?
    let distance: (Any, Any) -> Double?

    /// The operations of `value`'s type, or nil when it is not an `AnimatableValue`.
    static func of(_ value: Any) -> ValueOps? {
        guard let v = value as? any AnimatableValue else { return nil }
        return make(v)
    }

    private static func make<T: AnimatableValue>(_: T) -> ValueOps {
        ValueOps(interpolate: { a, b, t in (a as? T)?.interpolated(toAny: b, fraction: t) },
                 add: { a, b in (a as? T)?.adding(any: b) },
                 subtract: { a, b in (a as? T)?.subtracting(any: b) },
                 distance: { a, b in (a as? T)?.distance(toAny: b) })
    }
}

/// Helpers for values passed as `Any`, as animation values and key-value access use them.
package enum AnyValue {
    /// Integer and other numeric literals stored in `Any` become `Double`, so
    /// `anim.toValue = 1` works as it does with `NSNumber`.
    static func normalized(_ v: Any?) -> Any? {
        // A value of a geometry or colour type — most animation values — needs none
        // of the casts below (each a run-time type check).
        if let v {
            let t = type(of: v)
            if t == Double.self || t == Point.self || t == Size.self || t == Rect.self || t == Color.self || t == Transform3D.self {
                return v
            }
        }
        switch v {
        case let d as Double: return d
        case let i as Int: return Double(i)
        case let f as Float: return Double(f)
        // Every other integer and floating-point type a program may pass
        // (Int8…UInt64, Float16, Foundation's CGFloat).
        case let i as any BinaryInteger: return Double(i)
        case let f as any BinaryFloatingPoint: return Double(f)
        // `[0, 0.5, 1]` written where `Any` is expected: a gradient's `locations`.
        case let a as [Int]: return a.map(Double.init)
        default: return v
        }
    }

    static func sameType(_ a: Any, _ b: Any) -> Bool { type(of: a) == type(of: b) }

    // One-off arithmetic on values as `Any`: the first value's type, opened once
    // (an animation that does this every frame keeps a `ValueOps` instead).
    static func interpolate(_ a: Any, _ b: Any, _ t: Double) -> Any? { (a as? any AnimatableValue)?.interpolated(toAny: b, fraction: t) }
    static func add(_ a: Any, _ b: Any) -> Any? { (a as? any AnimatableValue)?.adding(any: b) }
    package static func subtract(_ a: Any, _ b: Any) -> Any? { (a as? any AnimatableValue)?.subtracting(any: b) }
    static func distance(_ a: Any, _ b: Any) -> Double? { (a as? any AnimatableValue)?.distance(toAny: b) }

    /// Equality of two values of any type: equal when both are nil, or of the same
    /// `Equatable` type and equal; objects without `Equatable` compare by identity.
    static func equal(_ a: Any?, _ b: Any?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case let (a?, b?):
            if let ea = a as? any Equatable { return equal(ea, b) }
            if let oa = a as AnyObject?, let ob = b as AnyObject?, type(of: a) is AnyClass { return oa === ob }
            return false
        }
    }
    private static func equal<T: Equatable>(_ a: T, _ b: Any) -> Bool {
        guard let b = b as? T else { return false }
        return a == b
    }

    /// The name of a value's type, for diagnostics.
    static func typeName(_ v: Any?) -> String {
        guard let v else { return "nil" }
        return String(describing: type(of: v))
    }
}
