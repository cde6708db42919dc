@testable import LayerKit
import Testing

/// Defects found by probing the public API as a careless program would (issue:
/// hostile input); each pinned with the documented outcome.
@MainActor
@Suite("Hostile input", .isolatedLayerContext)
struct HostileInputTests {
    func recordingDiagnostics(_ body: () -> Void) -> [LayerKitDiagnostic] {
        var seen: [LayerKitDiagnostic] = []
        let previous = Diagnostics.handler
        Diagnostics.handler = { seen.append($0) }
        body()
        Diagnostics.handler = previous
        return seen
    }

    @Test("masks that would close a loop are refused: an ancestor as mask, a mask's owner put under its mask (found by the fuzzer)")
    func maskLoops() {
        let seen = Diagnostics.recording {
            let root = Layer(), child = Layer(), grandchild = Layer(), mask = Layer()
            root.addSublayer(child)
            child.addSublayer(grandchild)
            grandchild.mask = root                 // its own ancestor
            #expect(grandchild.mask == nil)
            child.mask = mask
            mask.addSublayer(root)                 // the owner's tree under its own mask
            #expect(root.superlayer == nil)
            let other = Layer()
            mask.mask = other
            other.mask = mask                      // two masks of each other
            #expect(other.mask == nil)
            // Walks end: every layer once.
            var count = 0
            root.forEachInSubtree { _ in count += 1 }
            #expect(count == 5)
            // A layer is a sublayer or a mask, of one layer: it leaves where it was.
            let top = Layer(), owner = Layer(), shared = Layer(), second = Layer()
            top.addSublayer(shared)
            top.addSublayer(owner)
            owner.mask = shared
            #expect(shared.superlayer == nil && shared.maskOwner === owner)
            second.mask = shared                   // one owner at a time
            #expect(owner.mask == nil && shared.maskOwner === second)
            shared.addSublayer(owner)              // the owner of a mask… may now go under its old mask
            top.addSublayer(shared)                // …and the mask, made a sublayer, is no longer a mask
            #expect(second.mask == nil && shared.maskOwner == nil)
            var walked = 0
            top.forEachInSubtree { _ in walked += 1 }
            #expect(walked == 3)
        }
        #expect(seen.count == 3)
    }

    @Test("a path leaves out elements with a NaN or ∞ point, and a layer given one says so (found by the fuzzer)")
    func nonFinitePathPoints() {
        let path = Path()
        path.move(to: Point(x: 0, y: 0))
        path.addLine(to: Point(x: .nan, y: 80))
        path.addCurve(to: Point(x: 10, y: 10), control1: Point(x: .infinity, y: 0), control2: Point(x: 5, y: 5))
        path.addLine(to: Point(x: 10, y: 0))
        #expect(path.elements == [.move(Point(x: 0, y: 0)), .line(Point(x: 10, y: 0))])
        #expect(path.refusedElementCount == 2)
        let shape = ShapeLayer()
        let seen = recordingDiagnostics {
            shape.path = path
            shape.shadowPath = path
        }
        #expect(seen.count == 2)
        #expect(shape.path?.elements.count == 2 && shape.path?.refusedElementCount == 0)
        #expect(recordingDiagnostics { shape.path = Path(rect: Rect(x: 0, y: 0, width: 5, height: 5)) }.isEmpty)
    }

    @Test("shadowOpacity is clamped to 0…1 as opacity is (found by the fuzzer: 5.5 and −30.8 were kept)")
    func shadowOpacityClamped() {
        let layer = Layer()
        layer.shadowOpacity = 5.5
        #expect(layer.shadowOpacity == 1)
        layer.shadowOpacity = -30.8
        #expect(layer.shadowOpacity == 0)
    }

