/// The pointer's look over a view (`UIPointerStyle`'s role for a desktop
/// pointer): the theme's cursor of that name, by CSS name first, then the X11 ones.
public enum Cursor: Hashable, Sendable {
    case arrow
    /// A text beam, over text that can be selected or edited.
    case text
    /// A hand, over links and controls.
    case pointingHand
    case crosshair
    case notAllowed
    case openHand
    case closedHand
    case wait
    /// Resizing from an edge or corner (a window's frame).
    case resizeTop, resizeBottom, resizeLeft, resizeRight
    case resizeTopLeft, resizeTopRight, resizeBottomLeft, resizeBottomRight

    /// Names to look for in a cursor theme, best first.
    public var names: [String] {
        switch self {
        case .arrow: ["default", "left_ptr"]
        case .text: ["text", "xterm", "ibeam"]
        case .pointingHand: ["pointer", "hand2", "hand1"]
        case .crosshair: ["crosshair", "cross"]
        case .notAllowed: ["not-allowed", "crossed_circle"]
        case .openHand: ["grab", "openhand", "hand1"]
        case .closedHand: ["grabbing", "closedhand"]
        case .wait: ["wait", "watch"]
        case .resizeTop: ["n-resize", "top_side"]
        case .resizeBottom: ["s-resize", "bottom_side"]
        case .resizeLeft: ["w-resize", "left_side"]
        case .resizeRight: ["e-resize", "right_side"]
        case .resizeTopLeft: ["nw-resize", "top_left_corner"]
        case .resizeTopRight: ["ne-resize", "top_right_corner"]
        case .resizeBottomLeft: ["sw-resize", "bottom_left_corner"]
        case .resizeBottomRight: ["se-resize", "bottom_right_corner"]
        }
    }
}
