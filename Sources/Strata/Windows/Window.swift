import PixmanRender
import WaylandClient

/// A top-level window showing a view tree (`UIWindow`, rules W1–W3).
///
/// ``rootView`` fills the content area. ``show()`` opens the window on the
/// application's compositor (an `xdg_toplevel`, paced by frame callbacks; the
/// frame's life is in `Window+Frame.swift`); without a compositor the window
/// still lays out, animates and renders offscreen, and ``snapshot(atTime:)``
/// shows it at any media time (rule W3).
@MainActor
public class Window: Responder {
    /// The content area's layer: sized to ``size``, with the root view's layer as
    /// its only sublayer. It sits in the surface's layer, below the title bar
    /// when the window draws its own frame.
    public let layer = Layer()
    /// The whole surface: the frame the window draws itself, if any, and the content.
    let surfaceLayer = Layer()
    /// The frame the window draws where the compositor draws none (rule W1).
    var decorations: WindowDecorations? {
        didSet {
            oldValue?.layer.removeFromSuperlayer()
            oldValue?.hostWindow = nil
            if let decorations {
                decorations.hostWindow = self
                decorations.titleLabel.text = title
                let s = scale
                decorations.forEachInSubtree { $0.contentScaleFactor = s }
                decorations.propagateTraits()
                surfaceLayer.insertSublayer(decorations.layer, at: 0)
            }
            applySize(size)
        }
    }
    /// Ask the compositor to draw the frame (default); false: the window draws its
    /// own even where the compositor offers to.
    public var prefersServerSideDecorations = true {
        didSet { onscreen?.decorationPreferenceChanged() }
    }
    /// Shown behind the root view: the system background (white, or black in
    /// dark mode) unless set; a dynamic colour follows the window's traits.
    public var backgroundColor: Color = .systemBackground {
        didSet {
            applyBackgroundColor()
            redrawEverything()
        }
    }

    /// The background as the window's traits resolve it, on the content layer
    /// (whose background never animates).
    func applyBackgroundColor() { layer.backgroundColor = backgroundColor.resolvedColor(with: traitCollection) }

    /// What a frame's surface is cleared to: the background, or nothing where the
    /// window draws its own frame (its corners and shadow are see-through).
    var surfaceClearColor: Color { decorations == nil ? backgroundColor.resolvedColor(with: traitCollection) : .clear }

    /// Traits the window sets for all its views (iOS 17's `traitOverrides`):
    /// each field that is not unspecified overrides the system's (rule P1).
    public var traitOverrides = TraitCollection() {
        didSet { if traitOverrides != oldValue { updateTraitsIfNeeded() } }
    }
    /// The traits the window's views were last told of.
    var deliveredTraits: TraitCollection?

    /// Makes the next frame on the compositor repaint and damage the whole surface
    /// (after a change the layers do not show; for the testing kit, after a capture
    /// that missed a frame).
    package func redrawEverything() {
        onscreen?.renderer.repaintEverything()
        onscreen?.framed.setNeedsDisplay()
    }

    /// The view that fills the content area. Replacing it moves the old one out
    /// of the window (its `didMoveToWindow` runs) and lays the new one out.
    public var rootView: View {
        didSet {
            guard oldValue !== rootView else { return }
            install(rootView, replacing: oldValue)
        }
    }

    /// The controller whose view fills the root view (`rootViewController`):
    /// its view is sized to the window and follows it; it appears when the
    /// window is shown — or, never shown, when the window is first laid out or
    /// snapshotted (rule W3) — and disappears when the window closes or another
    /// controller takes its place.
    public var rootViewController: ViewController? {
        didSet {
            guard oldValue !== rootViewController else { return }
            if let old = oldValue {
                old.transitionAppearance(false)
                old.viewIfLoaded?.removeFromSuperview()
                old.hostWindow = nil
            }
            guard let controller = rootViewController else { return }
            if controller.hostWindow !== self, let other = controller.hostWindow { other.rootViewController = nil }
            controller.presentingViewController?.dismiss(animated: false)
            controller.removeFromParent()
            controller.hostWindow = self
            let view: View = controller.view
            view.frame = rootView.bounds
            view.autoresizingMask = [.flexibleWidth, .flexibleHeight]
            rootView.addSubview(view)
            if isVisible { controller.transitionAppearance(true) }
        }
    }

