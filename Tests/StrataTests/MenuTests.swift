@testable import Strata
import PixmanRender
import StrataTesting
import Testing
import WaylandClient

/// Context menus offscreen (issue 23, items 1–3; rules M1–M4): placed by the
/// positioner's rules inside the window, drawn into its snapshot, chosen by
/// pointer and keyboard.
@MainActor
@Suite("Menus", .isolatedLayerContext)
struct MenuTests {
    static let menuBackground = Color(rgba8: 250, 250, 252)

    /// A window filled with a view that has a context menu of `children`, and what ran.
    @MainActor
    final class Setup {
        let f = ViewFixture(size: Size(width: 400, height: 300))
        let target = View(frame: Rect(x: 0, y: 0, width: 400, height: 300))
        private let make: ((Setup) -> [MenuElement])?
        lazy var interaction = ContextMenuInteraction { [unowned self] p in
            asked.append(p)
            return Menu(children: make?(self) ?? ["Cut", "Copy", "Paste"].map { t in MenuAction(title: t) { [unowned self] _ in ran.append(t) } })
        }
        let driver: InputDriver
        var ran: [String] = []
        var asked: [Point] = []

        init(_ make: ((Setup) -> [MenuElement])? = nil) {
            self.make = make
            driver = InputDriver(window: f.window)
            target.backgroundColor = .white
            target.addInteraction(interaction)
            f.window.rootView.addSubview(target)
            Transaction.flush()
        }

        func rightClick(at p: Point) {
            driver.movePointer(to: p)
            driver.press(.right)
            driver.release(.right)
            Transaction.flush()
        }

        func key(_ keysym: UInt32) {
            driver.pressKey(keysym: keysym)
            driver.releaseKey(keysym: keysym)
            Transaction.flush()
        }

        var popups: [Popup] { f.window.popupsInStackingOrder }
        func settle() {
            Transaction.flush()
            f.advance(0.3)
            Transaction.flush()
        }
    }

    @Test("a secondary click opens the menu with its corner at the pointer, drawn into the window's snapshot after its fade in")
    func opensAtPointer() throws {
        let s = Setup()
        s.rightClick(at: Point(x: 100, y: 80))
        #expect(s.interaction.isMenuVisible && s.asked == [Point(x: 100, y: 80)])
        let popup = try #require(s.popups.first)
        #expect(popup.frame.origin == Point(x: 100, y: 80))
        #expect(popup.frame.height == 5 + 3 * 28 + 5 && popup.frame.width >= 160)
        #expect(s.f.window.snapshot().pixel(x: 250, y: 99) == .white, "it fades in: nothing yet at its first frame")
        s.settle()
        let shot = s.f.window.snapshot()
        #expect(shot.pixel(x: 100 + Int(popup.frame.width) - 4, y: 99) == Self.menuBackground)
        #expect(shot.pixel(x: 99, y: 99) == .white && shot.pixel(x: 250, y: 78) == .white, "nothing outside it")
        #expect(s.ran.isEmpty)
    }

    @Test("keyboard: Down moves (wrapping), Return chooses; the handler runs once as the menu begins to close, and the menu goes after its fade")
    func keyboardChooses() throws {
        let s = Setup()
        s.rightClick(at: Point(x: 100, y: 80))
        s.settle()
        for _ in 0..<5 { s.key(0xff54) }                 // Down ×5: Cut, Copy, Paste, Cut, Copy
        let shot = s.f.window.snapshot()
        #expect(shot.pixel(x: 110, y: 85 + 28 + 14) == Color.systemBlue.light, "the second row is highlighted")
        #expect(shot.pixel(x: 110, y: 85 + 14) == Self.menuBackground)
        s.key(0xff0d)                                     // Return
        #expect(s.ran == ["Copy"])
        s.key(0xff54)
        #expect(s.f.window.snapshot().pixel(x: 110, y: 85 + 28 + 14) == Color.systemBlue.light, "closing: input to it is over")
        s.settle()
        #expect(s.popups.isEmpty && !s.interaction.isMenuVisible && s.f.window.snapshot().pixel(x: 250, y: 99) == .white)
        s.key(0xff0d)
        #expect(s.ran == ["Copy"], "once")
    }

    @Test("pointer: hovering highlights, a click chooses; a click outside closes the menu and reaches nothing behind it")
    func pointerChoosesAndOutsideDismisses() throws {
        let s = Setup()
        var taps = 0
        s.target.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        s.rightClick(at: Point(x: 100, y: 80))
        s.settle()
        s.driver.movePointer(to: Point(x: 150, y: 85 + 2 * 28 + 10))
        Transaction.flush()
        #expect(s.f.window.snapshot().pixel(x: 110, y: 85 + 2 * 28 + 14) == Color.systemBlue.light)
        s.driver.click(at: Point(x: 150, y: 85 + 2 * 28 + 10))
        #expect(s.ran == ["Paste"])
        s.settle()
        s.rightClick(at: Point(x: 100, y: 80))
        s.settle()
        s.driver.click(at: Point(x: 20, y: 250))
        s.settle()
        #expect(s.popups.isEmpty && !s.interaction.isMenuVisible && taps == 0 && s.ran == ["Paste"])
        s.driver.click(at: Point(x: 20, y: 250))
        #expect(taps == 1, "with no menu the click is the view's")
    }

