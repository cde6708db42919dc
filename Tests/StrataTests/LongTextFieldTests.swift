@testable import Strata
import StrataTesting
import Testing
import WaylandClient
import LayerKitTesting

/// A text field holding far more than it shows lays out only a window of the
/// text around the caret (``ShownText``), and still edits, moves, selects and
/// draws as it does with a short text.
@MainActor
@Suite("TextField with a long text", .serialized, .isolatedLayerContext)
struct LongTextFieldTests {
    /// 210,000 bytes of numbered words ("w00000 w00001 …"), so any place can be named.
    static let words = (0..<30_000).map { "w" + String(100_000 + $0).dropFirst() }
    static let long = words.joined(separator: " ")

    func setUp(_ text: String = LongTextFieldTests.long) -> (ViewFixture, InputDriver, TextField) {
        let f = ViewFixture()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 300, height: 34))
        field.text = text
        f.window.rootView.addSubview(field)
        Transaction.flush()
        field.becomeFirstResponder()
        return (f, InputDriver(window: f.window), field)
    }

    func key(_ input: InputDriver, _ keysym: UInt32, control: Bool = false, times: Int = 1) {
        for _ in 0..<times {
            if control { input.pressKey(keysym: Keysym.control) }
            input.pressKey(keysym: keysym)
            input.releaseKey(keysym: keysym)
            if control { input.releaseKey(keysym: Keysym.control) }
        }
    }

    func caret(_ field: TextField) -> Int {
        field.text!.utf8.distance(from: field.text!.startIndex, to: field.selectedTextRange.upperBound)
    }

    /// The most a window holds: the limit, and the margin a window near the end takes in.
    func window(_ field: TextField) -> Int { ShownText.wholeTextLimit + ShownText.wholeTextLimit / 4 + ShownText.longestCharacter }

    @Test("typing at the end of 210 KB lays out a window of it, and the end shows at the field's right edge")
    func typingAtTheEnd() {
        let (f, input, field) = setUp()
        input.type(" tail")
        #expect(field.text == Self.long + " tail")
        #expect(field.shownRange.count <= window(field))
        #expect(field.shownRange.upperBound == field.text!.utf8.count)
        let caretRect = field.caretRectInWindow!
        #expect(caretRect.minX > 280 && caretRect.maxX <= 320)
        // Text, not only the caret: ink right across the field.
        let image = f.window.snapshot()
        #expect(inkBounds(image, in: (40..<60, 20..<54)) != nil && inkBounds(image, in: (260..<280, 20..<54)) != nil)
        // Home: the window moves to the start, and the start shows at the left edge.
        key(input, Keysym.home)
        #expect(field.shownRange.lowerBound == 0 && field.shownRange.count <= window(field))
        #expect(field.caretRectInWindow!.minX < 30)
        let start = f.window.snapshot()
        #expect((inkBounds(start, in: (29..<60, 20..<54))?.minX ?? 100) < 32)
        #expect(inkBounds(start, in: (260..<280, 20..<54)) != nil)
        input.type("head ")
        #expect(field.text == "head " + Self.long + " tail")
    }

    @Test("the caret moves left into a new window without jumping on screen; Ctrl+Left moves by words across windows")
    func movingAcrossWindows() {
        let (f, input, field) = setUp()
        _ = f
        // The caret a little inside the window's left margin: 300 moves take it past.
        let window = field.shownRange
        let start = window.lowerBound + ShownText.wholeTextLimit / 4 + 100
        let u = field.text!.utf8
        field.selectedTextRange = u.index(u.startIndex, offsetBy: start)..<u.index(u.startIndex, offsetBy: start)
        #expect(field.shownRange == window)
        var lastX = field.caretRectInWindow!.minX
        for step in 1...300 {
            key(input, Keysym.left)
            #expect(caret(field) == start - step)
            let x = field.caretRectInWindow!.minX
            // Moving left: the caret goes left one character, or stays at the edge while the text scrolls.
            #expect(x <= lastX + 0.01 && x >= lastX - 20 && x >= 26, "step \(step): caret x \(lastX) → \(x)")
            #expect(field.shownRange.contains(caret(field)))
            lastX = x
        }
        #expect(field.shownRange != window)   // the window moved
        // Ctrl+Left goes to the start of each word in turn, 1,200 words back (past several windows).
        let word = start - 300 < 0 ? 0 : (start - 300) / 7
        for back in 0..<1_200 {
            key(input, Keysym.left, control: true)
            if back % 200 == 0 || back == 1_199 { #expect(caret(field) == (word - back) * 7, "word \(back)") }
        }
    }

    @Test("a double click at the caret in the middle of a long text selects the word there")
    func doubleClickInTheMiddle() {
        let (f, input, field) = setUp()
        _ = f
        // Put the caret in the middle of the text: before word 15,000.
        let middle = 15_000 * 7
        field.selectedTextRange = field.text!.utf8.index(field.text!.startIndex, offsetBy: middle + 3)..<field.text!.utf8.index(field.text!.startIndex, offsetBy: middle + 3)
        #expect(field.shownRange.contains(middle) && field.shownRange.lowerBound > 0)
        let at = field.caretRectInWindow!
        input.click(at: Point(x: at.midX, y: at.midY))
        input.click(at: Point(x: at.midX, y: at.midY))
        #expect(field.selectedText == Self.words[15_000])
        // Backspace deletes it; the text around stays.
        key(input, Keysym.backspace)
        #expect(field.text == Self.words[..<15_000].joined(separator: " ") + "  " + Self.words[15_001...].joined(separator: " "))
    }

    @Test("a secure field with 100,000 characters: bullets around the caret, Home and End, typing")
    func secureLongText() {
        let (f, input, field) = setUp(String(repeating: "sécret", count: 16_667))
        field.isSecureTextEntry = true
        input.type("!")
        #expect(field.text!.hasSuffix("sécret!"))
        #expect(field.shownRange.count <= window(field))
        #expect(field.caretRectInWindow!.maxX <= 320)
        key(input, Keysym.home)
        #expect(caret(field) == 0)
        key(input, Keysym.right, times: 2)
        #expect(caret(field) == 3)   // "sé"
        let image = f.window.snapshot()
        try? image.writePNG(to: "/tmp/strata-long-secure.png")
        #expect((inkBounds(image, in: (20..<320, 20..<54))?.maxX ?? 0) > 280)   // bullets fill the field
    }

    @Test("marked text composed in the middle of a long text shows there and commits there")
    func markedTextInTheMiddle() {
        let (f, _, field) = setUp()
        _ = f
        let middle = 20_000 * 7
        let u = field.text!.utf8
        field.selectedTextRange = u.index(u.startIndex, offsetBy: middle)..<u.index(u.startIndex, offsetBy: middle)
        field.setMarkedText("かな")
        #expect(field.shownRange.contains(middle))
        let caretWithMarked = field.caretRectInWindow!
        field.unmarkText()
        #expect(field.text == Self.words[..<20_000].joined(separator: " ") + " かな" + Self.words[20_000...].joined(separator: " "))
        #expect(abs(field.caretRectInWindow!.minX - caretWithMarked.minX) < 1)
    }
}

