/// A view a collection view shows and reuses: a cell, a header or a footer
/// (`UICollectionReusableView`). Views made by a collection view are made with
/// `init(frame:)`, so subclasses keep that initializer.
@MainActor
open class CollectionReusableView: View {
    /// The identifier it was dequeued with.
    public internal(set) var reuseIdentifier: String?
    /// Where it is shown now.
    public internal(set) var indexPath: IndexPath?
    weak var collectionView: CollectionView?

    public required override init(frame: Rect) {
        super.init(frame: frame)
    }

    /// Called before the view is handed out again for another item (`prepareForReuse`).
    open func prepareForReuse() {}

    /// The attributes the view would like (`preferredLayoutAttributesFitting`), for
    /// self-sizing layouts: in a list, the given width and the height its
    /// constraints (``View/systemLayoutSizeFitting(_:withHorizontalFittingPriority:verticalFittingPriority:)``)
    /// or, without any, ``View/sizeThatFits(_:)`` give; in a flow layout, its width
    /// too — the smallest its content allows, no wider than a line (where it
    /// wraps, if it can, and grows taller).
    open func preferredLayoutAttributesFitting(_ attributes: CollectionViewLayoutAttributes) -> CollectionViewLayoutAttributes {
        let measured = viewMeasured
        let constrained = measured.usesConstraintsInside
        /// The size for a width (nil: the narrowest the content allows).
        func fit(width: Double?) -> Size {
            if constrained {
                return measured.systemLayoutSizeFitting(Size(width: width ?? 0, height: 0), withHorizontalFittingPriority: width == nil ? .fittingSizeLevel : .required,
                                                        verticalFittingPriority: .fittingSizeLevel)
            }
            let fitted = measured.sizeThatFits(Size(width: width ?? 0, height: 0))
            return Size(width: width ?? fitted.width, height: fitted.height)
        }
        var size: Size
        if let limit = collectionView?.collectionViewLayout.selfSizingWidthLimit {
            size = fit(width: nil)
            if !(size.width <= limit) { size = fit(width: limit) }
            size.width = min(size.width, limit)
        } else {
            size = fit(width: attributes.frame.width)
            size.width = attributes.frame.width
        }
        if !size.width.isFinite || size.width <= 0 { size.width = attributes.frame.width }
        if !size.height.isFinite || size.height <= 0 { size.height = attributes.frame.height }
        let made = attributes.copy()
        made.frame.size = size
        return made
    }

    /// The view whose constraints give the size: a cell's content view.
    var viewMeasured: View { self }
}

extension View {
    fileprivate var usesConstraintsInside: Bool {
        var stack = subviews
        while let v = stack.popLast() {
            if !v.translatesAutoresizingMaskIntoConstraints { return true }
            stack.append(contentsOf: v.subviews)
        }
        return false
    }
}


/// A cell of a collection view (`UICollectionViewCell`): its content goes in
/// ``contentView``; a list cell's text in ``textLabel``. Selected and highlighted
/// cells tint their background, as UIKit's list cells do.
@MainActor
open class CollectionViewCell: CollectionReusableView {
    /// Where the cell's content goes; it fills the cell.
    public let contentView = View()

    /// A label filling the content view with the list's margins, made when first asked for.
    public var textLabel: Label {
        if let l = madeTextLabel { return l }
        let l = Label()
        l.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(l)
        LayoutConstraint.activate([
            l.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 16),
            l.trailingAnchor.constraint(lessThanOrEqualTo: contentView.trailingAnchor, constant: -16),
            l.topAnchor.constraint(equalTo: contentView.topAnchor, constant: 11),
            l.bottomAnchor.constraint(equalTo: contentView.bottomAnchor, constant: -11),
        ])
        madeTextLabel = l
        return l
    }
    private var madeTextLabel: Label?

    override var viewMeasured: View { contentView }

    /// Whether the item is selected; the cell shows it (the tint behind its content).
    open var isSelected = false { didSet { if isSelected != oldValue { updateBackground() } } }
    /// Whether a finger or the pointer is down on it.
    open var isHighlighted = false { didSet { if isHighlighted != oldValue { updateBackground() } } }
    /// Whether it has the keyboard focus (a ring, as the list's rows show).
    var showsFocus = false { didSet { if showsFocus != oldValue { updateFocusRing() } } }

    public required init(frame: Rect) {
        super.init(frame: frame)
        contentView.frame = bounds
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
        layer.borderColor = Color.systemBlue.resolvedColor(with: .standard)
        updateBackground()
    }

    open override func prepareForReuse() {
        super.prepareForReuse()
        isSelected = false
        isHighlighted = false
        showsFocus = false
    }

    /// Shows the selection and the highlight: the tint behind the content.
    func updateBackground() {
        backgroundColor = isSelected ? .systemBlue.withAlpha(0.22) : isHighlighted ? .systemGray5 : nil
    }

    func updateFocusRing() { layer.borderWidth = showsFocus ? 2 : 0 }

    /// Highlighted while touched, where items can be selected.
    open override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        if collectionView?.allowsSelection != false { isHighlighted = true }
    }
    open override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {}
    open override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        isHighlighted = false
        if let t = touches.first, bounds.contains(t.location(in: self)) { collectionView?.didTap(self) }
    }
    open override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { isHighlighted = false }

    // A list item to assistive technologies (selectable, selected with the item), named by its
    // text: one element when it shows a text label; otherwise what it holds (switches, steppers)
    // is read one by one, unless the app makes it an element.
    override var accessibilityRole: AccessibilityRole? { .listItem }
    override var defaultIsAccessibilityElement: Bool { madeTextLabel != nil }
    override var defaultAccessibilityLabel: String? { madeTextLabel?.text }
    override var defaultAccessibilityTraits: AccessibilityTraits { isSelected ? [.selected] : [] }
    public override func accessibilityActivate() -> Bool {
        collectionView?.didTap(self)
        return true
    }
}
