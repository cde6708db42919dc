@testable import Strata
import Testing
import LayerKitTesting
import StrataTesting

/// Issue 30 (hostile input, round 3): what probes from an outside package and an
/// app-layer fuzzer found in the toolkit, each pinned.
@MainActor
@Suite("Hostile input in views, round 3", .serialized, .isolatedLayerContext)
struct HostileViewInputTests {
    @Test("a list 10^300 points tall takes Page Down and Page Up: a page is held to the rows there are (found by the app fuzzer: the page's row count trapped converting to Int)")
    func hugeListPaging() {
        let f = ViewFixture()
        let list = ListView(frame: Rect(x: 0, y: 0, width: 200, height: 1e300))
        let rows = NumberedRows(50)
        list.dataSource = rows
        f.window.rootView.addSubview(list)
        #expect(list.becomeFirstResponder())
        let keys = InputDriver(window: f.window)
        keys.tapKey(keysym: 0xff56)   // Page Down: a page is every row
        #expect(list.focusedRow == 49)
        keys.tapKey(keysym: 0xff55)   // Page Up
        #expect(list.focusedRow == 0)
    }

    @Test("item 3: a label, an image view and a button 1e15 points away snapshot without trapping; what is in view still draws")
    func farAwayTextAndImages() {
        let f = ViewFixture()
        let marker = f.addView(Rect(x: 0, y: 0, width: 20, height: 20), color: .red)
        let label = Label(frame: Rect(x: 1e15, y: 10, width: 100, height: 30))
        label.text = "far away"
        let image = ImageView(image: Image(width: 4, height: 4, color: .blue))
        image.frame = Rect(x: 10, y: 1e15, width: 40, height: 40)
        let button = Button(title: "Far")
        button.frame = Rect(x: -1e15, y: -1e15, width: 80, height: 30)
        for v in [label, image, button] as [View] { f.window.rootView.addSubview(v) }
        Transaction.flush()
        let shot = f.window.snapshot()
        #expect(shot.rgba8(x: 10, y: 10) == (255, 0, 0, 255))
        #expect(shot.rgba8(x: 200, y: 150).a == 255)   // the window's background, untouched
        _ = marker
    }

    @Test("item 12: a colour emoji at font size 0 and at a tiny size snapshots without trapping; the Latin text beside it at 12 pt draws")
    func emojiAtSizeZero() {
        let f = ViewFixture()
        for size in [0.0, 1e-7, 0.001] {
            let label = Label(frame: Rect(x: 0, y: 0, width: 200, height: 40))
            label.font = .systemFont(ofSize: size)
            label.text = "a😀b"
            f.window.rootView.addSubview(label)
            Transaction.flush()
            _ = f.window.snapshot()
            label.removeFromSuperview()
        }
        let visible = Label(frame: Rect(x: 0, y: 0, width: 200, height: 40))
        visible.font = .systemFont(ofSize: 12)
        visible.textColor = .black
        visible.text = "MMMM😀"
        f.window.rootView.addSubview(visible)
        Transaction.flush()
        let shot = f.window.snapshot()
        let dark = (0..<40).flatMap { x in (0..<30).map { y in shot.rgba8(x: x, y: y) } }.filter { $0.r < 100 }
        #expect(!dark.isEmpty)
    }

