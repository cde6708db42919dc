/// Character (grapheme cluster) boundaries found from UTF-8 offsets, looking only
/// at the characters around the offset: a text field holding 200 KB moves its
/// caret at the cost of a character, not of the text. Swift's String rounds an
/// index inside a character down to the character's start, which these rely on.
extension String {
    /// The nearest character boundary at or before `offset` (clamped to the text).
    func characterOffset(atOrBefore offset: Int) -> Int {
        let u = utf8
        let clamped = Swift.min(Swift.max(0, offset), u.count)
        guard clamped > 0, clamped < u.count else { return clamped }
        let after = index(after: u.index(u.startIndex, offsetBy: clamped))
        return u.distance(from: u.startIndex, to: index(before: after))
    }

    /// The nearest character boundary at or after `offset` (clamped to the text).
    func characterOffset(atOrAfter offset: Int) -> Int {
        let down = characterOffset(atOrBefore: offset)
        guard down < Swift.min(Swift.max(0, offset), utf8.count) else { return down }
        return characterOffset(after: down) ?? utf8.count
    }

    /// The start of the character before the boundary `offset`; nil at the start.
    func characterOffset(before offset: Int) -> Int? {
        let at = characterOffset(atOrBefore: offset)
        guard at > 0 else { return nil }
        let u = utf8
        return u.distance(from: u.startIndex, to: index(before: u.index(u.startIndex, offsetBy: at)))
    }

    /// The end of the character at the boundary `offset`; nil at the end.
    func characterOffset(after offset: Int) -> Int? {
        let at = characterOffset(atOrBefore: offset)
        let u = utf8
        guard at < u.count else { return nil }
        return u.distance(from: u.startIndex, to: index(after: u.index(u.startIndex, offsetBy: at)))
    }
}

extension String {
    /// The nearest Unicode scalar boundary at or before `offset` (clamped to the text).
    func scalarOffset(atOrBefore offset: Int) -> Int {
        let u = utf8
        var at = Swift.min(Swift.max(0, offset), u.count)
        while at > 0, at < u.count, u[u.index(u.startIndex, offsetBy: at)] & 0xC0 == 0x80 { at -= 1 }
        return at
    }

    /// The text between two UTF-8 offsets (on scalar boundaries).
    func utf8Slice(_ range: Range<Int>) -> Substring {
        let u = utf8
        return Substring(u[u.index(u.startIndex, offsetBy: range.lowerBound)..<u.index(u.startIndex, offsetBy: range.upperBound)])
    }
}

extension String {
    /// A window's edge moves at most this many bytes to fall between characters.
    static let longestWindowCharacter = 256

    /// The edge of a window of the text (a part laid out alone) near `offset`:
    /// between characters, unless a character of hundreds of marks would move it
    /// further than ``longestWindowCharacter``; then between two of that
    /// character's scalars.
    func windowEdge(near offset: Int, up: Bool) -> Int {
        let between = up ? characterOffset(atOrAfter: offset) : characterOffset(atOrBefore: offset)
        return Swift.abs(between - offset) <= String.longestWindowCharacter ? between : scalarOffset(atOrBefore: offset)
    }
}
