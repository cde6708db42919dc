@testable import Strata
import Glibc
import WaylandClient
import StrataTesting
import Testing
import LayerKitTesting

/// A data source of numbered rows.
@MainActor
final class NumberedRows: ListDataSource {
    var rows: [String]
    var configured = 0
    init(_ count: Int) { rows = (0..<count).map { "Row \($0)" } }
    func numberOfRows(in list: ListView) -> Int { rows.count }
    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        configured += 1
        cell.textLabel.text = rows[row]
    }
}

@MainActor
@Suite("ScrollView and ListView", .serialized, .isolatedLayerContext)
struct ScrollViewTests {
    func scrollView(_ f: ViewFixture) -> ScrollView {
        let scroll = ScrollView(frame: Rect(x: 0, y: 0, width: 200, height: 200))
        scroll.contentSize = Size(width: 200, height: 1000)
        let content = View(frame: Rect(x: 0, y: 0, width: 200, height: 1000))
        content.backgroundColor = .blue
        scroll.addSubview(content)
        f.window.rootView.addSubview(scroll)
        Transaction.flush()
        return scroll
    }

    @Test("The wheel scrolls by its distance, clamped to the content; contentOffset is the bounds' origin")
    func wheel() {
        let f = ViewFixture()
        let scroll = scrollView(f)
        var scrolled = 0
        scroll.onScroll = { _ in scrolled += 1 }
        let input = InputDriver(window: f.window)
        input.movePointer(to: Point(x: 100, y: 100))
        input.scroll(dx: 0, dy: 120)
        #expect(scroll.contentOffset == Point(x: 0, y: 120))
        #expect(scroll.bounds.origin == scroll.contentOffset)
        #expect(scrolled == 1)
        input.scroll(dx: 0, dy: 5000)
        #expect(scroll.contentOffset.y == 800)
        input.scroll(dx: 40, dy: -9000)
        #expect(scroll.contentOffset == .zero)   // no horizontal scrolling: the content is not wider
        #expect(scroll.isShowingVerticalIndicator)
        f.advance(0.5)
        Transaction.flush()
        #expect(!scroll.isShowingVerticalIndicator)
    }

    @Test("A finger drags the content; past the edge it follows with rubber-band resistance and springs back")
    func dragAndBounce() {
        let f = ViewFixture()
        let scroll = scrollView(f)
        let input = InputDriver(window: f.window)
        input.touchDown(1, at: Point(x: 100, y: 150))
        for y in stride(from: 140.0, through: 50, by: -10) {
            f.advance(1.0 / 60)
            input.touchMove(1, to: Point(x: 100, y: y))
        }
        // The finger moved 100 points; once the pan began, the content followed it exactly.
        #expect(scroll.isDragging)
        #expect(close(scroll.contentOffset.y, 100))
        f.advance(0.5)   // held still: no fling
        input.touchMove(1, to: Point(x: 100, y: 50.5))
        input.touchUp(1)
        let rest = scroll.contentOffset.y
        f.advance(1)
        #expect(abs(scroll.contentOffset.y - rest) < 2)
        // Pull down past the top: rubber band (less than the finger's distance).
        scroll.contentOffset = .zero
        input.touchDown(2, at: Point(x: 100, y: 20))
        for y in stride(from: 30.0, through: 170, by: 10) {
            f.advance(1.0 / 60)
            input.touchMove(2, to: Point(x: 100, y: y))
        }
        let pulled = -scroll.contentOffset.y
        #expect(pulled > 20 && pulled < 140)
        f.advance(0.3)
        input.touchMove(2, to: Point(x: 100, y: 170.5))
        input.touchUp(2)
        f.advance(0.1)
        #expect(scroll.contentOffset.y < 0 && -scroll.contentOffset.y < pulled)
        f.advance(1.5)
        #expect(scroll.contentOffset.y == 0)
        #expect(!scroll.isDecelerating)
    }

