import Foundation

/// A date, a time or both, shown as buttons (`UIDatePicker` in its compact style):
/// the date picked from a month's calendar in a popover, the time typed or
/// stepped in place, as UIKit's compact time is with a keyboard.
///
/// The button shows ``date`` in the locale's medium style. A click, a tap, or
/// Space or Return while it has the focus opens the calendar: the month of
/// the date, a day per cell, the chosen one filled with the tint and today in
/// the tint; ‹ and › go a month back and on. Choosing a day sets ``date`` to
/// it (keeping its time of day) and sends `valueChanged`, never for a date set
/// in code. In the calendar, the arrows go a day or a week on (mirrored right
/// to left), Page Up and Page Down a month, Home and End to the month's ends;
/// Escape or a click outside closes it. Days outside
/// ``minimumDate``…``maximumDate`` cannot be chosen, and a date set in code
/// is held to them. Assistive technologies see a button whose value is the
/// date, that has a popup; each day is a button named by its full date.
///
/// The time (modes `.time` and `.dateAndTime`) shows in the locale's short style
/// (12 or 24 hours). A click on it, or Space or Return while the picker has the
/// focus in `.time` mode, starts editing: the hour is tinted; digits type it
/// (one digit that cannot start a longer hour moves on at once), Up and Down step
/// it, Left, Right and Tab go between hour, minute and (12-hour) AM/PM; Return, or
/// the focus going elsewhere, sets the time (same day, held to the bounds) and
/// sends `valueChanged` if it changed; Escape leaves it as it was.
///
/// The calendar is presented from the view controller whose view holds the
/// picker (else the window's root view controller); with neither, opening it
/// is refused with a diagnostic. Only the compact style exists; a minimum after
/// the maximum is refused with a diagnostic.
@MainActor
public final class DatePicker: Control {
    /// What the picker picks (`UIDatePicker.Mode`).
    public enum Mode: Hashable, Sendable { case date, time, dateAndTime }