    @Test("item 13: a hook that adds a sibling to the same superview mid-insertion leaves the tree consistent")
    func reentrantHooksKeepTheTree() {
        let f = ViewFixture()
        final class Hooked: View {
            var onWillMoveToWindow: (() -> Void)?
            override func willMove(toWindow newWindow: Window?) {
                let hook = onWillMoveToWindow
                onWillMoveToWindow = nil
                hook?()
            }
        }
        let root = f.window.rootView
        let existing = root.subviews.count
        let hooked = Hooked(frame: .zero), sibling = View(frame: .zero)
        hooked.onWillMoveToWindow = { root.addSubview(sibling) }
        root.addSubview(hooked)
        #expect(root.subviews.count == existing + 2)
        #expect(root.subviews.contains { $0 === sibling } && root.subviews.last === hooked)
        #expect(sibling.superview === root && hooked.superview === root)
        #expect(root.layer.sublayers.filter { $0 === sibling.layer || $0 === hooked.layer }.count == 2)
        // The same through removal: a hook that moves the view elsewhere.
        final class Mover: View {
            var destination: View?
            override func willMove(toSuperview newSuperview: View?) {
                if newSuperview == nil, let d = destination { destination = nil; d.addSubview(self) }
            }
        }
        let holder = View(frame: .zero), mover = Mover(frame: .zero)
        root.addSubview(holder)
        root.addSubview(mover)
        mover.destination = holder
        mover.removeFromSuperview()
        #expect(mover.superview == nil && mover.layer.superlayer == nil)
        #expect(!holder.subviews.contains { $0 === mover } && !root.subviews.contains { $0 === mover })
        // A hook that puts the new superview under the view being added: refused, not a cycle.
        final class Swallower: View {
            var victim: View?
            override func willMove(toSuperview newSuperview: View?) {
                if let v = victim { victim = nil; addSubview(v) }
            }
        }
        let outer = View(frame: .zero), swallower = Swallower(frame: .zero)
        root.addSubview(outer)
        swallower.victim = outer
        outer.addSubview(swallower)
        #expect(swallower.superview == nil && outer.superview === swallower)
        #expect(f.diagnostics.contains { "\($0)".contains("hook") })
    }

    @Test("item 14: list geometry — huge, negative and sub-pixel values neither trap nor make a cell per row")
    func listGeometry() {
        let f = ViewFixture()
        let rows = NumberedRows(100_000)
        let list = ListView(frame: Rect(x: 0, y: 0, width: 300, height: 200))
        list.dataSource = rows
        f.window.rootView.addSubview(list)
        Transaction.flush()
        list.layoutIfNeeded()
        let made = list.cellsMade
        #expect(made > 0 && made < 10)
        list.rowHeight = 5e-324
        #expect(list.rowHeight == 44)
        #expect(f.diagnostics.contains { "\($0)".contains("rowHeight") })
        for frame in [Rect(x: 0, y: -1e300, width: 300, height: 1e300), Rect(x: 0, y: 1e18, width: 300, height: 200),
                      Rect(x: 0, y: 0, width: 300, height: 1e9), Rect(x: 0, y: 0, width: 300, height: 4.4e6)] {
            list.frame = frame
            list.layoutIfNeeded()
            _ = f.window.snapshot()
        }
        // A list 1e9 points tall in a 300-point window makes cells for what the window shows.
        #expect(list.cellsMade < 20, "cells made: \(list.cellsMade)")
        #expect(list.row(at: Point(x: 0, y: 1e300)) == nil && list.row(at: Point(x: 0, y: -.infinity)) == nil)
        #expect(list.row(at: Point(x: 0, y: 50)) == 1)
    }

    @Test("item 14: a list scaled down to nothing by its transform, or outside a window, makes no more cells than pixel rows can show (found by the app fuzzer)")
    func listCellsBoundedByPixels() {
        let f = ViewFixture(size: Size(width: 100, height: 72))
        let rows = NumberedRows(100_000)
        let list = ListView(frame: Rect(x: 0, y: 0, width: 100, height: 72))
        list.rowHeight = 1
        list.dataSource = rows
        f.window.rootView.addSubview(list)
        list.transform = AffineTransform(a: 1, b: 0, c: 0, d: 1e-9, tx: 0, ty: 0)
        list.layoutIfNeeded()
        Transaction.flush()
        #expect(list.cellsMade <= 72 * 2 + 4, "cells made: \(list.cellsMade)")   // the window's pixel rows at scale ≤ 2
        let loose = ListView(frame: Rect(x: 0, y: 0, width: 100, height: 1e6))
        loose.rowHeight = 1
        loose.dataSource = rows
        loose.layoutIfNeeded()
        #expect(loose.cellsMade <= Int(ListView.heightShownOutsideAWindow) + 4)
    }

    @Test("item 7: 20,000 subviews added one by one keep their order and every layer below its view's")
    func manySubviews() {
        let f = ViewFixture()
        let parent = f.addView(Rect(x: 0, y: 0, width: 10, height: 10))
        var added: [View] = []
        View.performWithoutAnimation {
            for _ in 0..<20_000 {
                let v = View(frame: .zero)
                parent.addSubview(v)
                added.append(v)
            }
            parent.insertSubview(added[0], at: 19_999)
            parent.insertSubview(added[19_999], at: 0)
        }
        #expect(parent.subviews.count == 20_000)
        #expect(parent.subviews.first === added[19_999] && parent.subviews.last === added[0])
        #expect(parent.layer.sublayers.map(ObjectIdentifier.init) == parent.subviews.map { ObjectIdentifier($0.layer) })
    }

