@testable import Strata
import StrataTesting
import Testing
import WaylandClient
import LayerKitTesting

/// Records what a text view tells its delegate, and refuses edits when asked to.
@MainActor
final class RecordingTextViewDelegate: TextViewDelegate {
    var log: [String] = []
    var refusing: String?
    func textViewDidBeginEditing(_ textView: TextView) { log.append("begin") }
    func textViewDidEndEditing(_ textView: TextView) { log.append("end") }
    func textViewDidChange(_ textView: TextView) { log.append("changed") }
    func textView(_ textView: TextView, shouldChangeTextIn range: Range<String.Index>, replacementText text: String) -> Bool {
        text != refusing
    }
    func take() -> [String] { defer { log = [] }; return log }
}

@MainActor
@Suite("TextView", .serialized, .isolatedLayerContext)
struct TextViewTests {
    func setUp(_ text: String = "", size: Size = Size(width: 300, height: 200)) -> (ViewFixture, InputDriver, TextView, RecordingTextViewDelegate) {
        let f = ViewFixture()
        let view = TextView(frame: Rect(x: 20, y: 20, width: size.width, height: size.height))
        view.text = text
        let delegate = RecordingTextViewDelegate()
        view.delegate = delegate
        f.window.rootView.addSubview(view)
        Transaction.flush()
        return (f, InputDriver(window: f.window), view, delegate)
    }

    /// Where the caret stands before the byte `offset`, in window points (the line's middle).
    func point(at offset: Int, in view: TextView) -> Point {
        let r = view.convert(view.caretRect(at: offset), to: nil)
        return Point(x: r.minX + 1, y: r.midY)
    }

    func caret(_ view: TextView) -> Int { view.text.utf8.distance(from: view.text.startIndex, to: view.selectedTextRange.lowerBound) }

    @Test("Typing makes paragraphs; Return, Tab, Backspace across a line break; the delegate hears the person's edits only")
    func typing() {
        let (f, input, view, delegate) = setUp()
        input.click(at: Point(x: 100, y: 100))
        #expect(view.isFirstResponder && view.isEditing)
        #expect(delegate.take() == ["begin"])
        input.type("First line")
        key(input, Keysym.returnKey)
        key(input, Keysym.tab)
        input.type("second")
        #expect(view.text == "First line\n\tsecond")
        #expect(view.isFirstResponder)   // Tab went in as text, the focus stayed
        #expect(Set(delegate.take()) == ["changed"])
        key(input, Keysym.home)
        key(input, Keysym.backspace)
        key(input, Keysym.delete)
        #expect(view.text == "First linesecond")
        // The two lines drew in two rows of ink before; now one.
        let image = f.window.snapshot()
        #expect(inkBounds(image, in: (25..<300, 28..<48)) != nil)
        #expect(inkBounds(image, in: (25..<300, 52..<90)) == nil)
        view.text = "set by code"
        #expect(delegate.take() == ["changed", "changed"])   // Backspace and Delete; code told nothing
        #expect(caret(view) == 0)
        // A delegate refusing an edit keeps the text.
        delegate.refusing = "x"
        input.type("x")
        #expect(view.text == "set by code")
        view.resignFirstResponder()
        #expect(delegate.take() == ["end"])
    }

