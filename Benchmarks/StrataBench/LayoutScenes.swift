import Strata

/// A form field's caption: a fixed intrinsic size, so the scene measures layout, not text.
private final class Caption: View {
    override var intrinsicContentSize: Size { Size(width: 120, height: 20) }
}

/// C2 `autolayout-form`: a 1,000-view form — 500 rows of a caption and a field —
/// laid out by 3,500 constraints (plus the captions' 2,000 hugging and
/// compression constraints). Measured: the first solve (activating every
/// constraint and laying out), and one constant edit at the top that moves every
/// row (`layoutIfNeeded` after it), next to the same frames worked out and set by
/// hand, in the same run.
@MainActor
func sceneAutoLayoutForm(repetitions: Int) -> [Figure] {
    let rows = 500
    var first: [Double] = [], edit: [Double] = [], byHand: [Double] = [], byHandEdit: [Double] = []
    for r in 0..<repetitions {
        let root = View(frame: Rect(x: 0, y: 0, width: 1280, height: 20_000))
        var captions: [View] = [], fields: [View] = []
        for _ in 0..<rows {
            let c = Caption(), f = View()
            c.translatesAutoresizingMaskIntoConstraints = false
            f.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(c)
            root.addSubview(f)
            captions.append(c)
            fields.append(f)
        }
        let t0 = now()
        var constraints: [LayoutConstraint] = []
        var topConstraint: LayoutConstraint?
        for i in 0..<rows {
            let c = captions[i], f = fields[i]
            let top = i == 0 ? c.topAnchor.constraint(equalTo: root.layoutMarginsGuide.topAnchor, constant: 8)
                : c.topAnchor.constraint(equalTo: fields[i - 1].bottomAnchor, constant: 8)
            if i == 0 { topConstraint = top }
            constraints += [
                top,
                c.leadingAnchor.constraint(equalTo: root.layoutMarginsGuide.leadingAnchor),
                f.leadingAnchor.constraint(equalTo: c.trailingAnchor, constant: 8),
                f.trailingAnchor.constraint(equalTo: root.layoutMarginsGuide.trailingAnchor),
                f.centerYAnchor.constraint(equalTo: c.centerYAnchor),
                f.heightAnchor.constraint(equalToConstant: 28),
                c.widthAnchor.constraint(greaterThanOrEqualToConstant: 100),
            ]
        }
        LayoutConstraint.activate(constraints)
        root.layoutIfNeeded()
        let t1 = now()
        topConstraint!.constant = r % 2 == 0 ? 20 : 8
        root.layoutIfNeeded()
        let t2 = now()
        first.append(t1 - t0)
        edit.append(t2 - t1)
        precondition(fields[rows - 1].frame.minY > 10_000, "the form was not laid out")

        // The same frames by hand.
        let plain = (0..<(2 * rows)).map { _ in View() }
        for v in plain { root.addSubview(v) }
        func place(top: Double) {
            var y = 8 + top
            for i in 0..<rows {
                let caption = Rect(x: 8, y: y + 4, width: 120, height: 20)
                plain[2 * i].frame = caption
                plain[2 * i + 1].frame = Rect(x: caption.maxX + 8, y: y, width: 1280 - 8 - caption.maxX - 8, height: 28)
                y += 28 + 8
            }
        }
        let t3 = now()
        place(top: 0)
        root.layoutIfNeeded()
        let t4 = now()
        place(top: r % 2 == 0 ? 12 : 0)
        root.layoutIfNeeded()
        let t5 = now()
        byHand.append(t4 - t3)
        byHandEdit.append(t5 - t4)
    }
    let f = median(first) * 1e6, e = median(edit) * 1e6, h = median(byHand) * 1e6, he = median(byHandEdit) * 1e6
    return [
        Figure(scene: "C2 autolayout-form", metric: "first solve, 1,000 views, 3,500 constraints", value: f, unit: "µs", repetitions: repetitions),
        Figure(scene: "C2 autolayout-form", metric: "the same frames set by hand", value: h, unit: "µs", repetitions: repetitions),
        Figure(scene: "C2 autolayout-form", metric: "ratio first solve/by hand", value: f / h, unit: "x", repetitions: repetitions),
        Figure(scene: "C2 autolayout-form", metric: "one constant edit moving every row", value: e, unit: "µs", repetitions: repetitions),
        Figure(scene: "C2 autolayout-form", metric: "every row moved by hand", value: he, unit: "µs", repetitions: repetitions),
        Figure(scene: "C2 autolayout-form", metric: "ratio edit/by hand", value: e / he, unit: "x", repetitions: repetitions),
    ]
}