    @Test("A fling decelerates with UIKit's exponential curve and stops at the edge with a bounce")
    func fling() {
        let f = ViewFixture()
        let scroll = scrollView(f)
        let input = InputDriver(window: f.window)
        input.touchDown(1, at: Point(x: 100, y: 190))
        for i in 1...6 {
            f.advance(1.0 / 60)
            input.touchMove(1, to: Point(x: 100, y: 190 - Double(i) * 15))   // 900 points per second
        }
        input.touchUp(1)
        let released = scroll.contentOffset.y
        #expect(scroll.isDecelerating)
        // Velocity 900 pt/s, k = −1000·ln 0.998: the offset after 0.5 s.
        let k = -1000 * log(0.998)
        f.advance(0.5)
        let expected = released + 900 / k * (1 - exp(-k * 0.5))
        #expect(abs(scroll.contentOffset.y - expected) < 25)
        f.advance(5)
        #expect(!scroll.isDecelerating)
        #expect(abs(scroll.contentOffset.y - (released + 900 / k)) < 40)
        // A hard fling towards the end stops there (after a bounce), never beyond.
        input.touchDown(2, at: Point(x: 100, y: 190))
        for i in 1...6 {
            f.advance(1.0 / 60)
            input.touchMove(2, to: Point(x: 100, y: 190 - Double(i) * 30))
        }
        input.touchUp(2)
        var maximum = 0.0
        for _ in 0..<240 { f.advance(1.0 / 60); maximum = max(maximum, scroll.contentOffset.y) }
        #expect(maximum > 800)   // it went past the edge
        #expect(scroll.contentOffset.y == 800)
        // The pointer's primary button does not drag (touches only).
        input.drag(from: Point(x: 100, y: 150), to: Point(x: 100, y: 20), steps: 6, clock: f.clock)
        #expect(scroll.contentOffset.y == 800)
    }

    @Test("setContentOffset(animated:) eases there in 0.3 s, telling onScroll on the way; bad values refused")
    func animatedOffset() {
        let f = ViewFixture()
        let scroll = scrollView(f)
        var seen: [Double] = []
        scroll.onScroll = { seen.append($0.contentOffset.y) }
        scroll.setContentOffset(Point(x: 0, y: 400), animated: true)
        f.advance(0.15)
        #expect(scroll.contentOffset.y > 100 && scroll.contentOffset.y < 300)
        f.advance(0.2)
        #expect(scroll.contentOffset.y == 400)
        #expect(seen.count >= 15 && seen == seen.sorted())
        scroll.setContentOffset(Point(x: 0, y: .nan), animated: true)
        scroll.contentOffset = Point(x: .infinity, y: 0)
        scroll.contentSize = Size(width: -1, height: 10)
        #expect(scroll.contentOffset.y == 400)
        #expect(scroll.contentSize.height == 1000)
        #expect(f.diagnostics.count == 3)
        // A smaller content pulls the offset back in.
        scroll.contentSize = Size(width: 200, height: 300)
        #expect(scroll.contentOffset.y == 100)
    }

