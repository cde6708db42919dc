import PixmanRender
import WaylandClient

/// A shared-memory buffer's pixels (xrgb8888 made opaque; argb8888 is premultiplied already).
@MainActor
func image(of buffer: ShmBuffer) -> RenderedImage {
    var pixels: [UInt32] = []
    pixels.reserveCapacity(buffer.width * buffer.height)
    for y in 0..<buffer.height {
        let row = (buffer.data + y * buffer.stride).assumingMemoryBound(to: UInt32.self)
        for x in 0..<buffer.width { pixels.append(buffer.format == .xrgb8888 ? row[x] | 0xff00_0000 : row[x]) }
    }
    return RenderedImage(width: buffer.width, height: buffer.height, pixels: pixels)
}

extension Window {
    /// The pixels this client last gave the compositor — its own last committed
    /// buffer, read back (compositor-integration capture without a capture
    /// protocol); nil before the first frame or while a frame is being drawn.
    public func lastCommittedFrame() -> RenderedImage? {
        guard let toplevel, !toplevel.isDrawing, let buffer = toplevel.lastCommittedBuffer else { return nil }
        return image(of: buffer)
    }
}
