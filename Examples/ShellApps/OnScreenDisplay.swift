import Strata

/// An on-screen display for a level (volume, brightness), as wob is: a pill on
/// the overlay layer above everything, springing in when first shown; a new level
/// while it shows retargets the bar from where it is (interruptible, rule V7);
/// after ``hideDelay`` without a new level it fades out and its surface goes away,
/// so it takes no room and no input while hidden.
@MainActor
public final class OnScreenDisplay {
    public static let size = Size(width: 320, height: 64)
    static let trackFrame = Rect(x: 104, y: 28, width: 150, height: 8)

    /// The shell window while shown (a new one each time it appears).
    public private(set) var window: ShellWindow?
    public let title: String
    /// The level shown, 0…100.
    public private(set) var level = 0.0
    /// Seconds the display stays after the last level.
    public var hideDelay = 1.5
    /// Called each time it has faded out and closed.
    public var onHidden: (() -> Void)?
    let pill = View(), track = View(), fill = View()
    let titleLabel = Label(), valueLabel = Label()
    private var hideTimer: MediaTimer?
    /// Counts shows, so a fade that a new level interrupted does not close the new one.
    private var generation = 0

    public init(title: String = "Volume") {
        self.title = title
        pill.frame = Rect(origin: .zero, size: Self.size)
        pill.backgroundColor = Color(rgba8: 0x1c, 0x1f, 0x24, 0xee)
        pill.layer.cornerRadius = Self.size.height / 2
        titleLabel.frame = Rect(x: 24, y: 20, width: 76, height: 24)
        titleLabel.text = title
        titleLabel.textColor = Color(rgba8: 0xe8, 0xea, 0xed)
        titleLabel.font = .systemFont(ofSize: 15, weight: .semibold)
        track.frame = Self.trackFrame
        track.backgroundColor = Color(rgba8: 0x4a, 0x4f, 0x57)
        track.layer.cornerRadius = 4
        fill.frame = Rect(x: 0, y: 0, width: 0, height: Self.trackFrame.height)
        fill.backgroundColor = Color(rgba8: 0x5e, 0xb0, 0xff)
        fill.layer.cornerRadius = 4
        track.addSubview(fill)
        valueLabel.frame = Rect(x: 262, y: 20, width: 40, height: 24)
        valueLabel.textAlignment = .right
        valueLabel.textColor = Color(rgba8: 0xe8, 0xea, 0xed)
        valueLabel.font = .monospacedSystemFont(ofSize: 15, weight: .medium)
        for v in [titleLabel, track, valueLabel] { pill.addSubview(v) }
        // One element to a screen reader: what it shows and the level, read as it changes.
        pill.isAccessibilityElement = true
        pill.accessibilityLabel = title
        pill.accessibilityTraits = [.updatesFrequently]
    }

    /// The width of the bar at `level`.
    static func fillWidth(_ level: Double) -> Double { Self.trackFrame.width * level / 100 }

    /// Shows `level` (clamped to 0…100; not a number: refused, false). Springs in
    /// when hidden; retargets the bar from where it is while shown; restarts the
    /// hide delay.
    @discardableResult
    public func show(level newLevel: Double) -> Bool {
        guard !newLevel.isNaN else { return false }
        level = min(100, max(0, newLevel))
        valueLabel.text = "\(Int(level.rounded()))"
        pill.accessibilityValue = "\(Int(level.rounded())) %"
        let width = Self.fillWidth(level)
        if window != nil {
            View.animate(duration: 0.35, dampingRatio: 0.8, options: .beginFromCurrentState) {
                self.fill.frame.size.width = width
                self.pill.alpha = 1   // a fade under way turns back
            }
        } else {
            appear(width: width)
        }
        scheduleHide()
        return true
    }

    private func appear(width: Double) {
        generation += 1
        let window = ShellWindow(layer: .overlay, namespace: "osd", size: Self.size)
        window.anchors = [.bottom]
        window.margins = EdgeInsets(bottom: 96)
        window.keyboardInteractivity = .none
        window.rootView.addSubview(pill)
        self.window = window
        View.performWithoutAnimation {
            pill.alpha = 0
            pill.transform = AffineTransform(scaleX: 0.8, y: 0.8)
            fill.frame.size.width = 0
        }
        window.show()
        View.animate(duration: 0.5, dampingRatio: 0.65) {
            self.pill.alpha = 1
            self.pill.transform = .identity
            self.fill.frame.size.width = width
        }
    }

    private func scheduleHide() {
        hideTimer?.cancel()
        let shown = generation
        hideTimer = MediaTimer.schedule(after: hideDelay) { [weak self] in
            guard let self else { return }
            View.animate(duration: 0.3, options: .beginFromCurrentState) { self.pill.alpha = 0 } completion: { finished in
                // A new level during the fade brought it back (and restarted the delay).
                guard finished, shown == self.generation, self.hideTimer?.isPending != true else { return }
                self.hide()
            }
        }
    }

    /// Closes it now.
    public func hide() {
        hideTimer?.cancel()
        pill.removeFromSuperview()
        window?.close()
        window = nil
        generation += 1
        onHidden?()
    }
}
