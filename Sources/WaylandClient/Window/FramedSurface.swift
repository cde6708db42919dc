import Glibc

/// What a window's draw handler gets for one frame.
@MainActor
public struct DrawContext {
    /// The buffer to draw into, `pixelWidth × pixelHeight`.
    public let buffer: ShmBuffer
    /// The window's size in surface (logical) coordinates.
    public let logicalWidth: Int
    public let logicalHeight: Int
    /// Buffer pixels per logical unit (integer or fractional).
    public let scale: Double
    /// This frame's number.
    public let frame: UInt64
    /// How many frames old the buffer's contents are; 0 when they must all be drawn.
    public let bufferAge: UInt64
    /// The CLOCK_MONOTONIC time the frame is expected on screen, for evaluating animations.
    public let targetTime: Double
}

/// When a window draws frames ahead of the compositor's frame callbacks.
///
/// Drawing a frame at its callback costs the frame's whole drawing time between
/// the callback and the commit; a window whose frames take long to draw (many
/// animated layers) then commits late in the refresh period. Drawn ahead, the
/// next frame is started as soon as one is committed, for the time it will be
/// shown (a refresh later than a frame drawn at its callback), and the callback
/// is answered with it at once. A change made meanwhile (anything that calls
/// `setNeedsDisplay`) drops it and the frame is drawn at the callback, so input
/// is not shown a frame late.
public enum DrawAhead: Sendable {
    /// Frames are drawn when their callback comes.
    case never
    /// Drawn ahead while animating, once a frame takes over a third of the
    /// refresh interval from its callback to its commit.
    case automatic
    /// Drawn ahead whenever animating.
    case always
}

/// The damage a draw handler reports.
public enum FrameDamage: Sendable {
    /// Nothing changed: the frame is not committed.
    case none
    /// The whole buffer.
    case full
    /// These rectangles of the buffer, in buffer pixels (x, y, width, height).
    case rects([(x: Int, y: Int, width: Int, height: Int)])
}

/// A `wl_surface` drawn into shared-memory buffers and paced by frame callbacks:
/// what every kind of window (a toplevel, and next popups and shell surfaces)
/// shares. Its role (``ToplevelWindow`` owns one) gives it its size in surface
/// coordinates and says when it is configured; the surface draws only when
/// something changed and only in answer to a frame callback (the first frame after
/// a configure excepted, which the protocols require), asks for the next callback
/// only while ``isAnimating`` says so or a redraw is pending, follows the outputs'
/// scale (integer, or fractional through a viewport), and records frame
/// statistics with presentation feedback. An idle surface costs nothing, and a
/// hidden one — whose callbacks stop — does not spin.
@MainActor
public final class FramedSurface {
    public let display: Display
    public let surface: WlSurface
    /// The surface's identity in input events.
    public var surfaceID: SurfaceID { surface.surfaceID }
    public let pool: ShmBufferPool
    public let statistics = FrameStatistics()

    /// Draws a frame; returns what changed.
    public var onDraw: ((DrawContext) -> FrameDamage)?
    /// When frames are drawn ahead of their frame callback (with ``onDrawAsync``
    /// only): `.automatic` does it while animating once a frame takes more than a
    /// third of the refresh interval to draw, so the callback is answered at once
    /// with a frame drawn for the time it will be shown. See ``DrawAhead``.
    public var drawAhead: DrawAhead = .automatic
    /// Called when a frame drawn ahead is dropped because the content changed after
    /// it began: a drawer that tracks damage counts that frame's damage into the
    /// next one (the dropped frame was never shown).
    public var onDiscardAhead: (() -> Void)?
    /// Draws a frame on other threads (used instead of ``onDraw`` when set): starts
    /// the drawing and returns at once, and calls `finish` on the main actor, once,
    /// when the buffer holds the frame. Until then the surface starts no other frame
    /// and the main thread is free for events; a frame finished after a configure
    /// changed the buffer size is dropped and drawn again at the new size.
    public var onDrawAsync: ((DrawContext, _ finish: @escaping @MainActor (FrameDamage) -> Void) -> Void)?
    /// True while a frame is being drawn on other threads.
    public var isDrawing: Bool { drawing != nil }
    /// Activation tokens asked for and not yet given.
    private var pendingTokens: [XdgActivationTokenV1] = []
    /// True while content changes on its own (animations), so frames keep coming.
    public var isAnimating: () -> Bool = { false }
    /// The size in surface coordinates (set by the role).
    var size = (width: 1, height: 1)
    /// Whether the role has had its first configure (``configureBegins()``): no
    /// frame is asked for before.
    public private(set) var isConfigured = false
    /// A configure was acknowledged and no frame committed since: the next commit
    /// must carry its frame, so no bare commit (for a frame callback) is made. A
    /// bare one would apply the ack and its geometry to the old buffer — mutter then
    /// kept a window gone fullscreen at its decorated place.
    private var configureAwaitsFrame = false
    /// Buffer pixels per surface unit.
    public private(set) var scale: Double = 1
    /// Frames committed so far.
    public private(set) var frameNumber: UInt64 = 0

