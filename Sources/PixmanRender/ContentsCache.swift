import CPixman
import LayerKit

/// pixman images for layer `contents`, made once per `Image` and dropped when the
/// `Image` is gone — or, past ``byteLimit``, the least recently used first.
@MainActor
final class ContentsCache {
    private final class Entry {
        weak var image: Image?
        let pixman: OpaquePointer
        let pixels: UnsafeMutablePointer<UInt32>
        let byteCount: Int
        init?(_ image: Image) {
            guard image.width > 0, image.height > 0 else { return nil }
            pixels = .allocate(capacity: image.pixels.count)
            pixels.initialize(from: image.pixels, count: image.pixels.count)
            guard let p = pixman_image_create_bits(PIXMAN_a8r8g8b8, Int32(image.width), Int32(image.height), pixels, Int32(image.width * 4)) else {
                pixels.deallocate()
                return nil
            }
            self.image = image
            pixman = p
            byteCount = image.pixels.count * 4
        }
        deinit {
            pixman_image_unref(pixman)
            pixels.deallocate()
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var lastUse: [ObjectIdentifier: Int] = [:]
    private var clock = 0
    private var bytes = 0
    /// Pixel memory kept at most (256 MiB).
    var byteLimit = 256 << 20

    /// The pixman image for `image`, or nil for an empty image.
    func pixmanImage(for image: Image) -> OpaquePointer? {
        let id = ObjectIdentifier(image)
        clock += 1
        lastUse[id] = clock
        if let e = entries[id], e.image === image { return e.pixman }
        guard let e = Entry(image) else { return nil }
        entries[id] = e
        bytes += image.pixels.count * 4
        evict(keeping: id)
        return e.pixman
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
