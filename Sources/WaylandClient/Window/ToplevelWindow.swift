import Glibc

/// An `xdg_toplevel` window: the toplevel role — configures with sizes and
/// states, title, decorations, size limits, window geometry — over a
/// ``FramedSurface`` that draws and paces its frames.
@MainActor
public final class ToplevelWindow {
    public enum State: Hashable, Sendable { case maximized, fullscreen, activated, resizing }
    /// What the compositor's window management does for a client's requests
    /// (xdg-shell 5's `wm_capabilities`).
    public enum Capability: UInt32, Hashable, Sendable, CaseIterable { case windowMenu = 1, maximize, fullscreen, minimize }

    public let display: Display
    /// Drawing and frame pacing.
    public let framed: FramedSurface
    public var surface: WlSurface { framed.surface }
    /// The surface's identity in input events (``SeatEvent``, drag and drop, text input).
    public var surfaceID: SurfaceID { surface.surfaceID }
    public let xdgSurface: XdgSurface
    public let toplevel: XdgToplevel
    /// The activation token on its way (``activate(quoting:requestedBy:)``), kept until it is used.
    var pendingActivation: XdgActivationTokenV1?
    /// The dialog hints object, once the window said it is modal or not (``setModal(_:)``).
    var dialog: XdgDialogV1?
    /// The window exported for other clients (``exportHandle(_:)``), kept while the window lives.
    var exported: ExportedToplevel?
    public var pool: ShmBufferPool { framed.pool }
    public var statistics: FrameStatistics { framed.statistics }

    /// Draws a frame; returns what changed (``FramedSurface/onDraw``).
    public var onDraw: ((DrawContext) -> FrameDamage)? {
        get { framed.onDraw }
        set { framed.onDraw = newValue }
    }
    /// When frames are drawn ahead of their callbacks (``FramedSurface/drawAhead``).
    public var drawAhead: DrawAhead {
        get { framed.drawAhead }
        set { framed.drawAhead = newValue }
    }
    /// A frame drawn ahead was dropped (``FramedSurface/onDiscardAhead``).
    public var onDiscardAhead: (() -> Void)? {
        get { framed.onDiscardAhead }
        set { framed.onDiscardAhead = newValue }
    }
    /// Draws a frame on other threads (``FramedSurface/onDrawAsync``).
    public var onDrawAsync: ((DrawContext, _ finish: @escaping @MainActor (FrameDamage) -> Void) -> Void)? {
        get { framed.onDrawAsync }
        set { framed.onDrawAsync = newValue }
    }
    /// True while a frame is being drawn on other threads.
    public var isDrawing: Bool { framed.isDrawing }
    /// Called after a configure changed the size or states.
    public var onConfigure: ((ToplevelWindow) -> Void)?
    /// The compositor asked to close the window.
    public var onCloseRequest: ((ToplevelWindow) -> Void)?
    /// True while content changes on its own (animations), so frames keep coming.
    public var isAnimating: () -> Bool {
        get { framed.isAnimating }
        set { framed.isAnimating = newValue }
    }

    /// The size in surface coordinates.
    public private(set) var width: Int
    public private(set) var height: Int
    /// The size asked for when the compositor lets the client choose (configure 0×0).
    public var preferredWidth: Int
    public var preferredHeight: Int
    public private(set) var states: Set<State> = []
    /// What the compositor said it does; all of it when it says nothing (before
    /// xdg-shell 5, or until its first configure).
    public internal(set) var capabilities = Set(Capability.allCases)
    /// True once the first configure arrived.
    public var isConfigured: Bool { framed.isConfigured }
    /// Buffer pixels per surface unit.
    public var scale: Double { framed.scale }
    /// True when the compositor draws the decorations.
    public private(set) var hasServerSideDecorations = false
    /// Called when the compositor says who draws the decorations (xdg-decoration).
    public var onDecorationModeChange: ((ToplevelWindow) -> Void)?
    /// Room around the window's geometry that the client draws into itself
    /// (client-side decorations: shadows, resize edges): buffers are that much
    /// larger, and `xdg_surface.set_window_geometry` tells the compositor where
    /// the window proper is. ``width`` and ``height`` stay the geometry's size.
    public var margins: (top: Int, left: Int, bottom: Int, right: Int) = (0, 0, 0, 0) {
        didSet {
            guard margins != oldValue else { return }
            framed.size = surfaceSize
            updateGeometry()
            setNeedsDisplay()
        }
    }

    /// Tells the compositor where the window proper is in the surface (double-buffered:
    /// it takes effect with the next commit, which therefore never shows a stale
    /// geometry for an acknowledged configure).
    private func updateGeometry() {
        guard margins != (0, 0, 0, 0) || sentGeometry != nil else { return }
        let g = (Int32(margins.left), Int32(margins.top), Int32(width), Int32(height))
        guard sentGeometry.map({ $0 != g }) ?? true else { return }
        xdgSurface.setWindowGeometry(x: g.0, y: g.1, width: g.2, height: g.3)
        sentGeometry = g
    }
    private var sentGeometry: (Int32, Int32, Int32, Int32)?
    private var decoration: ZxdgToplevelDecorationV1?
    /// Frames committed so far.
    public var frameNumber: UInt64 { framed.frameNumber }
    /// The buffer committed last: what the compositor was given. Its pixels are
    /// that frame's until the pool draws a later frame into it (not while
    /// ``isDrawing``, and not before the compositor released it).
    public var lastCommittedBuffer: ShmBuffer? { framed.lastCommittedBuffer }