    // A button whose value is the date, opening a popup (rules Y2, Y4).
    override var defaultAccessibilityLabel: String? {
        switch datePickerMode {
        case .date: "Date"
        case .time: "Time"
        case .dateAndTime: "Date and time"
        }
    }
    override var defaultAccessibilityValue: String? {
        switch datePickerMode {
        case .date: label.text
        case .time: timeLabel.text
        case .dateAndTime: [label.text, timeLabel.text].compactMap { $0 }.joined(separator: ", ")
        }
    }
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union(.button) }
    public override func accessibilityActivate() -> Bool {
        guard isEnabled else { return false }
        if datePickerMode == .time { beginTimeEditing() } else { showCalendar() }
        return true
    }

    /// The date chosen (`date`), held to the minimum and maximum; setting it sends nothing.
    public var date: Date {
        get { storedDate }
        set { set(newValue) }
    }
    /// The earliest date that can be chosen (`minimumDate`); nil: none.
    public var minimumDate: Date? {
        didSet { if !boundsAccepted() { minimumDate = oldValue } }
    }
    /// The latest date that can be chosen (`maximumDate`); nil: none.
    public var maximumDate: Date? {
        didSet { if !boundsAccepted() { maximumDate = oldValue } }
    }
    /// The calendar the month is laid out in (`calendar`): the user's by default.
    public var calendar = Calendar.current { didSet { update() } }
    /// The locale dates are written in (`locale`); nil: the calendar's.
    public var locale: Locale? { didSet { update() } }
    /// The time zone days begin and end in (`timeZone`); nil: the calendar's.
    public var timeZone: TimeZone? { didSet { update() } }
    /// What the picker shows and picks: the date, the time of day, or both side by side.
    public var datePickerMode = Mode.date {
        didSet {
            guard datePickerMode != oldValue else { return }
            endTimeEditing(commit: false)
            update()
            setNeedsLayout()
        }
    }

    private var storedDate = Date()
    private let label = Label(frame: .zero)
    let timeLabel = Label(frame: .zero)
    /// The time being typed or stepped: its parts and the one that has the focus.
    private(set) var timeEditing: TimeEditing?

    struct TimeEditing: Equatable {
        var hour: Int            // 0–23
        var minute: Int
        var segment = 0          // hour, minute, AM/PM
        var typed = ""           // digits typed into the segment so far
        let twelveHours: Bool
        var segments: Int { twelveHours ? 3 : 2 }
    }
    /// The calendar while it shows.
    private weak var shownCalendar: CalendarViewController?

    public override init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .tertiarySystemFill
        layer.cornerRadius = 6
        label.font = .systemFont(ofSize: 17)
        label.textAlignment = .center
        label.isUserInteractionEnabled = false
        addSubview(label)
        timeLabel.font = .systemFont(ofSize: 17)
        timeLabel.textAlignment = .center
        timeLabel.isUserInteractionEnabled = false
        timeLabel.layer.cornerRadius = 6
        addSubview(timeLabel)
        update()
    }

    public convenience init() { self.init(frame: .zero) }

    public override var intrinsicContentSize: Size {
        let date = (label.intrinsicContentSize.width + 24).rounded(.up), time = (timeLabel.intrinsicContentSize.width + 24).rounded(.up)
        switch datePickerMode {
        case .date: return Size(width: date, height: 34)
        case .time: return Size(width: time, height: 34)
        case .dateAndTime: return Size(width: date + 8 + time, height: 34)
        }
    }
    public override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    /// Where the time is (view coordinates): all of it in `.time`, the trailing part in `.dateAndTime`.
    var timeFrame: Rect {
        switch datePickerMode {
        case .date: return .zero
        case .time: return bounds
        case .dateAndTime:
            let w = (timeLabel.intrinsicContentSize.width + 24).rounded(.up)
            return mirroredForLayoutDirection(Rect(x: bounds.maxX - w, y: bounds.minY, width: w, height: bounds.height))
        }
    }

    public override func layoutSubviews() {
        super.layoutSubviews()
        let time = timeFrame
        label.isHidden = datePickerMode == .time
        timeLabel.isHidden = datePickerMode == .date
        // Side by side, each part is a pill of its own.
        backgroundColor = datePickerMode == .dateAndTime ? nil : .tertiarySystemFill
        let pill: Color? = datePickerMode == .dateAndTime ? .tertiarySystemFill : nil
        label.backgroundColor = pill
        label.layer.cornerRadius = 6
        timeLabel.backgroundColor = timeEditing != nil && datePickerMode != .time ? .tertiarySystemFill : pill
        timeLabel.frame = time
        label.frame = datePickerMode == .dateAndTime
            ? mirroredForLayoutDirection(Rect(x: bounds.minX, y: bounds.minY, width: max(0, bounds.width - time.width - 8), height: bounds.height))
            : bounds
    }

    /// The calendar the picker works in, with its time zone and locale.
    var workingCalendar: Calendar {
        var c = calendar
        if let timeZone { c.timeZone = timeZone }
        if let locale { c.locale = locale }
        return c
    }

    /// `date` held to the bounds.
    func clamped(_ date: Date) -> Date {
        var d = date
        if let minimumDate, d < minimumDate { d = minimumDate }
        if let maximumDate, d > maximumDate { d = maximumDate }
        return d
    }

    private func boundsAccepted() -> Bool {
        if let minimumDate, let maximumDate, minimumDate > maximumDate {
            Diagnostics.report(.invalidView("DatePicker minimumDate after maximumDate refused"))
            return false
        }
        set(storedDate)
        return true
    }

    private func set(_ newDate: Date) {
        let old = storedDate
        storedDate = clamped(newDate)
        update()
        if storedDate != old { accessibilityDidChange(.value) }
    }

    /// A day the person chose: the date becomes it at the same time of day, `valueChanged` when it changed.
    func userChoose(day: Date) {
        let c = workingCalendar
        let time = c.dateComponents([.hour, .minute, .second, .nanosecond], from: storedDate)
        let start = c.startOfDay(for: day)
        let chosen = c.date(byAdding: time, to: start) ?? start
        let old = storedDate
        set(chosen)
        if storedDate != old { sendActions(for: .valueChanged) }
    }

    private func update() {
        let formatter = DateFormatter()
        formatter.calendar = workingCalendar
        formatter.locale = workingCalendar.locale ?? .current
        formatter.timeZone = workingCalendar.timeZone
        formatter.dateStyle = .medium
        formatter.timeStyle = .none
        label.text = formatter.string(from: storedDate)
        label.textColor = shownCalendar != nil ? tintColor : .label
        if let e = timeEditing {
            timeLabel.attributedText = editingText(e)
        } else {
            formatter.dateStyle = .none
            formatter.timeStyle = .short
            timeLabel.text = formatter.string(from: storedDate)
            timeLabel.textColor = .label
        }
        invalidateIntrinsicContentSize()
        setNeedsLayout()
        shownCalendar?.calendarView.reload()
    }

    // MARK: The time

    /// Whether the locale writes times in 12 hours (its short time format has an AM/PM).
    private var usesTwelveHours: Bool {
        let format = DateFormatter.dateFormat(fromTemplate: "j", options: 0, locale: workingCalendar.locale ?? .current) ?? "H"
        return format.contains("a")
    }

    /// The time as it is being edited, the focused part in the tint.
    private func editingText(_ e: TimeEditing) -> AttributedText {
        let hour = e.twelveHours ? (e.hour % 12 == 0 ? 12 : e.hour % 12) : e.hour
        var parts = [e.segment == 0 && !e.typed.isEmpty ? e.typed : (e.twelveHours ? "\(hour)" : String(format: "%02d", hour)),
                     e.segment == 1 && !e.typed.isEmpty ? e.typed : String(format: "%02d", e.minute)]
        if e.twelveHours {
            let formatter = DateFormatter()
            formatter.locale = workingCalendar.locale ?? .current
            parts.append(e.hour < 12 ? formatter.amSymbol : formatter.pmSymbol)
        }
        let text = parts[0] + ":" + parts[1] + (e.twelveHours ? " " + parts[2] : "")
        var attributed = AttributedText(text)
        attributed.setAttributes(.init(color: .label), range: text.startIndex..<text.endIndex)
        let starts = [0, parts[0].count + 1, parts[0].count + 1 + parts[1].count + 1]
        let from = text.index(text.startIndex, offsetBy: starts[e.segment])
        let to = text.index(from, offsetBy: parts[e.segment].count)
        attributed.setAttributes(.init(color: tintColor), range: from..<to)
        return attributed
    }

    /// Starts typing or stepping the time, the hour first.
    func beginTimeEditing() {
        guard timeEditing == nil, isEnabled, datePickerMode != .date else { return }
        let c = workingCalendar
        let parts = c.dateComponents([.hour, .minute], from: storedDate)
        timeEditing = TimeEditing(hour: parts.hour ?? 0, minute: parts.minute ?? 0, twelveHours: usesTwelveHours)
        if !isFirstResponder { becomeFirstResponder() }
        update()
    }

    /// Ends editing: the time typed becomes the date's (on its day) when `commit`.
    func endTimeEditing(commit: Bool) {
        guard var e = timeEditing else { return }
        applyTyped(&e)
        timeEditing = nil
        if commit {
            let c = workingCalendar
            let day = c.startOfDay(for: storedDate)
            let seconds = c.component(.second, from: storedDate)
            let chosen = c.date(bySettingHour: e.hour, minute: e.minute, second: seconds, of: day) ?? storedDate
            let old = storedDate
            set(chosen)
            if storedDate != old { sendActions(for: .valueChanged) }
        }
        update()
    }

    /// Digits typed so far into the focused part become its value.
    private func applyTyped(_ e: inout TimeEditing) {
        guard let n = Int(e.typed) else { return }
        if e.segment == 0 {
            if e.twelveHours { e.hour = (n % 12) + (e.hour >= 12 ? 12 : 0) } else { e.hour = min(23, n) }
        } else if e.segment == 1 {
            e.minute = min(59, n)
        }
        e.typed = ""
    }

    private func editTime(_ keysym: UInt32, text: String?) -> Bool {
        guard var e = timeEditing else { return false }
        switch keysym {
        case 0xff0d, 0xff8d: endTimeEditing(commit: true); return true                    // Return, Enter
        case 0xff1b: endTimeEditing(commit: false); return true                           // Escape
        case 0xff52, 0xff97, 0xff54, 0xff99:                                              // Up, Down
            applyTyped(&e)
            let step = keysym == 0xff52 || keysym == 0xff97 ? 1 : -1
            switch e.segment {
            case 0: e.hour = (e.hour + step + 24) % 24
            case 1: e.minute = (e.minute + step + 60) % 60
            default: e.hour = (e.hour + 12) % 24
            }
        case 0xff53, 0xff98, 0xff09: applyTyped(&e); e.segment = min(e.segments - 1, e.segment + 1)   // Right, Tab
        case 0xff51, 0xff96: applyTyped(&e); e.segment = max(0, e.segment - 1)                         // Left
        default:
            guard let text, text.count == 1, let digit = Int(text), e.segment < 2 else { return false }
            e.typed += text
            // A digit that cannot start a longer number ends the part and moves on.
            let limit = e.segment == 0 ? (e.twelveHours ? 1 : 2) : 5
            if e.typed.count == 2 || digit > limit && e.typed.count == 1 {
                applyTyped(&e)
                e.segment = min(e.segments - 1, e.segment + 1)
            }
        }
        timeEditing = e
        update()
        return true
    }

    public override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        if let key = presses.first?.key, editTime(key.keysym, text: key.characters) { return }
        super.pressesBegan(presses, with: event)
    }

    public override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) {
        if timeEditing != nil { return }
        super.pressesEnded(presses, with: event)
    }

    @discardableResult
    public override func resignFirstResponder() -> Bool {
        let resigned = super.resignFirstResponder()
        if resigned { endTimeEditing(commit: true) }
        return resigned
    }

    public override func tintColorDidChange() { update() }

    // MARK: The calendar

    public override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        guard let touch, isInsideForTracking(touch.location(in: self)) else { return }
        if datePickerMode != .date && timeFrame.contains(touch.location(in: self)) {
            beginTimeEditing()
        } else {
            endTimeEditing(commit: true)
            showCalendar()
        }
    }

    override func keyboardActivated() {
        if datePickerMode == .time { beginTimeEditing() } else { showCalendar() }
    }

    /// Opens the month's calendar in a popover from the controller whose view holds the picker.
    func showCalendar() {
        guard shownCalendar == nil, isEnabled, datePickerMode != .time else { return }
        // The nearest controller up the responder chain, as UIKit's controls find theirs.
        let up = sequence(first: self as Responder) { $0.next }.lazy.compactMap { $0 as? ViewController }.first
        guard let presenter = up ?? window?.rootViewController else {
            return Diagnostics.report(.invalidView("DatePicker: no view controller holds it, so there is nothing to show its calendar from"))
        }
        let calendarController = CalendarViewController(picker: self)
        calendarController.modalPresentationStyle = .popover
        calendarController.popoverPresentationController?.sourceView = self
        shownCalendar = calendarController
        presenter.present(calendarController, animated: true)
        update()
    }

    /// The calendar closed.
    func calendarDidClose() {
        shownCalendar = nil
        update()
    }

    /// The calendar, while it shows (for tests).
    var calendarView: CalendarView? { shownCalendar?.calendarView }
}
