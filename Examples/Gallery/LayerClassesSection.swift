// The gallery's second section (`gallery --section layers`): Core Animation's
// other layer classes, one tile each, running for as long as the window is open:
// 1 a shimmering placeholder (a gradient's locations sweep under a mask of bars)
// · 2 an equalizer (one bar, replicated with a delay) · 3 a cube of six layers in
// a transform layer · 4 nine-slice button backgrounds stretching · 5 a text layer
// growing and changing colour · 6 axial, radial and conic gradients, the conic
// turning · 7 confetti from an emitter · 8 a blurred sidebar (a visual effect
// view) over moving content.
import Glibc
import Strata

@MainActor
final class LayerClassesSection {
    let window = Window(title: "Strata gallery: layer classes", size: Size(width: 640, height: 485))
    var tiles: [Tile] = []

    init() {
        window.backgroundColor = .systemGroupedBackground
        let names = ["A shimmering placeholder", "An equalizer made from one bar", "A cube of six layers turning",
                     "Nine-slice button backgrounds stretching", "A text layer growing and changing colour",
                     "Axial, radial and conic gradients", "Confetti from an emitter", "A blurred sidebar over moving content"]
        tiles = names.enumerated().map { Tile($0.offset, $0.element, in: window.rootView) }
        shimmer(tiles[0].panel.layer)
        equalizer(tiles[1].panel.layer)
        cube(tiles[2].panel.layer)
        nineSlice(tiles[3].panel.layer)
        text(tiles[4].panel.layer)
        gradients(tiles[5].panel.layer)
        confetti(tiles[6].panel.layer)
        sidebar(tiles[7].panel)
    }

    /// Runs forever (`repeatCount = .infinity`).
    func forever(_ a: PropertyAnimation, duration: Double, autoreverses: Bool = false) -> PropertyAnimation {
        a.duration = duration
        a.repeatCount = .infinity
        a.autoreverses = autoreverses
        return a
    }

    func shimmer(_ panel: Layer) {
        let bars = ShapeLayer()
        let path = Path()
        for (i, width) in [150.0, 120, 135, 90].enumerated() {
            path.append(Path(roundedRect: Rect(x: 20, y: 22 + Double(i) * 26, width: width, height: 14), cornerRadius: 7))
        }
        bars.path = path
        let shine = GradientLayer()
        shine.frame = Rect(x: 0, y: 0, width: 190, height: 140)
        let base = Color(white: 0.72), light = Color(white: 0.93)
        shine.colors = [base, light, base]
        shine.startPoint = Point(x: 0, y: 0.4)
        shine.endPoint = Point(x: 1, y: 0.6)
        shine.mask = bars
        let sweep = BasicAnimation(keyPath: "locations")
        sweep.fromValue = [-1.0, -0.5, 0]
        sweep.toValue = [1.0, 1.5, 2]
        shine.add(forever(sweep, duration: 1.6), forKey: "shimmer")
        panel.addSublayer(shine)
    }

    func equalizer(_ panel: Layer) {
        let replicator = ReplicatorLayer()
        replicator.frame = Rect(x: 25, y: 20, width: 140, height: 100)
        replicator.instanceCount = 6
        replicator.instanceTransform = Transform3D(translationX: 24, y: 0, z: 0)
        replicator.instanceDelay = 0.12
        replicator.instanceGreenOffset = -0.12
        replicator.instanceBlueOffset = 0.1
        let bar = Layer()
        bar.anchorPoint = Point(x: 0.5, y: 1)
        bar.bounds = Rect(x: 0, y: 0, width: 16, height: 100)
        bar.position = Point(x: 8, y: 100)
        bar.backgroundColor = Color(red: 1, green: 0.75, blue: 0.1)
        bar.cornerRadius = 4
        let bounce = BasicAnimation(keyPath: "transform.scale.y")
        bounce.fromValue = 0.15
        bounce.toValue = 1.0
        bounce.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
        bar.add(forever(bounce, duration: 0.45, autoreverses: true), forKey: "bounce")
        replicator.addSublayer(bar)
        panel.addSublayer(replicator)
    }

