@testable import Strata
import Testing
import LayerKitTesting

/// layoutSubviews, autoresizing, sizing and stack views.
@MainActor
@Suite("Layout", .isolatedLayerContext)
struct LayoutTests {
    final class CountingView: View {
        var layouts: [Size] = []
        var relayoutForever = false
        override func layoutSubviews() {
            layouts.append(bounds.size)
            if relayoutForever { setNeedsLayout() }
        }
        override func sizeThatFits(_ size: Size) -> Size { Size(width: 42, height: 7) }
    }

    @Test("layoutSubviews runs once after setNeedsLayout and after a size change, not otherwise")
    func layoutWhenMarked() {
        let f = ViewFixture()
        let view = CountingView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        f.window.rootView.addSubview(view)
        view.layoutIfNeeded()
        view.layouts = []
        view.layoutIfNeeded()
        #expect(view.layouts.isEmpty)
        view.setNeedsLayout()
        view.setNeedsLayout()
        view.layoutIfNeeded()
        #expect(view.layouts.count == 1)
        view.center = Point(x: 50, y: 50)        // a move is not a size change
        view.layoutIfNeeded()
        #expect(view.layouts.count == 1)
        view.bounds.size = Size(width: 20, height: 30)
        f.window.layoutIfNeeded()                // from the top, as a frame does
        #expect(view.layouts == [Size(width: 10, height: 10), Size(width: 20, height: 30)])
    }

    @Test("a layoutSubviews that marks itself forever is cut off with one diagnostic")
    func layoutLoop() {
        let f = ViewFixture()
        let view = CountingView(frame: Rect(x: 0, y: 0, width: 10, height: 10))
        view.relayoutForever = true
        f.window.rootView.addSubview(view)
        view.layoutIfNeeded()
        #expect(view.layouts.count == View.maximumLayoutPasses)
        view.layoutIfNeeded()
        #expect(f.diagnostics.filter { if case .layoutLoop = $0 { true } else { false } }.count == 1)
    }

    @Test("sizeToFit takes sizeThatFits and keeps the origin")
    func sizeToFit() {
        _ = ViewFixture()
        let view = CountingView(frame: Rect(x: 5, y: 6, width: 100, height: 100))
        view.sizeToFit()
        #expect(view.frame == Rect(x: 5, y: 6, width: 42, height: 7))
        #expect(View().intrinsicContentSize == Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric))
    }

    @Test("autoresizing masks share a size change among the flexible parts")
    func autoresizing() {
        _ = ViewFixture()
        let parent = View(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let stretch = View(frame: Rect(x: 10, y: 10, width: 180, height: 80))
        stretch.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        let pinnedRight = View(frame: Rect(x: 150, y: 10, width: 40, height: 20))
        pinnedRight.autoresizingMask = [.flexibleLeftMargin]
        let centred = View(frame: Rect(x: 50, y: 40, width: 100, height: 20))
        centred.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        let fixed = View(frame: Rect(x: 5, y: 5, width: 5, height: 5))
        for v in [stretch, pinnedRight, centred, fixed] { parent.addSubview(v) }
        parent.frame = Rect(x: 0, y: 0, width: 300, height: 150)
        #expect(stretch.frame == Rect(x: 10, y: 10, width: 280, height: 130))
        #expect(pinnedRight.frame == Rect(x: 250, y: 10, width: 40, height: 20))
        #expect(centred.frame == Rect(x: 100, y: 40, width: 100, height: 20))
        #expect(fixed.frame == Rect(x: 5, y: 5, width: 5, height: 5))
    }

    final class Sized: View {
        let natural: Size
        init(_ w: Double, _ h: Double) { natural = Size(width: w, height: h); super.init(frame: .zero) }
        override var intrinsicContentSize: Size { natural }
    }

    @Test("stack view: fill gives the rest to views without an intrinsic size; spacing between")
    func stackFill() {
        let f = ViewFixture()
        let a = Sized(50, 20), b = View(), c = Sized(30, 40)
        let stack = StackView(arrangedSubviews: [a, b, c])
        stack.spacing = 10
        stack.frame = Rect(x: 0, y: 0, width: 300, height: 60)
        f.window.rootView.addSubview(stack)
        #expect(stack.intrinsicContentSize == Size(width: 100, height: 40))   // b has no size yet
        stack.layoutIfNeeded()
        #expect(a.frame == Rect(x: 0, y: 0, width: 50, height: 60))
        #expect(b.frame == Rect(x: 60, y: 0, width: 200, height: 60))
        #expect(c.frame == Rect(x: 270, y: 0, width: 30, height: 60))
    }

    @Test("stack view: fillEqually, equalSpacing, vertical axis with centre alignment")
    func stackDistributions() {
        let f = ViewFixture()
        let a = Sized(40, 20), b = Sized(60, 30)
        let stack = StackView(arrangedSubviews: [a, b])
        stack.frame = Rect(x: 0, y: 0, width: 200, height: 100)
        f.window.rootView.addSubview(stack)
        stack.distribution = .fillEqually
        stack.spacing = 20
        stack.layoutIfNeeded()
        #expect(a.frame.width == 90 && b.frame.minX == 110)
        stack.distribution = .equalSpacing
        stack.layoutIfNeeded()
        #expect(a.frame.width == 40 && b.frame.minX == 140)
        stack.axis = .vertical
        stack.alignment = .center
        stack.distribution = .fill
        stack.layoutIfNeeded()
        #expect(a.frame == Rect(x: 80, y: 0, width: 40, height: 20))
        #expect(b.frame == Rect(x: 70, y: 40, width: 60, height: 60))   // the last takes the rest
    }

    @Test("stack view: hiding an arranged subview inside a block animates the others into the gap")
    func stackHideAnimated() {
        let f = ViewFixture()
        let a = Sized(50, 20), b = Sized(50, 20), c = Sized(50, 20)
        let stack = StackView(arrangedSubviews: [a, b, c])
        stack.distribution = .equalSpacing
        stack.frame = Rect(x: 0, y: 0, width: 150, height: 20)
        f.window.rootView.addSubview(stack)
        stack.layoutIfNeeded()
        Transaction.flush()
        #expect(c.frame.minX == 100)
        View.animate(duration: 1, options: .curveLinear) { b.isHidden = true }
        #expect(c.frame.minX == 100 && a.frame.minX == 0)   // two left: equal spacing puts c at the end still
        stack.distribution = .fill
        stack.layoutIfNeeded()
        View.animate(duration: 1, options: .curveLinear) { c.isHidden = false; b.isHidden = false }
        View.animate(duration: 1, options: .curveLinear) { b.isHidden = true }
        Transaction.flush()
        f.advance(0.5)
        #expect(c.frame.minX == 50)
        #expect(c.layer.animationKeys.contains("position"))
        #expect(f.shownPoint(c).x > 75 && f.shownPoint(c).x < 125)   // on its way from x 100 to 50
    }
}
