import Glibc
import PixmanRender

/// An app run without a compositor (rule W3): media time advances on a
/// `ManualMediaClock` in equal steps, each step commits and delivers what falls
/// due as a frame would, and every shown window is rendered at each step. The
/// last frame and a filmstrip are written as PNGs.
///
/// Memory stays bounded whatever the duration or the number of windows: a
/// filmstrip keeps at most ``maximumFilmstripFrames`` frames, spread evenly over
/// the run (fewer when the windows' frames would pass ``filmstripBudget``; none
/// past it, with a note), and the last frame is rendered once at the end. Windows
/// with the same title get files of their own (`TITLE-2.png`, …).
@MainActor
struct OffscreenRun {
    let directory: String
    let duration: Double
    let framesPerSecond: Double

    /// Frames in one window's filmstrip, at most.
    static let maximumFilmstripFrames = 16
    /// Bytes all filmstrip frames together may hold.
    static let filmstripBudget = 512 << 20
    /// The longest run, in media seconds, and the highest rate; more is clamped.
    static let maximumDuration = 3_600.0
    static let maximumFramesPerSecond = 240.0

    func run(_ windows: [Window]) throws {
        let clock = ManualMediaClock(now: currentMediaTime())
        let previous = MediaTime.clock
        MediaTime.clock = clock
        defer { MediaTime.clock = previous }
        let fps = min(Self.maximumFramesPerSecond, framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 8)
        let seconds = min(Self.maximumDuration, duration.isFinite && duration > 0 ? duration : 1)
        let steps = max(1, Int((seconds * fps).rounded()))
        let kept = Self.filmstripSteps(steps: steps, windows: windows)
        if kept.count < min(steps + 1, Self.maximumFilmstripFrames) {
            Diagnostics.report(.invalidView("offscreen run: \(windows.count) windows' filmstrips hold \(kept.count) frames each, to stay within \(Self.filmstripBudget >> 20) MiB"))
        }
        var strips: [ObjectIdentifier: [RenderedImage]] = [:]
        for step in 0...steps {
            if step > 0 { clock.advance(by: 1 / fps) }
            Transaction.flush()
            guard kept.contains(step) else { continue }
            for window in windows {
                strips[ObjectIdentifier(window), default: []].append(window.snapshot(atTime: clock.now))
            }
        }
        mkdir(directory, 0o755)
        var used: [String: Int] = [:]
        for window in windows {
            var name = Self.fileName(window.title)
            used[name, default: 0] += 1
            if let n = used[name], n > 1 { name += "-\(n)" }
            try write(window.snapshot(atTime: clock.now), to: "\(directory)/\(name).png")
            if let frames = strips.removeValue(forKey: ObjectIdentifier(window)), !frames.isEmpty {
                try write(RenderedImage(strip: frames), to: "\(directory)/\(name)-filmstrip.png")
            }
        }
    }

    /// The steps whose frames go into the filmstrips: all of them up to the
    /// limit, else that many spread evenly from the first to the last.
    static func filmstripSteps(steps: Int, windows: [Window]) -> Set<Int> {
        let frameBytes = windows.reduce(0) { total, w in
            total + 4 * Int((w.size.width * w.scale).rounded(.up)) * Int((w.size.height * w.scale).rounded(.up))
        }
        let affordable = frameBytes > 0 ? filmstripBudget / frameBytes : maximumFilmstripFrames
        let count = min(steps + 1, maximumFilmstripFrames, affordable)
        guard count > 1 else { return count == 1 ? [steps] : [] }
        return Set((0..<count).map { Int((Double($0) * Double(steps) / Double(count - 1)).rounded()) })
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
