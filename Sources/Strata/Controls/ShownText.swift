/// What a ``TextField`` lays out: its text (bullets in a secure field) with the
/// input method's marked text at the caret — all of it up to ``wholeTextLimit``
/// bytes, and beyond that a window of about that many bytes around the caret.
///
/// A field shows one line a few hundred points wide; laying out 200 KB for each
/// key made typing into a full field take about a second a key. The window moves
/// with the caret (``range(of:caret:keeping:)``), so what a key costs is bounded
/// by the window, not by the text. Offsets given to and returned by this type
/// are UTF-8 offsets into the field's text; the layout's own are "layout offsets".
@MainActor
struct ShownText {
    /// Texts up to this many UTF-8 bytes are laid out whole.
    static let wholeTextLimit = 8192
    /// A window's edge moves at most this many bytes to fall between characters.
    static let longestCharacter = String.longestWindowCharacter

    /// The part of the field's text laid out.
    let range: Range<Int>
    let layout: TextLayout
    private let text: String
    private let isSecure: Bool
    /// Where the marked text stands (a text offset) and its length in layout bytes.
    private let markedAt: Int
    private let markedLength: Int

    init(text: String, range: Range<Int>, marked: String?, at markedAt: Int, secure: Bool, style: TextStyle) {
        self.text = text
        self.range = range
        self.isSecure = secure
        self.markedAt = min(max(markedAt, range.lowerBound), range.upperBound)
        self.markedLength = marked?.utf8.count ?? 0
        let part = text.utf8Slice(range)
        var shown = Array((secure ? String(repeating: "•", count: part.count) : String(part)).utf8)
        if let marked {
            let at = self.markedAt - range.lowerBound
            shown.insert(contentsOf: marked.utf8, at: secure ? Substring(part.utf8.prefix(at)).count * 3 : at)
        }
        layout = TextLayout(AttributedText(String(decoding: shown, as: UTF8.self)), style: style, width: nil)
    }

    /// The window of `text` to lay out with the caret (the selection's moving end)
    /// at `caret`: the whole text when it is short; else the window starting at
    /// `start` while the caret keeps a quarter of it on either side (or is near
    /// the text's own end); else a new window centred on the caret. Edges fall
    /// between characters.
    static func range(of text: String, caret: Int, keeping start: Int?) -> Range<Int> {
        let count = text.utf8.count
        guard count > wholeTextLimit else { return 0..<count }
        let margin = wholeTextLimit / 4
        // A window ending near the text's end takes the end in (typing there keeps it).
        func window(from start: Int) -> Range<Int> {
            let lower = text.windowEdge(near: start, up: false)
            return lower..<(lower + wholeTextLimit + margin >= count ? count : text.windowEdge(near: lower + wholeTextLimit, up: true))
        }
        if let start, start <= count {
            let kept = window(from: start)
            let lowOK = kept.lowerBound == 0 || caret >= kept.lowerBound + margin
            let highOK = kept.upperBound == count || caret <= kept.upperBound - margin
            if kept.lowerBound == start, kept.contains(caret) || caret == kept.upperBound, lowOK, highOK { return kept }
        }
        return window(from: max(0, min(caret - wholeTextLimit / 2, count - wholeTextLimit)))
    }

    /// Bytes either side of the caret that visual caret movement looks at.
    static let visualMoveReach = 256

    /// The caret position visually left (`direction` -1) or right (+1) of the
    /// text offset `offset`, through bidirectional text as the eye sees it.
    ///
    /// Pango's `pango_layout_move_cursor_visually` costs the square of the line's
    /// length (3.8 s a key on an 8 KB line), so it runs on a layout of the
    /// ``visualMoveReach`` bytes either side of the caret. A visual neighbour
    /// further away than that in the text (past a right-to-left run of hundreds
    /// of characters) is reached at that distance instead.
    static func visualMove(in text: String, from offset: Int, direction: Int, style: TextStyle) -> Int {
        let lower = text.windowEdge(near: offset - visualMoveReach, up: false)
        let upper = text.windowEdge(near: offset + visualMoveReach, up: true)
        let part = String(text.utf8Slice(lower..<upper))
        let layout = TextLayout(AttributedText(part), style: style, width: nil)
        return lower + (layout.visualMove(fromByte: offset - lower, direction: direction) ?? (direction < 0 ? 0 : layout.text.utf8.count))
    }

    /// A text offset's place in the layout, clamped to the window; the marked
    /// text counts as standing after the caret.
    func layoutOffset(_ offset: Int) -> Int {
        let clamped = min(max(offset, range.lowerBound), range.upperBound)
        let shown = isSecure ? characters(range.lowerBound, clamped) * 3 : clamped - range.lowerBound
        return clamped > markedAt ? shown + markedLength : shown
    }

    /// The layout offset of the caret at a text offset: after the marked text.
    func caretOffset(_ offset: Int) -> Int {
        offset == markedAt ? layoutOffset(offset) + markedLength : layoutOffset(offset)
    }

    /// The text offset of a layout offset (inside the marked text: the caret).
    func textOffset(_ layoutOffset: Int) -> Int {
        var d = layoutOffset
        let markedStart = self.layoutOffset(markedAt)
        if d >= markedStart + markedLength { d -= markedLength } else if d > markedStart { d = markedStart }
        guard isSecure else { return min(range.lowerBound + d, range.upperBound) }
        let u = text.utf8
        var index = u.index(u.startIndex, offsetBy: range.lowerBound)
        let end = u.index(u.startIndex, offsetBy: range.upperBound)
        for _ in 0..<(d / 3) where index < end { index = text.index(after: index) }
        return u.distance(from: u.startIndex, to: index)
    }

    private func characters(_ from: Int, _ to: Int) -> Int {
        text.utf8Slice(from..<to).count
    }
}
