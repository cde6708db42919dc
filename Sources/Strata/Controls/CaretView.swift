/// The insertion point of a text field or text view: a bar in the tint colour
/// that blinks on the media clock — shown, then hidden, ``blinkInterval`` each
/// (UIKit's rhythm) — and stays solid for a moment after each change.
@MainActor
final class CaretView: View {
    /// The caret's blink: visible, then hidden, this long each.
    static let blinkInterval = 0.5

    private var blinkTimer: MediaTimer?

    override init(frame: Rect) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        isHidden = true
    }

    /// Whether the caret is showing now (not hidden, not in the off half of a blink).
    var isShowing: Bool { !isHidden && alpha > 0 }

    /// Shows the caret at `rect` (its superview's coordinates), solid; with
    /// `restartBlink` (an edit, a move) the blink starts again from now.
    func show(at rect: Rect, color: Color, restartBlink: Bool) {
        View.performWithoutAnimation {
            frame = rect
            backgroundColor = color
            isHidden = false
            alpha = 1
        }
        if restartBlink || blinkTimer == nil { scheduleBlink(at: currentMediaTime() + CaretView.blinkInterval) }
    }

    func hide() {
        isHidden = true
        blinkTimer?.cancel()
        blinkTimer = nil
    }

    /// Shows and hides the caret in turn, from `time` on, without drift. After a
    /// long jump of the clock it goes on from the blink due now, in step, rather
    /// than running every blink it missed (10⁶ s held two million of them).
    private func scheduleBlink(at time: Double) {
        blinkTimer?.cancel()
        blinkTimer = MediaTimer.schedule(at: time) { [weak self] in
            guard let self, !isHidden else { return }
            let interval = CaretView.blinkInterval
            let now = currentMediaTime()
            let missed = max(0, ((now - time) / interval).rounded(.down))
            guard missed < 1e12 else { return scheduleBlink(at: now + interval) }
            // This blink and the missed ones: an odd number of them changes the caret.
            if missed.truncatingRemainder(dividingBy: 2) == 0 {
                View.performWithoutAnimation { self.alpha = self.alpha > 0 ? 0 : 1 }
            }
            scheduleBlink(at: time + (missed + 1) * interval)
        }
    }
}
