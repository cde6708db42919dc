import PixmanRender
import WaylandClient

/// Captures a compositor's output through `ext-image-copy-capture-v1`, the
/// capture protocol that replaces wlroots' screencopy (wlroots 0.18, and
/// others since): a session on the first output's image source tells the buffer
/// size and formats, a shared-memory buffer of that size is attached to a
/// frame, and the compositor copies the output into it. Used by
/// ``AttachedCompositor`` when the compositor offers it.
@MainActor
public enum ImageCopyCapture {
    /// Whether `display`'s compositor offers output capture through this protocol.
    public static func isOffered(by display: Display) -> Bool {
        let names = Set(display.registry.globals.values.map(\.interface))
        return names.contains(ExtImageCopyCaptureManagerV1.interfaceName) && names.contains(ExtOutputImageCaptureSourceManagerV1.interfaceName)
    }

    /// One frame of the first output (by global name), as premultiplied pixels.
    public static func capture(_ display: Display, timeout: Double = 10) throws(CompositorError) -> RenderedImage {
        func fail(_ why: String) -> CompositorError { .screenshotFailed("ext-image-copy-capture: " + why) }
        guard let output = display.outputs.sorted(by: { $0.key < $1.key }).first?.value else { throw fail("the compositor has no output") }
        let manager: ExtImageCopyCaptureManagerV1, sources: ExtOutputImageCaptureSourceManagerV1
        do {
            manager = try display.registry.bind(ExtImageCopyCaptureManagerV1.self)
            sources = try display.registry.bind(ExtOutputImageCaptureSourceManagerV1.self)
        } catch { throw fail("not offered (\(error))") }
        defer { manager.destroy(); sources.destroy() }
        let source = sources.createSource(output: output.proxy)
        defer { source.destroy() }
        let session = manager.createSession(source: source, options: [])
        defer { session.destroy() }
        var size: (Int, Int)?, formats: [UInt32] = [], constraints = false, stopped = false
        session.onEvent = { event in
            switch event {
            case let .bufferSize(w, h): size = (Int(w), Int(h))
            case let .shmFormat(f): formats.append(f)
            case .done: constraints = true
            case .stopped: stopped = true
            case .dmabufDevice, .dmabufFormat: break
            }
        }
        do { try display.connection.dispatch(until: { constraints || stopped }, timeout: timeout, what: "the capture session's buffer constraints") }
        catch { throw fail("\(error)") }
        guard !stopped else { throw fail("the session stopped") }
        // 8-bit RGB in 32 bits, which pixman and RenderedImage read directly.
        let usable: [WlShm.Format] = [.xrgb8888, .argb8888]
        guard let (w, h) = size, w > 0, h > 0, w <= ShmBufferPool.maximumDimension, h <= ShmBufferPool.maximumDimension else {
            throw fail("no usable buffer size (\(String(describing: size)))")
        }
        guard let format = usable.first(where: { formats.contains($0.rawValue) }) else { throw fail("no shared-memory format it can read (offered \(formats))") }
        let pool = ShmBufferPool(shm: display.shm, format: format)
        let buffer: ShmBuffer
        do { buffer = try pool.nextBuffer(width: w, height: h) } catch { throw fail("\(error)") }
        let frame = session.createFrame()
        defer { frame.destroy() }
        var ready = false, failure: UInt32?
        frame.onEvent = { event in
            switch event {
            case .ready: ready = true
            case let .failed(reason): failure = reason.rawValue
            case .transform, .damage, .presentationTime: break
            }
        }
        frame.attachBuffer(buffer: buffer.wlBuffer)
        frame.damageBuffer(x: 0, y: 0, width: Int32(w), height: Int32(h))
        frame.capture()
        do { try display.connection.dispatch(until: { ready || failure != nil }, timeout: timeout, what: "the captured frame") }
        catch { throw fail("\(error)") }
        if let failure { throw fail("the compositor could not capture (reason \(failure): " + (failure == 1 ? "buffer constraints)" : failure == 2 ? "stopped)" : "unknown)")) }
        return image(of: buffer)
    }
}
