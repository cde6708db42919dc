import LayerKit
import WaylandClient

/// One pending wake-up on an event loop at a media time — the next animation
/// start or event: scheduling another replaces it. A time already due wakes very
/// soon (1 ms), not never; an infinite one not at all.
@MainActor
final class MediaWakeUp {
    private let loop: EventLoop?
    private var token: EventLoop.TimerToken?

    init(loop: EventLoop?) { self.loop = loop }

    func schedule(atMediaTime time: Double, _ body: @escaping @MainActor () -> Void) {
        cancel()
        guard let loop, time.isFinite else { return }
        let now = currentMediaTime()
        token = loop.schedule(at: MonotonicClock.now + max(0.001, time - now)) { [weak self] in
            self?.token = nil
            body()
        }
    }

    func cancel() {
        if let token { loop?.cancel(token) }
        token = nil
    }
}
