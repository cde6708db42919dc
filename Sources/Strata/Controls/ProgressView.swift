/// A bar that shows how far a task has come (`UIProgressView`), 4 points high.
/// ``progress`` is clamped to 0…1; NaN is refused with a diagnostic.
@MainActor
public final class ProgressView: View {
    // A progress bar: its value as a percentage (rule Y2).
    override var defaultIsAccessibilityElement: Bool { true }
    override var defaultAccessibilityTraits: AccessibilityTraits { .updatesFrequently }
    override var defaultAccessibilityValue: String? { "\(Int((progress * 100).rounded()))%" }
    override var accessibilityRole: AccessibilityRole? { .progressBar }
    override var accessibilityNumericValue: AccessibilityNumericValue? {
        AccessibilityNumericValue(minimum: 0, maximum: 1, current: progress, step: 0)
    }

    public var progress: Double {
        get { storedProgress }
        set { setProgress(newValue, animated: false) }
    }
    /// The filled part's colour (the tint colour when nil).
    public var progressTintColor: Color? { didSet { updateColors() } }
    public var trackTintColor: Color = .systemGray5 { didSet { updateColors() } }

    public static let barHeight = 4.0
    private var storedProgress = 0.0
    private let bar = View(frame: .zero)

    public override init(frame: Rect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        clipsToBounds = true
        layer.cornerRadius = ProgressView.barHeight / 2
        bar.layer.cornerRadius = ProgressView.barHeight / 2
        addSubview(bar)
        updateColors()
    }

    public convenience init() { self.init(frame: Rect(x: 0, y: 0, width: 200, height: ProgressView.barHeight)) }

    /// Sets the progress; animated, the bar grows or shrinks there over 0.25 s.
    public func setProgress(_ value: Double, animated: Bool) {
        guard !value.isNaN else {
            return Diagnostics.report(.invalidView("ProgressView progress NaN refused; it stays \(storedProgress)"))
        }
        if min(1, max(0, value)) != storedProgress { accessibilityDidChange(.value) }
        storedProgress = min(1, max(0, value))
        if animated {
            View.animate(duration: 0.25, options: [.beginFromCurrentState, .allowUserInteraction]) { self.layoutBar() }
        } else {
            View.performWithoutAnimation { layoutBar() }
        }
    }

    public override var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: ProgressView.barHeight) }

    public override func layoutSubviews() {
        super.layoutSubviews()
        layoutBar()
    }

    private func layoutBar() {
        let width = bounds.width * storedProgress
        // Right to left the bar grows from the right (rule P3).
        let x = effectiveUserInterfaceLayoutDirection == .rightToLeft ? bounds.width - width : 0
        bar.frame = Rect(x: x, y: 0, width: width, height: bounds.height)
    }

    private func updateColors() {
        backgroundColor = trackTintColor
        bar.backgroundColor = progressTintColor ?? tintColor
    }

    public override func tintColorDidChange() { updateColors() }
}
