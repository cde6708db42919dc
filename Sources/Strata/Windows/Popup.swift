import PixmanRender
import WaylandClient

/// A surface placed against a window, which the compositor may move to keep it
/// on screen: what menus, tooltips and popovers are drawn in (rule M1; GTK's
/// popover surface — UIKit has no public name for it).
///
/// Its content is a window of its own (``window``: root view, input, frames at
/// its own scale and damage, snapshots) that is not one of the app's windows: it
/// belongs to the window it is placed on (``parent``, a toplevel or another
/// popup's window), which closes it — the topmost first — when it closes itself.
/// On a compositor it is an `xdg_popup` placed by an `xdg_positioner`; offscreen
/// (rule W3) the positioner's rules place it inside the top window, and the
/// window's snapshot shows it there.
@MainActor
final class Popup {
    /// Where a popup asks to go, in its parent's content coordinates (points).
    struct Placement: Equatable {
        var size: Size
        /// The part of the parent it is placed against.
        var anchorRect: Rect
        var anchor: PopupPositioner.Direction = .bottomLeft
        /// The direction it extends from the anchor point.
        var gravity: PopupPositioner.Direction = .bottomRight
        var offset: Point = .zero
        var adjustments: PopupPositioner.Adjustments = .all
        /// Placed again by the compositor when the parent moves or resizes (xdg-shell 3+).
        var isReactive = false
    }

    /// The popup's content: its root view, input and frames.
    let window: Window
    /// The window it is placed against.
    private(set) weak var parent: Window?
    private(set) var placement: Placement
    /// Whether it takes the seat's input while open (menus): then a press outside
    /// it dismisses it, and keys go to it. Tooltips do not (rule M2).
    let grabsInput: Bool
    /// Whether pointer and touches over it reach it; false: they pass through to
    /// the window below, and any press or key in the window closes it (a tooltip).
    let acceptsInput: Bool
    /// Where it is, in the parent's window geometry (surface units): where the
    /// compositor put it, or offscreen where the positioner's rules put it.
    private(set) var geometryFrame = PopupPositioner.Rectangle(x: 0, y: 0, width: 1, height: 1)
    /// Called once when the popup goes away, whoever closed it.
    var onDismiss: (() -> Void)?
    /// Called when the compositor (or, offscreen, the rules) placed it.
    var onPlaced: (() -> Void)?
    /// Where its anchor is now, in the parent's content coordinates (a popover's
    /// source view): after each layout of the parent, a popup whose anchor moved is
    /// placed again (`xdg_popup.reposition`). Nil: it stays where it opened.
    var currentAnchor: (() -> Rect?)?
    private(set) var isOpen = false

    /// `source`: the view it opens for, whose traits its content takes (else the parent's).
    init(on parent: Window, placement: Placement, grabsInput: Bool, acceptsInput: Bool = true, traitsFrom source: View? = nil) {
        self.parent = parent
        self.placement = placement
        self.grabsInput = grabsInput
        self.acceptsInput = acceptsInput || grabsInput
        window = Window(title: "", size: placement.size)
        window.backgroundColor = .clear
        window.popupHost = self
        window.inheritedTraits = { [weak parent, weak source] in source?.traitCollection ?? parent?.traitCollection }
        geometryFrame = positioner.unadjustedFrame()
    }

    /// Where it is, in the parent's content coordinates.
    var frame: Rect {
        let o = parent?.contentToGeometry ?? .zero
        return Rect(x: Double(geometryFrame.x) - o.x, y: Double(geometryFrame.y) - o.y,
                    width: Double(geometryFrame.width), height: Double(geometryFrame.height))
    }

