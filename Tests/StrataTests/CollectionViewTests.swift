@testable import Strata
import Testing
import LayerKitTesting
import StrataTesting

/// Collection views: flow and list layouts, reuse, self-sizing cells, selection by
/// pointer and keyboard, batch updates, and diffable data sources whose applies
/// animate exactly what changed (rule C4).
@MainActor
@Suite("Collection views", .isolatedLayerContext)
struct CollectionViewTests {
    /// Items as numbers, each cell's label saying its number.
    final class Numbers: CollectionViewDataSource {
        var sections: [[Int]]
        init(_ sections: [[Int]]) { self.sections = sections }
        func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }
        func collectionView(_ cv: CollectionView, numberOfItemsInSection section: Int) -> Int { sections[section].count }
        func collectionView(_ cv: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
            let cell = cv.dequeueReusableCell(withReuseIdentifier: "n", for: indexPath)
            cell.textLabel.text = "\(sections[indexPath.section][indexPath.item])"
            return cell
        }
    }

    func makeCollection(_ f: ViewFixture, layout: CollectionViewLayout, frame: Rect = Rect(x: 0, y: 0, width: 400, height: 300)) -> CollectionView {
        let cv = CollectionView(frame: frame, collectionViewLayout: layout)
        cv.register(CollectionViewCell.self, forCellWithReuseIdentifier: "n")
        f.window.rootView.addSubview(cv)
        return cv
    }

    func texts(_ cv: CollectionView) -> [String] { cv.visibleCells.map { $0.textLabel.text ?? "" } }

    /// A list of `count` numbered rows `height` points tall, laid out (keep the data: a data source is weak).
    func numberedList(_ f: ViewFixture, rows count: Int, height: Double) -> (CollectionView, Numbers) {
        let layout = CollectionViewListLayout()
        layout.rowHeight = height
        let cv = makeCollection(f, layout: layout)
        let data = Numbers([Array(0..<count)])
        cv.dataSource = data
        f.window.layoutIfNeeded()
        return (cv, data)
    }

    @Test("flow layout: lines wrap at the width, full lines justified, the last one not; headers above each section")
    func flowLayout() {
        let f = ViewFixture()
        let layout = CollectionViewFlowLayout()
        layout.sectionInset = EdgeInsets(top: 10, left: 10, bottom: 10, right: 10)
        layout.headerReferenceSize = Size(width: 0, height: 30)
        let cv = makeCollection(f, layout: layout)
        let data = Numbers([Array(0..<10), Array(10..<12)])
        cv.dataSource = data
        f.window.layoutIfNeeded()
        let frames = (0..<10).map { cv.layoutAttributesForItem(at: IndexPath(item: $0, section: 0))!.frame }
        // Six fit in 380: 6 × 50 + 5 × 16 = 380.
        #expect(frames[0..<6].map(\.minX) == [10, 76, 142, 208, 274, 340])
        #expect(frames[0..<6].allSatisfy { $0.minY == 40 })
        #expect(frames[6..<10].map(\.minX) == [10, 70, 130, 190] && frames[6].minY == 100)
        // Section 1: below section 0's bottom inset, its own header.
        let header = cv.collectionViewLayout.layoutAttributesForSupplementaryView(ofKind: CollectionView.elementKindSectionHeader, at: IndexPath(item: 0, section: 1))!
        #expect(header.frame == Rect(x: 0, y: 160, width: 400, height: 30))
        #expect(cv.layoutAttributesForItem(at: IndexPath(item: 0, section: 1))!.frame == Rect(x: 10, y: 200, width: 50, height: 50))
        #expect(cv.contentSize == Size(width: 400, height: 260))
        #expect(cv.cellForItem(at: IndexPath(item: 7, section: 0))?.frame == frames[7])
        #expect(cv.indexPathForItem(at: Point(x: 80, y: 45)) == IndexPath(item: 1, section: 0))
        #expect(cv.indexPathForItem(at: Point(x: 65, y: 45)) == nil)   // in a gap
    }

    @Test("cells are made for what is in view and reused while scrolling 1,000 rows")
    func reuse() {
        let f = ViewFixture()
        let (cv, data) = numberedList(f, rows: 1_000, height: 44)
        defer { withExtendedLifetime(data) {} }
        #expect(cv.contentSize.height == 44_000)
        #expect(texts(cv).first == "0" && cv.visibleCells.count < 12)
        for y in stride(from: 0.0, through: 43_700, by: 500) { cv.contentOffset = Point(x: 0, y: y) }
        cv.contentOffset = Point(x: 0, y: 43_700)
        #expect(texts(cv).last == "999")
        #expect(cv.viewsMade < 30)
        #expect(cv.visibleCells.allSatisfy { !$0.isHidden })
    }

    @Test("list rows size themselves to their text (their constraints) and follow each other without gaps")
    func selfSizing() {
        let f = ViewFixture()
        let cv = makeCollection(f, layout: CollectionViewListLayout())
        let data = Numbers([[1, 22222, 3]])
        final class Wrapping: CollectionViewDataSource {
            let words = ["one", String(repeating: "a long line that wraps ", count: 6), "three"]
            func collectionView(_ cv: CollectionView, numberOfItemsInSection section: Int) -> Int { 3 }
            func collectionView(_ cv: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
                let cell = cv.dequeueReusableCell(withReuseIdentifier: "n", for: indexPath)
                cell.textLabel.numberOfLines = 0
                cell.textLabel.preferredMaxLayoutWidth = 368
                cell.textLabel.text = words[indexPath.item]
                return cell
            }
        }
        let wrapping = Wrapping()
        _ = data
        cv.dataSource = wrapping
        f.window.layoutIfNeeded()
        let frames = cv.visibleCells.map(\.frame)
        #expect(frames.count == 3)
        #expect(frames[1].height > frames[0].height * 2 && abs(frames[0].height - frames[2].height) < 0.5)
        #expect(frames[0].minY == 0 && frames[1].minY == frames[0].maxY && frames[2].minY == frames[1].maxY)
        #expect(frames[0].height == (cv.visibleCells[0].textLabel.intrinsicContentSize.height + 22))
    }

    final class Recorder: CollectionViewDelegate {
        var said: [String] = []
        var refuse: IndexPath?
        func collectionView(_ cv: CollectionView, shouldSelectItemAt indexPath: IndexPath) -> Bool { indexPath != refuse }
        func collectionView(_ cv: CollectionView, didSelectItemAt indexPath: IndexPath) { said.append("select \(indexPath)") }
        func collectionView(_ cv: CollectionView, didDeselectItemAt indexPath: IndexPath) { said.append("deselect \(indexPath)") }
    }

    @Test("selection: a click selects (the cell shows it), another moves it; the keyboard moves the focus by place and Return selects")
    func selection() {
        let f = ViewFixture()
        let layout = CollectionViewFlowLayout()
        let cv = makeCollection(f, layout: layout)
        let data = Numbers([Array(0..<12)])
        cv.dataSource = data
        let recorder = Recorder()
        recorder.refuse = IndexPath(item: 3, section: 0)
        cv.delegate = recorder
        f.window.layoutIfNeeded()
        Transaction.flush()
        let input = InputDriver(window: f.window)
        input.click(at: Point(x: 25, y: 25))              // item 0
        #expect(cv.indexPathsForSelectedItems == [IndexPath(item: 0, section: 0)] && cv.cellForItem(at: IndexPath(item: 0, section: 0))!.isSelected)
        let second = cv.layoutAttributesForItem(at: IndexPath(item: 1, section: 0))!.frame
        input.click(at: Point(x: second.midX, y: second.midY))
        #expect(cv.indexPathsForSelectedItems == [IndexPath(item: 1, section: 0)] && !cv.cellForItem(at: IndexPath(item: 0, section: 0))!.isSelected)
        #expect(recorder.said == ["select [0, 0]", "deselect [0, 0]", "select [0, 1]"])
        let refused = cv.layoutAttributesForItem(at: IndexPath(item: 3, section: 0))!.frame
        input.click(at: Point(x: refused.midX, y: refused.midY))
        #expect(cv.indexPathsForSelectedItems == [IndexPath(item: 1, section: 0)])
        // Six 50-point items to a 400-point line (gaps of 20): Down from item 1 is item 7, below it.
        #expect(cv.becomeFirstResponder())
        input.tapKey(keysym: 0xff53)   // Right: 0 → 1
        input.tapKey(keysym: 0xff54)   // Down: the nearest in the next line
        #expect(cv.focusedIndexPath == IndexPath(item: 7, section: 0))
        #expect(cv.cellForItem(at: IndexPath(item: 7, section: 0))!.showsFocus)
        input.tapKey(keysym: 0xff0d)
        #expect(cv.indexPathsForSelectedItems == [IndexPath(item: 7, section: 0)])
        input.tapKey(keysym: 0xff57)   // End
        #expect(cv.focusedIndexPath == IndexPath(item: 11, section: 0))
        // To assistive technologies: a list of list items named by their text, the chosen one selected.
        let seven = cv.cellForItem(at: IndexPath(item: 7, section: 0))!
        #expect(cv.accessibilityRole == .list && seven.accessibilityRole == .listItem && seven.isAccessibilityElement)
        #expect(seven.accessibilityLabel == "7" && seven.accessibilityTraits.contains(.selected))
        #expect(!cv.cellForItem(at: IndexPath(item: 1, section: 0))!.accessibilityTraits.contains(.selected))
    }

    final class Box { var value = 0 }

    func listCollection(_ f: ViewFixture) -> (CollectionView, CollectionViewDiffableDataSource<String, Int>, Box) {
        let layout = CollectionViewListLayout()
        layout.rowHeight = 40
        let cv = makeCollection(f, layout: layout, frame: Rect(x: 0, y: 0, width: 400, height: 1_700))
        let made = Box()
        let registration = CellRegistration<CollectionViewCell, Int> { cell, _, item in
            cell.textLabel.text = "\(item)"
            made.value += 1
        }
        let source = CollectionViewDiffableDataSource<String, Int>(collectionView: cv) { cv, path, item in
            cv.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
        }
        return (cv, source, made)
    }

    @Test("diffable apply: the difference of two snapshots is exactly the inserted, deleted, moved and reloaded items")
    func diffableDifference() {
        let f = ViewFixture(size: Size(width: 400, height: 1_700))
        let (cv, source, made) = listCollection(f)
        var first = DiffableDataSourceSnapshot<String, Int>()
        first.appendSections(["a", "b"])
        first.appendItems([1, 2, 3, 4, 5], toSection: "a")
        first.appendItems([6, 7], toSection: "b")
        source.apply(first, animatingDifferences: false)
        f.window.layoutIfNeeded()
        #expect(texts(cv) == ["1", "2", "3", "4", "5", "6", "7"])
        var second = source.snapshot()
        second.deleteItems([2])
        second.moveItem(5, beforeItem: 1)
        second.insertItems([9], afterItem: 3)
        second.moveItem(6, afterItem: 7)
        second.appendItems([8], toSection: "a")
        second.reloadItems([4])
        let before = made.value
        source.apply(second, animatingDifferences: false)
        f.window.layoutIfNeeded()
        #expect(texts(cv) == ["5", "1", "3", "9", "4", "8", "7", "6"])
        let d = source.lastDifference
        #expect(d.deleted == [IndexPath(item: 1, section: 0)])
        #expect(d.inserted == [IndexPath(item: 3, section: 0), IndexPath(item: 5, section: 0)])
        // 5 to the front; in section b, 6 and 7 swapped: one of them moved (either is fewest).
        #expect(d.moved.count == 2 && d.moved.first == IndexPath(item: 0, section: 0) && d.moved.last?.section == 1)
        #expect(d.reloaded == [IndexPath(item: 4, section: 0)])
        #expect(made.value - before == 3)   // the two inserted cells and the reloaded one; the rest kept theirs
        #expect(source.itemIdentifier(for: IndexPath(item: 3, section: 0)) == 9 && source.indexPath(for: 6) == IndexPath(item: 1, section: 1))
    }

    /// The length of a longest increasing subsequence, by the quadratic method.
    static func lisLength(_ v: [Int]) -> Int {
        var best = [Int](repeating: 1, count: v.count)
        for i in v.indices { for j in 0..<i where v[j] < v[i] { best[i] = max(best[i], best[j] + 1) } }
        return best.max() ?? 0
    }

    @Test("random pairs of snapshots: every change is accounted for, the kept items keep their order, the moves are the fewest, the final order is right", arguments: 0..<25)
    func diffableProperty(seed: Int) {
        let f = ViewFixture(size: Size(width: 400, height: 1_700))   // every row in view
        let (cv, source, _) = listCollection(f)
        var rng = SimplexSolverTests.SplitMix(state: UInt64(seed) &+ 99)
        func random() -> DiffableDataSourceSnapshot<String, Int> {
            var s = DiffableDataSourceSnapshot<String, Int>()
            let sections = ["x", "y", "z"].filter { _ in rng.int(4) != 0 }
            s.appendSections(sections.isEmpty ? ["x"] : sections)
            var pool = Array(0..<40).filter { _ in rng.int(3) != 0 }
            for i in pool.indices.reversed() { pool.swapAt(i, rng.int(i + 1)) }
            for item in pool { s.appendItems([item], toSection: s.sectionIdentifiers[rng.int(s.numberOfSections)]) }
            return s
        }
        let old = random(), new = random()
        source.apply(old, animatingDifferences: false)
        source.apply(new, animatingDifferences: true)
        let d = source.lastDifference
        let oldItems = Set(old.itemIdentifiers), newItems = Set(new.itemIdentifiers)
        #expect(d.deleted.count == oldItems.subtracting(newItems).count)
        #expect(Set(d.inserted.map { new.itemIdentifiers(inSection: new.sectionIdentifiers[$0.section])[$0.item] }) == newItems.subtracting(oldItems))
        // Items kept in their section and not moved keep their old relative order, and no fewer moves could do.
        var candidates: [Int] = []
        var stayed: [Int] = []
        let movedSet = Set(d.moved)
        for (s, section) in new.sectionIdentifiers.enumerated() {
            for (i, item) in new.itemIdentifiers(inSection: section).enumerated() where oldItems.contains(item) && old.sectionIdentifier(containingItem: item) == section {
                let oldFlat = old.itemIdentifiers.firstIndex(of: item)!
                candidates.append(oldFlat)
                if !movedSet.contains(IndexPath(item: i, section: s)) { stayed.append(oldFlat) }
            }
        }
        #expect(stayed == stayed.sorted())
        #expect(stayed.count == Self.lisLength(candidates))
        f.advance(1)
        f.window.layoutIfNeeded()
        #expect(texts(cv) == new.itemIdentifiers.map(String.init))
        #expect(cv.numberOfSections == new.numberOfSections)
    }

    @Test("an animated apply: moved cells glide to their rows, inserted ones fade in, deleted ones fade out and go, read at manual times")
    func animatedApply() {
        let f = ViewFixture()
        let (cv, source, _) = listCollection(f)
        var s = DiffableDataSourceSnapshot<String, Int>()
        s.appendSections(["a"])
        s.appendItems([1, 2, 3])
        source.apply(s, animatingDifferences: false)
        f.window.layoutIfNeeded()
        Transaction.flush()
        let three = cv.cellForItem(at: IndexPath(item: 2, section: 0))!
        let two = cv.cellForItem(at: IndexPath(item: 1, section: 0))!
        s.deleteItems([2])
        s.insertItems([4], beforeItem: 1)
        s.moveItem(3, beforeItem: 4)
        source.apply(s, animatingDifferences: true)
        Transaction.flush()
        #expect(texts(cv) == ["3", "4", "1"])
        #expect(three.frame.minY == 0)                               // the model at once
        f.advance(0.15)
        let mid = f.shownPoint(three).y                              // from 100 (row 2's middle) towards 20
        #expect(mid > 25 && mid < 95)
        let four = cv.cellForItem(at: IndexPath(item: 1, section: 0))!
        let alpha = f.shownDouble(four, "opacity")
        #expect(alpha > 0.05 && alpha < 0.95)
        #expect(f.shownDouble(two, "opacity") < 0.95 && !two.isHidden)
        f.advance(0.5)
        Transaction.flush()
        #expect(close(f.shownPoint(three).y, 20) && f.shownDouble(four, "opacity") == 1)
        #expect(two.isHidden)                                         // back in the reuse queue
    }

    @Test("bad input: duplicate identifiers refused, unknown anchors refused, an apply from inside an apply runs after it, inconsistent batch updates reload")
    func badInput() {
        let f = ViewFixture()
        let (cv, source, _) = listCollection(f)
        var s = DiffableDataSourceSnapshot<String, Int>()
        s.appendSections(["a", "a"])
        #expect(s.numberOfSections == 0)
        s.appendSections(["a"])
        s.appendItems([1, 2, 2])
        #expect(s.numberOfItems == 0)
        s.appendItems([1, 2])
        s.appendItems([1])
        s.insertItems([7], beforeItem: 99)
        s.moveItem(1, beforeItem: 99)
        #expect(s.itemIdentifiers == [1, 2])
        let refusals = f.diagnostics.filter { "\($0)".contains("diffable snapshot") }
        #expect(refusals.count == 5)
        // A cell provider that applies again while the first apply runs: queued, then run.
        var nested = false
        let reentrant = CollectionViewDiffableDataSource<String, Int>(collectionView: cv) { cv, path, item in
            if !nested {
                nested = true
                var more = DiffableDataSourceSnapshot<String, Int>()
                more.appendSections(["a"])
                more.appendItems([10, 20, 30])
                source.apply(more, animatingDifferences: false)   // the other source: not this one
            }
            return cv.dequeueReusableCell(withReuseIdentifier: "n", for: path)
        }
        _ = reentrant
        var inner = DiffableDataSourceSnapshot<String, Int>()
        inner.appendSections(["a"])
        inner.appendItems([5, 6])
        @MainActor final class Log { var lines: [String] = [] }
        let applied = Log()
        let selfApplying = CollectionViewDiffableDataSource<String, Int>(collectionView: cv) { cv, path, item in
            cv.dequeueReusableCell(withReuseIdentifier: "n", for: path)
        }
        selfApplying.apply(s, animatingDifferences: false) {
            applied.lines.append("first")
            selfApplying.apply(inner, animatingDifferences: false) { applied.lines.append("second") }
        }
        f.advance(1)
        Transaction.flush()
        Transaction.flush()
        #expect(applied.lines == ["first", "second"] && selfApplying.snapshot().itemIdentifiers == [5, 6])
        // A batch update that disagrees with the data source: everything reloaded, with a diagnostic.
        let plain = Numbers([[1, 2, 3]])
        cv.dataSource = plain
        cv.performBatchUpdates { cv.insertItems(at: [IndexPath(item: 0, section: 0)]) }   // the data did not change
        #expect(f.diagnostics.contains { "\($0)".contains("batch update") })
        f.window.layoutIfNeeded()
        #expect(texts(cv) == ["1", "2", "3"])
        // A consistent one animates into place.
        cv.performBatchUpdates {
            plain.sections[0].insert(0, at: 0)
            plain.sections[0].remove(at: 3)
            cv.insertItems(at: [IndexPath(item: 0, section: 0)])
            cv.deleteItems(at: [IndexPath(item: 2, section: 0)])
        }
        f.advance(1)
        f.window.layoutIfNeeded()
        #expect(texts(cv) == ["0", "1", "2"])
        // An identifier never registered: a plain cell, with a diagnostic.
        _ = cv.dequeueReusableCell(withReuseIdentifier: "nobody", for: IndexPath(item: 0, section: 0))
        #expect(f.diagnostics.contains { "\($0)".contains("no cell class registered for 'nobody'") })
    }
}

