/// The text, selection and undo history of a text field, as a value: what
/// ``TextField`` shows and edits. Every change the user makes is one
/// ``replace(_:with:typing:)``.
///
/// Undo keeps each edit — where it happened, the text it took out and the text
/// it put in — never a copy of the whole text, so a field holding megabytes
/// undoes in proportion to the edit (UIKit's undo manager records
/// `replaceCharacters(in:with:)` the same way). Consecutive typing at the caret
/// is one step, as UIKit groups it; moving the caret or any other edit starts the
/// next step. Offsets are UTF-8 bytes.
struct TextEditingModel {
    /// An edit as undo keeps it.
    struct Edit {
        /// Where the edit starts.
        var location: Int
        /// The text it took out, and the text it put in at `location`.
        var removed: String
        var inserted: String
        /// The selection before the edit, and after it (as it was when undone).
        var selectionBefore: Range<Int>
        var selectionAfter: Range<Int>
    }

    /// Steps undo keeps; the oldest go first.
    static let undoLimit = 500

    private(set) var text = ""
    /// The selection (empty: the caret).
    var selection = 0..<0
    /// The end of the selection that stays when it is extended.
    var anchor = 0
    private(set) var undoStack: [Edit] = []
    private(set) var redoStack: [Edit] = []
    /// True while the last change was typing at the caret (the next keystroke joins it).
    private(set) var isTyping = false

    var canUndo: Bool { !undoStack.isEmpty }
    var canRedo: Bool { !redoStack.isEmpty }

    /// Replaces the whole text, the caret at its end, with no history.
    mutating func setText(_ new: String) {
        text = new
        selection = text.utf8.count..<text.utf8.count
        anchor = selection.lowerBound
        undoStack = []
        redoStack = []
        isTyping = false
    }

    /// The next keystroke starts a step of its own (the caret moved).
    mutating func endTyping() { isTyping = false }

    /// Replaces `range` (clamped to the text) with `new`; the caret goes after it.
    mutating func replace(_ range: Range<Int>, with new: String, typing: Bool) {
        let count = text.utf8.count
        let range = min(max(0, range.lowerBound), count)..<min(max(0, range.upperBound), count)
        let removed = String(decoding: text.utf8[utf8Index(range.lowerBound)..<utf8Index(range.upperBound)], as: UTF8.self)
        let before = selection
        splice(range, new)
        let caret = range.lowerBound + new.utf8.count
        selection = caret..<caret
        anchor = caret
        redoStack = []
        if typing, isTyping, range.isEmpty, let last = undoStack.last, last.location + last.inserted.utf8.count == range.lowerBound {
            undoStack[undoStack.count - 1].inserted += new
            undoStack[undoStack.count - 1].selectionAfter = selection
        } else {
            undoStack.append(Edit(location: range.lowerBound, removed: removed, inserted: new, selectionBefore: before, selectionAfter: selection))
            if undoStack.count > Self.undoLimit { undoStack.removeFirst() }
        }
        isTyping = typing
    }

    /// Takes back the last step; false when there is none.
    @discardableResult
    mutating func undo() -> Bool {
        guard var edit = undoStack.popLast() else { return false }
        edit.selectionAfter = selection
        splice(edit.location..<edit.location + edit.inserted.utf8.count, edit.removed)
        select(edit.selectionBefore)
        redoStack.append(edit)
        return true
    }

    /// Makes the last undone step again; false when there is none.
    @discardableResult
    mutating func redo() -> Bool {
        guard let edit = redoStack.popLast() else { return false }
        splice(edit.location..<edit.location + edit.removed.utf8.count, edit.inserted)
        select(edit.selectionAfter)
        undoStack.append(edit)
        return true
    }

    private mutating func select(_ range: Range<Int>) {
        let count = text.utf8.count
        selection = min(range.lowerBound, count)..<min(range.upperBound, count)
        anchor = selection.lowerBound
        isTyping = false
    }

    /// Replaces bytes in place: no copy of the rest of the text is made.
    private mutating func splice(_ range: Range<Int>, _ new: String) {
        text.replaceSubrange(utf8Index(range.lowerBound)..<utf8Index(range.upperBound), with: new)
    }

    private func utf8Index(_ offset: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: offset)
    }
}
