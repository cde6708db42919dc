// Builds a small layer tree, animates it, and renders frames offscreen to PNG —
// no compositor needed. Usage: layer-snapshot [OUTPUT.png]
import Glibc
import LayerKit
import PixmanRender

@MainActor
func snapshot(to path: String) throws {
    let clock = ManualMediaClock(now: 0)
    MediaTime.clock = clock
    let renderer = OffscreenRenderer(width: 480, height: 320)
    renderer.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
    let root = Layer()
    root.anchorPoint = .zero
    root.bounds = Rect(x: 0, y: 0, width: 480, height: 320)
    renderer.rootLayer = root

    let colors: [Color] = [.red, .orange, .yellow, .green, .cyan, .blue]
    var cards: [Layer] = []
    for (i, c) in colors.enumerated() {
        let card = Layer()
        card.frame = Rect(x: 30 + Double(i) * 70, y: 40, width: 90, height: 120)
        card.backgroundColor = c.withAlpha(0.85)
        card.cornerRadius = 14
        card.borderWidth = i % 2 == 0 ? 3 : 0
        card.borderColor = .white
        card.shadowOpacity = 0.6
        card.shadowRadius = 8
        card.shadowOffset = Size(width: 0, height: 8)
        root.addSublayer(card)
        cards.append(card)
    }
    let clip = Layer()
    clip.frame = Rect(x: 140, y: 190, width: 200, height: 100)
    clip.cornerRadius = 50
    clip.masksToBounds = true
    clip.backgroundColor = Color(white: 0.9)
    root.addSublayer(clip)
    // A gradient-free "spotlight": a mask layer lets only a circle of the stripe show.
    let spot = Layer()
    spot.frame = Rect(x: 40, y: 0, width: 100, height: 100)
    spot.cornerRadius = 50
    spot.backgroundColor = .black
    let stripe = Layer()
    stripe.frame = Rect(x: -20, y: 40, width: 240, height: 24)
    stripe.backgroundColor = .magenta
    stripe.transform = Transform3D(rotationAngle: -0.35, x: 0, y: 0, z: 1)
    clip.addSublayer(stripe)
    stripe.mask = spot

    // A star, filled even-odd and stroked; its stroke draws itself in.
    let star = ShapeLayer()
    star.frame = Rect(x: 370, y: 190, width: 100, height: 100)
    let starPath = Path()
    for k in 0..<5 {
        let a = -Double.pi / 2 + Double(k * 2) * 2 * .pi / 5
        let p = Point(x: 50 + 45 * cos(a), y: 52 + 45 * sin(a))
        k == 0 ? starPath.move(to: p) : starPath.addLine(to: p)
    }
    starPath.closeSubpath()
    star.path = starPath
    star.fillRule = .evenOdd
    star.fillColor = Color.yellow.withAlpha(0.6)
    star.strokeColor = .white
    star.lineWidth = 4
    star.lineJoin = .round
    star.strokeEnd = 0
    root.addSublayer(star)

    // A card turned away in perspective (the eye 400 units in front).
    let stage = Layer()
    stage.frame = Rect(x: 10, y: 180, width: 120, height: 130)
    var perspective = Transform3D.identity
    perspective.m34 = -1.0 / 400
    stage.sublayerTransform = perspective
    root.addSublayer(stage)
    let turned = Layer()
    turned.frame = Rect(x: 15, y: 10, width: 90, height: 110)
    turned.backgroundColor = .orange
    turned.cornerRadius = 12
    turned.borderWidth = 3
    turned.borderColor = .white
    turned.transform = Transform3D(rotationAngle: 0.9, x: 0, y: 1, z: 0)
    stage.addSublayer(turned)
    Transaction.flush()   // presented from here on: changes animate

    // Fan the cards out, 1 s, ease in-out; render the middle of it.
    Transaction.begin()
    Transaction.animationDuration = 1
    Transaction.animationTimingFunction = .easeInEaseOut
    for (i, card) in cards.enumerated() {
        card.transform = Transform3D(rotationAngle: Double(i - 2) * 0.12, x: 0, y: 0, z: 1)
        card.opacity = 0.6 + 0.08 * Double(i)
    }
    star.strokeEnd = 1
    Transaction.commit()
    clock.advance(by: 0.5)
    try renderer.render().writePNG(to: path)
    print("Rendered \(path) (480×320, at t = 0.5 s of a 1 s animation)")
}

let output = CommandLine.arguments.dropFirst().first ?? "layer-snapshot.png"
do {
    try MainActor.assumeIsolated { try snapshot(to: output) }
} catch {
    print("layer-snapshot: \(error)")
}
