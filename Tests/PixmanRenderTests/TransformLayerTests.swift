import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// `TransformLayer` (issue 28, item 5): a cube of six planes under perspective,
/// sorted by depth and drawn back to front, single-sided faces culled; a
/// transform layer draws nothing of its own and hands its opacity to each plane;
/// a replicator that preserves depth sorts its copies; damage-tracked frames of
/// a turning cube equal full repaints.
@MainActor
@Suite("Transform layers", .serialized, .isolatedLayerContext)
struct TransformLayerTests {
    static let faceColors: [Color] = [.red, .blue, .green, Color(red: 1, green: 1, blue: 0), Color(red: 0, green: 1, blue: 1),
                                      Color(red: 1, green: 0, blue: 1)]

    /// A 100-point cube centred in a 200 × 200 container with perspective (d = 500):
    /// faces front, back, right, left, top, bottom, in that order in the tree.
    func cube(in root: Layer, doubleSided: Bool = false, frontAlpha: Double = 1) -> (TransformLayer, [Layer]) {
        let container = Layer()
        let cube = TransformLayer()
        var faces: [Layer] = []
        Transaction.withoutActions {
            root.backgroundColor = .white
            container.frame = Rect(x: 0, y: 0, width: 200, height: 200)
            var perspective = Transform3D.identity
            perspective.m34 = -1.0 / 500
            container.sublayerTransform = perspective
            cube.frame = container.bounds
            let turns: [Transform3D] = [
                .identity,
                Transform3D(rotationAngle: .pi, x: 0, y: 1, z: 0),
                Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0),
                Transform3D(rotationAngle: -.pi / 2, x: 0, y: 1, z: 0),
                Transform3D(rotationAngle: .pi / 2, x: 1, y: 0, z: 0),
                Transform3D(rotationAngle: -.pi / 2, x: 1, y: 0, z: 0),
            ]
            for (i, turn) in turns.enumerated() {
                let face = Layer()
                face.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
                face.position = Point(x: 100, y: 100)
                face.backgroundColor = i == 0 ? Self.faceColors[0].withAlpha(frontAlpha) : Self.faceColors[i]
                face.isDoubleSided = doubleSided
                // Pushed out 50 along its own normal, then turned into place.
                face.transform = Transform3D(translationX: 0, y: 0, z: 50).concatenating(turn)
                cube.addSublayer(face)
                faces.append(face)
            }
            container.addSublayer(cube)
            root.addSublayer(container)
        }
        Transaction.flush()
        return (cube, faces)
    }

    /// Which face is nearest the viewer with the cube turned by `turn`: the largest z of a face's centre.
    func nearestFace(_ faces: [Layer], turn: Transform3D) -> Int {
        let z = faces.map { f in f.transform.concatenating(turn).m43 }
        return z.indices.max { z[$0] < z[$1] }!
    }

    @Test("facing the viewer: the front face, enlarged by perspective; the back face is culled or drawn behind")
    func frontOn() {
        let (r, root, _) = makeRenderer(width: 200, height: 200)
        _ = cube(in: root)
        let img = r.render()
        // Front at z = 50: 100 × 500 / 450 = 111.1 wide, so 44.4…155.6.
        for (x, y) in [(100, 100), (47, 100), (152, 152)] { #expect(near(img.rgba8(x: x, y: y), (255, 0, 0, 255), 1), "front at \(x), \(y)") }
        #expect(near(img.rgba8(x: 42, y: 100), (255, 255, 255, 255), 0), "outside the front face")
    }

    @Test("planes are drawn back to front whatever the tree order: a translucent front face shows the back face through it")
    func depthOrder() {
        let (r, root, _) = makeRenderer(width: 200, height: 200)
        _ = cube(in: root, doubleSided: true, frontAlpha: 0.5)
        // The front (first in the tree) is drawn last: half red over the blue back face.
        #expect(near(r.render().rgba8(x: 100, y: 100), (128, 0, 128, 255), 1))
        // Single-sided: the back face looks away and is culled; the front is over white.
        let (r2, root2, _) = makeRenderer(width: 200, height: 200)
        _ = cube(in: root2, doubleSided: false, frontAlpha: 0.5)
        #expect(near(r2.render().rgba8(x: 100, y: 100), (255, 128, 128, 255), 1))
    }

    @Test("turned a quarter about y, the side face that comes round is in front; at 45° two faces show, split down the middle")
    func turned() {
        let (r, root, _) = makeRenderer(width: 200, height: 200)
        let (cube, faces) = cube(in: root)
        let quarter = Transform3D(rotationAngle: .pi / 2, x: 0, y: 1, z: 0)
        Transaction.withoutActions { cube.transform = quarter }
        Transaction.flush()
        let nearest = nearestFace(faces, turn: quarter)
        #expect(nearest == 2 || nearest == 3)
        #expect(near(r.render().rgba8(x: 100, y: 100), want(Self.faceColors[nearest]), 1))
        let eighth = Transform3D(rotationAngle: .pi / 4, x: 0, y: 1, z: 0)
        Transaction.withoutActions { cube.transform = eighth }
        Transaction.flush()
        let img = r.render()
        let left = img.rgba8(x: 80, y: 100), right = img.rgba8(x: 120, y: 100)
        let shown = Set([Self.faceColors[0], Self.faceColors[nearest == 2 ? 3 : 2], Self.faceColors[nearest]].map(want).map { "\($0)" })
        #expect(shown.contains("\(want(left))") && shown.contains("\(want(right))") && "\(want(left))" != "\(want(right))",
                "\(left) | \(right)")
        #expect(near(img.rgba8(x: 100, y: 100), (255, 255, 255, 255), 0) == false)
    }

    func want(_ c: Color) -> (Int, Int, Int, Int) {
        (Int(c.red * 255 + 0.5), Int(c.green * 255 + 0.5), Int(c.blue * 255 + 0.5), 255)
    }
    func want(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> (Int, Int, Int, Int) { (Int(p.r), Int(p.g), Int(p.b), Int(p.a)) }

    @Test("a transform layer draws nothing of its own and gives its opacity to each plane separately")
    func nothingOfItsOwn() {
        let (r, root, _) = makeRenderer(width: 100, height: 100)
        let t = TransformLayer()
        Transaction.withoutActions {
            root.backgroundColor = .white
            t.frame = root.bounds
            t.backgroundColor = .black
            t.borderWidth = 5
            t.borderColor = .black
            t.opacity = 0.5
            for (i, color) in [Color.red, Color.blue].enumerated() {
                let plane = Layer()
                plane.frame = Rect(x: 20 + 20 * Double(i), y: 20, width: 40, height: 40)
                plane.backgroundColor = color
                t.addSublayer(plane)
            }
            root.addSublayer(t)
        }
        Transaction.flush()
        let img = r.render()
        #expect(near(img.rgba8(x: 2, y: 2), (255, 255, 255, 255), 0), "no border, no background")
        #expect(near(img.rgba8(x: 30, y: 30), (255, 128, 128, 255), 1))
        // Each plane at half: where they overlap, half blue over half red over white (no group).
        #expect(near(img.rgba8(x: 50, y: 30), (128, 64, 191, 255), 1), "\(img.rgba8(x: 50, y: 30))")
    }

    @Test("a replicator that preserves depth sorts its copies; one that does not draws them in order")
    func replicatorPreservingDepth() {
        for preserves in [true, false] {
            let (r, root, _) = makeRenderer(width: 100, height: 100)
            let rep = ReplicatorLayer()
            Transaction.withoutActions {
                root.backgroundColor = .white
                rep.frame = root.bounds
                rep.instanceCount = 2
                rep.preservesDepth = preserves
                rep.instanceTransform = Transform3D(translationX: 0, y: 0, z: -10)   // each copy further away
                rep.instanceRedOffset = -1   // copy 1 is black
                rep.instanceGreenOffset = -1
                rep.instanceBlueOffset = -1
                let plane = Layer()
                plane.frame = Rect(x: 25, y: 25, width: 50, height: 50)
                plane.backgroundColor = Color(red: 1, green: 1, blue: 1, alpha: 1)
                plane.borderColor = .red
                plane.borderWidth = 2
                rep.addSublayer(plane)
                root.addSublayer(rep)
            }
            Transaction.flush()
            // Flattened, copy 1 (black) covers copy 0; kept in depth, copy 0 is nearer and drawn last.
            let centre = r.render().rgba8(x: 50, y: 50)
            #expect(preserves ? near(centre, (255, 255, 255, 255), 0) : near(centre, (0, 0, 0, 255), 0), "preservesDepth \(preserves): \(centre)")
        }
    }

    @Test("a turning cube: every damage-tracked frame equals a full repaint, and the damage stays inside the cube's reach")
    func turningCube() {
        let (r, root, clock) = makeRenderer(width: 200, height: 200)
        let (cube, _) = cube(in: root)
        _ = r.render()
        let spin = BasicAnimation(keyPath: "transform.rotation.y")
        spin.fromValue = 0.0
        spin.toValue = Double.pi * 2
        spin.duration = 2
        cube.add(spin, forKey: "spin")
        Transaction.flush()
        for _ in 0..<8 {
            clock.now += 0.13
            let tracked = r.render()
            #expect(tracked == fresh(root, width: 200, height: 200), "at \(clock.now)")
            #expect(r.lastDamage.allSatisfy { $0.minX > 10 && $0.maxX < 190 && $0.minY > 10 && $0.maxY < 190 }, "\(r.lastDamage)")
        }
    }
}