    @Test("Lines wrap at words in the width; Up and Down keep the goal column across wrapped lines and paragraphs; Home and End stay on the visual line")
    func verticalMovement() {
        let words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma"
        let (_, input, view, _) = setUp("\(words)\nshort\n\(words)")
        view.becomeFirstResponder()
        let lines = view.layout(of: 0).lines
        #expect(lines.count >= 3)                      // wrapped in 290 points
        #expect(lines.allSatisfy { $0.rect.width <= view.textWidth + 0.5 })
        // From the start, Down goes to the second visual line at the same x.
        key(input, Keysym.down)
        #expect(caret(view) == lines[1].bytes.lowerBound)
        key(input, Keysym.right); key(input, Keysym.right); key(input, Keysym.right)
        let x = view.caretRect(at: caret(view)).minX
        key(input, Keysym.up)
        #expect(abs(view.caretRect(at: caret(view)).minX - x) < 8)
        #expect(caret(view) < lines[0].bytes.upperBound)
        // End stops before the space the line wrapped at; Home goes to the line's start.
        key(input, Keysym.end)
        let firstLineEnd = caret(view)
        #expect(firstLineEnd < lines[0].bytes.upperBound)
        #expect(view.text.utf8Slice(firstLineEnd..<lines[0].bytes.upperBound).allSatisfy { $0 == " " })
        key(input, Keysym.home)
        #expect(caret(view) == 0)
        // Down through the wrapped paragraph to "short" and into the next paragraph, the goal kept.
        for _ in 0..<lines.count { key(input, Keysym.down) }
        let shortStart = words.utf8.count + 1
        #expect((shortStart...shortStart + 5).contains(caret(view)))
        key(input, Keysym.down)
        #expect(caret(view) == shortStart + 6)   // the goal column is the line start Home set
        // Ctrl+End, Ctrl+Home; Up on the first line goes to the start, Down on the last to the end.
        key(input, Keysym.end, control: true)
        #expect(caret(view) == view.text.utf8.count)
        key(input, Keysym.down)
        #expect(caret(view) == view.text.utf8.count)
        key(input, Keysym.home, control: true)
        key(input, Keysym.right)
        key(input, Keysym.up)
        #expect(caret(view) == 0)
        // Shift+Down selects to the same column a line down (the column Right set, kept through Up).
        key(input, Keysym.down, shift: true)
        #expect(view.selectedText.utf8.count == lines[1].bytes.lowerBound + 1)
    }

    @Test("Pointer: a click places the caret in the paragraph under it, a drag selects across paragraphs, double click a word, triple a paragraph")
    func pointer() {
        let (f, input, view, _) = setUp("one two three\nfour five six\nseven eight")
        let text = view.text
        let five = text.utf8.count - "five six\nseven eight".utf8.count
        input.click(at: point(at: five + 1, in: view))
        #expect(caret(view) == five + 1)
        f.advance(1)
        let eight = text.utf8.count - "ight".utf8.count
        input.drag(from: point(at: 4, in: view), to: point(at: eight, in: view), steps: 5, clock: f.clock)
        #expect(view.selectedText == "two three\nfour five six\nseven e")
        // The selection is drawn in the tint colour on both paragraphs it covers.
        let image = f.window.snapshot()
        for offset in [6, five + 2] {
            let r = view.convert(view.caretRect(at: offset), to: nil)
            let c = image.rgba8(x: Int(r.minX) + 3, y: Int(r.minY) + 1)
            #expect(c.b > 200 && c.r < 235, "selection at \(offset): \(c)")
        }
        f.advance(1)
        let p = point(at: five + 2, in: view)
        input.click(at: p)
        input.click(at: p)
        #expect(view.selectedText == "five")
        input.click(at: p)
        #expect(view.selectedText == "four five six\n")
    }

    @Test("Copy, cut and paste of several lines through the clipboard; undo and redo")
    func clipboardAndUndo() async {
        let (_, input, view, _) = setUp("line one\nline two")
        view.becomeFirstResponder()
        key(input, 0x61, control: true)   // Ctrl+A
        key(input, 0x63, control: true)   // Ctrl+C
        #expect(Pasteboard.general.string == "line one\nline two")
        key(input, 0x78, control: true)   // Ctrl+X
        #expect(view.text == "")
        key(input, 0x76, control: true)   // Ctrl+V
        await Task.yield()
        key(input, Keysym.returnKey)
        key(input, 0x76, control: true)
        await Task.yield()
        #expect(view.text == "line one\nline two\nline one\nline two")
        key(input, 0x7a, control: true)   // undo the second paste
        #expect(view.text == "line one\nline two\n")
        key(input, 0x7a, control: true)   // and the line break
        key(input, 0x7a, control: true)   // and the first paste
        #expect(view.text == "")
        key(input, 0x7a, shift: true, control: true)   // redo
        #expect(view.text == "line one\nline two")
        // Pasted carriage returns become line breaks; NUL goes.
        Pasteboard.general.string = "\r\nA\rB\u{0}"
        view.paste()
        await Task.yield()
        #expect(view.text == "line one\nline two\nA\nB")
        #expect(view.blocks.count == 4)
    }

