@testable import Strata
import CPango
import PixmanRender
import Testing
import LayerKitTesting

/// The metrics a font file declares, read with FreeType (not through Pango).
struct FontFileMetrics {
    let unitsPerEm, ascender, descender: Double
    let advances: [Character: Double]

    init(file: String, characters: String) throws {
        var library: FT_Library?
        FT_Init_FreeType(&library)
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        try #require(FT_New_Face(library, file, 0, &face) == 0)
        defer { FT_Done_Face(face) }
        let f = face!.pointee
        unitsPerEm = Double(f.units_per_EM)
        ascender = Double(f.ascender)
        descender = Double(f.descender)
        var advances: [Character: Double] = [:]
        for c in characters {
            let index = FT_Get_Char_Index(face, FT_ULong(c.unicodeScalars.first!.value))
            FT_Load_Glyph(face, index, Int32(FT_LOAD_NO_SCALE))
            advances[c] = Double(face!.pointee.glyph.pointee.advance.x)
        }
        self.advances = advances
    }

    /// The file fontconfig gives for a family.
    static func file(forFamily family: String) -> String {
        let pattern = FcNameParse(family)!
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        let match = FcFontMatch(nil, pattern, &result)!
        defer { FcPatternDestroy(match); FcPatternDestroy(pattern) }
        return String(cString: strata_fc_string(match, FC_FILE))
    }
}

/// Columns and rows with ink (pixels darker than mid-grey on white).
func inkBounds(_ image: RenderedImage, in rect: (x: Range<Int>, y: Range<Int>)? = nil) -> (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
    var b: (Int, Int, Int, Int)?
    for y in rect?.y ?? 0..<image.height {
        for x in rect?.x ?? 0..<image.width {
            let p = image.rgba8(x: x, y: y)
            let dark = Int(p.r) + Int(p.g) + Int(p.b) < 3 * 160
            guard dark else { continue }
            b = b.map { (min($0.0, x), max($0.1, x), min($0.2, y), max($0.3, y)) } ?? (x, x, y, y)
        }
    }
    return b.map { (minX: $0.0, maxX: $0.1, minY: $0.2, maxY: $0.3) }
}

/// Pixels that differ by more than `tolerance` in any channel.
func differingPixels(_ a: RenderedImage, _ b: RenderedImage, tolerance: Int = 0) -> Int {
    guard a.width == b.width, a.height == b.height else { return Int.max }
    var n = 0
    for y in 0..<a.height {
        for x in 0..<a.width {
            let p = a.rgba8(x: x, y: y), q = b.rgba8(x: x, y: y)
            if abs(Int(p.r) - Int(q.r)) > tolerance || abs(Int(p.g) - Int(q.g)) > tolerance
                || abs(Int(p.b) - Int(q.b)) > tolerance || abs(Int(p.a) - Int(q.a)) > tolerance { n += 1 }
        }
    }
    return n
}

@MainActor
@Suite(.serialized, .isolatedLayerContext)
struct TextTests {
    let mono = Font(name: "DejaVu Sans Mono", size: 20)!
    /// One character's advance in DejaVu Sans Mono at 20 points, from the file.
    var monoAdvance: Double {
        let m = try! FontFileMetrics(file: FontFileMetrics.file(forFamily: "DejaVu Sans Mono"), characters: "a")
        return m.advances["a"]! / m.unitsPerEm * 20
    }

    /// A label alone in a white window, rendered.
    func render(_ label: Label, size: Size = Size(width: 300, height: 80), scale: Double = 1) -> RenderedImage {
        let f = ViewFixture(size: size)
        f.window.scale = scale
        f.window.rootView.addSubview(label)
        Transaction.flush()
        return f.window.snapshot()
    }

