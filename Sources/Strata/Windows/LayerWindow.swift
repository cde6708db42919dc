import PixmanRender
import WaylandClient

/// A layer tree shown in a Wayland window: the glue between LayerKit, the pixman
/// compositor and a frame-paced `ToplevelWindow`.
///
/// Each frame draws the tree's presentation at the frame's target time (rule
/// R5), reading the layers on the main thread and drawing the pixels on the
/// render workers, so the main thread stays free for events meanwhile. A commit
/// that changed something asks for a frame; while `AnimationTimeline` reports
/// animations in flight frames keep coming, and when nothing will change the
/// window stops asking — an idle window costs nothing. A scheduled animation (a
/// `beginTime` in the future) wakes the window with a timer. The root layer is
/// sized to the window and counts as presented (rule B5). Frames show the media
/// time of the installed clock (`ManualMediaClock` included), as a `Window`'s do.
@MainActor
public final class LayerWindow {
    public let window: ToplevelWindow
    public let rootLayer: Layer
    /// What is behind the root layer.
    public var backgroundColor: Color = .black {
        didSet {
            renderer.repaintEverything()
            window.setNeedsDisplay()
        }
    }
    private let renderer = LayerRenderer()
    /// Changes, motion and wake-ups of the tree, as a `Window`'s surface has them.
    private let frameLoop: SurfaceFrameLoop

    /// Opens a window showing `rootLayer` (a new layer when nil). Pass the event
    /// loop the app runs, so implicit transactions commit at the end of its turns
    /// and scheduled animations can wake the window.
    public init(display: Display, loop: EventLoop? = nil, title: String, width: Int = 640, height: Int = 480, rootLayer: Layer? = nil) {
        let window = ToplevelWindow(display: display, title: title, appID: Application.shared.applicationID, width: width, height: height)
        self.window = window
        self.rootLayer = rootLayer ?? Layer()
        frameLoop = SurfaceFrameLoop(root: self.rootLayer, loop: loop, deliversAllEvents: true) { window.setNeedsDisplay() }
        self.rootLayer.anchorPoint = .zero
        PresentationHosts.attach(self.rootLayer)
        if let loop {
            Transaction.endOfTurnScheduler = { body in loop.atEndOfTurn(body) }
        }
        Transaction.setCommitObserver(for: ObjectIdentifier(self)) { [weak self] in self?.frameLoop.transactionCommitted() }
        window.isAnimating = { [unowned self] in frameLoop.isAnimating }
        window.onConfigure = { [unowned self] w in
            Transaction.withoutActions {
                self.rootLayer.bounds = Rect(x: 0, y: 0, width: Double(w.width), height: Double(w.height))
                self.rootLayer.position = .zero
            }
            Transaction.flush()
        }
        window.onDiscardAhead = { [unowned self] in renderer.discardLastFrame() }
        // The layers are read on the main thread; the pixels are drawn on the render
        // workers while the main thread goes back to its events.
        window.onDrawAsync = { [unowned self] context, finish in
            frameLoop.drawFrame(context, renderer: renderer, background: backgroundColor, connection: display.connection, finish: finish)
        }
    }

    isolated deinit {
        frameLoop.cancel()
        Transaction.setCommitObserver(for: ObjectIdentifier(self), nil)
        PresentationHosts.detach(rootLayer)
    }
}
