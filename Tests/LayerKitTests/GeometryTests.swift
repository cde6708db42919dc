@testable import LayerKit
import Testing
import Glibc
import LayerKitTesting

/// Layer geometry and defaults (rules L1–L4), and the value types under them.
@MainActor
@Suite("Geometry and defaults (L1–L4)", .serialized, .isolatedLayerContext)
struct GeometryTests {
    @Test("rule L1: a new layer has Core Animation's defaults")
    func ruleL1LayerDefaults() {
        _ = Fixture()
        let l = Layer()
        #expect(l.bounds == .zero && l.position == .zero)
        #expect(l.anchorPoint == Point(x: 0.5, y: 0.5) && l.zPosition == 0)
        #expect(l.transform == .identity && l.sublayerTransform == .identity)
        #expect(l.opacity == 1 && !l.isHidden && !l.masksToBounds && l.isDoubleSided)
        #expect(l.cornerRadius == 0 && l.borderWidth == 0)
        #expect(l.shadowOpacity == 0 && l.shadowRadius == 3 && l.shadowOffset == Size(width: 0, height: -3))
        #expect(l.shadowColor == .black)
        #expect(l.contentsRect == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(l.speed == 1 && l.timeOffset == 0 && l.beginTime == 0)
        #expect(l.sublayers.isEmpty && l.superlayer == nil && l.actions.isEmpty && l.style.isEmpty)
    }

    @Test("rule L1: animation and spring defaults")
    func ruleL1AnimationDefaults() {
        let a = BasicAnimation(keyPath: "opacity")
        #expect(a.duration == 0 && a.isRemovedOnCompletion && a.fillMode == .removed && a.timingFunction == nil)
        #expect(a.speed == 1 && a.repeatCount == 0 && !a.autoreverses && !a.isAdditive && !a.isCumulative)
    }

    @Test("rule L1: an animation added with duration 0 runs for the transaction's duration")
    func ruleL1ZeroDurationTakesTransactionDuration() {
        let f = Fixture()
        let l = f.presentedLayer()
        Transaction.begin()
        Transaction.animationDuration = 2
        l.add(BasicAnimation(keyPath: "opacity"), forKey: "fade")
        Transaction.commit()
        #expect(l.animation(forKey: "fade")?.duration == 2)
        let b = BasicAnimation(keyPath: "opacity")
        l.add(b, forKey: "fade2")
        #expect(l.animation(forKey: "fade2")?.duration == 0.25)
    }

    @Test("rule L2: frame places the bounds size so the anchor point lies at position")
    func ruleL2FrameFromPositionAndAnchor() {
        _ = Fixture()
        let l = Layer()
        l.bounds = Rect(x: 7, y: 9, width: 100, height: 50)   // the bounds origin plays no part
        l.position = Point(x: 50, y: 25)
        #expect(l.frame == Rect(x: 0, y: 0, width: 100, height: 50))
        l.anchorPoint = .zero
        l.position = Point(x: 10, y: 20)
        #expect(l.frame == Rect(x: 10, y: 20, width: 100, height: 50))
        l.anchorPoint = Point(x: 1, y: 1)
        #expect(l.frame == Rect(x: -90, y: -30, width: 100, height: 50))
    }

    @Test("rule L2: frame is transformed about the anchor point, as a bounding box")
    func ruleL2FrameWithTransform() {
        _ = Fixture()
        let l = Layer()
        l.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        l.position = Point(x: 50, y: 25)
        l.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        #expect(l.frame == Rect(x: -50, y: -25, width: 200, height: 100))
        l.transform = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let f = l.frame
        #expect(approx(f.origin.x, 25) && approx(f.origin.y, -25) && approx(f.size.width, 50) && approx(f.size.height, 100))
    }

    @Test("rule L2: setting frame sets position and bounds size, keeping bounds origin")
    func ruleL2SettingFrame() {
        _ = Fixture()
        let l = Layer()
        l.bounds = Rect(x: 5, y: 5, width: 1, height: 1)
        l.frame = Rect(x: 10, y: 10, width: 40, height: 20)
        #expect(l.bounds == Rect(x: 5, y: 5, width: 40, height: 20))
        #expect(l.position == Point(x: 30, y: 20))
        l.frame = Rect(x: 10, y: 10, width: -20, height: -30)   // standardised
        #expect(l.frame == Rect(x: -10, y: -20, width: 20, height: 30))
        l.transform = Transform3D(scaleX: 2, y: 2, z: 1)
        l.frame = Rect(x: 0, y: 0, width: 200, height: 100)   // the transform taken back out
        #expect(l.bounds.size == Size(width: 100, height: 50))
        #expect(l.position == Point(x: 100, y: 50))
        #expect(l.frame == Rect(x: 0, y: 0, width: 200, height: 100))
    }

