@testable import Strata
import PixmanRender
import StrataTesting
import Testing

/// Light and dark, overrides and dynamic colours on views (rules P1, P2).
@MainActor
@Suite("Appearance: traits and dynamic colours", .isolatedLayerContext)
struct AppearanceTests {
    final class Watcher: View {
        var told: [TraitCollection?] = []
        override func traitCollectionDidChange(_ previous: TraitCollection?) { told.append(previous) }
    }

    static func pixel(_ image: RenderedImage, _ x: Int, _ y: Int) -> [UInt8] {
        let p = image.rgba8(x: x, y: y)
        return [p.r, p.g, p.b]
    }

    @Test("system colours follow the system's style on the next frame, without animating; traitCollectionDidChange gets the previous traits once")
    func systemStyle() {
        let f = ViewFixture()
        let view = Watcher(frame: Rect(x: 10, y: 10, width: 100, height: 50))
        view.backgroundColor = .secondarySystemBackground
        f.window.rootView.addSubview(view)
        Transaction.flush()
        #expect(Self.pixel(f.window.snapshot(), 50, 30) == [242, 242, 247])
        #expect(Self.pixel(f.window.snapshot(), 300, 200) == [255, 255, 255], "the window's background is the system background")
        #expect(view.traitCollection.userInterfaceStyle == .light && view.told.isEmpty)

        LayerContext.current.systemTraits.userInterfaceStyle = .dark
        let shot = f.window.snapshot()
        #expect(Self.pixel(shot, 50, 30) == [28, 28, 30])
        #expect(Self.pixel(shot, 300, 200) == [0, 0, 0])
        #expect(view.layer.animationKeys.isEmpty, "a trait change does not animate colours")
        #expect(view.told.count == 1 && view.told.first??.userInterfaceStyle == .light)
        #expect(view.backgroundColor == .secondarySystemBackground, "the view keeps the dynamic colour")
        _ = f.window.snapshot()
        #expect(view.told.count == 1, "told once per change")
    }