    @Test("negative corner radius, border width and shadow radius are refused — set, by key, or in an animation")
    func negativeLengths() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let seen = recordingDiagnostics {
            layer.cornerRadius = -50
            layer.borderWidth = -1
            layer.shadowRadius = -3
            layer.setValue(-10.0, forKey: "cornerRadius")
            let a = BasicAnimation(keyPath: "cornerRadius")
            a.toValue = -20.0
            layer.add(a, forKey: "r")
        }
        #expect(seen.count == 5)
        #expect(layer.cornerRadius == 0 && layer.borderWidth == 0 && layer.shadowRadius == 3)
        #expect(layer.animation(forKey: "r") == nil)
        let additive = BasicAnimation(keyPath: "cornerRadius")   // offsets may be negative
        additive.isAdditive = true
        additive.fromValue = -5.0
        additive.toValue = 0.0
        layer.add(additive, forKey: "offset")
        #expect(layer.animation(forKey: "offset") != nil)
    }

    @Test("a negative line width is refused like the other lengths — set, by key, or in an animation (found by the fuzzer)")
    func negativeLineWidth() {
        let f = Fixture()
        let shape = f.presentedLayer { ShapeLayer() }
        let seen = recordingDiagnostics {
            shape.lineWidth = -1e12
            shape.setValue(-2.0, forKey: "lineWidth")
            let a = BasicAnimation(keyPath: "lineWidth")
            a.toValue = -3.0
            shape.add(a, forKey: "w")
        }
        #expect(seen.count == 3)
        #expect(shape.lineWidth == 1 && shape.animation(forKey: "w") == nil)
    }

    @Test("NaN and ±∞ in animation values are refused when added, as on the model; presentations never show NaN")
    func nonFiniteAnimationValues() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let seen = recordingDiagnostics {
            let a = BasicAnimation(keyPath: "opacity")
            a.fromValue = Double.nan
            layer.add(a, forKey: "a")
            let b = BasicAnimation(keyPath: "position")
            b.toValue = Point(x: .nan, y: .infinity)
            layer.add(b, forKey: "b")
            let c = KeyframeAnimation(keyPath: "opacity")
            c.values = [0.0, Double.infinity, 1.0]
            layer.add(c, forKey: "c")
            let path = Path()
            path.move(to: .zero)
            path.addLine(to: Point(x: .nan, y: 1))
            let d = KeyframeAnimation(keyPath: "position")
            d.path = path
            layer.add(d, forKey: "d")
            layer.opacity = .infinity
            layer.opacity = -.infinity
        }
        #expect(seen.count == 6)
        #expect(layer.animationKeys.isEmpty && layer.opacity == 1)
        Transaction.flush()
        f.advance(0.1)
        let p = layer.presentation()!
        #expect(!p.opacity.isNaN && p.position.x.isFinite && p.position.y.isFinite)
    }

    @Test("a time before the start over a cycle of a denormal duration (−∞ cycles) is no crash, on the typed and the general path (found by the fuzzer)")
    func infiniteCycleNumber() {
        let f = Fixture()
        let layer = f.presentedLayer()
        for cumulative in [false, true] {   // a cumulative animation reads the cycle's number
            let a = BasicAnimation(keyPath: "opacity")
            (a.fromValue, a.toValue, a.isCumulative) = (0.0, 0.5, cumulative)
            a.duration = .leastNonzeroMagnitude
            a.repeatCount = .infinity
            a.timeOffset = -1
            a.fillMode = .both
            layer.add(a, forKey: "a")
            Transaction.flush()
            for step in [0.0, 0.5, 1e9] {
                f.advance(step)
                let shown = layer.presentation()!.opacity
                #expect(shown.isFinite, "cumulative: \(cumulative), \(shown)")
                #expect(layer.presentationState(atTime: f.clock.now).opacity.isFinite)
            }
        }
    }

    @Test("a keyframe value of the wrong type names the type the property wants")
    func keyframeTypeNames() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let seen = recordingDiagnostics {
            let a = KeyframeAnimation(keyPath: "position")
            a.values = [1.0, "x"]
            layer.add(a, forKey: "a")
        }
        #expect(seen == [.typeMismatch(keyPath: "position", expected: "Point", got: "Double")])
    }

    @Test("insertSublayer below or above a layer that is not a sublayer says so")
    func foreignSiblings() {
        let f = Fixture()
        let parent = f.presentedLayer(), stranger = Layer(), a = Layer(), b = Layer()
        parent.addSublayer(Layer())
        let seen = recordingDiagnostics {
            parent.insertSublayer(a, below: stranger)
            parent.insertSublayer(b, above: stranger)
        }
        #expect(seen.count == 2)
        #expect(parent.sublayers.first === a && parent.sublayers.last === b)
    }

    @Test("setValue(_:forKey:) on a shape layer's property runs its action once and asks the delegate once")
    func shapeLayerActionOnce() {
        final class Counting: LayerDelegate {
            var asked = 0
            func action(for layer: Layer, forKey event: String) -> (any Action)? {
                if event == "fillColor" { asked += 1 }
                return nil
            }
        }
        let f = Fixture()
        let shape = f.presentedLayer { ShapeLayer() }
        let action = RecordingAction()
        shape.actions["fillColor"] = action
        let delegate = Counting()
        shape.delegate = delegate
        shape.setValue(Color.red, forKey: "fillColor")
        #expect(action.runs.count == 1 && delegate.asked == 1)
        #expect(shape.fillColor == .red)
    }

    @Test("an animation added in animationDidStop while only a ManualMediaClock drives time begins and ends")
    func animationAddedInStopCallback() {
        final class Chain: AnimationDelegate {
            let layer: Layer
            var started = 0
            init(_ layer: Layer) { self.layer = layer }
            func animationDidStop(_ animation: Animation, finished: Bool) {
                guard started == 0 else { return }
                started += 1
                let next = BasicAnimation(keyPath: "opacity")
                next.fromValue = 0.0
                next.toValue = 1.0
                next.duration = 0.5
                layer.add(next, forKey: "next")
            }
        }
        let f = Fixture()
        let layer = f.presentedLayer()
        let first = BasicAnimation(keyPath: "opacity")
        first.duration = 0.5
        let chain = Chain(layer)
        first.delegate = chain
        layer.add(first, forKey: "first")
        Transaction.flush()
        f.advance(0.5)
        #expect(layer.animationKeys == ["next"])
        #expect(layer.animation(forKey: "next")!.beginTime == 100.5)   // committed at the end of the advance
        f.advance(0.5)
        #expect(layer.animationKeys.isEmpty)
    }
}