    @Test("near the window's corner the menu flips to the pointer's other side (offscreen the window is the screen)")
    func flipsAtEdge() throws {
        let s = Setup()
        s.rightClick(at: Point(x: 380, y: 280))
        let popup = try #require(s.popups.first)
        #expect(popup.frame.maxX == 381 && popup.frame.maxY == 281, "\(popup.frame)")
        s.settle()
        #expect(s.f.window.snapshot().pixel(x: 378, y: 278 - 10) == Self.menuBackground)
    }

    @Test("submenus: Right opens one beside its row with its first item highlighted, Left or Escape closes it, Escape on the first level closes the menu")
    func submenus() throws {
        let s = Setup { s in
            [MenuAction(title: "Open") { _ in s.ran.append("Open") },
             Menu(title: "Share", children: [MenuAction(title: "Mail") { _ in s.ran.append("Mail") },
                                             MenuAction(title: "Print") { _ in s.ran.append("Print") }])]
        }
        s.rightClick(at: Point(x: 40, y: 40))
        s.settle()
        s.key(0xff54); s.key(0xff54)                    // Down to "Share"
        s.key(0xff53)                                     // Right
        #expect(s.popups.count == 2)
        let sub = s.popups[1], top = s.popups[0]
        #expect(sub.window.originInTopWindow.x == top.frame.maxX, "beside the row: \(sub.window.originInTopWindow) \(top.frame)")
        #expect(sub.window.originInTopWindow.y == top.frame.minY + 28, "its first item level with the row")
        s.key(0xff54)                                     // Down in the submenu: Print
        s.key(0xff51)                                     // Left: closes it
        #expect(s.popups.count == 1)
        s.key(0xff53)                                     // Right again
        s.key(0xff54)
        s.key(0xff0d)
        #expect(s.ran == ["Print"])
        s.settle()
        #expect(s.popups.isEmpty)
        s.rightClick(at: Point(x: 40, y: 40))
        s.settle()
        s.key(0xff54); s.key(0xff54); s.key(0xff53)
        s.key(0xff1b)                                     // Escape: the submenu closes (rule M3)
        #expect(s.popups.count == 1)
        s.key(0xff1b)                                     // and again: the menu
        s.settle()
        #expect(s.popups.isEmpty && s.ran == ["Print"])
    }

    @Test("rule P3: right to left, a menu opens leftwards from the pointer with its checkmark at the right, submenus open to the left with Left, Right closes them; a menu takes the traits of the view it opened for (dark)")
    func rightToLeftAndTraits() throws {
        let s = Setup { s in
            [MenuAction(title: "Open", state: .on) { _ in s.ran.append("Open") },
             Menu(title: "Share", children: [MenuAction(title: "Mail") { _ in s.ran.append("Mail") }])]
        }
        s.f.window.traitOverrides.layoutDirection = .rightToLeft
        s.rightClick(at: Point(x: 380, y: 40))
        s.settle()
        let top = try #require(s.popups.first)
        // Mirrored about the pointer's pixel (left to right its left edge is at 380, right to left its right edge at 381).
        #expect(top.frame.maxX == 381 && top.frame.minY == 40, "leftwards from the pointer: \(top.frame)")
        var shot = s.f.window.snapshot()
        let checkRow = 40 + 5 + 14
        let checkInk = (Int(top.frame.maxX) - 30..<Int(top.frame.maxX) - 4).contains { x in shot.rgba8(x: x, y: checkRow).r < 120 }
        #expect(checkInk, "the checkmark at the right")
        #expect(!(Int(top.frame.minX) + 4..<Int(top.frame.minX) + 26).contains { x in shot.rgba8(x: x, y: checkRow).r < 120 })
        s.key(0xff54); s.key(0xff54)                    // Down to "Share"
        s.key(0xff51)                                     // Left: opens it, to the left
        #expect(s.popups.count == 2)
        let sub = s.popups[1]
        #expect(sub.window.originInTopWindow.x + sub.frame.width == top.frame.minX, "beside the row, to its left: \(sub.window.originInTopWindow) \(top.frame)")
        s.key(0xff53)                                     // Right: closes it
        #expect(s.popups.count == 1)
        s.key(0xff1b)
        s.settle()

        // A view forced dark: its menu is dark too.
        s.f.window.traitOverrides.layoutDirection = .leftToRight
        s.target.overrideUserInterfaceStyle = .dark
        s.rightClick(at: Point(x: 100, y: 80))
        s.settle()
        shot = s.f.window.snapshot()
        let inside = shot.rgba8(x: 100 + 150, y: 80 + 3)
        #expect(inside.r < 80 && inside.g < 80, "a dark menu over the dark view's window: \(inside)")
    }

