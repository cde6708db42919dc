/// A single line of editable text (`UITextField`, rules H5, H6, X1).
///
/// Focus it by clicking or with Tab. Typing inserts text from the keymap
/// (compose sequences included); an input method's preedit shows underlined
/// (``setMarkedText(_:)``) until committed. The caret blinks on the media clock
/// (solid for a moment after each change). Selection by pointer drag, double
/// click (a word) and triple click (the line); Shift with the arrows, Home and
/// End extends it; Ctrl moves and deletes by words. Ctrl+A/C/X/V select all,
/// copy, cut and paste through ``Pasteboard/general``; Ctrl+Z undoes and
/// Ctrl+Shift+Z (or Ctrl+Y) redoes. Return sends `primaryActionTriggered` and
/// `editingDidEndOnExit`. Events: `editingDidBegin`, `editingChanged` (user
/// edits only), `editingDidEnd`. Views inside the field — an icon at the
/// leading edge, a clear button and a view at the trailing edge — show as their
/// modes say (`TextField+Accessories.swift`).
///
/// Offsets inside are UTF-8 offsets into ``text`` on grapheme boundaries.
@MainActor
public class TextField: Control, TextInputClient, TextEditing {
    // Editable text: named by its placeholder unless labelled, its value the
    // text; activating it starts editing (rules Y2, Y4).
    override var defaultAccessibilityLabel: String? { placeholder }
    override var defaultAccessibilityValue: String? { accessibilityText }
    override var accessibilityRole: AccessibilityRole? { isSecureTextEntry ? .passwordField : .textField }
    /// The text as assistive technologies get it: a secure field's as bullets, never the characters.
    var accessibilityText: String {
        let text = text ?? ""
        return isSecureTextEntry ? String(repeating: "•", count: text.count) : text
    }
    public override func accessibilityActivate() -> Bool { isEnabled && becomeFirstResponder() }

    public enum BorderStyle: Hashable, Sendable { case none, roundedRect }
    /// When a view inside the field shows (`UITextField.ViewMode`).
    public enum ViewMode: Hashable, Sendable { case never, whileEditing, unlessEditing, always }

    /// A view at the leading edge inside the field (`leftView`; at the right,
    /// right to left), shown as ``leftViewMode`` says: an icon, a label.
    public var leftView: View? { didSet { accessoryViewChanged(from: oldValue, to: leftView) } }
    public var leftViewMode: ViewMode = .never { didSet { updateAccessories() } }
    /// A view at the trailing edge inside the field (`rightView`), shown as ``rightViewMode`` says.
    public var rightView: View? { didSet { accessoryViewChanged(from: oldValue, to: rightView) } }
    public var rightViewMode: ViewMode = .never { didSet { updateAccessories() } }
    /// When the clear button — a circled ×, at the trailing edge — shows while
    /// there is text (`clearButtonMode`). A tap on it empties the field as the
    /// person's edit (undoable, `editingChanged` sent) and starts editing.
    public var clearButtonMode: ViewMode = .never { didSet { updateAccessories() } }
    /// Asked before the clear button empties the field (`textFieldShouldClear(_:)`); nil: it clears.
    public var shouldClear: ((TextField) -> Bool)?
    /// Made when first shown.
    var clearButton: TextFieldClearButton?

    /// The text. Setting it puts the caret at the end, clears undo and sends no event.
    public var text: String? {
        get { storage }
        set {
            model.setText(TextField.sanitized(newValue ?? ""))
            markedText = nil
            textChanged()
        }
    }
    /// Shown in the placeholder colour while the text is empty.
    public var placeholder: String? { didSet { placeholderLayout = nil; setNeedsDisplay() } }
    public var font: Font = .systemFont(ofSize: Font.labelFontSize) {
        didSet { placeholderLayout = nil; textChanged(); invalidateIntrinsicContentSize() }
    }
    /// Whether a font from ``Font/preferredFont(forTextStyle:compatibleWith:)`` follows
    /// the text size of the field's traits (`adjustsFontForContentSizeCategory`).
    public var adjustsFontForContentSizeCategory = false {
        didSet { if adjustsFontForContentSizeCategory { font = font.adjusted(to: traitCollection) } }
    }

