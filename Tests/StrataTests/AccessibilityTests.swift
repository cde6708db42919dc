@testable import Strata
import StrataTesting
import Testing

/// UIKit's accessibility model on Strata's views: what is an element, in what
/// order, with which role, states and actions (rules Y1–Y4), before any export.
@MainActor
@Suite("Accessibility: the element tree", .isolatedLayerContext)
struct AccessibilityTests {
    /// A small form: a heading, a row of a label and a switch, a slider, a field, a button.
    @MainActor
    struct Form {
        let f = ViewFixture()
        let heading = Label(frame: Rect(x: 20, y: 10, width: 200, height: 24))
        let wifi = Label(frame: Rect(x: 20, y: 50, width: 100, height: 30))
        let toggle = Switch(frame: Rect(x: 300, y: 48, width: 51, height: 31))
        let volume = Slider(frame: Rect(x: 20, y: 100, width: 200, height: 30))
        let name = TextField(frame: Rect(x: 20, y: 150, width: 200, height: 30))
        let add = Button(frame: Rect(x: 20, y: 200, width: 100, height: 30))
        var presses = 0

        init() {
            heading.text = "Settings"
            heading.accessibilityTraits.insert(.header)
            wifi.text = "Wi-Fi"
            name.placeholder = "Name"
            add.setTitle("Add", for: .normal)
            // Added out of reading order: the tree reads by position.
            for v in [add, name, volume, toggle, wifi, heading] as [View] { f.window.rootView.addSubview(v) }
        }

        var window: AccessibilityNode { .window(f.window) }
    }

    @Test("rule Y1: labels and controls are elements in reading order (rows from the top, each from the leading edge); plain containers are not nodes; hidden and transparent views and hidden subtrees are left out")
    func readingOrder() {
        let form = Form()
        let container = View(frame: Rect(x: 0, y: 240, width: 400, height: 40))
        let inner = Label(frame: Rect(x: 10, y: 5, width: 100, height: 30))
        inner.text = "Inside"
        container.addSubview(inner)
        form.f.window.rootView.addSubview(container)
        #expect(form.window.children.map(\.name) == ["Settings", "Wi-Fi", "", "", "Name", "Add", "Inside"])
        #expect(form.window.children.map(\.role) == [.heading, .label, .toggleButton, .slider, .textField, .button, .label])
        #expect(form.window.children.first { $0.object === inner }?.parent?.object === form.f.window, "a plain container is not a node: its element's parent is the window")

        form.wifi.isHidden = true
        form.volume.alpha = 0
        container.accessibilityElementsHidden = true
        #expect(form.window.children.map(\.name) == ["Settings", "", "Name", "Add"])
        // Right to left, a row reads from the right.
        form.f.window.traitOverrides.layoutDirection = .rightToLeft
        form.wifi.isHidden = false
        #expect(form.window.children.map(\.name).prefix(3) == ["Settings", "", "Wi-Fi"])
    }

    @Test("rule Y1: accessibilityElements replaces the subviews, views and AccessibilityElements alike; a grouping container is a node of its own with its elements as children")
    func elementsAndContainers() {
        let form = Form()
        let chart = View(frame: Rect(x: 0, y: 240, width: 400, height: 60))
        let bars = (0..<3).map { i -> AccessibilityElement in
            let bar = AccessibilityElement(accessibilityContainer: chart)
            bar.accessibilityLabel = "Bar \(i + 1)"
            bar.accessibilityValue = "\(10 * (i + 1))"
            bar.accessibilityFrameInContainerSpace = Rect(x: Double(i) * 50, y: 0, width: 40, height: 60)
            return bar
        }
        chart.accessibilityElements = bars.reversed()
        form.f.window.rootView.addSubview(chart)
        let names = form.window.children.map(\.name)
        #expect(names.suffix(3) == ["Bar 3", "Bar 2", "Bar 1"], "in the order given")
        let bar = form.window.children.last!
        #expect(bar.frame == Rect(x: 0, y: 240, width: 40, height: 60), "frame in container space, taken to the window")
        #expect(bar.value == "10" && bar.role == .label)

        chart.shouldGroupAccessibilityChildren = true
        let group = form.window.children.last!
        #expect(group.object === chart && group.role == .group)
        #expect(group.children.map(\.name) == ["Bar 3", "Bar 2", "Bar 1"])
        #expect(group.children.first?.parent?.object === chart)
    }

