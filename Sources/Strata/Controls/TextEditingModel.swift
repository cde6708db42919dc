/// The text, its attributes, selection and undo history, as a value: what
/// ``TextField`` and ``TextView`` show and edit. Every change the user makes is
/// one ``replace(_:with:typing:)``.
///
/// Undo keeps each edit — where it happened, the text it took out and the text
/// it put in — never a copy of the whole text, so a field holding megabytes
/// undoes in proportion to the edit (UIKit's undo manager records
/// `replaceCharacters(in:with:)` the same way). Consecutive typing at the caret
/// is one step, as UIKit groups it; moving the caret or any other edit starts the
/// next step. Offsets are UTF-8 bytes.
///
/// Attribute runs (a text view's attributed text) follow the edits: inserted
/// text takes the attributes of the character before it (the first character's
/// at the start), as UIKit's typing attributes do, and undo and redo bring back
/// the attributes the text had.
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
        /// The attribute runs over `removed` (offsets from `location`); those over
        /// `inserted` are kept when the edit is undone.
        var removedRuns: [AttributedText.Run] = []
        var insertedRuns: [AttributedText.Run] = []
    }

    /// Steps undo keeps; the oldest go first.
    static let undoLimit = 500

    private(set) var text = ""
    /// Attributes over ranges of ``text``; where runs overlap the later one wins.
    private(set) var runs: [AttributedText.Run] = []
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
    mutating func setText(_ new: String, runs: [AttributedText.Run] = []) {
        text = new
        self.runs = runs
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
        let removedRuns = self.runs(in: range)
        splice(range, new, inheriting: true)
        let caret = range.lowerBound + new.utf8.count
        selection = caret..<caret
        anchor = caret
        redoStack = []
        if typing, isTyping, range.isEmpty, let last = undoStack.last, last.location + last.inserted.utf8.count == range.lowerBound {
            undoStack[undoStack.count - 1].inserted += new
            undoStack[undoStack.count - 1].selectionAfter = selection
        } else {
            undoStack.append(Edit(location: range.lowerBound, removed: removed, inserted: new, selectionBefore: before, selectionAfter: selection,
                                  removedRuns: removedRuns))
            if undoStack.count > Self.undoLimit { undoStack.removeFirst() }
        }
        isTyping = typing
    }

    /// What an undo or redo changed: `range` of the text before it is now `newLength` bytes.
    typealias Change = (range: Range<Int>, newLength: Int)

    /// Takes back the last step; nil when there is none.
    @discardableResult
    mutating func undo() -> Change? {
        guard var edit = undoStack.popLast() else { return nil }
        edit.selectionAfter = selection
        let inserted = edit.location..<edit.location + edit.inserted.utf8.count
        edit.insertedRuns = runs(in: inserted)
        splice(inserted, edit.removed, inheriting: false)
        restore(edit.removedRuns, at: edit.location)
        select(edit.selectionBefore)
        redoStack.append(edit)
        return (inserted, edit.removed.utf8.count)
    }

    /// Makes the last undone step again; nil when there is none.
    @discardableResult
    mutating func redo() -> Change? {
        guard let edit = redoStack.popLast() else { return nil }
        let removed = edit.location..<edit.location + edit.removed.utf8.count
        splice(removed, edit.inserted, inheriting: false)
        restore(edit.insertedRuns, at: edit.location)
        select(edit.selectionAfter)
        undoStack.append(edit)
        return (removed, edit.inserted.utf8.count)
    }

    private mutating func select(_ range: Range<Int>) {
        let count = text.utf8.count
        selection = min(range.lowerBound, count)..<min(range.upperBound, count)
        anchor = selection.lowerBound
        isTyping = false
    }

    /// Replaces bytes in place (no copy of the rest of the text is made) and moves
    /// the attribute runs with them; `inheriting`, the new text takes the
    /// attributes of the character before it (or, at the start, after it).
    private mutating func splice(_ range: Range<Int>, _ new: String, inheriting: Bool) {
        text.replaceSubrange(utf8Index(range.lowerBound)..<utf8Index(range.upperBound), with: new)
        guard !runs.isEmpty else { return }
        let at = range.lowerBound, n = new.utf8.count
        func moved(_ p: Int, isUpper: Bool, lower: Int) -> Int {
            let p = p <= at ? p : max(at, p - range.count)     // the removal
            if p < at { return p }
            if p > at { return p + n }
            // At the insertion point: a run over the character before takes the new
            // text in; at the very start, a run over the character after does.
            guard inheriting else { return isUpper ? p : p + n }
            return isUpper ? (lower < at ? p + n : p) : (at == 0 ? p : p + n)
        }
        runs = runs.compactMap { run in
            let lower = moved(run.bytes.lowerBound, isUpper: false, lower: run.bytes.lowerBound)
            let upper = moved(run.bytes.upperBound, isUpper: true, lower: run.bytes.lowerBound)
            return lower < upper ? AttributedText.Run(bytes: lower..<upper, attributes: run.attributes) : nil
        }
    }

    /// The runs over `range`, clipped to it, with offsets from its start.
    private func runs(in range: Range<Int>) -> [AttributedText.Run] {
        runs.compactMap { run in
            let clipped = run.bytes.clamped(to: range)
            return clipped.isEmpty ? nil : AttributedText.Run(bytes: clipped.lowerBound - range.lowerBound..<clipped.upperBound - range.lowerBound,
                                                               attributes: run.attributes)
        }
    }

    /// Puts back runs recorded with ``runs(in:)`` over text restored at `location`.
    private mutating func restore(_ recorded: [AttributedText.Run], at location: Int) {
        runs += recorded.map { AttributedText.Run(bytes: $0.bytes.lowerBound + location..<$0.bytes.upperBound + location, attributes: $0.attributes) }
    }

    private func utf8Index(_ offset: Int) -> String.Index {
        text.utf8.index(text.utf8.startIndex, offsetBy: offset)
    }
}