    private var frameCallback: WlCallback?
    /// The frame ``onDrawAsync`` is drawing (`isAhead`: for a callback still to come).
    private var drawing: (buffer: ShmBuffer, number: UInt64, callbackTime: Double?, isAhead: Bool)?
    /// A frame drawn ahead, waiting for its callback.
    private var ahead: (buffer: ShmBuffer, number: UInt64, damage: FrameDamage)?
    /// The content changed after the frame ahead began: it is dropped, not shown.
    private var aheadIsStale = false
    /// A callback that came while the frame ahead was still being drawn.
    private var callbackWhileDrawingAhead: Double?
    /// How long the last frame took to draw: callback to commit, or for a frame
    /// drawn ahead, start to finish (`aheadStarted`).
    private var lastDrawDuration = 0.0
    private var aheadStarted = 0.0
    private var needsRedraw = true
    private var entered: [WlOutput] = []
    private var integerScale: Int32 = 1
    private var fractionalScale: Double?
    private var viewport: WpViewport?
    private var fractional: WpFractionalScaleV1?
    private var appliedBufferScale: Int32 = 1
    private var feedbacks: [WpPresentationFeedback] = []

    init(display: Display) {
        self.display = display
        surface = display.compositor.createSurface()
        pool = ShmBufferPool(shm: display.shm)
        if display.viewporter != nil, let fsm = display.fractionalScaleManager {
            let f = fsm.getFractionalScale(surface: surface)
            f.onEvent = { [unowned self] event in
                if case let .preferredScale(s) = event { applyPreferredScale(s) }
            }
            fractional = f
        }
        surface.onEvent = { [unowned self] event in
            switch event {
            case let .enter(output?): entered.append(output); scaleChanged()
            case let .leave(output?): entered.removeAll { $0 === output }; scaleChanged()
            default: break
            }
        }
    }

    /// Whether pointer and touch input reaches the surface (`wl_surface.set_input_region`):
    /// false passes it through to what is below (a tooltip). Takes effect with the next commit.
    public var acceptsInput = true {
        didSet {
            guard acceptsInput != oldValue else { return }
            if acceptsInput {
                surface.setInputRegion(region: nil)
            } else {
                let empty = display.compositor.createRegion()
                surface.setInputRegion(region: empty)
                empty.destroy()
            }
        }
    }

    /// Asks for a redraw at the next frame callback.
    public func setNeedsDisplay() {
        needsRedraw = true
        aheadIsNowStale()
        guard isConfigured else { return }
        requestFrameIfIdle()
    }

    /// A role whose configure gives the size (a shell or lock surface): the size
    /// taken (at least 1, at most what a buffer may be at this scale) and the
    /// surface configured, `notify` told, then ``configured(first:resized:)``.
    func takeConfiguredSize(width: Int, height: Int, notify: () -> Void) {
        let first = !isConfigured, old = size
        configureBegins()
        let limit = Int(Double(ShmBufferPool.maximumDimension) / max(1, scale))
        size = (min(max(1, width), limit), min(max(1, height), limit))
        notify()
        configured(first: first, resized: old != size)
    }

