// A text view's keys: what each does, and where the caret goes — by
// characters, words, lines, screens and paragraphs, across the blocks.

extension TextView {
    /// Handles a key press; false when it is not the text view's to take.
    func handle(_ key: Key) -> Bool {
        let shift = key.modifierFlags.contains(.shift)
        let control = key.modifierFlags.contains(.control)
        switch key.keysym {
        case 0xff08: control ? deleteWord(forward: false) : deleteBackward(); return true        // BackSpace
        case 0xffff: control ? deleteWord(forward: true) : deleteForward(); return true          // Delete
        case 0xff51: move(visually: -1, byWord: control, extend: shift); return true              // Left
        case 0xff53: move(visually: 1, byWord: control, extend: shift); return true               // Right
        case 0xff52: moveVertically(lines: -1, extend: shift); return true                        // Up
        case 0xff54: moveVertically(lines: 1, extend: shift); return true                         // Down
        case 0xff55: moveByPage(-1, extend: shift); return true                                   // Page Up
        case 0xff56: moveByPage(1, extend: shift); return true                                    // Page Down
        case 0xff50: moveTo(control ? 0 : lineEnds(of: movingEnd).start, extend: shift); return true            // Home
        case 0xff57: moveTo(control ? model.text.utf8.count : lineEnds(of: movingEnd).end, extend: shift); return true   // End
        case 0xff0d, 0xff8d:                                                                      // Return, Enter
            guard isEditable else { return false }
            if markedText != nil { unmarkText() } else { insertText("\n") }
            return true
        case Key.tab:
            guard isEditable, key.modifierFlags.isEmpty else { return false }
            insertText("\t")
            return true
        case Key.isoLeftTab: return false
        default: break
        }
        if control { return handleEditShortcut(key) }
        guard isEditable, !key.modifierFlags.contains(.alternate), !key.modifierFlags.contains(.command),
              !key.characters.isEmpty, key.characters.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else { return false }
        insertText(key.characters)
        return true
    }

    // MARK: Deleting

    private func deleteForward() {
        let s = model.selection
        if !s.isEmpty { edit(replacing: s, with: "", typing: false); return }
        guard let next = model.text.characterOffset(after: s.upperBound) else { return }
        edit(replacing: s.upperBound..<next, with: "", typing: false)
    }

    private func deleteWord(forward: Bool) {
        let s = model.selection
        guard s.isEmpty else { edit(replacing: s, with: "", typing: false); return }
        let other = forward ? nextWordEnd(after: s.lowerBound) : previousWordStart(before: s.lowerBound)
        guard other != s.lowerBound else { return }
        edit(replacing: min(s.lowerBound, other)..<max(s.lowerBound, other), with: "", typing: false)
    }

    // MARK: Moving the caret

    /// Moves the caret (or, extending, the selection's moving end) to `to`; a
    /// vertical move sets its goal column again after.
    private func moveTo(_ to: Int, extend: Bool) {
        if markedText != nil { unmarkText() }
        if extend {
            select(min(model.anchor, to)..<max(model.anchor, to), anchor: model.anchor)
        } else {
            select(to..<to, anchor: to)
        }
        goalX = nil
    }

    private func move(visually direction: Int, byWord: Bool, extend: Bool) {
        let s = model.selection
        if !extend, !s.isEmpty, !byWord {
            // A selection collapses to its side.
            return moveTo(direction < 0 ? s.lowerBound : s.upperBound, extend: false)
        }
        let from = extend ? movingEnd : s.upperBound
        let to: Int
        if byWord {
            to = direction < 0 ? previousWordStart(before: from) : nextWordEnd(after: from)
        } else {
            to = visualNeighbour(of: from, direction: direction)
        }
        moveTo(to, extend: extend)
    }

    /// The caret position visually left or right of `offset`, through
    /// bidirectional text; past a block's ends, the next block's nearer end.
    private func visualNeighbour(of offset: Int, direction: Int) -> Int {
        let i = blocks.index(containing: offset)
        if let moved = layout(of: i).visualMove(fromByte: caretLayoutOffset(offset, in: i), direction: direction) {
            return snap(textOffset(moved, in: i))
        }
        if direction < 0 {
            return i > 0 ? blocks.contentRange(of: i - 1).upperBound : 0
        }
        return i < blocks.count - 1 ? blocks.start(of: i + 1) : model.text.utf8.count
    }