extension CollectionViewTests {
    @Test("a flow layout's self-sizing cells size both ways: as wide as their text (tags in lines), a text wider than a line wraps at the line's width and grows taller")
    func flowSelfSizingBothWays() {
        let f = ViewFixture()
        let layout = CollectionViewFlowLayout()
        layout.estimatedItemSize = Size(width: 50, height: 30)
        layout.sectionInset = EdgeInsets(top: 0, left: 10, bottom: 0, right: 10)
        let cv = makeCollection(f, layout: layout)
        final class Tags: CollectionViewDataSource {
            let tags = ["a", "swift", "wayland compositor", String(repeating: "a tag far too long for one line ", count: 4)]
            func collectionView(_ cv: CollectionView, numberOfItemsInSection section: Int) -> Int { tags.count }
            func collectionView(_ cv: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
                let cell = cv.dequeueReusableCell(withReuseIdentifier: "n", for: indexPath)
                cell.textLabel.numberOfLines = 0
                cell.textLabel.preferredMaxLayoutWidth = 380 - 32   // a line's width less the label's margins
                cell.textLabel.text = tags[indexPath.item]
                return cell
            }
        }
        let tags = Tags()
        cv.dataSource = tags
        f.window.layoutIfNeeded()
        let cells = cv.visibleCells.sorted { $0.indexPath! < $1.indexPath! }
        #expect(cells.count == 4)
        for cell in cells.prefix(3) {
            let text = cell.textLabel.intrinsicContentSize
            #expect(abs(cell.frame.width - (text.width + 32)) < 1, "\(cell.textLabel.text!): \(cell.frame) for text \(text)")
            #expect(abs(cell.frame.height - (text.height + 22)) < 1)
        }
        #expect(cells[0].frame.width < cells[1].frame.width && cells[1].frame.width < cells[2].frame.width)
        #expect(cells[0].frame.minY == cells[1].frame.minY, "short tags share a line")
        let long = cells[3].frame
        #expect(long.width <= 380 && long.width > 300 && long.minX == 10, "no wider than a line: \(long)")
        #expect(long.height > 2 * cells[0].frame.height, "it wraps and grows: \(long)")
    }
}

