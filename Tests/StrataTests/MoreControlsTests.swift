@testable import Strata
import Glibc
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// Segmented controls and activity indicators (issue 27, item 5).
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
        driver.pressKey(keysym: 0xff51)                        // Left
        driver.releaseKey(keysym: 0xff51)
        #expect(control.selectedSegmentIndex == 1 && changes == [2, 1])
        driver.click(at: Point(x: 20 + 150, y: 36))           // the selected one again: nothing
        #expect(changes == [2, 1])
        Transaction.flush()
        f.advance(0.3)
        let shot = f.window.snapshot()
        #expect(shot.pixel(x: 20 + 150, y: 24) == .white && shot.pixel(x: 20 + 50, y: 24) != .white)
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
}