    /// The presentations shown in the window, the topmost last.
    var presentations: [PresentationContainer] = []

    /// The title the compositor shows (and the offscreen run's file names).
    public var title: String {
        didSet {
            onscreen?.toplevel?.title = title
            decorations?.titleLabel.text = title
        }
    }

    /// The content area's size in points. Setting it resizes the window when it is
    /// not on screen; on screen the compositor decides, so the new size is asked for.
    public var size: Size {
        get { layer.bounds.size }
        set { resize(to: Window.clamped(newValue, min: minimumSize, max: maximumSize)) }
    }

    /// The smallest and largest sizes the user may resize to (0: no limit).
    public var minimumSize = Size.zero { didSet { sizeLimitsChanged() } }
    public var maximumSize = Size.zero { didSet { sizeLimitsChanged() } }

    /// Called when the compositor (the user) asks to close the window; return
    /// false to keep it open. By default the window closes.
    public var shouldClose: ((Window) -> Bool)?

    /// The responder that key presses go to first (rule H5). A change of focus
    /// stops key repeat.
    public internal(set) var firstResponder: Responder? {
        didSet {
            guard firstResponder !== oldValue else { return }
            Application.shared.accessibilityExporter?.focusMoved(from: (oldValue as? View)?.accessibilityFocusObject ?? oldValue,
                                                                   to: (firstResponder as? View)?.accessibilityFocusObject ?? firstResponder)
            input.stopRepeat()
            updateTextInput()
        }
    }

    /// The seat's text input while this window has its focus (on a compositor that offers one).
    var textInput: TextInput? {
        didSet { updateTextInput() }
    }

    /// The input path: hit testing, touches, gestures, keys (rules H1–H5).
    lazy var input = InputDispatcher(window: self)
    /// Drags over the window, to its drop interactions.
    lazy var drop = DropDispatcher(window: self)

    /// The cursor the pointer shows over the window now (rule H1's hit view's, or the arrow).
    public var cursor: Cursor { input.cursor }

    /// Delivers input as a seat would (`InputDriver` and the compositor's seat use
    /// it); input over the window's open popups goes to them (rule M2).
    public func handle(_ event: WindowInput) {
        // Counted on the window and on the windows its popups stand on: a test
        // injecting input through the compositor waits on the top window.
        var counted: Window? = self
        while let w = counted {
            w.handledInputCount &+= 1
            w.inputWitness?(event)
            counted = w.popupHost?.parent
        }
        if refusedForModalDialog(event) || routeToPopups(event) { return }
        input.handle(event)
    }

    // MARK: Dialogs

    /// The window this one is a dialog of (`Window+Dialog.swift`); set before
    /// ``show()`` or while shown.
    public weak var parent: Window? {
        didSet {
            guard parent !== oldValue else { return }
            oldValue?.dialogs.removeAll { $0.window === self || $0.window == nil }
            if parent === self { parent = nil }
            if isVisible { parent == nil ? applyDialogRole() : dialogDidShow() }
        }
    }
    /// A dialog that blocks its parent while shown.
    public var isModal = false {
        didSet { if isVisible, isModal != oldValue { applyDialogRole() } }
    }
    /// The dialogs shown on this window.
    var dialogs: [WeakWindow] = []
    /// Presses and keys refused because a modal dialog was shown (for tests).
    var blockedInputCount = 0

    // MARK: Popups (rule M1)

    /// The popups open on the window, in the order they opened.
    var popups: [Popup] = []
    /// The popup this window is the content of (nil for the app's windows).
    weak var popupHost: Popup?
    /// A tooltip's popup: a tool tip to assistive technologies.
    var isToolTip = false
    /// Where a popup's content takes its traits from before its own overrides
    /// (the view it opened for, or the window it is placed on); nil: the system's.
    var inheritedTraits: (() -> TraitCollection?)?
    /// Where input over the popups is going (`routeToPopups`).
    var popupRouting = PopupRouting()