    func cube(_ panel: Layer) {
        let stage = Layer()
        stage.frame = Rect(x: 45, y: 20, width: 100, height: 100)
        var perspective = Transform3D.identity
        perspective.m34 = -1.0 / 300
        stage.sublayerTransform = perspective
        let cube = TransformLayer()
        cube.frame = stage.bounds
        let colours: [Color] = [.systemRed, .systemBlue, .systemGreen, .systemOrange, .systemPurple, .systemTeal]
        let turns: [Transform3D] = [
            .identity, Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0),
            Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0), Transform3D(rotationAngle: -.pi / 2, x: 0, y: 1, z: 0),
            Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0), Transform3D(rotationAngle: -.pi / 2, x: 1, y: 0, z: 0),
        ]
        for (colour, turn) in zip(colours, turns) {
            let face = Layer()
            face.bounds = Rect(x: 0, y: 0, width: 60, height: 60)
            face.position = Point(x: 50, y: 50)
            face.backgroundColor = colour
            face.borderColor = Color(white: 1, alpha: 0.8)
            face.borderWidth = 2
            face.isDoubleSided = false
            face.transform = Transform3D(translationX: 0, y: 0, z: 30).concatenating(turn)
            cube.addSublayer(face)
        }
        cube.transform = Transform3D(rotationAngle: -0.45, x: 1, y: 0, z: 0)
        let spin = KeyframeAnimation(keyPath: "transform")
        spin.values = (0...8).map { k in
            Transform3D(rotationAngle: Double(k) * .pi / 4, x: 0, y: 1, z: 0)
                .concatenating(Transform3D(rotationAngle: -0.45, x: 1, y: 0, z: 0))
        }
        cube.add(forever(spin, duration: 6), forKey: "spin")
        stage.addSublayer(cube)
        panel.addSublayer(stage)
    }

    /// A 24 × 24 rounded button face: a 1-pixel border, lighter at the top.
    static let buttonFace: Image = {
        var pixels: [UInt32] = []
        for y in 0..<24 {
            for x in 0..<24 {
                // Outside the rounded corners (radius 8): clear.
                let cx = Double(min(max(x, 8), 15)) + (x < 8 ? 0 : 1), cy = Double(min(max(y, 8), 15)) + (y < 8 ? 0 : 1)
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let d = (dx * dx + dy * dy).squareRoot()
                let inCorner = (x < 8 || x > 15) && (y < 8 || y > 15)
                if inCorner && d > 8 { pixels.append(0); continue }
                let border = x == 0 || y == 0 || x == 23 || y == 23 || (inCorner && d > 7)
                let v: UInt32 = border ? 0x30 : UInt32(0xe0 - y * 3)
                pixels.append(0xFF00_0000 | v << 16 | v << 8 | min(255, v + 24))
            }
        }
        return Image(width: 24, height: 24, pixels: pixels)!
    }()

    func nineSlice(_ panel: Layer) {
        for (i, width) in [40.0, 90, 150].enumerated() {
            let button = Layer()
            button.anchorPoint = Point(x: 0, y: 0.5)   // grows to the right
            button.frame = Rect(x: 20, y: 18 + Double(i) * 40, width: width, height: 30)
            button.contents = Self.buttonFace
            button.contentsCenter = Rect(x: 9.0 / 24, y: 9.0 / 24, width: 6.0 / 24, height: 6.0 / 24)
            let stretch = BasicAnimation(keyPath: "bounds.size.width")
            stretch.fromValue = width
            stretch.toValue = 150 - width + 40
            button.add(forever(stretch, duration: 1.5, autoreverses: true), forKey: "stretch")
            panel.addSublayer(button)
        }
    }

    func text(_ panel: Layer) {
        let label = TextLayer()
        label.frame = Rect(x: 10, y: 30, width: 170, height: 80)
        label.string = "Strata"
        label.alignmentMode = .center
        label.foregroundColor = .systemIndigo
        label.fontSize = 18
        label.contentsScale = 2
        let grow = BasicAnimation(keyPath: "fontSize")
        grow.toValue = 40.0
        label.add(forever(grow, duration: 1.2, autoreverses: true), forKey: "grow")
        let tint = BasicAnimation(keyPath: "foregroundColor")
        tint.toValue = Color.systemPink
        label.add(forever(tint, duration: 1.2, autoreverses: true), forKey: "tint")
        panel.addSublayer(label)
    }

    /// A 6 × 3 white strip: each piece of confetti is one, in its cell's colour.
    static let strip = Image(width: 6, height: 3, color: .white)

    func confetti(_ panel: Layer) {
        let emitter = EmitterLayer()
        emitter.frame = Rect(x: 0, y: 0, width: 190, height: 140)
        emitter.emitterPosition = Point(x: 95, y: -6)
        emitter.emitterShape = .line
        emitter.emitterSize = Size(width: 190, height: 0)
        emitter.seed = 28
        emitter.emitterCells = [Color.systemRed, .systemYellow, .systemBlue, .systemGreen, .systemPink].enumerated().map { i, colour in
            let cell = EmitterCell()
            cell.name = "confetti\(i)"
            cell.contents = Self.strip
            cell.color = colour
            cell.birthRate = 6
            cell.lifetime = 3.5
            cell.velocity = 40
            cell.velocityRange = 20
            cell.emissionLongitude = .pi / 2   // down
            cell.emissionRange = .pi / 5
            cell.yAcceleration = 25
            cell.spin = 3
            cell.spinRange = 4
            cell.scale = 1.3
            cell.scaleRange = 0.4
            return cell
        }
        panel.addSublayer(emitter)
    }

    func sidebar(_ panel: View) {
        for (i, colour) in [Color.systemRed, .systemBlue, .systemGreen, .systemOrange].enumerated() {
            let ball = Layer()
            ball.bounds = Rect(x: 0, y: 0, width: 44, height: 44)
            ball.cornerRadius = 22
            ball.backgroundColor = colour
            ball.position = Point(x: 30, y: 25 + Double(i) * 30)
            let roll = BasicAnimation(keyPath: "position.x")
            roll.fromValue = 30.0
            roll.toValue = 160.0
            roll.timingFunction = MediaTimingFunction(name: .easeInEaseOut)
            roll.timeOffset = Double(i) * 0.6
            ball.add(forever(roll, duration: 2.4, autoreverses: true), forKey: "roll")
            panel.layer.addSublayer(ball)
        }
        let blur = VisualEffectView(effect: BlurEffect(style: .systemThinMaterial))
        blur.frame = Rect(x: 95, y: 0, width: 95, height: 140)
        let title = Label()
        title.text = "Sidebar"
        title.font = .systemFont(ofSize: 15, weight: .semibold)
        title.frame = Rect(x: 12, y: 12, width: 80, height: 20)
        blur.contentView.addSubview(title)
        panel.addSubview(blur)
    }

    func gradients(_ panel: Layer) {
        let colours: [Color] = [.systemBlue, .systemPurple, .systemPink, .systemOrange]
        for (i, type) in [GradientType.axial, .radial, .conic].enumerated() {
            let g = GradientLayer()
            g.frame = Rect(x: 10 + Double(i) * 60, y: 40, width: 50, height: 60)
            g.cornerRadius = 8
            g.type = type
            g.colors = type == .conic ? colours + [colours[0]] : colours
            g.startPoint = type == .axial ? Point(x: 0, y: 0) : Point(x: 0.5, y: 0.5)
            g.endPoint = Point(x: 1, y: 1)
            if type == .conic {
                // The start direction goes round: the end point on a circle about the centre.
                let turn = KeyframeAnimation(keyPath: "endPoint")
                turn.values = (0...12).map { (k: Int) -> Point in
                    let angle = Double(k) * Double.pi / 6
                    return Point(x: 0.5 + 0.5 * cos(angle), y: 0.5 + 0.5 * sin(angle))
                }
                g.add(forever(turn, duration: 4), forKey: "turn")
            }
            panel.addSublayer(g)
        }
    }
}
