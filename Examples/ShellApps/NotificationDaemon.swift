import LayerKit
import PixmanRender
import Strata

/// A notification daemon, as mako is: it serves the freedesktop Notifications
/// interface (``NotificationServer``) and shows each notification as a toast at
/// the top right of the screen (``ToastColumn``) — on the top shell layer,
/// sized to its toasts.
///
/// At most ``maximumShown`` toasts show at once; more wait in order and come in
/// as others close. The queue is bounded (``maximumPending``): past it the oldest
/// waiting notification that is not critical is closed as expired (the sender is
/// told), so a flood costs bounded memory and no notification disappears
/// without its `NotificationClosed`.
@MainActor
public final class NotificationDaemon {
    public static let maximumShown = 5
    public static let maximumPending = 200
    /// `NotificationClosed` reasons.
    public enum Reason: UInt32 { case expired = 1, dismissed = 2, closedByCall = 3 }

    public let window: ShellWindow
    let column = ToastColumn()
    /// What shows, newest first.
    public private(set) var shown: [Toast] = []
    /// What waits for room, oldest first.
    public private(set) var pending: [Toast] = []
    public var icons = IconTheme() { didSet { iconImages = [:] } }
    /// Icons looked up and read so far, by name (a miss too): a lookup probes
    /// hundreds of paths, and apps send the same icon again and again.
    private var iconImages: [String: Image?] = [:]
    /// Told of every close (id, reason) and action (id, key), after the bus is.
    public var onClosed: ((UInt32, Reason) -> Void)?
    public var onAction: ((UInt32, String) -> Void)?
    private(set) var server: NotificationServer?
    private var nextID: UInt32 = 0
    private var timers: [UInt32: MediaTimer] = [:]
    private var views: [UInt32: ToastView] = [:]
    /// Calls arrive on the main queue; they run in the context this daemon was made in.
    private let context = LayerContext.current

    public init(screen: Screen? = nil) {
        window = ShellWindow(layer: .top, namespace: "notifications", screen: screen, size: Size(width: ToastView.width, height: 1))
        window.anchors = [.top, .right]
        window.margins = EdgeInsets(top: 8, right: 8)
        window.sizesToFitContent = true
        window.rootView = column
    }

    /// Called when the bus goes away (the session ended): a daemon then ends too.
    public var onBusClosed: (() -> Void)?

    /// Serves the interface on the bus at `address` (default: the session bus).
    public func start(busAddress: String? = nil) throws(NotificationServer.StartError) {
        let context = context
        let server = NotificationServer { [weak self] call in context.run { self?.handle(call) } }
        server.onClosed = { [weak self] in context.run { self?.onBusClosed?() } }
        try server.start(address: busAddress)
        self.server = server
    }

    public func stop() {
        server?.stop()
        server = nil
    }

    private func handle(_ call: NotificationServer.Call) {
        switch call {
        case let .notify(request, reply): reply(notify(request))
        case let .close(id, reply): reply(close(id, reason: .closedByCall))
        }
    }

    /// Shows (or queues) a notification; returns its ID. A `replacesID` of one
    /// that shows or waits updates it in place and keeps the ID.
    @discardableResult
    public func notify(_ request: NotificationServer.Request) -> UInt32 {
        let r = request.replacesID
        if r != 0, let i = shown.firstIndex(where: { $0.id == r }) {
            shown[i] = Toast(id: r, request: request)
            views[r]?.update(shown[i], icon: icon(shown[i]))
            column.relayout()
            startTimer(shown[i])
            return r
        }
        if r != 0, let i = pending.firstIndex(where: { $0.id == r }) {
            pending[i] = Toast(id: r, request: request)
            return r
        }
        let toast = Toast(id: r != 0 ? r : newID(), request: request)
        if shown.count < Self.maximumShown { present(toast) } else { enqueue(toast) }
        return toast.id
    }

    /// Closes a notification that shows or waits; false when there is none.
    @discardableResult
    public func close(_ id: UInt32, reason: Reason) -> Bool {
        if let i = pending.firstIndex(where: { $0.id == id }) {
            pending.remove(at: i)
            closed(id, reason)
            return true
        }
        guard let i = shown.firstIndex(where: { $0.id == id }) else { return false }
        shown.remove(at: i)
        timers.removeValue(forKey: id)?.cancel()
        if let view = views.removeValue(forKey: id) { column.remove(view) }
        closed(id, reason)
        if !pending.isEmpty { present(pending.removeFirst()) }
        if shown.isEmpty {
            // Once the last toast has slid out, the surface goes.
            MediaTimer.schedule(after: 0.5) { [weak self] in
                guard let self, self.shown.isEmpty else { return }
                self.window.close()
            }
        }
        return true
    }

    private func closed(_ id: UInt32, _ reason: Reason) {
        server?.notificationClosed(id, reason: reason.rawValue)
        onClosed?(id, reason)
    }

    private func present(_ toast: Toast) {
        shown.insert(toast, at: 0)
        let view = ToastView(toast, icon: icon(toast))
        view.onAction = { [weak self] key in
            guard let self else { return }
            server?.actionInvoked(toast.id, key: key)
            onAction?(toast.id, key)
            close(toast.id, reason: .dismissed)
        }
        view.onDismiss = { [weak self] in self?.close(toast.id, reason: .dismissed) }
        views[toast.id] = view
        if !window.isVisible { window.show() }
        column.insert(view)
        startTimer(toast)
    }

    private func enqueue(_ toast: Toast) {
        pending.append(toast)
        guard pending.count > Self.maximumPending else { return }
        let victim = pending.firstIndex { $0.urgency < 2 } ?? 0
        let dropped = pending.remove(at: victim)
        closed(dropped.id, .expired)
    }

    /// The toast's icon, from the cache or the icon theme (at most 64 names kept).
    private func icon(_ toast: Toast) -> Image? {
        guard let name = toast.icon else { return nil }
        if let known = iconImages[name] { return known }
        if iconImages.count >= 64 { iconImages = [:] }
        let image = icons.path(for: name).flatMap { Image(contentsOfFile: $0) }
        iconImages[name] = image
        return image
    }

    private func startTimer(_ toast: Toast) {
        timers.removeValue(forKey: toast.id)?.cancel()
        guard let lifetime = toast.lifetime else { return }
        timers[toast.id] = MediaTimer.schedule(after: lifetime) { [weak self] in self?.close(toast.id, reason: .expired) }
    }

    private func newID() -> UInt32 {
        repeat {
            nextID = nextID == UInt32.max ? 1 : nextID + 1
        } while shown.contains { $0.id == nextID } || pending.contains { $0.id == nextID }
        return nextID
    }
}
