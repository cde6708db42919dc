@testable import Strata
import Foundation
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// The compact date picker and its calendar popover (issue 27, item 5).
@MainActor
@Suite("Date picker", .serialized, .isolatedLayerContext)
struct DatePickerTests {
    /// UTC, Gregorian, US English: what the expectations below are written in.
    private static var calendar: Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        c.locale = Locale(identifier: "en_US")
        return c
    }

    private static func date(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 15, _ min: Int = 30) -> Date {
        calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: min))!
    }

    /// A picker at (20, 20) in a window whose root is a controller, set to 26 November 2026, 15:30 UTC.
    private func picker(_ f: ViewFixture) -> DatePicker {
        let root = ViewController()
        f.window.rootViewController = root
        let picker = DatePicker(frame: Rect(x: 20, y: 20, width: 0, height: 0))
        picker.calendar = Self.calendar
        picker.date = Self.date(2026, 11, 26)
        picker.sizeToFit()
        root.view.addSubview(picker)
        Transaction.flush()
        return picker
    }

    private func click(_ view: View) {
        InputDriver(window: view.window!).click(at: view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil))
    }

    @Test("the button shows the date; a click opens the month's calendar in a popover; a day clicked becomes the date at the same time of day (valueChanged); ‹ and › change the month; Escape closes it")
    func pickByPointer() throws {
        let f = ViewFixture(size: Size(width: 500, height: 500))
        let picker = picker(f)
        var changes: [Date] = []
        picker.addAction(for: .valueChanged) { changes.append(($0 as! DatePicker).date) }
        #expect(picker.accessibilityValue == "Nov 26, 2026" && picker.frame.width > 60 && picker.frame.height == 34)
        click(picker)
        Transaction.flush()
        f.advance(0.4)
        Transaction.flush()
        let calendar = try #require(picker.calendarView)
        #expect(!f.window.popupsInStackingOrder.isEmpty && calendar.title.text == "November 2026")
        // 1 November 2026 is a Sunday, the first weekday in the US: the first cell.
        #expect(calendar.cells[0].content?.number == 1 && calendar.cells[29].content?.number == 30 && calendar.cells[30].content == nil)
        #expect(calendar.cells[25].content?.chosen == true && calendar.cells[25].accessibilityTraits.contains(.selected))
        #expect(calendar.cells[25].accessibilityLabel == "Thursday, November 26, 2026")
        let shot = f.window.snapshot()
        try shot.writePNG(to: makeTemporaryDirectory("strata-date-picker") + "/calendar.png")

        click(calendar.cells[2])
        #expect(changes == [Self.date(2026, 11, 3)] && picker.accessibilityValue == "Nov 3, 2026")
        #expect(calendar.cells[2].content?.chosen == true && calendar.cells[25].content?.chosen == false)
        click(calendar.cells[2])
        #expect(changes.count == 1, "the same day again: nothing")
        click(calendar.previousMonth)
        #expect(calendar.title.text == "October 2026" && calendar.cells[4].content?.number == 1, "1 October 2026 is a Thursday")
        click(calendar.nextMonth)
        click(calendar.nextMonth)
        #expect(calendar.title.text == "December 2026" && picker.date == Self.date(2026, 11, 3), "looking is not choosing")

        let driver = InputDriver(window: calendar.window!)
        driver.tapKey(keysym: Key.escape)
        Transaction.flush()
        f.advance(0.4)
        Transaction.flush()
        #expect(picker.calendarView == nil && f.window.popupsInStackingOrder.isEmpty)
    }

    @Test("keys in the calendar: the arrows go a day or a week (mirrored right to left), Page Up and Down a month, Home and End to the month's ends; the chosen day is the one Tab stop")
    func pickByKeyboard() throws {
        let f = ViewFixture(size: Size(width: 500, height: 500))
        let picker = picker(f)
        #expect(picker.becomeFirstResponder())
        let main = InputDriver(window: f.window)
        main.tapKey(keysym: 0x20)                          // Space opens it
        Transaction.flush()
        let calendar = try #require(picker.calendarView)
        let chosen = try #require(calendar.cells.first { $0.content?.chosen == true })
        #expect(chosen.becomeFirstResponder() && !calendar.cells[0].canBecomeFirstResponder)
        let driver = InputDriver(window: calendar.window!)
        func press(_ keysym: UInt32) { driver.tapKey(keysym: keysym) }
        press(0xff53)                                        // Right
        #expect(picker.date == Self.date(2026, 11, 27))
        press(0xff54)                                        // Down
        #expect(picker.date == Self.date(2026, 12, 4) && calendar.title.text == "December 2026")
        press(0xff55)                                        // Page Up
        #expect(picker.date == Self.date(2026, 11, 4))
        press(0xff57)                                        // End
        #expect(picker.date == Self.date(2026, 11, 30))
        press(0xff50)                                        // Home
        #expect(picker.date == Self.date(2026, 11, 1))
        press(0xff52)                                        // Up: a week back, into October
        #expect(picker.date == Self.date(2026, 10, 25) && calendar.title.text == "October 2026")
        #expect(calendar.cells.first { $0.isFirstResponder }?.content?.number == 25, "the focus follows the chosen day")
        f.window.traitOverrides.layoutDirection = .rightToLeft
        press(0xff51)                                        // Left, right to left: the next day
        #expect(picker.date == Self.date(2026, 10, 26))
        calendar.layoutIfNeeded()
        #expect(calendar.cells[0].frame.minX > calendar.cells[6].frame.minX, "the week runs right to left")
    }

    @Test("bounds: a date set outside them is held to them, days outside cannot be chosen, ‹ and › stop at them; bad input is refused with a diagnostic")
    func boundsAndBadInput() throws {
        let f = ViewFixture(size: Size(width: 500, height: 500))
        let picker = picker(f)
        picker.minimumDate = Self.date(2026, 11, 10, 0, 0)
        picker.maximumDate = Self.date(2026, 11, 20, 23, 59)
        #expect(picker.date == Self.date(2026, 11, 20, 23, 59), "held to the maximum")
        picker.date = Self.date(2020, 1, 1)
        #expect(picker.date == Self.date(2026, 11, 10, 0, 0))
        picker.showCalendar()
        let calendar = try #require(picker.calendarView)
        #expect(calendar.cells[8].content?.enabled == false && calendar.cells[9].content?.enabled == true && calendar.cells[20].content?.enabled == false)
        #expect(!calendar.previousMonth.isEnabled && !calendar.nextMonth.isEnabled)
        var changes = 0
        picker.addAction(for: .valueChanged) { _ in changes += 1 }
        click(calendar.cells[3])
        #expect(changes == 0 && picker.date == Self.date(2026, 11, 10, 0, 0), "a day before the minimum")

        let before = f.diagnostics.count
        picker.minimumDate = Self.date(2030, 1, 1)
        #expect(f.diagnostics.count == before + 1 && picker.minimumDate == Self.date(2026, 11, 10, 0, 0))
        let loose = DatePicker()
        loose.showCalendar()
        #expect(f.diagnostics.count == before + 2 && loose.calendarView == nil, "in no window: nothing to show it from")
    }

    @Test("time mode: the time in the locale's short style; a click starts editing (the hour tinted); digits type it, arrows step and move, Return sets it on the same day (valueChanged once), Escape leaves it")
    func timeMode() {
        let f = ViewFixture(size: Size(width: 500, height: 500))
        let picker = picker(f)
        picker.datePickerMode = .time
        picker.sizeToFit()
        var changes: [Date] = []
        picker.addAction(for: .valueChanged) { changes.append(($0 as! DatePicker).date) }
        // ICU puts a narrow no-break space before AM and PM.
        func plain(_ s: String?) -> String? { s?.replacingOccurrences(of: "\u{202F}", with: " ") }
        #expect(picker.accessibilityLabel == "Time" && plain(picker.accessibilityValue) == "3:30 PM")
        click(picker)
        #expect(picker.timeEditing != nil && picker.isFirstResponder && picker.timeLabel.text == "3:30 PM")
        let keys = InputDriver(window: f.window)
        keys.type("9")                  // 9 cannot start a longer 12-hour hour: on to the minutes
        #expect(picker.timeEditing?.segment == 1 && picker.timeLabel.text == "9:30 PM")
        keys.type("45")
        keys.tapKey(keysym: 0xff52)    // Up on AM/PM: to AM
        #expect(picker.timeLabel.text == "9:45 AM")
        keys.tapKey(keysym: 0xff0d)
        #expect(picker.date == Self.date(2026, 11, 26, 9, 45) && changes.count == 1 && picker.timeEditing == nil)
        // Stepping the minutes down past 0 wraps; Escape leaves the time as it was.
        click(picker)
        keys.tapKey(keysym: 0xff53)    // to the minutes
        keys.tapKey(keysym: 0xff54)
        #expect(picker.timeLabel.text == "9:44 AM")
        keys.tapKey(keysym: 0xff1b)
        #expect(picker.date == Self.date(2026, 11, 26, 9, 45) && changes.count == 1 && plain(picker.timeLabel.text) == "9:45 AM")
        // 24 hours where the locale writes them; held to the maximum.
        var british = Self.calendar
        british.locale = Locale(identifier: "en_GB")
        picker.calendar = british
        picker.maximumDate = Self.date(2026, 11, 26, 18, 0)
        #expect(picker.timeLabel.text == "09:45")
        click(picker)
        keys.type("2130")
        keys.tapKey(keysym: 0xff0d)
        #expect(picker.date == Self.date(2026, 11, 26, 18, 0) && changes.count == 2)
        // Leaving the picker sets what was typed.
        click(picker)
        keys.type("07")
        _ = picker.resignFirstResponder()
        #expect(picker.date == Self.date(2026, 11, 26, 7, 0) && changes.count == 3)
    }

    @Test("date and time: two pills side by side; a click on the date opens the calendar, one on the time edits it")
    func dateAndTimeMode() throws {
        let f = ViewFixture(size: Size(width: 500, height: 500))
        let picker = picker(f)
        picker.datePickerMode = .dateAndTime
        picker.sizeToFit()
        f.window.layoutIfNeeded()
        #expect(picker.accessibilityValue?.replacingOccurrences(of: "\u{202F}", with: " ") == "Nov 26, 2026, 3:30 PM")
        let time = picker.timeFrame
        #expect(time.maxX == picker.bounds.maxX && time.width < picker.bounds.width / 2 + 20)
        let keys = InputDriver(window: f.window)
        keys.click(at: picker.convert(Point(x: time.midX, y: time.midY), to: nil))
        #expect(picker.timeEditing != nil && picker.calendarView == nil)
        keys.tapKey(keysym: 0xff1b)
        keys.click(at: picker.convert(Point(x: 10, y: 17), to: nil))
        f.advance(0.4)
        #expect(picker.timeEditing == nil && picker.calendarView != nil)
    }
}
