import PixmanRender
import WaylandClient

/// A window on a compositor: its `xdg_toplevel`, its renderer and its frame loop
/// (`SurfaceFrameLoop`, where the life of one frame is, in order; rules W1, W2, R5).
///
/// State is per window: the application forwards each commit to its windows
/// (``transactionCommitted()``), and each window keeps its own wake-up timer.
@MainActor
final class OnscreenWindow {
    unowned let window: Window
    /// The surface's role: exactly one.
    enum Role {
        case toplevel(ToplevelWindow)
        /// A popup on another window.
        case popup(PopupWindow)
        /// A surface on a shell layer.
        case shell(ShellSurface)
        /// A session lock's surface.
        case lock(LockSurface)
    }
    let role: Role
    var toplevel: ToplevelWindow? { if case let .toplevel(t) = role { t } else { nil } }
    var popup: PopupWindow? { if case let .popup(p) = role { p } else { nil } }
    var shell: ShellSurface? { if case let .shell(s) = role { s } else { nil } }
    /// The surface, drawn and paced.
    let framed: FramedSurface
    let renderer = LayerRenderer()
    /// Changes, motion and wake-ups of the window's own tree.
    private let frameLoop: SurfaceFrameLoop
    /// True while a frame is being prepared: commits then need no new frame.
    private var preparingFrame = false
    /// The scale the views were last given.
    private var appliedScale = 1.0
    /// Whether the toplevel had the focus at its last configure.
    private var wasActive = false

    /// What every role shares: the surface drawn and paced by the window's own frame loop.
    private init(window: Window, role: Role, framed: FramedSurface, loop: EventLoop?) {
        self.window = window
        self.role = role
        self.framed = framed
        frameLoop = SurfaceFrameLoop(root: window.surfaceLayer, loop: loop, deliversAllEvents: false) { framed.setNeedsDisplay() }
        framed.isAnimating = { [unowned self] in frameLoop.isAnimating }
        framed.onDrawAsync = { [unowned self] context, finish in drawFrame(context, finish: finish) }
        framed.onDiscardAhead = { [unowned self] in renderer.discardLastFrame() }
    }

    /// A toplevel window.
    convenience init(window: Window, display: Display, loop: EventLoop?) {
        let toplevel = ToplevelWindow(display: display, title: window.title, appID: Application.shared.applicationID,
                                      width: Int(window.size.width.rounded()), height: Int(window.size.height.rounded()))
        self.init(window: window, role: .toplevel(toplevel), framed: toplevel.framed, loop: loop)
        applySizeLimits()
        toplevel.onConfigure = { [unowned self] t in
            updateDecorations()
            // Rule W2: the new size and the layout it causes in one transaction. The
            // compositor sizes the window's geometry: the title bar takes its part.
            let title = window.decorations == nil ? 0 : WindowDecorations.titleBarHeight
            self.window.applySize(Size(width: Double(t.width), height: max(1, Double(t.height) - title)))
            // Rule M2: the window's popups go when it loses the focus.
            let active = t.states.contains(.activated)
            if wasActive && !active { self.window.dismissPopups() }
            wasActive = active
        }
        toplevel.onDecorationModeChange = { [unowned self] _ in updateDecorations() }
        toplevel.onCloseRequest = { [unowned self] _ in
            if self.window.shouldClose?(self.window) ?? true { self.window.close() }
        }
        decorationPreferenceChanged()
    }

    /// A popup (``Popup``) on `parent`, placed by the compositor.
    convenience init(popupWindow window: Window, display: Display, loop: EventLoop?, parent: PopupParent, positioner: PopupPositioner,
                     grab: (seat: Seat, serial: UInt32)?, acceptsInput: Bool) {
        let popup = PopupWindow(display: display, parent: parent, positioner: positioner, grab: grab, acceptsInput: acceptsInput)
        self.init(window: window, role: .popup(popup), framed: popup.framed, loop: loop)
        popup.onConfigure = { [unowned self] p in self.window.popupHost?.placed(p.frame) }
        popup.onDismiss = { [unowned self] _ in self.window.popupHost?.dismissedByCompositor() }
    }