    @Test("single selection, disabled and hidden items, type-ahead, inline groups with separators, shortcuts")
    func itemsAndGroups() throws {
        let sizes = ["Small", "Medium", "Large"].map { t in MenuAction(title: t, state: t == "Medium" ? .on : .off) { _ in } }
        let s = Setup { s in
            [Menu(options: [.displayInline, .singleSelection], children: sizes),
             MenuAction(title: "Disabled", attributes: .disabled) { _ in s.ran.append("Disabled") },
             MenuAction(title: "Hidden", attributes: .hidden) { _ in s.ran.append("Hidden") },
             MenuAction(title: "Delete", attributes: .destructive) { _ in s.ran.append("Delete") },
             KeyCommand(title: "Undo", input: "z", modifierFlags: .control) { _ in s.ran.append("Undo") }]
        }
        s.rightClick(at: Point(x: 10, y: 10))
        let view = try #require(s.popups.first?.window.rootView.subviews.first as? MenuView)
        #expect(view.rows.count == 3 + 1 + 3, "three sizes, a separator, Disabled, Delete, Undo; Hidden left out")
        s.key(0xff54); s.key(0xff54)                      // Down, Down: Medium
        s.key(0xff0d)
        #expect(sizes.map(\.state) == [.off, .on, .off])
        s.settle()
        s.rightClick(at: Point(x: 10, y: 10))
        s.settle()
        s.key(0xff50)                                      // Home: Small
        s.key(0xff52)                                      // Up wraps to the last: Undo
        s.key(0xff52)                                      // Up: Delete (Disabled is skipped on the way down and up)
        s.key(0xff52)
        let shot = s.f.window.snapshot()
        #expect(shot.pixel(x: 14, y: 85) == Color.systemBlue.light && shot.pixel(x: 14, y: 122) != Color.systemBlue.light, "on Large: Disabled skipped")
        s.driver.type("l")                                 // type-ahead: Large
        s.key(0xff0d)
        #expect(sizes.map(\.state) == [.off, .off, .on] && s.ran.isEmpty)
        s.settle()
        s.rightClick(at: Point(x: 10, y: 10))
        s.settle()
        s.key(0xff57)                                      // End: Undo
        s.key(0xff0d)
        #expect(s.ran == ["Undo"])
    }

