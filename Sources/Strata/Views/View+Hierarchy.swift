/// Subview management and the hooks UIKit calls around it.
extension View {
    /// Appends `view` on top of the other subviews (`addSubview(_:)`); a view
    /// already elsewhere moves here. Adding a view into itself or its own
    /// subtree is refused with a diagnostic and changes nothing.
    public func addSubview(_ view: View) {
        place(view, at: nil)
    }

    /// Inserts `view` at `index` among the subviews (back to front). An index out
    /// of range appends, with a diagnostic.
    ///
    /// The hooks (`willMove(toSuperview:)`, `willRemoveSubview(_:)`,
    /// `willMove(toWindow:)`) run first and may edit the tree — add a sibling here,
    /// move the view elsewhere: the insertion reads the tree after them, so nothing
    /// they did is lost (UIKit's order).
    public func insertSubview(_ view: View, at index: Int) {
        place(view, at: index)
    }

    /// Inserts at `index`, or on top (nil) of the subviews as they are after the hooks.
    private func place(_ view: View, at requested: Int?) {
        guard !isDescendant(of: view) else {
            return Diagnostics.report(.invalidView("a view cannot be added to itself or to its own subtree; the tree is unchanged"))
        }
        let oldSuperview = view.superview
        let siblings = subviews.count - (oldSuperview === self ? 1 : 0)
        var index = requested ?? siblings
        if index < 0 || index > siblings {
            Diagnostics.report(.invalidView("subview index \(index) out of range 0...\(siblings); appended"))
            index = siblings
        }
        let oldWindow = view.window, newWindow = window
        if oldSuperview !== self {
            view.willMove(toSuperview: self)
            oldSuperview?.willRemoveSubview(view)
        }
        if oldWindow !== newWindow {
            view.releaseFocus(leaving: oldWindow)
            view.forEachInSubtree { $0.willMove(toWindow: newWindow) }
        }
        // What the hooks did is in the tree now.
        guard !isDescendant(of: view) else {
            return Diagnostics.report(.invalidView("a hook put this view under the view being added; the insertion is dropped"))
        }
        let constraints = view.superview === self ? MovingConstraints() : view.detachLayoutConstraints()
        view.superview?.detach(view)
        index = requested == nil ? subviews.count : min(index, subviews.count)
        // The layer goes just below the layer of the subview now at `index`, so
        // sublayers added to this view's layer directly keep their places.
        if index < subviews.count {
            layer.insertSublayer(view.layer, below: subviews[index].layer)
        } else if let last = subviews.last {
            layer.insertSublayer(view.layer, above: last.layer)
        } else {
            layer.addSublayer(view.layer)
        }
        subviews.insert(view, at: index)
        view.superview = self
        view.attachLayoutConstraints(constraints)
        if oldSuperview !== self {
            didAddSubview(view)
            view.didMoveToSuperview()
        }
        if oldWindow !== newWindow {
            if let newWindow { view.forEachInSubtree { $0.contentScaleFactor = newWindow.scale } }
            view.forEachInSubtree { $0.movedToWindow() }
        }
        view.propagateTraits()
    }

    /// Takes `view` out of `subviews` (searched from the top, where views are
    /// usually added and removed); its layer moves with the next insertion.
    private func detach(_ view: View) {
        if let i = subviews.lastIndex(where: { $0 === view }) { subviews.remove(at: i) }
        view.superview = nil
    }

    /// Inserts `view` just above `sibling`; with a sibling that is not a subview
    /// it appends, with a diagnostic.
    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        guard let i = subviews.firstIndex(where: { $0 === sibling }) else {
            Diagnostics.report(.invalidView("insertSubview(_:aboveSubview:): the sibling is not a subview; appended"))
            return addSubview(view)
        }
        let current = subviews.firstIndex { $0 === view }
        insertSubview(view, at: current.map { $0 <= i ? i : i + 1 } ?? i + 1)
    }

    /// Inserts `view` just below `sibling`; with a sibling that is not a subview
    /// it appends, with a diagnostic.
    public func insertSubview(_ view: View, belowSubview sibling: View) {
        guard let i = subviews.firstIndex(where: { $0 === sibling }) else {
            Diagnostics.report(.invalidView("insertSubview(_:belowSubview:): the sibling is not a subview; appended"))
            return addSubview(view)
        }
        let current = subviews.firstIndex { $0 === view }
        insertSubview(view, at: current.map { $0 < i ? i - 1 : i } ?? i)
    }

    /// Moves a subview in front of its siblings.
    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count - 1)
    }

    /// Moves a subview behind its siblings.
    public func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Swaps the subviews at two indices; out-of-range indices do nothing (with a diagnostic).
    public func exchangeSubview(at i: Int, withSubviewAt j: Int) {
        guard subviews.indices.contains(i), subviews.indices.contains(j) else {
            return Diagnostics.report(.invalidView("exchangeSubview: index out of range"))
        }
        guard i != j else { return }
        let (a, b) = (subviews[i], subviews[j])
        let (low, high) = i < j ? (a, b) : (b, a)
        insertSubview(high, at: min(i, j))
        insertSubview(low, at: max(i, j))
    }

    /// Takes the view out of its superview (and window). Safe during the view's
    /// own animations and their completions: they go on running on its layer.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        let oldWindow = window
        parent.willRemoveSubview(self)
        willMove(toSuperview: nil)
        if oldWindow != nil {
            releaseFocus(leaving: oldWindow)
            forEachInSubtree { $0.willMove(toWindow: nil) }
        }
        // A hook may have moved the view: it leaves wherever it is now.
        let constraints = detachLayoutConstraints()
        superview?.detach(self)
        attachLayoutConstraints(constraints)
        layer.removeFromSuperlayer()
        didMoveToSuperview()
        if oldWindow != nil { forEachInSubtree { $0.movedToWindow() } }
        propagateTraits()
    }

    /// The focus does not stay with a view that leaves its window: the focused
    /// view in this subtree resigns — or, if it refuses, loses it anyway (UIKit's
    /// first responder leaves with its view).
    func releaseFocus(leaving window: Window?) {
        guard let window, let focused = window.firstResponder as? View, focused.isDescendant(of: self) else { return }
        if !focused.resignFirstResponder() || window.firstResponder === focused { window.firstResponder = nil }
    }

    /// Visits the view and every view below it, depth first.
    func forEachInSubtree(_ body: (View) -> Void) {
        var stack: [View] = [self]
        while let v = stack.popLast() {
            body(v)
            stack.append(contentsOf: v.subviews.reversed())
        }
    }

    /// Views in UIKit's reading order, which assistive technologies read and
    /// Tab follows: top to bottom, then leading to trailing; views whose tops lie above the
    /// middle of a row's first view join that row.
    static func inReadingOrder(_ views: [View], rightToLeft: Bool) -> [View] {
        let framed = views.map { ($0, $0.convert($0.bounds, to: nil)) }.sorted { $0.1.minY < $1.1.minY }
        var rows: [[(View, Rect)]] = []
        for item in framed {
            if let first = rows.last?.first, item.1.minY < first.1.midY { rows[rows.count - 1].append(item) } else { rows.append([item]) }
        }
        return rows.flatMap { row in
            row.sorted { rightToLeft ? $0.1.maxX > $1.1.maxX : $0.1.minX < $1.1.minX }.map(\.0)
        }
    }
}
