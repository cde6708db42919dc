import CPixman
import CShims
import Glibc

/// Why a shared-memory buffer could not be made.
public enum ShmError: Error, Equatable, CustomStringConvertible {
    /// Width or height is zero, negative, or larger than ``ShmBufferPool/maximumDimension``.
    case invalidSize(width: Int, height: Int)
    /// A system call failed; `errno` says why.
    case system(call: String, errno: Int32)

    public var description: String {
        switch self {
        case let .invalidSize(w, h): "cannot make a \(w)×\(h) buffer (each side must be 1…\(ShmBufferPool.maximumDimension))"
        case let .system(call, e): "\(call) failed: \(String(cString: strerror(e)))"
        }
    }
}

/// A `wl_buffer` over shared memory, with a pixman image over the same pixels.
///
/// The compositor holds the buffer from the commit that attaches it until it
/// sends `release`; meanwhile ``isBusy`` is true and nothing may draw into it.
/// ``age`` says how many frames old its contents are (0: undefined), so a
/// renderer can repaint only what changed since.
@MainActor
public final class ShmBuffer {
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    public let format: WlShm.Format
    public let wlBuffer: WlBuffer
    /// The pixels: `stride * height` bytes, 32-bit words in native byte order.
    public let data: UnsafeMutableRawPointer
    /// A pixman image over ``data`` (`pixman_image_t *`).
    public let image: OpaquePointer
    /// True from attach-and-commit until the compositor releases the buffer.
    public internal(set) var isBusy = false
    /// The frame number whose contents the buffer holds; 0 for none.
    public internal(set) var contentFrame: UInt64 = 0
    private let byteCount: Int

    init(shm: WlShm, width: Int, height: Int, format: WlShm.Format) throws(ShmError) {
        guard width > 0, height > 0, width <= ShmBufferPool.maximumDimension, height <= ShmBufferPool.maximumDimension else {
            throw .invalidSize(width: width, height: height)
        }
        let stride = width * 4
        let size = stride * height
        let fd = strata_memfd_create("strata-shm")
        guard fd >= 0 else { throw .system(call: "memfd_create", errno: errno) }
        defer { close(fd) }
        guard ftruncate(fd, off_t(size)) == 0 else { throw .system(call: "ftruncate", errno: errno) }
        _ = strata_memfd_seal(fd)  // best effort: an unsealed memfd still works
        guard let map = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), map != MAP_FAILED else {
            throw .system(call: "mmap", errno: errno)
        }
        let pool = shm.createPool(fd: fd, size: Int32(size))
        wlBuffer = pool.createBuffer(offset: 0, width: Int32(width), height: Int32(height), stride: Int32(stride), format: format)
        pool.destroy()
        let pixmanFormat = format == .xrgb8888 ? PIXMAN_x8r8g8b8 : PIXMAN_a8r8g8b8
        guard let img = pixman_image_create_bits(pixmanFormat, Int32(width), Int32(height), map.assumingMemoryBound(to: UInt32.self), Int32(stride)) else {
            munmap(map, size)
            throw .system(call: "pixman_image_create_bits", errno: ENOMEM)
        }
        (self.width, self.height, self.stride, self.format) = (width, height, stride, format)
        data = map
        image = img
        byteCount = size
    }

    isolated deinit {
        pixman_image_unref(image)
        wlBuffer.destroy()
        munmap(data, byteCount)
    }

    /// How many frames old the contents are at `frame`; 0 when they are undefined.
    public func age(atFrame frame: UInt64) -> UInt64 {
        contentFrame == 0 ? 0 : frame - contentFrame
    }
}