    @Test("ListView: 100,000 rows with a bounded number of row views, reused while scrolling")
    func recycling() {
        let f = ViewFixture(size: Size(width: 320, height: 480))
        let data = NumberedRows(100_000)
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 440))
        list.dataSource = data
        f.window.rootView.addSubview(list)
        Transaction.flush()
        #expect(list.contentSize.height == 4_400_000)
        #expect(list.visibleCells.first?.textLabel.text == "Row 0")
        // The rows in view (10 whole, 11 when offset) and one beyond each end.
        let bound = 10 + 1 + 2
        #expect(list.cellsMade <= bound)
        for step in 1...200 { list.contentOffset = Point(x: 0, y: Double(step) * 997) }
        #expect(list.cellsMade <= bound)
        list.setContentOffset(Point(x: 0, y: 4_400_000 - 440), animated: false)
        #expect(list.visibleCells.last?.textLabel.text == "Row 99999")
        #expect(list.cellsMade <= bound)
        let shot = f.window.snapshot()
        #expect(inkBounds(shot, in: (16..<200, 0..<440)) != nil)
    }

    @Test("ListView is a collection view of one section with a list layout of rows of one height: its rows are reused ListCells, its data source answers the collection view's questions (and none in another collection view); choosing another row tells the app of the row left (onDeselectRow), as UIKit does")
    func listIsACollectionView() {
        let f = ViewFixture(size: Size(width: 320, height: 480))
        let data = NumberedRows(30)
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 440))
        list.rowHeight = 40
        list.dataSource = data
        f.window.rootView.addSubview(list)
        Transaction.flush()
        let layout = list.collectionViewLayout as? CollectionViewListLayout
        #expect(layout?.rowHeight == 40 && list.numberOfSections == 1 && list.numberOfItems(inSection: 0) == 30)
        #expect(list.visibleCells.allSatisfy { $0 is ListCell } && list.visibleCells.count == 12)
        #expect(list.rectForRow(at: 29) == Rect(x: 0, y: 1_160, width: 320, height: 40))
        let other = CollectionView(frame: Rect(x: 0, y: 0, width: 100, height: 100), collectionViewLayout: CollectionViewListLayout())
        #expect(data.collectionView(other, numberOfItemsInSection: 0) == 0 && data.collectionView(list, numberOfItemsInSection: 1) == 0)
        var said: [String] = []
        list.onSelectRow = { said.append("select \($1)") }
        list.onDeselectRow = { said.append("deselect \($1)") }
        let input = InputDriver(window: f.window)
        input.click(at: Point(x: 100, y: 40 * 1 + 20))
        input.click(at: Point(x: 100, y: 40 * 3 + 20))
        #expect(said == ["select 1", "deselect 1", "select 3"] && list.selectedRows == [3])
        #expect(list.cellForRow(at: 3)?.contentView.backgroundColor == .systemGray4 && list.cellForRow(at: 1)?.contentView.backgroundColor == .systemBackground)
        list.allowsSelection = false
        #expect(list.selectedRows.isEmpty)
        input.click(at: Point(x: 100, y: 40 * 2 + 20))
        #expect(said.count == 3 && list.cellForRow(at: 2)?.isHighlighted == false)
    }

    @Test("ListView: animated insertion and deletion move the other rows; a wrong count reloads with a diagnostic")
    func updates() {
        let f = ViewFixture(size: Size(width: 320, height: 480))
        let data = NumberedRows(20)
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 440))
        list.dataSource = data
        f.window.rootView.addSubview(list)
        Transaction.flush()
        data.rows.insert("New", at: 1)
        list.insertRows(at: [1], animated: true)
        Transaction.flush()
        let moved = list.cellForRow(at: 2)!
        #expect(moved.textLabel.text == "Row 1")
        #expect(moved.frame.minY == 88)
        f.advance(0.15)
        let y = (f.shown(moved, "position") as? Point)?.y ?? 0
        #expect(y > 44 + 22 && y < 88 + 22)
        let inserted = list.cellForRow(at: 1)!
        #expect(inserted.textLabel.text == "New")
        let fading = f.shownDouble(inserted, "opacity")
        #expect(fading > 0 && fading < 1)
        f.advance(0.2)
        data.rows.remove(at: 0)
        list.deleteRows(at: [0], animated: true)
        Transaction.flush()
        #expect(list.cellForRow(at: 0)?.textLabel.text == "New")
        f.advance(0.4)
        #expect(list.visibleCells.map { $0.textLabel.text! }.prefix(3) == ["New", "Row 1", "Row 2"])
        // A data source that changed its count by something else.
        data.rows.append(contentsOf: ["x", "y"])
        list.insertRows(at: [0], animated: true)
        #expect(f.diagnostics.contains { "\($0)".contains("reloaded instead") })
        #expect(list.numberOfRows == 22)
        #expect(list.cellForRow(at: 0)?.textLabel.text == "New")
    }

    @Test("ListView: a tap selects a row; a swipe to the left asks to delete it; a control in a row keeps its touches")
    func selectionAndSwipe() {
        let f = ViewFixture(size: Size(width: 320, height: 480))
        let data = NumberedRows(10)
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 440))
        list.dataSource = data
        var selected: [Int] = [], deleted: [Int] = []
        list.onSelectRow = { selected.append($1) }
        list.onDeleteRow = { list, row in
            deleted.append(row)
            data.rows.remove(at: row)
            list.deleteRows(at: [row], animated: true)
        }
        f.window.rootView.addSubview(list)
        Transaction.flush()
        let input = InputDriver(window: f.window)
        input.click(at: Point(x: 100, y: 44 * 3 + 20))
        #expect(selected == [3])
        f.advance(1)
        input.touchDown(1, at: Point(x: 300, y: 44 * 2 + 20))
        for x in stride(from: 280.0, through: 60, by: -20) {
            f.advance(1.0 / 60)
            input.touchMove(1, to: Point(x: x, y: 44 * 2 + 22))
        }
        input.touchUp(1)
        #expect(deleted == [2])
        #expect(selected == [3])
        f.advance(1)
        #expect(list.cellForRow(at: 2)?.textLabel.text == "Row 3")
        // A switch in a row: a click toggles it and selects nothing.
        let toggle = Switch()
        list.cellForRow(at: 0)!.accessoryView = toggle
        list.cellForRow(at: 0)!.layoutIfNeeded()
        input.click(at: toggle.convert(Point(x: 25, y: 15), to: nil))
        #expect(toggle.isOn)
        #expect(selected == [3])
    }

    @Test("rule P3: right to left, a row's text sits at the right and its accessory at the left; a swipe to the right asks to delete it (Delete shows at the left), a swipe to the left does nothing")
    func rightToLeftRows() {
        let f = ViewFixture(size: Size(width: 320, height: 480))
        f.window.traitOverrides.layoutDirection = .rightToLeft
        let data = NumberedRows(10)
        let list = ListView(frame: Rect(x: 0, y: 0, width: 320, height: 440))
        list.dataSource = data
        var deleted: [Int] = []
        list.onDeleteRow = { list, row in
            deleted.append(row)
            data.rows.remove(at: row)
            list.deleteRows(at: [row], animated: true)
        }
        f.window.rootView.addSubview(list)
        Transaction.flush()
        let cell = list.cellForRow(at: 0)!
        cell.accessoryView = Switch()
        cell.layoutIfNeeded()
        #expect(cell.textLabel.frame.maxX == 304 && cell.accessoryView!.frame.minX == 16, "\(cell.textLabel.frame) \(cell.accessoryView!.frame)")
        let input = InputDriver(window: f.window)
        func swipe(row: Int, from: Double, to: Double) {
            input.touchDown(1, at: Point(x: from, y: 44 * Double(row) + 20))
            for x in stride(from: from, through: to, by: to > from ? 20 : -20) {
                f.advance(1.0 / 60)
                input.touchMove(1, to: Point(x: x, y: 44 * Double(row) + 22))
            }
        }
        swipe(row: 2, from: 300, to: 60)
        input.touchUp(1)
        f.advance(1)
        #expect(deleted.isEmpty, "towards the leading edge: nothing")
        swipe(row: 2, from: 20, to: 220)
        let shot = f.window.snapshot()
        #expect(shot.pixel(x: 40, y: 44 * 2 + 22) == Color.systemRed.light, "Delete revealed at the left")
        input.touchUp(1)
        #expect(deleted == [2])
    }
}