    @Test("X2: font metrics are the font file's own (ascender, descender, line height)")
    func fontMetrics() throws {
        let sans = Font.systemFont(ofSize: 20)
        #expect(sans.familyName == "sans-serif")
        let file = try FontFileMetrics(file: FontFileMetrics.file(forFamily: "sans-serif"), characters: "")
        #expect(close(sans.ascender, file.ascender / file.unitsPerEm * 20, 0.01))
        #expect(close(sans.descender, file.descender / file.unitsPerEm * 20, 0.01))
        #expect(sans.descender < 0)
        #expect(close(sans.lineHeight, sans.ascender - sans.descender))
        #expect(close(Font.systemFont(ofSize: 40).ascender, 2 * sans.ascender, 0.01))
        #expect(Font.systemFont(ofSize: 10).pointSize == 10)
        #expect(Font.boldSystemFont(ofSize: 12).weight == .bold)
    }

    @Test("Fonts by family, full name and PostScript name, case-insensitively; unknown names are nil with a diagnostic")
    func fontNames() {
        let f = ViewFixture()
        #expect(Font(name: "dejavu serif", size: 12)?.familyName == "DejaVu Serif")
        let bold = Font(name: "DejaVu Sans Bold", size: 12)
        #expect(bold?.familyName == "DejaVu Sans")
        #expect(bold?.weight == .bold)
        #expect(Font(name: "DejaVuSans-Oblique", size: 12)?.isItalic == true)
        #expect(f.diagnostics.isEmpty)
        #expect(Font(name: "No Such Font Family 123", size: 12) == nil)
        #expect(f.diagnostics.contains { "\($0)".contains("No Such Font Family 123") })
    }

    @Test("X2: intrinsic size is the laid-out text's: the advances' sum and one line, rounded up")
    func intrinsicSize() {
        let label = Label(frame: .zero)
        label.font = mono
        label.text = "Hello"
        let size = label.intrinsicContentSize
        #expect(size.width == (5 * monoAdvance).rounded(.up))
        #expect(size.height == mono.lineHeight.rounded(.up))
        label.text = ""
        #expect(label.intrinsicContentSize == .zero)
        label.text = nil
        #expect(label.intrinsicContentSize == .zero)
    }

    @Test("a line narrower than a glyph with a space carrying marks beside Hebrew lays out (Pango 1.50 aborted in word wrapping); wider, words still wrap")
    func narrowMarksBesideRightToLeft() {
        let marks = "\u{301}\u{302}\u{303}\u{304}"
        let text = "d " + marks + marks + "\u{5E9}\u{5DC}\u{5D5}\u{5DD} " + marks + "w"
        for width in [0.5, 2, 3.4, 12, 40] {
            for mode in [LineBreakMode.byTruncatingTail, .byWordWrapping] {
                let label = Label(frame: Rect(x: 0, y: 0, width: width, height: 20))
                label.text = text
                label.lineBreakMode = mode
                label.numberOfLines = mode == .byWordWrapping ? 0 : 1
                #expect(label.sizeThatFits(Size(width: width, height: 0)).height > 0)
                _ = render(label, size: Size(width: 60, height: 40))
            }
        }
        // Word wrapping is kept where a glyph fits: two words on two lines at 40 points, not split inside "hello".
        let words = Label(frame: .zero)
        words.font = mono
        words.numberOfLines = 0
        words.text = "hello world"
        #expect(words.sizeThatFits(Size(width: 6 * monoAdvance, height: 0)).height == (2 * mono.lineHeight).rounded(.up))
    }

    @Test("X1, X2: lines break between words at the width; sizeThatFits wraps to the width given")
    func wrapping() {
        let label = Label(frame: .zero)
        label.font = mono
        label.numberOfLines = 0
        label.text = "aaa bbb ccc dddd"
        // 9.5 characters wide: "aaa bbb " then "ccc dddd".
        let width = 9.5 * monoAdvance
        let layout = TextLayout(AttributedText(label.text!), style: TextStyle(font: mono, color: .black, numberOfLines: 0), width: width)
        #expect(layout.lines.map(\.bytes) == [0..<8, 8..<16])
        let fits = label.sizeThatFits(Size(width: width, height: 1000))
        #expect(fits.height == (2 * mono.lineHeight).rounded(.up))
        #expect(fits.width <= width.rounded(.up))
        // One line allowed: the same width gives one line's height.
        label.numberOfLines = 1
        #expect(label.sizeThatFits(Size(width: width, height: 1000)).height == mono.lineHeight.rounded(.up))
        // A word longer than the line breaks inside (no text runs past the width).
        let long = TextLayout(AttributedText("abcdefghijkl"), style: TextStyle(font: mono, color: .black, numberOfLines: 0), width: 5.5 * monoAdvance)
        #expect(long.lines.map(\.bytes) == [0..<5, 5..<10, 10..<12])
        // Char wrapping breaks anywhere.
        let chars = TextLayout(AttributedText("aaa bbb"), style: TextStyle(font: mono, color: .black, lineBreakMode: .byCharWrapping, numberOfLines: 0),
                               width: 5.5 * monoAdvance)
        #expect(chars.lines.map(\.bytes) == [0..<5, 5..<7])
    }

