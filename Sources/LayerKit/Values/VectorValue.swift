/// Values that are fixed-length vectors of numbers, for splines (cubic keyframes)
/// that need arbitrary linear combinations, not just interpolation.
protocol VectorValue {
    var components: [Double] { get }
    init(components: [Double])
}

extension Double: VectorValue {
    var components: [Double] { [self] }
    init(components c: [Double]) { self = c[0] }
}

extension Point: VectorValue {
    var components: [Double] { [x, y] }
    init(components c: [Double]) { self.init(x: c[0], y: c[1]) }
}

extension Size: VectorValue {
    var components: [Double] { [width, height] }
    init(components c: [Double]) { self.init(width: c[0], height: c[1]) }
}

extension Rect: VectorValue {
    var components: [Double] { [origin.x, origin.y, size.width, size.height] }
    init(components c: [Double]) { self.init(x: c[0], y: c[1], width: c[2], height: c[3]) }
}

extension Color: VectorValue {
    /// Premultiplied, so splines of colours behave like their interpolation.
    var components: [Double] { [red * alpha, green * alpha, blue * alpha, alpha] }
    init(components c: [Double]) {
        let a = c[3]
        guard a > 0 else { self.init(red: 0, green: 0, blue: 0, alpha: max(0, a)); return }
        self.init(red: c[0] / a, green: c[1] / a, blue: c[2] / a, alpha: a)
    }
}
