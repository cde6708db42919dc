import Foundation

/// A date, shown as a button and picked from a month's calendar in a popover
/// (`UIDatePicker` in its compact style, the date mode).
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
/// The calendar is presented from the view controller whose view holds the
/// picker (else the window's root view controller); with neither, opening it
/// is refused with a diagnostic. Only the date mode and the compact style
/// exist: another mode is refused with a diagnostic, as is a minimum after the
/// maximum.
@MainActor
public final class DatePicker: Control {
    /// What the picker picks (`UIDatePicker.Mode`).
    public enum Mode: Hashable, Sendable { case date, time, dateAndTime }

    // A button whose value is the date, opening a popup (rules Y2, Y4).
    override var defaultAccessibilityLabel: String? { "Date" }
    override var defaultAccessibilityValue: String? { label.text }
    override var defaultAccessibilityTraits: AccessibilityTraits { super.defaultAccessibilityTraits.union(.button) }
    public override func accessibilityActivate() -> Bool {
        guard isEnabled else { return false }
        showCalendar()
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
    /// Only `.date` is offered; the others are refused with a diagnostic.
    public var datePickerMode = Mode.date {
        didSet {
            guard datePickerMode != .date else { return }
            Diagnostics.report(.invalidView("DatePicker mode \(datePickerMode) is not offered yet; it stays .date"))
            datePickerMode = .date
        }
    }

    private var storedDate = Date()
    private let label = Label(frame: .zero)
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
        update()
    }

    public convenience init() { self.init(frame: .zero) }

    public override var intrinsicContentSize: Size {
        let text = label.intrinsicContentSize
        return Size(width: (text.width + 24).rounded(.up), height: 34)
    }
    public override func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    public override func layoutSubviews() {
        super.layoutSubviews()
        label.frame = bounds
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
        invalidateIntrinsicContentSize()
        shownCalendar?.calendarView.reload()
    }

    public override func tintColorDidChange() { update() }

    // MARK: The calendar

    public override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        guard let touch, isInsideForTracking(touch.location(in: self)) else { return }
        showCalendar()
    }

    override func keyboardActivated() { showCalendar() }

    /// Opens the month's calendar in a popover from the controller whose view holds the picker.
    func showCalendar() {
        guard shownCalendar == nil, isEnabled else { return }
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
