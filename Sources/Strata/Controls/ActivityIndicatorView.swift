import Glibc
import LayerKit

/// A spinner for work of unknown length (`UIActivityIndicatorView`): twelve
/// spokes fading around a circle, turning a step every 1/12 s (one turn a
/// second) on the media clock while animating; hidden when stopped unless
/// ``hidesWhenStopped`` is false. 20 points (medium) or 37 (large).
@MainActor
public final class ActivityIndicatorView: View {
    public enum Style: Hashable, Sendable { case medium, large }

    public let style: Style
    public var color: Color = .systemGray { didSet { spokes.forEach { $0.backgroundColor = color } } }
    public var hidesWhenStopped = true { didSet { isHidden = hidesWhenStopped && !animating } }
    public var isAnimating: Bool { animating }

    private var animating = false
    private var spokes: [View] = []
    private let wheel = View()
    private static let spokeCount = 12

    public init(style: Style = .medium) {
        self.style = style
        let side = style == .large ? 37.0 : 20.0
        super.init(frame: Rect(x: 0, y: 0, width: side, height: side))
        isUserInteractionEnabled = false
        addSubview(wheel)
        for i in 0..<Self.spokeCount {
            let spoke = View()
            spoke.backgroundColor = color
            spoke.alpha = 1 - Double(i) / Double(Self.spokeCount) * 0.85
            wheel.addSubview(spoke)
            spokes.append(spoke)
        }
        isHidden = true
    }

    public override var intrinsicContentSize: Size {
        let side = style == .large ? 37.0 : 20.0
        return Size(width: side, height: side)
    }

    public override func layoutSubviews() {
        let side = min(bounds.width, bounds.height)
        wheel.bounds = Rect(x: 0, y: 0, width: side, height: side)
        wheel.center = Point(x: bounds.midX, y: bounds.midY)
        let length = side * 0.28, thickness = max(1.5, side * 0.09)
        for (i, spoke) in spokes.enumerated() {
            let angle = Double(i) * 2 * .pi / Double(Self.spokeCount)
            spoke.bounds = Rect(x: 0, y: 0, width: thickness, height: length)
            spoke.layer.cornerRadius = thickness / 2
            let r = side / 2 - length / 2
            spoke.center = Point(x: side / 2 + r * sin(angle), y: side / 2 - r * cos(angle))
            spoke.transform = AffineTransform(rotationAngle: angle)
        }
    }

    /// Starts turning (and shows the view).
    public func startAnimating() {
        guard !animating else { return }
        animating = true
        isHidden = false
        // Discrete steps, as UIKit's spinner ticks: a keyframe animation with
        // twelve values and discrete calculation, repeating forever.
        let turn = KeyframeAnimation(keyPath: "transform.rotation.z")
        turn.values = (0..<Self.spokeCount).map { Double($0) * 2 * .pi / Double(Self.spokeCount) }
        turn.calculationMode = .discrete
        turn.duration = 1
        turn.repeatCount = .infinity
        wheel.layer.add(turn, forKey: "spin")
    }

    /// Stops turning (and hides the view if ``hidesWhenStopped``).
    public func stopAnimating() {
        guard animating else { return }
        animating = false
        wheel.layer.removeAnimation(forKey: "spin")
        isHidden = hidesWhenStopped
    }
}
