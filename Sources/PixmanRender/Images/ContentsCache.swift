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

    /// Drops images that no longer exist.
    func purge() {
        cache.removeAll { $0.image == nil }
    }
}