    @Test("Attributed text draws its runs; typed text takes the attributes before it; undo brings removed attributes back")
    func attributed() {
        var attributed = AttributedText("plain red plain")
        attributed.setAttributes(.init(color: .red), forOccurrencesOf: "red")
        let (f, input, view, _) = setUp()
        view.font = .systemFont(ofSize: 24, weight: .bold)
        view.attributedText = attributed
        Transaction.flush()
        func redInk() -> Int {
            let image = f.window.snapshot()
            var n = 0
            for y in 28..<60 { for x in 25..<300 { let p = image.rgba8(x: x, y: y); if p.r > 180 && p.g < 90 && p.b < 90 { n += 1 } } }
            return n
        }
        let red = redInk()
        #expect(red > 40)
        view.becomeFirstResponder()
        view.selectedTextRange = view.text.range(of: "red")!.upperBound..<view.text.range(of: "red")!.upperBound
        input.type("dish")
        #expect(view.text == "plain reddish plain")
        #expect(redInk() > red * 3 / 2)   // "dish" is red too
        // Deleting the red word and undoing it brings it back red.
        view.selectedTextRange = view.text.range(of: "reddish")!
        key(input, Keysym.backspace)
        #expect(redInk() == 0)
        view.undo()
        #expect(view.text == "plain reddish plain")
        #expect(redInk() > red * 3 / 2)
        #expect(view.attributedText!.runs.map(\.bytes) == [6..<13])
        // Carriage returns and NUL go from attributed text too; the runs move with the bytes.
        var crlf = AttributedText("a\r\nred\0\rend")
        crlf.setAttributes(.init(color: .red), forOccurrencesOf: "red")
        view.attributedText = crlf
        #expect(view.text == "a\nred\nend" && view.attributedText!.runs.map(\.bytes) == [2..<5])
        view.attributedText = nil
        #expect(view.text == "" && view.attributedText?.string == "")
    }

    @Test("An input method's composition shows underlined in its paragraph and goes in on commit")
    func preedit() {
        let (f, _, view, delegate) = setUp("ab\ncd")
        view.becomeFirstResponder()
        view.selectedTextRange = view.text.index(view.text.startIndex, offsetBy: 5)..<view.text.endIndex
        delegate.take()
        let before = point(at: 5, in: view)
        view.setMarkedText("にほ")
        #expect(view.text == "ab\ncd")
        let image = f.window.snapshot()
        #expect(inkBounds(image, in: (Int(before.x) + 2..<Int(before.x) + 40, Int(before.y) - 10..<Int(before.y) + 12)) != nil)
        #expect(view.caretRect(at: 5).minX > before.x + 10)   // the caret after the composition
        view.setMarkedText("日本")
        view.unmarkText()
        #expect(view.text == "ab\ncd日本")
        #expect(view.markedText == nil)
        #expect(delegate.take().contains("changed"))
    }

    @Test("Not editable: keys and clicks select and copy, nothing changes the text, no caret")
    func notEditable() {
        let (_, input, view, _) = setUp("read only\ntext")
        view.isEditable = false
        input.click(at: point(at: 2, in: view))
        #expect(view.isFirstResponder && !view.isEditing)
        input.type("zz")
        key(input, Keysym.backspace)
        key(input, Keysym.returnKey)
        #expect(view.text == "read only\ntext")
        #expect(!view.isCaretVisible)
        key(input, Keysym.end, shift: true)
        key(input, 0x63, control: true)
        #expect(Pasteboard.general.string == "ad only")
        #expect(!view.canPerform(.paste) && !view.canPerform(.cut) && view.canPerform(.copy))
        view.isSelectable = false
        #expect(!view.isFirstResponder)
    }

