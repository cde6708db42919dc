import Glibc
import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// Composite scenes compared with committed golden PNGs (beside this file, in
/// `Golden/`), within 2/255 per channel. On a mismatch the actual image and a
/// difference image are written to `/tmp/strata-golden/` and the failure says
/// so. `RECORD_SNAPSHOTS=1 swift test` records new baselines (and fails, saying so).
@MainActor
@Suite("Golden images", .serialized, .isolatedLayerContext)
struct GoldenImageTests {
    static let directory = String(#filePath).split(separator: "/").dropLast().joined(separator: "/")
    static let golden = "/" + directory + "/Golden"

    func check(_ name: String, _ image: RenderedImage) throws {
        let path = Self.golden + "/" + name + ".png"
        if getenv("RECORD_SNAPSHOTS") != nil {
            try image.writePNG(to: path)
            Issue.record("Recorded new baseline \(path)")
            return
        }
        let expected: RenderedImage
        do { expected = try RenderedImage(contentsOfFile: path) } catch {
            Issue.record("no golden image at \(path): run with RECORD_SNAPSHOTS=1 to record it")
            return
        }
        let difference = image.maximumDifference(from: expected) ?? 255
        if difference > 2 {
            mkdir("/tmp/strata-golden", 0o755)
            try image.writePNG(to: "/tmp/strata-golden/\(name)-actual.png")
            let diff = zip(image.pixels, expected.pixels).map { a, b -> UInt32 in
                a == b ? 0xFF00_0000 : 0xFFFF_0000
            }
            try RenderedImage(width: image.width, height: image.height, pixels: diff).writePNG(to: "/tmp/strata-golden/\(name)-diff.png")
        }
        #expect(difference <= 2, "\(name) differs from its golden image by \(difference)/255; actual and diff in /tmp/strata-golden/")
    }

    @Test("cards: rounded corners, borders, group opacity, rotation")
    func cards() throws {
        let (r, root, _) = makeRenderer(width: 240, height: 160)
        r.backgroundColor = Color(rgba8: 0x20, 0x24, 0x28)
        Self.cardsScene(in: root)
        try check("cards", r.render())
    }

    /// Twelve cards of the S1 kind, some turned (240×160).
    static func cardsScene(in root: Layer) {
        for i in 0..<12 {
            let s = 40 + Double((i * 37) % 50)
            let l = box(Rect(x: Double((i * 53) % 200), y: Double((i * 31) % 120), width: s, height: s),
                        Color(rgba8: UInt8((i * 53) % 256), UInt8((i * 97) % 256), UInt8((i * 193) % 256)), in: root)
            Transaction.withoutActions {
                l.opacity = 0.5 + 0.1 * Double(i % 5)
                l.cornerRadius = i % 2 == 0 ? 12 : 0
                if i % 3 == 0 { l.borderWidth = 2; l.borderColor = .white }
                if i % 4 == 1 { l.transform = Transform3D(rotationAngle: 0.3, x: 0, y: 0, z: 1) }
            }
        }
    }

    @Test("effects: shadow, mask, clip, shape, perspective")
    func effects() throws {
        let (r, root, _) = makeRenderer(width: 240, height: 160)
        r.backgroundColor = Color(white: 0.95)
        Self.effectsScene(in: root)
        try check("effects", r.render())
    }

    /// A shadow, a rounded clip, a mask layer, a shape and a perspective turn (240×160).
    static func effectsScene(in root: Layer) {
        let shadowed = box(Rect(x: 15, y: 15, width: 60, height: 60), .white, in: root)
        let clip = box(Rect(x: 95, y: 15, width: 60, height: 60), .cyan, in: root)
        let inner = box(Rect(x: -10, y: 20, width: 80, height: 20), .magenta, in: clip)
        let masked = box(Rect(x: 170, y: 15, width: 60, height: 60), .blue, in: root)
        let mask = Layer()
        let shape = ShapeLayer()
        let stage = box(Rect(x: 120, y: 85, width: 110, height: 70), nil, in: root)
        let turned = box(Rect(x: 20, y: 5, width: 70, height: 60), .orange, in: stage)
        Transaction.withoutActions {
            shadowed.cornerRadius = 10
            shadowed.shadowOpacity = 0.6
            shadowed.shadowRadius = 6
            shadowed.shadowOffset = Size(width: 4, height: 6)
            clip.cornerRadius = 30
            clip.masksToBounds = true
            inner.transform = Transform3D(rotationAngle: -0.4, x: 0, y: 0, z: 1)
            mask.frame = Rect(x: 10, y: 10, width: 40, height: 40)
            mask.cornerRadius = 20
            mask.backgroundColor = Color(white: 0, alpha: 0.7)
            masked.mask = mask
            let star = starPath(center: Point(x: 40, y: 38), radius: 32)
            shape.frame = Rect(x: 15, y: 85, width: 80, height: 70)
            shape.path = star
            shape.fillRule = .evenOdd
            shape.fillColor = .yellow
            shape.strokeColor = .black
            shape.lineWidth = 3
            shape.lineJoin = .round
            root.addSublayer(shape)
            var perspective = Transform3D.identity
            perspective.m34 = -1.0 / 250
            stage.sublayerTransform = perspective
            turned.transform = Transform3D(rotationAngle: 0.8, x: 0, y: 1, z: 0)
            turned.cornerRadius = 8
        }
    }
}
