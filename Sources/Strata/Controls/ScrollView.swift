import Glibc

/// A view whose content is larger than itself and scrolls (`UIScrollView`).
///
/// As in UIKit, ``contentOffset`` is the bounds' origin: subviews are laid out
/// in content coordinates and move when it changes. The wheel and touchpad
/// scroll it directly; a finger drags it (``panGestureRecognizer``, touches
/// only — a pointer's click stays with the content) with rubber-band
/// resistance past the edges, then it decelerates with UIKit's exponential
/// curve (``decelerationRate`` per millisecond) and bounces back at the edges.
/// Scroll indicators show while it moves and fade out 0.5 s after. Motion is
/// computed from the media clock, so it plays the same under a `ManualMediaClock`.
@MainActor
open class ScrollView: View {
    // A scroll pane holding its content's elements.
    override var accessibilityRole: AccessibilityRole? { .scrollArea }

    /// The size of the scrollable content.
    public var contentSize = Size.zero {
        didSet {
            guard contentSize != oldValue else { return }
            if !(contentSize.width.isFinite && contentSize.height.isFinite) || contentSize.width < 0 || contentSize.height < 0 {
                Diagnostics.report(.invalidView("contentSize \(contentSize) refused; it stays \(oldValue)"))
                contentSize = oldValue
                return
            }
            if motion == nil && !isDragging { setOffset(clamped(contentOffset), notify: true) }
            layoutIndicators()
        }
    }