    /// The role acknowledged a configure and begins applying it (before it tells
    /// its owner, whose redraws then wait for the configure's frame).
    func configureBegins() {
        isConfigured = true
        configureAwaitsFrame = true
    }

    /// The role applied an acknowledged configure: a frame is due, drawn now when the
    /// protocol wants a buffer after the ack — the first configure, no callback
    /// pending, or a new size (mutter holds a callback until it paints the
    /// surface, which its fullscreen transition waits for: the window stayed at
    /// its old size).
    func configured(first: Bool, resized: Bool) {
        needsRedraw = true
        aheadIsNowStale()   // drawn for the old states
        if first || frameCallback == nil || resized { draw(callbackTime: nil) }
    }

    /// The compositor's preferred scale, in 120ths (`wp_fractional_scale_v1`): from
    /// now on buffers are drawn at that scale and a viewport maps them back to the
    /// surface's size (`wp_viewport.set_destination`) instead of a buffer scale.
    /// Ignored without `wp_viewporter`, or for a zero scale.
    func applyPreferredScale(_ scale120: UInt32) {
        guard scale120 > 0, let viewporter = display.viewporter else { return }
        if viewport == nil {
            viewport = viewporter.getViewport(surface: surface)
            if appliedBufferScale != 1 {
                surface.setBufferScale(scale: 1)   // the viewport takes over from the buffer scale
                appliedBufferScale = 1
            }
        }
        fractionalScale = Double(scale120) / 120
        scaleChanged()
    }

    private func scaleChanged() {
        let outputScale = entered.compactMap { display.output(for: $0)?.scale }.max() ?? 1
        integerScale = max(1, outputScale)
        let newScale = fractionalScale ?? Double(integerScale)
        guard newScale != scale else { return }
        scale = newScale
        setNeedsDisplay()
    }

    // MARK: Frames

    private func requestFrameIfIdle() {
        guard frameCallback == nil, !configureAwaitsFrame else { return }
        commitWithoutContent(askingForFrame: true)
    }

    /// A commit with no new buffer: for a frame callback (one only fires after a
    /// commit), or to commit a configure's ack when its frame changed nothing.
    private func commitWithoutContent(askingForFrame: Bool) {
        if askingForFrame && frameCallback == nil { requestFrameCallback() }
        surface.commit()
    }

    private func requestFrameCallback() {
        let cb = surface.frame()
        cb.onEvent = { [unowned self] _ in frameCallbackDone() }
        frameCallback = cb
    }

    private func frameCallbackDone() {
        frameCallback = nil
        statistics.noteCallback()
        let now = MonotonicClock.now
        if drawing?.isAhead == true {
            callbackWhileDrawingAhead = now   // shown as soon as it is drawn
            return
        }
        if ahead != nil {
            return presentAhead(callbackTime: now)
        }
        if needsRedraw || isAnimating() {
            draw(callbackTime: now)
        }
    }

    /// Shows the frame drawn ahead in answer to a callback at `callbackTime` —
    /// or, when the content changed since it began or the size did, drops it and
    /// draws a fresh frame.
    private func presentAhead(callbackTime: Double) {
        guard let a = ahead else { return }
        ahead = nil
        let (pw, ph) = pixelSize
        if aheadIsStale || a.buffer.width != pw || a.buffer.height != ph {
            discardAhead(a.buffer)
            draw(callbackTime: callbackTime)
            return
        }
        present(a.buffer, number: a.number, callbackTime: callbackTime, damage: a.damage)
        drawAheadIfWanted(after: callbackTime)
    }

    /// What changed is not in a frame drawn ahead (ready or being drawn).
    func aheadIsNowStale() {
        if ahead != nil || drawing?.isAhead == true { aheadIsStale = true }
    }

    private func discardAhead(_ buffer: ShmBuffer) {
        buffer.contentFrame = 0   // it holds no committed frame
        aheadIsStale = false
        needsRedraw = true
        onDiscardAhead?()
    }

