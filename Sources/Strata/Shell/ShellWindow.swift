import WaylandClient

/// The edges of a rectangle (`UIRectEdge`): where a shell window is anchored.
public struct Edges: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let top = Edges(rawValue: 1)
    public static let left = Edges(rawValue: 2)
    public static let bottom = Edges(rawValue: 4)
    public static let right = Edges(rawValue: 8)
    public static let all: Edges = [.top, .left, .bottom, .right]
}

/// Distances from the edges of a rectangle (`UIEdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
    public var top, left, bottom, right: Double
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }
    public static let zero = EdgeInsets()
}

/// A window on one of the compositor's shell layers (wlr-layer-shell; SEMANTICS
/// S): a panel, dock, on-screen display, notification or launcher, with the same
/// root view, input, text and animation as any ``Window``.
///
/// It is placed by ``anchors`` instead of by the user: anchored to both of an
/// axis's edges it spans the output on that axis (the compositor gives the size,
/// and ``size`` follows it); otherwise it has the size asked for, centred between
/// the edges it is not anchored to. ``exclusiveZone`` keeps other windows out of
/// the strip along its anchored edge — `.automatic`: its own height for a bar
/// anchored to the top or bottom, its width for one at the left or right. Its
/// layer puts it below windows (`.background`, `.bottom`) or above them (`.top`,
/// `.overlay`, which is above fullscreen windows too).
///
/// Shown on a ``Screen`` (an output), it is closed when that output goes (the
/// compositor closes its surface).
///
/// On a compositor without the shell layer (weston's desktop shell, mutter,
/// cage) ``show()`` puts nothing on screen: ``shellError`` says why
/// (``ShellSurfaceError/unsupported``) and a diagnostic is reported. Offscreen
/// (rule W3) it lays out, animates and snapshots as any window.
@MainActor
public final class ShellWindow: Window {
    /// The shell layers, bottom to top.
    public enum ShellLayer: Hashable, Sendable { case background, bottom, top, overlay }

    /// Keeping other windows out of the strip along the anchored edge.
    public enum ExclusiveZone: Hashable, Sendable {
        /// No strip; it may cover other windows.
        case none
        /// Its extent from the anchored edge (its height for a top or bottom bar).
        case automatic
        /// This many points from the anchored edge.
        case points(Double)
        /// It ignores the zones of others: anchored to an edge, it goes to the very
        /// edge even where a panel keeps a strip (an overlay, a lock-like prompt).
        case ignoreOthers
    }

    /// How the window takes the keyboard.
    public enum KeyboardInteractivity: Hashable, Sendable {
        /// Never (a panel, an OSD).
        case none
        /// Always while shown on the top or overlay layer (a launcher).
        case exclusive
        /// When the user focuses it, as a normal window.
        case onDemand
    }

    public let shellLayer: ShellLayer
    /// What the compositor's rules match ("panel", "notifications" …).
    public let namespace: String
    public var anchors: Edges = [] { didSet { if anchors != oldValue { shellStateChanged() } } }
    public var exclusiveZone = ExclusiveZone.none { didSet { if exclusiveZone != oldValue { shellStateChanged() } } }
    /// Distances from the anchored edges.
    public var margins = EdgeInsets.zero { didSet { if margins != oldValue { shellStateChanged() } } }
    public var keyboardInteractivity = KeyboardInteractivity.none {
        didSet { if keyboardInteractivity != oldValue { shellStateChanged() } }
    }
    /// Why the window is not on the compositor's shell layer, while shown and not there.
    public private(set) var shellError: ShellSurfaceError?

    /// The screen it is shown on (the compositor's choice when nil).
    public let screen: Screen?

    /// Whether the window takes its size from its content, as a layer-shell
    /// client sized by its widgets does: on each axis it does not span, the size is
    /// the root view's `sizeThatFits(_:)` (a stack view's or label's fitting size)
    /// at each layout, asked of the compositor. A change made while the content
    /// animates grows the window at once and shrinks it only once the content's
    /// animations have ended, so the animation plays inside the surface. False by
    /// default: the size set is the size asked for.
    public var sizesToFitContent = false { didSet { if sizesToFitContent { rootView.setNeedsLayout() } } }
    /// A look at the fitting size again when the content's animations end.
    private var fitRecheck: MediaTimer?

    /// Whether the application's compositor offers the shell layers (false
    /// offscreen and before connecting): an app that can do without them shows an
    /// ordinary window instead (a launcher), one that cannot says so.
    public static var isAvailable: Bool { Application.shared.display?.layerShell != nil }

    public init(layer: ShellLayer, namespace: String, screen: Screen? = nil, size: Size = Size(width: 100, height: 100)) {
        shellLayer = layer
        self.namespace = namespace
        self.screen = screen
        super.init(title: namespace, size: size)
        backgroundColor = .clear
    }

    /// The shell surface, while shown on a compositor.
    var shellSurface: ShellSurface? { onscreen?.shell }

    override func makeOnscreen(display: Display, loop: EventLoop?) -> OnscreenWindow? {
        do {
            let s = try ShellSurface(display: display, layer: layer(shellLayer), namespace: namespace, output: screen?.output,
                                     width: requestedSize.width, height: requestedSize.height, anchors: surfaceAnchors)
            shellError = nil
            let on = OnscreenWindow(window: self, shell: s, loop: loop)
            applyShellState(to: s)
            return on
        } catch {
            shellError = error
            Diagnostics.report(.invalidView("ShellWindow \"\(namespace)\": \(error); it is not shown"))
            return nil
        }
    }

