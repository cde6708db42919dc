@testable import Strata
import Testing
import LayerKitTesting
import PixmanRender

/// Auto Layout: anchors and constraints solved against hand-solved systems,
/// priorities, intrinsic sizes, conflicts, guides, moves between trees, and the
/// animation idiom (rules C2, C3).
@MainActor
@Suite("Auto Layout", .isolatedLayerContext)
struct AutoLayoutTests {
    /// A view with a fixed intrinsic size.
    final class SizedView: View {
        var size: Size { didSet { invalidateIntrinsicContentSize() } }
        init(_ w: Double, _ h: Double) {
            size = Size(width: w, height: h)
            super.init(frame: .zero)
            translatesAutoresizingMaskIntoConstraints = false
        }
        override var intrinsicContentSize: Size { size }
    }

    func constrained(in f: ViewFixture, color: Color = .red) -> View {
        let v = View()
        v.backgroundColor = color
        v.translatesAutoresizingMaskIntoConstraints = false
        f.window.rootView.addSubview(v)
        return v
    }

    func px(_ img: RenderedImage, _ x: Int, _ y: Int) -> [UInt8] {
        let p = img.rgba8(x: x, y: y)
        return [p.r, p.g, p.b, p.a]
    }

    func layoutErrors(_ f: ViewFixture) -> [String] {
        f.diagnostics.compactMap { if case .layoutConstraints(let s) = $0 { s } else { nil } }
    }