    override func contentSizeCategoryDidChange(to traits: TraitCollection) {
        if adjustsFontForContentSizeCategory { font = font.adjusted(to: traits) }
    }

    override func layoutDirectionDidChange() {
        super.layoutDirectionDidChange()
        placeholderLayout = nil
        textChanged()
    }

    /// No width of its own; one line of the font high, plus 7 points above and
    /// below with the rounded border (34 points at 17-point text, as UIKit's).
    public override var intrinsicContentSize: Size {
        Size(width: View.noIntrinsicMetric, height: (font.lineHeight + (borderStyle == .roundedRect ? 14 : 0)).rounded(.up))
    }
    public var textColor: Color = .label { didSet { setNeedsDisplay() } }
    public var textAlignment: TextAlignment = .natural { didSet { textChanged() } }
    /// Shows a bullet for each character, and refuses to copy or cut.
    public var isSecureTextEntry = false { didSet { textChanged() } }
    public var borderStyle: BorderStyle = .roundedRect { didSet { applyBorderStyle() } }
    /// Asked when Return is pressed; true resigns the focus. Nil: the focus stays.
    public var shouldReturn: ((TextField) -> Bool)?

    /// The caret's blink: visible, then hidden, this long each (UIKit's rhythm).
    public static let blinkInterval = CaretView.blinkInterval

    /// The text, selection and undo history (a value with tests of its own).
    private var model = TextEditingModel()
    private var storage: String { model.text }
    /// The selection (empty: the caret), and the end that stays when Shift extends it.
    private var selection: Range<Int> {
        get { model.selection }
        set { model.selection = newValue }
    }
    private var anchor: Int {
        get { model.anchor }
        set { model.anchor = newValue }
    }
    /// The text last told to assistive technologies.
    private var toldText: String?
    /// An input method's text being composed at the caret (preedit), not yet in ``text``.
    public private(set) var markedText: String?


    /// The laid-out text (or the window of it around the caret), made again when the text changes.
    private var shown: ShownText?
    /// Where the window last shown starts, and the caret's distance from the text's left edge there:
    /// a new window keeps the caret where it was on screen.
    private var shownStart = 0
    private var caretScreenX = 0.0
    private var placeholderLayout: TextLayout?
    private var scrollX = 0.0
    private let caret = CaretView(frame: .zero)
    /// How the pointer selects while dragging: by characters, words or the line.
    private var dragGranularity = 1

    public override init(frame: Rect) {
        super.init(frame: frame)
        hasDrawnContent = true
        addSubview(caret)
        applyBorderStyle()
        caret.backgroundColor = tintColor
        addInteraction(textDrop)
    }

    /// Text dropped on the field goes in where it lands; not while disabled.
    private lazy var textDrop = makeTextDrop()
    var acceptsTextDrops: Bool { isEnabled }
    func placeCaret(at point: Point) {
        let at = offset(at: point)
        select(at..<at, anchor: at)
    }

    public convenience init() { self.init(frame: Rect(x: 0, y: 0, width: 200, height: 34)) }

    private func applyBorderStyle() {
        switch borderStyle {
        case .roundedRect:
            layer.cornerRadius = 5
            layer.borderWidth = 1
            setColor(.systemGray4, of: layer, \.borderColor)
            backgroundColor = .secondarySystemGroupedBackground
        case .none:
            layer.cornerRadius = 0
            layer.borderWidth = 0
        }
        textChanged()
    }

    // MARK: Reading

    /// The selected part of ``text`` (`selectedTextRange`); empty at the caret.
    public var selectedTextRange: Range<String.Index> {
        get {
            let u = storage.utf8
            return u.index(u.startIndex, offsetBy: selection.lowerBound)..<u.index(u.startIndex, offsetBy: selection.upperBound)
        }
        set {
            let u = storage.utf8
            let lower = u.distance(from: u.startIndex, to: newValue.lowerBound)
            let upper = u.distance(from: u.startIndex, to: newValue.upperBound)
            select(snap(lower)..<snap(upper), anchor: snap(lower))
        }
    }

    public var selectedText: String { String(storage[selectedTextRange]) }
    /// True while the field has the focus (`isEditing`).
    public var isEditing: Bool { isFirstResponder }
    public var hasText: Bool { !storage.isEmpty }
    public var canUndo: Bool { model.canUndo }
    public var canRedo: Bool { model.canRedo }