    @Test("the Menu key and Shift+F10 open the focused view's menu under it; a long press of a finger opens it at the finger")
    func keyboardAndTouchOpen() throws {
        let s = Setup()
        let field = TextField(frame: Rect(x: 50, y: 40, width: 120, height: 30))
        s.target.addSubview(field)
        Transaction.flush()
        #expect(field.becomeFirstResponder())
        s.key(Key.menu)
        let popup = try #require(s.popups.first)
        #expect(popup.frame.origin == Point(x: 0, y: 300 - popup.frame.height),
                "under the view that has the menu (it fills the window: slid up inside it): \(popup.frame)")
        s.key(Key.escape)
        s.settle()
        #expect(s.popups.isEmpty && field.isFirstResponder, "focus comes back to the field")
        let shift: UInt32 = 0xffe1
        s.driver.pressKey(keysym: shift)
        s.key(Key.f10)
        s.driver.releaseKey(keysym: shift)
        #expect(s.popups.count == 1)
        s.key(Key.escape)
        s.settle()
        s.driver.touchDown(1, at: Point(x: 200, y: 100))
        s.f.advance(0.6)
        Transaction.flush()
        #expect(s.popups.first?.frame.origin == Point(x: 200, y: 100))
        s.driver.touchUp(1)
    }

    @Test("deferred elements: a dimmed Loading row until the provider answers, then its items and a taller popup; kept when cached, asked again when not; late and second answers ignored")
    func deferred() throws {
        var completions: [@MainActor ([MenuElement]) -> Void] = []
        var asked = 0
        let cached = DeferredMenuElement { done in asked += 1; completions.append(done) }
        let s = Setup { s in [MenuAction(title: "First") { _ in s.ran.append("First") }, cached] }
        s.rightClick(at: Point(x: 10, y: 10))
        let popup = try #require(s.popups.first)
        let view = try #require(popup.window.rootView.subviews.first as? MenuView)
        #expect(view.rows.count == 2 && !view.isChoosable(1) && popup.frame.height == 5 + 2 * 28 + 5 && asked == 1)
        s.settle()
        s.key(0xff54); s.key(0xff54)                        // Down, Down: Loading is skipped, back to First
        #expect(s.f.window.snapshot().pixel(x: 14, y: 10 + 5 + 14) == Color.systemBlue.light)
        completions[0]([MenuAction(title: "Later A") { _ in s.ran.append("A") }, MenuAction(title: "Later B") { _ in s.ran.append("B") }])
        completions[0]([MenuAction(title: "Twice") { _ in }])
        #expect(view.rows.count == 3 && popup.frame.height == 5 + 3 * 28 + 5, "the items in its place, the popup taller")
        s.key(0xff57); s.key(0xff0d)                        // End: Later B
        #expect(s.ran == ["B"])
        s.settle()
        s.rightClick(at: Point(x: 10, y: 10))
        #expect(asked == 1 && (s.popups.first?.window.rootView.subviews.first as? MenuView)?.rows.count == 3, "cached")
        s.key(0xff1b)
        s.settle()

        var uncachedAsked = 0
        var pending: (@MainActor ([MenuElement]) -> Void)?
        let uncached = DeferredMenuElement.uncached { done in uncachedAsked += 1; pending = done }
        let u = Setup { _ in [uncached] }
        u.rightClick(at: Point(x: 10, y: 10))
        u.key(0xff1b)
        u.settle()
        pending?([MenuAction(title: "Too late") { _ in }])    // after the menu closed: ignored
        u.rightClick(at: Point(x: 10, y: 10))
        #expect(uncachedAsked == 2 && (u.popups.first?.window.rootView.subviews.first as? MenuView)?.rows.count == 1, "asked again, loading again")
    }

    @Test("bad input: an empty menu opens nothing; 10,000 items scroll with a few row views; nesting is bounded; a handler that closes the window")
    func badInput() throws {
        let empty = Setup { _ in [] }
        empty.rightClick(at: Point(x: 10, y: 10))
        #expect(empty.popups.isEmpty && !empty.interaction.isMenuVisible)

        let big = Setup { s in (0..<10_000).map { i in MenuAction(title: "Item \(i)") { _ in s.ran.append("\(i)") } } }
        big.rightClick(at: Point(x: 10, y: 10))
        let popup = try #require(big.popups.first)
        #expect(popup.frame.height <= 300, "cut to the window: \(popup.frame)")
        big.key(0xff57)                                      // End
        big.key(0xff0d)
        #expect(big.ran == ["9999"])
        let view = try #require(popup.window.rootView.subviews.first as? MenuView)
        #expect(view.subviews.filter { $0 is MenuRowView }.count < 20)

        func nested(_ depth: Int) -> Menu { Menu(title: "Level \(depth)", children: depth == 0 ? [MenuAction(title: "Leaf") { _ in }] : [nested(depth - 1)]) }
        let deep = Setup { _ in [nested(100)] }
        deep.rightClick(at: Point(x: 10, y: 10))
        deep.key(0xff54)
        for _ in 0..<100 { deep.key(0xff53) }
        #expect(deep.popups.count == MenuSession.maximumDepth)

        let closing = Setup { s in [MenuAction(title: "Close") { _ in s.f.window.close() }] }
        closing.rightClick(at: Point(x: 10, y: 10))
        closing.key(0xff54)
        closing.key(0xff0d)
        closing.settle()
        #expect(closing.popups.isEmpty && !closing.f.window.isVisible)

        let removed = Setup()
        removed.rightClick(at: Point(x: 10, y: 10))
        removed.target.removeInteraction(removed.interaction)
        removed.settle()
        #expect(removed.popups.isEmpty, "an interaction taken off its view closes its menu")
        removed.rightClick(at: Point(x: 10, y: 10))
        #expect(removed.popups.isEmpty, "and opens none")
        removed.target.addInteraction(removed.interaction)
        removed.rightClick(at: Point(x: 10, y: 10))
        #expect(removed.popups.count == 1)
        removed.target.removeFromSuperview()
        #expect(removed.popups.isEmpty && !removed.interaction.isMenuVisible, "its view left the window: the menu went with it")

        // A handler that opens another menu: the first has begun closing, the second opens.
        let again = Setup { s in [MenuAction(title: "Again") { _ in _ = s.interaction.present(at: Point(x: 50, y: 50)) }] }
        again.rightClick(at: Point(x: 10, y: 10))
        again.key(0xff54)
        again.key(0xff0d)
        again.settle()
        #expect(again.popups.count == 1 && again.popups[0].frame.origin == Point(x: 50, y: 50) && again.interaction.isMenuVisible)
    }
}

