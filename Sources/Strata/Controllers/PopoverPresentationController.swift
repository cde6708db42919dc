import WaylandClient

/// The sides a popover may sit on, named by where its arrow would point
/// (`UIPopoverArrowDirection`): `.up` puts the popover below its source.
public struct PopoverArrowDirection: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let up = PopoverArrowDirection(rawValue: 1)
    public static let down = PopoverArrowDirection(rawValue: 2)
    public static let left = PopoverArrowDirection(rawValue: 4)
    public static let right = PopoverArrowDirection(rawValue: 8)
    public static let any: PopoverArrowDirection = [.up, .down, .left, .right]
    /// Not placed yet.
    public static let unknown: PopoverArrowDirection = []
}

/// Where a view controller presented as a popover points
/// (`UIPopoverPresentationController`, rule M1): a source view (and a rectangle
/// of it) and the sides the popover may take. The popover is a popup placed
/// against the source — below it when it may point up, else above, left or right
/// — that the compositor flips or slides to keep on screen, and that grabs input:
/// a click outside it, Escape or `popup_done` dismisses it.
@MainActor
public final class PopoverPresentationController {
    /// The view it points at; without one in a window, the controller is shown as a form sheet.
    public weak var sourceView: View?
    /// The part of ``sourceView`` it points at (its bounds when nil).
    public var sourceRect: Rect?
    public var permittedArrowDirections: PopoverArrowDirection = .any
    /// The side it went to, once shown: `.up` when it is below its source.
    public internal(set) var arrowDirection: PopoverArrowDirection = .unknown

    /// The popup showing it, while presented.
    var popup: Popup?

    /// How far the arrow reaches out of the popover's card.
    static let arrowLength = 10.0

    /// The side asked for first: below the source when the arrow may point up,
    /// else above, else right of it, else left.
    var preferredDirection: PopoverArrowDirection {
        let p = permittedArrowDirections.isEmpty ? .any : permittedArrowDirections
        return p.contains(.up) ? .up : p.contains(.down) ? .down : p.contains(.left) ? .left : .right
    }

    /// Where the popover asks to go: a card of `size` and its arrow against the
    /// source, on the first permitted side (below, above, right of or left of
    /// it), flipping only to another permitted side.
    func placement(size: Size, in window: Window) -> Popup.Placement? {
        guard let source = sourceView, source.window === window else { return nil }
        let rect = source.convert(sourceRect ?? source.bounds, to: window.rootView)
        let p = permittedArrowDirections.isEmpty ? .any : permittedArrowDirections
        var size = size
        if preferredDirection == .up || preferredDirection == .down { size.height += Self.arrowLength } else { size.width += Self.arrowLength }
        var adjustments: PopupPositioner.Adjustments = [.slideX, .slideY, .resizeX, .resizeY]
        if p.contains(.up) && p.contains(.down) { adjustments.insert(.flipY) }
        if p.contains(.left) && p.contains(.right) { adjustments.insert(.flipX) }
        let (anchor, gravity): (PopupPositioner.Direction, PopupPositioner.Direction) =
            p.contains(.up) ? (.bottom, .bottom) : p.contains(.down) ? (.top, .top) : p.contains(.left) ? (.right, .right) : (.left, .left)
        return Popup.Placement(size: size, anchorRect: rect, anchor: anchor, gravity: gravity, adjustments: adjustments, isReactive: true)
    }

    /// Names the side the popup went to, from where it is against its source
    /// (the side asked for, when the compositor slid it over the source), and
    /// where along its edge the arrow's tip goes (the source's middle, within the card).
    func notePlaced(_ frame: Rect, source: Rect) -> (direction: PopoverArrowDirection, tip: Double) {
        let side: PopoverArrowDirection = frame.minY >= source.maxY ? .up : frame.maxY <= source.minY ? .down
            : frame.minX >= source.maxX ? .left : frame.maxX <= source.minX ? .right : .unknown
        arrowDirection = side
        let shown = side == .unknown ? preferredDirection : side
        let vertical = shown == .up || shown == .down
        let length = vertical ? frame.width : frame.height
        let tip = vertical ? source.midX - frame.minX : source.midY - frame.minY
        return (shown, min(max(tip, 22), max(22, length - 22)))
    }
}
