/// A row of dots, one per page of a paged view, the current page's filled
/// (`UIPageControl`, rule H6).
///
/// A tap on the trailing side of the current dot goes to the next page, on the
/// leading side to the previous one; with ``allowsContinuousInteraction`` a drag
/// along the row goes to the page under the finger as it passes each dot. The
/// dots take their colours in 0.2 s (at once with reduced motion). With the
/// focus, Left and Right go a page back and on (mirrored right to left), Home
/// and End to the ends. `valueChanged` is sent for each page the person goes
/// to, never for ``currentPage`` set in code. ``currentPage`` is pinned to the
/// pages there are, as UIKit pins it; a negative ``numberOfPages`` is refused
/// with a diagnostic. Assistive technologies see a slider whose value is
/// "page 2 of 5", incremented and decremented a page at a time.
@MainActor
public final class PageControl: Control {
    // Adjustable, a page at a time (rules Y2, Y4).
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union(.adjustable) }
    override var accessibilityRole: AccessibilityRole? { .slider }
    override var defaultAccessibilityValue: String? { numberOfPages > 0 ? "page \(page + 1) of \(numberOfPages)" : nil }
    override var accessibilityNumericValue: AccessibilityNumericValue? {
        numberOfPages > 0 ? AccessibilityNumericValue(minimum: 1, maximum: Double(numberOfPages), current: Double(page + 1), step: 1) : nil
    }
    /// Hidden for its single page, it is not there for assistive technologies either.
    override var defaultIsAccessibilityElement: Bool { !isHiddenForSinglePage }
    public override func accessibilityIncrement() { if isEnabled { userGo(to: page + 1) } }
    public override func accessibilityDecrement() { if isEnabled { userGo(to: page - 1) } }
    /// Set by an assistive technology as a page number (1 is the first page).
    override func accessibilitySetValue(_ value: Double) -> Bool {
        guard isEnabled, value.isFinite else { return false }
        userGo(to: Int(value.rounded()) - 1)
        return true
    }

    /// A dot's diameter, the distance from one dot's centre to the next, and the control's height.
    public static let dotDiameter = 8.0, dotSpacing = 16.0, height = 26.0

    /// How many pages there are (`numberOfPages`, 0): one dot each.
    public var numberOfPages: Int {
        get { dots.count }
        set {
            guard newValue >= 0 else {
                return Diagnostics.report(.invalidView("PageControl numberOfPages \(newValue) refused; it stays \(dots.count)"))
            }
            while dots.count > newValue { dots.removeLast().removeFromSuperview() }
            while dots.count < newValue {
                let dot = View(frame: .zero)
                dot.layer.cornerRadius = PageControl.dotDiameter / 2
                dot.isUserInteractionEnabled = false
                addSubview(dot)
                dots.append(dot)
            }
            go(to: page, animated: false)
            invalidateIntrinsicContentSize()
            setNeedsLayout()
        }
    }
    /// The page shown (`currentPage`), pinned to `0…numberOfPages − 1`.
    public var currentPage: Int {
        get { page }
        set { go(to: newValue, animated: false) }
    }
    /// Whether the control hides itself when there is only one page (`hidesForSinglePage`).
    public var hidesForSinglePage = false { didSet { updateDots(animated: false) } }
    /// Whether a drag along the dots goes through the pages (`allowsContinuousInteraction`).
    public var allowsContinuousInteraction = true
    /// The other pages' dots (`pageIndicatorTintColor`).
    public var pageIndicatorTintColor: Color = .tertiaryLabel { didSet { updateDots(animated: false) } }
    /// The current page's dot (`currentPageIndicatorTintColor`).
    public var currentPageIndicatorTintColor: Color = .label { didSet { updateDots(animated: false) } }

    private var dots: [View] = []
    private var page = 0
    /// Where a touch went down, and whether it has become a drag through the pages.
    private var touchStart: Point?
    private var scrubbing = false

    public override init(frame: Rect) {
        super.init(frame: frame)
    }

    public convenience init() { self.init(frame: .zero) }

    /// The size the dots of `pageCount` pages need (`size(forNumberOfPages:)`).
    public func size(forNumberOfPages pageCount: Int) -> Size {
        Size(width: Double(max(0, pageCount)) * PageControl.dotSpacing + PageControl.dotSpacing, height: PageControl.height)
    }

    public override var intrinsicContentSize: Size { size(forNumberOfPages: numberOfPages) }
    public override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    private var isHiddenForSinglePage: Bool { hidesForSinglePage && numberOfPages <= 1 }

    // MARK: Layout

    /// The centre x of page `i`'s dot: the row centred, the first page leading.
    private func dotCentreX(_ i: Int) -> Double {
        let first = bounds.midX - Double(numberOfPages - 1) * PageControl.dotSpacing / 2
        let slot = effectiveUserInterfaceLayoutDirection == .rightToLeft ? numberOfPages - 1 - i : i
        return first + Double(slot) * PageControl.dotSpacing
    }

    /// The page whose dot is nearest `x`.
    private func page(nearestX x: Double) -> Int {
        dots.indices.min { abs(dotCentreX($0) - x) < abs(dotCentreX($1) - x) } ?? 0
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let d = PageControl.dotDiameter
        View.performWithoutAnimation {
            for (i, dot) in dots.enumerated() {
                dot.frame = Rect(x: dotCentreX(i) - d / 2, y: bounds.midY - d / 2, width: d, height: d)
            }
        }
    }

    public override func stateDidChange() { updateDots(animated: false) }

    // MARK: Pages

    private func go(to newPage: Int, animated: Bool) {
        let pinned = max(0, min(numberOfPages - 1, newPage))
        let changed = pinned != page
        page = pinned
        updateDots(animated: animated)
        if changed { accessibilityDidChange(.value) }
    }

    private func updateDots(animated: Bool) {
        for dot in dots { dot.isHidden = isHiddenForSinglePage }
        let paint = {
            for (i, dot) in self.dots.enumerated() {
                dot.backgroundColor = i == self.page ? self.currentPageIndicatorTintColor : self.pageIndicatorTintColor
                dot.alpha = self.isEnabled ? 1 : 0.5
            }
        }
        if animated && !reducesMotion {
            View.animate(duration: 0.2, options: [.allowUserInteraction, .beginFromCurrentState], paint)
        } else {
            View.performWithoutAnimation(paint)
        }
    }

    /// A page the person went to: the dots change, and `valueChanged` when it changed.
    private func userGo(to newPage: Int) {
        let old = page
        go(to: newPage, animated: true)
        if page != old { sendActions(for: .valueChanged) }
    }

    // MARK: Touches

    public override func beginTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        guard numberOfPages > 1 else { return false }
        touchStart = touch.location(in: self)
        scrubbing = false
        return true
    }

    public override func continueTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        let p = touch.location(in: self)
        if !scrubbing, allowsContinuousInteraction, let start = touchStart, abs(p.x - start.x) >= PageControl.dotSpacing / 2 {
            scrubbing = true
        }
        if scrubbing { userGo(to: page(nearestX: p.x)) }
        return true
    }

    public override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        defer { touchStart = nil; scrubbing = false }
        guard !scrubbing, let touch else { return }
        let p = touch.location(in: self)
        guard isInsideForTracking(p) else { return }
        // The trailing side of the current dot goes on (the left side, right to left).
        let trailing = (p.x > dotCentreX(page)) != (effectiveUserInterfaceLayoutDirection == .rightToLeft)
        userGo(to: page + (trailing ? 1 : -1))
    }

    public override func cancelTracking(with event: Strata.Event?) {
        touchStart = nil
        scrubbing = false
    }

    // MARK: Keys

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isEnabled, let key = presses.first?.key else { return super.pressesBegan(presses, with: event) }
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        switch key.keysym {
        case 0xff53: userGo(to: page + (rtl ? -1 : 1))      // Right
        case 0xff51: userGo(to: page + (rtl ? 1 : -1))      // Left
        case 0xff50: userGo(to: 0)                          // Home
        case 0xff57: userGo(to: numberOfPages - 1)          // End
        default: super.pressesBegan(presses, with: event)
        }
    }

    /// Space and Return do nothing: the dots have no one action to press.
    override func keyboardActivated() {}
}