/// Buttons with menus and tooltips (issue 23, items 3 and 4).
@MainActor
@Suite("Menu buttons and tooltips", .isolatedLayerContext)
struct MenuButtonAndToolTipTests {
    @Test("a pull-down button shows its menu under it on a click (no primary action); a pop-up button shows its choice, opens with it over the button, and a choice changes it")
    func buttons() throws {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        var ran: [String] = []
        let pull = Button(title: "Actions")
        pull.frame = Rect(x: 20, y: 20, width: 100, height: 32)
        pull.menu = Menu(children: [MenuAction(title: "Rename") { _ in ran.append("Rename") }])
        pull.showsMenuAsPrimaryAction = true
        var primary = 0
        pull.addAction(for: .primaryActionTriggered) { _ in primary += 1 }
        let sizes = ["Small", "Medium", "Large"].map { t in MenuAction(title: t) { _ in ran.append(t) } }
        let popUp = Button(title: "")
        popUp.frame = Rect(x: 200, y: 100, width: 180, height: 32)
        popUp.menu = Menu(children: sizes)
        popUp.changesSelectionAsPrimaryAction = true
        #expect(popUp.currentTitle == "Small" && sizes.map(\.state) == [.on, .off, .off], "the first is chosen when none is")
        #expect(popUp.intrinsicContentSize.width > Button(title: "Small").intrinsicContentSize.width + 6, "room for the pop-up indicator")
        f.window.rootView.addSubview(pull)
        f.window.rootView.addSubview(popUp)
        Transaction.flush()

        driver.click(at: Point(x: 70, y: 36))
        #expect(pull.isMenuVisible && primary == 0)
        let menu = try #require(f.window.popupsInStackingOrder.first)
        #expect(menu.frame.origin == Point(x: 20, y: 52), "under the button: \(menu.frame)")
        for k in [0xff54, 0xff0d] as [UInt32] { driver.pressKey(keysym: k); driver.releaseKey(keysym: k) }
        #expect(ran == ["Rename"])
        Transaction.flush()
        f.advance(0.3)
        Transaction.flush()
        #expect(!pull.isMenuVisible && f.window.popupsInStackingOrder.isEmpty)

        driver.click(at: Point(x: 290, y: 116))
        let choice = try #require(f.window.popupsInStackingOrder.first)
        // Small's row over the button: the menu's top is the row's padding above it.
        #expect(choice.frame.minY == 100 + 2 - 5 && choice.frame.width == 180, "\(choice.frame)")
        for k in [0xff54, 0xff0d] as [UInt32] { driver.pressKey(keysym: k); driver.releaseKey(keysym: k) }
        #expect(ran == ["Rename", "Medium"] && sizes.map(\.state) == [.off, .on, .off] && popUp.currentTitle == "Medium")
        Transaction.flush()
        f.advance(0.3)
        Transaction.flush()
        driver.click(at: Point(x: 290, y: 116))
        let reopened = try #require(f.window.popupsInStackingOrder.first)
        #expect(reopened.frame.minY == 100 + 2 - 5 - 28, "Medium's row over the button: \(reopened.frame.minY.description)")
        driver.pressKey(keysym: Key.escape)
        driver.releaseKey(keysym: Key.escape)
        Transaction.flush()
        f.advance(0.3)
        Transaction.flush()
        driver.click(at: Point(x: 70, y: 36))
        #expect(pull.isMenuVisible)
        pull.removeFromSuperview()
        #expect(!pull.isMenuVisible && f.window.popupsInStackingOrder.isEmpty, "a button leaving its window closes its menu")
    }

    @Test("a tooltip shows after the pointer rests, under it; input passes through it; a press hides it until the pointer leaves and comes back; a key hides it")
    func toolTips() throws {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        let view = f.addView(Rect(x: 50, y: 50, width: 200, height: 100), color: .red)
        let tip = ToolTipInteraction(defaultToolTip: "Saves the file")
        view.addInteraction(tip)
        var taps = 0
        view.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        driver.movePointer(to: Point(x: 100, y: 80))
        f.advance(0.5)
        driver.movePointer(to: Point(x: 102, y: 80))           // moved: the wait starts again
        f.advance(0.69)
        #expect(!tip.isToolTipVisible)
        f.advance(0.02)
        #expect(tip.isToolTipVisible)
        let popup = try #require(f.window.popupsInStackingOrder.first)
        #expect(popup.frame.origin == Point(x: 102, y: 81 + 18) && !popup.grabsInput, "under the pointer: \(popup.frame)")
        let p = f.window.snapshot().rgba8(x: 104, y: 100)
        #expect((50...56).contains(p.r) && (35...40).contains(p.g), "the dark tip over the red view: \(p)")
        driver.movePointer(to: Point(x: 110, y: 110))           // over the tip: still the view's
        #expect(tip.isToolTipVisible)
        driver.click(at: Point(x: 110, y: 110))
        #expect(!tip.isToolTipVisible && taps == 1, "the click went through to the view and closed the tip")
        driver.movePointer(to: Point(x: 120, y: 110))
        f.advance(2)
        #expect(!tip.isToolTipVisible, "not back while the pointer stays")
        driver.movePointer(to: Point(x: 300, y: 250))
        driver.movePointer(to: Point(x: 120, y: 110))
        f.advance(0.8)
        #expect(tip.isToolTipVisible)
        driver.type("a")
        #expect(!tip.isToolTipVisible)
        tip.defaultToolTip = nil
        driver.movePointer(to: Point(x: 300, y: 250))
        driver.movePointer(to: Point(x: 120, y: 110))
        f.advance(1)
        #expect(!tip.isToolTipVisible && f.window.popupsInStackingOrder.isEmpty, "no text, no tip")
    }
}