    /// After a frame was committed in answer to the callback at `callbackTime`:
    /// starts the next one now, for the callback after, when that is wanted.
    private func drawAheadIfWanted(after callbackTime: Double) {
        guard onDrawAsync != nil, drawing == nil, ahead == nil, isAnimating() else { return }
        switch drawAhead {
        case .never: return
        case .always: break
        case .automatic: guard lastDrawDuration > refreshInterval / 3 else { return }
        }
        draw(callbackTime: callbackTime + refreshInterval, isAhead: true)
    }

    /// The refresh interval of the fastest output the window is on (1/60 s when unknown).
    private var refreshInterval: Double {
        let mhz = entered.compactMap { display.output(for: $0)?.refresh }.filter { $0 > 0 }.max()
        return mhz.map { 1000 / Double($0) } ?? 1.0 / 60
    }

    /// Draws a frame for the callback at `callbackTime` (nil: none, draw now) —
    /// with `isAhead`, one expected then, drawn before it comes.
    func draw(callbackTime: Double?, isAhead: Bool = false) {
        guard drawing == nil else {
            needsRedraw = true   // after the frame being drawn
            return
        }
        if let a = ahead {
            // Drawn now instead (a configure): the frame ahead is not wanted.
            ahead = nil
            discardAhead(a.buffer)
        }
        let (pw, ph) = pixelSize
        let buffer: ShmBuffer
        do {
            buffer = try pool.nextBuffer(width: pw, height: ph)
        } catch {
            printError("WaylandClient: \(error); frame skipped")
            configureAwaitsFrame = false
            return
        }
        let next = frameNumber + 1
        let context = DrawContext(buffer: buffer, logicalWidth: size.width, logicalHeight: size.height, scale: scale, frame: next,
                                  bufferAge: buffer.age(atFrame: next),
                                  targetTime: (callbackTime ?? MonotonicClock.now) + refreshInterval)
        needsRedraw = false
        if isAhead {
            aheadIsStale = false
            aheadStarted = MonotonicClock.now
        }
        if let onDrawAsync {
            drawing = (buffer, next, callbackTime, isAhead)
            onDrawAsync(context) { [weak self] damage in self?.finishDrawing(buffer, next, damage) }
        } else {
            present(buffer, number: next, callbackTime: callbackTime, damage: onDraw?(context) ?? .full)
        }
    }

    /// The buffer size for the surface's size and scale.
    private var pixelSize: (Int, Int) {
        (Int((Double(size.width) * scale).rounded()), Int((Double(size.height) * scale).rounded()))
    }

    private func finishDrawing(_ buffer: ShmBuffer, _ number: UInt64, _ damage: FrameDamage) {
        guard let d = drawing, d.buffer === buffer, d.number == number else { return }   // closed, or not this frame
        drawing = nil
        let (pw, ph) = pixelSize
        guard buffer.width == pw, buffer.height == ph else {
            // Resized while drawing: this frame is not wanted, and its buffer holds no whole frame.
            if d.isAhead { discardAhead(buffer) } else { buffer.contentFrame = 0 }
            callbackWhileDrawingAhead = nil
            draw(callbackTime: nil)
            return
        }
        if d.isAhead {
            lastDrawDuration = MonotonicClock.now - aheadStarted
            ahead = (buffer, number, damage)
            if let callback = callbackWhileDrawingAhead {
                callbackWhileDrawingAhead = nil
                presentAhead(callbackTime: callback)
            }
            return
        }
        present(buffer, number: number, callbackTime: d.callbackTime, damage: damage)
        if let callbackTime = d.callbackTime {
            lastDrawDuration = MonotonicClock.now - callbackTime
            drawAheadIfWanted(after: callbackTime)
        }
    }

    /// The buffer committed last: what the compositor was given. Its pixels are
    /// that frame's until the pool draws a later frame into it (not while
    /// ``isDrawing``, and not before the compositor released it).
    public private(set) var lastCommittedBuffer: ShmBuffer?

