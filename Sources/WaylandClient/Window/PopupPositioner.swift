/// Where a popup goes, as `xdg_positioner` says it: a rectangle of the parent
/// to anchor to, the point of it to anchor at, the direction the popup grows
/// from there, an offset, and what the compositor may do when the popup would
/// not fit (flip, slide, resize). All in the parent's window-geometry
/// coordinates (surface units).
///
/// On a compositor, the compositor applies the rules and tells the popup where it
/// went (``PopupWindow``). ``place(within:)`` applies the same rules here, for
/// popups with no compositor to ask (offscreen windows) and for tests.
public struct PopupPositioner: Hashable, Sendable {
    /// A rectangle in surface units.
    public struct Rectangle: Hashable, Sendable, CustomStringConvertible {
        public var x, y, width, height: Int
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
        public var maxX: Int { x + width }
        public var maxY: Int { y + height }
        public var description: String { "\(width)x\(height) at \(x),\(y)" }
    }

    /// A side or corner of a rectangle (the protocol's anchor and gravity share these values).
    public enum Direction: UInt32, Hashable, Sendable, CaseIterable {
        case none = 0, top, bottom, left, right, topLeft, bottomLeft, topRight, bottomRight

        var hasLeft: Bool { self == .left || self == .topLeft || self == .bottomLeft }
        var hasRight: Bool { self == .right || self == .topRight || self == .bottomRight }
        var hasTop: Bool { self == .top || self == .topLeft || self == .topRight }
        var hasBottom: Bool { self == .bottom || self == .bottomLeft || self == .bottomRight }

        /// Mirrored left to right (also a placement for a right-to-left interface).
        public var flippedX: Direction {
            switch self {
            case .left: .right
            case .right: .left
            case .topLeft: .topRight
            case .topRight: .topLeft
            case .bottomLeft: .bottomRight
            case .bottomRight: .bottomLeft
            default: self
            }
        }

        /// Mirrored top to bottom.
        var flippedY: Direction {
            switch self {
            case .top: .bottom
            case .bottom: .top
            case .topLeft: .bottomLeft
            case .bottomLeft: .topLeft
            case .topRight: .bottomRight
            case .bottomRight: .topRight
            default: self
            }
        }
    }