    @Test("X2: the tail is cut with an ellipsis by default; head and middle modes; clipping keeps whole lines")
    func truncation() {
        func shown(_ text: String, _ mode: LineBreakMode, lines: Int = 1, width: Double) -> RenderedImage {
            let label = Label(frame: Rect(x: 10, y: 10, width: width, height: 60))
            label.font = mono
            label.numberOfLines = lines
            label.lineBreakMode = mode
            label.text = text
            return render(label)
        }
        // Whole points: a backing store of fractional width is resampled into its bounds.
        let width = (5.5 * monoAdvance).rounded()
        #expect(differingPixels(shown("abcdefghij", .byTruncatingTail, width: width), shown("abcd…", .byClipping, width: 300)) == 0)
        // Head and middle: the same glyphs as the text cut by hand (Pango gives the
        // ellipsis the room left over, so positions differ).
        func ids(_ text: String, _ mode: LineBreakMode, width: Double?) -> [UInt32] {
            TextLayout(AttributedText(text), style: TextStyle(font: mono, color: .black, lineBreakMode: mode, numberOfLines: 1), width: width, height: 60)
                .glyphs.map(\.id)
        }
        #expect(ids("abcdefghij", .byTruncatingHead, width: width) == ids("…ghij", .byClipping, width: nil))
        let middle = ids("abcdefghij", .byTruncatingMiddle, width: width)
        #expect(middle == ids("ab…ij", .byClipping, width: nil) || middle == ids("abc…j", .byClipping, width: nil))
        // Two lines, truncating: the second line ends with the ellipsis.
        #expect(differingPixels(shown("aaa bbb ccc ddd", .byTruncatingTail, lines: 2, width: width),
                                shown("aaa\nbbb …", .byClipping, lines: 0, width: 300)) == 0)
        // Text that fits is not cut.
        let label = Label(frame: Rect(x: 0, y: 0, width: 300, height: 40))
        label.font = mono
        label.text = "abc"
        #expect(label.layoutInBounds?.isTruncated == false)
        label.frame = Rect(x: 0, y: 0, width: 2 * monoAdvance, height: 40)
        #expect(label.layoutInBounds?.isTruncated == true)
    }

    @Test("X2: natural alignment follows the paragraph's direction; left, right and center are absolute")
    func alignment() throws {
        func ink(_ text: String, _ alignment: TextAlignment) throws -> (minX: Int, maxX: Int) {
            let label = Label(frame: Rect(x: 0, y: 0, width: 300, height: 40))
            label.text = text
            label.textAlignment = alignment
            let b = try #require(inkBounds(render(label)))
            return (b.minX, b.maxX)
        }
        let hebrew = "שלום עולם"
        #expect(try ink("Hello", .natural).minX < 5)
        #expect(try ink(hebrew, .natural).maxX > 290)
        #expect(try ink(hebrew, .natural).minX > 150)
        #expect(try ink(hebrew, .left).minX < 5)
        #expect(try ink("Hello", .right).maxX > 290)
        let centered = try ink("Hello", .center)
        #expect(abs((centered.minX + centered.maxX) / 2 - 150) <= 2)
    }

    @Test("X1: bidirectional text is shown in visual order: the Hebrew run in an English line reads right to left")
    func bidi() throws {
        let layout = TextLayout(AttributedText("ab אבג cd"), style: TextStyle(font: .systemFont(ofSize: 20), color: .black), width: nil)
        #expect(layout.lines.count == 1 && layout.lines[0].isRightToLeft == false)
        // Glyphs come in visual order: x grows along the array.
        let xs = layout.glyphs.map(\.x)
        #expect(xs == xs.sorted())
        // The Hebrew letters' clusters (bytes 3…8) appear in reverse: the last letter is leftmost.
        let hebrewLayout = TextLayout(AttributedText("אבג"), style: TextStyle(font: .systemFont(ofSize: 20), color: .black), width: nil)
        #expect(hebrewLayout.lines[0].isRightToLeft)
    }

    @Test("X1: shaping shows in pixels — Arabic letters join; a ligature differs from its letters apart")
    func shaping() {
        func image(_ text: String) -> RenderedImage {
            let label = Label(frame: Rect(x: 10, y: 10, width: 280, height: 60))
            label.font = .systemFont(ofSize: 30)
            label.text = text
            return render(label)
        }
        let joined = TextLayout(AttributedText("ببب"), style: TextStyle(font: .systemFont(ofSize: 30), color: .black), width: nil)
        let apart = TextLayout(AttributedText("ب\u{200C}ب\u{200C}ب"), style: TextStyle(font: .systemFont(ofSize: 30), color: .black), width: nil)
        // Initial, medial and final forms are three glyphs; isolated ones are one glyph thrice.
        #expect(Set(joined.glyphs.map(\.id)).count == 3)
        #expect(Set(apart.glyphs.filter { $0.missingWidth == nil }.map(\.id)).count <= 2)
        #expect(differingPixels(image("ببب"), image("ب\u{200C}ب\u{200C}ب"), tolerance: 40) > 100)
        // DejaVu Sans has an "fi" ligature: one glyph for two letters.
        let ligature = TextLayout(AttributedText("fi"), style: TextStyle(font: Font(name: "DejaVu Sans", size: 30)!, color: .black), width: nil)
        #expect(ligature.glyphs.count == 1)
    }

    @Test("X1: characters the font lacks come from fallback fonts (CJK, emoji); none is dropped")
    func fallback() throws {
        let layout = TextLayout(AttributedText("A你😀"), style: TextStyle(font: Font(name: "DejaVu Sans", size: 30)!, color: .black), width: nil)
        #expect(layout.glyphs.count == 3)
        #expect(layout.glyphs.allSatisfy { $0.missingWidth == nil })
        let files = Set(layout.glyphs.map { layout.faces[$0.face].file })
        #expect(files.count == 3)
        let label = Label(frame: Rect(x: 0, y: 0, width: 300, height: 60))
        label.font = Font(name: "DejaVu Sans", size: 30)!
        label.text = "你😀"
        let image = render(label)
        let cjk = try #require(inkBounds(image, in: (0..<30, 0..<60)))
        #expect(cjk.maxX - cjk.minX > 15)
        // The emoji is in colour: some pixel is clearly yellow.
        let yellow = (30..<80).contains { x in (0..<60).contains { y in
            let p = image.rgba8(x: x, y: y); return p.r > 200 && p.g > 150 && p.b < 100 } }
        #expect(yellow)
        // A character no font has is drawn as a box, not dropped.
        let missing = TextLayout(AttributedText("\u{10FFFD}"), style: TextStyle(font: .systemFont(ofSize: 30), color: .black), width: nil)
        #expect(missing.glyphs.count == 1 && missing.glyphs[0].missingWidth ?? 0 > 0)
    }

    @Test("X3: at scale 2 glyphs are rasterized for 2× — the same as native 2× text, not an enlarged 1× image")
    func crispAtScaleTwo() {
        func label(_ size: Double, _ frame: Rect) -> Label {
            let l = Label(frame: frame)
            l.font = .systemFont(ofSize: size)
            l.text = "Sharp glyphs Ag"
            return l
        }
        let atTwo = render(label(16, Rect(x: 10, y: 10, width: 200, height: 30)), size: Size(width: 220, height: 50), scale: 2)
        let native = render(label(32, Rect(x: 20, y: 20, width: 400, height: 60)), size: Size(width: 440, height: 100))
        #expect(atTwo.width == native.width && atTwo.height == native.height)
        #expect(differingPixels(atTwo, native, tolerance: 8) < 20)
        // Enlarging the 1× rendering is visibly different.
        let one = render(label(16, Rect(x: 10, y: 10, width: 200, height: 30)), size: Size(width: 220, height: 50))
        let enlarged = RenderedImage(width: one.width * 2, height: one.height * 2,
                                     pixels: (0..<(one.height * 2)).flatMap { y in (0..<(one.width * 2)).map { x in one.word(x: x / 2, y: y / 2) } })
        #expect(differingPixels(enlarged, native, tolerance: 8) > 300)
    }

    @Test("Attributed runs: colour and font per range")
    func attributedRuns() throws {
        var text = AttributedText("red blue")
        text.setAttributes(.init(color: .red), range: text.string.firstRange(of: "red")!)
        text.setAttributes(.init(font: .systemFont(ofSize: 30), color: .blue, weight: .bold), forOccurrencesOf: "blue")
        let label = Label(frame: Rect(x: 0, y: 0, width: 300, height: 50))
        label.attributedText = text
        let image = render(label)
        var reds = 0, blues = 0
        for y in 0..<image.height { for x in 0..<image.width {
            let p = image.rgba8(x: x, y: y)
            if p.r > 200 && p.g < 80 && p.b < 80 { reds += 1 }
            if p.b > 200 && p.r < 80 && p.g < 80 { blues += 1 }
        } }
        #expect(reds > 20 && blues > 20)
        let layout = try #require(label.layoutInBounds)
        #expect(Set(layout.faces.map(\.size)).count == 2)
    }

    @Test("The layout is made again only when text, attributes or width change; glyphs come from the cache")
    func caching() {
        let f = ViewFixture()
        let label = Label(frame: Rect(x: 0, y: 0, width: 200, height: 40))
        label.text = "Cached text"
        f.window.rootView.addSubview(label)
        _ = f.window.snapshot()
        let layouts = label.layoutCount
        let rasterized = TextSystem.shared.rasterizer.rasterizations
        label.setNeedsDisplay()
        label.textColor = .blue
        _ = f.window.snapshot()
        #expect(label.layoutCount == layouts)
        #expect(TextSystem.shared.rasterizer.rasterizations == rasterized)
        label.text = "Other text"
        _ = f.window.snapshot()
        #expect(label.layoutCount == layouts + 1)
        label.frame = Rect(x: 0, y: 0, width: 150, height: 40)
        _ = f.window.snapshot()
        #expect(label.layoutCount == layouts + 2)
        // Nothing changed: the contents stay, no drawing.
        let contents = label.layer.contents
        _ = f.window.snapshot()
        #expect(label.layer.contents == contents)
    }

    @Test("Bad input: huge text, NUL, NaN and negative sizes, zero-width labels, negative line counts")
    func badInput() throws {
        let f = ViewFixture()
        let huge = String(repeating: "word ", count: 2_000_000)   // 10 MB
        let label = Label(frame: Rect(x: 0, y: 0, width: 300, height: 40))
        label.text = huge
        f.window.rootView.addSubview(label)
        let image = f.window.snapshot()
        #expect(inkBounds(image) != nil)
        #expect(label.layoutInBounds?.isTruncated == true)
        #expect(f.diagnostics.contains { "\($0)".contains("bytes is laid out up to") })
        label.text = "a\u{0}b"
        #expect(label.layoutInBounds?.glyphs.count == 3)
        let nan = Font.systemFont(ofSize: .nan)
        #expect(nan.pointSize == Font.systemFontSize)
        #expect(Font.systemFont(ofSize: -4).pointSize == Font.systemFontSize)
        #expect(Font.systemFont(ofSize: 1e9).pointSize == Font.maximumPointSize)
        #expect(Font.systemFont(ofSize: 0).lineHeight == 0)
        label.numberOfLines = -3
        #expect(label.numberOfLines == 0)
        label.frame = Rect(x: 0, y: 0, width: 0, height: 0)
        _ = f.window.snapshot()
        label.frame = Rect(x: 0, y: 0, width: -20, height: 10)
        _ = f.window.snapshot()
        #expect(label.sizeThatFits(Size(width: -5, height: .nan)).width > 0)
    }
}