    @Test("rule L3: each layer maps its parent's time by (t − beginTime)·speed + timeOffset")
    func ruleL3TimeConversion() {
        _ = Fixture()
        let parent = Layer(), child = Layer()
        parent.addSublayer(child)
        parent.beginTime = 1
        parent.speed = 2
        child.timeOffset = 3
        #expect(parent.convertTime(10, from: nil) == 18)
        #expect(child.convertTime(10, from: nil) == 21)
        #expect(child.convertTime(21, to: nil) == 10)
        #expect(child.convertTime(18, from: parent) == 21)
        #expect(parent.convertTime(21, from: child) == 18)
    }

    @Test("rule L4: coordinates are y-down; positive z rotation turns clockwise on screen")
    func ruleL4YDown() {
        _ = Fixture()
        let parent = Layer(), child = Layer()
        parent.addSublayer(child)
        child.anchorPoint = .zero
        child.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        child.position = Point(x: 0, y: 100)
        #expect(child.convert(Point(x: 0, y: 0), to: parent) == Point(x: 0, y: 100))
        let turned = Point(x: 1, y: 0).applying(Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1).affineTransform)
        #expect(approx(turned, Point(x: 0, y: 1)))   // +x turns towards +y: down the screen
        #expect(approx(child.convert(Point(x: 0, y: 100), from: parent), .zero))
    }

    @Test("transforms decompose and recompose to the same matrix")
    func transformDecompositionRoundTrip() throws {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var t = Transform3D(scaleX: .random(in: 0.2...3, using: &rng), y: .random(in: 0.2...3, using: &rng), z: .random(in: 0.2...3, using: &rng))
            t = t.concatenating(Transform3D(rotationAngle: .random(in: -3...3, using: &rng), x: .random(in: -1...1, using: &rng), y: .random(in: -1...1, using: &rng), z: 1))
            t = t.concatenating(Transform3D(translationX: .random(in: -50...50, using: &rng), y: .random(in: -50...50, using: &rng), z: .random(in: -5...5, using: &rng)))
            if Bool.random(using: &rng) { t.m34 = -1 / 500 }
            let back = try #require(t.decomposed).recomposed
            for (a, b) in zip(t.rows.joined(), back.rows.joined()) {
                #expect(abs(a - b) < 1e-9, "\(t) → \(back)")
            }
        }
    }

    @Test("transforms interpolate by decomposition: half of a quarter turn is an eighth turn")
    func transformInterpolationIsARotation() {
        let a = Transform3D.identity
        let b = Transform3D(rotationAngle: .pi / 2, x: 0, y: 0, z: 1)
        let half = a.interpolated(to: b, fraction: 0.5)
        let expected = Transform3D(rotationAngle: .pi / 4, x: 0, y: 0, z: 1)
        for (x, y) in zip(half.rows.joined(), expected.rows.joined()) { #expect(abs(x - y) < 1e-12) }
        // Element-wise interpolation would give a matrix with determinant 0.5, not 1.
        #expect(abs(half.determinant - 1) < 1e-12)
    }

    @Test("colours interpolate in premultiplied space")
    func colourInterpolationPremultiplied() {
        let mid = Color.clear.interpolated(to: .red, fraction: 0.5)
        #expect(mid == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
    }

    @Test("paths measure along their curves")
    func pathLength() throws {
        let circle = Path(ellipseIn: Rect(x: 0, y: 0, width: 100, height: 100))
        #expect(abs(circle.length - .pi * 100) < 0.1)
        let line = Path()
        line.move(to: .zero)
        line.addLine(to: Point(x: 30, y: 40))
        #expect(line.length == 50)
        let mid = try #require(line.point(atDistance: 25))
        #expect(approx(mid.point, Point(x: 15, y: 20)))
        #expect(Path().point(atDistance: 1) == nil)
    }
}