/// C3 `diffable-10k`: a collection view list of 10,000 items in 10 sections (a
/// 400×800 view, cells for what is in view), and snapshots with 1 % of the items
/// changed — 40 deleted, 40 inserted, 20 moved. Measured: `apply` animated, from
/// the call to the cells in place (the diff, the mapping, the layout, the cells'
/// animations made), next to the standard library's `difference(from:)` with
/// moves inferred on the same two arrays, and to `reloadData()`.
@MainActor
func sceneDiffable10k(repetitions: Int) -> [Figure] {
    let clock = ManualMediaClock(now: 1000)
    MediaTime.clock = clock
    let layout = CollectionViewListLayout()
    layout.rowHeight = 44
    let cv = CollectionView(frame: Rect(x: 0, y: 0, width: 400, height: 800), collectionViewLayout: layout)
    let registration = CellRegistration<CollectionViewCell, Int> { cell, _, item in cell.textLabel.text = "Item \(item)" }
    let source = CollectionViewDiffableDataSource<Int, Int>(collectionView: cv) { cv, path, item in
        cv.dequeueConfiguredReusableCell(using: registration, for: path, item: item)
    }
    var rng: UInt64 = 42
    func next(_ n: Int) -> Int {
        rng = rng &* 6364136223846793005 &+ 1442695040888963407
        return Int((rng >> 33) % UInt64(n))
    }
    var base = DiffableDataSourceSnapshot<Int, Int>()
    base.appendSections(Array(0..<10))
    for s in 0..<10 { base.appendItems(Array((s * 1000)..<(s * 1000 + 1000)), toSection: s) }
    var fresh = 100_000
    var applied: [Double] = [], stdlib: [Double] = [], reload: [Double] = []
    var current = base
    source.apply(current, animatingDifferences: false)
    Transaction.flush()
    for _ in 0..<repetitions {
        var changed = current
        let items = changed.itemIdentifiers
        changed.deleteItems((0..<40).map { _ in items[next(items.count)] })
        for _ in 0..<40 {
            let all = changed.itemIdentifiers
            changed.insertItems([fresh], afterItem: all[next(all.count)])
            fresh += 1
        }
        for _ in 0..<20 {
            let all = changed.itemIdentifiers
            let a = all[next(all.count)], b = all[next(all.count)]
            if a != b { changed.moveItem(a, afterItem: b) }
        }
        let t0 = now()
        source.apply(changed, animatingDifferences: true)
        let t1 = now()
        _ = changed.itemIdentifiers.difference(from: current.itemIdentifiers).inferringMoves()
        let t2 = now()
        cv.reloadData()
        let t3 = now()
        applied.append(t1 - t0)
        stdlib.append(t2 - t1)
        reload.append(t3 - t2)
        Transaction.flush()
        clock.advance(by: 1)
        current = changed
    }
    let a = median(applied) * 1e6, d = median(stdlib) * 1e6, r = median(reload) * 1e6
    return [
        Figure(scene: "C3 diffable-10k", metric: "apply, 1 % changed, animated", value: a, unit: "µs", repetitions: repetitions),
        Figure(scene: "C3 diffable-10k", metric: "the standard library's difference(from:), moves inferred", value: d, unit: "µs", repetitions: repetitions),
        Figure(scene: "C3 diffable-10k", metric: "ratio apply/difference", value: a / d, unit: "x", repetitions: repetitions),
        Figure(scene: "C3 diffable-10k", metric: "reloadData", value: r, unit: "µs", repetitions: repetitions),
    ]
}