/// Popovers (issue 23, item 5; issue 27's `.popover` style): popups pointing at their source.
@MainActor
@Suite("Popovers", .isolatedLayerContext)
struct PopoverTests {
    @Test("a popover is a popup below its source (slid inside the window), white at its size; it appears and disappears with the calls; Escape and a click outside dismiss it")
    func popover() throws {
        let f = ViewFixture(size: Size(width: 400, height: 300))
        let log = CallLog()
        let root = Recording("root", color: .systemGray6, log: log)
        f.window.rootViewController = root
        let button = Button(title: "Show")
        button.frame = Rect(x: 20, y: 20, width: 100, height: 32)
        root.view.addSubview(button)
        Transaction.flush()
        let shown = Recording("popover", color: .white, log: log)
        shown.modalPresentationStyle = .popover
        shown.preferredContentSize = Size(width: 200, height: 120)
        let popover = try #require(shown.popoverPresentationController)
        popover.sourceView = button
        _ = log.take()
        root.present(shown, animated: true)
        let popup = try #require(f.window.popupsInStackingOrder.first)
        // Centred under the button (x 70 − 100), slid in to the window's left edge;
        // 10 points taller for the arrow.
        #expect(popup.frame == Rect(x: 0, y: 52, width: 200, height: 130) && popover.arrowDirection == .up, "\(popup.frame)")
        #expect(shown.view.window === popup.window && root.presentedViewController === shown)
        Transaction.flush()
        f.advance(0.4)
        Transaction.flush()
        #expect(log.take() == ["popover.loadView", "popover.viewDidLoad", "popover.willAppear", "popover.didAppear"])
        let shot = f.window.snapshot()
        #expect(shot.pixel(x: 100, y: 140) == .white && shot.pixel(x: 250, y: 140) == Color.systemGray6.light, "the popover and the presenter, not dimmed")
        #expect(shot.pixel(x: 70, y: 59) == .white && shot.pixel(x: 55, y: 56) == Color.systemGray6.light, "the arrow points up at the button's middle")
        let driver = InputDriver(window: f.window)
        driver.pressKey(keysym: Key.escape)
        driver.releaseKey(keysym: Key.escape)
        Transaction.flush()
        f.advance(0.4)
        Transaction.flush()
        #expect(f.window.popupsInStackingOrder.isEmpty && root.presentedViewController == nil)
        #expect(log.take() == ["popover.willDisappear", "popover.didDisappear"])

        // Near the bottom there is no room below: it goes above, pointing down; a click outside dismisses it.
        button.frame = Rect(x: 150, y: 250, width: 100, height: 32)
        root.present(shown, animated: false)
        let above = try #require(f.window.popupsInStackingOrder.first)
        #expect(above.frame == Rect(x: 100, y: 120, width: 200, height: 130) && popover.arrowDirection == .down, "\(above.frame)")
        #expect(f.window.snapshot().pixel(x: 200, y: 246) == .white, "the arrow at the bottom, pointing down at the button")
        driver.click(at: Point(x: 380, y: 20))
        #expect(f.window.popupsInStackingOrder.isEmpty && root.presentedViewController == nil)
        #expect(log.take() == ["popover.willAppear", "popover.didAppear", "popover.willDisappear", "popover.didDisappear"])
    }