    // MARK: Editing (UIKeyInput and the edit menu's actions)

    /// Replaces the selection with `text` as typing does (`insertText(_:)`).
    public func insertText(_ text: String) {
        let clean = TextField.sanitized(text)
        guard !clean.isEmpty || !selection.isEmpty else { return }
        edit(replacing: selection, with: clean, typing: true)
    }

    /// Deletes the selection, or the character before the caret (`deleteBackward()`).
    public func deleteBackward() {
        if selection.isEmpty {
            guard let previous = boundary(before: selection.lowerBound) else { return }
            edit(replacing: previous..<selection.lowerBound, with: "", typing: false)
        } else {
            edit(replacing: selection, with: "", typing: false)
        }
    }

    public func selectAll() { select(0..<storage.utf8.count, anchor: 0) }

    /// Copies the selection to the clipboard (not from a secure field).
    public func copy() {
        guard !selection.isEmpty, !isSecureTextEntry else { return }
        Pasteboard.general.string = selectedText
    }

    /// Copies the selection and deletes it (not from a secure field).
    public func cut() {
        guard !selection.isEmpty, !isSecureTextEntry else { return }
        copy()
        edit(replacing: selection, with: "", typing: false)
    }

    /// Inserts the clipboard's text, whoever offered it (read through a pipe:
    /// it arrives a moment later). Line breaks become spaces; invalid UTF-8 has
    /// become U+FFFD on the way in.
    public func paste() {
        Pasteboard.general.readString { [weak self] text in
            guard let self, let text else { return }
            edit(replacing: selection, with: TextField.sanitized(text), typing: false)
        }
    }

    public override func canPerform(_ action: StandardEditAction) -> Bool {
        guard isEnabled else { return false }
        switch action {
        case .cut, .copy: return !selection.isEmpty && !isSecureTextEntry
        case .paste: return true
        case .selectAll: return !storage.isEmpty && selection.count < storage.utf8.count
        case .undo: return model.canUndo
        case .redo: return model.canRedo
        }
    }

    public override func perform(_ action: StandardEditAction) { performEdit(action) }

    /// Takes back the last edit (consecutive typing is one).
    public func undo() {
        guard model.undo() != nil else { return }
        textChanged()
        sendActions(for: .editingChanged)
    }

    public func redo() {
        guard model.redo() != nil else { return }
        textChanged()
        sendActions(for: .editingChanged)
    }

    // MARK: Input methods (text-input: preedit and commit)

    /// Shows an input method's composition at the caret, underlined, replacing
    /// the selection when it starts (`setMarkedText`); nil or "" removes it.
    public func setMarkedText(_ text: String?) {
        if markedText == nil, let text, !text.isEmpty, !selection.isEmpty {
            edit(replacing: selection, with: "", typing: false)
        }
        let clean = text.map(TextField.sanitized)
        markedText = clean?.isEmpty == false ? clean : nil
        textChanged()
    }

    /// Ends composition: the marked text becomes part of the text (`unmarkText`).
    public func unmarkText() {
        guard let marked = markedText else { return }
        markedText = nil
        edit(replacing: selection, with: marked, typing: true)
    }

    /// An input method's update (text-input's `done`), in the protocol's order:
    /// the composition goes, text around the caret is deleted, the commit string
    /// is inserted, the new composition is shown.
    func applyComposition(preedit: String?, commit: String?, deleteBefore: Int, deleteAfter: Int) {
        // A `done` that changes nothing (kwin answers each caret update with one)
        // touches nothing: redrawing for it would tell the caret again, and loop.
        let composing = preedit.map(TextField.sanitized).flatMap { $0.isEmpty ? nil : $0 }
        guard deleteBefore > 0 || deleteAfter > 0 || commit?.isEmpty == false || composing != markedText else { return }
        markedText = nil
        if deleteBefore > 0 || deleteAfter > 0 {
            let at = selection.lowerBound
            let range = snap(at - deleteBefore)..<snapUp(selection.upperBound + deleteAfter)
            if !range.isEmpty { edit(replacing: range, with: "", typing: false) }
        }
        if let commit, !commit.isEmpty { insertText(commit) }
        setMarkedText(preedit)
    }