    @Test("A megabyte opens laying out only what is shown; scrolling and typing lay out what comes into view, and estimates give way without moving the text in view")
    func megabyte() {
        var paragraphs: [String] = []
        for i in 0..<12_000 { paragraphs.append("Paragraph \(i): " + String(repeating: "lorem ipsum dolor ", count: 4 + i % 3)) }
        let text = paragraphs.joined(separator: "\n")
        #expect(text.utf8.count > 1_000_000)
        let (f, input, view, _) = setUp(text)
        func laidOut() -> Int { view.blocks.blocks.filter { $0.layout != nil }.count }
        #expect(view.blocks.count == 12_000)
        #expect(laidOut() < 20)
        view.becomeFirstResponder()
        key(input, Keysym.end, control: true)
        #expect(caret(view) == text.utf8.count)
        #expect(view.contentOffset.y == view.maximumContentOffset.y)
        #expect(laidOut() < 40)
        input.type("!")
        #expect(view.text.hasSuffix("lorem ipsum dolor !"))
        #expect(view.text.utf8.count == text.utf8.count + 1)
        // The last paragraph is drawn where the view shows it.
        let image = f.window.snapshot()
        #expect(inkBounds(image, in: (25..<300, 120..<212)) != nil)
        // Scrolling up into estimated paragraphs: the paragraph at the top stays where it was on screen.
        key(input, Keysym.home, control: true)
        for _ in 0..<30 { key(input, Keysym.pageDown) }
        let top = view.blocks.index(atY: view.contentOffset.y - view.textOrigin.y + 1) + 1
        let screenY = view.convert(Point(x: 0, y: view.textOrigin.y + view.blocks.top(of: top)), to: nil).y
        view.scrollWheel(with: ScrollEvent(dx: 0, dy: -150, location: Point(x: 100, y: 100), timestamp: 0))
        view.scrollWheel(with: ScrollEvent(dx: 0, dy: 150, location: Point(x: 100, y: 100), timestamp: 0))
        let after = view.convert(Point(x: 0, y: view.textOrigin.y + view.blocks.top(of: top)), to: nil).y
        #expect(abs(after - screenY) < 1)
        #expect(laidOut() <= TextBlocks.keptLayouts + 20)
    }

    @Test("A paragraph of 100 KB with no line break is cut into pieces laid out apart; editing across the pieces keeps the text")
    func longParagraph() {
        let text = String(repeating: "word ", count: 20_000)
        let (_, input, view, _) = setUp(text)
        #expect(view.blocks.count > 10)
        #expect(view.blocks.blocks.allSatisfy { $0.length <= 2 * TextBlocks.longestBlock })
        #expect(view.blocks.blocks.dropLast().allSatisfy { !$0.endsParagraph })
        view.becomeFirstResponder()
        // Select across the first piece's end and type over it.
        let cut = view.blocks.blocks[0].length
        view.selectedTextRange = view.text.utf8.index(view.text.startIndex, offsetBy: cut - 3)..<view.text.utf8.index(view.text.startIndex, offsetBy: cut + 3)
        input.type("X")
        #expect(view.text.utf8.count == text.utf8.count - 5)
        #expect(view.text.hasPrefix(String(repeating: "word ", count: cut / 5 - 1) + "woX"))
        // The triple click's paragraph is the whole text.
        #expect(view.paragraphRange(around: 10) == 0..<view.text.utf8.count)
        var total = 0
        for b in view.blocks.blocks { total += b.length }
        #expect(total == view.text.utf8.count)
    }

    @Test("The caret blinks on the media clock; an empty last line after a line break holds it")
    func caretOnEmptyLastLine() {
        let (f, input, view, _) = setUp("ab\n")
        view.becomeFirstResponder()
        key(input, Keysym.end, control: true)
        #expect(view.blocks.count == 2)
        let r = view.caretRect(at: 3)
        #expect(r.minY > view.caretRect(at: 0).maxY - 1)
        #expect(view.isCaretVisible)
        f.advance(0.5)
        #expect(!view.isCaretVisible)
        f.advance(0.5)
        #expect(view.isCaretVisible)
    }
}
