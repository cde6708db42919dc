import Glibc

/// Recognizes a gesture in the touches of a view and its subviews
/// (`UIGestureRecognizer`, rule H4). Recognizers see touches before the view:
/// when one recognizes (begins, or ends recognized) the view's touches are
/// cancelled, unless ``cancelsTouchesInView`` is false.
///
/// The handler runs when the state becomes `.began`, `.changed`, `.ended` or
/// `.cancelled` — UIKit's action.
@MainActor
open class GestureRecognizer {
    /// UIKit's states; `.ended` is also "recognized" for discrete gestures.
    public enum State: Hashable, Sendable {
        case possible, began, changed, ended, cancelled, failed
        public static let recognized = State.ended
    }

    private let handler: (GestureRecognizer) -> Void
    public internal(set) var state = State.possible {
        didSet {
            guard state != oldValue || state == .changed else { return }
            switch state {
            case .began, .changed, .ended, .cancelled: handler(self)
            case .possible, .failed: break
            }
        }
    }
    /// The view it is attached to.
    public internal(set) weak var view: View?
    /// A disabled recognizer sees no touches (and one in progress is cancelled).
    public var isEnabled = true {
        didSet { if !isEnabled { cancel() } }
    }
    /// Cancel the view's touches once the gesture is recognized (default true).
    public var cancelsTouchesInView = true
    /// The kinds of touch it sees (`allowedTouchTypes`): fingers and the pointer by default.
    public var allowedTouchTypes: Set<Touch.TouchType> = [.direct, .indirectPointer]
    /// Asked when the gesture would begin (`gestureRecognizerShouldBegin`); false: it fails.
    public var shouldBegin: ((GestureRecognizer) -> Bool)?
    /// The touches it is following.
    var touches: [Touch] = []

    public init(handler: @escaping (GestureRecognizer) -> Void) {
        self.handler = handler
    }

    /// The centroid of its touches (their last place after they ended), in `view`'s coordinates.
    open func location(in view: View?) -> Point {
        guard !touches.isEmpty else { return lastLocation.map { view?.convert($0, from: nil) ?? $0 } ?? .zero }
        let points = touches.map { $0.location(in: view) }
        return Point(x: points.map(\.x).reduce(0, +) / Double(points.count), y: points.map(\.y).reduce(0, +) / Double(points.count))
    }
    private var lastLocation: Point?

    /// True once recognized, so the view's touches are cancelled.
    var hasRecognized: Bool { state == .began || state == .changed || state == .ended }

    // MARK: Touches (subclasses override; call super)

    open func touchesBegan(_ touches: Set<Touch>, with event: Event?) {}
    open func touchesMoved(_ touches: Set<Touch>, with event: Event?) {}
    open func touchesEnded(_ touches: Set<Touch>, with event: Event?) {}
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { cancel() }

    /// Back to `.possible` for the next gesture, forgetting touches and timers.
    open func reset() {
        touches.removeAll()
        state = .possible
    }

    /// A gesture in progress is cancelled; one not recognized yet fails.
    func cancel() {
        if state == .began || state == .changed { state = .cancelled } else if state == .possible { state = .failed }
    }

    // MARK: Used by the window's input path

    func track(_ touch: Touch) {
        if !touches.contains(touch) { touches.append(touch) }
    }

    func untrack(_ touch: Touch) {
        lastLocation = touch.windowLocation
        touches.removeAll { $0 === touch }
    }

    /// Called when the pointer hovers (no button): over the view, moving, gone.
    func hover(_ phase: Touch.Phase, at point: Point) {}

    static func distance(_ a: Point, _ b: Point) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
}

/// Taps (`UITapGestureRecognizer`): the touch goes up within 10 points of where
/// it went down; with ``numberOfTapsRequired`` > 1 each next tap starts within
/// 0.35 s of the last one.
@MainActor
public final class TapGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired = 1
    /// How far a touch may move and still tap, in points.
    public static let allowableMovement = 10.0
    /// How long after one tap the next may start.
    public static let tapInterval = 0.35
    private var taps = 0
    private var start: Point?
    private var timer: MediaTimer?

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        timer?.cancel()
        guard state == .possible, let t = touches.first else { return }
        let p = t.location(in: nil)
        if let s = start, Self.distance(s, p) > Self.allowableMovement { state = .failed; return }
        start = start ?? p
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
        guard state == .possible, let s = start, let t = touches.first else { return }
        if Self.distance(s, t.location(in: nil)) > Self.allowableMovement { state = .failed }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        guard state == .possible else { return }
        taps += 1
        if taps >= max(1, numberOfTapsRequired) {
            state = .ended
        } else {
            timer = MediaTimer.schedule(after: Self.tapInterval) { [weak self] in
                guard let self, state == .possible else { return }
                state = .failed
                reset()
            }
        }
    }

    public override func reset() {
        taps = 0
        start = nil
        timer?.cancel()
        timer = nil
        super.reset()
    }

    /// Between taps of a multi-tap it waits: not reset when a touch sequence ends.
    var isWaitingForNextTap: Bool { state == .possible && taps > 0 }
}

