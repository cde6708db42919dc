import LayerKit

/// A rectangle of whole device pixels, `x0 ..< x1` by `y0 ..< y1`.
struct PixelBox: Equatable, Sendable {
    var x0, y0, x1, y1: Int

    var width: Int { x1 - x0 }
    var height: Int { y1 - y0 }
    var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    var area: Int { isEmpty ? 0 : width * height }

    func intersection(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }

    func intersects(_ o: PixelBox) -> Bool { !intersection(o).isEmpty }

    func union(_ o: PixelBox) -> PixelBox {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelBox(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    func insetBy(_ d: Int) -> PixelBox { PixelBox(x0: x0 + d, y0: y0 + d, x1: x1 - d, y1: y1 - d) }

    static let empty = PixelBox(x0: 0, y0: 0, x1: 0, y1: 0)

    /// The whole pixels touched by `area`, with a pixel of slack on each side, within
    /// `limit`; empty when `area` is not finite or misses `limit`.
    static func covering(_ area: Rect, within limit: PixelBox) -> PixelBox {
        guard !area.isNull, area.minX.isFinite, area.minY.isFinite, area.maxX.isFinite, area.maxY.isFinite else { return .empty }
        func clamp(_ v: Double) -> Int { Int(max(-1e9, min(1e9, v))) }
        let box = PixelBox(x0: clamp(area.minX.rounded(.down)) - 1, y0: clamp(area.minY.rounded(.down)) - 1,
                           x1: clamp(area.maxX.rounded(.up)) + 1, y1: clamp(area.maxY.rounded(.up)) + 1)
        let clipped = box.intersection(limit)
        return clipped.isEmpty ? .empty : clipped
    }
}
