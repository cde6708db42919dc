import LayerKit
@testable import PixmanRender
import Testing
import LayerKitTesting

/// `ReplicatorLayer` (issue 28, item 2): copies placed by the accumulated
/// instance transform, tinted by the instance colour and its offsets, delayed in
/// time at manual times, nested, bounded — and damage-tracked frames equal to full ones.
@MainActor
@Suite("Replicator layers", .serialized, .isolatedLayerContext)
struct ReplicatorLayerTests {
    /// A replicator filling the root with one `square` sublayer, committed.
    func replicator(in root: Layer, square: Rect, color: Color = .red, _ configure: (ReplicatorLayer) -> Void) -> (ReplicatorLayer, Layer) {
        let r = ReplicatorLayer()
        let s = Layer()
        Transaction.withoutActions {
            root.backgroundColor = .white
            r.frame = root.bounds
            s.frame = square
            s.backgroundColor = color
            r.addSublayer(s)
            configure(r)
            root.addSublayer(r)
        }
        Transaction.flush()
        return (r, s)
    }

    @Test("copies are moved by the instance transform, accumulated, and tinted by the colour plus the offsets per copy")
    func placementAndTint() {
        let (renderer, root, _) = makeRenderer(width: 100, height: 20)
        _ = replicator(in: root, square: Rect(x: 0, y: 0, width: 10, height: 10), color: .white) {
            $0.instanceCount = 5
            $0.instanceTransform = Transform3D(translationX: 20, y: 0, z: 0)
            $0.instanceGreenOffset = -0.25
            $0.instanceBlueOffset = -0.25
        }
        let img = renderer.render()
        for k in 0..<5 {
            let v = Int((1 - 0.25 * Double(k)) * 255 + 0.5)
            #expect(near(img.rgba8(x: 20 * k + 5, y: 5), (255, v, v, 255), 1), "copy \(k): \(img.rgba8(x: 20 * k + 5, y: 5))")
            #expect(near(img.rgba8(x: 20 * k + 15, y: 5), (255, 255, 255, 255), 0), "gap after copy \(k)")
        }
        #expect(near(img.rgba8(x: 5, y: 15), (255, 255, 255, 255), 0))
    }

    @Test("the instance transform turns copies about the centre of the replicator's bounds; alpha offsets fade them")
    func rotationAboutCentre() {
        let (renderer, root, _) = makeRenderer(width: 100, height: 100)
        let (r, _) = replicator(in: root, square: Rect(x: 45, y: 0, width: 10, height: 10), color: .black) {
            $0.instanceCount = 4
            $0.instanceTransform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        }
        var img = renderer.render()
        for (x, y) in [(50, 5), (95, 50), (50, 95), (5, 50)] {
            #expect(near(img.rgba8(x: x, y: y), (0, 0, 0, 255), 1), "a copy at \(x), \(y)")
        }
        #expect(near(img.rgba8(x: 50, y: 50), (255, 255, 255, 255), 0) && near(img.rgba8(x: 20, y: 20), (255, 255, 255, 255), 0))
        // The same turn as a layer's own transform about the same centre: copy 1 lands where a turned layer does.
        let turned = Layer()
        Transaction.withoutActions {
            r.instanceCount = 1
            turned.frame = root.bounds
            turned.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
            let dot = Layer()
            dot.frame = Rect(x: 45, y: 0, width: 10, height: 10)
            dot.backgroundColor = .black
            turned.addSublayer(dot)
            root.addSublayer(turned)
        }
        Transaction.flush()
        img = renderer.render()
        let turnedDot = [(95, 50), (5, 50)].first { img.rgba8(x: $0.0, y: $0.1).r == 0 }!
        Transaction.withoutActions { turned.removeFromSuperlayer(); r.instanceCount = 2; r.instanceAlphaOffset = -0.5 }
        Transaction.flush()
        img = renderer.render()
        #expect(near(img.rgba8(x: turnedDot.0, y: turnedDot.1), (128, 128, 128, 255), 1), "copy 1 at half alpha where the turned layer was")
        #expect(near(img.rgba8(x: 50, y: 5), (0, 0, 0, 255), 0))
    }

