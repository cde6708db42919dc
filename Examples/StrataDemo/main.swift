// Strata's main demo: views animated the UIKit way — a stack view closing a
// gap, a card flipped by a view transition, a spring, keyframes round a track
// and a property animator scrubbed back and forth — in a window redrawn only at
// frame callbacks while something moves. It follows the desktop's light or dark
// style, and is mirrored in a right-to-left session (LANG=he_IL.UTF-8): the
// stack view mirrors itself, the other frames here are the app's. With no compositor named it starts a
// headless weston and saves a screenshot; with STRATA_OFFSCREEN=DIR it renders
// offscreen. Usage: strata-demo [--seconds N] [--socket NAME] [--screenshot PATH]
import Glibc
import Strata
import StrataTesting

/// A view with a border in a dynamic colour: a layer's border holds a resolved
/// colour (as in UIKit), so it is resolved again when the traits change.
final class BorderedView: View {
    var borderColor: Color = .separator { didSet { traitCollectionDidChange(nil) } }

    override func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {
        super.traitCollectionDidChange(previousTraitCollection)
        layer.borderColor = borderColor.resolvedColor(with: traitCollection)
    }
}

/// The demo's page is 640 points wide, laid out from the left; in a
/// right-to-left session its frames and points are mirrored across it.
@MainActor enum Page {
    static let rightToLeft = Application.localeLayoutDirection == .rightToLeft
    static func x(_ x: Double) -> Double { rightToLeft ? 640 - x : x }
    static func point(_ x: Double, _ y: Double) -> Point { Point(x: Page.x(x), y: y) }
    static func rect(_ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Rect {
        Rect(x: rightToLeft ? 640 - x - width : x, y: y, width: width, height: height)
    }
}

@MainActor
final class Demo {
    let window = Window(title: "Strata demo", size: Size(width: 640, height: 480))
    let row = StackView(arrangedSubviews: [])
    let card = BorderedView(frame: Page.rect(40, 150, 200, 140))
    let ball = View(frame: Page.rect(300, 160, 44, 44))
    let runner = View(frame: Rect(x: 0, y: 0, width: 28, height: 28))
    let slider = View(frame: Page.rect(40, 420, 40, 24))
    var scrubber: ViewPropertyAnimator?
    var step = 0

    init() {
        window.backgroundColor = .systemBackground
        let root = window.rootView
        let palette: [Color] = [.red, .orange, .yellow, .green, .cyan, .blue]
        for color in palette {
            let tile = View()
            tile.backgroundColor = color.withAlpha(0.85)
            tile.layer.cornerRadius = 14
            row.addArrangedSubview(tile)
        }
        row.frame = Rect(x: 40, y: 40, width: 560, height: 80)
        row.spacing = 12
        row.distribution = .fillEqually
        root.addSubview(row)

        card.backgroundColor = .magenta
        card.layer.cornerRadius = 22
        card.layer.borderWidth = 4
        card.borderColor = .systemBackground
        root.addSubview(card)

        ball.backgroundColor = .label
        ball.layer.cornerRadius = 22
        root.addSubview(ball)

        let track = BorderedView(frame: Page.rect(380, 150, 220, 220))
        track.layer.borderWidth = 2
        track.borderColor = .tertiaryLabel
        track.layer.cornerRadius = 8
        root.addSubview(track)
        runner.backgroundColor = .yellow
        runner.layer.cornerRadius = 6
        runner.center = Page.point(380, 150)
        root.addSubview(runner)

        let rail = View(frame: Rect(x: 40, y: 430, width: 560, height: 4))
        rail.backgroundColor = .tertiaryLabel
        root.addSubview(rail)
        slider.backgroundColor = .cyan
        slider.layer.cornerRadius = 12
        root.addSubview(slider)
        // To a screen reader each moving part is a picture, named for what it does.
        for (view, name) in [(row, "A row of tiles closing a gap"), (card, "A card flipping over"), (ball, "A ball on a spring"),
                             (track, "A square going round a track"), (slider, "A handle scrubbed along a rail")] as [(View, String)] {
            view.isAccessibilityElement = true
            view.accessibilityLabel = name
            view.accessibilityTraits = [.image, .updatesFrequently]
        }
    }

    /// One round of changes, every 1.2 s.
    func tick() {
        step += 1
        // A stack view closes the gap of a hidden tile (and opens it again).
        View.animate(duration: 0.5) {
            for (i, tile) in row.arrangedSubviews.enumerated() { tile.isHidden = i == step % 6 }
        }
        // A view transition flips the card to its other colour.
        View.transition(with: card, duration: 0.7, options: step % 2 == 0 ? .transitionFlipFromLeft : .transitionFlipFromRight) {
            self.card.backgroundColor = self.step % 2 == 0 ? .magenta : .green
        }
        // A spring overshoots on its way to the other side.
        View.animate(duration: 0.9, dampingRatio: 0.45) {
            ball.center = Page.point(322, step % 2 == 0 ? 182 : 340)
        }
        // Keyframes take a square round the track.
        View.animateKeyframes(withDuration: 1.1, animations: {
            let corners = [Page.point(600, 150), Page.point(600, 370), Page.point(380, 370), Page.point(380, 150)]
            for (i, corner) in corners.enumerated() {
                View.addKeyframe(withRelativeStartTime: Double(i) / 4, relativeDuration: 0.25) { runner.center = corner }
            }
        })
    }

    /// A property animator that a timer scrubs back and forth, as a finger would.
    func scrub(at time: Double) {
        if scrubber == nil {
            let animator = ViewPropertyAnimator(duration: 1, curve: .easeInOut) {
                self.slider.center.x = Page.x(580)
                self.slider.transform = AffineTransform(rotationAngle: .pi)
            }
            animator.pauseAnimation()
            scrubber = animator
        }
        scrubber?.fractionComplete = 0.5 - 0.5 * cos(time * 1.3)
    }
}

ExampleCommandLine.main(program: "strata-demo", screenshot: "strata-demo.png", make: { _ in Demo() }) { demo, headless in
    demo.window.show()
    if headless { demo.window.isFullscreen = true }   // a known place on the headless screen
    demo.tick()
    demo.scrub(at: currentMediaTime())
    Transaction.flush()
    ExampleCommandLine.every(1.2) { demo.tick() }
    ExampleCommandLine.every(1.0 / 30) { demo.scrub(at: currentMediaTime()) }
}