    /// The content's point at the view's top left (the bounds' origin).
    public var contentOffset: Point {
        get { bounds.origin }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else {
                return Diagnostics.report(.invalidView("contentOffset \(newValue) refused"))
            }
            stopMotion()
            setOffset(newValue, notify: true)
        }
    }

    /// Whether dragging past an edge stretches and springs back (true) or stops there.
    public var bounces = true
    /// Bounce vertically even when the content is not taller than the view.
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    public var isScrollEnabled = true {
        didSet { panGestureRecognizer.isEnabled = isScrollEnabled }
    }
    public var showsVerticalScrollIndicator = true
    public var showsHorizontalScrollIndicator = true
    /// Speed kept per millisecond while decelerating (UIKit's normal rate; `fast` is 0.99).
    public var decelerationRate = ScrollView.normalDecelerationRate

    public static let normalDecelerationRate = 0.998
    public static let fastDecelerationRate = 0.99

    /// Called whenever the offset changes (`scrollViewDidScroll`).
    public var onScroll: ((ScrollView) -> Void)?
    /// The finger drag that scrolls.
    public private(set) lazy var panGestureRecognizer: PanGestureRecognizer = {
        // Weak: the recognizer is public and may outlive the scroll view.
        let pan = PanGestureRecognizer { [weak self] in self?.handlePan($0 as! PanGestureRecognizer) }
        pan.allowedTouchTypes = [.direct]
        pan.shouldBegin = { [weak self] r in
            guard let self else { return false }
            return canPan((r as! PanGestureRecognizer).translation(in: self))
        }
        return pan
    }()

    public private(set) var isDragging = false
    /// True while it moves on its own after a drag (deceleration or bounce).
    public var isDecelerating: Bool { motion != nil && !isAnimatingToOffset }

    private let verticalIndicator = View(frame: .zero)
    private let horizontalIndicator = View(frame: .zero)
    private var motion: MediaTimer?
    private var isAnimatingToOffset = false
    private var hideIndicators: MediaTimer?
    private var dragStartOffset = Point.zero

    public override init(frame: Rect) {
        super.init(frame: frame)
        clipsToBounds = true
        addGestureRecognizer(panGestureRecognizer)
        for indicator in [verticalIndicator, horizontalIndicator] {
            indicator.isUserInteractionEnabled = false
            indicator.backgroundColor = Color(light: Color(white: 0, alpha: 0.35), dark: Color(white: 1, alpha: 0.35))
            indicator.layer.cornerRadius = 1.5
            indicator.alpha = 0
            addSubview(indicator)
        }
    }

    // MARK: Offsets

    /// Room around the content (`contentInset`): the offset can go up to `top`
    /// above the content's top (negative) and as far below its end, as when a bar
    /// covers the top of the view. NaN or ∞ is refused.
    public var contentInset = EdgeInsets.zero {
        didSet {
            guard [contentInset.top, contentInset.left, contentInset.bottom, contentInset.right].allSatisfy(\.isFinite) else {
                Diagnostics.report(.invalidView("contentInset \(contentInset) refused"))
                contentInset = oldValue
                return
            }
            if contentInset != oldValue { setOffset(clamped(contentOffset), notify: true) }
        }
    }

    /// The smallest offset: the inset's top left (0, 0 without an inset).
    public var minimumContentOffset: Point { Point(x: -contentInset.left, y: -contentInset.top) }

    /// The largest offset: the content's far edge (and the inset past it) at the view's far edge.
    public var maximumContentOffset: Point {
        Point(x: max(-contentInset.left, contentSize.width - bounds.width + contentInset.right),
              y: max(-contentInset.top, contentSize.height - bounds.height + contentInset.bottom))
    }

    private func clamped(_ p: Point) -> Point {
        let m = maximumContentOffset, l = minimumContentOffset
        return Point(x: min(m.x, max(l.x, p.x)), y: min(m.y, max(l.y, p.y)))
    }

    private var scrollsHorizontally: Bool { contentSize.width + contentInset.left + contentInset.right > bounds.width || alwaysBounceHorizontal }
    private var scrollsVertically: Bool { contentSize.height + contentInset.top + contentInset.bottom > bounds.height || alwaysBounceVertical }

    private func setOffset(_ p: Point, notify: Bool) {
        let b = bounds
        guard p != b.origin else { return }
        View.performWithoutAnimation { bounds = Rect(origin: p, size: b.size) }
        layoutIndicators()
        if notify {
            didScroll()
            onScroll?(self)
            scrollTracker?(self)
        }
    }

    /// Moves the offset by `dy` with the content, without telling anyone: content
    /// above the view grew or shrank (a text view measuring a paragraph it had
    /// estimated). A motion under way goes on from the moved offset.
    func shiftContentOffset(by dy: Double) {
        pathShift.y += dy
        dragStartOffset.y += dy
        setOffset(Point(x: contentOffset.x, y: contentOffset.y + dy), notify: false)
    }

    /// How far the offset was moved by ``shiftContentOffset(by:)`` since the motion began.
    private var pathShift = Point.zero

    /// A navigation controller collapsing its large title as this view scrolls.
    var scrollTracker: ((ScrollView) -> Void)?

    /// The offset changed (for subclasses, before ``onScroll``).
    open func didScroll() {}

    /// Scrolls to `offset` (clamped to the content); animated, it eases there
    /// over 0.3 s, telling ``onScroll`` at every frame on the way.
    public func setContentOffset(_ offset: Point, animated: Bool) {
        guard offset.x.isFinite, offset.y.isFinite else {
            return Diagnostics.report(.invalidView("contentOffset \(offset) refused"))
        }
        let target = clamped(offset)
        stopMotion()
        guard animated else { return setOffset(target, notify: true) }
        let from = contentOffset, start = currentMediaTime(), duration = 0.3
        isAnimatingToOffset = true
        showIndicators()
        run(from: start) { t in
            let u = min(1, (t - start) / duration)
            let e = u < 0.5 ? 4 * u * u * u : 1 - pow(-2 * u + 2, 3) / 2   // ease in and out
            return (Point(x: from.x + (target.x - from.x) * e, y: from.y + (target.y - from.y) * e), u >= 1)
        }
    }

    /// Scrolls just enough to show `rect` (content coordinates).
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        // What the insets cover is not shown.
        var o = contentOffset
        let i = contentInset
        if rect.maxX > o.x + bounds.width - i.right { o.x = rect.maxX - bounds.width + i.right }
        if rect.minX < o.x + i.left { o.x = rect.minX - i.left }
        if rect.maxY > o.y + bounds.height - i.bottom { o.y = rect.maxY - bounds.height + i.bottom }
        if rect.minY < o.y + i.top { o.y = rect.minY - i.top }
        setContentOffset(o, animated: animated)
    }

    // MARK: The wheel and the touchpad

    /// Scrolls by the wheel's or touchpad's distance, clamped to the content; a
    /// scroll this view cannot take in that direction goes to the next responder.
    open override func scrollWheel(with event: ScrollEvent) {
        guard isScrollEnabled else { return super.scrollWheel(with: event) }
        let target = clamped(Point(x: contentOffset.x + (scrollsHorizontally ? event.dx : 0),
                                   y: contentOffset.y + (scrollsVertically ? event.dy : 0)))
        guard target != contentOffset else { return super.scrollWheel(with: event) }
        stopMotion()
        setOffset(target, notify: true)
        showIndicators()
        scheduleIndicatorFade()
    }

    // MARK: Dragging

    private func canPan(_ translation: Point) -> Bool {
        let horizontal = abs(translation.x) > abs(translation.y)
        return horizontal ? scrollsHorizontally : scrollsVertically
    }

    private func handlePan(_ pan: PanGestureRecognizer) {
        switch pan.state {
        case .began:
            stopMotion()
            isDragging = true
            dragStartOffset = contentOffset
            showIndicators()
        case .changed:
            let t = pan.translation(in: self)
            // The view's own coordinates move with the offset: measure in the superview's.
            let translation = superview.map { pan.translation(in: $0) } ?? t
            let raw = Point(x: dragStartOffset.x - (scrollsHorizontally ? translation.x : 0),
                            y: dragStartOffset.y - (scrollsVertically ? translation.y : 0))
            setOffset(rubberBanded(raw), notify: true)
        case .ended, .cancelled:
            isDragging = false
            let v = superview.map { pan.velocity(in: $0) } ?? pan.velocity(in: nil)
            decelerate(velocity: Point(x: scrollsHorizontally ? -v.x : 0, y: scrollsVertically ? -v.y : 0))
        default: break
        }
    }

    /// Past an edge the content follows the finger less and less (UIKit's curve).
    private func rubberBanded(_ raw: Point) -> Point {
        let m = maximumContentOffset, l = minimumContentOffset
        func axis(_ v: Double, _ lower: Double, _ upper: Double, _ dimension: Double) -> Double {
            guard bounces else { return min(upper, max(lower, v)) }
            func band(_ x: Double) -> Double { (1 - 1 / (x * 0.55 / max(1, dimension) + 1)) * dimension }
            if v < lower { return lower - band(lower - v) }
            if v > upper { return upper + band(v - upper) }
            return v
        }
        return Point(x: axis(raw.x, l.x, m.x, bounds.width), y: axis(raw.y, l.y, m.y, bounds.height))
    }

    // MARK: Motion after a drag: deceleration, bounce

    private func decelerate(velocity: Point) {
        let start = currentMediaTime()
        let from = contentOffset
        let m = maximumContentOffset, l = minimumContentOffset
        let k = -1000 * log(min(0.9999, max(0.5, decelerationRate)))
        // The motion runs from the smallest offset as 0.
        let x = AxisMotion(position: from.x - l.x, velocity: velocity.x, upper: m.x - l.x, k: k, bounces: bounces)
        let y = AxisMotion(position: from.y - l.y, velocity: velocity.y, upper: m.y - l.y, k: k, bounces: bounces)
        guard !(x.isAtRest && y.isAtRest) else {
            scheduleIndicatorFade()
            return
        }
        run(from: start) { t in
            let (px, dx) = x.position(at: t - start), (py, dy) = y.position(at: t - start)
            return (Point(x: px + l.x, y: py + l.y), dx && dy)
        }
    }

    /// Moves the offset along `path` (media time → offset, done) at 60 frames a
    /// second of media time until it says done.
    private func run(from start: Double, _ path: @escaping (Double) -> (Point, Bool)) {
        pathShift = .zero
        func tick(at time: Double) {
            motion = MediaTimer.schedule(at: time) { [weak self] in
                guard let self else { return }
                let (p, done) = path(time)
                setOffset(Point(x: p.x + pathShift.x, y: p.y + pathShift.y), notify: true)
                if done {
                    motion = nil
                    isAnimatingToOffset = false
                    scheduleIndicatorFade()
                } else {
                    tick(at: time + 1.0 / 60)
                }
            }
        }
        tick(at: start + 1.0 / 60)
    }

    private func stopMotion() {
        motion?.cancel()
        motion = nil
        isAnimatingToOffset = false
    }

    // MARK: Indicators

    private func layoutIndicators() {
        let b = bounds
        View.performWithoutAnimation {
            if contentSize.height > b.height, b.height > 0 {
                let length = max(36, b.height * b.height / contentSize.height)
                let travel = b.height - length - 6
                let f = min(1, max(0, b.minY / max(1, contentSize.height - b.height)))
                verticalIndicator.frame = Rect(x: b.maxX - 5, y: b.minY + 3 + travel * f, width: 3, height: length)
            }
            if contentSize.width > b.width, b.width > 0 {
                let length = max(36, b.width * b.width / contentSize.width)
                let travel = b.width - length - 6
                let f = min(1, max(0, b.minX / max(1, contentSize.width - b.width)))
                horizontalIndicator.frame = Rect(x: b.minX + 3 + travel * f, y: b.maxY - 5, width: length, height: 3)
            }
        }
    }

    private func showIndicators() {
        hideIndicators?.cancel()
        bringSubviewToFront(verticalIndicator)
        bringSubviewToFront(horizontalIndicator)
        layoutIndicators()
        View.animate(duration: 0.1, options: [.beginFromCurrentState, .allowUserInteraction]) {
            self.verticalIndicator.alpha = self.showsVerticalScrollIndicator && self.contentSize.height > self.bounds.height ? 1 : 0
            self.horizontalIndicator.alpha = self.showsHorizontalScrollIndicator && self.contentSize.width > self.bounds.width ? 1 : 0
        }
    }

    /// The indicators fade out 0.5 s after the last movement.
    private func scheduleIndicatorFade() {
        hideIndicators?.cancel()
        hideIndicators = MediaTimer.schedule(after: 0.5) { [weak self] in
            guard let self else { return }
            View.animate(duration: 0.3, options: [.beginFromCurrentState, .allowUserInteraction]) {
                self.verticalIndicator.alpha = 0
                self.horizontalIndicator.alpha = 0
            }
        }
    }

    /// Whether the vertical indicator shows now (model value).
    public var isShowingVerticalIndicator: Bool { verticalIndicator.alpha > 0 }

    open override func layoutSubviews() {
        super.layoutSubviews()
        layoutIndicators()
    }
}

