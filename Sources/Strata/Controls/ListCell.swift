/// A row of a list (`UITableViewCell`): a ``textLabel`` and an optional
/// ``accessoryView`` in its ``contentView``, which slides aside when the row is
/// swiped. A ``ListView``'s collection view cell, reused as any is: configure
/// everything the row shows each time.
@MainActor
public final class ListCell: CollectionViewCell {
    /// The identifier a list registers its cells under.
    static let reuseIdentifier = "Strata.ListCell"

    // What its row's element (ListRowElement) reads and does: its text; activating
    // it selects the row, and a list that deletes rows offers Delete (rules Y2, Y4).
    override var defaultIsAccessibilityElement: Bool { true }
    override var defaultAccessibilityLabel: String? { textLabel.text }
    override var defaultAccessibilityValue: String? { (accessoryView?.isAccessibilityElement ?? false) ? accessoryView?.accessibilityValue : nil }
    /// A switch in the row makes the row a toggle as well (UIKit reads a cell
    /// with a switch as one element whose activation flips it).
    override var defaultAccessibilityTraits: AccessibilityTraits {
        accessoryView.map { $0.isAccessibilityElement ? $0.accessibilityTraits.intersection(.toggleButton) : [] } ?? []
    }
    override func accessibilityToggle() -> Bool { accessoryView?.accessibilityActivate() ?? false }
    /// Its row's element tells its changes, when an assistive technology has
    /// asked for it (a cell filled off screen to be read tells nothing).
    override var accessibilityEventSource: AnyObject? { superview == nil ? nil : list?.rowElements[row] }
    public override func accessibilityActivate() -> Bool {
        guard let list, list.allowsSelection else { return false }
        list.didTap(row: row)
        return true
    }
    public override var accessibilityCustomActions: [AccessibilityCustomAction]? {
        get {
            guard let list, list.onDeleteRow != nil else { return super.accessibilityCustomActions }
            let delete = AccessibilityCustomAction(name: "Delete") { [weak self] _ in
                guard let self, let list = self.list else { return false }
                return list.requestDelete(row: self.row)
            }
            return (super.accessibilityCustomActions ?? []) + [delete]
        }
        set { super.accessibilityCustomActions = newValue }
    }

    /// The row's text, laid out by the cell (not by constraints, as a collection view list cell's is).
    public override var textLabel: Label { rowLabel }
    private let rowLabel = Label(frame: .zero)
    /// A view at the trailing edge (a switch, say).
    public var accessoryView: View? {
        didSet {
            oldValue?.removeFromSuperview()
            if let accessoryView { contentView.addSubview(accessoryView) }
            setNeedsLayout()
        }
    }
    /// The row it shows now.
    public internal(set) var row: Int {
        get { indexPath?.item ?? 0 }
        set { indexPath = IndexPath(item: newValue, section: 0) }
    }
    var list: ListView? { collectionView as? ListView }
    private let separator = View(frame: .zero)
    private let deleteBackground = View(frame: .zero)
    private let deleteLabel = Label(frame: .zero)
    private lazy var swipe: PanGestureRecognizer = {
        let pan = PanGestureRecognizer { [weak self] in self?.swiped($0 as! PanGestureRecognizer) }
        pan.shouldBegin = { [weak self] r in
            guard let self else { return false }
            let t = (r as! PanGestureRecognizer).translation(in: self)
            return list?.onDeleteRow != nil && t.x * swipeSign > 0 && abs(t.x) > abs(t.y)
        }
        return pan
    }()

    public required init(frame: Rect) {
        super.init(frame: frame)
        clipsToBounds = true
        deleteBackground.backgroundColor = .systemRed
        deleteLabel.text = "Delete"
        deleteLabel.textColor = .white
        deleteLabel.textAlignment = .right
        deleteBackground.addSubview(deleteLabel)
        insertSubview(deleteBackground, at: 0)
        contentView.autoresizingMask = []   // laid out here: it slides aside in a swipe
        contentView.addSubview(rowLabel)
        separator.backgroundColor = .separator
        addSubview(separator)
        addGestureRecognizer(swipe)
    }

    convenience init() { self.init(frame: .zero) }

    /// Which way a swipe to delete moves a row: left (−1), or right in a right-to-left list (+1; rule P3).
    private var swipeSign: Double { effectiveUserInterfaceLayoutDirection == .rightToLeft ? 1 : -1 }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let b = bounds
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        // Laid out leading to trailing, then mirrored right to left.
        let placed = mirroredForLayoutDirection
        View.performWithoutAnimation {
            deleteBackground.frame = b
            deleteLabel.frame = placed(Rect(x: 0, y: 0, width: b.width - 16, height: b.height))
            deleteLabel.textAlignment = rightToLeft ? .left : .right
            contentView.frame = Rect(x: contentView.frame.minX, y: 0, width: b.width, height: b.height)
            var trailing = b.width - 16
            if let accessory = accessoryView {
                let size = accessory.intrinsicContentSize
                let w = size.width > 0 ? size.width : accessory.bounds.width, h = size.height > 0 ? size.height : accessory.bounds.height
                accessory.frame = placed(Rect(x: trailing - w, y: ((b.height - h) / 2).rounded(), width: w, height: h))
                trailing -= w + 8
            }
            textLabel.frame = placed(Rect(x: 16, y: 0, width: max(0, trailing - 16), height: b.height))
            separator.frame = placed(Rect(x: 16, y: b.height - 0.5, width: b.width - 16, height: 0.5))
        }
    }

    // MARK: Selection (a tap on the row, not on a control in it, as any collection view cell) and focus

    /// The row's colours are on its content, which slides over Delete.
    override func updateBackground() {
        contentView.backgroundColor = isHighlighted ? .systemGray5 : isSelected ? .systemGray4 : .systemBackground
    }

    /// A ring inside its edge.
    override func updateFocusRing() {
        contentView.layer.borderWidth = showsFocus ? 2 : 0
        contentView.layer.borderColor = tintColor.withAlpha(0.6)
    }

    // MARK: Swipe to delete

    private func swiped(_ pan: PanGestureRecognizer) {
        let width = bounds.width
        switch pan.state {
        case .began, .changed:
            // Towards the trailing edge only: left, or right in a right-to-left list.
            let x = swipeSign < 0 ? min(0, pan.translation(in: self).x) : max(0, pan.translation(in: self).x)
            View.performWithoutAnimation { contentView.frame.origin.x = x }
        case .ended:
            let x = contentView.frame.minX
            let flung = pan.velocity(in: self).x * swipeSign > 600
            if abs(x) > width * 0.4 || flung {
                let away = width * swipeSign
                View.animate(duration: 0.2, options: [.curveEaseOut]) { self.contentView.frame.origin.x = away }
                list?.requestDelete(row: row)
            } else {
                View.animate(duration: 0.25) { self.contentView.frame.origin.x = 0 }
            }
        case .cancelled, .failed:
            View.animate(duration: 0.25) { self.contentView.frame.origin.x = 0 }
        default: break
        }
    }

    /// Back to rest for reuse.
    public override func prepareForReuse() {
        View.performWithoutAnimation {
            super.prepareForReuse()
            contentView.frame.origin.x = 0
            alpha = 1
        }
    }
}
