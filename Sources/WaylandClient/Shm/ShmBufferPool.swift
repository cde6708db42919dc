/// Hands out shared-memory buffers for a surface and takes them back when the
/// compositor releases them.
///
/// A buffer the compositor holds is never handed out. When every buffer is held
/// — some compositors (sway) release late — another is allocated rather than
/// waiting, so drawing never stalls; in a steady state the same few buffers
/// cycle and nothing new is allocated. A new size replaces the buffers (busy
/// ones are dropped when released), and at most ``maximumIdle`` idle buffers
/// are kept.
@MainActor
public final class ShmBufferPool {
    /// The largest width or height accepted (the shm protocol itself has no limit).
    public nonisolated static let maximumDimension = 16_384
    public let shm: WlShm
    public let format: WlShm.Format
    /// Buffers kept when idle.
    public var maximumIdle = 3
    private(set) var buffers: [ShmBuffer] = []
    /// Buffers allocated over the pool's lifetime.
    public private(set) var allocationCount = 0

    public init(shm: WlShm, format: WlShm.Format = .argb8888) {
        self.shm = shm
        self.format = format
    }

    /// The buffers the pool owns now.
    public var bufferCount: Int { buffers.count }

    /// A buffer of the size that the compositor does not hold: a released one when
    /// there is one (the one with the newest contents first), else a new one.
    public func nextBuffer(width: Int, height: Int) throws(ShmError) -> ShmBuffer {
        buffers.removeAll { !$0.isBusy && ($0.width != width || $0.height != height) }
        let free = buffers.filter { !$0.isBusy && $0.width == width && $0.height == height }
        if let best = free.max(by: { $0.contentFrame < $1.contentFrame }) {
            return best
        }
        let buffer = try ShmBuffer(shm: shm, width: width, height: height, format: format)
        allocationCount += 1
        // Weak, not unowned: a buffer whose last reference went on a render worker
        // is gone before its (main-actor) deinit destroys the wl_buffer, and a
        // release can come in between (seen closing menus quickly).
        buffer.wlBuffer.onEvent = { [weak self, weak buffer] event in
            guard case .release = event, let buffer else { return }
            buffer.isBusy = false
            self?.trim(width: width, height: height)
        }
        buffers.append(buffer)
        return buffer
    }

    /// Marks a buffer as attached: the compositor holds it until it releases it.
    public func markAttached(_ buffer: ShmBuffer, frame: UInt64) {
        buffer.isBusy = true
        buffer.contentFrame = frame
    }

    /// Gives `buffer` up now, whether the compositor holds it or not: it is destroyed
    /// when its last reference goes (the compositor keeps what it needs of an shm
    /// buffer, so this is legal, if unusual).
    public func discard(_ buffer: ShmBuffer) {
        buffers.removeAll { $0 === buffer }
    }

    /// Drops released buffers of another size and idle buffers beyond the limit.
    private func trim(width: Int, height: Int) {
        buffers.removeAll { !$0.isBusy && ($0.width != width || $0.height != height) }
        var idle = buffers.filter { !$0.isBusy }
        while idle.count > maximumIdle, let oldest = idle.min(by: { $0.contentFrame < $1.contentFrame }) {
            buffers.removeAll { $0 === oldest }
            idle.removeAll { $0 === oldest }
        }
    }

    /// Releases every buffer (busy ones too; the compositor keeps its own mapping).
    public func removeAll() {
        buffers.removeAll()
    }
}