    @Test("edges, sizes and a multiplier: frames equal the hand-solved system")
    func handSolved() {
        let f = ViewFixture()   // 400 × 300
        let root = f.window.rootView
        let a = constrained(in: f), b = constrained(in: f), c = constrained(in: f)
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 20),
            a.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
            a.widthAnchor.constraint(equalToConstant: 100),
            a.heightAnchor.constraint(equalToConstant: 50),
            b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 8),
            b.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -20),
            b.topAnchor.constraint(equalTo: a.topAnchor),
            b.heightAnchor.constraint(equalTo: a.heightAnchor, multiplier: 2),
            c.centerXAnchor.constraint(equalTo: root.centerXAnchor),
            c.centerYAnchor.constraint(equalTo: root.centerYAnchor, constant: 50),
            c.widthAnchor.constraint(equalTo: root.widthAnchor, multiplier: 0.5),
            c.heightAnchor.constraint(equalTo: c.widthAnchor, multiplier: 0.25, constant: 5),
        ])
        #expect(a.frame == Rect(x: 0, y: 0, width: 0, height: 0))   // nothing moves before layout
        root.layoutIfNeeded()
        #expect(a.frame == Rect(x: 20, y: 10, width: 100, height: 50))
        #expect(b.frame == Rect(x: 128, y: 10, width: 252, height: 100))
        #expect(c.frame == Rect(x: 100, y: 173, width: 200, height: 55))   // 172.5 to 227.5, edges rounded to pixels as UIKit does
        #expect(!a.hasAmbiguousLayout && !b.hasAmbiguousLayout && !c.hasAmbiguousLayout)
        // Each is installed on its items' nearest common ancestor: a size on the view itself.
        #expect(root.constraints.count == 9 && a.constraints.count == 2 && c.constraints.count == 1)
        #expect(layoutErrors(f).isEmpty)
    }

    @Test("nested views: constraints across levels meet in the common ancestor's space; a resized window moves them")
    func acrossLevels() {
        let f = ViewFixture()
        let root = f.window.rootView
        let box = constrained(in: f)
        let inner = View()
        inner.translatesAutoresizingMaskIntoConstraints = false
        box.addSubview(inner)
        let sibling = constrained(in: f)
        LayoutConstraint.activate([
            box.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 30),
            box.topAnchor.constraint(equalTo: root.topAnchor, constant: 40),
            box.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -30),
            box.heightAnchor.constraint(equalToConstant: 100),
            inner.leadingAnchor.constraint(equalTo: box.leadingAnchor, constant: 10),
            inner.topAnchor.constraint(equalTo: box.topAnchor, constant: 10),
            inner.widthAnchor.constraint(equalTo: box.widthAnchor, multiplier: 0.5),
            inner.bottomAnchor.constraint(equalTo: box.bottomAnchor, constant: -10),
            // The sibling lines up with a view inside the box (two levels down).
            sibling.leadingAnchor.constraint(equalTo: inner.trailingAnchor),
            sibling.topAnchor.constraint(equalTo: inner.bottomAnchor, constant: 5),
            sibling.widthAnchor.constraint(equalToConstant: 20),
            sibling.heightAnchor.constraint(equalToConstant: 20),
        ])
        root.layoutIfNeeded()
        #expect(box.frame == Rect(x: 30, y: 40, width: 340, height: 100))
        #expect(inner.frame == Rect(x: 10, y: 10, width: 170, height: 80))
        #expect(sibling.frame == Rect(x: 210, y: 135, width: 20, height: 20))
        #expect(box.constraints.count == 5 && root.constraints.count == 5 && sibling.constraints.count == 2)
        f.window.size = Size(width: 600, height: 300)
        f.window.layoutIfNeeded()
        #expect(box.frame == Rect(x: 30, y: 40, width: 540, height: 100))
        #expect(inner.frame == Rect(x: 10, y: 10, width: 270, height: 80))
        #expect(sibling.frame.minX == 310)
    }

    @Test("optional constraints yield to required ones and to higher priorities, however many lower ones pull")
    func priorities() {
        let f = ViewFixture()
        let root = f.window.rootView
        let v = constrained(in: f)
        LayoutConstraint.activate([v.leadingAnchor.constraint(equalTo: root.leadingAnchor), v.topAnchor.constraint(equalTo: root.topAnchor),
                                   v.heightAnchor.constraint(equalToConstant: 10)])
        let atLeast = v.widthAnchor.constraint(greaterThanOrEqualToConstant: 150)
        let wish = v.widthAnchor.constraint(equalToConstant: 100)
        wish.priority = .defaultHigh
        LayoutConstraint.activate([atLeast, wish])
        root.layoutIfNeeded()
        #expect(v.frame.width == 150)
        atLeast.isActive = false
        root.layoutIfNeeded()
        #expect(v.frame.width == 100)
        // One constraint at 751 against three at 750: the higher priority wins outright.
        let strong = v.widthAnchor.constraint(equalToConstant: 200)
        strong.priority = LayoutPriority(751)
        let weak = (0..<3).map { _ in v.widthAnchor.constraint(equalToConstant: 100) }
        for w in weak { w.priority = .defaultHigh }
        LayoutConstraint.activate([strong] + weak)
        root.layoutIfNeeded()
        #expect(v.frame.width == 200)
        // Lowered below them, it gives way; an upper bound caps everything.
        strong.priority = LayoutPriority(749)
        root.layoutIfNeeded()
        #expect(v.frame.width == 100)
        v.widthAnchor.constraint(lessThanOrEqualToConstant: 60).isActive = true
        root.layoutIfNeeded()
        #expect(v.frame.width == 60)
        #expect(layoutErrors(f).isEmpty)
    }

    @Test("intrinsic sizes: a view keeps its own size unless constrained; hugging and compression decide who gives")
    func intrinsicSizes() {
        let f = ViewFixture()
        let root = f.window.rootView
        let a = SizedView(80, 30), b = SizedView(80, 30)
        root.addSubview(a)
        root.addSubview(b)
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10), a.topAnchor.constraint(equalTo: root.topAnchor),
            b.leadingAnchor.constraint(equalTo: a.trailingAnchor), b.topAnchor.constraint(equalTo: root.topAnchor),
        ])
        root.layoutIfNeeded()
        #expect(a.frame == Rect(x: 10, y: 0, width: 80, height: 30) && b.frame == Rect(x: 90, y: 0, width: 80, height: 30))
        #expect(!a.hasAmbiguousLayout && !b.hasAmbiguousLayout)
        // Filling a row: the view that hugs harder keeps its size, the other stretches.
        let end = b.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -10)
        end.isActive = true
        b.setContentHuggingPriority(LayoutPriority(251), for: .horizontal)
        root.layoutIfNeeded()
        #expect(a.frame.width == 300 && b.frame == Rect(x: 310, y: 0, width: 80, height: 30))
        // Too little room: the view that resists compression harder keeps its size.
        end.isActive = false
        a.trailingAnchor.constraint(lessThanOrEqualTo: root.leadingAnchor, constant: 110).isActive = true
        b.trailingAnchor.constraint(equalTo: root.leadingAnchor, constant: 110).isActive = true
        a.setContentCompressionResistancePriority(LayoutPriority(751), for: .horizontal)
        root.layoutIfNeeded()
        #expect(a.frame.width == 80 && b.frame == Rect(x: 90, y: 0, width: 20, height: 30))
        // A new intrinsic size is taken up incrementally.
        a.size = Size(width: 60, height: 44)
        root.layoutIfNeeded()
        #expect(a.frame.size == Size(width: 60, height: 44) && b.frame.width == 40)
    }

    @Test("a label's text sizes it, and its baseline lines up with another's")
    func labels() {
        let f = ViewFixture()
        let root = f.window.rootView
        let small = Label(), big = Label()
        small.text = "Name"
        big.text = "Title"
        big.font = .systemFont(ofSize: 30)
        for l in [small, big] { l.translatesAutoresizingMaskIntoConstraints = false; root.addSubview(l) }
        LayoutConstraint.activate([
            big.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10), big.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
            small.leadingAnchor.constraint(equalTo: big.trailingAnchor, constant: 8),
            small.firstBaselineAnchor.constraint(equalTo: big.firstBaselineAnchor),
        ])
        root.layoutIfNeeded()
        #expect(big.frame.size == big.intrinsicContentSize && small.frame.size == small.intrinsicContentSize)
        let baseline = { (l: Label) in l.frame.minY + l.font.ascender }
        #expect(abs(baseline(small) - baseline(big)) < 1)
        #expect(small.frame.minY > big.frame.minY + 5)
        let width = small.frame.width
        small.text = "Name and more"
        root.layoutIfNeeded()
        #expect(small.frame.width > width + 20)
        #expect(small.contentHuggingPriority(for: .horizontal) == LayoutPriority(251))
    }

    @Test("a constant changed inside an animation block animates through layoutIfNeeded, read at manual times")
    func animatedConstant() {
        let f = ViewFixture()
        let root = f.window.rootView
        let v = constrained(in: f)
        let left = v.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 0)
        let width = v.widthAnchor.constraint(equalToConstant: 100)
        LayoutConstraint.activate([left, width, v.topAnchor.constraint(equalTo: root.topAnchor), v.heightAnchor.constraint(equalToConstant: 40)])
        root.layoutIfNeeded()
        Transaction.flush()
        #expect(v.center == Point(x: 50, y: 20))
        View.animate(duration: 1, options: .curveLinear) {
            left.constant = 200
            width.constant = 50
            root.layoutIfNeeded()
        }
        Transaction.flush()
        #expect(v.frame == Rect(x: 200, y: 0, width: 50, height: 40))   // the model at once
        f.advance(0.5)
        #expect(close(f.shownPoint(v), Point(x: 137.5, y: 20)))          // half way from 50 to 225
        #expect(close(f.shownDouble(v, "bounds.size.width"), 75))
        f.advance(0.6)
        #expect(close(f.shownPoint(v), Point(x: 225, y: 20)))
        // Outside a block the change is immediate (views return NullAction).
        left.constant = 0
        root.layoutIfNeeded()
        Transaction.flush()
        #expect(close(f.shownPoint(v), Point(x: 25, y: 20)))
    }

    @Test("a required conflict breaks the newest constraint with a diagnostic naming every constraint in it")
    func conflicts() {
        let f = ViewFixture()
        let root = f.window.rootView
        let v = constrained(in: f)
        v.accessibilityIdentifier = "box"
        let hundred = v.widthAnchor.constraint(equalToConstant: 100)
        let twoHundred = v.widthAnchor.constraint(equalToConstant: 200)
        twoHundred.identifier = "too wide"
        LayoutConstraint.activate([v.leadingAnchor.constraint(equalTo: root.leadingAnchor), v.topAnchor.constraint(equalTo: root.topAnchor),
                                   v.heightAnchor.constraint(equalToConstant: 10), hundred, twoHundred])
        root.layoutIfNeeded()
        #expect(v.frame.width == 100)
        #expect(twoHundred.isActive && twoHundred.isBroken && !hundred.isBroken)
        let said = layoutErrors(f)
        #expect(said.count == 1)
        #expect(said.first?.contains("View(box).width == 100.0") == true)
        #expect(said.first?.contains("breaking 'too wide' View(box).width == 200.0") == true)
        // Once the other is gone, a new constant puts the broken one back.
        hundred.isActive = false
        twoHundred.constant = 250
        root.layoutIfNeeded()
        #expect(v.frame.width == 250 && !twoHundred.isBroken)
        // A view that still translates its frame fights constraints on it, as in UIKit.
        let framed = View(frame: Rect(x: 5, y: 5, width: 30, height: 30))
        root.addSubview(framed)
        framed.widthAnchor.constraint(equalToConstant: 60).isActive = true
        root.layoutIfNeeded()
        #expect(framed.frame.width == 30)
        #expect(layoutErrors(f).last?.contains("width == 30.0 (its frame)") == true)
        // Inequalities conflict too (found by the artificial variable).
        let low = v.heightAnchor.constraint(lessThanOrEqualToConstant: 5)
        low.isActive = true
        root.layoutIfNeeded()
        #expect(low.isBroken && v.frame.height == 10)
    }

    @Test("ambiguity: a view whose constraints leave it free says so")
    func ambiguity() {
        let f = ViewFixture()
        let root = f.window.rootView
        let v = constrained(in: f)
        let placed = [v.leadingAnchor.constraint(equalTo: root.leadingAnchor), v.topAnchor.constraint(equalTo: root.topAnchor)]
        LayoutConstraint.activate(placed)
        root.layoutIfNeeded()
        #expect(v.hasAmbiguousLayout)
        v.widthAnchor.constraint(greaterThanOrEqualToConstant: 10).isActive = true
        v.heightAnchor.constraint(equalToConstant: 10).isActive = true
        #expect(v.hasAmbiguousLayout)         // any width from 10 up
        v.widthAnchor.constraint(lessThanOrEqualToConstant: 10).isActive = true
        #expect(!v.hasAmbiguousLayout)
        #expect(!root.hasAmbiguousLayout && !View().hasAmbiguousLayout)
    }

    @Test("leading and trailing follow the layout direction: right to left they mirror")
    func rightToLeft() {
        let f = ViewFixture()
        let root = f.window.rootView
        let a = constrained(in: f), b = constrained(in: f)
        for v in [a, b] { v.semanticContentAttribute = .forceRightToLeft }
        LayoutConstraint.activate([
            a.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10), a.widthAnchor.constraint(equalToConstant: 50),
            b.leadingAnchor.constraint(equalTo: a.trailingAnchor, constant: 5), b.widthAnchor.constraint(equalToConstant: 20),
            a.topAnchor.constraint(equalTo: root.topAnchor), b.topAnchor.constraint(equalTo: root.topAnchor),
            a.heightAnchor.constraint(equalToConstant: 10), b.heightAnchor.constraint(equalToConstant: 10),
        ])
        // An inequality mirrors too: "at least 30 after a" is to the left of a right to left.
        let d = constrained(in: f)
        d.semanticContentAttribute = .forceRightToLeft
        let pull = d.leadingAnchor.constraint(equalTo: root.leadingAnchor)
        pull.priority = LayoutPriority(1)
        LayoutConstraint.activate([d.leadingAnchor.constraint(greaterThanOrEqualTo: a.trailingAnchor, constant: 30), pull,
                                   d.widthAnchor.constraint(equalToConstant: 10), d.topAnchor.constraint(equalTo: root.topAnchor),
                                   d.heightAnchor.constraint(equalToConstant: 10)])
        root.layoutIfNeeded()
        #expect(a.frame.minX == 340 && b.frame.minX == 315 && d.frame.minX == 300)
        // Back to left to right: the same constraints solved again, mirrored back.
        for v in [a, b, d] { v.semanticContentAttribute = .forceLeftToRight }
        root.layoutIfNeeded()
        #expect(a.frame.minX == 10 && b.frame.minX == 65 && d.frame.minX == 90)
        #expect(layoutErrors(f).isEmpty)
    }

    @Test("guides: the safe area follows a view controller's additional insets; margins are 8 points, or as set")
    func guides() {
        let f = ViewFixture()
        let controller = ViewController()
        f.window.rootViewController = controller
        let root = controller.view!
        let content = View(), marginal = View(), spacer = LayoutGuide()
        for v in [content, marginal] { v.translatesAutoresizingMaskIntoConstraints = false; root.addSubview(v) }
        root.addLayoutGuide(spacer)
        LayoutConstraint.activate([
            content.topAnchor.constraint(equalTo: root.safeAreaLayoutGuide.topAnchor),
            content.leadingAnchor.constraint(equalTo: root.safeAreaLayoutGuide.leadingAnchor),
            content.trailingAnchor.constraint(equalTo: root.safeAreaLayoutGuide.trailingAnchor),
            content.heightAnchor.constraint(equalToConstant: 20),
            marginal.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
            marginal.bottomAnchor.constraint(equalTo: root.layoutMarginsGuide.bottomAnchor),
            marginal.widthAnchor.constraint(equalToConstant: 10), marginal.heightAnchor.constraint(equalToConstant: 10),
            spacer.leadingAnchor.constraint(equalTo: marginal.trailingAnchor), spacer.widthAnchor.constraint(equalToConstant: 30),
            spacer.topAnchor.constraint(equalTo: root.topAnchor), spacer.heightAnchor.constraint(equalToConstant: 1),
        ])
        f.window.layoutIfNeeded()
        #expect(content.frame == Rect(x: 0, y: 0, width: 400, height: 20))
        #expect(marginal.frame == Rect(x: 20, y: 290, width: 10, height: 10))   // a controller's view: 20 at the sides, none below
        #expect(spacer.layoutFrame == Rect(x: 30, y: 0, width: 30, height: 1))
        controller.additionalSafeAreaInsets = EdgeInsets(top: 44, left: 0, bottom: 30, right: 16)
        f.window.layoutIfNeeded()
        #expect(content.frame == Rect(x: 0, y: 44, width: 384, height: 20))
        #expect(marginal.frame == Rect(x: 20, y: 260, width: 10, height: 10))
        root.layoutMargins = EdgeInsets(top: 0, left: 40, bottom: 0, right: 0)
        f.window.layoutIfNeeded()
        #expect(marginal.frame.minX == 40)
        #expect(View().layoutMargins == EdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
        // A subview's safe area is what of its superview's reaches into it.
        #expect(content.safeAreaInsets == EdgeInsets(top: 0, left: 0, bottom: 0, right: 0))
        let under = View(frame: Rect(x: 0, y: 0, width: 400, height: 100))
        root.addSubview(under)
        #expect(under.safeAreaInsets == EdgeInsets(top: 44, left: 0, bottom: 0, right: 16))
    }

    @Test("moving views: constraints inside a moved subtree go with it; ones reaching out are deactivated, as UIKit does")
    func movingBetweenTrees() {
        let f = ViewFixture()
        let root = f.window.rootView
        let box = constrained(in: f), outside = constrained(in: f)
        let inner = View()
        inner.translatesAutoresizingMaskIntoConstraints = false
        box.addSubview(inner)
        let innerConstraints = [inner.leadingAnchor.constraint(equalTo: box.leadingAnchor, constant: 5),
                                inner.topAnchor.constraint(equalTo: box.topAnchor, constant: 5),
                                inner.widthAnchor.constraint(equalTo: box.widthAnchor, constant: -10),
                                inner.heightAnchor.constraint(equalToConstant: 10)]
        let reaching = outside.topAnchor.constraint(equalTo: inner.bottomAnchor)
        let boxSize = [box.widthAnchor.constraint(equalToConstant: 100), box.heightAnchor.constraint(equalToConstant: 100)]
        LayoutConstraint.activate(innerConstraints + boxSize + [reaching,
            box.leadingAnchor.constraint(equalTo: root.leadingAnchor), box.topAnchor.constraint(equalTo: root.topAnchor)])
        root.layoutIfNeeded()
        #expect(inner.frame == Rect(x: 5, y: 5, width: 90, height: 10))
        box.removeFromSuperview()
        #expect(!reaching.isActive && innerConstraints.allSatisfy(\.isActive) && boxSize.allSatisfy(\.isActive))
        #expect(box.constraints.count == 5 && root.constraints.count == 0)
        // In a tree of its own, the box translates its frame: the inner view follows it.
        LayoutConstraint.deactivate(boxSize)
        box.translatesAutoresizingMaskIntoConstraints = true
        box.frame = Rect(x: 0, y: 0, width: 200, height: 50)
        box.layoutIfNeeded()
        #expect(inner.frame == Rect(x: 5, y: 5, width: 190, height: 10))
        // Back in the window, under another view.
        let holder = View(frame: Rect(x: 50, y: 50, width: 300, height: 200))
        root.addSubview(holder)
        holder.addSubview(box)
        box.frame = Rect(x: 0, y: 0, width: 60, height: 60)
        f.window.layoutIfNeeded()
        #expect(inner.frame == Rect(x: 5, y: 5, width: 50, height: 10))
        #expect(box.ownLayoutEngine == nil && root.ownLayoutEngine != nil)
        #expect(layoutErrors(f).isEmpty)
    }

    @Test("bad input: different trees, a location equal to a constant, x against y, NaN constants and multipliers are refused")
    func badInput() {
        let f = ViewFixture()
        let root = f.window.rootView
        let v = constrained(in: f)
        let stranger = View()
        let apart = v.leadingAnchor.constraint(equalTo: stranger.leadingAnchor)
        apart.isActive = true
        #expect(!apart.isActive && layoutErrors(f).last?.contains("no common ancestor") == true)
        let fixedPlace = LayoutConstraint(item: v, attribute: .left, relatedBy: .equal, toItem: nil, attribute: .notAnAttribute, multiplier: 1, constant: 10)
        fixedPlace.isActive = true
        #expect(!fixedPlace.isActive && layoutErrors(f).last?.contains("cannot equal a constant") == true)
        let crossed = LayoutConstraint(item: v, attribute: .left, relatedBy: .equal, toItem: root, attribute: .top, multiplier: 1, constant: 0)
        crossed.isActive = true
        #expect(!crossed.isActive)
        let sizeToPlace = LayoutConstraint(item: v, attribute: .width, relatedBy: .equal, toItem: root, attribute: .left, multiplier: 1, constant: 0)
        sizeToPlace.isActive = true
        #expect(!sizeToPlace.isActive)
        let nanMultiplier = v.widthAnchor.constraint(equalTo: root.widthAnchor, multiplier: .nan)
        nanMultiplier.isActive = true
        #expect(!nanMultiplier.isActive)
        let width = v.widthAnchor.constraint(equalToConstant: 40)
        width.isActive = true
        width.constant = .nan
        width.constant = .infinity
        #expect(width.constant == 40)
        width.priority = LayoutPriority(500)      // required to optional while active: refused
        #expect(width.priority == .required)
        LayoutConstraint.activate([v.leadingAnchor.constraint(equalTo: root.leadingAnchor), v.topAnchor.constraint(equalTo: root.topAnchor),
                                   v.heightAnchor.constraint(equalToConstant: 10)])
        root.layoutIfNeeded()
        #expect(v.frame == Rect(x: 0, y: 0, width: 40, height: 10))
        // A general-form constraint that is fine works like the anchors' one.
        let general = LayoutConstraint(item: v, attribute: .height, relatedBy: .equal, toItem: v, attribute: .width, multiplier: 0.5, constant: 0)
        general.isActive = true
        root.layoutIfNeeded()
        #expect(v.frame.height == 10 && general.isBroken)   // fights height == 10, which came first
    }

    @Test("10,000 constraints over 2,500 views solve, and one constant edit moves them all")
    func manyConstraints() {
        let f = ViewFixture()
        let root = f.window.rootView
        var previous: View?
        var first: LayoutConstraint?
        var all: [LayoutConstraint] = []
        for _ in 0..<2_500 {
            let v = View()
            v.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(v)
            let lead = previous.map { v.leadingAnchor.constraint(equalTo: $0.trailingAnchor, constant: 1) }
                ?? v.leadingAnchor.constraint(equalTo: root.leadingAnchor)
            if first == nil { first = lead }
            all += [lead, v.topAnchor.constraint(equalTo: previous?.topAnchor ?? root.topAnchor),
                    v.widthAnchor.constraint(equalToConstant: 1), v.heightAnchor.constraint(equalToConstant: 3)]
            previous = v
        }
        LayoutConstraint.activate(all)
        root.layoutIfNeeded()
        #expect(previous!.frame.minX == 2_499 * 2)
        first!.constant = 10
        root.layoutIfNeeded()
        #expect(previous!.frame.minX == 2_499 * 2 + 10)
        #expect(layoutErrors(f).isEmpty)
    }

    @Test("pixels: views placed by constraints are drawn where the solution puts them")
    func pixels() {
        let f = ViewFixture(size: Size(width: 100, height: 60))
        let root = f.window.rootView
        root.backgroundColor = .white
        let left = constrained(in: f, color: .red), right = constrained(in: f, color: .blue)
        LayoutConstraint.activate([
            left.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 10),
            left.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
            left.bottomAnchor.constraint(equalTo: root.bottomAnchor, constant: -10),
            right.leadingAnchor.constraint(equalTo: left.trailingAnchor, constant: 10),
            right.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -10),
            right.widthAnchor.constraint(equalTo: left.widthAnchor),
            right.topAnchor.constraint(equalTo: left.topAnchor), right.heightAnchor.constraint(equalTo: left.heightAnchor),
        ])
        Transaction.flush()
        let img = f.window.snapshot()
        // Widths: (100 − 30) / 2 = 35 each: red 10…45, blue 55…90.
        #expect(px(img, 11, 30) == [255, 0, 0, 255])
        #expect(px(img, 44, 30) == [255, 0, 0, 255])
        #expect(px(img, 50, 30) == [255, 255, 255, 255])
        #expect(px(img, 56, 49) == [0, 0, 255, 255])
        #expect(px(img, 89, 30) == [0, 0, 255, 255])
        #expect(px(img, 92, 30) == [255, 255, 255, 255])
        #expect(px(img, 60, 52) == [255, 255, 255, 255])
    }
}