extension HostileInputTests {
    @Test("deep trees: 50,000 levels flush, lay out, display, check and go away without running out of stack")
    func deepTrees() {
        let f = Fixture()
        // Built from the bottom up (each insertion then looks at a short chain), then hung in the tree.
        let deepest = Layer()
        var top = deepest
        Transaction.withoutActions {
            for _ in 0..<50_000 {
                let parent = Layer()
                parent.addSublayer(top)
                top = parent
            }
            f.root.addSublayer(top)
        }
        deepest.setNeedsLayout()
        deepest.setNeedsDisplay()
        Transaction.flush()           // marks every layer presented: a walk of the whole tree
        f.root.layoutIfNeeded()
        f.root.displayIfNeededInSubtree()
        #expect(f.root.checkInvariants().isEmpty)
        #expect(!deepest.isLayoutPendingInSubtree)
        #expect(deepest.hasBeenPresented)
    }

    @Test("100,000 siblings: removing and inserting among them keeps order and finds each by address")
    func manySiblings() {
        let f = Fixture()
        let parent = f.presentedLayer()
        var children: [Layer] = []
        Transaction.withoutActions {
            for _ in 0..<100_000 {
                let l = Layer()
                parent.addSublayer(l)
                children.append(l)
            }
            for i in stride(from: 0, to: 100_000, by: 100) { children[i].removeFromSuperlayer() }
            parent.insertSublayer(children[0], above: children[99_999])
            parent.insertSublayer(children[100], below: children[1])
        }
        #expect(parent.sublayers.count == 99_002)
        #expect(parent.sublayers.last === children[0] && parent.sublayers.first === children[100])
        #expect(parent.indexOfSublayer(children[50_001]) == 49_501)
        #expect(parent.checkInvariants().isEmpty)
    }
}

import Dispatch
import LayerKitTesting

extension HostileInputTests {
    @Test("a Path shared between threads: concurrent additions and flattenings lose nothing")
    func pathAcrossThreads() {
        let path = Path()
        path.move(to: .zero)
        DispatchQueue.concurrentPerform(iterations: 8) { i in
            for j in 0..<200 {
                path.addLine(to: Point(x: Double(i), y: Double(j)))
                _ = path.polylines
            }
        }
        #expect(path.elements.count == 1 + 8 * 200)
        #expect(path.polylines.first?.count == 1 + 8 * 200)
    }
}