    @Test("items 8 and 15: an unbreakable run longer than 256 bytes breaks by character; short words still wrap between words")
    func longUnbreakableRuns() {
        #expect(!TextLayout.hasUnbreakableRun(String(repeating: "word ", count: 1_000)))
        #expect(!TextLayout.hasUnbreakableRun(String(repeating: "x", count: 256)))
        #expect(TextLayout.hasUnbreakableRun("a b " + String(repeating: "𒀀", count: 65)))   // 260 bytes of cuneiform
        let style = TextStyle(font: .systemFont(ofSize: 17), color: .black)
        let long = TextLayout(AttributedText(String(repeating: "x", count: 40_000)), style: style, width: 400)
        #expect(long.lines.count > 100)
        #expect(long.lines.allSatisfy { $0.rect.width <= 400.5 })
        #expect(long.lines.dropLast().allSatisfy { $0.rect.width > 380 })   // full lines: broken by character
        // Words with no long run keep breaking between words.
        let words = TextLayout(AttributedText(String(repeating: "alpha beta ", count: 40)), style: style, width: 200)
        #expect(words.lines.allSatisfy { line in
            let text = Array(words.text.utf8)[line.bytes]
            return text.first != UInt8(ascii: "l") && text.first != UInt8(ascii: "e") && text.first != UInt8(ascii: "t")
        })
    }

    @Test("item 8: a character with 20,000 combining marks keeps its first 32 (the rest laid out as spaces), with a diagnostic; every offset stays where it was")
    func combiningMarkFloods() {
        let f = ViewFixture()
        let text = "a" + String(repeating: "\u{301}", count: 20_000) + "b" + String(repeating: "\u{20D7}", count: 40) + "c"
        #expect(TextLayout.hasLongMarkRun(text))
        #expect(!TextLayout.hasLongMarkRun(String(repeating: "a" + String(repeating: "\u{301}", count: 30), count: 100)))
        let layout = TextLayout(AttributedText(text), style: TextStyle(font: .systemFont(ofSize: 17), color: .black), width: 300)
        #expect(layout.text.utf8.count == text.utf8.count)
        #expect(!TextLayout.hasLongMarkRun(layout.text))
        #expect(layout.text.unicodeScalars.filter { $0 == "\u{301}" }.count == 32)
        #expect(layout.text.unicodeScalars.filter { $0 == "\u{20D7}" }.count == 32)
        #expect(f.diagnostics.contains { "\($0)".contains("combining marks") })
        let label = Label(frame: Rect(x: 0, y: 0, width: 300, height: 100))
        label.numberOfLines = 0
        label.text = text
        f.window.rootView.addSubview(label)
        Transaction.flush()
        _ = f.window.snapshot()
    }

    @Test("invisible format characters in a row (zero-width spaces, word joiners) past 32 are laid out as spaces, so lines fill (found by the app fuzzer: 14,000 of them in a 40-point label took seconds)")
    func zeroWidthRuns() {
        let text = String(repeating: "a", count: 12) + String(repeating: "\u{200B}", count: 14_000) + String(repeating: "\u{2060}", count: 40)
        #expect(TextLayout.hasLongMarkRun(text))
        #expect(!TextLayout.hasLongMarkRun("👩‍👩‍👧 a\u{200B}b\u{200B}c " + String(repeating: "\u{200B}", count: 32)))
        let layout = TextLayout(AttributedText(text), style: TextStyle(font: .systemFont(ofSize: 17), color: .black), width: 40)
        #expect(layout.text.utf8.count == text.utf8.count)
        #expect(layout.text.unicodeScalars.filter { $0 == "\u{200B}" }.count == 32)
        #expect(!layout.text.unicodeScalars.contains("\u{2060}"))   // one run with the spaces before: all past 32
        #expect(layout.lines.count > 100)   // the spaces fill lines of 40 points
    }
}
