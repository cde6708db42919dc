/// Multi-line, scrolling, editable text (`UITextView`, rules H5, H6, X1).
///
/// Lines wrap at words in the view's width, inside ``textContainerInset`` and
/// UIKit's 5-point line fragment padding; the text scrolls vertically and the
/// view keeps the caret in sight. Click to place the caret (the view takes the
/// focus), drag to select, double click for a word, triple click for a
/// paragraph. Keys: the arrows move by characters (visually, through
/// right-to-left text) and lines, Ctrl with them by words; Home and End go to
/// the line's ends, with Ctrl to the text's; Page Up and Page Down move a
/// screen; Shift extends the selection. Return inserts a line break, Tab a tab
/// (Ctrl+Tab and Shift+Tab move the focus on). Ctrl+A/C/X/V select all, copy,
/// cut and paste through ``Pasteboard/general``; Ctrl+Z undoes, Ctrl+Shift+Z or
/// Ctrl+Y redoes (consecutive typing is one step). An input method's
/// composition shows underlined at the caret (``setMarkedText(_:)``).
///
/// Text is laid out a paragraph at a time and only where it is shown
/// (``TextBlocks``), so a document of a megabyte opens, scrolls and takes keys
/// at the cost of what is on screen. ``attributedText`` shows fonts and colours
/// over ranges; typed text takes the attributes of the character before it.
/// The person's edits are told to the ``delegate``; setting ``text`` is not.
/// Offsets inside are UTF-8 offsets into ``text`` on grapheme boundaries.
@MainActor
public final class TextView: ScrollView, TextInputClient, TextEditing {
    // Multi-line editable text: its value the text; activating it starts editing (rules Y2, Y4).
    override var defaultIsAccessibilityElement: Bool { true }
    override var defaultAccessibilityValue: String? { model.text }
    override var accessibilityRole: AccessibilityRole? { .textField }
    public override func accessibilityActivate() -> Bool { becomeFirstResponder() }

    /// Told of the person's edits, selection changes and editing's start and end.
    public weak var delegate: TextViewDelegate?

    /// The text. Setting it puts the caret at the start, clears undo and tells
    /// the delegate nothing. Carriage returns become line breaks; NUL is dropped.
    public var text: String {
        get { model.text }
        set { reset(TextView.sanitized(newValue), runs: []) }
    }

    /// The text with its attributes (`attributedText`): runs over ranges set the
    /// font and colour where they differ from ``font`` and ``textColor``. Never
    /// nil when read, as in UIKit; setting nil empties the view.
    public var attributedText: AttributedText? {
        get { AttributedText(model.text, runs: model.runs) }
        set {
            let clean = TextView.sanitized(newValue ?? AttributedText(""))
            reset(clean.string, runs: clean.runs)
        }
    }

    public var font: Font = .systemFont(ofSize: Font.labelFontSize) { didSet { styleChanged() } }
    public var textColor: Color = .label { didSet { styleChanged() } }
    public var textAlignment: TextAlignment = .natural { didSet { styleChanged() } }
    /// Whether a font from ``Font/preferredFont(forTextStyle:compatibleWith:)`` follows
    /// the text size of the view's traits (`adjustsFontForContentSizeCategory`).
    public var adjustsFontForContentSizeCategory = false {
        didSet { if adjustsFontForContentSizeCategory { font = font.adjusted(to: traitCollection) } }
    }
    /// Whether the person can change the text (`isEditable`); a text view that is
    /// not still selects and copies while ``isSelectable``.
    public var isEditable = true {
        didSet {
            if !isEditable, markedText != nil { unmarkText() }
            if !canBecomeFirstResponder, isFirstResponder { resignFirstResponder() }
            updateCaret(restartBlink: false)
        }
    }
    /// Whether the text can be selected and copied (`isSelectable`).
    public var isSelectable = true {
        didSet { if !canBecomeFirstResponder, isFirstResponder { resignFirstResponder() } }
    }
    /// Room between the view's edges and the text (UIKit's default: 8 points
    /// above and below); lines have 5 points more on either side.
    /// NaN or ∞ is refused (a diagnostic says so; the inset stays).
    public var textContainerInset = EdgeInsets(top: 8, left: 0, bottom: 8, right: 0) {
        didSet {
            let i = textContainerInset
            guard [i.top, i.left, i.bottom, i.right].allSatisfy(\.isFinite) else {
                Diagnostics.report(.invalidView("textContainerInset \(i) refused"))
                textContainerInset = oldValue
                return
            }
            if textContainerInset != oldValue { styleChanged() }
        }
    }
    /// Room at either end of a line inside the container (`lineFragmentPadding`).
    static let lineFragmentPadding = 5.0

