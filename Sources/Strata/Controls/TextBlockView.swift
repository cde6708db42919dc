/// One block of a ``TextView``'s text on screen — a paragraph or a piece of a
/// long one — with the selection's part in it and an input method's marked text
/// underlined. The text view keeps one for each block in view and hands them to
/// other blocks as it scrolls, so scrolling moves drawn layers and draws only
/// the blocks coming into view.
@MainActor
final class TextBlockView: View {
    var layout: TextLayout? { didSet { if layout !== oldValue { setNeedsDisplay() } } }
    /// The selected part, in layout offsets (nil or empty: none).
    var selection: Range<Int>? { didSet { if selection != oldValue { setNeedsDisplay() } } }
    /// The marked text, in layout offsets.
    var marked: Range<Int>? { didSet { if marked != oldValue { setNeedsDisplay() } } }
    var textColor: Color = .label { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    var selectionColor: Color = .systemBlue { didSet { if selectionColor != oldValue { setNeedsDisplay() } } }

    override init(frame: Rect) {
        super.init(frame: frame)
        hasDrawnContent = true
        isUserInteractionEnabled = false
    }

    override func draw(in context: any DrawingContext) {
        guard let layout else { return }
        if let selection, !selection.isEmpty {
            let color = selectionColor.withAlpha(0.25).resolvedColor(with: traitCollection)
            for r in layout.selectionRects(from: selection.lowerBound, to: selection.upperBound) { context.fill(r, color: color) }
        }
        layout.draw(at: .zero, color: textColor, traits: traitCollection, in: context)
        if let marked, !marked.isEmpty {
            let color = textColor.resolvedColor(with: traitCollection)
            for r in layout.selectionRects(from: marked.lowerBound, to: marked.upperBound) {
                context.fill(Rect(x: r.minX, y: r.maxY - 1.5, width: r.width, height: 1), color: color)
            }
        }
    }
}
