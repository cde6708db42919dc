import LayerKit
import PixmanRender
import WaylandClient

/// What every surface's frame loop shares, between the compositor's frame
/// callbacks: whether its own tree changed since the last frame drew, whether
/// something in its tree moves (frames keep coming), and a timer for what frames
/// alone would miss — the next animation start in the tree, or an animation event
/// falling due — and the life of one frame, in order, in
/// ``drawFrame(_:renderer:background:connection:layout:finish:)``. `Window`'s
/// surface and `LayerWindow` both use it.
///
/// Each surface asks its own tree (`root`): a commit or an animation in another
/// window neither wakes this one nor makes it commit.
@MainActor
final class SurfaceFrameLoop {
    /// The root of the surface's layer tree.
    let root: Layer
    /// Also wake for animation events and media timers outside the tree (a bare
    /// `LayerWindow` is its own app; a `Window`'s app delivers those itself).
    private let deliversAllEvents: Bool
    /// Asks the surface for a frame.
    private let requestFrame: () -> Void
    private let wakeUp: MediaWakeUp
    /// The tree's subtree version the last frame drew.
    private var drawnVersion: UInt64 = 0
    /// Whether something in the tree moves, as of the last look (after each frame
    /// and commit): the surface keeps asking for frames while it does.
    private(set) var isAnimating = false

    init(root: Layer, loop: EventLoop?, deliversAllEvents: Bool, requestFrame: @escaping () -> Void) {
        self.root = root
        wakeUp = MediaWakeUp(loop: loop)
        self.deliversAllEvents = deliversAllEvents
        self.requestFrame = requestFrame
    }

    /// One frame, top to bottom, for the compositor's frame callback: what the
    /// tree shows at the frame's target time drawn into `context`'s buffer.
    /// `layout` lays out what comes first (a window's views), then the layers of
    /// the whole tree are. The layers are read on the main thread before this returns;
    /// the pixels are drawn on the render workers and `finish` gets the damage.
    func drawFrame(_ context: DrawContext, renderer: LayerRenderer, background: Color, connection: Connection,
                   layout: () -> Void = {}, finish: @escaping @MainActor (FrameDamage) -> Void) {
        // 1. Commit: changes made since the last frame become one transaction, and
        //    the animations it added begin now (rule T2).
        Transaction.flush()
        // 2. Layout: what setNeedsLayout or a new size marked (bounded).
        layout()
        root.layoutIfNeeded()
        // 3. Display: layers that draw their own content provide it.
        root.displayIfNeededInSubtree()
        // 4. Animation events due by now: starts, stops, completion blocks.
        AnimationTimeline.deliverDueEvents()
        frameReadTree()
        // 5. Damage, display list and bands: the presentation at the frame's target
        //    time (rule R5), a media time on the installed clock; the layers are read
        //    here, the pixels drawn on the render workers.
        renderer.renderAsync(root, into: context.buffer.image, scale: context.scale,
                             atTime: Self.mediaTime(atMonotonic: context.targetTime), background: background,
                             bufferAge: Int(clamping: context.bufferAge),
                             deliver: connection.poster) { repainted in
            // 6. Present: attach and commit what changed (nothing, when nothing did).
            withExtendedLifetime(context) {   // the buffer lives until its pixels are drawn
                guard let repainted else { return finish(.full) }
                finish(repainted.isEmpty ? .none : .rects(repainted.map {
                    (Int($0.minX), Int($0.minY), Int($0.width), Int($0.height))
                }))
            }
        }
        // 7. The next wake-up, for what frames alone would miss.
        scheduleWakeUp()
    }

    /// A transaction committed: a frame when the tree changed since the last one
    /// drew or is marked for layout or display, and another look at the timeline.
    func transactionCommitted() {
        if root.subtreeVersion != drawnVersion || root.isLayoutPendingInSubtree || root.isDisplayPendingInSubtree {
            requestFrame()
        }
        scheduleWakeUp()
    }

    /// The frame being prepared has read the tree as it is now (after commit,
    /// layout, display and due events).
    func frameReadTree() {
        Layer.noteSubtreeVersionsRead()
        drawnVersion = root.subtreeVersion
    }

    /// One look at the tree on the timeline: whether something moves now, and a
    /// wake-up for the next start or event. An event already due (a timer that
    /// came due while nothing drew) wakes it very soon, not never; each wake-up
    /// looks again, since what it delivered may have scheduled more.
    func scheduleWakeUp() {
        let now = currentMediaTime()
        let change = AnimationTimeline.nextChangeTime(after: now, under: root)
        isAnimating = change <= now
        let events = AnimationTimeline.nextEventTime(after: now, under: deliversAllEvents ? nil : root)
        wakeUp.schedule(atMediaTime: min(change > now ? change : .infinity, events)) { [weak self] in
            AnimationTimeline.deliverDueEvents()
            self?.requestFrame()
            self?.scheduleWakeUp()
        }
    }

    /// Stops waking (the surface closes).
    func cancel() { wakeUp.cancel() }

    /// The media time a frame aimed at CLOCK_MONOTONIC time `t` shows. On the
    /// system clock that is `t` itself — when the frame should reach the screen.
    /// Any other clock (a `ManualMediaClock`) moves only when told to, so the frame
    /// shows its current time, with no lead that wall-clock jitter would change.
    static func mediaTime(atMonotonic t: Double) -> Double {
        MediaTime.clock is MonotonicMediaClock ? t : currentMediaTime()
    }
}