    /// The text, attributes, selection and undo history.
    var model = TextEditingModel()
    /// The text in blocks, laid out where shown.
    let blocks: TextBlocks
    /// The block views in use, and spare ones.
    private var blockViews: [Int: TextBlockView] = [:]
    private var spareViews: [TextBlockView] = []
    let caret = CaretView(frame: .zero)
    /// An input method's text being composed at the caret (preedit), not yet in ``text``.
    public private(set) var markedText: String?
    /// Where vertical moves aim (layout x), kept while the caret goes up and down.
    var goalX: Double?
    /// How the pointer selects while dragging: by characters, words or paragraphs,
    /// and what the press selected first.
    private var dragGranularity = 1
    private var dragOrigin = 0..<0
    /// The width the blocks are laid out in.
    private var laidOutWidth = -1.0
    private var isUpdatingBlocks = false

    public override init(frame: Rect) {
        blocks = TextBlocks(font: .systemFont(ofSize: Font.labelFontSize))
        super.init(frame: frame)
        blocks.reset("")
        alwaysBounceVertical = true
        backgroundColor = .systemBackground
        addSubview(caret)
        addInteraction(textDrop)
    }

    public convenience init() { self.init(frame: Rect(x: 0, y: 0, width: 320, height: 200)) }

    /// Text dropped on the view goes in where it lands; not while it is not editable.
    private lazy var textDrop = makeTextDrop()
    var acceptsTextDrops: Bool { isEditable }
    func placeCaret(at point: Point) {
        let at = offset(at: point)
        select(at..<at, anchor: at)
    }

    // MARK: Reading

    /// The selected part of ``text`` (`selectedTextRange`); empty at the caret.
    public var selectedTextRange: Range<String.Index> {
        get { indices(model.selection) }
        set {
            let u = model.text.utf8
            let lower = snap(u.distance(from: u.startIndex, to: newValue.lowerBound))
            let upper = snap(u.distance(from: u.startIndex, to: newValue.upperBound))
            select(lower..<max(lower, upper), anchor: lower)
        }
    }

    public var selectedText: String { String(model.text.utf8Slice(model.selection)) }
    /// True while the view has the focus and can be edited (`isEditing`).
    public var isEditing: Bool { isFirstResponder && isEditable }
    public var hasText: Bool { !model.text.isEmpty }
    public var canUndo: Bool { model.canUndo }
    public var canRedo: Bool { model.canRedo }

    /// Scrolls so the text in `range` shows (`scrollRangeToVisible(_:)`).
    public func scrollRangeToVisible(_ range: Range<String.Index>) {
        let u = model.text.utf8
        let lower = u.distance(from: u.startIndex, to: range.lowerBound), upper = u.distance(from: u.startIndex, to: range.upperBound)
        scrollRectToVisible(caretRect(at: lower).union(caretRect(at: upper)), animated: false)
        updateShownBlocks()
    }

    func indices(_ range: Range<Int>) -> Range<String.Index> {
        let u = model.text.utf8
        return u.index(u.startIndex, offsetBy: range.lowerBound)..<u.index(u.startIndex, offsetBy: range.upperBound)
    }

    // MARK: Editing (UIKeyInput and the edit menu's actions)

    /// Replaces the selection with `text` as typing does (`insertText(_:)`).
    public func insertText(_ text: String) {
        let clean = TextView.sanitized(text)
        guard !clean.isEmpty || !model.selection.isEmpty else { return }
        edit(replacing: model.selection, with: clean, typing: true)
    }