extension CollectionViewTests {
    /// A cell whose content is a tenth as tall as it is wide.
    final class WideCell: CollectionViewCell {
        required init(frame: Rect) {
            super.init(frame: frame)
            let band = View()
            band.translatesAutoresizingMaskIntoConstraints = false
            contentView.addSubview(band)
            // Just below required, as UIKit's self-sizing cells have it: the cell's frame holds its content view.
            let aspect = band.heightAnchor.constraint(equalTo: band.widthAnchor, multiplier: 0.1)
            aspect.priority = LayoutPriority(999)
            LayoutConstraint.activate([
                band.leadingAnchor.constraint(equalTo: contentView.leadingAnchor), band.trailingAnchor.constraint(equalTo: contentView.trailingAnchor),
                band.topAnchor.constraint(equalTo: contentView.topAnchor), band.bottomAnchor.constraint(equalTo: contentView.bottomAnchor), aspect,
            ])
        }
    }

    @Test("a list's self-sizing rows are measured at the list's width: only their height is their own")
    func listRowsMeasureAtTheListsWidth() {
        let f = ViewFixture()
        let list = CollectionView(frame: Rect(x: 0, y: 0, width: 400, height: 300), collectionViewLayout: CollectionViewListLayout())
        list.register(WideCell.self, forCellWithReuseIdentifier: "n")
        f.window.rootView.addSubview(list)
        final class Bands: CollectionViewDataSource {
            func collectionView(_ cv: CollectionView, numberOfItemsInSection section: Int) -> Int { 2 }
            func collectionView(_ cv: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
                cv.dequeueReusableCell(withReuseIdentifier: "n", for: indexPath)
            }
        }
        let bands = Bands()
        list.dataSource = bands
        f.window.layoutIfNeeded()
        #expect(list.visibleCells.map(\.frame.size) == [Size(width: 400, height: 40), Size(width: 400, height: 40)])
    }