    @Test("each copy shows the animations instanceDelay earlier: before an animation begins, the model value")
    func delayedCopies() {
        let (renderer, root, clock) = makeRenderer(width: 80, height: 20)
        let (_, square) = replicator(in: root, square: Rect(x: 0, y: 0, width: 10, height: 10), color: .black) {
            $0.instanceCount = 4
            $0.instanceTransform = Transform3D(translationX: 20, y: 0, z: 0)
            $0.instanceDelay = 0.25
        }
        let fade = BasicAnimation(keyPath: "opacity")
        fade.fromValue = 0.0
        fade.toValue = 1.0
        fade.duration = 1
        fade.beginTime = clock.now
        square.add(fade, forKey: "fade")
        Transaction.flush()
        clock.now += 0.5
        let img = renderer.render()
        // Copies at 0.5, 0.25, 0 s into the fade; the last is before it: opacity 1 (the model).
        for (k, opacity) in [0.5, 0.25, 0, 1].enumerated() {
            let v = Int((1 - opacity) * 255 + 0.5)
            #expect(near(img.rgba8(x: 20 * k + 5, y: 5), (v, v, v, 255), 1), "copy \(k): \(img.rgba8(x: 20 * k + 5, y: 5))")
        }
        // Every frame of the fade, damage-tracked, equals a full repaint.
        for _ in 0..<6 {
            clock.now += 0.1
            let tracked = renderer.render()
            #expect(tracked == fresh(root, width: 80, height: 20), "at \(clock.now)")
        }
    }

    @Test("replicators nest (a grid); changes below a replicator repaint every copy")
    func nestedAndDamage() {
        let (renderer, root, _) = makeRenderer(width: 60, height: 60)
        let (row, square) = replicator(in: root, square: Rect(x: 0, y: 0, width: 10, height: 10)) {
            $0.instanceCount = 3
            $0.instanceTransform = Transform3D(translationX: 20, y: 0, z: 0)
        }
        let grid = ReplicatorLayer()
        Transaction.withoutActions {
            grid.frame = root.bounds
            grid.instanceCount = 3
            grid.instanceTransform = Transform3D(translationX: 0, y: 20, z: 0)
            row.removeFromSuperlayer()
            grid.addSublayer(row)
            root.addSublayer(grid)
        }
        Transaction.flush()
        var img = renderer.render()
        for i in 0..<3 { for j in 0..<3 { #expect(near(img.rgba8(x: 20 * i + 5, y: 20 * j + 5), (255, 0, 0, 255), 0), "cell \(i), \(j)") } }
        Transaction.withoutActions { square.backgroundColor = .blue; square.position.x += 3 }
        Transaction.flush()
        img = renderer.render()
        #expect(near(img.rgba8(x: 48, y: 48), (0, 0, 255, 255), 0) && near(img.rgba8(x: 41, y: 45), (255, 255, 255, 255), 0))
        #expect(img == fresh(root, width: 60, height: 60))
    }

    @Test("odd input: a billion copies are bounded with a diagnostic, a negative count and NaN transforms refused, none drawn at 0")
    func oddInput() {
        let (renderer, root, _) = makeRenderer(width: 40, height: 40)
        let (r, _) = replicator(in: root, square: Rect(x: 0, y: 0, width: 4, height: 4)) { _ in }
        let seen = Diagnostics.recording {
            r.instanceCount = 1_000_000_000
            r.instanceCount = -3
            r.instanceTransform = Transform3D(translationX: .nan, y: 0, z: 0)
            r.instanceDelay = .infinity
        }
        #expect(seen.count == 4)
        #expect(r.instanceCount == 1_000_000_000 && r.instances.count == ReplicatorLayer.maximumInstanceCount)
        #expect(r.instanceTransform == .identity && r.instanceDelay == 0)
        Transaction.withoutActions { r.instanceTransform = Transform3D(translationX: 0.003, y: 0.003, z: 0) }
        Transaction.flush()
        let img = renderer.render()   // 10,000 copies, each 0.003 further: a smear to 30, 30
        #expect(near(img.rgba8(x: 30, y: 30), (255, 0, 0, 255), 0) && near(img.rgba8(x: 36, y: 36), (255, 255, 255, 255), 0))
        Transaction.withoutActions { r.instanceCount = 0 }
        Transaction.flush()
        #expect(near(renderer.render().rgba8(x: 1, y: 1), (255, 255, 255, 255), 0))
    }
}
