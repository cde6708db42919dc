@testable import Strata
import Glibc
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// Segmented controls, activity indicators, steppers and page controls (issue 27, item 5).
@MainActor
@Suite("More controls", .isolatedLayerContext)
struct MoreControlsTests {
    @Test("a segmented control: a click selects, the indicator slides on the media clock, valueChanged for the user's choices only")
    func segments() {
        let f = ViewFixture()
        let control = SegmentedControl(items: ["Day", "Week", "Month"])
        control.frame = Rect(x: 20, y: 20, width: 300, height: 32)
        f.window.rootView.addSubview(control)
        var changes: [Int] = []
        control.addAction(for: .valueChanged) { changes.append(($0 as! SegmentedControl).selectedSegmentIndex) }
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment)
        control.selectedSegmentIndex = 0
        #expect(changes.isEmpty, "set in code: no event")
        Transaction.flush()
        let driver = InputDriver(window: f.window)
        driver.click(at: Point(x: 20 + 250, y: 36))           // the third segment
        Transaction.flush()
        #expect(control.selectedSegmentIndex == 2 && changes == [2])
        let indicator = control.subviews.first { $0.layer.backgroundColor == .white }!
        // From x 2 to x 202 over 0.25 s: half way in time, half way in place (ease in-out).
        f.advance(0.125)
        #expect(close(f.shownPoint(indicator).x, 50 + 100, 1), "indicator centre \(f.shownPoint(indicator).x)")
        f.advance(0.2)
        #expect(close(f.shownPoint(indicator).x, 250))
        #expect(control.becomeFirstResponder())
        driver.tapKey(keysym: 0xff51)                          // Left
        #expect(control.selectedSegmentIndex == 1 && changes == [2, 1])
        driver.click(at: Point(x: 20 + 150, y: 36))           // the selected one again: nothing
        #expect(changes == [2, 1])
        Transaction.flush()
        f.advance(0.3)
        let shot = f.window.snapshot()
        #expect(shot.pixel(x: 20 + 150, y: 24) == .white && shot.pixel(x: 20 + 50, y: 24) != .white)
        // Right to left the first segment is at the right: Left goes on to the next one.
        f.window.traitOverrides.layoutDirection = .rightToLeft
        driver.tapKey(keysym: 0xff51)
        #expect(control.selectedSegmentIndex == 2 && changes == [2, 1, 2])
        driver.tapKey(keysym: 0xff53)
        #expect(control.selectedSegmentIndex == 1)
    }

    @Test("bad input: indices out of range are refused; removing the selected segment leaves none")
    func segmentsBadInput() {
        let f = ViewFixture()
        let control = SegmentedControl(items: ["A", "B"])
        control.selectedSegmentIndex = 5
        control.selectedSegmentIndex = -7
        control.setTitle("C", forSegmentAt: 9)
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment && f.diagnostics.count == 3)
        control.selectedSegmentIndex = 1
        control.insertSegment(withTitle: "First", at: -3)
        #expect(control.titleForSegment(at: 0) == "First" && control.selectedSegmentIndex == 2)
        control.removeSegment(at: 2)
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment && control.numberOfSegments == 2)
    }

    @Test("an activity indicator turns a step every twelfth of a second on the media clock, and hides when stopped")
    func spinner() {
        let f = ViewFixture()
        let spinner = ActivityIndicatorView(style: .large)
        f.window.rootView.addSubview(spinner)
        #expect(spinner.isHidden && !spinner.isAnimating)
        spinner.startAnimating()
        Transaction.flush()
        #expect(!spinner.isHidden && spinner.isAnimating)
        let wheel = spinner.subviews[0]
        func angle() -> Double {
            let t = f.shown(wheel, "transform") as? Transform3D ?? .identity
            return atan2(t.m12, t.m11)
        }
        f.advance(0.5 + 0.01)
        #expect(close(abs(angle()), .pi, 1e-6), "half a second: six steps, half a turn")
        f.advance(1.0 / 12)
        #expect(close(angle(), -5 * .pi / 6, 1e-6) || close(angle(), 7 * .pi / 6 - 2 * .pi, 1e-6))
        f.advance(10)
        #expect(spinner.isAnimating, "it repeats")
        spinner.stopAnimating()
        #expect(spinner.isHidden && wheel.layer.animationKeys.isEmpty)
        spinner.hidesWhenStopped = false
        #expect(!spinner.isHidden)
    }

    @Test("a stepper: a tap on + or − steps by stepValue within the range, the end's button dimmed and refusing; wraps goes round; valueChanged for the user's steps only")
    func stepperTaps() {
        let f = ViewFixture()
        let stepper = Stepper(frame: Rect(x: 20, y: 20, width: 0, height: 0))
        stepper.maximumValue = 3
        f.window.rootView.addSubview(stepper)
        Transaction.flush()
        #expect(stepper.frame.size == Stepper.size && stepper.value == 0)
        var changes: [Double] = []
        stepper.addAction(for: .valueChanged) { changes.append(($0 as! Stepper).value) }
        let driver = InputDriver(window: f.window)
        let minus = Point(x: 20 + 23, y: 36), plus = Point(x: 20 + 70, y: 36)
        let glyphs = stepper.subviews.compactMap { $0 as? Label }
        #expect(glyphs.map(\.text) == ["−", "+"])
        #expect(glyphs[0].textColor == .tertiaryLabel && glyphs[1].textColor == stepper.tintColor, "at the minimum − is dimmed")
        driver.click(at: minus)
        #expect(stepper.value == 0 && changes.isEmpty, "at the minimum − does nothing")
        for _ in 0..<4 { driver.click(at: plus) }
        #expect(stepper.value == 3 && changes == [1, 2, 3], "held at the maximum")
        #expect(glyphs[0].textColor == stepper.tintColor && glyphs[1].textColor == .tertiaryLabel, "at the maximum + is dimmed")
        driver.click(at: minus)
        #expect(stepper.value == 2 && changes == [1, 2, 3, 2])
        stepper.value = 3
        stepper.wraps = true
        driver.click(at: plus)
        #expect(stepper.value == 0 && changes.last == 0, "round to the minimum")
        stepper.stepValue = 0.5
        driver.click(at: minus)
        #expect(stepper.value == 3, "and back round")
        stepper.value = 1.5
        #expect(changes.count == 6, "set in code: no event")
        Transaction.flush()
    }

    @Test("a stepper held down repeats after half a second, then ten times a second on the media clock, and stops at the end; not continuous, one valueChanged when let go")
    func stepperAutorepeat() {
        let f = ViewFixture()
        let stepper = Stepper(frame: Rect(x: 20, y: 20, width: 0, height: 0))
        stepper.maximumValue = 6
        f.window.rootView.addSubview(stepper)
        Transaction.flush()
        var changes = 0
        stepper.addAction(for: .valueChanged) { _ in changes += 1 }
        let driver = InputDriver(window: f.window)
        driver.movePointer(to: Point(x: 90, y: 36))
        driver.press(.left)
        #expect(stepper.value == 1)
        f.advance(0.49)
        #expect(stepper.value == 1)
        f.advance(0.02)
        #expect(stepper.value == 2)
        for _ in 0..<3 { f.advance(0.1) }
        #expect(stepper.value == 5 && changes == 5)
        // Pressed, the + half is drawn darker than the − half.
        let shot = f.window.snapshot()
        #expect(shot.pixel(x: 20 + 80, y: 24) != shot.pixel(x: 20 + 14, y: 24), "the held half shows pressed")
        for _ in 0..<5 { f.advance(0.1) }
        #expect(stepper.value == 6 && changes == 6, "held at the maximum")
        driver.release(.left)
        f.advance(1)
        #expect(stepper.value == 6)

        stepper.value = 0
        stepper.isContinuous = false
        changes = 0
        driver.press(.left)
        f.advance(0.5 + 0.25)
        #expect(stepper.value == 4 && changes == 0, "not continuous: nothing while held")
        driver.release(.left)
        #expect(changes == 1)
        stepper.autorepeat = false
        driver.press(.left)
        f.advance(2)
        driver.release(.left)
        #expect(stepper.value == 5, "no repeat")
    }

    @Test("a stepper from the keyboard and to assistive technologies: Up/Down step, Home/End go to the ends; a spin button with its value, range and step, incremented as a tap would; bad values are refused with a diagnostic")
    func stepperKeysAccessibilityAndBadInput() {
        let f = ViewFixture()
        let stepper = Stepper(frame: Rect(x: 20, y: 20, width: 0, height: 0))
        stepper.stepValue = 5
        f.window.rootView.addSubview(stepper)
        Transaction.flush()
        var changes = 0
        stepper.addAction(for: .valueChanged) { _ in changes += 1 }
        #expect(stepper.becomeFirstResponder())
        let driver = InputDriver(window: f.window)
        func press(_ keysym: UInt32) { driver.tapKey(keysym: keysym) }
        press(0xff52); press(0xff52); press(0xff54)          // Up Up Down
        #expect(stepper.value == 5 && changes == 3)
        press(0xff57)                                          // End
        #expect(stepper.value == 100)
        press(0xff50)                                          // Home
        #expect(stepper.value == 0 && changes == 5)
        press(0x20)                                            // Space: nothing to press
        #expect(stepper.value == 0 && changes == 5)

        let node = AccessibilityNode.view(stepper)
        #expect(node.role == .spinButton && AtSpiMapping.role(node.role).name == "spin button")
        #expect(node.numericValue == AccessibilityNumericValue(minimum: 0, maximum: 100, current: 0, step: 5) && node.value == "0")
        #expect(node.actionNames == ["increment", "decrement"] && node.performAction(at: 0))
        #expect(stepper.value == 5 && changes == 6 && node.value == "5")
        #expect(stepper.accessibilitySetValue(42) && stepper.value == 42 && changes == 7, "set as typed into a spin button")
        #expect(stepper.accessibilitySetValue(1e6) && stepper.value == 100, "held to the range")
        stepper.value = 5
        stepper.isEnabled = false
        #expect(!node.performAction(at: 0) && stepper.value == 5, "not enabled: refused")

        let before = f.diagnostics.count
        stepper.value = .nan
        stepper.stepValue = 0
        stepper.stepValue = -.infinity
        stepper.minimumValue = 200
        stepper.maximumValue = -1
        #expect(f.diagnostics.count == before + 5)
        #expect(stepper.value == 5 && stepper.stepValue == 5 && stepper.minimumValue == 0 && stepper.maximumValue == 100)
        stepper.value = 1e9
        #expect(stepper.value == 100, "held to the range")
        stepper.minimumValue = 50
        stepper.maximumValue = 60
        #expect(stepper.value == 60, "the range narrowed around it")
    }

    /// Five pages in a 200 × 26 control at (20, 20): the dots' centres at x 88, 104, 120, 136, 152 in the window.
    private func fivePages(_ f: ViewFixture) -> PageControl {
        let control = PageControl(frame: Rect(x: 20, y: 20, width: 200, height: PageControl.height))
        control.numberOfPages = 5
        f.window.rootView.addSubview(control)
        Transaction.flush()
        return control
    }

    @Test("a page control: a tap beside the current dot goes a page on or back, a drag along the dots goes through them; the dot's colour changes in 0.2 s; valueChanged for the person's pages only")
    func pageControl() {
        let f = ViewFixture()
        let control = fivePages(f)
        var changes: [Int] = []
        control.addAction(for: .valueChanged) { changes.append(($0 as! PageControl).currentPage) }
        #expect(control.intrinsicContentSize == Size(width: 96, height: 26) && control.currentPage == 0)
        let driver = InputDriver(window: f.window)
        driver.click(at: Point(x: 140, y: 33))             // trailing side of page 0's dot
        #expect(control.currentPage == 1 && changes == [1])
        // The dot fades from grey to the label colour: half way at 0.1 s (ease in-out).
        Transaction.flush()
        f.advance(0.1)
        let middle = f.window.snapshot().pixel(x: 104, y: 33)
        #expect(middle.red > 0.25 && middle.red < 0.6, "half way between grey and black: \(middle)")
        f.advance(0.2)
        let shot = f.window.snapshot()
        #expect(shot.pixel(x: 104, y: 33).red < 0.05 && shot.pixel(x: 88, y: 33).red > 0.7, "page 1 black, page 0 grey")
        driver.click(at: Point(x: 30, y: 33))              // leading side: back
        driver.click(at: Point(x: 30, y: 33))              // at the first page: nothing
        #expect(control.currentPage == 0 && changes == [1, 0])
        driver.drag(from: Point(x: 88, y: 33), to: Point(x: 152, y: 33), steps: 8)
        #expect(control.currentPage == 4 && changes == [1, 0, 1, 2, 3, 4], "each dot passed, once")
        control.allowsContinuousInteraction = false
        driver.drag(from: Point(x: 152, y: 33), to: Point(x: 88, y: 33), steps: 8)
        #expect(control.currentPage == 3 && changes.last == 3, "without scrubbing a drag is a tap where it ends")
        control.currentPage = 1
        control.currentPage = 99
        #expect(control.currentPage == 4 && changes.count == 7, "set in code: pinned, no event")
        f.window.traitOverrides.layoutDirection = .rightToLeft
        Transaction.flush()
        f.advance(0.3)
        #expect(f.window.snapshot().pixel(x: 88, y: 33).red < 0.05, "right to left the last page's dot is at the left")
        driver.click(at: Point(x: 200, y: 33))             // right of it: back, right to left
        #expect(control.currentPage == 3)
    }

    @Test("a page control from the keyboard and to assistive technologies, hidden for a single page; bad input refused or pinned")
    func pageControlKeysAccessibilityAndBadInput() {
        let f = ViewFixture()
        let control = fivePages(f)
        var changes = 0
        control.addAction(for: .valueChanged) { _ in changes += 1 }
        #expect(control.becomeFirstResponder())
        let driver = InputDriver(window: f.window)
        func press(_ keysym: UInt32) { driver.tapKey(keysym: keysym) }
        press(0xff53); press(0xff53); press(0xff51)            // Right Right Left
        #expect(control.currentPage == 1 && changes == 3)
        press(0xff57)                                          // End
        #expect(control.currentPage == 4)
        press(0xff50)                                          // Home
        #expect(control.currentPage == 0 && changes == 5)

        let node = AccessibilityNode.view(control)
        #expect(node.role == .slider && node.value == "page 1 of 5")
        #expect(node.numericValue == AccessibilityNumericValue(minimum: 1, maximum: 5, current: 1, step: 1))
        #expect(node.actionNames == ["increment", "decrement"] && node.performAction(at: 0))
        #expect(control.currentPage == 1 && changes == 6 && node.value == "page 2 of 5")
        #expect(control.accessibilitySetValue(5) && control.currentPage == 4 && changes == 7, "page 5, as a person would go there")
        #expect(!control.accessibilitySetValue(.nan) && control.currentPage == 4)

        let before = f.diagnostics.count
        control.numberOfPages = -2
        #expect(f.diagnostics.count == before + 1 && control.numberOfPages == 5)
        control.numberOfPages = 3
        #expect(control.currentPage == 2 && changes == 7, "fewer pages: pinned to the last, no event")
        control.numberOfPages = 1
        control.hidesForSinglePage = true
        Transaction.flush()
        #expect(!control.isAccessibilityElement)
        #expect(f.window.snapshot().pixel(x: 120, y: 33) == f.window.snapshot().pixel(x: 5, y: 5), "no dot drawn")
        control.numberOfPages = 0
        #expect(control.currentPage == 0 && node.value == nil)
        driver.click(at: Point(x: 120, y: 33))
        #expect(changes == 7)
    }
}