    var caretRectInWindow: Rect? {
        guard isFirstResponder else { return nil }
        let text = shownText
        let r = text.layout.caretRect(atByte: text.caretOffset(movingEnd))
        let o = textOrigin
        return convert(Rect(x: o.x + r.minX, y: o.y + r.minY, width: 1, height: r.height > 0 ? r.height : font.lineHeight), to: nil)
    }

    /// The nearest caret position at or after an offset.
    private func snapUp(_ offset: Int) -> Int { storage.characterOffset(atOrAfter: offset) }

    // MARK: The one place text changes by the user

    private func edit(replacing range: Range<Int>, with new: String, typing: Bool) {
        model.replace(range, with: new, typing: typing)
        textChanged()
        sendActions(for: .editingChanged)
    }

    /// Text a single line can hold: line breaks and tabs become spaces, NUL is dropped.
    private static func sanitized(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.compactMap { s -> Unicode.Scalar? in
            switch s {
            case "\u{0}": nil
            case "\n", "\r", "\t", "\u{2028}", "\u{2029}": " "
            default: s
            }
        }))
    }

    // MARK: Layout of the shown text

    /// The end of the selection that moves (the caret when nothing is selected):
    /// the field scrolls to keep it in view.
    private var movingEnd: Int { selection.lowerBound == anchor ? selection.upperBound : selection.lowerBound }

    /// The text laid out around the caret (all of it unless it is long).
    private var shownText: ShownText {
        let range = ShownText.range(of: storage, caret: movingEnd, keeping: shownStart)
        if let shown, shown.range == range { return shown }
        let made = ShownText(text: storage, range: range, marked: markedText, at: selection.lowerBound, secure: isSecureTextEntry, style: textStyle)
        shown = made
        shownStart = range.lowerBound
        return made
    }

    private var textStyle: TextStyle {
        TextStyle(font: font, color: textColor, alignment: .left, lineBreakMode: .byClipping, numberOfLines: 1, baseDirection: effectiveUserInterfaceLayoutDirection)
    }

    /// The part of the text laid out now (UTF-8 offsets; for tests).
    var shownRange: Range<Int> { shownText.range }

    /// The area text is drawn in: inside the border's padding, beside the views in the field.
    private var textRect: Rect {
        let pad = borderStyle == .roundedRect ? 7.0 : 0
        let (leading, trailing) = accessoryWidths
        let rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let left = max(pad, rtl ? trailing : leading), right = max(pad, rtl ? leading : trailing)
        return Rect(x: bounds.minX + left, y: bounds.minY, width: max(0, bounds.width - left - right), height: bounds.height)
    }

    /// Where the layout's origin goes: aligned in the text rect, scrolled to keep the caret in view.
    /// The laid-out text and where it is drawn (view coordinates), when the
    /// layout holds exactly what assistive technologies read (no composition,
    /// not a window of a long text): for character extents.
    var accessibilityTextLayout: (layout: TextLayout, origin: Point)? {
        let text = shownText
        guard markedText == nil, text.range == 0..<storage.utf8.count else { return nil }
        return (text.layout, textOrigin)
    }

    private var textOrigin: Point {
        let layout = shownText.layout
        let r = textRect
        let height = layout.lines.first?.rect.height ?? font.lineHeight
        var x = r.minX
        let room = r.width - layout.size.width
        if room > 0 {
            let rtl = layout.lines.first?.isRightToLeft ?? false
            switch textAlignment {
            case .left: break
            case .right: x += room
            case .center: x += room / 2
            case .natural, .justified: if rtl { x += room }
            }
        } else {
            x -= scrollX
        }
        return Point(x: x, y: r.minY + ((r.height - height) / 2 * contentScaleFactor).rounded(.down) / contentScaleFactor)
    }

    private func textChanged() {
        // Told only when what assistive technologies read changed (this runs for
        // a new size or style too); nothing is kept or compared while none listens.
        if Application.shared.accessibilityExporter != nil, case let readable = accessibilityText, readable != toldText {
            toldText = readable
            accessibilityDidChange(.text)
        }
        shown = nil
        updateAccessoryVisibility()   // the refresh below covers a text rect that changed
        setNeedsDisplay()
        scrollToCaret()
        updateCaret(restartBlink: true)
    }

    /// The views inside the field came or went: the text has another rect.
    func textRectChanged() {
        shown = nil
        setNeedsDisplay()
        scrollToCaret()
        updateCaret(restartBlink: false)
    }

    private func scrollToCaret() {
        let previousStart = shownStart
        let text = shownText
        let layout = text.layout
        let r = textRect
        let caretX = layout.caretRect(atByte: text.caretOffset(movingEnd)).minX
        // A new window of a long text: the caret stays where it was on screen.
        if text.range.lowerBound != previousStart { scrollX = caretX - caretScreenX }
        if layout.size.width > r.width {
            if caretX - scrollX < 0 { scrollX = caretX }
            if caretX - scrollX > r.width { scrollX = caretX - r.width }
            scrollX = min(max(0, scrollX), layout.size.width - r.width + 1)
        } else {
            scrollX = 0
        }
        caretScreenX = caretX - scrollX
    }

    override func boundsSizeDidChange() {
        super.boundsSizeDidChange()
        textChanged()
    }

    // MARK: Drawing

    public override func draw(in context: any DrawingContext) {
        let origin = textOrigin
        context.saveState()
        context.clip(to: textRect)
        if storage.isEmpty && markedText == nil, let placeholder, !placeholder.isEmpty {
            if placeholderLayout == nil {
                placeholderLayout = TextLayout(AttributedText(placeholder), style: TextStyle(font: font, color: .placeholderText, lineBreakMode: .byTruncatingTail, numberOfLines: 1,
                                                                                                  baseDirection: effectiveUserInterfaceLayoutDirection), width: textRect.width)
            }
            placeholderLayout?.draw(at: Point(x: textRect.minX, y: origin.y), color: .placeholderText, traits: traitCollection, in: context)
        } else {
            let text = shownText
            let layout = text.layout
            if isFirstResponder, !selection.isEmpty {
                for r in layout.selectionRects(from: text.layoutOffset(selection.lowerBound), to: text.layoutOffset(selection.upperBound)) {
                    context.fill(r.offsetBy(dx: origin.x, dy: origin.y), color: tintColor.withAlpha(0.25).resolvedColor(with: traitCollection))
                }
            }
            layout.draw(at: origin, color: isEnabled ? textColor : textColor.withAlpha(0.45), traits: traitCollection, in: context)
            if let marked = markedText {
                let at = text.layoutOffset(selection.lowerBound)
                for r in layout.selectionRects(from: at, to: at + marked.utf8.count) {
                    context.fill(Rect(x: origin.x + r.minX, y: origin.y + r.maxY - 1.5, width: r.width, height: 1), color: textColor.resolvedColor(with: traitCollection))
                }
            }
        }
        context.restoreState()
    }

    // MARK: The caret

    private func updateCaret(restartBlink: Bool) {
        guard isFirstResponder && selection.isEmpty && isEnabled else { return caret.hide() }
        let text = shownText
        let rect = text.layout.caretRect(atByte: text.caretOffset(movingEnd))
        let origin = textOrigin
        let height = rect.height > 0 ? rect.height : font.lineHeight
        caret.show(at: Rect(x: (origin.x + rect.minX - 1).rounded(), y: origin.y + rect.minY, width: 2, height: height),
                   color: tintColor, restartBlink: restartBlink)
        window?.textInputCaretMoved()
    }

    /// Whether the caret is showing now (for tests and snapshots).
    public var isCaretVisible: Bool { caret.isShowing }

    // MARK: Focus

    public override var canBecomeFirstResponder: Bool { isEnabled && !isHidden && window != nil }

    public override func layoutSubviews() {
        super.layoutSubviews()
        layoutAccessories()
    }

    @discardableResult
    public override func becomeFirstResponder() -> Bool {
        let was = isFirstResponder
        guard super.becomeFirstResponder() else { return false }
        if !was {
            sendActions(for: .editingDidBegin)
            updateAccessories()
            updateCaret(restartBlink: true)
            setNeedsDisplay()
        }
        return true
    }

    @discardableResult
    public override func resignFirstResponder() -> Bool {
        let was = isFirstResponder
        guard super.resignFirstResponder() else { return false }
        if was {
            if markedText != nil { unmarkText() }
            updateAccessories()
            updateCaret(restartBlink: false)
            setNeedsDisplay()
            sendActions(for: .editingDidEnd)
        }
        return true
    }

    public override func stateDidChange() {
        updateCaret(restartBlink: false)
        setNeedsDisplay()
    }

    public override func tintColorDidChange() { caret.backgroundColor = tintColor }

    public override func cursor(at point: Point) -> Cursor? { .text }

    // MARK: Pointer: click places the caret, drag selects, double click a word, triple the line

    private func offset(at point: Point) -> Int {
        let origin = textOrigin
        let text = shownText
        let layout = text.layout
        return snap(text.textOffset(layout.caretIndex(at: Point(x: point.x - origin.x, y: layout.size.height / 2))))
    }

    public override func beginTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        if !isFirstResponder { becomeFirstResponder() }
        if markedText != nil { unmarkText() }
        let at = offset(at: touch.location(in: self))
        dragGranularity = min(3, touch.tapCount)
        model.endTyping()
        switch dragGranularity {
        case 1: select(at..<at, anchor: at)
        case 2: let word = wordRange(around: at); select(word, anchor: word.lowerBound)
        default: selectAll()
        }
        return true
    }

    public override func continueTracking(_ touch: Touch, with event: Strata.Event?) -> Bool {
        guard dragGranularity < 3 else { return true }
        let at = offset(at: touch.location(in: self))
        if dragGranularity == 2 {
            let word = wordRange(around: at)
            let start = wordRange(around: anchor)
            select(min(start.lowerBound, word.lowerBound)..<max(start.upperBound, word.upperBound), anchor: anchor)
        } else {
            select(min(anchor, at)..<max(anchor, at), anchor: anchor)
        }
        return true
    }

    private func select(_ range: Range<Int>, anchor: Int) {
        let end = storage.utf8.count
        selection = min(range.lowerBound, end)..<min(range.upperBound, end)
        self.anchor = min(anchor, end)
        accessibilityDidChange(.caret)
        scrollToCaret()
        updateCaret(restartBlink: true)
        setNeedsDisplay()
    }

    // MARK: Keys

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isEnabled, isFirstResponder, let key = presses.first?.key else { return super.pressesBegan(presses, with: event) }
        if !handle(key) { super.pressesBegan(presses, with: event) }
    }

    /// Presses end here too when the field handled them (Space and Return are not a control's activation).
    public override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) {
        guard isFirstResponder else { return super.pressesEnded(presses, with: event) }
        if let key = presses.first?.key, key.keysym == Key.tab || key.keysym == Key.isoLeftTab { super.pressesEnded(presses, with: event) }
    }

    private func handle(_ key: Key) -> Bool {
        let shift = key.modifierFlags.contains(.shift)
        let control = key.modifierFlags.contains(.control)
        switch key.keysym {
        case 0xff08: control ? deleteWord(forward: false) : deleteBackward(); return true        // BackSpace
        case 0xffff: control ? deleteWord(forward: true) : deleteForward(); return true          // Delete
        case 0xff51: move(visually: -1, byWord: control, extend: shift); return true              // Left
        case 0xff53: move(visually: 1, byWord: control, extend: shift); return true               // Right
        case 0xff50, 0xff52: moveTo(0, extend: shift); return true                                // Home, Up
        case 0xff57, 0xff54: moveTo(storage.utf8.count, extend: shift); return true               // End, Down
        case 0xff0d, 0xff8d:                                                                      // Return, Enter
            if markedText != nil { unmarkText(); return true }
            sendActions(for: [.primaryActionTriggered, .editingDidEndOnExit])
            if shouldReturn?(self) == true { resignFirstResponder() }
            return true
        case Key.tab, Key.isoLeftTab: return false
        default: break
        }
        if control { return handleEditShortcut(key) }
        guard !key.modifierFlags.contains(.alternate), !key.modifierFlags.contains(.command),
              !key.characters.isEmpty, key.characters.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else { return false }
        insertText(key.characters)
        return true
    }

    private func deleteForward() {
        if !selection.isEmpty { return edit(replacing: selection, with: "", typing: false) }
        guard let next = boundary(after: selection.upperBound) else { return }
        edit(replacing: selection.upperBound..<next, with: "", typing: false)
    }

    private func deleteWord(forward: Bool) {
        guard selection.isEmpty else { return edit(replacing: selection, with: "", typing: false) }
        let at = selection.lowerBound
        let other = forward ? nextWordEnd(after: at) : previousWordStart(before: at)
        guard other != at else { return }
        edit(replacing: min(at, other)..<max(at, other), with: "", typing: false)
    }

    private func move(visually direction: Int, byWord: Bool, extend: Bool) {
        model.endTyping()
        if markedText != nil { unmarkText() }
        if !extend, !selection.isEmpty, !byWord {
            // A selection collapses to its side.
            let to = direction < 0 ? selection.lowerBound : selection.upperBound
            return select(to..<to, anchor: to)
        }
        let from = extend ? (selection.lowerBound == anchor ? selection.upperBound : selection.lowerBound) : selection.upperBound
        let to: Int
        if byWord {
            to = direction < 0 ? previousWordStart(before: from) : nextWordEnd(after: from)
        } else if isSecureTextEntry {
            to = (direction < 0 ? boundary(before: from) : boundary(after: from)) ?? from
        } else {
            to = snap(ShownText.visualMove(in: storage, from: from, direction: direction, style: textStyle))
        }
        moveTo(to, extend: extend, from: from)
    }

    private func moveTo(_ to: Int, extend: Bool, from: Int? = nil) {
        model.endTyping()
        if extend {
            select(min(anchor, to)..<max(anchor, to), anchor: anchor)
        } else {
            select(to..<to, anchor: to)
        }
    }

    // MARK: Boundaries (grapheme clusters and words, by Unicode's rules through Pango)

    /// Where words start and end in the text around an offset (all of a short
    /// text; a window of a long one), made again when the text or window changes.
    private func words(around offset: Int) -> (range: Range<Int>, starts: Set<Int>, ends: Set<Int>) {
        let cached = wordCache?.text == storage ? wordCache?.words : nil
        let range = ShownText.range(of: storage, caret: offset, keeping: cached?.range.lowerBound)
        if let cached, cached.range == range { return cached }
        let part = String(storage.utf8Slice(range))
        let found = TextLayout(AttributedText(part), style: TextStyle(font: font, color: textColor, numberOfLines: 1), width: nil).boundaries()
        let words = (range, Set(found.wordStarts.map { $0 + range.lowerBound }), Set(found.wordEnds.map { $0 + range.lowerBound }))
        wordCache = (storage, words)
        return words
    }
    private var wordCache: (text: String, words: (range: Range<Int>, starts: Set<Int>, ends: Set<Int>))?

    /// The nearest caret position at or before an offset.
    private func snap(_ offset: Int) -> Int { storage.characterOffset(atOrBefore: offset) }

    private func boundary(before offset: Int) -> Int? { storage.characterOffset(before: offset) }

    private func boundary(after offset: Int) -> Int? { storage.characterOffset(after: offset) }

    private func previousWordStart(before offset: Int) -> Int {
        guard !isSecureTextEntry else { return 0 }
        let w = words(around: offset)
        return w.starts.filter { $0 < offset }.max() ?? (offset > w.range.lowerBound ? w.range.lowerBound : 0)
    }

    private func nextWordEnd(after offset: Int) -> Int {
        guard !isSecureTextEntry else { return storage.utf8.count }
        let w = words(around: offset)
        return w.ends.filter { $0 > offset }.min() ?? (offset < w.range.upperBound ? w.range.upperBound : storage.utf8.count)
    }

    /// The word around an offset (or the gap between words, as a double click there selects).
    private func wordRange(around offset: Int) -> Range<Int> {
        guard !isSecureTextEntry else { return 0..<storage.utf8.count }
        let w = words(around: offset)
        let edges = w.starts.union(w.ends).union([w.range.lowerBound, w.range.upperBound])
        let start = edges.filter { $0 <= offset }.max() ?? w.range.lowerBound
        let end = edges.filter { $0 > offset }.min() ?? w.range.upperBound
        return start..<max(start, end)
    }
}
