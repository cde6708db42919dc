@testable import Strata
import Testing
import LayerKitTesting

/// Views and their backing layers (rules V1, V2), geometry, the view tree and its hooks.
@MainActor
@Suite("Views", .isolatedLayerContext)
struct ViewTests {
    final class ShapeView: View {
        override class var layerClass: Layer.Type { ShapeLayer.self }
    }

    @Test("rule V1: every view owns one backing layer of its layerClass and is its delegate")
    func backingLayer() {
        _ = ViewFixture()
        let view = View(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        #expect(type(of: view.layer) == Layer.self)
        #expect(view.layer.delegate === view)
        let shape = ShapeView(frame: .zero)
        #expect(shape.layer is ShapeLayer)
        #expect(shape.layer.delegate === shape)
    }

    @Test("rule V2: outside a block, changes through the view and directly on its layer are immediate")
    func noAnimationOutsideBlocks() {
        let f = ViewFixture()
        let view = f.addView()
        view.alpha = 0.25
        view.center = Point(x: 200, y: 100)
        view.layer.cornerRadius = 8
        view.layer.backgroundColor = .blue
        #expect(view.layer.animationKeys.isEmpty)
        Transaction.flush()
        #expect(close(f.shownDouble(view, "opacity"), 0.25))
        #expect(close(f.shownPoint(view), Point(x: 200, y: 100)))
        #expect(view.layer.action(forKey: "opacity") == nil)   // NullAction ends the search
    }

    @Test("rule V2: a plain layer in the same tree keeps its implicit animation (rule B1)")
    func plainLayersStillAnimate() {
        let f = ViewFixture()
        let view = f.addView()
        let plain = Layer()
        plain.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        view.layer.addSublayer(plain)
        Transaction.flush()
        plain.opacity = 0
        #expect(plain.animationKeys == ["opacity"])
        Transaction.flush()
        f.advance(0.125)
        let shown = plain.presentation()!.opacity
        #expect(shown > 0.1 && shown < 0.9)
    }

    @Test("frame, bounds, center, alpha and transform read and write the layer (rule L2)")
    func geometry() {
        _ = ViewFixture()
        let view = View(frame: Rect(x: 10, y: 20, width: 100, height: 50))
        #expect(view.center == Point(x: 60, y: 45))
        #expect(view.bounds == Rect(x: 0, y: 0, width: 100, height: 50))
        view.transform = AffineTransform(scaleX: 2, y: 2)
        #expect(view.frame == Rect(x: -40, y: -5, width: 200, height: 100))
        #expect(view.layer.transform == Transform3D(scaleX: 2, y: 2, z: 1))
        view.alpha = 3
        #expect(view.alpha == 1)
        view.clipsToBounds = true
        #expect(view.layer.masksToBounds)
        view.contentMode = .scaleAspectFit
        #expect(view.layer.contentsGravity == .resizeAspect)
    }

    @Test("NaN and infinite frames are refused with a diagnostic and leave the view as it was")
    func nonFiniteFrame() {
        let f = ViewFixture()
        let view = f.addView(Rect(x: 0, y: 0, width: 30, height: 30))
        view.frame = Rect(x: .nan, y: 0, width: 10, height: 10)
        view.frame = Rect(x: 0, y: 0, width: .infinity, height: 10)
        view.alpha = .nan
        view.center = Point(x: 0, y: -.infinity)
        #expect(view.frame == Rect(x: 0, y: 0, width: 30, height: 30))
        #expect(view.alpha == 1)
        #expect(f.diagnostics.count == 4)
    }

    @Test("convert(_:to:) and convert(_:from:) go through every transform on the way")
    func conversions() {
        let f = ViewFixture()
        let outer = f.addView(Rect(x: 100, y: 100, width: 100, height: 100))
        let inner = View(frame: Rect(x: 10, y: 10, width: 20, height: 20))
        outer.addSubview(inner)
        outer.transform = AffineTransform(rotationAngle: .pi / 2)   // about its centre (150, 150)
        let p = inner.convert(Point(x: 0, y: 0), to: nil)           // inner's origin is outer's (10, 10)
        #expect(close(p, Point(x: 190, y: 110)))
        #expect(close(inner.convert(p, from: nil), .zero))
        let r = inner.convert(Rect(x: 0, y: 0, width: 20, height: 20), to: outer)
        #expect(close(r.origin, Point(x: 10, y: 10)) && close(r.size.width, 20))
        let other = f.addView(Rect(x: 0, y: 0, width: 50, height: 50))
        #expect(close(other.convert(Point(x: 5, y: 5), to: inner), inner.convert(Point(x: 5, y: 5), from: other)))
    }

    @Test("subviews and sublayers stay in the same order through every way of inserting")
    func subviewOrder() {
        let f = ViewFixture()
        let parent = f.addView()
        let a = View(), b = View(), c = View(), d = View()
        parent.addSubview(a)
        parent.addSubview(c)
        parent.insertSubview(b, belowSubview: c)
        parent.insertSubview(d, aboveSubview: a)
        #expect(parent.subviews.map { ObjectIdentifier($0) } == [a, d, b, c].map { ObjectIdentifier($0) })
        parent.bringSubviewToFront(a)
        parent.sendSubviewToBack(c)
        parent.exchangeSubview(at: 1, withSubviewAt: 2)
        let expected = [c, b, d, a]
        #expect(parent.subviews.map { ObjectIdentifier($0) } == expected.map { ObjectIdentifier($0) })
        #expect(parent.layer.sublayers.map { ObjectIdentifier($0) } == expected.map { ObjectIdentifier($0.layer) })
        parent.insertSubview(a, at: 99)   // out of range: appended, with a diagnostic
        #expect(parent.subviews.last === a)
        #expect(f.diagnostics.count == 1)
        b.removeFromSuperview()
        #expect(b.superview == nil && b.layer.superlayer == nil && parent.subviews.count == 3)
    }

    @Test("sublayers added to a view's layer directly keep their place among the subviews' layers")
    func foreignSublayers() {
        let f = ViewFixture()
        let parent = f.addView()
        let a = View()
        parent.addSubview(a)
        let decoration = Layer()
        parent.layer.addSublayer(decoration)
        let b = View()
        parent.insertSubview(b, at: 0)
        #expect(parent.layer.sublayers.map { ObjectIdentifier($0) } == [b.layer, a.layer, decoration].map { ObjectIdentifier($0) })
    }

    @Test("adding a view to itself or to its own subtree is refused and leaves the tree unchanged")
    func cyclesRefused() {
        let f = ViewFixture()
        let a = f.addView()
        let b = View()
        a.addSubview(b)
        a.addSubview(a)
        b.addSubview(a)
        #expect(a.superview === f.window.rootView && b.superview === a && b.subviews.isEmpty)
        #expect(a.layer.superlayer === f.window.rootView.layer)
        #expect(f.diagnostics.count == 2)
        #expect(f.diagnostics.allSatisfy { if case .invalidView = $0 { true } else { false } })
    }

    final class HookView: View {
        var log: [String] = []
        let name: String
        init(_ name: String, log: [String] = []) { self.name = name; super.init(frame: .zero) }
        override func willMove(toSuperview newSuperview: View?) { Self.events.append("\(name) willMoveToSuperview \(newSuperview == nil ? "nil" : "view")") }
        override func didMoveToSuperview() { Self.events.append("\(name) didMoveToSuperview") }
        override func willMove(toWindow newWindow: Window?) { Self.events.append("\(name) willMoveToWindow \(newWindow == nil ? "nil" : "window")") }
        override func didMoveToWindow() { Self.events.append("\(name) didMoveToWindow \(window == nil ? "nil" : "window")") }
        override func didAddSubview(_ subview: View) { Self.events.append("\(name) didAddSubview") }
        override func willRemoveSubview(_ subview: View) { Self.events.append("\(name) willRemoveSubview") }
        nonisolated(unsafe) static var events: [String] = []
    }

    @Test("the tree hooks run in UIKit's order, for the whole moved subtree")
    func hooks() {
        let f = ViewFixture()
        let parent = HookView("parent")
        let child = HookView("child")
        let grandchild = HookView("grandchild")
        child.addSubview(grandchild)
        HookView.events = []
        parent.addSubview(child)
        #expect(HookView.events == ["child willMoveToSuperview view", "parent didAddSubview", "child didMoveToSuperview"])
        HookView.events = []
        f.window.rootView.addSubview(parent)
        #expect(HookView.events == [
            "parent willMoveToSuperview view", "parent willMoveToWindow window", "child willMoveToWindow window",
            "grandchild willMoveToWindow window", "parent didMoveToSuperview", "parent didMoveToWindow window",
            "child didMoveToWindow window", "grandchild didMoveToWindow window",
        ])
        #expect(grandchild.window === f.window)
        HookView.events = []
        child.removeFromSuperview()
        #expect(HookView.events == [
            "parent willRemoveSubview", "child willMoveToSuperview nil", "child willMoveToWindow nil",
            "grandchild willMoveToWindow nil", "child didMoveToSuperview", "child didMoveToWindow nil",
            "grandchild didMoveToWindow nil",
        ])
    }

    @Test("viewWithTag finds the view itself or the first tagged view below it, depth first")
    func tags() {
        let f = ViewFixture()
        let a = f.addView()
        let b = View(), c = View(), d = View()
        a.addSubview(b)
        b.addSubview(c)
        a.addSubview(d)
        c.tag = 7
        d.tag = 7
        #expect(a.viewWithTag(7) === c)
        #expect(a.viewWithTag(0) === a)
        #expect(a.viewWithTag(42) == nil)
    }

    @Test("the responder chain runs view → superview → window → application")
    func responderChain() {
        let f = ViewFixture()
        let view = f.addView()
        #expect(view.next === f.window.rootView)
        #expect(f.window.rootView.next === f.window)
        #expect(f.window.next === Application.shared)
        #expect(Application.shared.next == nil)
    }
}