    @Test("keyboard: a popover takes the focus to its first control; Tab and Shift-Tab cycle inside it, never to the window behind; Escape closes it and the focus is back where it was")
    func popoverKeyboard() throws {
        let f = ViewFixture(size: Size(width: 400, height: 300))
        let root = ViewController()
        f.window.rootViewController = root
        let share = Button(title: "Share")
        share.frame = Rect(x: 20, y: 20, width: 100, height: 32)
        let other = Button(title: "Other")
        other.frame = Rect(x: 200, y: 20, width: 100, height: 32)
        for b in [share, other] { root.view.addSubview(b) }
        Transaction.flush()
        share.becomeFirstResponder()
        let content = ViewController()
        content.preferredContentSize = Size(width: 220, height: 120)
        let copy = Button(title: "Copy link")
        copy.frame = Rect(x: 16, y: 16, width: 150, height: 30)
        let include = Switch(frame: Rect(x: 16, y: 64, width: 51, height: 31))
        for v in [copy, include] as [View] { content.view.addSubview(v) }
        content.modalPresentationStyle = .popover
        content.popoverPresentationController?.sourceView = share
        root.present(content, animated: false)
        #expect(copy.isFirstResponder)
        let keys = InputDriver(window: f.window)
        func press(_ keysym: UInt32) { keys.pressKey(keysym: keysym); keys.releaseKey(keysym: keysym) }
        press(Key.tab)
        #expect(include.isFirstResponder && share.isFirstResponder, "inside the popover; the window behind keeps its own focus")
        press(Key.tab)
        #expect(copy.isFirstResponder && !other.isFirstResponder, "wrapped inside the popover")
        keys.pressKey(keysym: 0xffe1)
        press(Key.tab)
        keys.releaseKey(keysym: 0xffe1)
        #expect(include.isFirstResponder, "Shift-Tab goes back")
        press(0x20)
        #expect(include.isOn, "Space works the control the popover focused")
        press(Key.escape)
        Transaction.flush()
        f.advance(0.4)
        Transaction.flush()
        #expect(f.window.popupsInStackingOrder.isEmpty && share.isFirstResponder)
    }

    @Test("a popover follows its source when the layout moves it")
    func followsSource() throws {
        let f = ViewFixture(size: Size(width: 400, height: 300))
        let root = Recording("root", color: .systemGray6, log: CallLog())
        f.window.rootViewController = root
        let button = Button(title: "Show")
        button.frame = Rect(x: 150, y: 20, width: 100, height: 32)
        root.view.addSubview(button)
        Transaction.flush()
        let shown = Recording("popover", color: .white, log: CallLog())
        shown.modalPresentationStyle = .popover
        shown.preferredContentSize = Size(width: 100, height: 60)
        shown.popoverPresentationController?.sourceView = button
        root.present(shown, animated: false)
        let popup = try #require(f.window.popupsInStackingOrder.first)
        #expect(popup.frame.origin == Point(x: 150, y: 52))
        button.frame.origin = Point(x: 200, y: 100)
        f.window.layoutIfNeeded()
        #expect(popup.frame.origin == Point(x: 200, y: 132), "\(popup.frame)")
    }

    @Test("bad input: a popover with no source view is a form sheet, with a diagnostic; one whose source is in another window too")
    func noSource() throws {
        let f = ViewFixture(size: Size(width: 400, height: 300))
        let log = CallLog()
        let root = Recording("root", log: log)
        f.window.rootViewController = root
        Transaction.flush()
        let shown = Recording("popover", log: log)
        shown.modalPresentationStyle = .popover
        root.present(shown, animated: false)
        #expect(f.window.popupsInStackingOrder.isEmpty && shown.presentation?.style == .formSheet)
        #expect(f.diagnostics.contains { "\($0)".contains("source view") })
        root.dismiss(animated: false)
        let elsewhere = Window(title: "other", size: Size(width: 100, height: 100))
        elsewhere.show()
        shown.popoverPresentationController?.sourceView = elsewhere.rootView
        root.present(shown, animated: false)
        #expect(f.window.popupsInStackingOrder.isEmpty && elsewhere.popupsInStackingOrder.isEmpty && shown.presentation?.style == .formSheet)
    }
}

/// Dialog windows (issue 23, item 6).
@MainActor
@Suite("Dialog windows", .isolatedLayerContext)
struct DialogWindowTests {
    @Test("a modal dialog blocks its parent's presses and keys (motion passes), a plain one does not; closing the parent closes its dialogs")
    func modalOffscreen() throws {
        let f = ViewFixture()
        let button = Button(title: "Go")
        button.frame = Rect(x: 20, y: 20, width: 100, height: 40)
        var presses = 0
        button.addAction(for: .touchUpInside) { _ in presses += 1 }
        f.window.rootView.addSubview(button)
        Transaction.flush()
        let driver = InputDriver(window: f.window)
        let dialog = Window(title: "Save?", size: Size(width: 200, height: 100))
        dialog.parent = f.window
        dialog.isModal = true
        dialog.show()
        #expect(f.window.presentedModalDialog === dialog)
        driver.click(at: Point(x: 60, y: 40))
        driver.type("x")
        #expect(presses == 0 && f.window.blockedInputCount == 2, "the click and the key press refused")
        dialog.close()
        driver.click(at: Point(x: 60, y: 40))
        #expect(presses == 1 && f.window.presentedModalDialog == nil)
        dialog.isModal = false
        dialog.show()
        driver.click(at: Point(x: 60, y: 40))
        #expect(presses == 2, "a dialog that is not modal blocks nothing")
        let own = Window(title: "self", size: Size(width: 10, height: 10))
        own.parent = own
        #expect(own.parent == nil, "a window is not its own dialog")
        f.window.close()
        #expect(!dialog.isVisible, "closed with its parent")
    }
}

