import CPango

/// How lines of text line up (`NSTextAlignment`). `.natural` follows each
/// paragraph's direction: left for left-to-right text, right for Arabic or Hebrew (rule X2).
public enum TextAlignment: Hashable, Sendable {
    case natural, left, center, right, justified
}

/// How text too long for its space is broken and cut (`NSLineBreakMode`).
public enum LineBreakMode: Hashable, Sendable {
    /// Lines break between words (and inside a word longer than a line); the rest is clipped.
    case byWordWrapping
    /// Lines break between any two characters; the rest is clipped.
    case byCharWrapping
    /// Lines break between words; the last line is cut at the edge.
    case byClipping
    /// The last line shown starts with "…" where text was left out.
    case byTruncatingHead
    /// The last line shown ends with "…" where text was left out (a label's default).
    case byTruncatingTail
    /// The last line shown has "…" in its middle where text was left out.
    case byTruncatingMiddle
}

/// What a layout is made of besides its text.
struct TextStyle: Hashable {
    var font: Font
    var color: Color
    var alignment: TextAlignment = .natural
    var lineBreakMode: LineBreakMode = .byTruncatingTail
    /// 0: as many lines as the text needs.
    var numberOfLines: Int = 0
    /// The direction of a paragraph with no strongly directional character (empty,
    /// digits, punctuation): the view's layout direction (rule P3). Others take
    /// their first strong character's.
    var baseDirection: LayoutDirection = .leftToRight
}

/// The font file and size a run of glyphs is drawn from, as fontconfig chose it
/// for Pango (fallback fonts included), with its synthetic emboldening and slant.
struct FaceKey: Hashable {
    var file: String
    var index: Int32
    /// Pixels per em at scale 1 (= points).
    var size: Double
    var embolden: Bool
    var matrix: [Double]   // xx, xy, yx, yy
}

/// One glyph where it goes, in points from the layout's top left, on its baseline.
struct PositionedGlyph {
    var face: Int          // index into TextLayout.faces
    var id: UInt32
    var x: Double
    var y: Double
    /// The run's colour; nil: the text's colour.
    var color: Color?
    /// A character no font has: drawn as a box this wide (rule X1: nothing dropped silently).
    var missingWidth: Double?
}

/// A paragraph laid out by Pango (shaped by HarfBuzz, ordered by FriBidi, broken
/// by Unicode's rules, fonts from fontconfig) within a width and a number of
/// lines, with "…" where text is left out (rules X1, X2). Positions are in
/// points and unrounded: the same layout draws at any scale (rule X3).
@MainActor
final class TextLayout {
    struct Line {
        /// The line's box (logical extents), with the alignment applied.
        var rect: Rect
        var baseline: Double
        var isRightToLeft: Bool
        /// UTF-8 offsets of the characters on the line.
        var bytes: Range<Int>
        /// Where Pango itself put the line's left edge (its own alignment of a
        /// right-to-left line in a set width): Pango's positions are taken back by it.
        var pangoLeft: Double
    }

    /// Layouts hold at most this many UTF-8 bytes; longer text is cut (with a
    /// diagnostic), as no label shows more and Pango's time grows with the text.
    static let maximumBytes = 200_000

    let text: String
    let style: TextStyle
    private(set) var lines: [Line] = []
    private(set) var glyphs: [PositionedGlyph] = []
    private(set) var faces: [FaceKey] = []
    /// The laid-out size: the widest line and the bottom of the last line shown.
    private(set) var size = Size.zero
    /// The width lines were aligned in (the given width, or the widest line).
    private(set) var alignmentWidth = 0.0
    /// True when text was left out (truncated or clipped by the line limit).
    private(set) var isTruncated = false
    private let layout: OpaquePointer

    /// Lays out `text` within `width` points (nil: no wrapping) and `height`
    /// points (nil: no limit) besides ``TextStyle/numberOfLines``.
    init(_ attributed: AttributedText, style: TextStyle, width: Double?, height: Double? = nil) {
        var attributed = attributed
        let longMarkRun = TextLayout.hasLongMarkRun(attributed.string)
        if attributed.string.utf8.count > TextLayout.maximumBytes || attributed.string.utf8.contains(0) || longMarkRun {
            attributed = TextLayout.sanitized(attributed, cappingMarks: longMarkRun)
        }
        text = attributed.string
        self.style = style
        layout = pango_layout_new(style.baseDirection == .rightToLeft ? TextSystem.shared.rightToLeftContext : TextSystem.shared.context)
        configure(attributed, width: width)
        limitLines(height: height)
        readLines(width: width, attributed: attributed)
    }

