/// A finger on the screen, or a pointer's primary button held down — as iPadOS
/// treats a pointer (`UITouch`, rules H3, H4).
///
/// A touch belongs to the view it began on until it ends (rule H3): every
/// phase goes to that view, even after it leaves the view's bounds.
@MainActor
public final class Touch: Hashable {
    public enum Phase: Hashable, Sendable { case began, moved, stationary, ended, cancelled }
    public enum TouchType: Hashable, Sendable {
        /// A finger on a touch screen.
        case direct
        /// A pointer's primary button.
        case indirectPointer
    }

    public internal(set) var phase: Phase
    public let type: TouchType
    /// How many taps in a row, in the same place, this touch is (1 for a single tap).
    public internal(set) var tapCount: Int
    /// When the touch last changed (media time).
    public internal(set) var timestamp: Double
    /// The view the touch began on; it keeps it (rule H3).
    public internal(set) weak var view: View?
    public internal(set) weak var window: Window?
    /// Recognizers that see this touch (those of the hit view and its ancestors, rule H4).
    public internal(set) var gestureRecognizers: [GestureRecognizer] = []

    /// Where it is and was, in window coordinates.
    var windowLocation: Point
    var previousWindowLocation: Point
    /// The seat's id for the touch point (a pointer uses −1).
    let id: Int
    /// The view got `touchesCancelled`: nothing more goes to it.
    var deliveredToViewEnded = false

    init(id: Int, type: TouchType, at point: Point, time: Double, view: View?, window: Window, tapCount: Int) {
        self.id = id
        self.type = type
        phase = .began
        windowLocation = point
        previousWindowLocation = point
        timestamp = time
        self.view = view
        self.window = window
        self.tapCount = tapCount
    }

    /// Where it is, in `view`'s coordinates (nil: the window's).
    public func location(in view: View?) -> Point {
        view.map { $0.convert(windowLocation, from: nil) } ?? windowLocation
    }

    /// Where it was at the previous event, in `view`'s coordinates (nil: the window's).
    public func previousLocation(in view: View?) -> Point {
        view.map { $0.convert(previousWindowLocation, from: nil) } ?? previousWindowLocation
    }

    public nonisolated static func == (a: Touch, b: Touch) -> Bool { a === b }
    public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// An input event (`UIEvent`): the touches of one moment, or a scroll.
@MainActor
public class Event {
    public enum EventType: Hashable, Sendable { case touches, presses, scroll, hover }
    public let type: EventType
    /// Media time of the event.
    public let timestamp: Double
    /// Every touch in progress in the window (made when first asked for: events
    /// are cheap to make with many touches down).
    public private(set) lazy var allTouches: Set<Touch> = Set(touchesByID.values)
    private let touchesByID: [Int: Touch]

    init(type: EventType, timestamp: Double, touches: [Int: Touch] = [:]) {
        self.type = type
        self.timestamp = timestamp
        touchesByID = touches
    }

    /// The touches that belong to `view`.
    public func touches(for view: View) -> Set<Touch> { allTouches.filter { $0.view === view } }
}

/// A scroll (a wheel or a touchpad), in points: positive `dy` scrolls content up
/// (the user moves towards the end), as the wheel's `axis` events say.
@MainActor
public final class ScrollEvent: Event {
    public let dx: Double
    public let dy: Double
    /// Where the pointer is, in window coordinates.
    public let location: Point

    init(dx: Double, dy: Double, location: Point, timestamp: Double) {
        self.dx = dx
        self.dy = dy
        self.location = location
        super.init(type: .scroll, timestamp: timestamp)
    }
}

/// The pointer's buttons.
public enum PointerButton: Hashable, Sendable {
    /// The primary button: presses become touches (`.indirectPointer`).
    case left
    case right
    case middle

    /// Linux input event codes (BTN_LEFT, BTN_RIGHT, BTN_MIDDLE), as `wl_pointer.button` sends them.
    public var code: UInt32 {
        switch self {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        }
    }

    public init?(code: UInt32) {
        switch code {
        case 0x110: self = .left
        case 0x111: self = .right
        case 0x112: self = .middle
        default: return nil
        }
    }
}