    /// How many input events the window and its popups have been given (``handle(_:)``).
    public private(set) var handledInputCount = 0
    /// Sees each input the window and its popups are given: `InputDriver`, injecting
    /// through a compositor, waits for the very event it sent (not any other, such
    /// as the pointer's enter when a dialog closes).
    package var inputWitness: (@MainActor (WindowInput) -> Void)?

    /// Key repeat: repeats per second (0: none) and the delay before the first,
    /// as the compositor's `repeat_info` says (25/s after 0.6 s until it does).
    public func setKeyRepeat(rate: Double, delay: Double) {
        input.repeatRate = rate.isFinite ? max(0, rate) : 0
        input.repeatDelay = delay.isFinite ? max(0, delay) : 0.6
    }

    /// Tab and Shift-Tab that no responder took move the focus to the next (or
    /// previous) view that accepts it, in tree order (rule H5).
    /// Escape that no responder took dismisses the topmost sheet (unless it is
    /// modal in presentation).
    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        // A popover's keys travel its responder chain through the presenting
        // controller to this window: they act in the popover they came from.
        let keyWindow = popupsInStackingOrder.last { $0.grabsInput && $0.isOpen }?.window ?? self
        if presses.first?.key?.keysym == Key.escape, let top = keyWindow.presentations.last, top.style.isSheet, top.alertStyle == nil,
           top.style != .custom {
            if !top.presented.isModalInPresentation { top.presented.dismiss(animated: true) }
            return
        }
        guard let key = presses.first?.key, key.keysym == Key.tab || key.keysym == Key.isoLeftTab else {
            return super.pressesBegan(presses, with: event)
        }
        keyWindow.moveFocus(backwards: key.keysym == Key.isoLeftTab || key.modifierFlags.contains(.shift))
    }

    /// Gives the focus to the next view that can take it, wrapping around: in
    /// reading order (rule Y1's, as UIKit's keyboard focus moves), inside the
    /// frontmost modal view (a sheet, an alert) when one is up, a list once
    /// (its rows are reached with the arrows), nothing hidden.
    public func moveFocus(backwards: Bool) {
        var candidates: [View] = []
        func collect(_ view: View) {
            guard !view.isHidden else { return }
            if view.canBecomeFirstResponder { candidates.append(view) }
            if view is ListView { return }
            if let modal = view.subviews.last(where: { $0.accessibilityViewIsModal && !$0.isHidden }) { return collect(modal) }
            View.inReadingOrder(view.subviews, rightToLeft: view.effectiveUserInterfaceLayoutDirection == .rightToLeft).forEach(collect)
        }
        collect(rootView)
        guard !candidates.isEmpty else { return }
        if backwards { candidates.reverse() }
        let start = candidates.firstIndex { $0 === firstResponder }.map { $0 + 1 } ?? 0
        for i in 0..<candidates.count where candidates[(start + i) % candidates.count].becomeFirstResponder() { return }
    }

    /// True between ``show()`` and ``close()``.
    public private(set) var isVisible = false
    /// Whether the window has ever been shown.
    private var wasShown = false

    /// Asks the compositor to show the window fullscreen (or not); the new size
    /// arrives with the compositor's answer and is laid out as any resize (rule W2).
    public var isFullscreen: Bool {
        get { onscreen?.toplevel?.states.contains(.fullscreen) ?? false }
        set { onscreen?.toplevel?.setFullscreen(newValue) }
    }

    /// Asks the compositor to show the window fullscreen on `screen` (the one
    /// output a Wayland client may choose for a window; the compositor's choice when
    /// nil). As ``isFullscreen``, the new size comes with the compositor's answer.
    public func showFullscreen(on screen: Screen?) {
        onscreen?.toplevel?.setFullscreen(true, output: screen?.output)
    }

    /// Asks the compositor to maximize the window (or not).
    public var isMaximized: Bool {
        get { onscreen?.toplevel?.states.contains(.maximized) ?? false }
        set { onscreen?.toplevel?.setMaximized(newValue) }
    }

    /// Frames drawn on the compositor so far (0 offscreen): what a test waits on.
    public var frameNumber: UInt64 { onscreen?.framed.frameNumber ?? 0 }

    /// The pacing of the window's frames on the compositor (frame callbacks,
    /// presentation feedback); nil offscreen.
    public var frameStatistics: FrameStatistics? { onscreen?.framed.statistics }

    /// The window's surface on the compositor (nil offscreen), as seat events name it.
    public var surfaceID: SurfaceID? { onscreen?.framed.surfaceID }

    /// The `xdg_toplevel` window while shown on a compositor (nil offscreen), for
    /// this package's testing kit, benchmarks and tests.
    package var toplevel: ToplevelWindow? { onscreen?.toplevel }

    /// Device pixels per point: the output's scale on screen (the compositor
    /// decides); offscreen 1 unless set (0.1–8), for snapshots at another scale.
    /// Views draw their content at it (`View.contentScaleFactor`, rule X3).
    public var scale: Double {
        get { onscreen?.framed.scale ?? offscreenScale }
        set {
            guard newValue.isFinite, newValue > 0 else {
                return Diagnostics.report(.invalidView("window scale \(newValue) refused; it stays \(scale)"))
            }
            offscreenScale = min(8, max(0.1, newValue))
            applyContentScale()
        }
    }
    private var offscreenScale = 1.0

    /// Gives every view the window's scale (views that draw redraw).
    func applyContentScale() {
        let s = scale
        rootView.forEachInSubtree { $0.contentScaleFactor = s }
        decorations?.forEachInSubtree { $0.contentScaleFactor = s }
    }

    /// The on-screen part, while the window is shown on a compositor.
    var onscreen: OnscreenWindow?

    /// A window of `size` points showing an empty root view.
    public init(title: String, size: Size) {
        self.title = title
        rootView = View()
        super.init()
        for l in [surfaceLayer, layer] {
            l.anchorPoint = .zero
            // Plain layers, but part of the window's frame: they never animate.
            l.actions = ["bounds": NullAction(), "position": NullAction(), "sublayers": NullAction(), "backgroundColor": NullAction()]
        }
        applyBackgroundColor()
        surfaceLayer.addSublayer(layer)
        let size = Window.clamped(size, min: .zero, max: .zero)
        layer.bounds = Rect(origin: .zero, size: size)
        surfaceLayer.bounds = layer.bounds
        install(rootView, replacing: nil)
    }

    /// The application (rule H3).
    public override var next: Responder? { Application.shared }

    override var focusWindow: Window? { self }

    // MARK: Showing and closing

    /// Shows the window: on the application's compositor when one can be
    /// reached, else offscreen (rule W3). From now on its tree is presented, so
    /// changes to layers that are not view-backed animate (rule B5).
    public func show() {
        guard !isVisible else { return }
        isVisible = true
        wasShown = true
        PresentationHosts.attach(surfaceLayer)
        rootViewController?.transitionAppearance(true)
        if let popupHost { return popupHost.windowDidShow() }   // its parent's, not one of the app's
        if belongsToApplication {
            Application.shared.windowDidShow(self)
            if let display = Application.shared.display {
                onscreen = makeOnscreen(display: display, loop: Application.shared.loop)
            }
        }
        if parent != nil { dialogDidShow() }
    }

    /// The window's surface on the compositor: an `xdg_toplevel` (a shell window's is a layer surface).
    func makeOnscreen(display: Display, loop: EventLoop?) -> OnscreenWindow? {
        OnscreenWindow(window: self, display: display, loop: loop)
    }

    /// A window made in the app's context (``LayerContext/main``) is the app's:
    /// it goes on screen when the app is connected. One made in a context of its
    /// own (a test's) is an offscreen window of that context alone (rule W3).
    var belongsToApplication: Bool { surfaceLayer.context === LayerContext.main }

    /// Asks the compositor to raise and focus the window (`xdg_activation_v1`);
    /// it may instead show that the window wants attention. False offscreen or
    /// where the compositor offers no activation.
    @discardableResult
    public func activate() -> Bool { onscreen?.activate() ?? false }

    /// Asks the compositor for an activation token for a program this window is
    /// about to start (xdg-activation; the freedesktop startup notification's
    /// successor), quoting the latest input event: pass it to the program in
    /// `XDG_ACTIVATION_TOKEN` (and `DESKTOP_STARTUP_ID`) so its first window is
    /// focused. `done` gets nil offscreen or where the compositor offers no
    /// activation.
    public func requestActivationToken(forAppID appID: String?, done: @escaping @MainActor (String?) -> Void) {
        guard let onscreen else { return done(nil) }
        onscreen.framed.requestActivationToken(appID: appID, quoting: onscreen.latestPress ?? Application.shared.latestInput, done: done)
    }

    /// Closes the window: it leaves the screen and the application. Safe while
    /// its views animate; the window can be shown again.
    public func close() {
        guard isVisible else { return }
        dismissPopups()
        closeDialogs()
        isVisible = false
        rootViewController?.transitionAppearance(false)
        onscreen?.close()
        onscreen = nil
        PresentationHosts.detach(surfaceLayer)
        if let popupHost { return popupHost.windowDidClose() }
        if belongsToApplication { Application.shared.windowDidClose(self) }
    }

    // MARK: Pixels without a compositor (rule W3)

    /// The window's surface as it is shown at `time` (root media time; default
    /// now), rendered offscreen at the window's scale — the same pixels a frame
    /// at that time puts on screen: the content, and the frame the window draws
    /// itself, if any, and its open popups (menus, tooltips) where they are.
    /// Works whether or not the window is shown.
    public func snapshot(atTime time: Double? = nil) -> RenderedImage {
        drawingPopups(over: surfaceSnapshot(atTime: time), atTime: time)
    }

    /// The window's own surface at `time`, without its popups.
    func surfaceSnapshot(atTime time: Double?) -> RenderedImage {
        let scale = self.scale
        let surface = surfaceLayer.bounds.size
        let renderer = OffscreenRenderer(width: Int((surface.width * scale).rounded()), height: Int((surface.height * scale).rounded()),
                                         scale: scale)
        renderer.backgroundColor = surfaceClearColor
        layoutIfNeeded()
        renderer.rootLayer = surfaceLayer
        defer { renderer.rootLayer = nil }
        return renderer.render(atTime: time)
    }

    /// Frames of the window at `frames` equal steps from `start` to `end` (media
    /// time), side by side, left to right.
    public func filmstrip(from start: Double, to end: Double, frames: Int) -> RenderedImage {
        let n = max(1, frames)
        let times = (0..<n).map { n == 1 ? start : start + (end - start) * Double($0) / Double(n - 1) }
        return RenderedImage(strip: times.map { snapshot(atTime: $0) })
    }

    // MARK: Layout (rule W2)

    /// Lays out the root view's tree (and the window's frame) where marked.
    public func layoutIfNeeded() {
        updateTraitsIfNeeded()
        appearOffscreenIfNeeded()
        rootView.layoutIfNeeded()
        decorations?.layoutIfNeeded()
        if !popups.isEmpty { followAnchorsOfPopups() }
    }

    /// Takes the new size in one transaction with the layout it causes, so no
    /// frame shows the old layout at the new size (rule W2).
    func resize(to newSize: Size) {
        if let onscreen, onscreen.isConfigured {
            onscreen.requestSize(newSize)
            return
        }
        applySize(newSize)
    }

    func applySize(_ newSize: Size) {
        Transaction.begin()
        let insets = decorations?.insets ?? (top: 0, left: 0, bottom: 0, right: 0)
        layer.bounds = Rect(origin: .zero, size: newSize)
        layer.position = Point(x: insets.left, y: insets.top)
        surfaceLayer.bounds = Rect(x: 0, y: 0, width: newSize.width + insets.left + insets.right,
                                   height: newSize.height + insets.top + insets.bottom)
        decorations?.frame = surfaceLayer.bounds
        rootView.frame = Rect(origin: .zero, size: newSize)
        layoutIfNeeded()
        Transaction.commit()
    }

    /// Where the content area (the root view's origin) is in the window's
    /// surface: past the shadow margins and title bar of client-side
    /// decorations, (0, 0) without them. Window points are surface points less this.
    public var contentOrigin: Point { layer.position }

    /// A window never shown shows its root controller as it is first laid out
    /// or snapshotted (rule W3).
    private func appearOffscreenIfNeeded() {
        guard !isVisible, !wasShown, let controller = rootViewController, !controller.isAppearingOrVisible else { return }
        controller.transitionAppearance(true)
    }

    private func install(_ view: View, replacing old: View?) {
        if let old {
            old.releaseFocus(leaving: self)
            old.forEachInSubtree { $0.willMove(toWindow: nil) }
            old.layer.removeFromSuperlayer()
            old.hostWindow = nil
            old.forEachInSubtree { $0.movedToWindow() }
        }
        view.removeFromSuperview()
        view.forEachInSubtree { $0.willMove(toWindow: self) }
        view.hostWindow = self
        view.frame = Rect(origin: .zero, size: size)
        layer.addSublayer(view.layer)
        let s = scale
        view.forEachInSubtree { $0.contentScaleFactor = s }
        view.forEachInSubtree { $0.movedToWindow() }
        old?.propagateTraits()
        view.propagateTraits()
        view.setNeedsLayout()
    }

    private func sizeLimitsChanged() {
        onscreen?.applySizeLimits()
        let clamped = Window.clamped(size, min: minimumSize, max: maximumSize)
        if clamped != size { size = clamped }
    }

    /// `size` within the limits (0: none), at least one point, finite.
    static func clamped(_ size: Size, min lower: Size, max upper: Size) -> Size {
        func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double {
            var v = v.isFinite ? v : (v > 0 ? 16_384 : 1)
            if hi > 0 { v = Swift.min(v, hi) }
            return Swift.min(16_384, Swift.max(1, lo, v))
        }
        if !(size.width.isFinite && size.height.isFinite) {
            Diagnostics.report(.invalidView("window size \(size) is not finite; clamped"))
        }
        return Size(width: clamp(size.width, lower.width, upper.width), height: clamp(size.height, lower.height, upper.height))
    }
}