/// Dialog windows on compositors: run by `MenusOnCompositorsTests.withRealInput`
/// on kwin and mutter, which share one compositor each for their real-input checks.
@MainActor
enum DialogWindowCompositorTests {
    /// A dialog names its parent (`xdg_toplevel.set_parent`); while it is modal a
    /// real click on the parent presses nothing.
    static func modal(_ compositor: any Compositor, _ name: String, _ display: Display) throws {
        let parent = Window(title: "parent", size: Size(width: 300, height: 200))
        parent.backgroundColor = Color(rgba8: 0x33, 0x66, 0xcc)
        let button = Button(frame: Rect(x: 40, y: 40, width: 120, height: 40))
        button.setTitle("Press", for: .normal)
        var presses = 0
        button.addAction(for: .touchUpInside) { _ in presses += 1 }
        parent.rootView.addSubview(button)
        try MenusOnCompositorsTests.showFullscreen(parent, on: compositor)
        let driver = InputDriver(window: parent, injecting: try compositor.injectedInput())
        driver.click(at: Point(x: 100, y: 60))
        #expect(presses == 1)
        let dialog = Window(title: "dialog", size: Size(width: 200, height: 120))
        dialog.parent = parent
        dialog.isModal = true
        let traffic = try WaylandTraffic.recording {
            dialog.show()
            try MenusOnCompositorsTests.wait("the dialog's first frame") { dialog.frameNumber > 0 }
        }
        #expect(traffic.contains { $0.interface == "xdg_toplevel" && $0.name == "set_parent" })
        #expect(display.dialogManager == nil || traffic.contains { $0.name == "set_modal" },
                "set_modal where the compositor offers xdg_wm_dialog_v1")
        // The dialog may cover the button: click a part of the parent it leaves free.
        let before = parent.blockedInputCount
        parent.rootView.addSubview(button)
        button.frame = Rect(x: 10, y: 400, width: 120, height: 40)
        Transaction.flush()
        try Application.shared.loop?.turn(for: 0.3)
        driver.click(at: Point(x: 60, y: 420))
        #expect(presses == 1 && parent.blockedInputCount > before, "refused while the modal dialog is shown")
        dialog.close()
        driver.click(at: Point(x: 60, y: 420))
        #expect(presses == 2)
        #expect(driver.errors.isEmpty, "\(driver.errors)")
        parent.close()
    }
}

/// Standard edit commands in menus (issue 23, item 7; rule M6).
@MainActor
@Suite("Standard edit commands", .isolatedLayerContext)
struct StandardEditCommandTests {
    @Test("an Edit menu of standard commands shows their shortcuts, dims what the focused field cannot do, and sends the chosen one to it")
    func editMenu() throws {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        let field = TextField(frame: Rect(x: 20, y: 100, width: 200, height: 32))
        let edit = Button(title: "Edit")
        edit.frame = Rect(x: 20, y: 20, width: 80, height: 32)
        edit.menu = Menu(children: StandardEditAction.allCases.map(KeyCommand.standard))
        edit.showsMenuAsPrimaryAction = true
        f.window.rootView.addSubview(field)
        f.window.rootView.addSubview(edit)
        Transaction.flush()
        #expect(field.becomeFirstResponder())
        driver.type("hello")
        func open() throws -> MenuView {
            driver.click(at: Point(x: 60, y: 36))
            return try #require(f.window.popupsInStackingOrder.first?.window.rootView.subviews.first as? MenuView)
        }
        func choose(_ title: String, in menu: MenuView) {
            let row = menu.rows.firstIndex { if case let .item(e, _) = $0 { e.title == title } else { false } }!
            menu.session?.choose(onLevel: 0, row: row)
            Transaction.flush()
            f.advance(0.3)
            Transaction.flush()
        }
        var menu = try open()
        #expect(field.isFirstResponder, "the button took no focus")
        let enabled = (0..<menu.rows.count).filter(menu.isChoosable)
        let titles = enabled.compactMap { if case let .item(e, _) = menu.rows[$0] { e.title } else { nil } }
        #expect(titles == ["Paste", "Select All", "Undo"], "nothing selected: no Cut or Copy; nothing undone: no Redo")
        #expect(MenuRowView.trailingText(for: StandardEditAction.allCases.map(KeyCommand.standard)[5]) == "Ctrl+Shift+Z")
        choose("Select All", in: menu)
        #expect(field.selectedText == "hello")
        menu = try open()
        choose("Copy", in: menu)
        #expect(Pasteboard.general.string == "hello")
        menu = try open()
        choose("Cut", in: menu)
        #expect(field.text == "")
        menu = try open()
        choose("Undo", in: menu)
        #expect(field.text == "hello")
        field.resignFirstResponder()
        menu = try open()
        #expect((0..<menu.rows.count).filter(menu.isChoosable).isEmpty, "no focused field: every command dimmed")
    }
}
