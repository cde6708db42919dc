// The seeds' scenarios as live views, one tile each, replayed every 3.5 s:
// 1 a plain layer fades implicitly · 2 the same change on view-backed layers,
// outside a block (left, at once) and inside one (right) · 3 listing 3-5
// (opacity with the block's 1 s, position with its own 3 s) · 4 the bounce path
// · 5 contents pushed in by a delegate's transition · 6 border keyframes in a
// group · 7 actions disabled by a transaction (left) and by a NullAction entry
// (middle), next to an implicit move (right) · 8 a spring · 9 a property
// animator scrubbed back and forth. The tiles follow the desktop's light or
// dark style, and run from the right in a right-to-left session (LANG=he_IL.UTF-8);
// what happens inside a tile is spatial and stays as it is.
// `--section layers` shows the other layer classes instead (LayerClassesSection.swift).
// Usage: gallery [--section scenarios|layers] [--seconds N] [--socket NAME] [--screenshot PATH];
// STRATA_OFFSCREEN=DIR renders offscreen.
import Glibc
import Strata
import StrataTesting

/// A tile of the gallery: a panel whose `play` runs its scenario again.
@MainActor
final class Tile {
    let panel: View
    var play: () -> Void = {}
    init(_ index: Int, _ name: String, in root: View) {
        let column = Double(Application.localeLayoutDirection == .rightToLeft ? 2 - index % 3 : index % 3)
        panel = View(frame: Rect(x: 20 + column * 205, y: 15 + Double(index / 3) * 155, width: 190, height: 140))
        panel.backgroundColor = .secondarySystemGroupedBackground
        panel.layer.cornerRadius = 10
        panel.clipsToBounds = true
        // One picture to a screen reader, named after its scenario.
        panel.isAccessibilityElement = true
        panel.accessibilityLabel = name
        panel.accessibilityTraits = [.image, .updatesFrequently]
        root.addSubview(panel)
    }

    /// A plain layer in the panel (not view-backed: it animates implicitly).
    func layer(_ frame: Rect, _ color: Color) -> Layer {
        let l = Layer()
        Transaction.withoutActions {
            l.frame = frame
            l.backgroundColor = color
            l.cornerRadius = 6
            panel.layer.addSublayer(l)
        }
        return l
    }

    func view(_ frame: Rect, _ color: Color) -> View {
        let v = View(frame: frame)
        v.backgroundColor = color
        v.layer.cornerRadius = 6
        panel.addSubview(v)
        return v
    }
}

/// Listing 6-1's delegate: new contents are pushed in from the right.
@MainActor
final class PushDelegate: LayerDelegate {
    func action(for layer: Layer, forKey event: String) -> (any Action)? {
        guard event == "contents" else { return nil }
        let push = Transition()
        push.duration = 1
        push.timingFunction = MediaTimingFunction(name: .easeIn)
        push.type = .push
        push.subtype = .fromRight
        return push
    }
}

@MainActor
final class Gallery {
    let window = Window(title: "Strata gallery", size: Size(width: 640, height: 480))
    var tiles: [Tile] = []
    let pushDelegate = PushDelegate()
    var round = 0

    init() {
        window.backgroundColor = .systemGroupedBackground
        let names = ["A plain layer fades by itself", "Views change at once outside an animation block and animate inside one",
                     "Opacity with the block's duration, position with its own", "A ball bounces along a path",
                     "New contents pushed in by a transition", "Border widths and colours in keyframes",
                     "Moves with actions turned off, beside an implicit one", "A spring", "A property animator scrubbed back and forth"]
        tiles = names.enumerated().map { Tile($0.offset, $0.element, in: window.rootView) }
        setUp()
    }

