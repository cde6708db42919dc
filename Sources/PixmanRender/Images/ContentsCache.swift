import CPixman
import LayerKit

/// Pixels for layer `contents`, made once per `Image` and dropped when the
/// `Image` is gone — or, past ``byteLimit``, the least recently used first.
@MainActor
final class ContentsCache {
    private final class Entry {
        weak var image: Image?
        let shared: SharedImage
        let byteCount: Int
        init?(_ image: Image) {
            guard image.width > 0, image.height > 0,
                  let p = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(image.width), Int32(image.height), nil, 0),
                  let data = pixman_image_get_data(p) else { return nil }
            let stride = Int(pixman_image_get_stride(p)) / 4
            image.pixels.withUnsafeBufferPointer { src in
                for row in 0..<image.height {
                    (data + row * stride).update(from: src.baseAddress! + row * image.width, count: image.width)
                }
            }
            guard let shared = SharedImage(adopting: p) else { return nil }
            self.image = image
            self.shared = shared
            byteCount = image.pixels.count * 4
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var lastUse: [ObjectIdentifier: Int] = [:]
    private var clock = 0
    private var bytes = 0
    /// Pixel memory kept at most (256 MiB).
    var byteLimit = 256 << 20

    /// The pixels of `image` for drawing, or nil for an empty image.
    func sharedImage(for image: Image) -> SharedImage? {
        let id = ObjectIdentifier(image)
        clock += 1
        lastUse[id] = clock
        if let e = entries[id], e.image === image { return e.shared }
        guard let e = Entry(image) else { return nil }
        entries[id] = e
        bytes += image.pixels.count * 4
        evict(keeping: id)
        return e.shared
    }

    /// Drops the least recently used images until the cache fits its limit.
    private func evict(keeping kept: ObjectIdentifier) {
        while bytes > byteLimit, let oldest = lastUse.filter({ $0.key != kept }).min(by: { $0.value < $1.value })?.key {
            remove(oldest)
        }
    }

    private func remove(_ id: ObjectIdentifier) {
        if let e = entries.removeValue(forKey: id) { bytes -= e.byteCount }
        lastUse[id] = nil
    }

    /// Pixel bytes held now.
    var heldBytes: Int { bytes }

    /// Drops images that no longer exist.
    func purge() {
        for (id, e) in entries where e.image == nil { remove(id) }
    }
}