    @Test("rule Y2: controls' defaults — names from titles, text and placeholders; values; traits as roles and states; an app's own label and traits win")
    func defaults() {
        let form = Form()
        let toggle = AccessibilityNode.view(form.toggle)
        #expect(form.toggle.accessibilityValue == "0" && toggle.states.isSuperset(of: [.checkable, .enabled, .sensitive, .focusable]) && !toggle.states.contains(.checked))
        form.toggle.isOn = true
        #expect(form.toggle.accessibilityValue == "1" && toggle.states.contains(.checked))
        form.toggle.accessibilityLabel = "Wi-Fi"
        #expect(toggle.name == "Wi-Fi")

        form.volume.value = 0.25
        #expect(form.volume.accessibilityValue == "25%")
        #expect(AccessibilityNode.view(form.volume).numericValue == AccessibilityNumericValue(minimum: 0, maximum: 1, current: 0.25, step: 0))

        form.name.text = "Ada"
        let field = AccessibilityNode.view(form.name)
        #expect(field.name == "Name" && field.value == "Ada" && field.text == "Ada" && field.states.isSuperset(of: [.editable, .singleLine]))
        form.name.isSecureTextEntry = true
        #expect(field.role == .passwordField && field.value == "•••" && field.text == "•••" && field.textSelection == 3..<3,
                "a secure field gives bullets, never its characters")
        form.name.isSecureTextEntry = false

        form.add.isEnabled = false
        let add = AccessibilityNode.view(form.add)
        #expect(form.add.accessibilityTraits == [.button, .notEnabled])
        #expect(!add.states.contains(.enabled) && !add.states.contains(.sensitive))
        form.add.accessibilityTraits = [.link]
        #expect(add.role == .link, "set traits replace the defaults")

