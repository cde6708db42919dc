import LayerKit

// Plain loops outside the main actor: closures formed in main-actor code and
// handed to the standard library pay an isolation check per call, which shows
// in a per-layer, per-frame path.

extension Array where Element == Point {
    /// Every point mapped by `m`.
    func applying(_ m: AffineTransform) -> [Point] {
        var out: [Point] = []
        out.reserveCapacity(count)
        for p in self { out.append(p.applying(m)) }
        return out
    }
}

extension Array where Element == [Point] {
    /// Every polyline mapped by `m`.
    func applying(_ m: AffineTransform) -> [[Point]] {
        var out: [[Point]] = []
        out.reserveCapacity(count)
        for line in self { out.append(line.applying(m)) }
        return out
    }
}

extension Array where Element == PixelBox {
    /// The boxes that hold pixels.
    var nonEmpty: [PixelBox] { filter { !$0.isEmpty } }
}
