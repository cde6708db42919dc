import Foundation

/// A date picker's popover: the calendar of one month.
@MainActor
final class CalendarViewController: ViewController {
    unowned let picker: DatePicker
    private(set) lazy var calendarView = CalendarView(picker: picker)

    init(picker: DatePicker) {
        self.picker = picker
        super.init()
        preferredContentSize = CalendarView.size
    }

    override func loadView() { view = calendarView }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        picker.calendarDidClose()
    }
}

/// One month: its name between ‹ and ›, the weekdays from the calendar's
/// first, and a cell per day in six rows of seven (mirrored right to left).
/// The chosen day is the one Tab stop; the arrows move from it (see ``DatePicker``).
@MainActor
final class CalendarView: View {
    static let cellSize = 40.0, margin = 12.0, headerHeight = 40.0, weekdayHeight = 20.0
    static let size = Size(width: 7 * cellSize + 2 * margin, height: 2 * margin + headerHeight + weekdayHeight + 6 * cellSize)

    unowned let picker: DatePicker
    /// The first moment of the month shown.
    private(set) var month: Date
    let title = Label(frame: .zero)
    let previousMonth = Button(title: "‹"), nextMonth = Button(title: "›")
    private var weekdays: [Label] = []
    private(set) var cells: [DayCell] = []

    init(picker: DatePicker) {
        self.picker = picker
        month = picker.workingCalendar.dateInterval(of: .month, for: picker.date)?.start ?? picker.date
        super.init(frame: Rect(origin: .zero, size: CalendarView.size))
        backgroundColor = .secondarySystemGroupedBackground
        title.font = .systemFont(ofSize: 17, weight: .semibold)
        title.textAlignment = .center
        previousMonth.accessibilityLabel = "Previous month"
        nextMonth.accessibilityLabel = "Next month"
        previousMonth.addAction(for: .primaryActionTriggered) { [unowned self] _ in showMonth(after: -1) }
        nextMonth.addAction(for: .primaryActionTriggered) { [unowned self] _ in showMonth(after: 1) }
        for v in [title, previousMonth, nextMonth] as [View] { addSubview(v) }
        for _ in 0..<7 {
            let day = Label(frame: .zero)
            day.font = .systemFont(ofSize: 12, weight: .semibold)
            day.textColor = .secondaryLabel
            day.textAlignment = .center
            weekdays.append(day)
            addSubview(day)
        }
        for _ in 0..<42 {
            let cell = DayCell(calendar: self)
            cells.append(cell)
            addSubview(cell)
        }
        reload()
    }

    /// Shows the month `offset` months from the one shown.
    func showMonth(after offset: Int) {
        guard let m = picker.workingCalendar.date(byAdding: .month, value: offset, to: month) else { return }
        month = m
        reload()
    }

    /// Fills the cells for the month shown and the picker's date.
    func reload() {
        let c = picker.workingCalendar
        let formatter = DateFormatter()
        formatter.calendar = c
        formatter.locale = c.locale ?? .current
        formatter.timeZone = c.timeZone
        formatter.setLocalizedDateFormatFromTemplate("LLLLy")
        title.text = formatter.string(from: month)
        formatter.dateStyle = .full
        formatter.timeStyle = .none
        let symbols = formatter.veryShortStandaloneWeekdaySymbols
        for (i, label) in weekdays.enumerated() where symbols.count == 7 {
            label.text = symbols[(i + c.firstWeekday - 1) % 7]
        }
        let lead = (c.component(.weekday, from: month) - c.firstWeekday + 7) % 7
        let days = c.range(of: .day, in: .month, for: month)?.count ?? 30
        for (i, cell) in cells.enumerated() {
            let n = i - lead
            guard n >= 0, n < days, let day = c.date(byAdding: .day, value: n, to: month) else {
                cell.show(nil)
                continue
            }
            let inRange = c.isDate(picker.clamped(day), inSameDayAs: day)   // a bound's own day can be chosen
            cell.show(DayCell.Content(day: day, number: n + 1, name: formatter.string(from: day),
                                      chosen: c.isDate(day, inSameDayAs: picker.date), today: c.isDateInToday(day), enabled: inRange))
        }
        let first = month, last = c.date(byAdding: DateComponents(month: 1, second: -1), to: month) ?? month
        previousMonth.isEnabled = picker.minimumDate.map { $0 < first } ?? true
        nextMonth.isEnabled = picker.maximumDate.map { $0 > last } ?? true
        setNeedsLayout()
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        let m = CalendarView.margin, s = CalendarView.cellSize, rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        func x(_ column: Int) -> Double { m + Double(rtl ? 6 - column : column) * s }
        title.frame = Rect(x: m + s, y: m, width: 5 * s, height: CalendarView.headerHeight)
        // ‹ goes back: at the leading side.
        previousMonth.frame = Rect(x: x(0), y: m, width: s, height: CalendarView.headerHeight)
        nextMonth.frame = Rect(x: x(6), y: m, width: s, height: CalendarView.headerHeight)
        let weekdayY = m + CalendarView.headerHeight, gridY = weekdayY + CalendarView.weekdayHeight
        for (i, label) in weekdays.enumerated() {
            label.frame = Rect(x: x(i), y: weekdayY, width: s, height: CalendarView.weekdayHeight)
        }
        for (i, cell) in cells.enumerated() {
            cell.frame = Rect(x: x(i % 7), y: gridY + Double(i / 7) * s, width: s, height: s)
        }
    }

