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
