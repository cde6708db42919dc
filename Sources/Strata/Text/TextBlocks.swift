/// A text view's text as a column of blocks — a paragraph each, a paragraph
/// longer than ``longestBlock`` in pieces — each laid out on its own, only when
/// shown (TextKit 2's viewport layout is the model).
///
/// A megabyte of text is thousands of paragraphs; laying them all out with
/// Pango for every key would take seconds. A block not laid out yet has an
/// estimated height (its bytes at half an em each, wrapped in the width); the
/// view lays out what it shows, and the estimate gives way to the measure.
/// An edit splits again only the blocks it touches. Offsets are UTF-8 bytes
/// into the text; a block's length includes its closing line break, which is
/// not laid out. The last block never ends in a line break: a text ending in
/// one ends with an empty block, where the caret stands on the next line.
@MainActor
final class TextBlocks {
    struct Block {
        /// Bytes, the closing line break included.
        var length: Int
        /// Ends in a line break (false for the last block and for a piece of a long paragraph).
        var endsParagraph: Bool
        var height: Double
        /// Laid out: the height is measured, not estimated.
        var layout: TextLayout?
    }

    /// A paragraph up to twice this long is one block; a longer one is cut into
    /// pieces about this long (after a space where one is near). A piece ends a
    /// line where it is cut, and Pango's time for a key grows with a block's length.
    static let longestBlock = 4096
    /// Layouts kept for blocks out of view, at most; their heights stay measured.
    static let keptLayouts = 256

    private(set) var blocks: [Block] = []
    /// Where each block starts (bytes) and its top (points), and their ends last;
    /// made again after a change.
    private var starts: [Int] = []
    private var tops: [Double] = []
    private var isIndexed = false

    /// The width lines wrap in, and the font estimates are made with.
    private(set) var width: Double = 0
    private var font: Font

    init(font: Font) {
        self.font = font
    }

    // MARK: The text changes

    /// Splits a new text into blocks, none laid out.
    func reset(_ text: String) {
        blocks = split(text, 0..<text.utf8.count, atEnd: true)
        isIndexed = false
    }

    /// The text changed: `range` of the old text was replaced by `newLength`
    /// bytes; `text` is the new text. Only the blocks the edit touched (and a
    /// piece of the same paragraph either side) are split again.
    func replace(_ range: Range<Int>, newLength: Int, in text: String) {
        var i = index(containing: range.lowerBound), j = index(containing: range.upperBound)
        if i > 0, !blocks[i - 1].endsParagraph { i -= 1 }
        if j < blocks.count - 1, !blocks[j].endsParagraph { j += 1 }
        let start = self.start(of: i)
        let end = self.start(of: j) + blocks[j].length + newLength - range.count
        let made = split(text, start..<end, atEnd: j == blocks.count - 1)
        blocks.replaceSubrange(i...j, with: made)
        isIndexed = false
    }

    /// Lines wrap in a new width, or the text has a new style: every layout is
    /// made again (the heights they had are kept as estimates meanwhile).
    func invalidateLayouts(width: Double, font: Font) {
        self.width = width
        self.font = font
        for i in blocks.indices { blocks[i].layout = nil }
    }

    /// One block's layout is out of date (its attributes or the marked text changed).
    func invalidateLayout(_ i: Int) {
        if blocks.indices.contains(i) { blocks[i].layout = nil }
    }

    /// The blocks of `range` of the text: one per paragraph, long ones in pieces,
    /// and the empty last block after a closing line break.
    private func split(_ text: String, _ range: Range<Int>, atEnd: Bool) -> [Block] {
        var made: [Block] = []
        func add(_ from: Int, _ to: Int, ends: Bool) {
            made.append(Block(length: to - from, endsParagraph: ends, height: estimatedHeight(bytes: to - from - (ends ? 1 : 0))))
        }
        text.utf8.withContiguousStorageIfAvailable { bytes in
            var p = range.lowerBound
            while p < range.upperBound {
                let q = (bytes[p..<range.upperBound].firstIndex(of: 0x0A)).map { $0 + 1 } ?? range.upperBound
                var from = p
                while q - from > 2 * Self.longestBlock {
                    let cut = Self.cut(text, bytes, near: from + Self.longestBlock)
                    add(from, cut, ends: false)
                    from = cut
                }
                add(from, q, ends: bytes[q - 1] == 0x0A)
                p = q
            }
        }
        if atEnd, made.last?.endsParagraph != false { made.append(Block(length: 0, endsParagraph: false, height: font.lineHeight)) }
        return made
    }