        let image = ImageView(image: Image(width: 4, height: 4, color: .red))
        form.f.window.rootView.addSubview(image)
        #expect(!image.isAccessibilityElement, "an image without a label is not read")
        image.accessibilityLabel = "Logo"
        #expect(image.isAccessibilityElement && AccessibilityNode.view(image).role == .image)
    }

    @Test("rule Y3: a modal view hides its siblings; frames are in window coordinates through transforms")
    func modalAndFrames() {
        let form = Form()
        let sheet = View(frame: Rect(x: 50, y: 50, width: 200, height: 100))
        let ok = Button(frame: Rect(x: 10, y: 10, width: 80, height: 30))
        ok.setTitle("OK", for: .normal)
        sheet.addSubview(ok)
        sheet.transform = AffineTransform(scaleX: 2, y: 2)
        form.f.window.rootView.addSubview(sheet)
        #expect(form.window.children.count == 7)
        sheet.accessibilityViewIsModal = true
        #expect(form.window.children.map(\.name) == ["OK"])
        // Scaled 2× about the sheet's centre (150, 100): (10, 10) in the sheet is (−50, 0) + 2 × (10, 10).
        #expect(AccessibilityNode.view(ok).frame == Rect(x: -30, y: 20, width: 160, height: 60))
    }

    @Test("rule Y4: actions go the way of the person's input — a press runs the button's action, a toggle flips the switch and sends valueChanged, increment steps a slider by a tenth; disabled elements refuse; a removed view is defunct")
    func actions() {
        let form = Form()
        var pressed = 0, changed = 0
        form.add.addAction(for: .primaryActionTriggered) { _ in pressed += 1 }
        form.toggle.addAction(for: .valueChanged) { _ in changed += 1 }
        let add = AccessibilityNode.view(form.add)
        #expect(add.actionNames == ["click"])
        #expect(add.performAction(at: 0) && pressed == 1)
        #expect(!add.performAction(at: 1), "no such action")
        form.add.isEnabled = false
        #expect(!add.performAction(at: 0) && pressed == 1, "refused while disabled")

        let toggle = AccessibilityNode.view(form.toggle)
        #expect(toggle.actionNames == ["toggle"] && toggle.performAction(at: 0))
        #expect(form.toggle.isOn && changed == 1)

        let volume = AccessibilityNode.view(form.volume)
        #expect(volume.actionNames == ["increment", "decrement"])
        form.volume.value = 0.5
        #expect(volume.performAction(at: 0) && abs(form.volume.value - 0.6) < 1e-9)
        #expect(volume.performAction(at: 1) && volume.performAction(at: 1) && abs(form.volume.value - 0.4) < 1e-9)

        let field = AccessibilityNode.view(form.name)
        #expect(field.performAction(at: 0) && form.name.isFirstResponder && field.states.contains(.focused))
        #expect(field.replaceText(0..<0, with: "Grace") && form.name.text == "Grace")
        #expect(field.replaceText(0..<5, with: "Ada") && form.name.text == "Ada")
        #expect(field.selectText(1..<2) && field.textSelection == 1..<2)

        var deleted = false
        let custom = AccessibilityCustomAction(name: "Delete") { _ in deleted = true; return true }
        form.heading.accessibilityCustomActions = [custom]
        let heading = AccessibilityNode.view(form.heading)
        #expect(heading.actionNames == ["Delete"] && heading.performAction(at: 0) && deleted)

        form.add.removeFromSuperview()
        #expect(add.states == [.defunct] && !add.performAction(at: 0))
    }

    @Test("bad input: a list of 100,000 rows counts them all but makes an element only for a row asked for — read from a cell filled off screen, not showing, the same object until its row goes; a bus that is not there is one diagnostic, and the app runs on unexported")
    func badInput() throws {
        let form = Form()
        final class Rows: ListDataSource {
            func numberOfRows(in list: ListView) -> Int { 100_000 }
            func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.textLabel.text = "Row \(row)" }
        }
        let rows = Rows()
        let list = ListView(frame: Rect(x: 0, y: 0, width: 300, height: 440))
        list.dataSource = rows
        form.f.window.rootView.addSubview(list)
        list.layoutIfNeeded()
        let node = try #require(form.window.children.first { $0.object === list })
        #expect(node.role == .list && node.rows === list && list.numberOfRows == 100_000)
        #expect(list.rowElements.isEmpty, "nothing made before an assistive technology asks")
        let far = AccessibilityNode.element(list.rowElement(50_000))
        #expect(far.name == "Row 50000" && far.role == .listItem && far.parent?.object === list)
        #expect(far.states.contains(.visible) && !far.states.contains(.showing), "a row scrolled away is not showing")
        #expect(far.frame.minY == 50_000 * list.rowHeight, "where the row would be, in window coordinates")
        #expect(AccessibilityNode.element(list.rowElement(0)).states.contains(.showing))
        #expect(list.rowElements.count == 2 && list.cellsMade < 20, "\(list.cellsMade) cells")
        #expect(list.rowElement(50_000) === far.object, "asked again, the same element")

        // (The watcher the app would make, made here: the app's own is another test's.)
        var watcher: AccessibilityStatusWatcher?
        let diagnostics = Diagnostics.recording { watcher = AccessibilityStatusWatcher(address: "unix:path=/nonexistent/strata-bus") }
        #expect(watcher == nil)
        #expect(diagnostics.count == 1 && "\(diagnostics)".contains("accessibility"), "\(diagnostics)")
    }

    @Test("rule Y2, Y4: a list's rows are list items selected with the row; a tap, an activation and Return select (onSelectRow), the keyboard moves a focused row; Space toggles a row's switch, Delete asks to delete the row; a deleted row's element is defunct and the rows below keep theirs")
    func listRows() throws {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        final class Items: ListDataSource {
            var titles = (0..<30).map { "Item \($0)" }
            var done = Set<Int>()
            func numberOfRows(in list: ListView) -> Int { titles.count }
            func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) {
                cell.textLabel.text = titles[row]
                let toggle = cell.accessoryView as? Switch ?? Switch()
                toggle.removeActions(for: .valueChanged)
                toggle.isOn = done.contains(row)
                toggle.addAction(for: .valueChanged) { [unowned self, unowned cell] c in
                    if (c as! Switch).isOn { done.insert(cell.row) } else { done.remove(cell.row) }
                }
                cell.accessoryView = toggle
            }
        }
        let items = Items()
        let field = TextField(frame: Rect(x: 10, y: 10, width: 200, height: 30))
        let list = ListView(frame: Rect(x: 0, y: 50, width: 320, height: 220))
        list.dataSource = items
        var selected: [Int] = [], deleted: [Int] = []
        list.onSelectRow = { selected.append($1) }
        list.onDeleteRow = { list, row in
            deleted.append(row)
            items.titles.remove(at: row)
            list.deleteRows(at: [row], animated: false)
        }
        let after = Button(title: "After")
        after.frame = Rect(x: 10, y: 280, width: 100, height: 30)
        for v in [field, list, after] as [View] { f.window.rootView.addSubview(v) }
        Transaction.flush()

        // A tap selects, and the selection stays.
        driver.click(at: Point(x: 60, y: 50 + 44 + 20))
        #expect(selected == [1] && list.selectedRows == [1])
        let one = AccessibilityNode.element(list.rowElement(1))
        #expect(one.states.contains(.selected) && one.states.contains(.selectable) && !one.states.contains(.checked))
        #expect(list.cellForRow(at: 1)?.isSelected == true)
        // An activation selects the row it names, the other is deselected.
        #expect(AccessibilityNode.element(list.rowElement(2)).performAction(at: 0))
        #expect(selected == [1, 2] && list.selectedRows == [2] && !one.states.contains(.selected))

        // Tab: the field, the list (once: its rows' switches are not stops), the button.
        field.becomeFirstResponder()
        driver.pressKey(keysym: Key.tab); driver.releaseKey(keysym: Key.tab)
        #expect(list.isFirstResponder && list.focusedRow == 2, "the focus starts on the selected row")
        #expect(AccessibilityNode.element(list.rowElement(2)).states.contains(.focused))
        for key: UInt32 in [0xff54, 0xff54, 0xff52] { driver.pressKey(keysym: key); driver.releaseKey(keysym: key) }   // Down Down Up
        #expect(list.focusedRow == 3 && list.cellForRow(at: 3)?.showsFocus == true && list.cellForRow(at: 2)?.showsFocus == false)
        driver.pressKey(keysym: 0x20); driver.releaseKey(keysym: 0x20)   // Space: the row's switch
        #expect(items.done == [3] && AccessibilityNode.element(list.rowElement(3)).states.contains(.checked))
        driver.pressKey(keysym: 0xff0d); driver.releaseKey(keysym: 0xff0d)   // Return: select
        #expect(selected.last == 3 && list.selectedRows == [3])
        driver.pressKey(keysym: 0xff57); driver.releaseKey(keysym: 0xff57)   // End: the last row, scrolled to
        #expect(list.focusedRow == 29 && list.cellForRow(at: 29) != nil)
        #expect(AccessibilityNode.element(list.rowElement(29)).states.contains(.showing))
        driver.pressKey(keysym: Key.tab); driver.releaseKey(keysym: Key.tab)
        #expect(after.isFirstResponder, "one Tab leaves the list")

        // Delete from the keyboard, then as an assistive technology: the rows below keep their elements.
        let five = list.rowElement(5), six = list.rowElement(6)
        list.scrollToRow(5, animated: false)
        list.becomeFirstResponder()
        driver.pressKey(keysym: 0xff50); driver.releaseKey(keysym: 0xff50)   // Home
        for _ in 0..<5 { driver.pressKey(keysym: 0xff54); driver.releaseKey(keysym: 0xff54) }
        driver.pressKey(keysym: 0xffff); driver.releaseKey(keysym: 0xffff)   // Delete
        #expect(deleted == [5] && items.titles.count == 29)
        #expect(AccessibilityNode.element(five).states == [.defunct] && six.row == 5)
        #expect(AccessibilityNode.element(six).name == "Item 6")
        let seven = AccessibilityNode.element(list.rowElement(6))
        #expect(seven.actionNames == ["click", "toggle", "Delete"] && seven.performAction(at: 2))
        #expect(deleted == [5, 6] && items.titles[6] == "Item 8")

        // No selection: a tap and an activation select nothing.
        list.allowsSelection = false
        #expect(list.selectedRows.isEmpty && !AccessibilityNode.element(list.rowElement(0)).performAction(at: 0))
    }

    @Test("rule Y2: an open menu is a popup window listed after its window, holding a menu of menu items — named by their titles, the chosen one selected, a disabled one not enabled, the highlighted one focused; activating an item chooses it")
    func menus() throws {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        var chosen: [String] = []
        let pull = Button(title: "Size")
        pull.frame = Rect(x: 20, y: 20, width: 80, height: 32)
        pull.menu = Menu(children: [MenuAction(title: "Small") { _ in chosen.append("Small") },
                                    MenuAction(title: "Medium", state: .on) { _ in chosen.append("Medium") },
                                    MenuAction(title: "Large", attributes: .disabled) { _ in chosen.append("Large") }])
        pull.showsMenuAsPrimaryAction = true
        f.window.rootView.addSubview(pull)
        Transaction.flush()
        let button = AccessibilityNode.view(pull)
        #expect(button.states.isSuperset(of: [.expandable, .hasPopup, .collapsed]) && !button.states.contains(.expanded))
        driver.click(at: Point(x: 60, y: 36))
        #expect(button.states.isSuperset(of: [.expandable, .expanded]) && !button.states.contains(.collapsed), "expanded while its menu is open")
        let popup = try #require(f.window.popupWindows.first)
        let window = AccessibilityNode.window(popup)
        #expect(window.role == .popupWindow)
        let menu = try #require(window.children.first)
        #expect(menu.role == .menu)
        let items = menu.children
        #expect(items.map(\.name) == ["Small", "Medium", "Large"] && items.allSatisfy { $0.role == .menuItem })
        #expect(items[1].states.contains(.selected) && !items[0].states.contains(.selected))
        #expect(!items[2].states.contains(.enabled) && items[0].states.contains(.enabled))
        #expect(items[0].parent?.object === menu.object)
        #expect(items[0].frame.width > 0 && items[0].frame.height == MenuView.rowHeight)
        driver.pressKey(keysym: 0xff54)   // Down: the first item
        driver.releaseKey(keysym: 0xff54)
        #expect(items[0].states.contains(.focused) && !items[1].states.contains(.focused))
        #expect(!items[2].performAction(at: 0), "a disabled item refuses")
        #expect(items[0].actionNames == ["click"] && items[0].performAction(at: 0))
        Transaction.flush()
        #expect(chosen == ["Small"])
    }

    @Test("Text geometry: a character's extents lie inside its label, after the ones before it (right to left: before them on screen); the offset at a character's middle is that character; a point outside the text is no character")
    func characterExtents() throws {
        let f = ViewFixture()
        let label = Label(frame: Rect(x: 40, y: 30, width: 300, height: 40))
        label.text = "Hello world"
        let hebrew = Label(frame: Rect(x: 40, y: 90, width: 300, height: 40))
        hebrew.text = "שלום עולם"
        for v in [label, hebrew] { f.window.rootView.addSubview(v) }
        let node = AccessibilityNode.view(label)
        let h = node.textExtents(0..<1), w = node.textExtents(6..<7), world = node.textExtents(6..<11)
        #expect(h.minX >= 40 && h.width > 2 && h.width < 20 && h.minY >= 30 && h.maxY <= 70, "\(h)")
        #expect(w.minX > h.maxX && world.minX == w.minX && world.width > w.width * 3, "\(w) \(world)")
        #expect(node.textOffset(at: Point(x: w.midX, y: w.midY)) == 6 && node.textOffset(at: Point(x: h.midX, y: h.midY)) == 0)
        #expect(node.textOffset(at: Point(x: 5, y: 5)) == nil)
        #expect(node.textExtents(11..<11).width == 0 && node.textExtents(11..<11).minX >= world.maxX - 1, "the caret's place after the text")
        let rtl = AccessibilityNode.view(hebrew)
        #expect(rtl.textExtents(0..<1).minX > rtl.textExtents(5..<6).minX, "the first letter of a right-to-left text is on the right")
        #expect(rtl.textOffset(at: Point(x: rtl.textExtents(2..<3).midX, y: rtl.textExtents(2..<3).midY)) == 2)
    }

    @Test("rule Y2: a tooltip describes its view (its hint, unless the tooltip only repeats the name); a shown tooltip is a tool tip window holding its text")
    func toolTips() throws {
        let f = ViewFixture()
        let driver = InputDriver(window: f.window)
        let save = Button(title: "Save")
        save.frame = Rect(x: 50, y: 50, width: 120, height: 40)
        save.addInteraction(ToolTipInteraction(defaultToolTip: "Saves the file"))
        let picture = ImageView(image: nil)
        picture.frame = Rect(x: 50, y: 120, width: 80, height: 80)
        picture.accessibilityLabel = "A gradient"
        picture.addInteraction(ToolTipInteraction(defaultToolTip: "A gradient"))
        for v in [save, picture] as [View] { f.window.rootView.addSubview(v) }
        #expect(AccessibilityNode.view(save).hint == "Saves the file")
        #expect(AccessibilityNode.view(picture).hint == "", "a tooltip that says the name again is not said twice")
        save.accessibilityHint = "Keeps your work"
        #expect(AccessibilityNode.view(save).hint == "Keeps your work", "the app's own hint wins")
        driver.movePointer(to: Point(x: 100, y: 70))
        f.advance(0.8)
        let tip = try #require(f.window.popupWindows.first)
        let node = AccessibilityNode.window(tip)
        #expect(node.role == .toolTip && AtSpiMapping.role(node.role).name == "tool tip")
        #expect(node.children.map(\.name) == ["Saves the file"])
    }

    @Test("rule Y2: a view labelled by another takes its text as its name unless it has its own; the two are related both ways (labelled-by, label-for); a list that allows several selected rows is multiselectable")
    func labelsAndRelations() {
        let form = Form()
        let toggle = AccessibilityNode.view(form.toggle)
        #expect(toggle.name == "" && toggle.relations.isEmpty)
        form.toggle.accessibilityLabeledBy = form.wifi
        #expect(toggle.name == "Wi-Fi")
        #expect(toggle.relations.map(\.type) == [AtSpiMapping.labelledBy] && toggle.relations.first?.targets.first?.object === form.wifi)
        let label = AccessibilityNode.view(form.wifi)
        #expect(label.relations.map(\.type) == [AtSpiMapping.labelFor] && label.relations.first?.targets.map(\.object).first === form.toggle)
        form.wifi.text = "Wireless"
        #expect(toggle.name == "Wireless", "the label's text as it is now")
        form.toggle.accessibilityLabel = "Radio"
        #expect(toggle.name == "Radio", "its own label wins")
        form.toggle.accessibilityLabeledBy = form.heading
        #expect(label.relations.isEmpty && AccessibilityNode.view(form.heading).relations.first?.targets.first?.object === form.toggle)
        form.toggle.accessibilityLabeledBy = nil
        #expect(toggle.relations.isEmpty && AccessibilityNode.view(form.heading).relations.isEmpty)

        let list = ListView(frame: Rect(x: 0, y: 300, width: 200, height: 100))
        form.f.window.rootView.addSubview(list)
        #expect(!AccessibilityNode.view(list).states.contains(.multiSelectable))
        list.allowsMultipleSelection = true
        #expect(AccessibilityNode.view(list).states.contains(.multiSelectable))
    }

    @Test("rule Y2: a segmented control is a group of buttons, one a segment, the chosen one selected; activating one selects it and sends valueChanged")
    func segments() {
        let form = Form()
        let control = SegmentedControl(items: ["Day", "Week", "Month"])
        control.frame = Rect(x: 20, y: 240, width: 240, height: 32)
        control.selectedSegmentIndex = 0
        var changed = 0
        control.addAction(for: .valueChanged) { _ in changed += 1 }
        form.f.window.rootView.addSubview(control)
        let group = try! #require(form.window.children.first { $0.object === control })
        #expect(group.role == .group)
        let segments = group.children
        #expect(segments.map(\.name) == ["Day", "Week", "Month"] && segments.allSatisfy { $0.role == .button })
        #expect(segments[0].states.contains(.selected) && !segments[1].states.contains(.selected))
        #expect(segments[1].frame == Rect(x: 100, y: 240, width: 80, height: 32))
        #expect(segments[2].performAction(at: 0) && control.selectedSegmentIndex == 2 && changed == 1)
        #expect(segments[2].states.contains(.selected))
        control.isEnabled = false
        #expect(!segments[1].performAction(at: 0) && control.selectedSegmentIndex == 2)
    }

    @Test("rule Y2: a tab bar is a list of tabs, the selected one selected, a badge as its tab's value; activating a tab selects it")
    func tabBar() throws {
        let f = ViewFixture()
        let mail = ViewController(), notes = ViewController()
        mail.title = "Mail"
        notes.title = "Notes"
        let tabs = TabBarController()
        tabs.viewControllers = [mail, notes]
        f.window.rootViewController = tabs
        notes.tabBarItem.badgeValue = "3"
        _ = f.window.snapshot()
        let bar = try #require(AccessibilityNode.window(f.window).children.first { $0.object === tabs.tabBar })
        #expect(bar.role == .tabList)
        #expect(bar.children.map(\.name) == ["Mail", "Notes"] && bar.children.allSatisfy { $0.role == .tab })
        #expect(bar.children[0].states.contains(.selected) && !bar.children[1].states.contains(.selected))
        #expect(bar.children[1].value == "3")
        #expect(bar.children[1].performAction(at: 0) && tabs.selectedIndex == 1)
        #expect(bar.children[1].states.contains(.selected))
    }
}
