import Glibc
import PixmanRender
import WaylandClient

/// Why ``Window/placeOnScreen(of:timeout:)`` found no place.
public struct WindowNotFound: Error, CustomStringConvertible {
    public let description: String
}

extension Window {
    /// Where this window's surface (its point 0, 0, shadow margins included)
    /// is on the compositor's output, in the output's logical pixels: the
    /// place where a capture of the screen shows the window's last committed
    /// frame. A Wayland client cannot ask where it is; this is how a test
    /// aims injected input at a window that is neither fullscreen nor
    /// maximized (``InputDriver/init(window:on:loop:)``).
    ///
    /// Only the frame's opaque pixels are compared (shadows blend with what
    /// is below), each within 3 per channel. Frames and captures are taken
    /// again, turning the app's loop, until one matches or `timeout` passes.
    public func placeOnScreen(of compositor: any Compositor, timeout: Double = 10) throws -> Point {
        let deadline = MonotonicClock.now + timeout
        var why = "no frame committed"
        repeat {
            try Application.shared.loop?.turn(timeout: 0.05)
            guard let frame = lastCommittedFrame() else { continue }
            guard scale == 1 else { throw WindowNotFound(description: "the window draws at scale \(scale): its frame is found only at scale 1") }
            let shot = try compositor.screenshot(timeout: max(1, deadline - MonotonicClock.now))
            if let place = Self.find(frame, in: shot) { return place }
            why = "its \(frame.width)x\(frame.height) frame is nowhere on the \(shot.width)x\(shot.height) screen"
        } while MonotonicClock.now < deadline
        throw WindowNotFound(description: "the window \"\(title)\" was not found on \(compositor.name)'s screen within \(timeout) s: \(why)")
    }

    /// The offset at which `frame`'s opaque pixels (a grid of them) appear in
    /// `shot`; nil when none does. The frame may reach up to 64 pixels past
    /// the screen's edges (mutter places a window's shadow margin above the
    /// top), as long as most of it is on the screen.
    static func find(_ frame: RenderedImage, in shot: RenderedImage) -> Point? {
        let reach = 64
        guard frame.width <= shot.width + 2 * reach, frame.height <= shot.height + 2 * reach else { return nil }
        // Opaque pixels every 4th row and column; the first few unlike each
        // other reject most offsets after a pixel or two.
        var samples: [(x: Int, y: Int, word: UInt32)] = []
        for y in stride(from: 0, to: frame.height, by: 4) {
            for x in stride(from: 0, to: frame.width, by: 4) {
                let w = frame.word(x: x, y: y)
                if w >> 24 == 0xff { samples.append((x, y, w)) }
            }
        }
        guard !samples.isEmpty else { return nil }
        var anchors: [(x: Int, y: Int, word: UInt32)] = []
        for s in samples where anchors.count < 8 && !anchors.contains(where: { close($0.word, s.word) }) { anchors.append(s) }
        for oy in -reach...(shot.height - frame.height + reach) {
            for ox in -reach...(shot.width - frame.width + reach) {
                func matches(_ s: (x: Int, y: Int, word: UInt32)) -> Bool? {
                    let x = ox + s.x, y = oy + s.y
                    guard x >= 0, y >= 0, x < shot.width, y < shot.height else { return nil }
                    return close(shot.word(x: x, y: y), s.word)
                }
                guard anchors.allSatisfy({ matches($0) ?? true }) else { continue }
                var seen = 0, misses = 0
                for s in samples {
                    guard let ok = matches(s) else { continue }
                    seen += 1
                    if !ok { misses += 1 }
                    if misses > samples.count / 50 { break }   // a caret, a blinking pixel
                }
                if misses <= samples.count / 50 && seen * 5 >= samples.count * 4 { return Point(x: Double(ox), y: Double(oy)) }
            }
        }
        return nil
    }

    private static func close(_ a: UInt32, _ b: UInt32) -> Bool {
        for shift in [0, 8, 16] as [UInt32] where abs(Int((a >> shift) & 0xff) - Int((b >> shift) & 0xff)) > 3 { return false }
        return true
    }
}
