/// Layout (`layoutSubviews`, `setNeedsLayout`, `layoutIfNeeded`, sizing).
extension View {
    /// The size-less value of ``intrinsicContentSize`` (`UIView.noIntrinsicMetric`).
    public static let noIntrinsicMetric = -1.0

    /// Marks the view for layout; ``layoutSubviews()`` runs before the next frame
    /// (or at ``layoutIfNeeded()``).
    public func setNeedsLayout() { layer.setNeedsLayout() }

    /// Lays out the view and its subviews now where marked. Inside an animation
    /// block the new layout animates. A layout that keeps marking itself again is
    /// cut off after ``maximumLayoutPasses`` rounds, with a diagnostic (once per view).
    public func layoutIfNeeded() {
        applyLayoutEngine()
        for _ in 0..<View.maximumLayoutPasses {
            guard layer.isLayoutPendingInSubtree else { return }
            layer.layoutIfNeeded()
        }
        if layer.isLayoutPendingInSubtree && !reportedLayoutLoop {
            reportedLayoutLoop = true
            Diagnostics.report(.layoutLoop("layoutSubviews keeps calling setNeedsLayout; stopped after \(View.maximumLayoutPasses) passes"))
        }
    }

    /// How many layout rounds ``layoutIfNeeded()`` runs at most.
    public static let maximumLayoutPasses = 32

    /// Resizes the view to ``sizeThatFits(_:)`` of its current size, keeping its origin.
    public func sizeToFit() {
        let size = sizeThatFits(bounds.size)
        let f = frame
        frame = Rect(x: f.minX, y: f.minY, width: size.width, height: size.height)
    }

    /// A subview's layout depends on this view's intrinsic size: tell the
    /// superview (a stack view lays out again).
    public func invalidateIntrinsicContentSize() {
        superview?.setNeedsLayout()
        autoLayoutState?.engineOfRecord?.intrinsicSizeChanged(self)
        arrangingStack?.arrangedSubviewSizingChanged()
    }

    /// The stack view that arranges this view, if one does.
    var arrangingStack: StackView? {
        guard let stack = superview as? StackView, stack.arrangedSubviews.contains(where: { $0 === self }) else { return nil }
        return stack
    }

    /// Makes a change that may resize the bounds; when it does, subviews follow
    /// their autoresizing masks and the view is laid out again (rule W2).
    func resizing(_ change: () -> Void) {
        let old = layer.bounds.size
        change()
        autoLayoutState?.engineOfRecord?.geometryChanged(self)
        let new = layer.bounds.size
        guard new != old else { return }
        for subview in subviews where !subview.autoresizingMask.isEmpty && subview.translatesAutoresizingMaskIntoConstraints {
            subview.frame = subview.autoresizingMask.resized(subview.frame, from: old, to: new)
        }
        boundsSizeDidChange()
        setNeedsLayout()
    }
}