    /// Deletes the selection, or the character before the caret (`deleteBackward()`).
    public func deleteBackward() {
        let s = model.selection
        if s.isEmpty {
            guard let previous = model.text.characterOffset(before: s.lowerBound) else { return }
            edit(replacing: previous..<s.lowerBound, with: "", typing: false)
        } else {
            edit(replacing: s, with: "", typing: false)
        }
    }

    public func selectAll() { select(0..<model.text.utf8.count, anchor: 0) }

    public func copy() {
        guard !model.selection.isEmpty else { return }
        Pasteboard.general.string = selectedText
    }

    public func cut() {
        guard !model.selection.isEmpty, isEditable else { return }
        copy()
        edit(replacing: model.selection, with: "", typing: false)
    }

    /// Inserts the clipboard's text, whoever offered it (it arrives a moment later).
    public func paste() {
        guard isEditable else { return }
        Pasteboard.general.readString { [weak self] text in
            guard let self, let text else { return }
            edit(replacing: model.selection, with: TextView.sanitized(text), typing: false)
        }
    }

    public override func canPerform(_ action: StandardEditAction) -> Bool {
        switch action {
        case .copy: return isSelectable && !model.selection.isEmpty
        case .cut: return isEditable && !model.selection.isEmpty
        case .paste: return isEditable
        case .selectAll: return isSelectable && !model.text.isEmpty && model.selection.count < model.text.utf8.count
        case .undo: return isEditable && model.canUndo
        case .redo: return isEditable && model.canRedo
        }
    }

    public override func perform(_ action: StandardEditAction) { performEdit(action) }

    /// Takes back the last edit (consecutive typing is one).
    public func undo() {
        guard isEditable, let edit = model.undoStack.last, let change = model.undo() else { return }
        textChanged(change, removed: edit.inserted, inserted: edit.removed)
        delegate?.textViewDidChange(self)
    }

    public func redo() {
        guard isEditable, let edit = model.redoStack.last, let change = model.redo() else { return }
        textChanged(change, removed: edit.removed, inserted: edit.inserted)
        delegate?.textViewDidChange(self)
    }

    // MARK: Input methods (text-input: preedit and commit)

    /// Shows an input method's composition at the caret, underlined, replacing
    /// the selection when it starts (`setMarkedText`); nil or "" removes it.
    public func setMarkedText(_ text: String?) {
        guard isEditable else { return }
        if markedText == nil, let text, !text.isEmpty, !model.selection.isEmpty {
            edit(replacing: model.selection, with: "", typing: false)
        }
        let clean = text.map(TextView.sanitized)
        let old = markedText
        markedText = clean?.isEmpty == false ? clean : nil
        guard markedText != old else { return }
        blocks.invalidateLayout(blocks.index(containing: model.selection.lowerBound))
        refresh(restartBlink: true)
    }

    /// Ends composition: the marked text becomes part of the text (`unmarkText`).
    public func unmarkText() {
        guard let marked = markedText else { return }
        markedText = nil
        blocks.invalidateLayout(blocks.index(containing: model.selection.lowerBound))
        edit(replacing: model.selection, with: marked, typing: true)
    }

    /// An input method's update (text-input's `done`), in the protocol's order:
    /// the composition goes, text around the caret is deleted, the commit string
    /// is inserted, the new composition is shown.
    func applyComposition(preedit: String?, commit: String?, deleteBefore: Int, deleteAfter: Int) {
        let composing = preedit.map(TextView.sanitized).flatMap { $0.isEmpty ? nil : $0 }
        guard deleteBefore > 0 || deleteAfter > 0 || commit?.isEmpty == false || composing != markedText else { return }
        if markedText != nil {
            markedText = nil
            blocks.invalidateLayout(blocks.index(containing: model.selection.lowerBound))
        }
        if deleteBefore > 0 || deleteAfter > 0 {
            let s = model.selection
            let range = snap(s.lowerBound - deleteBefore)..<model.text.characterOffset(atOrAfter: s.upperBound + deleteAfter)
            if !range.isEmpty { edit(replacing: range, with: "", typing: false) }
        }
        if let commit, !commit.isEmpty { insertText(commit) }
        setMarkedText(preedit)
        refresh(restartBlink: true)
    }