    /// A window on a shell layer (``ShellWindow``), sized by the compositor's configures.
    convenience init(window: Window, shell: ShellSurface, loop: EventLoop?) {
        self.init(window: window, role: .shell(shell), framed: shell.framed, loop: loop)
        shell.onConfigure = { [unowned self] s in self.window.applySize(Size(width: Double(s.width), height: Double(s.height))) }
        shell.onClosed = { [unowned self] _ in self.window.close() }   // its output went away
    }

    /// A session lock's surface on one output (``SessionLock``), sized by the compositor.
    convenience init(window: Window, lock: LockSurface, loop: EventLoop?) {
        self.init(window: window, role: .lock(lock), framed: lock.framed, loop: loop)
        lock.onConfigure = { [unowned self] l in self.window.applySize(Size(width: Double(l.width), height: Double(l.height))) }
    }

    // MARK: Decorations (rule W1)

    /// The seat and serial of the latest pointer or touch press on this window:
    /// moving and resizing through the compositor quote them.
    var latestPress: (seat: Seat, serial: UInt32)?
    /// The frame's latest request (for tests).
    private(set) var lastDecorationRequest: DecorationRequest?
    /// The window menu shown by the client, where the compositor shows none.
    private(set) var windowMenu: MenuSession?

    /// Asks for the decoration mode the window prefers, and draws a frame until
    /// (or unless) the compositor draws one.
    func decorationPreferenceChanged() {
        guard let toplevel else { return }
        toplevel.requestDecorationMode(serverSide: window.prefersServerSideDecorations)
        updateDecorations()
    }

    /// A frame of its own where the compositor draws none, except fullscreen;
    /// without edges when maximized.
    private func updateDecorations() {
        guard let toplevel else { return }
        let drawsOwn = !(toplevel.hasServerSideDecorations && window.prefersServerSideDecorations)
            && !toplevel.states.contains(.fullscreen)
        if drawsOwn, window.decorations == nil {
            let d = WindowDecorations(frame: .zero)
            d.onRequest = { [unowned self] in perform($0) }
            window.decorations = d
        } else if !drawsOwn, window.decorations != nil {
            window.decorations = nil
        }
        let floating = toplevel.states.isDisjoint(with: [.maximized, .fullscreen])
        if let d = window.decorations, d.isFloating != floating {
            d.isFloating = floating
            window.applySize(window.size)
        }
        let m = window.decorations.map { Int($0.insets.left) } ?? 0
        toplevel.margins = (m, m, m, m)
        if !toplevel.isConfigured {
            // The size the window asks for is its geometry's: content and title bar.
            let title = window.decorations == nil ? 0 : WindowDecorations.titleBarHeight
            toplevel.preferredHeight = Int((window.size.height + title).rounded())
        }
    }

    private func perform(_ request: DecorationRequest) {
        lastDecorationRequest = request
        guard let toplevel else { return }
        switch request {
        case .move:
            if let p = latestPress {
                toplevel.beginMove(seat: p.seat, serial: p.serial)
                window.input.grabbed()
            }
        case let .resize(edge):
            if let p = latestPress {
                toplevel.beginResize(seat: p.seat, serial: p.serial, edge: edge)
                window.input.grabbed()
            }
        case let .showMenu(point):
            guard toplevel.capabilities.contains(.windowMenu) else { return showOwnWindowMenu(at: point) }
            let m = Double(toplevel.margins.left)
            if let p = latestPress { toplevel.showWindowMenu(seat: p.seat, serial: p.serial, x: Int(point.x - m), y: Int(point.y - m)) }
        case .minimize:
            toplevel.minimize()
        case .toggleMaximized:
            window.isMaximized.toggle()
        case .close:
            if window.shouldClose?(window) ?? true { window.close() }
        }
    }

