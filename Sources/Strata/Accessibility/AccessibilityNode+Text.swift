// A node's text, for AT-SPI's Text and EditableText: offsets in characters
// (Unicode scalars), as AT-SPI counts them.

extension AccessibilityNode {
    /// The text a label shows or a field holds.
    var text: String? {
        guard case let .view(v) = self else { return nil }
        if let field = v as? TextField { return field.accessibilityText }
        if let label = v as? Label { return label.text ?? "" }
        return nil
    }

    /// A field's selection (the caret where it is empty).
    var textSelection: Range<Int>? {
        guard case let .view(v) = self, let field = v as? TextField, let text = field.text else { return nil }
        if field.isSecureTextEntry { return text.count..<text.count }   // where the caret is, no more
        let range = field.selectedTextRange
        let scalars = text.unicodeScalars
        return scalars.distance(from: scalars.startIndex, to: range.lowerBound)..<scalars.distance(from: scalars.startIndex, to: range.upperBound)
    }

    /// Selects `range` of a field (clamped); false for anything else.
    func selectText(_ range: Range<Int>) -> Bool {
        guard case let .view(v) = self, let field = v as? TextField, let text = field.text else { return false }
        field.selectedTextRange = Self.indices(range, in: text)
        return true
    }

    /// Replaces `range` of a field's text as typing would (rule Y4); refused
    /// when the field is not enabled.
    func replaceText(_ range: Range<Int>, with replacement: String) -> Bool {
        guard case let .view(v) = self, let field = v as? TextField, field.isEnabled, let text = field.text else { return false }
        field.selectedTextRange = Self.indices(range, in: text)
        if replacement.isEmpty {
            if !field.selectedTextRange.isEmpty { field.deleteBackward() }
        } else {
            field.insertText(replacement)
        }
        return true
    }

    // MARK: Where characters are (AT-SPI's extents and offset at a point)

    /// The node's laid-out text and where it is, when the layout holds exactly its text.
    private var textGeometry: (view: View, layout: TextLayout, origin: Point)? {
        guard case let .view(v) = self, let text else { return nil }
        let found = (v as? Label)?.accessibilityTextLayout ?? (v as? TextField)?.accessibilityTextLayout
        guard let (layout, origin) = found, layout.text.unicodeScalars.count == text.unicodeScalars.count else { return nil }
        return (v, layout, origin)
    }

    /// Where the characters in `range` (character offsets) are drawn, in window
    /// coordinates: their union; the caret's place for an empty range. The
    /// node's frame when its layout is not known.
    func textExtents(_ range: Range<Int>) -> Rect {
        guard let (view, layout, origin) = textGeometry else { return frame }
        let bytes = Self.byteOffsets(of: layout.text)
        let start = bytes[min(max(0, range.lowerBound), bytes.count - 1)], end = bytes[min(max(0, range.upperBound), bytes.count - 1)]
        let rects = start < end ? layout.selectionRects(from: start, to: end) : [layout.caretRect(atByte: start)]
        let union = rects.dropFirst().reduce(rects.first ?? .zero) { $0.union($1) }
        return view.convert(union.offsetBy(dx: origin.x, dy: origin.y), to: nil)
    }

    /// The character at a point in window coordinates, or nil outside the text.
    func textOffset(at point: Point) -> Int? {
        guard let (view, layout, origin) = textGeometry else { return nil }
        let local = view.convert(point, from: nil)
        let inLayout = Point(x: local.x - origin.x, y: local.y - origin.y)
        guard layout.lines.contains(where: { $0.rect.contains(inLayout) }) else { return nil }
        let byte = layout.index(at: inLayout).byte
        return Self.byteOffsets(of: layout.text).lastIndex { $0 <= byte }
    }

    /// Each character's UTF-8 offset, and the text's length last.
    private static func byteOffsets(of text: String) -> [Int] {
        var offsets: [Int] = [], at = 0
        for scalar in text.unicodeScalars {
            offsets.append(at)
            at += UTF8.width(scalar)
        }
        return offsets + [at]
    }

    static func indices(_ range: Range<Int>, in text: String) -> Range<String.Index> {
        let scalars = text.unicodeScalars
        func index(_ offset: Int) -> String.Index {
            scalars.index(scalars.startIndex, offsetBy: min(max(0, offset), scalars.count))
        }
        let lower = index(range.lowerBound)
        return lower..<max(lower, index(range.upperBound))
    }
}
