// An analog clock: views for the face, the marks and the hands; every second the
// hands move to the time with a springy block animation. The face follows the
// desktop's light or dark style; it is not mirrored right to left (a clock's
// hands turn the same way in every language).
// Usage: clock [--seconds N] [--socket NAME] [--screenshot PATH]; STRATA_OFFSCREEN=DIR renders offscreen.
import Glibc
import Strata
import StrataTesting

/// The clock's face: its rim is a layer's border, which (as in UIKit) holds a
/// resolved colour, so the face resolves it again when its traits change.
final class Face: View {
    static let ink = Color(light: Color(rgba8: 0x44, 0x4a, 0x52), dark: Color(rgba8: 0xb8, 0xbe, 0xc6))

    override func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        layer.borderColor = Self.ink.resolvedColor(with: traitCollection)
    }
}

@MainActor
final class Clock {
    let window = Window(title: "Strata clock", size: Size(width: 320, height: 320))
    let face = Face(frame: Rect(x: 20, y: 20, width: 280, height: 280))
    let hour = View(), minute = View(), second = View()
    /// Whole turns so far, so the hands never run backwards at 12.
    var lastSeconds: Double?

    init() {
        window.backgroundColor = .systemGroupedBackground
        face.backgroundColor = Color(light: Color(rgba8: 0xf4, 0xf1, 0xea), dark: Color(rgba8: 0x2c, 0x31, 0x38))
        face.layer.cornerRadius = 140
        face.layer.borderWidth = 6
        window.rootView.addSubview(face)
        face.traitCollectionDidChange(nil)
        // A screen reader reads the clock as one element with the time as its value.
        face.isAccessibilityElement = true
        face.accessibilityLabel = "Clock"
        face.accessibilityTraits = [.image, .updatesFrequently]
        let centre = Point(x: 140, y: 140)
        for i in 0..<60 {
            let major = i % 5 == 0
            let mark = View(frame: Rect(x: 0, y: 0, width: major ? 6 : 2, height: major ? 18 : 8))
            mark.backgroundColor = Face.ink
            mark.layer.anchorPoint = Point(x: 0.5, y: 0)
            mark.center = centre
            // Out to the rim, then turned to its minute.
            mark.transform = AffineTransform(translationX: 0, y: -128).concatenating(AffineTransform(rotationAngle: Double(i) * .pi / 30))
            face.addSubview(mark)
        }
        let hands = Color(light: Color(rgba8: 0x22, 0x26, 0x2b), dark: Color(rgba8: 0xee, 0xec, 0xe6))
        for (hand, width, length, color) in [(hour, 10.0, 70.0, hands), (minute, 6.0, 105.0, hands),
                                              (second, 2.0, 118.0, Color(rgba8: 0xd8, 0x3a, 0x2f))] {
            hand.bounds = Rect(x: 0, y: 0, width: width, height: length)
            hand.backgroundColor = color
            hand.layer.cornerRadius = width / 2
            hand.layer.anchorPoint = Point(x: 0.5, y: 0.92)   // turns near its foot
            hand.center = centre
            face.addSubview(hand)
        }
        let pin = View(frame: Rect(x: 133, y: 133, width: 14, height: 14))
        pin.backgroundColor = Color(rgba8: 0xd8, 0x3a, 0x2f)
        pin.layer.cornerRadius = 7
        face.addSubview(pin)
    }

    /// Seconds since midnight, local time.
    static var secondsToday: Double {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        return Double(parts.tm_hour * 3600 + parts.tm_min * 60 + parts.tm_sec)
    }

    /// Moves the hands to `seconds` (since midnight); animated after the first time.
    func show(_ seconds: Double) {
        guard seconds != lastSeconds else { return }
        var s = seconds
        if let last = lastSeconds, s < last { s += 86_400 * ((last - s) / 86_400).rounded(.up) }   // past midnight
        let set = {
            self.second.transform = AffineTransform(rotationAngle: s / 60 * 2 * .pi)
            self.minute.transform = AffineTransform(rotationAngle: s / 3600 * 2 * .pi)
            self.hour.transform = AffineTransform(rotationAngle: s / 43_200 * 2 * .pi)
        }
        if lastSeconds == nil { View.performWithoutAnimation(set) } else { View.animate(duration: 0.4, dampingRatio: 0.4, set) }
        let t = Int(seconds) % 86_400
        face.accessibilityValue = "\(t / 3600):" + String("0\(t / 60 % 60)".suffix(2))
        lastSeconds = s
    }
}

ExampleCommandLine.main(program: "clock", screenshot: "clock.png", make: { _ in Clock() }) { clock, headless in
    clock.window.show()
    if headless { clock.window.isFullscreen = true }
    clock.show(Clock.secondsToday - 1)
    Transaction.flush()
    clock.show(Clock.secondsToday)
    ExampleCommandLine.every(0.25) { clock.show(Clock.secondsToday) }   // moves when the second changes
}