/// Motion driven by media timers (deceleration, caret blinking) on a real compositor.
@MainActor
@Suite("ScrollView on a compositor", .serialized, .mainLayerContext)
struct ScrollViewOnWestonTests {
    @Test("a fling keeps frames coming on weston until the list comes to rest (timers due while frames are made are not lost)")
    func flingOnWeston() throws {
        let (weston, display) = try appOnWeston(width: 400, height: 600)
        defer { withExtendedLifetime(weston) { Application.shared.disconnect() } }
        let data = NumberedRows(100_000)
        let window = Window(title: "fling", size: Size(width: 400, height: 600))
        let list = ListView(frame: Rect(x: 0, y: 0, width: 400, height: 600))
        list.dataSource = data
        window.rootView.addSubview(list)
        window.show()
        try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
        let loop = try #require(Application.shared.loop)
        // A finger flings upwards: six moves of 60 points, 8 ms apart, on the real clock.
        window.handle(.touchDown(id: 1, at: Point(x: 200, y: 500)))
        for i in 1...6 {
            try loop.turn(for: 0.008)
            window.handle(.touchMoved(id: 1, to: Point(x: 200, y: 500 - 60 * Double(i))))
        }
        window.handle(.touchUp(id: 1))
        let framesBefore = window.frameNumber
        let released = list.contentOffset.y
        try loop.turn(for: 1)
        let frames = window.frameNumber - framesBefore
        #expect(frames > 30, "\(frames) frames in 1 s of deceleration")
        #expect(list.contentOffset.y > released + 1000)
        #expect(list.isDecelerating || list.contentOffset.y > released + 2000)
    }
}