    @Test("an override applies to its subtree only; a subview can override back; a view moved into a dark window resolves dark")
    func overrides() {
        let f = ViewFixture()
        let outer = Watcher(frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let inner = Watcher(frame: Rect(x: 100, y: 0, width: 100, height: 100))
        let sibling = View(frame: Rect(x: 200, y: 0, width: 100, height: 100))
        for v in [outer, sibling] { v.backgroundColor = .systemBackground; f.window.rootView.addSubview(v) }
        inner.backgroundColor = .systemBackground
        outer.addSubview(inner)
        inner.traitOverrides.userInterfaceStyle = .light
        outer.overrideUserInterfaceStyle = .dark
        Transaction.flush()
        let shot = f.window.snapshot()
        #expect(Self.pixel(shot, 50, 50) == [0, 0, 0] && Self.pixel(shot, 150, 50) == [255, 255, 255] && Self.pixel(shot, 250, 50) == [255, 255, 255])
        #expect(outer.traitCollection.userInterfaceStyle == .dark && inner.traitCollection.userInterfaceStyle == .light)
        #expect(outer.told.count == 1 && inner.told.isEmpty, "inner's traits never changed: \(inner.told)")

        let darkWindow = Window(title: "dark", size: Size(width: 100, height: 100))
        darkWindow.overrideUserInterfaceStyle = .dark
        let moved = Watcher(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        moved.backgroundColor = .systemBackground
        f.window.rootView.addSubview(moved)
        darkWindow.rootView.addSubview(moved)
        #expect(moved.traitCollection.userInterfaceStyle == .dark && moved.told.count == 1)
        #expect(Self.pixel(darkWindow.snapshot(), 50, 50) == [0, 0, 0])
    }

    @Test("a colour the app then sets on the layer itself is left alone by a trait change; label text and a switch's track follow the style")
    func layerColourAndControls() {
        let f = ViewFixture()
        let view = f.addView(color: .systemBackground)
        view.layer.backgroundColor = .red
        let label = Label()
        label.text = "████"
        label.font = .systemFont(ofSize: 30)
        label.frame = Rect(x: 10, y: 100, width: 200, height: 40)
        let toggle = Switch()
        toggle.frame.origin = Point(x: 250, y: 100)
        f.window.rootView.addSubview(label)
        f.window.rootView.addSubview(toggle)
        Transaction.flush()
        func darkest(_ image: RenderedImage) -> Int {
            (12..<200).map { x in (100..<140).map { y in Int(image.rgba8(x: x, y: y).r) }.min()! }.min()!
        }
        func brightest(_ image: RenderedImage) -> Int {
            (12..<200).map { x in (100..<140).map { y in Int(image.rgba8(x: x, y: y).r) }.max()! }.max()!
        }
        let light = f.window.snapshot()
        #expect(darkest(light) < 40, "black text on white")
        #expect(Self.pixel(light, 294, 115) == [229, 229, 234], "the off track is system gray 5")
        f.window.overrideUserInterfaceStyle = .dark
        let dark = f.window.snapshot()
        #expect(brightest(dark) > 215 && Self.pixel(dark, 230, 120) == [0, 0, 0], "white text on black")
        #expect(Self.pixel(dark, 294, 115) == [44, 44, 46], "the off track is dark gray 5")
        #expect(Self.pixel(dark, 50, 40) == [255, 0, 0], "the app's own layer colour stays")
        #expect(view.backgroundColor == .red)
    }
}

/// Text that follows the person's text size (issue 25, item 3).
@MainActor
@Suite("Appearance: text size", .isolatedLayerContext)
struct DynamicTypeTests {
    @Test("preferred fonts scale with the content size category; labels and fields that adjust take the new size live and grow their stack; others keep theirs")
    func textSize() {
        let f = ViewFixture()
        #expect(Font.preferredFont(forTextStyle: .body).pointSize == 17)
        #expect(Font.preferredFont(forTextStyle: .headline).weight == .semibold)
        #expect(Font.preferredFont(forTextStyle: .body, compatibleWith: TraitCollection(preferredContentSizeCategory: .extraExtraExtraLarge)).pointSize == 23)
        #expect(Font.preferredFont(forTextStyle: .caption1, compatibleWith: TraitCollection(preferredContentSizeCategory: .accessibilityExtraExtraExtraLarge)).pointSize == 37.5)

        let adjusting = Label(), fixed = Label(), field = TextField()
        for l in [adjusting, fixed] { l.text = "Size"; l.font = .preferredFont(forTextStyle: .body) }
        adjusting.adjustsFontForContentSizeCategory = true
        field.font = .preferredFont(forTextStyle: .body)
        field.adjustsFontForContentSizeCategory = true
        let stack = StackView(arrangedSubviews: [adjusting, fixed, field])
        stack.axis = .vertical
        f.window.rootView.addSubview(stack)
        let before = stack.intrinsicContentSize.height
        let labelBefore = adjusting.intrinsicContentSize.height

        LayerContext.current.systemTraits.preferredContentSizeCategory = .extraExtraExtraLarge
        f.window.layoutIfNeeded()
        #expect(adjusting.font.pointSize == 23 && adjusting.font.textStyle == .body && field.font.pointSize == 23)
        #expect(fixed.font.pointSize == 17, "a label that does not adjust keeps its font")
        #expect(adjusting.intrinsicContentSize.height > labelBefore)
        #expect(stack.intrinsicContentSize.height > before)

        // A font with no text style stays as it is.
        adjusting.font = .systemFont(ofSize: 12)
        LayerContext.current.systemTraits.preferredContentSizeCategory = .small
        f.window.layoutIfNeeded()
        #expect(adjusting.font.pointSize == 12 && field.font.pointSize == 15)
    }
}

/// The toolkit's own motion with reduce motion on (issue 25, item 4).
@MainActor
@Suite("Appearance: reduce motion", .isolatedLayerContext)
struct ReduceMotionTests {
    func opacity(_ f: ViewFixture, _ view: View) -> Double { f.shownDouble(view, "opacity") }

    @Test("rule P4: the switch's thumb jumps while its colour still fades; the segment indicator jumps; an app's own block animation is unchanged")
    func controls() {
        let f = ViewFixture()
        LayerContext.current.systemReducesMotion = true
        #expect(Accessibility.isReduceMotionEnabled)
        let toggle = Switch(frame: Rect(x: 10, y: 10, width: 0, height: 0))
        let segments = SegmentedControl(items: ["One", "Two"])
        segments.frame = Rect(x: 10, y: 60, width: 200, height: 32)
        let own = View(frame: Rect(x: 10, y: 120, width: 20, height: 20))
        for v in [toggle, segments, own] { f.window.rootView.addSubview(v) }
        segments.selectedSegmentIndex = 0
        Transaction.flush()
        let indicator = segments.subviews.first { $0.layer.backgroundColor == .white }!
        let start = f.shownPoint(indicator).x

        toggle.setOn(true, animated: true)
        InputDriver(window: f.window).click(at: Point(x: 160, y: 76))   // the second segment
        View.animate(duration: 1) { own.center.x += 100 }
        Transaction.flush()
        f.advance(0.125)
        #expect(f.shownPoint(toggle.subviews[0]).x == 35.5, "the thumb is at its end at once")
        let green = (f.shown(toggle, "backgroundColor") as? Color)?.green ?? .nan
        #expect(green > 0.79 && green < 0.89, "the track's colour is half way from gray 5 to green: \(green)")
        #expect(f.shownPoint(indicator).x > start + 90, "the indicator jumped (a slide is a few points along by now): \(start) → \(f.shownPoint(indicator).x)")
        #expect(f.shownPoint(own).x > 20.5 && f.shownPoint(own).x < 119.5, "the app's animation runs as asked: \(f.shownPoint(own).x)")

        LayerContext.current.systemReducesMotion = false
        toggle.setOn(false, animated: true)
        Transaction.flush()
        f.advance(0.125)
        let x = f.shownPoint(toggle.subviews[0]).x
        #expect(x > 15.5 && x < 35.5, "without reduce motion the thumb slides: \(x)")
    }

    @Test("rule P4: a push and a full-screen presentation cross-fade in place instead of sliding; the view that left is opaque again")
    func transitions() {
        let f = ViewFixture()
        LayerContext.current.systemReducesMotion = true
        let log = CallLog()
        let a = Recording("A", color: .green, log: log), b = Recording("B", color: .blue, log: log)
        let nav = NavigationController(rootViewController: a)
        f.window.rootViewController = nav
        _ = f.window.snapshot()
        nav.pushViewController(b, animated: true)
        Transaction.flush()
        f.advance(0.175)
        #expect((f.shown(b.view, "transform") as? Transform3D)?.m41 == 0, "no slide")
        #expect(close(opacity(f, b.view), 0.5, 0.02) && close(opacity(f, a.view), 0.5, 0.02), "half way through the fade: \(opacity(f, b.view)), \(opacity(f, a.view))")
        f.advance(0.2)
        #expect(nav.topViewController === b && a.view.superview == nil && a.view.alpha == 1)

        let c = Recording("C", color: .red, log: log)
        c.modalPresentationStyle = .fullScreen
        b.present(c, animated: true)
        Transaction.flush()
        f.advance(0.175)
        let card = c.view.superview!
        #expect((f.shown(card, "transform") as? Transform3D)?.m42 == 0, "the card does not move")
        #expect(close(opacity(f, card), 0.5, 0.02), "it fades in: \(opacity(f, card))")
        f.advance(0.2)
        #expect(f.window.snapshot().pixel(x: 200, y: 150) == .red)
    }
}

/// Right-to-left layout (issue 25, item 5; rule P3).
@MainActor
@Suite("Appearance: right to left", .isolatedLayerContext)
struct RightToLeftTests {
    static func colored(_ color: Color) -> View {
        let v = View()
        v.backgroundColor = color
        return v
    }

    @Test("rule P3: a row of a stack view runs from the right; leading is the right side of a column; forceLeftToRight keeps a subtree as it was; the direction changes live")
    func stacks() {
        let f = ViewFixture()
        let row = StackView(arrangedSubviews: [.red, .green, .blue].map(Self.colored))
        row.distribution = .fillEqually
        row.frame = Rect(x: 0, y: 0, width: 150, height: 40)
        let column = StackView(arrangedSubviews: [Self.colored(.red)])
        column.axis = .vertical
        column.alignment = .leading
        column.frame = Rect(x: 0, y: 50, width: 150, height: 40)
        column.arrangedSubviews[0].widthAnchor.constraint(equalToConstant: 30).isActive = true   // as in UIKit: a stack arranges in constraints
        let forced = StackView(arrangedSubviews: [.red, .green].map(Self.colored))
        forced.distribution = .fillEqually
        forced.semanticContentAttribute = .forceLeftToRight
        forced.frame = Rect(x: 0, y: 100, width: 100, height: 40)
        for v in [row, column, forced] { f.window.rootView.addSubview(v) }
        f.window.layoutIfNeeded()
        #expect(row.arrangedSubviews[0].frame.minX == 0 && column.arrangedSubviews[0].frame.minX == 0)

        f.window.traitOverrides.layoutDirection = .rightToLeft
        #expect(row.effectiveUserInterfaceLayoutDirection == .rightToLeft && forced.effectiveUserInterfaceLayoutDirection == .leftToRight)
        let shot = f.window.snapshot()
        #expect(shot.pixel(x: 25, y: 20) == .blue && shot.pixel(x: 125, y: 20) == .red, "the row runs from the right")
        #expect(shot.pixel(x: 135, y: 70) == .red && shot.pixel(x: 15, y: 70) != .red, "leading is the right side")
        #expect(shot.pixel(x: 25, y: 120) == .red && shot.pixel(x: 75, y: 120) == .green, "forced left to right")
    }

    @Test("rule P3: a slider's minimum is at the right and a click at the left end is near the maximum; a switch that is on has its thumb at the left; the window frame's buttons are on the left")
    func controls() {
        let f = ViewFixture()
        f.window.traitOverrides.layoutDirection = .rightToLeft
        let slider = Slider(frame: Rect(x: 10, y: 10, width: 200, height: 30))
        slider.value = 0.25
        let toggle = Switch(frame: Rect(x: 10, y: 60, width: 0, height: 0))
        toggle.isOn = true
        let progress = ProgressView(frame: Rect(x: 10, y: 100, width: 200, height: 4))
        progress.progress = 0.25
        for v in [slider, toggle, progress] { f.window.rootView.addSubview(v) }
        f.window.layoutIfNeeded()
        let thumb = slider.subviews.last { $0.bounds.width == $0.bounds.height }!
        #expect(thumb.frame.midX > 130, "a quarter of the way from the right (left to right it is near 57): \(thumb.frame.midX)")
        let shot = f.window.snapshot()
        let tint = Color.systemBlue.light
        #expect(shot.pixel(x: 10 + 180, y: 25) == tint && shot.pixel(x: 10 + 30, y: 25) != tint, "the fill is at the right")
        InputDriver(window: f.window).click(at: Point(x: 14, y: 25))
        #expect(slider.value > 0.95, "\(slider.value)")
        #expect(toggle.subviews[0].frame.minX == 2, "on, at the left")
        #expect(shot.pixel(x: 10 + 190, y: 101) == tint && shot.pixel(x: 10 + 10, y: 101) != tint, "the progress bar grows from the right")

        let decorations = WindowDecorations(frame: Rect(x: 0, y: 0, width: 400, height: 60))
        f.window.rootView.addSubview(decorations)
        decorations.layoutIfNeeded()
        #expect(decorations.closeButton.frame.minX < 40 && decorations.minimizeButton.frame.maxX < 120)
    }

    @Test("rule P3: text with no strongly directional character (an empty field, digits, a placeholder) takes the view's direction: the caret of an empty field and its typed digits sit at the right in a right-to-left window, Latin text still starts at the left, and it changes live")
    func neutralText() {
        let f = ViewFixture()
        let field = TextField(frame: Rect(x: 10, y: 10, width: 200, height: 30))
        let digits = Label(frame: Rect(x: 10, y: 50, width: 200, height: 30))
        digits.text = "12345"
        digits.textColor = .black
        let latin = Label(frame: Rect(x: 10, y: 90, width: 200, height: 30))
        latin.text = "Hello"
        latin.textColor = .black
        for v in [field, digits, latin] { f.window.rootView.addSubview(v) }
        field.becomeFirstResponder()
        f.window.layoutIfNeeded()
        func ink(_ shot: RenderedImage, y: Int, _ xs: Range<Int>) -> Bool {
            xs.contains { x in (y - 8..<y + 8).contains { shot.rgba8(x: x, y: $0).r < 100 } }
        }
        let before = try! #require(field.caretRectInWindow)
        #expect(before.minX < 30, "left to right, the caret starts at the left: \(before)")
        var shot = f.window.snapshot()
        #expect(ink(shot, y: 65, 10..<40) && !ink(shot, y: 65, 180..<210), "digits at the left")

        f.window.traitOverrides.layoutDirection = .rightToLeft
        f.window.layoutIfNeeded()
        let after = try! #require(field.caretRectInWindow)
        #expect(after.minX > 180, "right to left, an empty field's caret is at the right: \(after)")
        InputDriver(window: f.window).type("42")
        #expect(field.text == "42")
        #expect(try! #require(field.caretRectInWindow).minX > 180, "typed digits stay at the right")
        shot = f.window.snapshot()
        #expect(ink(shot, y: 65, 180..<210) && !ink(shot, y: 65, 10..<40), "digits at the right")
        #expect(ink(shot, y: 105, 10..<40) && !ink(shot, y: 105, 180..<210), "Latin text keeps its own direction")
    }

    @Test("rule P3: right to left, a segmented control's first segment is at the right (a click at the left picks the last), a tab bar's first tab is at the right, and an alert's first of two buttons is at the right")
    func segmentsTabsAndAlerts() {
        let f = ViewFixture()
        f.window.traitOverrides.layoutDirection = .rightToLeft
        let segments = SegmentedControl(items: ["One", "Two", "Three"])
        segments.frame = Rect(x: 10, y: 10, width: 300, height: 32)
        segments.selectedSegmentIndex = 0
        f.window.rootView.addSubview(segments)
        f.window.layoutIfNeeded()
        #expect(segments.subviews.compactMap { $0 as? Label }.first { $0.text == "One" }!.frame.minX == 200, "the first segment at the right")
        InputDriver(window: f.window).click(at: Point(x: 30, y: 26))
        #expect(segments.selectedSegmentIndex == 2, "the left third is the last segment")

        let host = ViewController()
        f.window.rootViewController = host
        let alert = AlertController(title: "Sure?", message: nil, preferredStyle: .alert)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(AlertAction(title: "OK", style: .default))
        host.present(alert, animated: false)
        f.window.layoutIfNeeded()
        let alertButtons = (alert.view as! AlertView).buttons
        #expect(alertButtons[0].frame.minX > alertButtons[1].frame.minX, "the first of two at the right")

        let tabs = TabBarController()
        let first = ViewController(), second = ViewController()
        first.title = "First"
        second.title = "Second"
        tabs.viewControllers = [first, second]
        let window = Window(title: "tabs", size: Size(width: 400, height: 300))
        window.traitOverrides.layoutDirection = .rightToLeft
        window.rootViewController = tabs
        window.layoutIfNeeded()
        let buttons = tabs.tabBar.subviews.compactMap { $0 as? Button }
        let firstTab = buttons.first { $0.title(for: .normal) == "First" }, secondTab = buttons.first { $0.title(for: .normal) == "Second" }
        #expect(firstTab != nil && secondTab != nil && firstTab!.frame.minX > secondTab!.frame.minX, "the first tab at the right")
        window.close()
    }
}