    /// The placement in the parent's window geometry, whole surface units.
    private var positioner: PopupPositioner {
        let o = parent?.contentToGeometry ?? .zero
        func floor(_ v: Double) -> Int { v.isFinite ? Int(v.rounded(.down).clamped(to: -1e7...1e7)) : 0 }
        func ceil(_ v: Double) -> Int { v.isFinite ? Int(v.rounded(.up).clamped(to: -1e7...1e7)) : 0 }
        let r = placement.anchorRect.standardized
        let x0 = floor(r.minX + o.x), y0 = floor(r.minY + o.y)
        let anchor = PopupPositioner.Rectangle(x: x0, y: y0, width: ceil(r.maxX + o.x) - x0, height: ceil(r.maxY + o.y) - y0)
        var p = PopupPositioner(width: ceil(placement.size.width), height: ceil(placement.size.height), anchorRect: anchor,
                                anchor: placement.anchor, gravity: placement.gravity,
                                offsetX: floor(placement.offset.x), offsetY: floor(placement.offset.y),
                                adjustments: placement.adjustments)
        p.isReactive = placement.isReactive
        return p.sanitized
    }

    /// Opens the popup on its parent (nothing when the parent is gone or closed).
    func open() {
        guard !isOpen, let parent, parent.isVisible else { return }
        isOpen = true
        parent.popups.append(self)
        window.show()
    }

    /// The content window was shown: on the compositor when the parent is on one,
    /// else placed here.
    func windowDidShow() {
        guard let parent else { return }
        guard Application.shared.display != nil, parent.onscreen != nil else { return placed(positioner.place(within: offscreenBounds)) }
        var grab: (seat: Seat, serial: UInt32)?
        if grabsInput {
            grab = Application.shared.latestInput
            if grab == nil {
                Diagnostics.report(.invalidView("a menu or popover opened with no input event to quote: no grab, so the compositor does not dismiss it on a click elsewhere (Escape and clicks in the window do)"))
            }
        }
        openOnscreen(grab: grab)
    }

    private func openOnscreen(grab: (seat: Seat, serial: UInt32)?) {
        guard let display = Application.shared.display, let role = parent?.onscreen?.popupParent else { return }
        window.onscreen = OnscreenWindow(popupWindow: window, display: display, loop: Application.shared.loop,
                                         parent: role, positioner: positioner, grab: grab, acceptsInput: acceptsInput)
    }

    /// The compositor dismissed the popup (`popup_done`). One that grabbed and is
    /// dismissed before its first frame had its grab refused (the event quoted was
    /// not a recent press, say): it opens again without one, and says so.
    func dismissedByCompositor() {
        guard let on = window.onscreen, let popup = on.popup, popup.grabbed, window.frameNumber == 0 else { return dismiss() }
        Diagnostics.report(.invalidView("the compositor refused the popup's grab: shown without one, so a click elsewhere does not dismiss it (Escape and clicks in the window do)"))
        on.close()
        window.onscreen = nil
        openOnscreen(grab: nil)
    }

    /// The area an offscreen popup stays in: its top window's geometry, in the
    /// parent's geometry coordinates (offscreen the window is the whole screen).
    private var offscreenBounds: PopupPositioner.Rectangle {
        guard let parent else { return PopupPositioner.Rectangle(x: 0, y: 0, width: 1, height: 1) }
        let top = parent.topWindow, origin = parent.originInTopWindow
        let size = top.surfaceLayer.bounds.size
        return PopupPositioner.Rectangle(x: -Int(origin.x.rounded()), y: -Int(origin.y.rounded()),
                                         width: Int(size.width.rounded()), height: Int(size.height.rounded()))
    }

    /// The compositor (or the rules) put the popup at `frame`: its content takes the size.
    func placed(_ frame: PopupPositioner.Rectangle) {
        geometryFrame = frame
        let size = Size(width: Double(frame.width), height: Double(frame.height))
        if window.size != size { window.applySize(size) }
        onPlaced?()
    }

    /// Moves the popup where `placement` says (its anchor moved, its content
    /// changed size): the compositor places it again (`xdg_popup.reposition`);
    /// where it cannot, the popup stays and takes the new size in place.
    func move(to newPlacement: Placement) {
        guard newPlacement != placement else { return }
        placement = newPlacement
        guard isOpen else { return }
        if let popup = window.onscreen?.popup {
            if !popup.reposition(positioner) {
                window.applySize(newPlacement.size)
            }
        } else if window.onscreen == nil {
            placed(positioner.place(within: offscreenBounds))
        }
    }

