import CPixman
import LayerKit

/// Pixels for layer `contents`, made once per `Image` and dropped when the
/// `Image` is gone — or, past ``byteLimit``, the least recently used first (an
/// image bigger than the whole budget is made for each frame that draws it).
@MainActor
final class ContentsCache {
    private final class Entry {
        weak var image: Image?
        let shared: SharedImage
        init(_ image: Image, _ shared: SharedImage) {
            self.image = image
            self.shared = shared
        }
    }

    private var cache = LRUCache<ObjectIdentifier, Entry>(limit: 256 << 20)
    /// Pixel memory kept at most (256 MiB).
    var byteLimit: Int {
        get { cache.limit }
        set { cache.limit = newValue }
    }
    /// Pixel bytes held now.
    var heldBytes: Int { cache.cost }

    /// The pixels of `image` for drawing, or nil for an empty image.
    func sharedImage(for image: Image) -> SharedImage? {
        let id = ObjectIdentifier(image)
        if let e = cache.value(for: id), e.image === image { return e.shared }
        guard let shared = SharedImage(image) else { return nil }
        cache.insert(Entry(image, shared), for: id, cost: image.pixels.count * 4)
        return shared
    }

    /// An image's mipmap levels, made by halving (each pixel the mean of four), kept
    /// while the image lives.
    private final class Mipmaps {
        weak var image: Image?
        var levels: [(image: SharedImage, width: Int, height: Int)] = []
        init(_ image: Image) { self.image = image }
    }
    private var mipmaps: [ObjectIdentifier: Mipmaps] = [:]

    /// Level `level` (1: half size) of `image`'s mipmap, or the smallest there is (1 × 1
    /// at most), with how its pixels scale from the image's.
    func mipmap(for image: Image, level: Int) -> (image: SharedImage, scaleX: Double, scaleY: Double)? {
        let id = ObjectIdentifier(image)
        let mips: Mipmaps
        if let m = mipmaps[id], m.image === image { mips = m } else { mips = Mipmaps(image); mipmaps[id] = mips }
        var (w, h) = mips.levels.last.map { ($0.width, $0.height) } ?? (image.width, image.height)
        while mips.levels.count < level, w > 1 || h > 1 {
            guard let previous = mips.levels.last?.image ?? sharedImage(for: image), let source = previous.header() else { return nil }
            let (nw, nh) = (max(1, w / 2), max(1, h / 2))
            guard let next = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(nw), Int32(nh), nil, 0) else { pixman_image_unref(source); return nil }
            // Each new pixel's centre lands between four old ones: bilinear takes their mean.
            var t = pixman_transform_t()
            pixman_transform_init_scale(&t, pixmanFixed(Double(w) / Double(nw)), pixmanFixed(Double(h) / Double(nh)))
            pixman_image_set_transform(source, &t)
            pixman_image_set_filter(source, PIXMAN_FILTER_BILINEAR, nil, 0)
            pixman_image_set_repeat(source, PIXMAN_REPEAT_PAD)
            pixman_image_composite32(PIXMAN_OP_SRC, source, nil, next, 0, 0, 0, 0, 0, 0, Int32(nw), Int32(nh))
            pixman_image_unref(source)
            guard let shared = SharedImage(adopting: next) else { return nil }
            mips.levels.append((shared, nw, nh))
            (w, h) = (nw, nh)
        }
        guard let top = mips.levels.prefix(level).last else { return nil }
        return (top.image, Double(top.width) / Double(image.width), Double(top.height) / Double(image.height))
    }

    /// Drops images that no longer exist.
    func purge() {
        cache.removeAll { $0.image == nil }
        mipmaps = mipmaps.filter { $0.value.image != nil }
    }
}
