@testable import Strata
import Testing
import LayerKitTesting

/// The text field's editing model as a value: edits, typing grouped into one
/// undo step, undo and redo keeping only what each edit changed (issue 30, item 9).
@Suite("Text editing model", .isolatedLayerContext)
struct TextEditingModelTests {
    @Test("consecutive typing at the caret is one undo step; a move of the caret starts the next")
    func typingIsOneStep() {
        var m = TextEditingModel()
        m.setText("ab")
        for c in ["c", "d", "e"] { m.replace(m.selection, with: c, typing: true) }
        #expect(m.text == "abcde" && m.undoStack.count == 1)
        m.endTyping()
        m.replace(m.selection, with: "f", typing: true)
        #expect(m.undoStack.count == 2)
        m.undo()
        #expect(m.text == "abcde" && m.selection == 5..<5)
        m.undo()
        #expect(m.text == "ab" && m.selection == 2..<2 && !m.canUndo)
        m.redo()
        #expect(m.text == "abcde" && m.selection == 5..<5)
        m.redo()
        #expect(m.text == "abcdef" && !m.canRedo)
    }

    @Test("undo restores the replaced text and the selection before; redo the selection as it was when undone")
    func replacingASelection() {
        var m = TextEditingModel()
        m.setText("héllo wörld")
        let wörld = 7..<13                              // UTF-8 offsets
        m.selection = wörld
        m.replace(wörld, with: "you", typing: true)
        m.replace(m.selection, with: "!", typing: true) // joins the replacement's step
        #expect(m.text == "héllo you!" && m.undoStack.count == 1)
        m.selection = 0..<0
        m.undo()
        #expect(m.text == "héllo wörld" && m.selection == wörld)
        m.redo()
        #expect(m.text == "héllo you!" && m.selection == 0..<0)
        // A new edit forgets what was undone.
        m.undo()
        m.replace(0..<1, with: "H", typing: false)
        #expect(!m.canRedo && m.text == "Héllo wörld")
    }

    @Test("ranges past the text are clamped; at most 500 steps are kept, the oldest go")
    func boundsAndLimit() {
        var m = TextEditingModel()
        m.setText("abc")
        m.replace(2..<99, with: "Z", typing: false)
        #expect(m.text == "abZ")
        for i in 0..<600 { m.replace(0..<0, with: "\(i % 10)", typing: false) }
        #expect(m.undoStack.count == TextEditingModel.undoLimit)
        while m.undo() != nil {}
        #expect(m.text.utf8.count == 3 + 100)
    }

    @Test("a 40 MB text: 100 deletions keep 100 one-character edits, not 100 copies of the text")
    func largeTextUndoKeepsEdits() {
        var m = TextEditingModel()
        m.setText(String(repeating: "0123456789", count: 4_000_000))
        for _ in 0..<100 {
            let end = m.selection.lowerBound
            m.replace(end - 1..<end, with: "", typing: false)
        }
        #expect(m.text.utf8.count == 40_000_000 - 100)
        #expect(m.undoStack.count == 100)
        #expect(m.undoStack.allSatisfy { $0.removed.utf8.count == 1 && $0.inserted.isEmpty })
        for _ in 0..<100 { m.undo() }
        #expect(m.text.utf8.count == 40_000_000 && m.text.hasSuffix("6789"))
    }
}