    /// Closes the popup (its own popups first); ``onDismiss`` runs.
    func dismiss() {
        guard isOpen else { return }
        window.close()
    }

    /// The content window closed: the popup is gone from its parent.
    func windowDidClose() {
        guard isOpen else { return }
        isOpen = false
        parent?.popups.removeAll { $0 === self }
        if let parent, parent.popupRouting.pointer === self { parent.popupRouting.pointer = nil }
        let done = onDismiss
        onDismiss = nil
        done?()
    }
}

extension Comparable {
    fileprivate func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

/// Where a window's input over its popups goes: the popup the pointer is over,
/// and the popups that touches began on and that got the presses of keys and
/// buttons still held (their releases go there too).
struct PopupRouting {
    weak var pointer: Popup?
    var touches: [Int: Popup] = [:]
    var keys: [UInt32: Popup] = [:]
    var buttons: [PointerButton: Popup] = [:]

    var isIdle: Bool { pointer == nil && touches.isEmpty && keys.isEmpty && buttons.isEmpty }
}

// MARK: A window's popups

extension Window {
    /// The top window this one's popups (and it, if it is a popup) stand on.
    var topWindow: Window {
        var w = self
        while let p = w.popupHost?.parent { w = p }
        return w
    }

    /// This window's geometry origin in its top window's geometry.
    var originInTopWindow: Point {
        guard let host = popupHost, let parent = host.parent else { return .zero }
        let o = parent.originInTopWindow
        return Point(x: o.x + Double(host.geometryFrame.x), y: o.y + Double(host.geometryFrame.y))
    }

    /// From content coordinates to window-geometry coordinates (where popups are
    /// placed): the title bar, less the shadow outside the geometry.
    var contentToGeometry: Point {
        let g = onscreen?.geometryOrigin ?? .zero
        return Point(x: contentOrigin.x - g.x, y: contentOrigin.y - g.y)
    }

    /// The content windows of the open popups, in stacking order (for this
    /// package's testing kit and benchmarks).
    package var popupWindows: [Window] { popupsInStackingOrder.map(\.window) }

    /// Every open popup on this window and on its popups, each after its parent:
    /// the order they stack in.
    var popupsInStackingOrder: [Popup] {
        popups.flatMap { [$0] + $0.window.popupsInStackingOrder }
    }

    /// After a layout of the window: popups whose anchor moved go with it.
    func followAnchorsOfPopups() {
        for popup in popups {
            guard let anchor = popup.currentAnchor?(), anchor != popup.placement.anchorRect else { continue }
            var placement = popup.placement
            placement.anchorRect = anchor
            popup.move(to: placement)
        }
    }

    /// Closes every popup on the window, the topmost first (rule M2).
    func dismissPopups() {
        for popup in popups.reversed() { popup.dismiss() }
    }

    /// A popup's surface in this window's surface coordinates (points).
    private func surfaceFrame(of popup: Popup) -> Rect {
        let o = popup.window.originInTopWindow, mine = originInTopWindow
        let g = onscreen?.geometryOrigin ?? .zero
        return Rect(x: o.x - mine.x + g.x, y: o.y - mine.y + g.y, width: popup.window.surfaceLayer.bounds.width,
                    height: popup.window.surfaceLayer.bounds.height)
    }

    /// This window's snapshot with its popups drawn over it where they are.
    func drawingPopups(over image: RenderedImage, atTime time: Double?) -> RenderedImage {
        var image = image
        let scale = self.scale
        for popup in popupsInStackingOrder {
            let f = surfaceFrame(of: popup)
            if popup.window.onscreen == nil { popup.window.scale = scale }
            image = image.drawing(popup.window.surfaceSnapshot(atTime: time),
                                  atX: Int((f.minX * scale).rounded()), y: Int((f.minY * scale).rounded()))
        }
        return image
    }