    var caretRectInWindow: Rect? {
        guard isFirstResponder, isEditable else { return nil }
        return convert(caretRect(at: movingEnd), to: nil)
    }

    // MARK: The one place text changes by the person

    /// Replaces `range` with `new` when editable and the delegate agrees.
    @discardableResult
    func edit(replacing range: Range<Int>, with new: String, typing: Bool) -> Bool {
        guard isEditable else { return false }
        let range = range.clamped(to: 0..<model.text.utf8.count)
        if let delegate, !delegate.textView(self, shouldChangeTextIn: indices(range), replacementText: new) { return false }
        let removed = String(model.text.utf8Slice(range))
        model.replace(range, with: new, typing: typing)
        textChanged((range, new.utf8.count), removed: removed, inserted: new)
        delegate?.textViewDidChange(self)
        delegate?.textViewDidChangeSelection(self)
        return true
    }

    /// Text a text view holds: "\r\n" and "\r" become "\n", NUL is dropped.
    static func sanitized(_ text: String) -> String { sanitized(AttributedText(text)).string }

    /// The same for attributed text, its runs moved with the bytes taken out.
    static func sanitized(_ text: AttributedText) -> AttributedText {
        // Looked for in place first: a megabyte set as the text is not copied when clean.
        guard text.string.utf8.contains(where: { $0 == 0x0D || $0 == 0 }) else { return text }
        let u = Array(text.string.utf8)
        var kept: [UInt8] = [], removed: [Int] = []   // the old offsets of the bytes taken out, in order
        kept.reserveCapacity(u.count)
        for (i, b) in u.enumerated() {
            if b == 0 || (b == 0x0D && i + 1 < u.count && u[i + 1] == 0x0A) { removed.append(i) } else { kept.append(b == 0x0D ? 0x0A : b) }
        }
        /// An old offset less the bytes taken out before it.
        func moved(_ p: Int) -> Int {
            var low = 0, high = removed.count
            while low < high { let mid = (low + high) / 2; if removed[mid] < p { low = mid + 1 } else { high = mid } }
            return p - low
        }
        let runs = text.runs.compactMap { run -> AttributedText.Run? in
            let r = moved(run.bytes.lowerBound)..<moved(run.bytes.upperBound)
            return r.isEmpty ? nil : AttributedText.Run(bytes: r, attributes: run.attributes)
        }
        return AttributedText(String(decoding: kept, as: UTF8.self), runs: runs)
    }

    // MARK: Keeping the blocks and views in step

    private func reset(_ text: String, runs: [AttributedText.Run]) {
        model.setText(text, runs: runs)
        model.selection = 0..<0
        model.anchor = 0
        markedText = nil
        goalX = nil
        blocks.reset(text)
        laidOutWidth = -1
        contentOffset = minimumContentOffset
        accessibilityDidChange(.text)
        refresh(restartBlink: true)
    }

    /// The text changed by an edit (`range` of the old text, `removed`, is now `inserted`).
    private func textChanged(_ change: TextEditingModel.Change, removed: String, inserted: String) {
        blocks.replace(change.range, newLength: change.newLength, in: model.text)
        goalX = nil
        accessibilityTextEdited(at: change.range.lowerBound, removed: removed, inserted: inserted)
        scrollRectToVisible(caretRect(at: movingEnd), animated: false)
        refresh(restartBlink: true)
    }

    private func styleChanged() {
        laidOutWidth = -1
        refresh(restartBlink: false)
    }

    /// Lays out what is in view again and puts the caret where it belongs.
    func refresh(restartBlink: Bool) {
        updateShownBlocks()
        updateCaret(restartBlink: restartBlink)
    }

    /// The width lines wrap in.
    var textWidth: Double { max(1, bounds.width - textContainerInset.left - textContainerInset.right - 2 * TextView.lineFragmentPadding) }
    /// Where the text's top left is, in content coordinates.
    var textOrigin: Point { Point(x: textContainerInset.left + TextView.lineFragmentPadding, y: textContainerInset.top) }

