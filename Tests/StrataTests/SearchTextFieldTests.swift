@testable import Strata
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// Views inside a text field (`leftView`, `rightView`, the clear button) and the
/// search field made of them (issue 27, item 5).
@MainActor
@Suite("Search fields and the views inside text fields", .isolatedLayerContext)
struct SearchTextFieldTests {
    /// A field at (20, 20), 240 × 34, in the fixture's window.
    private func field<F: TextField>(_ f: ViewFixture, _ make: (Rect) -> F) -> F {
        let field = make(Rect(x: 20, y: 20, width: 240, height: 34))
        f.window.rootView.addSubview(field)
        Transaction.flush()
        return field
    }

    /// The left-most and right-most columns in the field's row with dark ink (text), in window x.
    private func inkColumns(_ shot: RenderedImage, y: ClosedRange<Int>, x: Range<Int>) -> ClosedRange<Int>? {
        let dark = x.filter { col in y.contains { row in shot.pixel(x: col, y: row).red < 0.3 } }
        guard let first = dark.first, let last = dark.last else { return nil }
        return first...last
    }

    @Test("a leading view takes its room and the text starts after it; right to left it is at the right and the text ends before it; modes show it while editing or not")
    func leadingView() {
        let f = ViewFixture()
        let field = field(f) { TextField(frame: $0) }
        let icon = View(frame: Rect(x: 0, y: 0, width: 20, height: 20))
        icon.backgroundColor = Color(red: 1, green: 0, blue: 0)
        field.leftView = icon
        field.leftViewMode = .always
        field.text = "WWW"
        f.window.rootView.layoutIfNeeded()
        Transaction.flush()
        #expect(icon.frame == Rect(x: 6, y: 7, width: 20, height: 20) && !icon.isHidden)
        var shot = f.window.snapshot()
        #expect(shot.pixel(x: 36, y: 37) == Color(red: 1, green: 0, blue: 0), "the icon, 6 points in")
        let ltr = inkColumns(shot, y: 30...44, x: 20..<260)
        #expect(ltr.map { $0.lowerBound >= 20 + 6 + 20 + 4 && $0.lowerBound <= 20 + 6 + 20 + 4 + 3 } == true, "text after the icon: \(String(describing: ltr))")

        f.window.traitOverrides.layoutDirection = .rightToLeft
        field.text = "שלום"   // right to left text: it ends at the trailing edge of its room
        f.window.rootView.layoutIfNeeded()
        Transaction.flush()
        #expect(icon.frame.minX == 240 - 6 - 20)
        shot = f.window.snapshot()
        let rtl = inkColumns(shot, y: 30...44, x: 20..<260)
        #expect(rtl.map { $0.upperBound < 20 + 240 - 30 && $0.upperBound >= 20 + 240 - 30 - 3 } == true, "text ends before the icon: \(String(describing: rtl))")

        field.leftViewMode = .whileEditing
        #expect(icon.isHidden)
        #expect(field.becomeFirstResponder())
        #expect(!icon.isHidden)
        field.leftViewMode = .unlessEditing
        #expect(icon.isHidden)
        field.leftView = nil
        #expect(icon.superview == nil)
    }

    @Test("the clear button shows with text while editing; a tap empties the field as an edit (editingChanged, undoable); shouldClear can refuse; a trailing view sits after it")
    func clearButton() throws {
        let f = ViewFixture()
        let field = field(f) { TextField(frame: $0) }
        field.clearButtonMode = .whileEditing
        var changes = 0
        field.addAction(for: .editingChanged) { _ in changes += 1 }
        let driver = InputDriver(window: f.window)
        driver.click(at: Point(x: 100, y: 37))
        #expect(field.clearButton == nil || field.clearButton!.isHidden, "no text: no button")
        driver.type("hello")
        f.window.rootView.layoutIfNeeded()
        let button = try #require(field.clearButton)
        #expect(!button.isHidden && button.frame == Rect(x: 240 - 6 - 17, y: 8.5, width: 17, height: 17))
        #expect(changes == 5)
        var asked = 0
        field.shouldClear = { _ in asked += 1; return false }
        driver.click(at: Point(x: 20 + 240 - 6 - 8.5, y: 37))
        #expect(asked == 1 && field.text == "hello", "refused")
        field.shouldClear = nil
        driver.click(at: Point(x: 20 + 240 - 6 - 8.5, y: 37))
        #expect(field.text == "" && changes == 6 && button.isHidden)
        field.undo()
        #expect(field.text == "hello")
        _ = field.resignFirstResponder()
        #expect(button.isHidden, "not editing: hidden")

        let tag = View(frame: Rect(x: 0, y: 0, width: 30, height: 20))
        field.rightView = tag
        field.rightViewMode = .always
        #expect(field.becomeFirstResponder())
        f.window.rootView.layoutIfNeeded()
        #expect(tag.frame.minX == 240 - 6 - 30 && button.frame.maxX == tag.frame.minX - 4, "the clear button before the trailing view")
    }

    @Test("a search field: a magnifying glass, 'Search', the clear button while editing; Escape empties it, and in an empty field goes on to the responders after it; a text field with the search trait to assistive technologies")
    func searchField() throws {
        let f = ViewFixture()
        let catcher = EscapeCatcher(frame: f.window.rootView.bounds)
        f.window.rootView.addSubview(catcher)
        let search = SearchTextField(frame: Rect(x: 20, y: 20, width: 240, height: 34))
        catcher.addSubview(search)
        Transaction.flush()
        #expect(search.placeholder == "Search" && search.leftView is MagnifyingGlass && search.clearButtonMode == .whileEditing)
        var changes = 0
        search.addAction(for: .editingChanged) { _ in changes += 1 }
        let driver = InputDriver(window: f.window)
        driver.click(at: Point(x: 120, y: 37))
        driver.type("figs")
        f.window.rootView.layoutIfNeeded()
        Transaction.flush()
        let shot = f.window.snapshot()
        try shot.writePNG(to: makeTemporaryDirectory("strata-search") + "/search.png")
        // The glass, stroked in the secondary label colour, left of the text; the clear button's grey at the right.
        #expect((26..<42).contains { x in (29..<45).contains { y in shot.pixel(x: x, y: y).red < 0.6 } }, "the glass is drawn")
        #expect(shot.pixel(x: 245, y: 42).red < 0.8 && shot.pixel(x: 245, y: 42).red > 0.5, "the clear button's grey, below its ×: \(shot.pixel(x: 245, y: 42))")

        driver.tapKey(keysym: 0xff1b)
        #expect(search.text == "" && changes == 5 && catcher.escapes == 0, "Escape empties it")
        driver.tapKey(keysym: 0xff1b)
        #expect(catcher.escapes == 1 && search.isFirstResponder, "empty: Escape goes on")

        let node = AccessibilityNode.view(search)
        #expect(node.role == .textField && search.accessibilityTraits.contains(.searchField) && node.name == "Search")
    }
}

/// Counts the Escape presses that reach it.
@MainActor
private final class EscapeCatcher: View {
    var escapes = 0
    override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        if presses.first?.key?.keysym == 0xff1b { escapes += 1 } else { super.pressesBegan(presses, with: event) }
    }
}