    /// The window menu the compositor would show, where it shows none (its
    /// `wm_capabilities` leave out the window menu): what it says it can do
    /// (minimize, maximize or restore) and Close, as a menu at `point` (surface coordinates).
    private func showOwnWindowMenu(at point: Point) {
        guard let toplevel else { return }
        var items: [MenuElement] = []
        if toplevel.capabilities.contains(.minimize) {
            items.append(MenuAction(title: "Minimize") { [weak self] _ in self?.perform(.minimize) })
        }
        if toplevel.capabilities.contains(.maximize) {
            items.append(MenuAction(title: window.isMaximized ? "Restore" : "Maximize") { [weak self] _ in self?.perform(.toggleMaximized) })
        }
        items.append(Menu(options: .displayInline, children: [MenuAction(title: "Close") { [weak self] _ in self?.perform(.close) }]))
        let o = window.contentOrigin
        windowMenu?.dismiss(animated: false)
        windowMenu = MenuSession.open(Menu(children: items), on: window, anchorRect: Rect(x: point.x - o.x, y: point.y - o.y, width: 1, height: 1),
                                      anchor: .topLeft)
    }

    /// One frame: the window's scale, then the frame loop's steps (commit,
    /// layout, display, due events, the presentation drawn, present, wake-up).
    private func drawFrame(_ context: DrawContext, finish: @escaping @MainActor (FrameDamage) -> Void) {
        // Views draw at the output's scale (rule X3).
        if context.scale != appliedScale {
            appliedScale = context.scale
            window.applyContentScale()
        }
        // Commits while the frame reads the tree need no frame of their own.
        preparingFrame = true
        defer { preparingFrame = false }
        frameLoop.drawFrame(context, renderer: renderer, background: window.surfaceClearColor,
                            connection: framed.display.connection, layout: { window.layoutIfNeeded() }, finish: finish)
    }

    /// A transaction committed: what this window shows may be different — only
    /// when its own tree changed (a commit made for another window's frame leaves
    /// this one silent).
    func transactionCommitted() {
        guard !preparingFrame else { return }
        frameLoop.transactionCommitted()
    }

    func applySizeLimits() {
        guard let toplevel else { return }
        let lo = window.minimumSize, hi = window.maximumSize
        toplevel.setSizeLimits(minWidth: Int(lo.width.rounded()), minHeight: Int(lo.height.rounded()),
                               maxWidth: Int(hi.width.rounded()), maxHeight: Int(hi.height.rounded()))
    }

    /// Asks for a new size; the window takes it unless the compositor fixed its size.
    func requestSize(_ size: Size) {
        guard let toplevel else { return }
        let title = window.decorations == nil ? 0 : WindowDecorations.titleBarHeight
        toplevel.resize(width: Int(size.width.rounded()), height: Int((size.height + title).rounded()))
    }

    /// Asks the compositor to raise and focus the window, quoting the latest press
    /// and asking through the window that has the focus now. False where the
    /// compositor offers no activation.
    @discardableResult
    func activate() -> Bool {
        guard let toplevel else { return false }
        return toplevel.activate(quoting: latestPress ?? Application.shared.latestInput,
                          requestedBy: Application.shared.keyboardFocusWindow?.toplevel)
    }

    func close() {
        frameLoop.cancel()
        switch role {
        case let .toplevel(t): t.close()
        case let .popup(p): p.close()
        case let .shell(s): s.close()
        case let .lock(l): l.close()
        }
    }

    /// Whether the compositor configured the surface (its first configure came).
    var isConfigured: Bool { framed.isConfigured }

    /// The surface as a parent of popups (a lock surface has none).
    var popupParent: PopupParent? {
        switch role {
        case let .toplevel(t): t
        case let .popup(p): p
        case let .shell(s): s
        case .lock: nil
        }
    }

    /// Where the window's geometry (the coordinates popups are placed in) begins
    /// in its surface: after the shadow a window draws around its own frame.
    var geometryOrigin: Point {
        guard let m = toplevel?.margins else { return .zero }
        return Point(x: Double(m.left), y: Double(m.top))
    }
}
