/// A surface on one of the compositor's shell layers (`zwlr_layer_surface_v1`):
/// panels, docks, on-screen displays, notifications, launchers — placed by
/// anchors to the output's edges, with an exclusive zone other windows keep out
/// of, margins, and how it takes the keyboard. Drawn and paced by a
/// ``FramedSurface`` like every other surface.
///
/// State is double-buffered: each setter applies with the next commit (it
/// commits, asking for a configure). Nothing is drawn before the first configure;
/// a size of 0 on an axis anchored to both of its edges is the compositor's to
/// choose (the output's width for a top bar), and only there — elsewhere it is
/// refused before it is sent (``ShellSurfaceError/invalidSize(width:height:anchors:)``).
/// The compositor may close the surface (`closed`: its output went away): then
/// ``onClosed`` runs and the surface must be closed.
@MainActor
public final class ShellSurface: PopupParent {
    /// The shell layers, bottom to top (`zwlr_layer_shell_v1.layer`).
    public enum Layer: UInt32, Hashable, Sendable, CaseIterable { case background = 0, bottom, top, overlay }

    /// The output edges a surface is anchored to.
    public struct Anchors: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let top = Anchors(rawValue: 1)
        public static let bottom = Anchors(rawValue: 2)
        public static let left = Anchors(rawValue: 4)
        public static let right = Anchors(rawValue: 8)
        public static let all: Anchors = [.top, .bottom, .left, .right]
    }

    /// How the surface takes the keyboard.
    public enum KeyboardInteractivity: UInt32, Hashable, Sendable {
        /// Never (a panel that only takes the pointer).
        case none = 0
        /// Always, while it is on a top or overlay layer (a launcher, a lock-like prompt).
        case exclusive = 1
        /// When the user focuses it, as a window (layer-shell version 4).
        case onDemand = 2
    }

    public let display: Display
    public let framed: FramedSurface
    public var surfaceID: SurfaceID { framed.surfaceID }
    let layerSurface: ZwlrLayerSurfaceV1
    public var parentXdgSurface: XdgSurface? { nil }

    /// The size the compositor gave with the last configure (surface units; the
    /// size asked for until then).
    public var width: Int { framed.size.width }
    public var height: Int { framed.size.height }
    /// True once the first configure arrived.
    public var isConfigured: Bool { framed.isConfigured }
    /// True once the compositor closed the surface.
    public private(set) var isClosed = false
    /// Called after each configure.
    public var onConfigure: ((ShellSurface) -> Void)?
    /// The compositor closed the surface: close it.
    public var onClosed: ((ShellSurface) -> Void)?

    public private(set) var layer: Layer
    public private(set) var anchors: Anchors = []
    /// The size asked for (0 on an axis: the compositor's, where anchored to both edges).
    public private(set) var requestedWidth: Int
    public private(set) var requestedHeight: Int
    public private(set) var exclusiveZone = 0
    public private(set) var margins = (top: 0, right: 0, bottom: 0, left: 0)
    public private(set) var keyboardInteractivity = KeyboardInteractivity.none

    /// Makes a layer surface on `output` (the compositor's choice when nil) in
    /// `layer`, under `namespace` (what the compositor's rules match, e.g. "panel").
    /// Throws where the compositor offers no layer shell, or for a size the
    /// anchors do not allow.
    public init(display: Display, layer: Layer, namespace: String, output: Output? = nil,
                width: Int, height: Int, anchors: Anchors = []) throws(ShellSurfaceError) {
        guard let shell = display.layerShell else { throw .unsupported }
        try Self.validate(width: width, height: height, anchors: anchors)
        self.display = display
        self.layer = layer
        self.anchors = anchors
        requestedWidth = width
        requestedHeight = height
        framed = FramedSurface(display: display)
        layerSurface = shell.getLayerSurface(surface: framed.surface, output: output?.proxy,
                                             layer: ZwlrLayerShellV1.Layer(rawValue: layer.rawValue), namespace: namespace)
        layerSurface.setSize(width: UInt32(clamping: width), height: UInt32(clamping: height))
        if !anchors.isEmpty { layerSurface.setAnchor(anchor: ZwlrLayerSurfaceV1.Anchor(rawValue: anchors.rawValue)) }
        layerSurface.onEvent = { [unowned self] event in
            switch event {
            case let .configure(serial, w, h):
                layerSurface.ackConfigure(serial: serial)
                applyConfigure(width: Int(w), height: Int(h))
            case .closed:
                guard !isClosed else { return }
                isClosed = true
                onClosed?(self)
            }
        }
        framed.size = (max(1, width), max(1, height))
        surface.commit()
    }

    public var surface: WlSurface { framed.surface }

    /// Refuses what the protocol forbids before it is sent.
    static func validate(width: Int, height: Int, anchors: Anchors) throws(ShellSurfaceError) {
        guard width >= 0, height >= 0, width <= ShmBufferPool.maximumDimension, height <= ShmBufferPool.maximumDimension,
              width > 0 || anchors.isSuperset(of: [.left, .right]), height > 0 || anchors.isSuperset(of: [.top, .bottom]) else {
            throw .invalidSize(width: width, height: height, anchors: anchors)
        }
    }

    private func applyConfigure(width w: Int, height h: Int) {
        // 0 means "you choose": the size asked for.
        framed.takeConfiguredSize(width: w > 0 ? w : requestedWidth, height: h > 0 ? h : requestedHeight) { onConfigure?(self) }
    }

    // MARK: State (applied with the next commit)

    /// The size to ask for (0 on an axis anchored to both edges: the compositor's).
    public func setSize(width: Int, height: Int) throws(ShellSurfaceError) {
        try Self.validate(width: width, height: height, anchors: anchors)
        (requestedWidth, requestedHeight) = (width, height)
        layerSurface.setSize(width: UInt32(width), height: UInt32(height))
        surface.commit()
    }

    public func setAnchors(_ newAnchors: Anchors) throws(ShellSurfaceError) {
        try Self.validate(width: requestedWidth, height: requestedHeight, anchors: newAnchors)
        anchors = newAnchors
        layerSurface.setAnchor(anchor: ZwlrLayerSurfaceV1.Anchor(rawValue: newAnchors.rawValue))
        surface.commit()
    }

    /// How far from its anchored edge other surfaces keep out (0: none; −1: it
    /// ignores other surfaces' zones and is not moved by them).
    public func setExclusiveZone(_ zone: Int) {
        exclusiveZone = min(max(zone, -1), Int(Int32.max))
        layerSurface.setExclusiveZone(zone: Int32(exclusiveZone))
        surface.commit()
    }

    public func setMargins(top: Int, right: Int, bottom: Int, left: Int) {
        func c(_ v: Int) -> Int32 { Int32(clamping: v) }
        margins = (Int(c(top)), Int(c(right)), Int(c(bottom)), Int(c(left)))
        layerSurface.setMargin(top: c(top), right: c(right), bottom: c(bottom), left: c(left))
        surface.commit()
    }

    /// How it takes the keyboard; `.onDemand` where the compositor's layer shell
    /// is older than version 4 falls back to `.exclusive` for a surface that asks
    /// for the keyboard at all.
    public func setKeyboardInteractivity(_ mode: KeyboardInteractivity) {
        let sent = mode == .onDemand && layerSurface.version < 4 ? KeyboardInteractivity.exclusive : mode
        keyboardInteractivity = sent
        layerSurface.setKeyboardInteractivity(keyboardInteractivity: ZwlrLayerSurfaceV1.KeyboardInteractivity(rawValue: sent.rawValue))
        surface.commit()
    }

    /// Moves it to another layer (layer-shell version 2); false where the compositor's is older.
    @discardableResult
    public func setLayer(_ newLayer: Layer) -> Bool {
        guard layerSurface.version >= 2 else { return false }
        layer = newLayer
        layerSurface.setLayer(layer: ZwlrLayerShellV1.Layer(rawValue: newLayer.rawValue))
        surface.commit()
        return true
    }

    /// Asks for a redraw at the next frame callback.
    public func setNeedsDisplay() { framed.setNeedsDisplay() }

    public func adopt(_ popup: XdgPopup) { layerSurface.getPopup(popup: popup) }

    /// Destroys its objects (its popups first); it must not be used afterwards.
    public func close() {
        layerSurface.destroy()
        framed.close()
    }
}

/// Why a shell surface could not be made or changed.
public enum ShellSurfaceError: Error, Equatable, CustomStringConvertible {
    /// The compositor offers no `zwlr_layer_shell_v1` (weston's desktop shell, mutter, cage).
    case unsupported
    /// A size the protocol forbids: 0 on an axis not anchored to both its edges, negative, or too large.
    case invalidSize(width: Int, height: Int, anchors: ShellSurface.Anchors)

    public var description: String {
        switch self {
        case .unsupported:
            "the compositor offers no zwlr_layer_shell_v1 (shell layers: panels, overlays); sway, kwin and other wlroots compositors do"
        case let .invalidSize(w, h, anchors):
            "a shell surface of \(w)x\(h) with anchors \(anchors.rawValue): 0 is only allowed on an axis anchored to both its edges"
        }
    }
}
