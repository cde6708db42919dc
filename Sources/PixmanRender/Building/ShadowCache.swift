import CPixman

/// Blurred shadow masks kept between frames. A shadow whose source is plain
/// geometry — solid shapes, rectangles, corner masks, as a layer's background,
/// border or `shadowPath` are — is keyed by that geometry relative to the shadow's
/// pixel box, the alpha it is drawn in, the blur and the box size: a layer that stays put, or moves by
/// whole pixels, reuses its mask; any change of shape, colour alpha or blur makes
/// a new key, so nothing stale is ever drawn. Bounded by bytes (least recently
/// used first).
@MainActor
final class ShadowCache {
    struct Key: Hashable {
        let sigma: Double
        let width: Int
        let height: Int
        let geometry: [Int32]
        let masks: [ObjectIdentifier]
    }

    private struct Entry {
        let mask: SharedImage
        /// Keeps the corner masks named in the key alive, so their identities stay unique.
        let sources: [SharedImage]
    }

    private var cache = LRUCache<Key, Entry>(limit: 32 << 20)
    /// Shadows of the frame being drawn that will make a mask to keep.
    private var pending: [(Shadow, [SharedImage])] = []

    /// Mask bytes held now.
    var heldBytes: Int { cache.cost }
    /// Masks held now.
    var count: Int { cache.count }
    var byteLimit: Int {
        get { cache.limit }
        set { cache.limit = newValue }
    }

    /// The shadow item for `source` blurred by `sigma` over `box`: with its mask when
    /// one is kept, set to make and keep one when its source can be keyed.
    func shadow(bounds box: PixelBox, source: [DisplayItem], sigma: Double, color: pixman_color_t) -> Shadow {
        guard let (key, sources) = Self.key(source, box: box, sigma: sigma) else {
            return Shadow(bounds: box, source: source, sigma: sigma, color: color)
        }
        if let e = cache.value(for: key) {
            return Shadow(bounds: box, source: source, sigma: sigma, color: color, key: key, mask: e.mask)
        }
        let s = Shadow(bounds: box, source: source, sigma: sigma, color: color, key: key)
        pending.append((s, sources))
        return s
    }

    /// Keeps the masks the frame's playback made.
    func collect() {
        for (s, sources) in pending {
            guard let key = s.key, let mask = s.madeMask else { continue }
            cache.insert(Entry(mask: mask, sources: sources), for: key, cost: mask.width * mask.height)
        }
        pending.removeAll()
    }

    /// The key of plain geometry (nil when the source draws images, groups or anything else).
    static func key(_ items: [DisplayItem], box: PixelBox, sigma: Double) -> (Key, [SharedImage])? {
        var g: [Int32] = []
        var masks: [SharedImage] = []
        let dx = Int32(clamping: box.x0), dy = Int32(clamping: box.y0)
        // Only alpha is blurred: the source's colours do not matter, their alpha does.
        func color(_ c: pixman_color_t) { g.append(Int32(c.alpha)) }
        func add(_ b: PixelBox) {
            g += [Int32(clamping: b.x0) - dx, Int32(clamping: b.y0) - dy, Int32(clamping: b.x1) - dx, Int32(clamping: b.y1) - dy]
        }
        let fx = dx &<< 16, fy = dy &<< 16   // wrapping: a key, not a coordinate
        for item in items {
            switch item {
            case .boxes(let boxes, let c):
                g.append(1); color(c)
                for b in boxes { add(b) }
            case .maskedColor(let mask, let placements, let c):
                g.append(2); color(c)
                masks.append(mask)
                for p in placements { g += [Int32(p.maskX), Int32(p.maskY)]; add(p.device) }
            case .coverage(let coverage, let c):
                g.append(3); color(c)
                for t in coverage.trapezoids {
                    g += [t.top &- fy, t.bottom &- fy, t.left.p1.x &- fx, t.left.p1.y &- fy, t.left.p2.x &- fx, t.left.p2.y &- fy,
                          t.right.p1.x &- fx, t.right.p1.y &- fy, t.right.p2.x &- fx, t.right.p2.y &- fy]
                }
            default:
                return nil
            }
            g.append(-1)
        }
        return (Key(sigma: sigma, width: box.width, height: box.height, geometry: g, masks: masks.map(ObjectIdentifier.init)), masks)
    }
}