    func setUp() {
        // 1: implicit fade of a plain layer (rule B1).
        let fading = tiles[0].layer(Rect(x: 45, y: 25, width: 100, height: 95), .orange)
        tiles[0].play = { [unowned self] in
            Transaction.begin()
            Transaction.animationDuration = 1
            fading.opacity = round % 2 == 0 ? 0.1 : 1
            Transaction.commit()
        }
        // 2: view-backed layers: no block (rule V2) and a block (rule V3).
        let instant = tiles[1].view(Rect(x: 15, y: 25, width: 75, height: 95), .cyan)
        let animated = tiles[1].view(Rect(x: 100, y: 25, width: 75, height: 95), .cyan)
        tiles[1].play = { [unowned self] in
            let alpha = round % 2 == 0 ? 0.1 : 1
            instant.alpha = alpha
            View.animate(duration: 1) { animated.alpha = alpha }
        }
        // 3: listing 3-5 (rule V4).
        let myView = tiles[2].view(Rect(x: 15, y: 15, width: 50, height: 50), .green)
        tiles[2].play = {
            myView.layer.opacity = 1
            View.animate(withDuration: 1.0, animations: {
                myView.layer.opacity = 0.0
                let theAnim = BasicAnimation(keyPath: "position")
                theAnim.fromValue = myView.layer.position
                theAnim.toValue = Point(x: 150, y: 110)
                theAnim.duration = 3.0
                myView.layer.add(theAnim, forKey: "AnimateFrame")
            })
        }
        // 4: the bounce path of listing 3-3 (rule K5).
        let ball = tiles[3].layer(Rect(x: 0, y: 0, width: 20, height: 20), .yellow)
        ball.cornerRadius = 10
        tiles[3].play = {
            let path = Path()
            path.move(to: Point(x: 20, y: 30))
            path.addCurve(to: Point(x: 95, y: 30), control1: Point(x: 20, y: 130), control2: Point(x: 95, y: 130))
            path.addCurve(to: Point(x: 170, y: 30), control1: Point(x: 95, y: 130), control2: Point(x: 170, y: 130))
            let bounce = KeyframeAnimation(keyPath: "position")
            bounce.path = path
            bounce.duration = 3
            ball.add(bounce, forKey: "position")
        }
        // 5: a push transition from a delegate (listing 6-1).
        let pushed = tiles[4].layer(Rect(x: 45, y: 25, width: 100, height: 95), .white)
        pushed.contents = Image(width: 4, height: 4, color: .red)
        pushed.masksToBounds = true
        pushed.delegate = pushDelegate
        tiles[4].play = { [unowned self] in
            pushed.contents = Image(width: 4, height: 4, color: round % 2 == 0 ? .blue : .red)
        }
        // 6: border keyframes in a group (listing 3-4).
        let bordered = tiles[5].layer(Rect(x: 45, y: 25, width: 100, height: 95), Color(white: 0.3))
        tiles[5].play = {
            let widths = KeyframeAnimation(keyPath: "borderWidth")
            widths.values = [1.0, 10.0, 5.0, 30.0, 0.5, 15.0, 2.0, 40.0, 0.0]
            widths.calculationMode = .paced
            let colors = KeyframeAnimation(keyPath: "borderColor")
            colors.values = [Color.green, Color.red, Color.blue]
            colors.calculationMode = .paced
            let group = AnimationGroup()
            group.animations = [colors, widths]
            group.duration = 3
            bordered.add(group, forKey: "BorderChanges")
        }
        // 7: actions disabled by a transaction (rule T3) and by a NullAction (rule A4).
        let disabled = tiles[6].layer(Rect(x: 10, y: 20, width: 50, height: 40), .magenta)
        let nulled = tiles[6].layer(Rect(x: 70, y: 20, width: 50, height: 40), .magenta)
        let implicit = tiles[6].layer(Rect(x: 130, y: 20, width: 50, height: 40), .magenta)
        nulled.actions["position"] = NullAction()
        tiles[6].play = { [unowned self] in
            let y = round % 2 == 0 ? 105.0 : 40.0
            Transaction.begin()
            Transaction.disableActions = true
            disabled.position.y = y
            Transaction.commit()
            Transaction.begin()
            Transaction.animationDuration = 1
            nulled.position.y = y
            implicit.position.y = y
            Transaction.commit()
        }
        // 8: a spring.
        let spring = tiles[7].view(Rect(x: 15, y: 50, width: 44, height: 44), .orange)
        spring.layer.cornerRadius = 22
        tiles[7].play = { [unowned self] in
            View.animate(duration: 1.2, dampingRatio: 0.35) { spring.center.x = round % 2 == 0 ? 150 : 37 }
        }
        // 9: a property animator, scrubbed by `scrub(at:)`.
        let scrubbed = tiles[8].view(Rect(x: 15, y: 50, width: 44, height: 44), .green)
        scrubber = ViewPropertyAnimator(duration: 1, curve: .easeInOut) {
            scrubbed.center.x = 150
            scrubbed.transform = AffineTransform(rotationAngle: .pi / 2)
            scrubbed.backgroundColor = .blue
        }
        scrubber?.pauseAnimation()
    }
    var scrubber: ViewPropertyAnimator?

    func playAll() {
        for tile in tiles { tile.play() }
        round += 1
    }

    func scrub(at time: Double) {
        scrubber?.fractionComplete = 0.5 - 0.5 * cos(time * 1.5)
    }
}

/// The section a run shows.
@MainActor
enum Section {
    case scenarios(Gallery)
    case layers(LayerClassesSection)

    var window: Window {
        switch self {
        case .scenarios(let g): g.window
        case .layers(let l): l.window
        }
    }
}

ExampleCommandLine.main(program: "gallery", screenshot: "gallery.png", options: ["--section"], make: { options -> Section in
    switch options.values["--section"] ?? "scenarios" {
    case "scenarios": return .scenarios(Gallery())
    case "layers": return .layers(LayerClassesSection())
    case let other:
        ExampleCommandLine.printError("gallery: no section '\(other)' (scenarios, layers)")
        exit(2)
    }
}) { section, headless in
    section.window.show()
    if headless { section.window.isFullscreen = true }
    Transaction.flush()        // presented: from here on plain layers animate (rule B5)
    guard case .scenarios(let gallery) = section else { return }
    gallery.playAll()
    gallery.scrub(at: 1)
    ExampleCommandLine.every(3.5) { gallery.playAll() }
    ExampleCommandLine.every(1.0 / 30) { gallery.scrub(at: currentMediaTime()) }
}