    /// A cell was clicked or activated (the picker reloads this calendar).
    func choose(_ day: Date) {
        picker.userChoose(day: day)
    }

    // MARK: Keys: from the chosen day

    override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard let key = presses.first?.key else { return super.pressesBegan(presses, with: event) }
        let c = picker.workingCalendar, rtl = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let target: Date?
        switch key.keysym {
        case 0xff51: target = c.date(byAdding: .day, value: rtl ? 1 : -1, to: picker.date)    // Left
        case 0xff53: target = c.date(byAdding: .day, value: rtl ? -1 : 1, to: picker.date)    // Right
        case 0xff52: target = c.date(byAdding: .day, value: -7, to: picker.date)              // Up
        case 0xff54: target = c.date(byAdding: .day, value: 7, to: picker.date)               // Down
        case 0xff55: target = c.date(byAdding: .month, value: -1, to: picker.date)            // Page Up
        case 0xff56: target = c.date(byAdding: .month, value: 1, to: picker.date)             // Page Down
        case 0xff50: target = c.dateInterval(of: .month, for: picker.date)?.start             // Home
        case 0xff57: target = c.dateInterval(of: .month, for: picker.date).flatMap { c.date(byAdding: .second, value: -1, to: $0.end) } // End
        default: return super.pressesBegan(presses, with: event)
        }
        guard let target else { return }
        picker.userChoose(day: target)
        // The month of the date now chosen (held to the bounds), with its cell focused.
        if let chosenMonth = c.dateInterval(of: .month, for: picker.date)?.start, chosenMonth != month {
            month = chosenMonth
            reload()
        }
        cells.first { $0.content?.chosen == true }?.becomeFirstResponder()
    }
}

/// A day of a ``CalendarView``: its number, in a circle of the tint when chosen.
@MainActor
final class DayCell: Control {
    struct Content {
        let day: Date
        let number: Int
        /// The full date, as assistive technologies say it.
        let name: String
        let chosen: Bool
        let today: Bool
        let enabled: Bool
    }

    private unowned let calendar: CalendarView
    private(set) var content: Content?
    private let circle = View(frame: .zero)
    private let number = Label(frame: .zero)

    override var defaultAccessibilityLabel: String? { content?.name }
    override var defaultAccessibilityTraits: AccessibilityTraits {
        super.defaultAccessibilityTraits.union(.button).union(content?.chosen == true ? .selected : [])
    }
    override var defaultIsAccessibilityElement: Bool { content != nil }

    init(calendar: CalendarView) {
        self.calendar = calendar
        super.init(frame: .zero)
        circle.isUserInteractionEnabled = false
        circle.layer.cornerRadius = 17
        number.isUserInteractionEnabled = false
        number.font = .systemFont(ofSize: 17)
        number.textAlignment = .center
        addSubview(circle)
        addSubview(number)
    }

    func show(_ content: Content?) {
        self.content = content
        isHidden = content == nil
        guard let content else { return }
        isEnabled = content.enabled
        number.text = String(content.number)
        circle.backgroundColor = content.chosen ? tintColor : nil
        number.textColor = content.chosen ? .white : !content.enabled ? .tertiaryLabel : content.today ? tintColor : .label
        number.font = .systemFont(ofSize: 17, weight: content.chosen || content.today ? .semibold : .regular)
    }

    override func layoutSubviews() {
        super.layoutSubviews()
        circle.frame = Rect(x: bounds.midX - 17, y: bounds.midY - 17, width: 34, height: 34)
        number.frame = bounds
    }

    /// Only the chosen day is a Tab stop: the arrows move from it.
    override var canBecomeFirstResponder: Bool { content?.chosen == true && super.canBecomeFirstResponder }

    override func endTracking(_ touch: Touch?, with event: Strata.Event?) {
        guard let touch, isInsideForTracking(touch.location(in: self)), let content else { return }
        calendar.choose(content.day)
    }

    override func keyboardActivated() {
        if let content { calendar.choose(content.day) }
    }

    override func accessibilityActivate() -> Bool {
        guard isEnabled, let content else { return false }
        calendar.choose(content.day)
        return true
    }
}