    private var textStyle: TextStyle {
        TextStyle(font: font, color: textColor, alignment: textAlignment, lineBreakMode: .byWordWrapping, numberOfLines: 0,
                  baseDirection: effectiveUserInterfaceLayoutDirection)
    }

    /// Block `i`'s layout, made now if it has none. A block wholly above the
    /// view's top that grows or shrinks moves the offset with it, so what is in
    /// view stays put.
    func layout(of i: Int) -> TextLayout {
        let wasAbove = textOrigin.y + blocks.top(of: i) + blocks.blocks[i].height <= contentOffset.y
        let (made, change) = blocks.layout(i) { range in makeLayout(range, block: i) }
        if change != 0, wasAbove { shiftContentOffset(by: change) }
        return made
    }

    private func makeLayout(_ range: Range<Int>, block i: Int) -> TextLayout {
        var bytes = Array(model.text.utf8Slice(range).utf8)
        var runs = model.runs.compactMap { run -> AttributedText.Run? in
            let c = run.bytes.clamped(to: range)
            return c.isEmpty ? nil : AttributedText.Run(bytes: c.lowerBound - range.lowerBound..<c.upperBound - range.lowerBound, attributes: run.attributes)
        }
        if let (at, length) = marked(in: i) {
            bytes.insert(contentsOf: markedText!.utf8, at: at)
            runs = runs.map { run in
                func moved(_ p: Int) -> Int { p > at ? p + length : p }
                return AttributedText.Run(bytes: moved(run.bytes.lowerBound)..<moved(run.bytes.upperBound), attributes: run.attributes)
            }
        }
        return TextLayout(AttributedText(String(decoding: bytes, as: UTF8.self), runs: runs), style: textStyle, width: textWidth)
    }

    /// The marked text's place in block `i` (local bytes) and length, when it is there.
    private func marked(in i: Int) -> (at: Int, length: Int)? {
        guard let markedText else { return nil }
        let at = model.selection.lowerBound
        guard blocks.index(containing: at) == i else { return nil }
        return (at - blocks.start(of: i), markedText.utf8.count)
    }

    /// A text offset's place in block `i`'s layout (clamped to the block); the
    /// marked text stands after the caret.
    func layoutOffset(_ offset: Int, in i: Int) -> Int {
        let content = blocks.contentRange(of: i)
        let local = min(max(offset, content.lowerBound), content.upperBound) - content.lowerBound
        guard let (at, length) = marked(in: i), local > at else { return local }
        return local + length
    }

    /// The layout offset of the caret at a text offset: after the marked text.
    func caretLayoutOffset(_ offset: Int, in i: Int) -> Int {
        if let (at, length) = marked(in: i), offset - blocks.start(of: i) == at { return at + length }
        return layoutOffset(offset, in: i)
    }

    /// The text offset of a layout offset in block `i` (inside the marked text: the caret).
    func textOffset(_ layoutOffset: Int, in i: Int) -> Int {
        var d = layoutOffset
        if let (at, length) = marked(in: i) {
            if d >= at + length { d -= length } else if d > at { d = at }
        }
        let content = blocks.contentRange(of: i)
        return min(content.lowerBound + d, content.upperBound)
    }

    /// The caret's rectangle at a text offset, in content coordinates.
    func caretRect(at offset: Int) -> Rect {
        let i = blocks.index(containing: offset)
        let r = layout(of: i).caretRect(atByte: caretLayoutOffset(offset, in: i))
        let o = textOrigin
        return Rect(x: o.x + r.minX, y: o.y + blocks.top(of: i) + r.minY, width: 2, height: r.height > 0 ? r.height : font.lineHeight)
    }

