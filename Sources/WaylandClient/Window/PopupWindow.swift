/// A surface that can parent popups: a toplevel window, another popup, or a
/// shell surface.
@MainActor
public protocol PopupParent: AnyObject {
    /// The `xdg_surface` a popup names as its parent; nil for a shell surface,
    /// which takes a popup made without one (``adopt(_:)``).
    var parentXdgSurface: XdgSurface? { get }
    /// The parent's surface.
    var framed: FramedSurface { get }
    /// Takes a popup made with no parent as its own, before its first commit
    /// (`zwlr_layer_surface_v1.get_popup`); nothing for the others.
    func adopt(_ popup: XdgPopup)
}

extension ToplevelWindow: PopupParent {
    public var parentXdgSurface: XdgSurface? { xdgSurface }
    public func adopt(_ popup: XdgPopup) {}
}

/// An `xdg_popup`: the popup role — a surface placed against its parent by a
/// ``PopupPositioner`` where the compositor decides, optionally grabbing the
/// seat's input (menus) — over a ``FramedSurface`` that draws and paces its
/// frames like a window's.
///
/// The compositor says where the popup went and how large it is with each
/// configure (``frame``, relative to the parent's window geometry), and dismisses
/// it with `popup_done` (``onDismiss``): a click outside the app's surfaces, the
/// grab refused (no recent press behind its serial), or the parent gone. The
/// client then closes it (``close()``).
@MainActor
public final class PopupWindow: PopupParent {
    public let display: Display
    public let framed: FramedSurface
    public var surface: WlSurface { framed.surface }
    /// The surface's identity in input events.
    public var surfaceID: SurfaceID { surface.surfaceID }
    public let xdgSurface: XdgSurface
    let popup: XdgPopup
    private var positioner: PopupPositioner
    private var repositionToken: UInt32 = 0

    /// Where the compositor put the popup, relative to the parent's window
    /// geometry (before the first configure: where ``PopupPositioner`` asked).
    public private(set) var frame: PopupPositioner.Rectangle
    /// True once the first configure arrived.
    public var isConfigured: Bool { framed.isConfigured }
    /// True once the compositor dismissed the popup (`popup_done`).
    public private(set) var isDismissed = false
    /// Whether the popup asked for the seat's input.
    public let grabbed: Bool
    /// Called after each configure (the place or size may be new).
    public var onConfigure: ((PopupWindow) -> Void)?
    /// The compositor dismissed the popup (`popup_done`): close it.
    public var onDismiss: ((PopupWindow) -> Void)?

    /// Opens a popup on `parent` where `positioner` says; with `grab`, it takes
    /// the seat's pointer and keyboard (menus), quoting the press that opened it
    /// (a compositor dismisses a grab whose serial is not a recent press).
    /// With `acceptsInput` false, input passes through the popup (a tooltip).
    public init(display: Display, parent: PopupParent, positioner: PopupPositioner, grab: (seat: Seat, serial: UInt32)? = nil,
                acceptsInput: Bool = true) {
        self.display = display
        self.positioner = positioner.sanitized
        frame = self.positioner.unadjustedFrame()
        framed = FramedSurface(display: display)
        framed.acceptsInput = acceptsInput
        xdgSurface = display.wmBase.getXdgSurface(surface: framed.surface)
        let p = Self.makePositioner(display, self.positioner)
        popup = xdgSurface.getPopup(parent: parent.parentXdgSurface, positioner: p)
        p.destroy()
        parent.adopt(popup)
        grabbed = grab != nil
        if let grab { popup.grab(seat: grab.seat.proxy, serial: grab.serial) }
        var pending: PopupPositioner.Rectangle?
        popup.onEvent = { [unowned self] event in
            switch event {
            case let .configure(x, y, w, h):
                pending = PopupPositioner.Rectangle(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
            case .popupDone:
                guard !isDismissed else { return }
                isDismissed = true
                onDismiss?(self)
            case .repositioned:
                break
            }
        }
        xdgSurface.onEvent = { [unowned self] event in
            guard case let .configure(serial) = event else { return }
            xdgSurface.ackConfigure(serial: serial)
            applyConfigure(pending)
            pending = nil
        }
        framed.size = (frame.width, frame.height)
        surface.commit()
    }

    private static func makePositioner(_ display: Display, _ p: PopupPositioner) -> XdgPositioner {
        let x = display.wmBase.createPositioner()
        x.setSize(width: Int32(p.width), height: Int32(p.height))
        x.setAnchorRect(x: Int32(p.anchorRect.x), y: Int32(p.anchorRect.y),
                        width: Int32(p.anchorRect.width), height: Int32(p.anchorRect.height))
        x.setAnchor(anchor: XdgPositioner.Anchor(rawValue: p.anchor.rawValue))
        x.setGravity(gravity: XdgPositioner.Gravity(rawValue: p.gravity.rawValue))
        x.setConstraintAdjustment(constraintAdjustment: p.adjustments.rawValue)
        if p.offsetX != 0 || p.offsetY != 0 { x.setOffset(x: Int32(p.offsetX), y: Int32(p.offsetY)) }
        if p.isReactive && x.version >= 3 { x.setReactive() }
        return x
    }

    private func applyConfigure(_ placed: PopupPositioner.Rectangle?) {
        let first = !isConfigured
        let old = frame
        if let placed {
            // The compositor may shrink the popup (resize adjustments); never below 1×1.
            frame = PopupPositioner.Rectangle(x: placed.x, y: placed.y, width: placed.width > 0 ? placed.width : positioner.width,
                                              height: placed.height > 0 ? placed.height : positioner.height)
        }
        framed.configureBegins()
        framed.size = (frame.width, frame.height)
        onConfigure?(self)
        framed.configured(first: first, resized: (old.width, old.height) != (frame.width, frame.height))
    }

    /// Whether ``reposition(_:)`` can move the popup (xdg-shell version 3 or later).
    public var canReposition: Bool { popup.version >= 3 }

    /// Asks the compositor to place the popup again (the anchor moved, the
    /// content's size changed) with `xdg_popup.reposition`; its answer comes as a
    /// configure. False where the compositor's xdg-shell is older than version 3:
    /// close the popup and open another instead.
    @discardableResult
    public func reposition(_ newPositioner: PopupPositioner) -> Bool {
        guard canReposition, !isDismissed else { return false }
        positioner = newPositioner.sanitized
        let p = Self.makePositioner(display, positioner)
        repositionToken &+= 1
        popup.reposition(positioner: p, token: repositionToken)
        p.destroy()
        return true
    }

    /// Asks for a redraw at the next frame callback.
    public func setNeedsDisplay() { framed.setNeedsDisplay() }

    public var parentXdgSurface: XdgSurface? { xdgSurface }
    public func adopt(_ popup: XdgPopup) {}

    /// Destroys the popup's objects (a parent's popups must be closed before it,
    /// the topmost first); it must not be used afterwards.
    public func close() {
        popup.destroy()
        xdgSurface.destroy()
        framed.close()
    }
}
