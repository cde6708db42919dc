// A text view as AT-SPI's Text reads it: offsets in characters (Unicode
// scalars), lines as the view wraps them, edits told as what went and came.

extension TextView {
    /// The UTF-8 offset of a character offset (clamped to the text).
    private func byteOffset(ofCharacter offset: Int) -> Int {
        let scalars = text.unicodeScalars
        let index = scalars.index(scalars.startIndex, offsetBy: min(max(0, offset), scalars.count))
        return text.utf8.distance(from: text.utf8.startIndex, to: index)
    }

    /// The character offset of a UTF-8 offset.
    func characterOffset(ofByte offset: Int) -> Int {
        text.utf8Slice(0..<min(max(0, offset), text.utf8.count)).unicodeScalars.count
    }

    /// Where the characters in `range` are, in window coordinates: the caret's
    /// place for an empty range, the lines' full width when it spans lines.
    func accessibilityExtents(of range: Range<Int>) -> Rect {
        let start = caretRect(at: byteOffset(ofCharacter: range.lowerBound))
        let end = caretRect(at: byteOffset(ofCharacter: range.upperBound))
        var union = range.isEmpty ? start : start.union(end)
        if abs(start.minY - end.minY) > 0.5 { union = Rect(x: textOrigin.x, y: union.minY, width: textWidth, height: union.height) }
        return convert(union, to: nil)
    }

    /// The character at a point in window coordinates; nil outside the view.
    func accessibilityOffset(at point: Point) -> Int? {
        let local = convert(point, from: nil)
        guard bounds.contains(local) else { return nil }
        return characterOffset(ofByte: offset(at: local))
    }

    /// The line as shown (`lines`) or the paragraph around a character offset,
    /// as character offsets, its line break included.
    func accessibilityUnit(around offset: Int, lines: Bool) -> Range<Int> {
        let byte = byteOffset(ofCharacter: offset)
        let range: Range<Int>
        if lines {
            let (i, layout, found) = line(at: byte)
            let end = blocks.start(of: i) + blocks.blocks[i].length
            if let k = found {
                let lines = layout.lines
                range = textOffset(lines[k].bytes.lowerBound, in: i)..<(k + 1 < lines.count ? textOffset(lines[k + 1].bytes.lowerBound, in: i) : end)
            } else {
                range = blocks.start(of: i)..<end
            }
        } else {
            range = paragraphRange(around: byte)
        }
        let lower = characterOffset(ofByte: range.lowerBound)
        return lower..<lower + text.utf8Slice(range).unicodeScalars.count
    }

    /// Tells assistive technologies what an edit took out and put in at `byte`
    /// (only while one listens: finding the character offset reads the text up to it).
    func accessibilityTextEdited(at byte: Int, removed: String, inserted: String) {
        guard Application.shared.accessibilityExporter != nil else { return }
        accessibilityDidChange(.textEdited(at: characterOffset(ofByte: byte), removed: removed, inserted: inserted))
    }
}