    /// Lays out the blocks in view, gives each a view (reusing the ones that
    /// scrolled out) and sets the content size.
    func updateShownBlocks() {
        guard !isUpdatingBlocks, bounds.width > 0 else { return }
        isUpdatingBlocks = true
        defer { isUpdatingBlocks = false }
        if laidOutWidth != textWidth {
            laidOutWidth = textWidth
            blocks.invalidateLayouts(width: textWidth, font: font)
        }
        let o = textOrigin
        var shown: [Int] = []
        var i = blocks.index(atY: contentOffset.y - o.y)
        while i < blocks.count, o.y + blocks.top(of: i) < contentOffset.y + bounds.height {
            _ = layout(of: i)
            shown.append(i)
            i += 1
        }
        contentSize = Size(width: bounds.width, height: blocks.height + textContainerInset.top + textContainerInset.bottom)

        // Views showing a layout still shown keep it (nothing to draw again).
        var byLayout: [ObjectIdentifier: TextBlockView] = [:]
        for view in blockViews.values { if let l = view.layout { byLayout[ObjectIdentifier(l)] = view } else { spareViews.append(view) } }
        var next: [Int: TextBlockView] = [:]
        var needing: [Int] = []
        for i in shown {
            if let view = byLayout.removeValue(forKey: ObjectIdentifier(blocks.blocks[i].layout!)) { next[i] = view } else { needing.append(i) }
        }
        spareViews += byLayout.values
        let selection = isFirstResponder ? model.selection : 0..<0
        View.performWithoutAnimation {
            for i in needing {
                let view = spareViews.popLast() ?? { let v = TextBlockView(frame: .zero); insertSubview(v, at: 0); return v }()
                view.isHidden = false
                view.layout = blocks.blocks[i].layout
                next[i] = view
            }
            for view in spareViews {
                view.isHidden = true
                view.layout = nil
            }
            for (i, view) in next {
                let layout = blocks.blocks[i].layout!
                view.frame = Rect(x: o.x, y: o.y + blocks.top(of: i), width: textWidth, height: max(layout.size.height, blocks.blocks[i].height))
                let content = blocks.contentRange(of: i)
                let s = selection.clamped(to: content.lowerBound..<blocks.start(of: i) + blocks.blocks[i].length)
                view.selection = s.isEmpty ? nil : layoutOffset(s.lowerBound, in: i)..<layoutOffset(s.upperBound, in: i)
                view.marked = marked(in: i).map { $0.at..<$0.at + $0.length }
                view.textColor = textColor
                view.selectionColor = tintColor
            }
        }
        blockViews = next
        if let first = shown.first, let last = shown.last { blocks.dropLayouts(outside: max(0, first - 64)..<last + 64) }
    }

    public override func didScroll() {
        super.didScroll()
        updateShownBlocks()
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        updateShownBlocks()
        updateCaret(restartBlink: false)
    }

    override func boundsSizeDidChange() {
        super.boundsSizeDidChange()
        setNeedsLayout()
    }

    override func contentSizeCategoryDidChange(to traits: TraitCollection) {
        if adjustsFontForContentSizeCategory { font = font.adjusted(to: traits) }
    }