extension AutoLayoutTests {
    @Test("captions as wide as the widest: equal widths, each hugging its text, beside fields with no intrinsic width")
    func equalCaptions() {
        let f = ViewFixture(size: Size(width: 520, height: 300))
        let root = f.window.rootView
        var made: [LayoutConstraint] = []
        var captions: [Label] = [], fields: [View] = []
        var above = root.topAnchor
        for text in ["Name", "Email", "Password"] {
            let caption = Label(), field = TextField(frame: .zero)
            caption.text = text
            caption.translatesAutoresizingMaskIntoConstraints = false
            field.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(caption)
            root.addSubview(field)
            made += [field.topAnchor.constraint(equalTo: above, constant: 12), field.heightAnchor.constraint(equalToConstant: 34),
                     field.leadingAnchor.constraint(equalTo: caption.trailingAnchor, constant: 12),
                     field.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -16),
                     caption.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 16),
                     caption.centerYAnchor.constraint(equalTo: field.centerYAnchor)]
            if let first = captions.first { made.append(caption.widthAnchor.constraint(equalTo: first.widthAnchor)) }
            captions.append(caption)
            fields.append(field)
            above = field.bottomAnchor
        }
        LayoutConstraint.activate(made)
        root.layoutIfNeeded()
        let widest = captions.map(\.intrinsicContentSize.width).max()!
        #expect(captions.map(\.frame.width) == [widest, widest, widest])
        #expect(fields.map(\.frame.width) == Array(repeating: 476 - widest, count: 3))
        #expect(!captions.contains(where: \.hasAmbiguousLayout) && !fields.contains(where: \.hasAmbiguousLayout))
    }
}