    isolated deinit {
        strata_object_unref(UnsafeMutableRawPointer(layout))
    }

    // MARK: Building

    /// Runs of text with no space longer than this break between any two
    /// characters: Pango's word wrapping measures such a run again for each line
    /// it breaks (40 KB of "x" took seconds), and a word this long is broken by
    /// character anyway.
    static let longestWordWrappedRun = 256

    /// Combining marks one character carries, and invisible format characters
    /// (zero-width spaces and joiners, bidi controls) in a row, at most. Pango's and
    /// HarfBuzz's work grows with the square of either: 20,000 marks on a letter,
    /// or a few thousand zero-width characters that never fill a line, took
    /// seconds. Unicode's stream-safe format allows 30 marks in a row.
    static let longestMarkRun = 32

    private enum RunKind { case mark, format, other }

    private static func kind(_ scalar: Unicode.Scalar) -> RunKind {
        guard scalar.value >= 0xAD else { return .other }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return .mark
        case .format: return .format
        default: return .other
        }
    }

    /// True when some character of `text` carries more than ``longestMarkRun``
    /// marks, or more than that many format characters stand in a row.
    static func hasLongMarkRun(_ text: String) -> Bool {
        var run = 0, last = RunKind.other
        for scalar in text.unicodeScalars where scalar.value >= 0xAD || run > 0 {
            let k = kind(scalar)
            run = k == .other ? 0 : (k == last ? run + 1 : 1)
            last = k
            if run > longestMarkRun { return true }
        }
        return false
    }

    /// The marks past ``longestMarkRun`` on one character, and the format
    /// characters past it in a row, replaced by spaces of the same UTF-8 length
    /// (so lines fill and break): every offset into the text stays where it was
    /// (carets and runs keep their places).
    private static func cappingMarkRuns(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var run = 0, last = RunKind.other
        for scalar in text.unicodeScalars {
            let k = kind(scalar)
            run = k == .other ? 0 : (k == last ? run + 1 : 1)
            last = k
            guard run > longestMarkRun else { scalars.append(scalar); continue }
            // Spaces, not invisible characters: a long run of anything with no
            // width is itself what makes Pango slow.
            switch UTF8.width(scalar) {
            case 2: scalars.append("\u{00A0}")     // no-break space
            case 3: scalars.append("\u{2009}")     // thin space
            default: scalars.append(contentsOf: ["\u{00A0}", "\u{00A0}"])
            }
        }
        return String(scalars)
    }

    /// True when `text` has a run of more than ``longestWordWrappedRun`` bytes
    /// without a space or line break.
    static func hasUnbreakableRun(_ text: String) -> Bool {
        guard text.utf8.count > longestWordWrappedRun else { return false }
        var run = 0
        for byte in text.utf8 {
            if byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D {
                run = 0
            } else {
                run += 1
                if run > longestWordWrappedRun { return true }
            }
        }
        return false
    }

    private func configure(_ attributed: AttributedText, width: Double?) {
        let scale = Double(strata_pango_scale)
        pango_layout_set_text(layout, text, Int32(text.utf8.count))
        let description = style.font.pangoDescription()
        pango_layout_set_font_description(layout, description)
        pango_font_description_free(description)
        pango_layout_set_auto_dir(layout, 1)
        pango_layout_set_alignment(layout, PANGO_ALIGN_LEFT)   // lines are aligned in readLines
        pango_layout_set_justify(layout, style.alignment == .justified ? 1 : 0)
        if let width, width.isFinite {
            pango_layout_set_width(layout, TextLayout.pangoUnits(max(0, width) * scale, rounding: .down))
        } else {
            pango_layout_set_width(layout, -1)
        }
        // Pango 1.50 aborts (an assertion in process_line) when word wrapping meets a
        // line narrower than a glyph and a space carrying combining marks beside
        // right-to-left text (found by the app fuzzer; crashing widths stay under a
        // quarter of the font's size). Nothing fits such a line anyway: below one em,
        // characters wrap instead, which never trips it.
        let largest = attributed.runs.compactMap { $0.attributes.font?.pointSize }.reduce(style.font.pointSize, max)
        let narrow = width.map { $0.isFinite && $0 < largest } ?? false
        let byCharacter = style.lineBreakMode == .byCharWrapping || TextLayout.hasUnbreakableRun(text) || narrow
        pango_layout_set_wrap(layout, byCharacter ? PANGO_WRAP_CHAR : PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(layout, ellipsizeMode)
        pango_layout_set_height(layout, Int32.max)   // positive: no per-paragraph line limit
        if let list = attributeList(attributed) {
            pango_layout_set_attributes(layout, list)
            pango_attr_list_unref(list)
        }
    }

    private var ellipsizeMode: PangoEllipsizeMode {
        switch style.lineBreakMode {
        case .byTruncatingHead: PANGO_ELLIPSIZE_START
        case .byTruncatingMiddle: PANGO_ELLIPSIZE_MIDDLE
        case .byTruncatingTail: PANGO_ELLIPSIZE_END
        case .byWordWrapping, .byCharWrapping, .byClipping: PANGO_ELLIPSIZE_NONE
        }
    }

    private func attributeList(_ attributed: AttributedText) -> OpaquePointer? {
        let runs = attributed.runs.filter { $0.attributes.font != nil || $0.attributes.weight != nil }
        guard let list = pango_attr_list_new() else { return nil }
        // No hyphens where a word is broken (UIKit's hyphenation factor 0).
        if let noHyphens = pango_attr_insert_hyphens_new(0) { pango_attr_list_insert(list, noHyphens) }
        for run in runs {
            var attributes: [UnsafeMutablePointer<PangoAttribute>] = []
            if let font = run.attributes.font {
                let description = font.pangoDescription()
                if let a = pango_attr_font_desc_new(description) { attributes.append(a) }
                pango_font_description_free(description)
            }
            if let weight = run.attributes.weight, let a = pango_attr_weight_new(PangoWeight(rawValue: UInt32(weight.value))) {
                attributes.append(a)
            }
            for a in attributes {
                a.pointee.start_index = UInt32(run.bytes.lowerBound)
                a.pointee.end_index = UInt32(run.bytes.upperBound)
                pango_attr_list_insert(list, a)
            }
        }
        return list
    }

    /// Applies the line limit: a truncating mode lets Pango put "…" into the last
    /// line that fits; other modes show the first lines and clip the rest.
    private func limitLines(height: Double?) {
        let scale = Double(strata_pango_scale)
        var bottoms: [Int32] = []   // of each line, in Pango units
        let iter = pango_layout_get_iter(layout)
        repeat {
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            bottoms.append(logical.y + logical.height)
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        var allowed = style.numberOfLines > 0 ? min(style.numberOfLines, bottoms.count) : bottoms.count
        if let height, height.isFinite {
            let fitting = bottoms.prefix { Double($0) / scale <= height + 0.01 }.count
            allowed = min(allowed, max(1, fitting))
        }
        guard allowed < bottoms.count else { return }
        isTruncated = true
        if ellipsizeMode == PANGO_ELLIPSIZE_NONE {
            shownLines = allowed
        } else {
            // Pango lays out only the lines above this height, with "…" in the last.
            pango_layout_set_height(layout, bottoms[allowed - 1])
        }
    }

    private var shownLines: Int?

    private func readLines(width: Double?, attributed: AttributedText) {
        let scale = Double(strata_pango_scale)
        var faceIndex: [UnsafeMutableRawPointer: Int] = [:]
        var widest = 0.0
        var shown: [(line: UnsafeMutablePointer<PangoLayoutLine>, top: Double, height: Double, baseline: Double, left: Double)] = []
        let iter = pango_layout_get_iter(layout)
        repeat {
            guard let line = pango_layout_iter_get_line_readonly(iter) else { continue }
            var logical = PangoRectangle()
            pango_layout_iter_get_line_extents(iter, nil, &logical)
            let baseline = Double(pango_layout_iter_get_baseline(iter)) / scale
            shown.append((line, Double(logical.y) / scale, Double(logical.height) / scale, baseline, Double(logical.x) / scale))
            if let limit = shownLines, shown.count >= limit { break }
        } while pango_layout_iter_next_line(iter) != 0
        pango_layout_iter_free(iter)
        if shownLines == nil, pango_layout_is_ellipsized(layout) != 0 { isTruncated = true }

        var lineWidths: [(x: Double, width: Double)] = []
        for entry in shown {
            var logical = PangoRectangle()
            pango_layout_line_get_extents(entry.line, nil, &logical)
            lineWidths.append((Double(logical.x) / scale, Double(logical.width) / scale))
            widest = max(widest, Double(logical.width) / scale)
        }
        alignmentWidth = width.map { $0.isFinite ? max(0, $0) : widest } ?? widest
        for (entry, extent) in zip(shown, lineWidths) {
            let rtl = pango_layout_line_get_resolved_direction(entry.line) == PANGO_DIRECTION_RTL
            let left = alignedLeft(width: extent.width, rightToLeft: rtl)
            let start = Int(entry.line.pointee.start_index)
            lines.append(Line(rect: Rect(x: left, y: entry.top, width: extent.width, height: entry.height),
                              baseline: entry.baseline, isRightToLeft: rtl,
                              bytes: start..<(start + Int(entry.line.pointee.length)), pangoLeft: entry.left))
            var x = left + extent.x
            var run = entry.line.pointee.runs
            while let node = run {
                let item = node.pointee.data.assumingMemoryBound(to: PangoGlyphItem.self).pointee
                let face = item.item.pointee.analysis.font.map { font -> Int in
                    let key = UnsafeMutableRawPointer(font)
                    if let i = faceIndex[key] { return i }
                    faces.append(TextLayout.faceKey(of: font))
                    faceIndex[key] = faces.count - 1
                    return faces.count - 1
                }
                let offset = Int(item.item.pointee.offset)
                let string = item.glyphs.pointee
                for i in 0..<Int(string.num_glyphs) {
                    let info = string.glyphs[i]
                    let advance = Double(info.geometry.width) / scale
                    defer { x += advance }
                    guard info.glyph != strata_glyph_empty else { continue }
                    let missing = info.glyph & strata_glyph_unknown_flag != 0 || face == nil
                    glyphs.append(PositionedGlyph(
                        face: face ?? 0, id: info.glyph,
                        x: x + Double(info.geometry.x_offset) / scale,
                        y: entry.baseline + Double(info.geometry.y_offset) / scale,
                        color: attributed.color(atByte: offset + Int(string.log_clusters[i])),
                        missingWidth: missing ? advance : nil))
                }
                run = node.pointee.next
            }
        }
        let bottom = shown.last.map { $0.top + $0.height } ?? 0
        size = Size(width: widest, height: bottom)
    }

    /// Where a line of `width` starts under the alignment (rule X2: natural by direction).
    private func alignedLeft(width: Double, rightToLeft: Bool) -> Double {
        let room = alignmentWidth - width
        switch style.alignment {
        case .left: return 0
        case .right: return room
        case .center: return room / 2
        case .natural, .justified: return rightToLeft ? room : 0
        }
    }

    private static func faceKey(of font: UnsafeMutablePointer<PangoFont>) -> FaceKey {
        guard let pattern = strata_font_pattern(font), let file = strata_fc_string(pattern, FC_FILE) else {
            return FaceKey(file: "", index: 0, size: 0, embolden: false, matrix: [1, 0, 0, 1])
        }
        let m = strata_fc_matrix(pattern)
        return FaceKey(file: String(cString: file), index: strata_fc_int(pattern, FC_INDEX, 0),
                       size: strata_fc_double(pattern, FC_PIXEL_SIZE, 0),
                       embolden: strata_fc_bool(pattern, FC_EMBOLDEN) != 0,
                       matrix: [m.xx, m.xy, m.yx, m.yy])
    }

    /// Text Pango can take: NUL characters (which end C strings) shown as U+FFFD,
    /// and at most ``maximumBytes`` bytes, cut at a character.
    private static func sanitized(_ attributed: AttributedText, cappingMarks: Bool) -> AttributedText {
        var string = attributed.string
        if string.utf8.count > maximumBytes {
            reportTextProblem("text of \(string.utf8.count) bytes is laid out up to its first \(maximumBytes)")
            string = String(string.utf8Slice(0..<string.scalarOffset(atOrBefore: maximumBytes)))
        }
        // (Cutting at the byte limit cannot make a run longer.)
        if cappingMarks {
            reportTextProblem("more than \(longestMarkRun) combining marks on a character, or invisible format characters in a row; the rest are laid out as spaces")
            string = cappingMarkRuns(string)
        }
        string = String(String.UnicodeScalarView(string.unicodeScalars.map { $0 == "\u{0}" ? "\u{FFFD}" : $0 }))
        var result = AttributedText(string)
        if string.utf8.count == attributed.string.utf8.count { result.copyRuns(from: attributed) }
        return result
    }

    // MARK: Queries

    /// The caret position (a UTF-8 offset between characters) nearest a point.
    func caretIndex(at point: Point) -> Int {
        let (byte, trailing) = index(at: point)
        guard trailing > 0 else { return byte }
        return boundaries().cursor.first { $0 > byte } ?? text.utf8.count
    }

    /// The layout's text offset (UTF-8) nearest a point, and whether the point is
    /// past the character's middle (for carets).
    func index(at point: Point) -> (byte: Int, trailing: Int) {
        let scale = Double(strata_pango_scale)
        var index: Int32 = 0, trailing: Int32 = 0
        let line = lines.first { point.y < $0.rect.maxY } ?? lines.last
        let lineX = (line?.rect.minX ?? 0) - (line?.pangoLeft ?? 0)
        _ = pango_layout_xy_to_index(layout, TextLayout.pangoUnits((point.x - lineX) * scale),
                                     TextLayout.pangoUnits(point.y * scale), &index, &trailing)
        return (Int(index), Int(trailing))
    }

    /// A length in Pango units as Pango takes it: held within `Int32`, NaN as 0. A
    /// point of ±∞ (a touch moved through a degenerate transform) trapped in the
    /// conversion (found by the app fuzzer).
    static func pangoUnits(_ value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int32 {
        guard !value.isNaN else { return 0 }
        return Int32(max(Double(Int32.min), min(Double(Int32.max), value.rounded(rule))))
    }

    /// The caret's rectangle before the character at a UTF-8 offset (the strong cursor), in points.
    func caretRect(atByte byte: Int) -> Rect {
        let scale = Double(strata_pango_scale)
        var strong = PangoRectangle()
        pango_layout_get_cursor_pos(layout, Int32(clamping: min(max(0, byte), text.utf8.count)), &strong, nil)
        let y = Double(strong.y) / scale
        let line = lines.first { y < $0.rect.maxY - 0.01 }
        let lineX = (line?.rect.minX ?? 0) - (line?.pangoLeft ?? 0)
        return Rect(x: lineX + Double(strong.x) / scale, y: y, width: 0, height: Double(strong.height) / scale)
    }

    /// The horizontal spans (points, layout coordinates) the characters between
    /// two UTF-8 offsets cover on each line: several where bidirectional text
    /// puts them apart. For selection highlights.
    func selectionRects(from start: Int, to end: Int) -> [Rect] {
        guard start < end else { return [] }
        let scale = Double(strata_pango_scale)
        var rects: [Rect] = []
        for (i, line) in lines.enumerated() {
            let s = max(start, line.bytes.lowerBound), e = min(end, line.bytes.upperBound)
            guard s < e, let pangoLine = pango_layout_get_line_readonly(layout, Int32(i)) else { continue }
            var ranges: UnsafeMutablePointer<Int32>?
            var count: Int32 = 0
            pango_layout_line_get_x_ranges(pangoLine, Int32(s), Int32(e), &ranges, &count)
            for r in 0..<Int(count) {
                let x0 = Double(ranges![2 * r]) / scale, x1 = Double(ranges![2 * r + 1]) / scale
                rects.append(Rect(x: line.rect.minX - line.pangoLeft + x0, y: line.rect.minY, width: x1 - x0, height: line.rect.height))
            }
            g_free(ranges)
        }
        return rects
    }

    /// Text boundaries from Unicode's rules (Pango's log attributes), as UTF-8
    /// offsets: where the caret may stand (between grapheme clusters), where
    /// words start and where they end.
    func boundaries() -> (cursor: [Int], wordStarts: Set<Int>, wordEnds: Set<Int>) {
        var count: Int32 = 0
        guard let attrs = pango_layout_get_log_attrs_readonly(layout, &count) else { return ([0], [], []) }
        var cursor: [Int] = [], starts = Set<Int>(), ends = Set<Int>()
        var byte = 0
        var scalars = text.unicodeScalars.makeIterator()
        for i in 0..<Int(count) {   // one entry per character, and one past the end
            let a = attrs[i]
            if a.is_cursor_position != 0 { cursor.append(byte) }
            if a.is_word_start != 0 { starts.insert(byte) }
            if a.is_word_end != 0 { ends.insert(byte) }
            if let scalar = scalars.next() { byte += String(scalar).utf8.count }
        }
        return (cursor, starts, ends)
    }

    /// The visual neighbour of a caret position (`direction` -1 left, +1 right),
    /// moving through bidirectional text as the eye sees it; nil past the
    /// layout's first or last position.
    func visualMove(fromByte byte: Int, direction: Int) -> Int? {
        var newIndex: Int32 = 0, trailing: Int32 = 0
        pango_layout_move_cursor_visually(layout, 1, Int32(byte), 0, Int32(direction), &newIndex, &trailing)
        if newIndex == Int32.max || newIndex < 0 { return nil }
        var b = Int(newIndex)
        let utf8 = Array(text.utf8)
        for _ in 0..<Int(trailing) {   // past `trailing` characters of the cluster
            b += 1
            while b < utf8.count, utf8[b] & 0xC0 == 0x80 { b += 1 }
        }
        return min(b, utf8.count)
    }
}