    @Test("rows of one height are placed by arithmetic: the frames a flow layout gives the same rows (headers, footers, insets, spacing, an empty section); a million rows answer for the rows in view; the keyboard crosses sections and reaches the ends")
    func rowsOfOneHeight() {
        let f = ViewFixture()
        let list = CollectionViewListLayout(appearance: .insetGrouped)
        list.rowHeight = 30
        let flow = CollectionViewFlowLayout()
        flow.itemSize = Size(width: 360, height: 30)
        flow.minimumInteritemSpacing = 0
        flow.sectionInset = list.sectionInset
        for layout in [list, flow] as [CollectionViewFlowLayout] {
            layout.minimumLineSpacing = 2
            layout.headerReferenceSize = Size(width: 0, height: 28)
            layout.footerReferenceSize = Size(width: 0, height: 10)
        }
        let data = Numbers([Array(0..<5), [], Array(5..<8)])
        let a = makeCollection(f, layout: list), b = makeCollection(f, layout: flow)
        a.dataSource = data
        b.dataSource = data
        f.window.layoutIfNeeded()
        #expect(a.contentSize == b.contentSize && a.contentSize.height > 0)
        func places(_ cv: CollectionView, _ rect: Rect) -> [String] {
            cv.collectionViewLayout.layoutAttributesForElements(in: rect)
                .map { "\($0.representedElementKind ?? "cell") \($0.indexPath) \($0.frame)" }.sorted()
        }
        for rect in [Rect(x: 0, y: 0, width: 400, height: 1_000), Rect(x: 0, y: 61, width: 400, height: 40), Rect(x: 0, y: 200, width: 10, height: 1)] {
            #expect(places(a, rect) == places(b, rect))
        }
        #expect(places(a, Rect(x: 0, y: 0, width: 400, height: 1_000)).count == 8 + 3 + 3)
        for section in 0..<3 {
            for kind in [CollectionView.elementKindSectionHeader, CollectionView.elementKindSectionFooter] {
                let path = IndexPath(item: 0, section: section)
                #expect(list.layoutAttributesForSupplementaryView(ofKind: kind, at: path)?.frame == flow.layoutAttributesForSupplementaryView(ofKind: kind, at: path)?.frame)
            }
        }

        // A million rows: the list's height, cells for what is in view, the last row where arithmetic puts it.
        let (big, million) = numberedList(f, rows: 1_000_000, height: 44)
        defer { withExtendedLifetime(million) {} }
        #expect(big.contentSize.height == 44_000_000)
        #expect(big.layoutAttributesForItem(at: IndexPath(item: 999_999, section: 0))?.frame == Rect(x: 0, y: 43_999_956, width: 400, height: 44))
        #expect(big.layoutAttributesForItem(at: IndexPath(item: 1_000_000, section: 0)) == nil)
        #expect(big.indexPathForItem(at: Point(x: 10, y: 1e300)) == nil && big.indexPathForItem(at: Point(x: 10, y: -.infinity)) == nil)
        #expect(big.indexPathForItem(at: Point(x: 10, y: 45)) == IndexPath(item: 1, section: 0))
        #expect(big.becomeFirstResponder())
        let input = InputDriver(window: f.window)
        input.tapKey(keysym: 0xff57)   // End
        #expect(big.focusedIndexPath == IndexPath(item: 999_999, section: 0) && texts(big).last == "999999")
        input.tapKey(keysym: 0xff52)   // Up: the row above, found near the row
        #expect(big.focusedIndexPath == IndexPath(item: 999_998, section: 0))
        input.tapKey(keysym: 0xff54)
        input.tapKey(keysym: 0xff54)   // Down at the last row stays
        #expect(big.focusedIndexPath == IndexPath(item: 999_999, section: 0))
        input.tapKey(keysym: 0xff50)   // Home
        #expect(big.focusedIndexPath == IndexPath(item: 0, section: 0) && texts(big).first == "0")
        #expect(big.viewsMade < 30, "\(big.viewsMade) cells")

        // Left and right go across sections, over an empty one, and stop at the ends.
        #expect(b.becomeFirstResponder())
        b.focus(IndexPath(item: 4, section: 0))
        input.tapKey(keysym: 0xff53)   // Right
        #expect(b.focusedIndexPath == IndexPath(item: 0, section: 2))
        input.tapKey(keysym: 0xff51)   // Left
        #expect(b.focusedIndexPath == IndexPath(item: 4, section: 0))
        b.focus(IndexPath(item: 2, section: 2))
        input.tapKey(keysym: 0xff53)
        #expect(b.focusedIndexPath == IndexPath(item: 2, section: 2))
        input.tapKey(keysym: 0xff54)   // Down from the last row of the last section: nothing below
        #expect(b.focusedIndexPath == IndexPath(item: 2, section: 2))
        input.tapKey(keysym: 0xff52)   // Up: the row above, in the same column
        #expect(b.focusedIndexPath == IndexPath(item: 1, section: 2))
    }

    @Test("bad input: a batch update naming items out of range reloads with a diagnostic, as a count that disagrees does")
    func batchOutOfRange() {
        let f = ViewFixture()
        let (cv, data) = numberedList(f, rows: 10, height: 40)
        data.sections[0].removeLast()
        cv.deleteItems(at: [IndexPath(item: 40, section: 0)])   // the count agrees, the item does not exist
        #expect(f.diagnostics.contains { "\($0)".contains("out of range; reloaded instead") })
        #expect(cv.numberOfItems(inSection: 0) == 9 && texts(cv).prefix(2) == ["0", "1"])
        data.sections[0].append(9)
        cv.insertItems(at: [IndexPath(item: 3, section: 5)])
        #expect(f.diagnostics.filter { "\($0)".contains("reloaded instead") }.count == 2 && cv.numberOfItems(inSection: 0) == 10)
    }
}