extension AutoLayoutTests {
    /// A view that makes its constraints in `updateConstraints`, as UIKit code often does.
    final class UpdatingView: View {
        var runs = 0
        var wide = false { didSet { setNeedsUpdateConstraints() } }
        private var width: LayoutConstraint?
        override func updateConstraints() {
            runs += 1
            width?.isActive = false
            width = widthAnchor.constraint(equalToConstant: wide ? 200 : 50)
            width?.isActive = true
            super.updateConstraints()
        }
    }

    @Test("updateConstraints runs once per request, before layout, deepest views first")
    func constraintPass() {
        let f = ViewFixture()
        let root = f.window.rootView
        let v = UpdatingView()
        v.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(v)
        LayoutConstraint.activate([v.leadingAnchor.constraint(equalTo: root.leadingAnchor), v.topAnchor.constraint(equalTo: root.topAnchor),
                                   v.heightAnchor.constraint(equalToConstant: 10)])
        v.setNeedsUpdateConstraints()
        v.setNeedsUpdateConstraints()
        #expect(v.needsUpdateConstraints())
        root.layoutIfNeeded()
        #expect(v.runs == 1 && v.frame.width == 50 && !v.needsUpdateConstraints())
        v.wide = true
        root.layoutIfNeeded()
        #expect(v.runs == 2 && v.frame.width == 200)
        root.layoutIfNeeded()
        #expect(v.runs == 2)
        // Deepest first: a subview's pass runs before its superview's.
        var order: [String] = []
        final class Recording: View {
            var record: (() -> Void)?
            override func updateConstraints() { record?() }
        }
        let outer = Recording(), inner = Recording()
        outer.record = { order.append("outer") }
        inner.record = { order.append("inner") }
        root.addSubview(outer)
        outer.addSubview(inner)
        outer.setNeedsUpdateConstraints()
        inner.setNeedsUpdateConstraints()
        root.layoutIfNeeded()
        #expect(order == ["inner", "outer"])
    }

