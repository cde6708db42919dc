// The seed documents' animation listings, run and rendered offscreen: each
// listing becomes a strip of frames (left to right, equal time steps) in a PNG.
// Usage: seed-listings [OUTPUT-DIRECTORY]
import LayerKit
import PixmanRender

/// Renders `frames` frames from t = 0 to `duration` and lays them side by side.
@MainActor
func strip(width: Int, height: Int, frames: Int, duration: Double,
           build: () -> Layer, start: (Layer) -> Void) -> RenderedImage {
    Transaction.reset()
    let clock = ManualMediaClock(now: 0)
    MediaTime.clock = clock
    let renderer = OffscreenRenderer(width: width, height: height)
    renderer.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
    let root = Layer()
    root.anchorPoint = .zero
    root.bounds = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
    renderer.rootLayer = root
    let layer = build()
    root.addSublayer(layer)
    Transaction.flush()      // presented: from here on changes animate
    start(layer)
    Transaction.flush()
    var pixels = [UInt32](repeating: 0, count: width * frames * height)
    for f in 0..<frames {
        let image = renderer.render(atTime: duration * Double(f) / Double(frames - 1))
        for y in 0..<height {
            for x in 0..<width { pixels[y * width * frames + f * width + x] = image.pixels[y * width + x] }
        }
    }
    renderer.rootLayer = nil
    return RenderedImage(width: width * frames, height: height, pixels: pixels)
}

@MainActor
func listings(into directory: String) throws {
    // Listing 3-2: an explicit fade from 1 to 0 over 1 s; the model is set too.
    let fade = strip(width: 120, height: 120, frames: 6, duration: 1) {
        let l = Layer()
        l.frame = Rect(x: 20, y: 20, width: 80, height: 80)
        l.backgroundColor = .orange
        l.cornerRadius = 12
        return l
    } start: { l in
        let fadeAnim = BasicAnimation(keyPath: "opacity")
        fadeAnim.fromValue = 1.0
        fadeAnim.toValue = 0.0
        fadeAnim.duration = 1.0
        l.add(fadeAnim, forKey: "opacity")
        Transaction.withoutActions { l.opacity = 0 }
    }
    try fade.writePNG(to: directory + "/listing-3-2-fade.png")

    // Listing 3-3: a bounce along two cubic arcs over 5 s.
    let bounce = strip(width: 320, height: 140, frames: 9, duration: 5) {
        let l = Layer()
        l.frame = Rect(x: 0, y: 0, width: 24, height: 24)
        l.cornerRadius = 12
        l.backgroundColor = .cyan
        return l
    } start: { l in
        let thePath = Path()
        thePath.move(to: Point(x: 37, y: 20))
        thePath.addCurve(to: Point(x: 160, y: 20), control1: Point(x: 37, y: 125), control2: Point(x: 160, y: 125))
        thePath.addCurve(to: Point(x: 283, y: 20), control1: Point(x: 160, y: 125), control2: Point(x: 283, y: 125))
        let theAnimation = KeyframeAnimation(keyPath: "position")
        theAnimation.path = thePath
        theAnimation.duration = 5.0
        l.add(theAnimation, forKey: "position")
    }
    try bounce.writePNG(to: directory + "/listing-3-3-bounce.png")

    // Listing 3-4: a group of two paced keyframe animations of the border, 5 s.
    let group = strip(width: 120, height: 120, frames: 6, duration: 5) {
        let l = Layer()
        l.frame = Rect(x: 20, y: 20, width: 80, height: 80)
        l.backgroundColor = Color(white: 0.3)
        return l
    } start: { l in
        let widthAnim = KeyframeAnimation(keyPath: "borderWidth")
        widthAnim.values = [1.0, 10.0, 5.0, 30.0, 0.5, 15.0, 2.0, 50.0, 0.0]
        widthAnim.calculationMode = .paced
        let colorAnim = KeyframeAnimation(keyPath: "borderColor")
        colorAnim.values = [Color.green, Color.red, Color.blue]
        colorAnim.calculationMode = .paced
        let group = AnimationGroup()
        group.animations = [colorAnim, widthAnim]
        group.duration = 5.0
        l.add(group, forKey: "BorderChanges")
    }
    try group.writePNG(to: directory + "/listing-3-4-group.png")

    // Listing 6-1: a delegate swaps new contents in with a push from the right, 1 s.
    final class PushDelegate: LayerDelegate {
        func action(for layer: Layer, forKey event: String) -> (any Action)? {
            guard event == "contents" else { return nil }
            let theAnimation = Transition()
            theAnimation.duration = 1.0
            theAnimation.timingFunction = MediaTimingFunction(name: .easeIn)
            theAnimation.type = .push
            theAnimation.subtype = .fromRight
            return theAnimation
        }
    }
    let delegate = PushDelegate()
    let push = strip(width: 120, height: 120, frames: 6, duration: 1) {
        let l = Layer()
        l.frame = Rect(x: 20, y: 20, width: 80, height: 80)
        l.contents = Image(width: 8, height: 8, color: .red)
        l.masksToBounds = true
        return l
    } start: { l in
        l.delegate = delegate
        l.contents = Image(width: 8, height: 8, color: .blue)
    }
    try push.writePNG(to: directory + "/listing-6-1-push.png")
    print("Wrote listing-3-2-fade.png, listing-3-3-bounce.png, listing-3-4-group.png, listing-6-1-push.png to \(directory)")
}

let directory = CommandLine.arguments.dropFirst().first ?? "."
do {
    try MainActor.assumeIsolated { try listings(into: directory) }
} catch {
    print("seed-listings: \(error)")
}