/// A touch held still (`UILongPressGestureRecognizer`): begins after
/// ``minimumPressDuration``, then follows the touch until it ends.
@MainActor
public final class LongPressGestureRecognizer: GestureRecognizer {
    public var minimumPressDuration = 0.5
    /// How far the touch may move before it begins, in points.
    public var allowableMovement = 10.0
    private var start: Point?
    private var timer: MediaTimer?

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        guard state == .possible, let t = touches.first else { return }
        start = t.location(in: nil)
        timer = MediaTimer.schedule(after: max(0, minimumPressDuration.isFinite ? minimumPressDuration : 0.5)) { [weak self] in
            guard let self, state == .possible, !self.touches.isEmpty else { return }
            state = .began
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
        guard let t = touches.first else { return }
        if state == .possible, let s = start, Self.distance(s, t.location(in: nil)) > allowableMovement {
            timer?.cancel()
            state = .failed
        } else if state == .began || state == .changed {
            state = .changed
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        timer?.cancel()
        state = state == .began || state == .changed ? .ended : .failed
    }

    public override func reset() {
        timer?.cancel()
        timer = nil
        start = nil
        super.reset()
    }
}

/// A drag (`UIPanGestureRecognizer`): begins once the touch has moved more than
/// 10 points (rule H4), then reports the translation and velocity.
@MainActor
public final class PanGestureRecognizer: GestureRecognizer {
    /// The distance a touch moves before the pan begins, in points.
    public static let hysteresis = 10.0
    private var start: Point?
    private var translationOffset = Point.zero
    /// Recent (time, window location) samples, for the velocity.
    private var samples: [(Double, Point)] = []

    /// How far the touch moved since it went down, in `view`'s coordinates.
    public func translation(in view: View?) -> Point {
        guard let start, let now = samples.last?.1 else { return .zero }
        let a = view.map { $0.convert(start, from: nil) } ?? start, b = view.map { $0.convert(now, from: nil) } ?? now
        return Point(x: b.x - a.x + translationOffset.x, y: b.y - a.y + translationOffset.y)
    }

    /// Makes the translation read `translation` from here on.
    public func setTranslation(_ translation: Point, in view: View?) {
        let current = self.translation(in: view)
        translationOffset = Point(x: translationOffset.x + translation.x - current.x, y: translationOffset.y + translation.y - current.y)
    }

    /// Points per second over the last 0.1 s, in `view`'s coordinates.
    public func velocity(in view: View?) -> Point {
        guard let last = samples.last, let first = samples.first(where: { last.0 - $0.0 <= 0.1 }), last.0 > first.0 else { return .zero }
        let a = view.map { $0.convert(first.1, from: nil) } ?? first.1, b = view.map { $0.convert(last.1, from: nil) } ?? last.1
        let dt = last.0 - first.0
        return Point(x: (b.x - a.x) / dt, y: (b.y - a.y) / dt)
    }

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        guard start == nil, let t = touches.first else { return }
        start = t.windowLocation
        samples = [(t.timestamp, t.windowLocation)]
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
        guard let t = touches.first, let s = start else { return }
        samples.append((t.timestamp, t.windowLocation))
        if samples.count > 64 { samples.removeFirst(samples.count - 64) }
        switch state {
        case .possible where Self.distance(s, t.windowLocation) > Self.hysteresis:
            state = shouldBegin?(self) ?? true ? .began : .failed
        case .began, .changed: state = .changed
        default: break
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        if let t = touches.first { samples.append((t.timestamp, t.windowLocation)) }
        state = state == .began || state == .changed ? .ended : .failed
    }

    public override func reset() {
        start = nil
        samples = []
        translationOffset = .zero
        super.reset()
    }
}

/// The pointer over the view without a button held (`UIHoverGestureRecognizer`):
/// begins when it comes over the view, changes as it moves, ends when it leaves.
@MainActor
public final class HoverGestureRecognizer: GestureRecognizer {
    private var point: Point?

    public override func location(in view: View?) -> Point {
        guard let point else { return .zero }
        return view.map { $0.convert(point, from: nil) } ?? point
    }

    override func hover(_ phase: Touch.Phase, at point: Point) {
        self.point = point
        switch phase {
        case .began: state = .began
        case .moved: state = .changed
        default:
            state = .ended
            state = .possible
        }
    }
}

/// Two fingers moving apart or together (`UIPinchGestureRecognizer`): ``scale``
/// is their distance over the distance when the pinch began.
@MainActor
public final class PinchGestureRecognizer: GestureRecognizer {
    public private(set) var scale = 1.0
    /// Scale per second.
    public private(set) var velocity = 0.0
    private var initial: Double?
    private var lastSample: (time: Double, scale: Double)?

    private var spread: Double? {
        let direct = touches.filter { $0.type == .direct }
        guard direct.count >= 2 else { return nil }
        return Self.distance(direct[0].windowLocation, direct[1].windowLocation)
    }

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        if initial == nil, let d = spread, d > 0 { initial = d }
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
        guard let d0 = initial, let d = spread, let t = touches.first else { return }
        let newScale = d / d0
        if let last = lastSample, t.timestamp > last.time { velocity = (newScale - last.scale) / (t.timestamp - last.time) }
        lastSample = (t.timestamp, newScale)
        scale = newScale
        switch state {
        case .possible where abs(newScale - 1) > 0.05: state = .began
        case .began, .changed: state = .changed
        default: break
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        if state == .began || state == .changed { state = .ended } else if self.touches.count <= 1 { state = .failed }
    }

    public override func reset() {
        scale = 1
        velocity = 0
        initial = nil
        lastSample = nil
        super.reset()
    }
}