/// Timing functions (rule E10) against an independent evaluation.
/// Layout and display before a frame: done where marked, wherever the mark was made.
@MainActor
@Suite("Layout and display passes", .serialized, .isolatedLayerContext)
struct LayoutDisplayPassTests {
    final class Counter: LayerDelegate {
        var layouts: [String] = [], displays: [String] = []
        func layoutSublayers(of layer: Layer) { layouts.append(layer.name ?? "?") }
        func display(_ layer: Layer) { displays.append(layer.name ?? "?") }
    }

    @Test("marks made on layers outside a tree are carried in when they join one; unmarked layers are left alone")
    func marksTravelWithLayers() {
        let f = Fixture()
        let counter = Counter()
        func layer(_ name: String) -> Layer {
            let l = Layer()
            l.name = name
            l.delegate = counter
            return l
        }
        let branch = layer("branch"), leaf = layer("leaf"), other = layer("other")
        branch.addSublayer(leaf)
        leaf.setNeedsLayout()
        leaf.setNeedsDisplay()
        f.root.layoutIfNeeded()
        f.root.displayIfNeededInSubtree()
        #expect(counter.layouts.isEmpty && counter.displays.isEmpty, "not in the tree yet")
        f.root.addSublayer(branch)
        f.root.addSublayer(other)
        f.root.layoutIfNeeded()
        f.root.displayIfNeededInSubtree()
        #expect(counter.layouts == ["leaf"] && counter.displays == ["leaf"])
        f.root.layoutIfNeeded()
        f.root.displayIfNeededInSubtree()
        #expect(counter.layouts == ["leaf"] && counter.displays == ["leaf"], "done once")
        other.setNeedsLayout()
        f.root.layoutIfNeeded()
        #expect(counter.layouts == ["leaf", "other"])
    }
}

@Suite("Timing functions (E10)", .isolatedLayerContext)
struct TimingFunctionTests {
    /// The curve's y at x, by bisection on the parameter to full double precision.
    static func reference(_ c: [Double], _ x: Double) -> Double {
        func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if b(mid, c[0], c[2]) < x { lo = mid } else { hi = mid }
        }
        return b((lo + hi) / 2, c[1], c[3])
    }

    @Test("rule E10: named curves have Core Animation's control points")
    func ruleE10NamedControlPoints() {
        #expect(MediaTimingFunction(name: .easeIn).controlPoints == [0.42, 0, 1, 1])
        #expect(MediaTimingFunction(name: .easeOut).controlPoints == [0, 0, 0.58, 1])
        #expect(MediaTimingFunction(name: .easeInEaseOut).controlPoints == [0.42, 0, 0.58, 1])
        #expect(MediaTimingFunction(name: .default).controlPoints == [0.25, 0.1, 0.25, 1])
        #expect(MediaTimingFunction(name: .linear).controlPoints == [0, 0, 1, 1])
    }

    @Test("rule E10: cubic Bézier values match an independent evaluation", arguments: [
        [0.42, 0, 1, 1], [0, 0, 0.58, 1], [0.42, 0, 0.58, 1], [0.25, 0.1, 0.25, 1], [0.9, -0.5, 0.1, 1.5], [1, 0, 0, 1],
    ])
    func ruleE10CubicBezierValues(_ c: [Double]) {
        let f = MediaTimingFunction(controlPoints: c[0], c[1], c[2], c[3])
        for i in 0...100 {
            let x = Double(i) / 100
            #expect(abs(f.value(at: x) - Self.reference(c, x)) < 1e-9, "x = \(x)")
        }
        #expect(f.value(at: 0) == 0 && f.value(at: 1) == 1)
        #expect(f.value(at: -1) == 0 && f.value(at: 2) == 1 && f.value(at: .nan) == 0)
    }

    @Test("rule E10: linear is the identity and ease-in-out is symmetric")
    func ruleE10Shapes() {
        #expect(MediaTimingFunction.linear.value(at: 0.3) == 0.3)
        #expect(abs(MediaTimingFunction.easeInEaseOut.value(at: 0.5) - 0.5) < 1e-12)
        #expect(MediaTimingFunction.easeIn.value(at: 0.25) < 0.25)
        #expect(MediaTimingFunction.easeOut.value(at: 0.25) > 0.25)
    }
}