    /// What the compositor may do to a popup that would not fit
    /// (`xdg_positioner.constraint_adjustment`, the protocol's bit values).
    public struct Adjustments: OptionSet, Hashable, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let slideX = Adjustments(rawValue: 1)
        public static let slideY = Adjustments(rawValue: 2)
        public static let flipX = Adjustments(rawValue: 4)
        public static let flipY = Adjustments(rawValue: 8)
        public static let resizeX = Adjustments(rawValue: 16)
        public static let resizeY = Adjustments(rawValue: 32)
        /// What menus ask for: flip first, then slide, then shrink.
        public static let all: Adjustments = [.slideX, .slideY, .flipX, .flipY, .resizeX, .resizeY]
    }

    /// The popup's size (at least 1×1: the protocol refuses less).
    public var width: Int
    public var height: Int
    /// The part of the parent the popup is placed against (at least 1×1).
    public var anchorRect: Rectangle
    public var anchor: Direction
    /// The direction the popup extends from the anchor point.
    public var gravity: Direction
    public var offsetX = 0
    public var offsetY = 0
    public var adjustments: Adjustments
    /// Placed again by the compositor when the parent moves or resizes (version 3+).
    public var isReactive = false

    public init(width: Int, height: Int, anchorRect: Rectangle, anchor: Direction = .bottomLeft,
                gravity: Direction = .bottomRight, offsetX: Int = 0, offsetY: Int = 0, adjustments: Adjustments = .all) {
        self.width = width
        self.height = height
        self.anchorRect = anchorRect
        self.anchor = anchor
        self.gravity = gravity
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.adjustments = adjustments
    }

    /// The same positioner with every size at least 1 and every number within
    /// what the protocol's 32-bit integers carry: what is sent (a zero size is a
    /// protocol error the client would be disconnected for).
    public var sanitized: PopupPositioner {
        func c(_ v: Int) -> Int { min(max(v, -(1 << 24)), 1 << 24) }
        var p = self
        p.width = min(max(1, width), 1 << 24)
        p.height = min(max(1, height), 1 << 24)
        p.anchorRect = Rectangle(x: c(anchorRect.x), y: c(anchorRect.y),
                                 width: min(max(1, anchorRect.width), 1 << 24), height: min(max(1, anchorRect.height), 1 << 24))
        p.offsetX = c(offsetX)
        p.offsetY = c(offsetY)
        return p
    }

    /// Where the popup goes before any adjustment: the anchor point on the anchor
    /// rectangle, the popup on the gravity's side of it, moved by the offset —
    /// mirrored on an axis that is flipped (anchor, gravity and offset, as wlroots
    /// and mutter flip them).
    public func unadjustedFrame(flippedX: Bool = false, flippedY: Bool = false) -> Rectangle {
        let p = sanitized
        var a = p.anchor, g = p.gravity, dx = p.offsetX, dy = p.offsetY
        if flippedX { (a, g, dx) = (a.flippedX, g.flippedX, -dx) }
        if flippedY { (a, g, dy) = (a.flippedY, g.flippedY, -dy) }
        let r = p.anchorRect
        let ax = a.hasLeft ? r.x : a.hasRight ? r.maxX : r.x + r.width / 2
        let ay = a.hasTop ? r.y : a.hasBottom ? r.maxY : r.y + r.height / 2
        let x = g.hasLeft ? ax - p.width : g.hasRight ? ax : ax - p.width / 2
        let y = g.hasTop ? ay - p.height : g.hasBottom ? ay : ay - p.height / 2
        return Rectangle(x: x + dx, y: y + dy, width: p.width, height: p.height)
    }

    /// Where the protocol's rules put the popup when `bounds` (same coordinates)
    /// is the area it must stay in: axis by axis, a popup that sticks out is
    /// flipped to the other side of the anchor if that fits, else slid (until its
    /// far edge is inside, its near edge winning when it is larger than the area),
    /// else shrunk to what is inside — each only where ``adjustments`` allows it.
    /// A popup that fits is where ``unadjustedFrame(flippedX:flippedY:)`` puts it.
    public func place(within bounds: Rectangle) -> Rectangle {
        var frame = unadjustedFrame()
        frame.adjust(\.x, \.width, within: bounds.x, bounds.maxX, flipped: unadjustedFrame(flippedX: true).x,
                     flip: adjustments.contains(.flipX), slide: adjustments.contains(.slideX), resize: adjustments.contains(.resizeX))
        frame.adjust(\.y, \.height, within: bounds.y, bounds.maxY, flipped: unadjustedFrame(flippedY: true).y,
                     flip: adjustments.contains(.flipY), slide: adjustments.contains(.slideY), resize: adjustments.contains(.resizeY))
        return frame
    }
}

extension PopupPositioner.Rectangle {
    /// One axis of ``PopupPositioner/place(within:)``: the origin and length at
    /// `origin` and `length`, kept within `lo…hi` by flipping to `flipped` (the
    /// origin on the other side of the anchor) if that fits, then sliding, then
    /// shrinking, as allowed.
    fileprivate mutating func adjust(_ origin: WritableKeyPath<Self, Int>, _ length: WritableKeyPath<Self, Int>,
                                     within lo: Int, _ hi: Int, flipped: Int, flip: Bool, slide: Bool, resize: Bool) {
        func out(_ start: Int) -> Bool { start < lo || start + self[keyPath: length] > hi }
        if out(self[keyPath: origin]) && flip && !out(flipped) { self[keyPath: origin] = flipped }
        if out(self[keyPath: origin]) && slide {
            let end = self[keyPath: origin] + self[keyPath: length]
            if end > hi { self[keyPath: origin] -= end - hi }
            if self[keyPath: origin] < lo { self[keyPath: origin] = lo }
        }
        if out(self[keyPath: origin]) && resize {
            let start = max(self[keyPath: origin], lo), end = min(self[keyPath: origin] + self[keyPath: length], hi)
            if end > start { (self[keyPath: origin], self[keyPath: length]) = (start, end - start) }
        }
    }
}