    public init(display: Display, title: String, appID: String = "strata", width: Int = 640, height: Int = 480) {
        self.display = display
        preferredWidth = max(1, width)
        preferredHeight = max(1, height)
        self.width = preferredWidth
        self.height = preferredHeight
        framed = FramedSurface(display: display)
        xdgSurface = display.wmBase.getXdgSurface(surface: framed.surface)
        toplevel = xdgSurface.getToplevel()
        toplevel.setTitle(title: title)
        toplevel.setAppId(appId: appID)
        if let manager = display.decorationManager {
            let d = manager.getToplevelDecoration(toplevel: toplevel)
            d.setMode(mode: .serverSide)
            d.onEvent = { [unowned self] event in
                if case let .configure(mode) = event {
                    hasServerSideDecorations = mode == .serverSide
                    onDecorationModeChange?(self)
                }
            }
            decoration = d
        }
        var pendingSize: (Int32, Int32)?
        var pendingStates: Set<State> = []
        toplevel.onEvent = { [unowned self] event in
            switch event {
            case let .configure(w, h, statesArray):
                pendingSize = (w, h)
                pendingStates = Self.decodeStates(statesArray)
            case .close:
                onCloseRequest?(self)
            case let .wmCapabilities(bytes):
                capabilities = Set(Self.words(bytes).compactMap(Capability.init(rawValue:)))
            default: break
            }
        }
        xdgSurface.onEvent = { [unowned self] event in
            guard case let .configure(serial) = event else { return }
            xdgSurface.ackConfigure(serial: serial)
            applyConfigure(size: pendingSize, states: pendingStates)
            pendingSize = nil
        }
        framed.size = surfaceSize
        surface.commit()
    }

    /// Asks for a redraw at the next frame callback.
    public func setNeedsDisplay() { framed.setNeedsDisplay() }

    /// The surface's size: the geometry plus the margins.
    private var surfaceSize: (width: Int, height: Int) {
        (width + margins.left + margins.right, height + margins.top + margins.bottom)
    }

    public var title: String = "" { didSet { toplevel.setTitle(title: title) } }

    /// Asks the compositor to draw the decorations (or not), where it offers
    /// xdg-decoration; its answer comes with ``onDecorationModeChange``.
    public func requestDecorationMode(serverSide: Bool) {
        decoration?.setMode(mode: serverSide ? .serverSide : .clientSide)
    }

    /// Changes the window's size from the client's side, as a floating window
    /// may: the next frame is drawn at the new size. Maximized, fullscreen or
    /// resizing windows keep the size the compositor chose (only the preferred
    /// size changes). Calls ``onConfigure`` like a configure would.
    public func resize(width: Int, height: Int) {
        preferredWidth = max(1, width)
        preferredHeight = max(1, height)
        guard isConfigured, states.isDisjoint(with: [.maximized, .fullscreen, .resizing]) else { return }
        applyConfigure(size: (Int32(clamping: preferredWidth), Int32(clamping: preferredHeight)), states: states)
    }

    /// Minimum and maximum sizes (0: no limit).
    public func setSizeLimits(minWidth: Int, minHeight: Int, maxWidth: Int = 0, maxHeight: Int = 0) {
        toplevel.setMinSize(width: Int32(clamping: minWidth), height: Int32(clamping: minHeight))
        toplevel.setMaxSize(width: Int32(clamping: maxWidth), height: Int32(clamping: maxHeight))
        surface.commit()
    }

    public func setMaximized(_ on: Bool) { on ? toplevel.setMaximized() : toplevel.unsetMaximized() }
    public func setFullscreen(_ on: Bool, output: Output? = nil) { on ? toplevel.setFullscreen(output: output?.proxy) : toplevel.unsetFullscreen() }

    // MARK: Configure

    /// A protocol array of 32-bit values (little-endian, as the wire carries them here).
    private static func words(_ bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { (i: Int) -> UInt32 in
            var v: UInt32 = 0
            for k in 0..<4 { v |= UInt32(bytes[i + k]) << (8 * UInt32(k)) }
            return v
        }
    }

    private static func decodeStates(_ bytes: [UInt8]) -> Set<State> {
        var result: Set<State> = []
        for v in words(bytes) {
            switch XdgToplevel.State(rawValue: v) {
            case .maximized: result.insert(.maximized)
            case .fullscreen: result.insert(.fullscreen)
            case .activated: result.insert(.activated)
            case .resizing: result.insert(.resizing)
            default: break
            }
        }
        return result
    }

    func applyConfigure(size: (Int32, Int32)?, states newStates: Set<State>) {
        // 0 means "you choose"; absurd sizes are clamped to what a buffer can hold.
        let (oldWidth, oldHeight) = (width, height)
        let limit = Int(Double(ShmBufferPool.maximumDimension) / max(1, scale))
        let w = size.map { Int($0.0) }.flatMap { $0 > 0 ? $0 : nil } ?? preferredWidth
        let h = size.map { Int($0.1) }.flatMap { $0 > 0 ? $0 : nil } ?? preferredHeight
        width = min(max(1, w), limit)
        height = min(max(1, h), limit)
        let resized = (width, height) != (oldWidth, oldHeight)
        states = newStates
        let first = !isConfigured
        framed.configureBegins()
        framed.size = surfaceSize
        onConfigure?(self)
        updateGeometry()
        framed.configured(first: first, resized: resized)
    }

    /// Destroys the window's objects; the window must not be used afterwards.
    public func close() {
        exported?.destroy()
        dialog?.destroy()
        decoration?.destroy()
        toplevel.destroy()
        xdgSurface.destroy()
        framed.close()
    }

    /// The compositor's preferred scale, in 120ths (``FramedSurface``'s).
    func applyPreferredScale(_ scale120: UInt32) { framed.applyPreferredScale(scale120) }
}