    @Test("systemLayoutSizeFitting: the size a view's content constraints give it, compressed or pulled to a width")
    func fittingSize() {
        let f = ViewFixture()
        let cell = View(frame: Rect(x: 0, y: 0, width: 300, height: 50))
        f.window.rootView.addSubview(cell)
        let title = SizedView(120, 20), detail = SizedView(60, 30)
        cell.addSubview(title)
        cell.addSubview(detail)
        LayoutConstraint.activate([
            title.leadingAnchor.constraint(equalTo: cell.leadingAnchor, constant: 16),
            title.topAnchor.constraint(equalTo: cell.topAnchor, constant: 10),
            detail.leadingAnchor.constraint(greaterThanOrEqualTo: title.trailingAnchor, constant: 8),
            detail.trailingAnchor.constraint(equalTo: cell.trailingAnchor, constant: -16),
            detail.topAnchor.constraint(equalTo: title.bottomAnchor, constant: 4),
            detail.bottomAnchor.constraint(equalTo: cell.bottomAnchor, constant: -10),
        ])
        let compressed = cell.systemLayoutSizeFitting(View.layoutFittingCompressedSize)
        #expect(compressed == Size(width: 16 + 120 + 8 + 60 + 16, height: 10 + 20 + 4 + 30 + 10))
        let wide = cell.systemLayoutSizeFitting(Size(width: 400, height: 0), withHorizontalFittingPriority: .required, verticalFittingPriority: .fittingSizeLevel)
        #expect(wide == Size(width: 400, height: 74))
        #expect(cell.frame.size == Size(width: 300, height: 50))   // measuring changes nothing
        // Sized as measured, the cell lays its content out as measured.
        cell.frame.size = Size(width: 300, height: compressed.height)
        f.window.layoutIfNeeded()
        #expect(title.frame == Rect(x: 16, y: 10, width: 120, height: 20) && detail.frame == Rect(x: 224, y: 34, width: 60, height: 30))
        #expect(layoutErrors(f).isEmpty)
    }
}

