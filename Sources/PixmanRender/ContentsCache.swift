import CPixman
import LayerKit

/// pixman images for layer `contents`, made once per `Image` and dropped when the
/// `Image` is gone.
@MainActor
final class ContentsCache {
    private final class Entry {
        weak var image: Image?
        let pixman: OpaquePointer
        let pixels: UnsafeMutablePointer<UInt32>
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
        }
        deinit {
            pixman_image_unref(pixman)
            pixels.deallocate()
        }
    }

    private var entries: [ObjectIdentifier: Entry] = [:]

    /// The pixman image for `image`, or nil for an empty image.
    func pixmanImage(for image: Image) -> OpaquePointer? {
        let id = ObjectIdentifier(image)
        if let e = entries[id], e.image === image { return e.pixman }
        guard let e = Entry(image) else { return nil }
        entries[id] = e
        return e.pixman
    }

    /// Drops images that no longer exist.
    func purge() {
        entries = entries.filter { $0.value.image != nil }
    }
}
