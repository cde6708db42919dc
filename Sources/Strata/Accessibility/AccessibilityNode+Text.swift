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

    static func indices(_ range: Range<Int>, in text: String) -> Range<String.Index> {
        let scalars = text.unicodeScalars
        func index(_ offset: Int) -> String.Index {
            scalars.index(scalars.startIndex, offsetBy: min(max(0, offset), scalars.count))
        }
        let lower = index(range.lowerBound)
        return lower..<max(lower, index(range.upperBound))
    }
}