extension AutoLayoutTests {
    typealias Natural = LayoutTests.Sized

    @Test("a stack view in constraints, as on iOS: pinned by its edges, its arranged views keep their own constraints, hugging decides who stretches, its constraints are named UISV-…, and its fitting size comes from its content")
    func stackViewInConstraints() {
        let f = ViewFixture()   // 400 × 300
        let root = f.window.rootView
        let icon = View(), title = Natural(80, 20), badge = Natural(30, 20)
        icon.widthAnchor.constraint(equalToConstant: 24).isActive = true   // a view with no natural size, sized by its own constraint
        let stack = StackView(arrangedSubviews: [icon, title, badge])
        #expect(!icon.translatesAutoresizingMaskIntoConstraints, "arranged views stop translating their masks, as in UIKit")
        stack.spacing = 8
        stack.alignment = .center
        stack.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(stack)
        LayoutConstraint.activate([
            stack.leadingAnchor.constraint(equalTo: root.leadingAnchor, constant: 16),
            stack.trailingAnchor.constraint(equalTo: root.trailingAnchor, constant: -16),
            stack.topAnchor.constraint(equalTo: root.topAnchor, constant: 10),
        ])
        root.layoutIfNeeded()
        #expect(stack.frame == Rect(x: 16, y: 10, width: 368, height: 20), "the stack's height from its tallest view")
        #expect(icon.frame == Rect(x: 0, y: 0, width: 24, height: 20), "no natural height: it fills the stack across")
        // Equal hugging: the last of them takes the room left over.
        #expect(title.frame == Rect(x: 32, y: 0, width: 80, height: 20))
        #expect(badge.frame == Rect(x: 120, y: 0, width: 248, height: 20))
        // The title hugging less stretches instead.
        title.setContentHuggingPriority(LayoutPriority(200), for: .horizontal)   // the stack follows on its own
        root.layoutIfNeeded()
        #expect(title.frame.width == 368 - 24 - 30 - 16 && badge.frame == Rect(x: 338, y: 0, width: 30, height: 20))
        #expect(f.window.rootView.ownLayoutEngine?.constraints.contains { $0.identifier == "UISV-canvas-connection" } == true)
        // Right to left, the row runs from the right.
        f.window.traitOverrides.layoutDirection = .rightToLeft
        root.layoutIfNeeded()
        #expect(icon.frame.maxX == 368 && badge.frame.minX == 0)
        f.window.traitOverrides.layoutDirection = .leftToRight
        root.layoutIfNeeded()
        // A stack on its own fits its views' natural sizes and the spacing.
        let alone = StackView(arrangedSubviews: [Natural(24, 10), Natural(80, 20), Natural(30, 20)])
        alone.spacing = 8
        #expect(alone.systemLayoutSizeFitting(View.layoutFittingCompressedSize) == Size(width: 24 + 8 + 80 + 8 + 30, height: 20))
        // A stack of stacks: a vertical one holding the row and a label, equal spacing.
        let column = StackView(arrangedSubviews: [Natural(50, 30), Natural(70, 30)])
        column.axis = .vertical
        column.distribution = .equalSpacing
        column.alignment = .trailing
        column.frame = Rect(x: 0, y: 100, width: 200, height: 100)
        root.addSubview(column)
        root.layoutIfNeeded()
        #expect(column.arrangedSubviews.map(\.frame) == [Rect(x: 150, y: 0, width: 50, height: 30), Rect(x: 130, y: 70, width: 70, height: 30)])
        #expect(layoutErrors(f).isEmpty, "\(layoutErrors(f))")
    }
}