/// A focused field's caret blink after the clock jumps far ahead.
@MainActor
@Suite("Caret blink after a jump of the clock", .isolatedLayerContext)
struct CaretBlinkJumpTests {
    @Test("after 10⁶ s the caret goes on blinking in step, from the blink due then, not by running two million missed ones (found by the app fuzzer)")
    func blinkAfterAJump() {
        let f = ViewFixture()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 300, height: 34))
        f.window.rootView.addSubview(field)
        field.becomeFirstResponder()
        #expect(field.isCaretVisible)
        f.advance(1_000_000.2)   // 2,000,000 blinks fell due (even: visible), the next at +0.3
        #expect(field.isCaretVisible)
        #expect(!f.diagnostics.contains { "\($0)".contains("media timers") })
        f.advance(0.3)
        #expect(!field.isCaretVisible)
        f.advance(0.5)
        #expect(field.isCaretVisible)
    }
}

/// Glyphs far outside what a layer shows are left out before pixman composites
/// them: its glyph compositing works in 16-bit extents, and a line more than
/// 32,767 pixels long drew nothing at all.
@MainActor
@Suite("Very long lines", .isolatedLayerContext)
struct VeryLongLineTests {
    @Test("a field's line of 5,000 characters, 75,000 pixels long, draws the part the field shows")
    func longLine() {
        let f = ViewFixture()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 300, height: 34))
        field.text = String(repeating: "m", count: 5_000)
        f.window.rootView.addSubview(field)
        let ink = inkBounds(f.window.snapshot(), in: (20..<320, 20..<54))   // no caret: the field is not focused
        #expect((ink?.minX ?? 999) < 40 && (ink?.maxX ?? 0) > 300)
    }
}