    /// Attaches and commits a drawn frame (nothing, for no damage), asking for the
    /// next callback while animating or when a redraw is due.
    private func present(_ buffer: ShmBuffer, number next: UInt64, callbackTime: Double?, damage: FrameDamage) {
        let wantsFrame = isAnimating() || needsRedraw
        if case .none = damage {
            if configureAwaitsFrame {
                configureAwaitsFrame = false
                commitWithoutContent(askingForFrame: wantsFrame)
            } else if wantsFrame {
                requestFrameIfIdle()
            }
            return
        }
        configureAwaitsFrame = false
        frameNumber = next
        surface.attach(buffer: buffer.wlBuffer, x: 0, y: 0)
        switch damage {
        case .full, .none:
            surface.damageBuffer(x: 0, y: 0, width: Int32(buffer.width), height: Int32(buffer.height))
        case .rects(let rects):
            for r in rects { surface.damageBuffer(x: Int32(r.x), y: Int32(r.y), width: Int32(r.width), height: Int32(r.height)) }
        }
        if let viewport {
            viewport.setDestination(width: Int32(size.width), height: Int32(size.height))
        } else if appliedBufferScale != integerScale {
            surface.setBufferScale(scale: integerScale)
            appliedBufferScale = integerScale
        }
        if wantsFrame && frameCallback == nil { requestFrameCallback() }
        requestPresentationFeedback(frame: next)
        pool.markAttached(buffer, frame: next)
        lastCommittedBuffer = buffer
        surface.commit()
        _ = statistics.commit(number: next, callbackTime: callbackTime, at: MonotonicClock.now)
    }

    private func requestPresentationFeedback(frame: UInt64) {
        guard let presentation = display.presentation else { return }
        let fb = presentation.feedback(surface: surface)
        fb.onEvent = { [unowned self, unowned fb] event in
            switch event {
            case let .presented(hi, lo, nsec, refresh, _, _, _):
                let t = Double(UInt64(hi) << 32 | UInt64(lo)) + Double(nsec) / 1e9
                statistics.update(number: frame) {
                    $0.presentedTime = t
                    $0.refreshInterval = refresh > 0 ? Double(refresh) / 1e9 : nil
                }
                feedbacks.removeAll { $0 === fb }
            case .discarded:
                statistics.update(number: frame) { $0.discarded = true }
                feedbacks.removeAll { $0 === fb }
            case .syncOutput:
                break
            }
        }
        feedbacks.append(fb)
        if feedbacks.count > 64 { feedbacks.removeFirst() }
    }

    /// Asks for an activation token for a program this surface's app is about to
    /// start (`xdg_activation_token_v1` with this surface, the input event that
    /// asked for it, and the program's app id): the program passes it on in
    /// `XDG_ACTIVATION_TOKEN` so the compositor focuses its first window. `done`
    /// gets the token, or nil at once where the compositor offers no activation.
    public func requestActivationToken(appID: String?, quoting input: (seat: Seat, serial: UInt32)?,
                                       done: @escaping @MainActor (String?) -> Void) {
        guard let activation = display.activation else { return done(nil) }
        let token = activation.getActivationToken()
        if let input { token.setSerial(serial: input.serial, seat: input.seat.proxy) }
        if let appID, !appID.isEmpty { token.setAppId(appId: appID) }
        token.setSurface(surface: surface)
        pendingTokens.append(token)
        token.onEvent = { [weak self, unowned token] event in
            guard case let .done(string) = event else { return }
            self?.pendingTokens.removeAll { $0 === token }
            token.destroy()
            done(string)
        }
        token.commit()
    }

    /// Destroys the surface's objects (the role's go first); it must not be used afterwards.
    func close() {
        for token in pendingTokens { token.destroy() }
        pendingTokens = []
        frameCallback = nil
        drawing = nil
        ahead = nil
        feedbacks.removeAll()
        fractional?.destroy()
        viewport?.destroy()
        surface.destroy()
        pool.removeAll()
    }
}