    override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        styleChanged()
    }

    // MARK: The caret and the selection

    /// The end of the selection that moves (the caret when nothing is selected).
    var movingEnd: Int { model.selection.lowerBound == model.anchor ? model.selection.upperBound : model.selection.lowerBound }

    func updateCaret(restartBlink: Bool) {
        guard isFirstResponder, isEditable, model.selection.isEmpty else { return caret.hide() }
        caret.show(at: caretRect(at: movingEnd).offsetBy(dx: -1, dy: 0), color: tintColor, restartBlink: restartBlink)
        window?.textInputCaretMoved()
    }

    /// Whether the caret is showing now (for tests and snapshots).
    public var isCaretVisible: Bool { caret.isShowing }

    /// Selects `range` (the caret when empty), `anchor` the end that stays.
    func select(_ range: Range<Int>, anchor: Int) {
        let end = model.text.utf8.count
        let new = min(range.lowerBound, end)..<min(range.upperBound, end)
        let changed = new != model.selection
        model.selection = new
        model.anchor = min(anchor, end)
        model.endTyping()
        accessibilityDidChange(.caret)
        scrollRectToVisible(caretRect(at: movingEnd), animated: false)
        refresh(restartBlink: true)
        if changed { delegate?.textViewDidChangeSelection(self) }
    }

    /// The nearest caret position at or before an offset.
    func snap(_ offset: Int) -> Int { model.text.characterOffset(atOrBefore: offset) }

    // MARK: Focus

    public override var canBecomeFirstResponder: Bool { (isEditable || isSelectable) && !isHidden && window != nil }

    @discardableResult
    public override func becomeFirstResponder() -> Bool {
        let was = isFirstResponder
        if !was, isEditable, let delegate, !delegate.textViewShouldBeginEditing(self) { return false }
        guard super.becomeFirstResponder() else { return false }
        if !was {
            if isEditable { delegate?.textViewDidBeginEditing(self) }
            refresh(restartBlink: true)
        }
        return true
    }

    @discardableResult
    public override func resignFirstResponder() -> Bool {
        let was = isFirstResponder
        if was, isEditable, let delegate, !delegate.textViewShouldEndEditing(self) { return false }
        guard super.resignFirstResponder() else { return false }
        if was {
            if markedText != nil { unmarkText() }
            refresh(restartBlink: false)
            if isEditable { delegate?.textViewDidEndEditing(self) }
        }
        return true
    }

    public override func tintColorDidChange() { refresh(restartBlink: false) }

    public override func cursor(at point: Point) -> Cursor? { isSelectable || isEditable ? .text : nil }

    // MARK: Pointer: click places the caret, drag selects, double click a word, triple a paragraph

    /// The caret position nearest a point in the view's (content) coordinates.
    func offset(at point: Point) -> Int {
        let o = textOrigin
        let i = blocks.index(atY: point.y - o.y)
        return offset(inBlock: i, at: Point(x: point.x - o.x, y: point.y - o.y - blocks.top(of: i)))
    }

    /// The caret position nearest a point in block `i`'s layout, on its lines.
    func offset(inBlock i: Int, at point: Point) -> Int {
        let layout = layout(of: i)
        let y = min(max(0, point.y), max(0, layout.size.height - 0.01))
        return snap(textOffset(layout.caretIndex(at: Point(x: point.x, y: y)), in: i))
    }

    public override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        guard let touch = touches.first, isSelectable || isEditable else { return super.touchesBegan(touches, with: event) }
        if !isFirstResponder { becomeFirstResponder() }
        if markedText != nil { unmarkText() }
        let at = offset(at: touch.location(in: self))
        dragGranularity = min(3, touch.tapCount)
        goalX = nil
        switch dragGranularity {
        case 1: dragOrigin = at..<at
        case 2: dragOrigin = wordRange(around: at)
        default: dragOrigin = paragraphRange(around: at)
        }
        select(dragOrigin, anchor: dragOrigin.lowerBound)
    }

    public override func touchesMoved(_ touches: Set<Touch>, with event: Event?) {
        guard let touch = touches.first, isSelectable || isEditable else { return super.touchesMoved(touches, with: event) }
        let point = touch.location(in: self)
        // Dragging past the top or bottom scrolls towards the point.
        scrollRectToVisible(Rect(x: point.x, y: point.y, width: 1, height: 1), animated: false)
        let at = offset(at: point)
        let unit: Range<Int>
        switch dragGranularity {
        case 1: unit = at..<at
        case 2: unit = wordRange(around: at)
        default: unit = paragraphRange(around: at)
        }
        if unit.lowerBound < dragOrigin.lowerBound {
            select(unit.lowerBound..<dragOrigin.upperBound, anchor: dragOrigin.upperBound)
        } else {
            select(dragOrigin.lowerBound..<max(dragOrigin.upperBound, unit.upperBound), anchor: dragOrigin.lowerBound)
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        guard isSelectable || isEditable else { return super.touchesEnded(touches, with: event) }
    }

    public override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) {
        guard isSelectable || isEditable else { return super.touchesCancelled(touches, with: event) }
    }

    // MARK: Keys

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isFirstResponder, let key = presses.first?.key else { return super.pressesBegan(presses, with: event) }
        if !handle(key) { super.pressesBegan(presses, with: event) }
    }

    /// Presses end here too when the view handled them (Tab's go on, as its press did).
    public override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isFirstResponder else { return super.pressesEnded(presses, with: event) }
        if let key = presses.first?.key, key.keysym == Key.tab || key.keysym == Key.isoLeftTab { super.pressesEnded(presses, with: event) }
    }
}