/// Points and widths no double should be, given to Pango.
@MainActor
@Suite("Text layout with non-finite points", .isolatedLayerContext)
struct NonFiniteTextPointTests {
    @Test("index(at:) takes ±∞ and NaN without trapping (a touch moved through a degenerate transform, found by the app fuzzer); a width of 10³⁰⁶ lays out")
    func nonFinitePoints() {
        let style = TextStyle(font: .systemFont(ofSize: 17), color: .black, numberOfLines: 1)
        let layout = TextLayout(AttributedText("abc def"), style: style, width: nil)
        #expect(layout.index(at: Point(x: .infinity, y: 5)).byte == 6)        // past the end: the last character
        #expect(layout.index(at: Point(x: -.infinity, y: 5)).byte == 0)
        #expect(layout.index(at: Point(x: .nan, y: .nan)).byte == 0)
        #expect(TextLayout.pangoUnits(.infinity) == Int32.max && TextLayout.pangoUnits(-.infinity) == Int32.min)
        let wide = TextLayout(AttributedText("abc def"), style: style, width: 1e306)
        #expect(wide.lines.count == 1)
    }
}

/// Where a text field's window falls.
@MainActor
@Suite("ShownText windows", .isolatedLayerContext)
struct ShownTextWindowTests {
    @Test("a short text is laid out whole")
    func shortText() {
        let text = String(repeating: "é", count: 4_000)   // 8,000 bytes
        #expect(ShownText.range(of: text, caret: 10, keeping: nil) == 0..<8_000)
    }

    @Test("a long text's window keeps while the caret stays well inside, and moves to centre it when it nears an edge")
    func keepingAndMoving() {
        let text = String(repeating: "ab é ", count: 10_000)   // 60,000 bytes, "é" two bytes
        let first = ShownText.range(of: text, caret: 30_000, keeping: nil)
        #expect(first.count <= ShownText.wholeTextLimit + ShownText.longestCharacter)
        #expect(first.contains(30_000))
        #expect(ShownText.range(of: text, caret: 30_500, keeping: first.lowerBound) == first)
        let moved = ShownText.range(of: text, caret: first.upperBound - 100, keeping: first.lowerBound)
        #expect(moved != first && moved.contains(first.upperBound - 100))
        // Edges fall between characters: never inside "é".
        for caret in stride(from: 0, through: 60_000, by: 997) {
            let r = ShownText.range(of: text, caret: caret, keeping: nil)
            #expect(text.characterOffset(atOrBefore: r.lowerBound) == r.lowerBound)
            #expect(text.characterOffset(atOrBefore: r.upperBound) == r.upperBound)
            #expect(r.contains(caret) || caret == r.upperBound)
        }
    }

    @Test("a letter carrying 20,000 marks is cut between its scalars rather than laid out whole")
    func hugeCharacter() {
        let text = String(repeating: "x", count: 10_000) + "a" + String(repeating: "\u{301}", count: 20_000) + String(repeating: "y", count: 10_000)
        let r = ShownText.range(of: text, caret: 60_000, keeping: nil)
        #expect(r.count <= ShownText.wholeTextLimit + ShownText.longestCharacter)
        #expect(r.contains(60_000))
        let u = text.utf8
        #expect(u[u.index(u.startIndex, offsetBy: r.lowerBound)] & 0xC0 != 0x80)   // at a scalar
    }
}
