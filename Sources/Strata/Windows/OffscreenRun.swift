import Glibc
import PixmanRender

/// An app run without a compositor (rule W3): media time advances on a
/// `ManualMediaClock` in equal steps, each step commits and delivers what falls
/// due as a frame would, and every shown window is rendered at each step. The
/// last frame and a filmstrip of all of them are written as PNGs.
@MainActor
struct OffscreenRun {
    let directory: String
    let duration: Double
    let framesPerSecond: Double

    func run(_ windows: [Window]) throws {
        let clock = ManualMediaClock(now: currentMediaTime())
        let previous = MediaTime.clock
        MediaTime.clock = clock
        defer { MediaTime.clock = previous }
        let steps = max(1, Int((duration * framesPerSecond).rounded()))
        var frames: [ObjectIdentifier: [RenderedImage]] = [:]
        for step in 0...steps {
            if step > 0 { clock.advance(by: 1 / framesPerSecond) }
            Transaction.flush()
            for window in windows {
                frames[ObjectIdentifier(window), default: []].append(window.snapshot(atTime: clock.now))
            }
        }
        mkdir(directory, 0o755)
        for window in windows {
            let images = frames[ObjectIdentifier(window)] ?? []
            let name = Self.fileName(window.title)
            try write(images.last, to: "\(directory)/\(name).png")
            try write(RenderedImage(strip: images), to: "\(directory)/\(name)-filmstrip.png")
        }
    }

    private func write(_ image: RenderedImage?, to path: String) throws {
        guard let image else { return }
        do { try image.writePNG(to: path) } catch { throw ApplicationError.cannotWrite(path: path, reason: "\(error)") }
    }

    /// A window title as a file name: letters, digits, '-' and '_' kept, the rest '-'.
    static func fileName(_ title: String) -> String {
        let kept = title.unicodeScalars.map { c -> Character in
            (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "-" || c == "_") && c.isASCII ? Character(c) : "-"
        }
        let name = String(kept)
        return name.isEmpty ? "window" : name
    }
}