    /// The caret a line up (`direction` -1) or down at the goal x, into the
    /// next block past a block's first or last line; past the text's first
    /// line its start, past its last its end.
    private func moveVertically(lines direction: Int, extend: Bool) {
        let from = extend ? movingEnd : (direction < 0 ? model.selection.lowerBound : model.selection.upperBound)
        let goal = goalX ?? caretRect(at: from).minX
        let (i, layout, found) = line(at: from)
        let k = found ?? 0
        let target: (block: Int, y: Double)?
        if direction < 0 {
            target = k > 0 ? (i, layout.lines[k - 1].rect.midY) : i > 0 ? (i - 1, self.layout(of: i - 1).lines.last?.rect.midY ?? 0) : nil
        } else {
            target = k < layout.lines.count - 1 ? (i, layout.lines[k + 1].rect.midY)
                : i < blocks.count - 1 ? (i + 1, self.layout(of: i + 1).lines.first?.rect.midY ?? 0) : nil
        }
        let to = target.map { offset(inBlock: $0.block, at: Point(x: goal - textOrigin.x, y: $0.y)) } ?? (direction < 0 ? 0 : model.text.utf8.count)
        moveTo(to, extend: extend)
        goalX = goal
    }

    /// The block, its layout and the index of its line the caret at `offset` is on.
    func line(at offset: Int) -> (block: Int, layout: TextLayout, line: Int?) {
        let i = blocks.index(containing: offset)
        let layout = layout(of: i)
        let at = caretLayoutOffset(offset, in: i)
        return (i, layout, layout.lines.lastIndex { $0.bytes.lowerBound <= at } ?? (layout.lines.isEmpty ? nil : 0))
    }

    /// Page Up and Page Down: the caret a screen up or down at the goal x, and
    /// the text scrolled by as much.
    private func moveByPage(_ direction: Int, extend: Bool) {
        let page = max(font.lineHeight, bounds.height - textContainerInset.top - textContainerInset.bottom - font.lineHeight)
        let caret = caretRect(at: movingEnd)
        let goal = goalX ?? caret.minX
        let o = textOrigin
        let y = caret.midY + Double(direction) * page
        let to = y < o.y ? 0 : y >= o.y + blocks.height ? model.text.utf8.count : offset(at: Point(x: goal, y: y))
        let target = contentOffset.y + Double(direction) * page
        setContentOffset(Point(x: contentOffset.x, y: min(max(minimumContentOffset.y, target), maximumContentOffset.y)), animated: false)
        moveTo(to, extend: extend)
        goalX = goal
    }

    /// The start and end of the line the caret at `offset` is on: the end of a
    /// wrapped line is before the spaces it broke at.
    private func lineEnds(of offset: Int) -> (start: Int, end: Int) {
        let (i, layout, found) = line(at: offset)
        guard let k = found else { return (blocks.start(of: i), blocks.contentRange(of: i).upperBound) }
        let lines = layout.lines
        var end = lines[k].bytes.upperBound
        if k < lines.count - 1 {
            let bytes = Array(layout.text.utf8)
            while end > lines[k].bytes.lowerBound, bytes[end - 1] == 0x20 { end -= 1 }
        }
        return (textOffset(lines[k].bytes.lowerBound, in: i), textOffset(end, in: i))
    }

    // MARK: Words and paragraphs (Unicode's rules through Pango, a block at a time)

    private func wordEdges(in i: Int) -> (starts: [Int], ends: [Int]) {
        let found = layout(of: i).boundaries()
        return (found.wordStarts.map { textOffset($0, in: i) }.sorted(), found.wordEnds.map { textOffset($0, in: i) }.sorted())
    }

    func previousWordStart(before offset: Int) -> Int {
        var i = blocks.index(containing: offset)
        while true {
            if let start = wordEdges(in: i).starts.last(where: { $0 < offset }) { return start }
            guard i > 0 else { return 0 }
            i -= 1
        }
    }

    func nextWordEnd(after offset: Int) -> Int {
        var i = blocks.index(containing: offset)
        while true {
            if let end = wordEdges(in: i).ends.first(where: { $0 > offset }) { return end }
            guard i < blocks.count - 1 else { return model.text.utf8.count }
            i += 1
        }
    }

    /// The word around an offset (or the gap between words, as a double click there selects).
    func wordRange(around offset: Int) -> Range<Int> {
        let i = blocks.index(containing: offset)
        let w = wordEdges(in: i)
        let content = blocks.contentRange(of: i)
        let edges = Set(w.starts + w.ends + [content.lowerBound, content.upperBound])
        let start = edges.filter { $0 <= offset }.max() ?? content.lowerBound
        let end = edges.filter { $0 > offset }.min() ?? content.upperBound
        return start..<max(start, end)
    }

    /// The paragraph around an offset, with its line break (a triple click's selection).
    func paragraphRange(around offset: Int) -> Range<Int> {
        let pieces = blocks.paragraph(around: blocks.index(containing: offset))
        return blocks.start(of: pieces.lowerBound)..<blocks.start(of: pieces.upperBound) + blocks.blocks[pieces.upperBound].length
    }
}