/// One axis of the motion after a drag, as a function of time: exponential
/// deceleration (`x0 + v/k·(1 − e^(−kt))`), and past an edge a critically
/// damped spring back to it.
struct AxisMotion {
    let position: Double, velocity: Double, upper: Double, k: Double, bounces: Bool
    /// Below this speed (points per second) the motion ends.
    static let restSpeed = 5.0
    /// Stiffness of the spring that brings the content back from past an edge (critically damped).
    static let bounceOmega = 12.0

    var isAtRest: Bool { abs(velocity) < AxisMotion.restSpeed && position >= 0 && position <= upper }

    /// The offset at `t` seconds after the release, and whether it has come to rest.
    func position(at t: Double) -> (Double, Bool) {
        let w = AxisMotion.bounceOmega
        // Released past an edge: a spring from there.
        if position < 0 || position > upper {
            let edge = position < 0 ? 0 : upper
            return spring(from: position - edge, velocity: velocity, edge: edge, t: t, w: w)
        }
        if abs(velocity) < AxisMotion.restSpeed { return (position, true) }
        let end = position + velocity / k
        // When the deceleration reaches an edge, if it does.
        let edge = velocity < 0 ? 0.0 : upper
        if (velocity < 0 && end < 0) || (velocity > 0 && end > upper) {
            // x(t) = edge: 1 − e^(−kt) = (edge − x0)·k/v.
            let hit = -log(1 - (edge - position) * k / velocity) / k
            if t >= hit {
                let v = velocity * exp(-k * hit)
                guard bounces else { return (edge, true) }
                return spring(from: 0, velocity: v, edge: edge, t: t - hit, w: w)
            }
        }
        let x = position + velocity / k * (1 - exp(-k * t))
        return (x, abs(velocity * exp(-k * t)) < AxisMotion.restSpeed)
    }

    private func spring(from x0: Double, velocity v0: Double, edge: Double, t: Double, w: Double) -> (Double, Bool) {
        let x = (x0 + (v0 + w * x0) * t) * exp(-w * t)
        let done = t > 0 && abs(x) < 0.25 && abs((v0 - w * (v0 + w * x0) * t) * exp(-w * t)) < AxisMotion.restSpeed
        return (done ? edge : edge + x, done)
    }
}