// MARK: Drag and drop

extension Window {
    /// Delivers a drag over the window (the seat's, or ``InputDriver``'s): what a
    /// drop at its place would do, as the ``DropInteraction`` under it says.
    @discardableResult
    public func handleDrop(_ input: DropInput) -> DropOperation { drop.handle(input) }

    /// Starts dragging `items` with the touch or pointer press that holds the
    /// window now, at `point` (`DragInteraction` calls it): through the compositor to any
    /// app when the window is on one, else within the window. `completion`
    /// gets the operation the drop performed, or `.cancel`.
    func beginDrag(_ items: [DragItem], allowed: Set<DropOperation>, touchID: Int, at point: Point, completion: @escaping (DropOperation) -> Void) {
        let offers = DragItem.offers(items)
        guard !offers.isEmpty else { return completion(.cancel) }
        input.grabbed(touchID: touchID)
        var actions = DragAndDrop.Action()
        for op in allowed { actions.formUnion(op.action) }
        if let onscreen, let press = onscreen.latestPress, let dnd = Application.shared.dragAndDrop(for: press.seat) {
            dnd.startDrag(offers, actions: actions.isEmpty ? .copy : actions, from: onscreen.framed, serial: press.serial) { action in
                completion(action.map { $0.contains(.move) ? .move : .copy } ?? .cancel)
            }
            return
        }
        input.localDrag = InputDispatcher.LocalDrag(touchID: touchID, completion: completion)
        drop.handle(.entered(point, types: offers.map(\.mimeType), allowed: allowed.isEmpty ? [.copy] : allowed) { type, done in
            done(offers.first { $0.mimeType == type }?.bytes)
        })
    }
}