    private func layer(_ l: ShellLayer) -> ShellSurface.Layer {
        switch l {
        case .background: .background
        case .bottom: .bottom
        case .top: .top
        case .overlay: .overlay
        }
    }

    private var surfaceAnchors: ShellSurface.Anchors {
        var a: ShellSurface.Anchors = []
        if anchors.contains(.top) { a.insert(.top) }
        if anchors.contains(.bottom) { a.insert(.bottom) }
        if anchors.contains(.left) { a.insert(.left) }
        if anchors.contains(.right) { a.insert(.right) }
        return a
    }

    /// The size asked of the compositor: 0 on an axis anchored to both edges.
    private var requestedSize: (width: Int, height: Int) {
        (anchors.isSuperset(of: [.left, .right]) ? 0 : max(1, Int(size.width.rounded(.up))),
         anchors.isSuperset(of: [.top, .bottom]) ? 0 : max(1, Int(size.height.rounded(.up))))
    }

    /// The exclusive zone in surface units for the anchors and size now.
    var exclusiveZoneValue: Int {
        switch exclusiveZone {
        case .none: return 0
        case .ignoreOthers: return -1
        case let .points(p): return p.isFinite ? max(0, Int(p.rounded())) : 0
        case .automatic:
            let vertical = anchors.contains(.top) != anchors.contains(.bottom)
            let horizontal = anchors.contains(.left) != anchors.contains(.right)
            if vertical && !horizontal {
                return Int(size.height.rounded()) + Int((anchors.contains(.top) ? margins.top : margins.bottom).rounded())
            }
            if horizontal && !vertical {
                return Int(size.width.rounded()) + Int((anchors.contains(.left) ? margins.left : margins.right).rounded())
            }
            return 0
        }
    }

    private func shellStateChanged() {
        guard let s = shellSurface else { return }
        applyShellState(to: s)
    }

    /// Sends the anchors, size, zone, margins and keyboard mode (applied by the compositor at the next commit).
    private func applyShellState(to s: ShellSurface) {
        do {
            try s.setAnchors(surfaceAnchors)
            try s.setSize(width: requestedSize.width, height: requestedSize.height)
        } catch {
            Diagnostics.report(.invalidView("ShellWindow \"\(namespace)\": \(error)"))
        }
        s.setExclusiveZone(exclusiveZoneValue)
        func c(_ v: Double) -> Int { v.isFinite ? Int(v.rounded()) : 0 }
        s.setMargins(top: c(margins.top), right: c(margins.right), bottom: c(margins.bottom), left: c(margins.left))
        let keyboard: ShellSurface.KeyboardInteractivity = switch keyboardInteractivity {
        case .none: .none
        case .exclusive: .exclusive
        case .onDemand: .onDemand
        }
        s.setKeyboardInteractivity(keyboard)
    }

    public override func layoutIfNeeded() {
        if sizesToFitContent { fitContent() }   // first, so the content is laid out once, at its size
        super.layoutIfNeeded()
    }

    /// The root view's fitting size on the axes the window does not span, asked
    /// for — a shrink only when nothing in the content animates (looked at again
    /// when the next of its animations is due to end).
    private func fitContent() {
        let spansWidth = anchors.isSuperset(of: [.left, .right]), spansHeight = anchors.isSuperset(of: [.top, .bottom])
        let limit = screen?.bounds.size ?? Size(width: 16384, height: 16384)
        let fit = rootView.sizeThatFits(Size(width: spansWidth ? size.width : limit.width, height: spansHeight ? size.height : limit.height))
        func axis(_ spans: Bool, _ fitted: Double, _ now: Double, _ max: Double) -> Double {
            spans || !fitted.isFinite || fitted <= 0 ? now : min(fitted.rounded(.up), max)
        }
        let target = Size(width: axis(spansWidth, fit.width, size.width, limit.width),
                          height: axis(spansHeight, fit.height, size.height, limit.height))
        guard target != size else { return }
        let shrinks = target.width < size.width || target.height < size.height
        let now = currentMediaTime()
        if shrinks && AnimationTimeline.nextChangeTime(after: now, under: surfaceLayer) <= now {
            let end = AnimationTimeline.nextEventTime(after: now, under: surfaceLayer)
            if fitRecheck?.isPending != true, end.isFinite {   // an animation that never ends: the next layout looks again
                fitRecheck = MediaTimer.schedule(at: end) { [weak self] in self?.rootView.setNeedsLayout() }
            }
            // Grow now on the axis that grows; shrink later.
            let grown = Size(width: max(target.width, size.width), height: max(target.height, size.height))
            if grown != size { size = grown }
            return
        }
        size = target
    }

    /// A new size from the app (a view's intrinsic size, say): asked of the
    /// compositor on the axes it does not decide, with the automatic zone.
    override func resize(to newSize: Size) {
        guard let s = shellSurface, s.isConfigured else { return applySize(newSize) }
        applySize(newSize)
        shellStateChanged()
    }
}
