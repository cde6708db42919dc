// A node's text, for AT-SPI's Text and EditableText: offsets in characters
// (Unicode scalars), as AT-SPI counts them.

extension AccessibilityNode {
    /// The text a label shows or a field holds.
    var text: String? {
        guard case let .view(v) = self else { return nil }
        if let field = v as? TextField { return field.accessibilityText }
        if let textView = v as? TextView { return textView.text }
        if let label = v as? Label { return label.text ?? "" }
        return nil
    }

    /// A field's selection (the caret where it is empty).
    var textSelection: Range<Int>? {
        guard case let .view(v) = self else { return nil }
        let text: String, range: Range<String.Index>
        if let textView = v as? TextView {
            (text, range) = (textView.text, textView.selectedTextRange)
        } else if let field = v as? TextField, let fieldText = field.text {
            if field.isSecureTextEntry { return fieldText.count..<fieldText.count }   // where the caret is, no more
            (text, range) = (fieldText, field.selectedTextRange)
        } else {
            return nil
        }
        let scalars = text.unicodeScalars
        return scalars.distance(from: scalars.startIndex, to: range.lowerBound)..<scalars.distance(from: scalars.startIndex, to: range.upperBound)
    }

    /// Selects `range` of a field (clamped); false for anything else.
    func selectText(_ range: Range<Int>) -> Bool {
        guard case let .view(v) = self else { return false }
        if let textView = v as? TextView {
            textView.selectedTextRange = Self.indices(range, in: textView.text)
            return true
        }
        guard let field = v as? TextField, let text = field.text else { return false }
        field.selectedTextRange = Self.indices(range, in: text)
        return true
    }

    /// Replaces `range` of a field's text as typing would (rule Y4); refused
    /// when the field is not enabled.
    func replaceText(_ range: Range<Int>, with replacement: String) -> Bool {
        guard case let .view(v) = self else { return false }
        if let textView = v as? TextView {
            guard textView.isEditable else { return false }
            textView.selectedTextRange = Self.indices(range, in: textView.text)
            if replacement.isEmpty {
                if !textView.selectedTextRange.isEmpty { textView.deleteBackward() }
            } else {
                textView.insertText(replacement)
            }
            return true
        }
        guard let field = v as? TextField, field.isEnabled, let text = field.text else { return false }
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
        if case let .view(textView as TextView) = self { return textView.accessibilityExtents(of: range) }
        guard let (view, layout, origin) = textGeometry else { return frame }
        let bytes = Self.byteOffsets(of: layout.text)
        let start = bytes[min(max(0, range.lowerBound), bytes.count - 1)], end = bytes[min(max(0, range.upperBound), bytes.count - 1)]
        let rects = start < end ? layout.selectionRects(from: start, to: end) : [layout.caretRect(atByte: start)]
        let union = rects.dropFirst().reduce(rects.first ?? .zero) { $0.union($1) }
        return view.convert(union.offsetBy(dx: origin.x, dy: origin.y), to: nil)
    }

    /// The character at a point in window coordinates, or nil outside the text.
    func textOffset(at point: Point) -> Int? {
        if case let .view(textView as TextView) = self { return textView.accessibilityOffset(at: point) }
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

    /// The character, word, line or paragraph around a character offset
    /// (AT-SPI's granularities 0–4): a text view's lines as it shows them.
    func textUnit(around offset: Int, granularity: UInt32, in scalars: [Unicode.Scalar]) -> Range<Int> {
        if granularity >= 3, case let .view(textView as TextView) = self { return textView.accessibilityUnit(around: offset, lines: granularity == 3) }
        return AtSpiExporter.unit(around: offset, granularity: granularity, in: scalars)
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