    /// Input for this window's popups, as the compositor would route it (rule
    /// M2): the pointer and touches over a popup go to it; a press outside every
    /// popup that grabs input dismisses them and goes nowhere; keys go to the
    /// topmost popup that grabs input. Offscreen this is the only routing; on a
    /// compositor, whose seat sends input over a popup to the popup's own
    /// surface, it handles what reaches the window itself. True when the input was
    /// taken here.
    func routeToPopups(_ event: WindowInput) -> Bool {
        guard !popups.isEmpty || !popupRouting.isIdle else { return false }
        let stack = popupsInStackingOrder
        // A press or a key closes the tooltips (the popups input passes through).
        switch event {
        case .pointerButton(_, true), .touchDown, .key(_, true, _):
            for popup in stack where !popup.acceptsInput { popup.dismiss() }
        default: break
        }
        func popup(at p: Point) -> (Popup, Point)? {
            for popup in stack.reversed() where popup.acceptsInput && popup.isOpen {
                let f = surfaceFrame(of: popup)
                if f.contains(p) { return (popup, Point(x: p.x - f.minX, y: p.y - f.minY)) }
            }
            return nil
        }
        func local(_ p: Point, in popup: Popup) -> Point {
            let f = surfaceFrame(of: popup)
            return Point(x: p.x - f.minX, y: p.y - f.minY)
        }
        let grabbing = stack.contains { $0.grabsInput }
        switch event {
        case let .pointerMoved(p):
            let hit = popup(at: p)
            if let old = popupRouting.pointer, old !== hit?.0 {
                popupRouting.pointer = nil
                old.window.handle(.pointerLeft)
            }
            guard let (target, q) = hit else { return false }
            if popupRouting.pointer == nil { input.handle(.pointerLeft) }   // left the window for the popup
            popupRouting.pointer = target
            target.window.handle(.pointerMoved(q))
            return true
        case .pointerLeft:
            popupRouting.pointer?.window.handle(.pointerLeft)
            popupRouting.pointer = nil
            return false
        case let .pointerButton(button, pressed):
            // A release goes where its press went.
            if !pressed, let target = popupRouting.buttons.removeValue(forKey: button) {
                if target.isOpen { target.window.handle(event) }
                return true
            }
            if let target = popupRouting.pointer {
                if pressed { popupRouting.buttons[button] = target }
                target.window.handle(event)
                return true
            }
            guard pressed, grabbing else { return false }
            dismissPopups()
            return true
        case .scroll:
            guard let target = popupRouting.pointer else { return grabbing }
            target.window.handle(event)
            return true
        case let .touchDown(id, p):
            if let (target, q) = popup(at: p) {
                popupRouting.touches[id] = target
                target.window.handle(.touchDown(id: id, at: q))
                return true
            }
            guard grabbing else { return false }
            dismissPopups()
            return true
        case let .touchMoved(id, p):
            guard let target = popupRouting.touches[id] else { return false }
            target.window.handle(.touchMoved(id: id, to: local(p, in: target)))
            return true
        case let .touchUp(id):
            guard let target = popupRouting.touches.removeValue(forKey: id) else { return false }
            target.window.handle(.touchUp(id: id))
            return true
        case .touchesCancelled:
            for target in popupRouting.touches.values { target.window.handle(.touchesCancelled) }
            popupRouting.touches = [:]
            return false
        case let .key(key, pressed, _):
            // A release goes where its press went (a menu may have opened or closed between).
            if !pressed {
                guard let target = popupRouting.keys.removeValue(forKey: key.keyCode) else { return false }
                target.window.handle(event)
                return true
            }
            guard let target = stack.last(where: { $0.grabsInput }) else { return false }
            popupRouting.keys[key.keyCode] = target
            target.window.handle(event)
            return true
        case .composition:
            guard let target = stack.last(where: { $0.grabsInput }) else { return false }
            target.window.handle(event)
            return true
        case .keyboardLeft:
            return false
        }
    }
}