    /// Where to cut a long paragraph near `offset`: after a space within 512
    /// bytes before it, else between characters.
    private static func cut(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>, near offset: Int) -> Int {
        if let space = bytes[(offset - 512)..<offset].lastIndex(where: { $0 == 0x20 || $0 == 0x09 }) { return space + 1 }
        return text.windowEdge(near: offset, up: false)
    }

    /// A block's height before it is laid out: its characters at half an em
    /// each, wrapped in the width, one line at least.
    private func estimatedHeight(bytes: Int) -> Double {
        let perLine = max(1, (width / (font.pointSize * 0.5)).rounded(.down))
        return max(1, (Double(bytes) / perLine).rounded(.up)) * font.lineHeight
    }

    // MARK: Where blocks are

    var count: Int { blocks.count }

    /// The whole column's height (laid-out blocks measured, the rest estimated).
    var height: Double {
        index()
        return tops[blocks.count]
    }

    func start(of i: Int) -> Int {
        index()
        return starts[i]
    }

    func top(of i: Int) -> Double {
        index()
        return tops[i]
    }

    /// The block holding the text offset (the last block for the text's end).
    func index(containing offset: Int) -> Int {
        index()
        return max(0, min(blocks.count - 1, Self.lastIndex(in: starts, atOrBelow: offset)))
    }

    /// The block at a height (clamped to the first and the last).
    func index(atY y: Double) -> Int {
        index()
        return max(0, min(blocks.count - 1, Self.lastIndex(in: tops, atOrBelow: y)))
    }

    /// The text of block `i` without its line break (bytes).
    func contentRange(of i: Int) -> Range<Int> {
        let s = start(of: i)
        return s..<s + blocks[i].length - (blocks[i].endsParagraph ? 1 : 0)
    }

    /// The paragraph block `i` belongs to: its first and last pieces.
    func paragraph(around i: Int) -> ClosedRange<Int> {
        var first = i, last = i
        while first > 0, !blocks[first - 1].endsParagraph { first -= 1 }
        while last < blocks.count - 1, !blocks[last].endsParagraph { last += 1 }
        return first...last
    }

    private static func lastIndex<T: Comparable>(in sorted: [T], atOrBelow value: T) -> Int {
        var low = 0, high = sorted.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if sorted[mid] <= value { low = mid } else { high = mid - 1 }
        }
        return low
    }

    private func index() {
        guard !isIndexed else { return }
        starts = [0]
        tops = [0]
        starts.reserveCapacity(blocks.count + 1)
        tops.reserveCapacity(blocks.count + 1)
        for b in blocks {
            starts.append(starts[starts.count - 1] + b.length)
            tops.append(tops[tops.count - 1] + b.height)
        }
        isIndexed = true
    }

    // MARK: Laying out

    /// Block `i`'s layout, made with `make` (from the block's text range) when it
    /// has none; returns it and how much the block's height changed.
    @discardableResult
    func layout(_ i: Int, make: (Range<Int>) -> TextLayout) -> (layout: TextLayout, heightChange: Double) {
        if let made = blocks[i].layout { return (made, 0) }
        let made = make(contentRange(of: i))
        let height = made.size.height > 0 ? made.size.height : font.lineHeight
        let change = height - blocks[i].height
        blocks[i].layout = made
        if change != 0 {
            blocks[i].height = height
            if isIndexed { for k in (i + 1)..<tops.count { tops[k] += change } }
        }
        return (made, change)
    }

    /// Drops the layouts of blocks outside `kept` when more than ``keptLayouts``
    /// are held (their measured heights stay).
    func dropLayouts(outside kept: Range<Int>) {
        var held = 0
        for b in blocks where b.layout != nil { held += 1 }
        guard held > Self.keptLayouts else { return }
        for i in blocks.indices where !kept.contains(i) { blocks[i].layout = nil }
    }
}
