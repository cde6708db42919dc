import LayerKit

/// The bitmaps of rasterized layers (`Layer.shouldRasterize`), kept between
/// frames: a layer's bitmap is drawn again when its subtree changes (its subtree
/// version), when its bitmap's scale or extent does, or while anything in the
/// subtree animates; otherwise the last one is drawn under the layer's transform.
@MainActor
final class RasterCache {
    struct Key: Equatable {
        /// What the layer draws itself, and the versions of its sublayers' subtrees:
        /// where the layer is, how it is turned and its opacity are outside the bitmap.
        let drawing: Int
        let sublayers: [UInt64]
        let scale: Double
        let extent: Rect

        @MainActor
        init(_ p: Layer, layer: Layer, scale: Double, extent: Rect) {
            sublayers = layer.sublayers.map(\.subtreeVersion)
            self.scale = scale
            self.extent = extent
            var h = Hasher()
            if type(of: p) == Layer.self {
                // A plain layer draws its background, border, corners and contents.
                h.combine(p.backgroundColor); h.combine(p.borderColor); h.combine(p.borderWidth); h.combine(p.cornerRadius)
                h.combine(p.bounds.size.width); h.combine(p.bounds.size.height); h.combine(p.masksToBounds)
                h.combine(p.contents.map(ObjectIdentifier.init)); h.combine(p.contentsRect.origin.x); h.combine(p.contentsRect.origin.y)
                h.combine(p.contentsRect.size.width); h.combine(p.contentsRect.size.height); h.combine(p.contentsCenter.origin.x)
                h.combine(p.contentsCenter.origin.y); h.combine(p.contentsCenter.size.width); h.combine(p.contentsCenter.size.height)
                h.combine(p.contentsGravity); h.combine(p.contentsScale); h.combine(p.minificationFilter); h.combine(p.magnificationFilter)
            } else {
                h.combine(layer.modelVersion)   // a subclass draws from state of its own: any change counts
            }
            drawing = h.finalize()
        }
    }

    private final class Entry {
        weak var layer: Layer?
        let key: Key
        let image: SharedImage
        init(_ layer: Layer, _ key: Key, _ image: SharedImage) {
            self.layer = layer
            self.key = key
            self.image = image
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var pending: [(Layer, Key, Plane)] = []

    /// How many bitmaps are kept, and how many planes were drawn to make one (for tests).
    var count: Int { entries.count }
    private(set) var made = 0

    /// The bitmap kept for `layer` under `key`; nil when there is none or it is stale.
    func image(for layer: Layer, key: Key) -> SharedImage? {
        guard let e = entries[ObjectIdentifier(layer)], e.layer === layer, e.key == key else { return nil }
        return e.image
    }

    /// A plane drawn this frame for `layer`: its bitmap is kept once played.
    func made(_ plane: Plane, for layer: Layer, key: Key) {
        made += 1
        pending.append((layer, key, plane))
    }

    /// After a frame: keeps the bitmaps its planes made, drops those of layers gone.
    func collect() {
        for (layer, key, plane) in pending {
            if let image = plane.drawnImage { entries[ObjectIdentifier(layer)] = Entry(layer, key, image) }
        }
        pending.removeAll()
        entries = entries.filter { $0.value.layer != nil }
    }
}
