// Every control in its states: buttons (plain, filled, pressed, disabled),
// switches, page dots, sliders, a stepper, progress bars, text fields (placeholder, text, selection,
// secure entry), a search field, a date picker, an image view with a tooltip, a list with a context menu
// (secondary click, long press, or the Menu key), an Edit pull-down button and a
// pop-up button — usable by pointer, keyboard and touch; mirrored in a
// right-to-left session.
// Usage: controls [--seconds N] [--socket NAME] [--screenshot PATH]; STRATA_OFFSCREEN=DIR renders offscreen.
import Strata
import StrataTesting

@MainActor
final class ControlsShowcase: ListDataSource {
    let window = Window(title: "Strata controls", size: Size(width: 760, height: 520))
    let fruits = ["Apples", "Bananas", "Cherries", "Dates", "Elderberries", "Figs", "Grapes", "Honeydew"]

    init() {
        window.backgroundColor = .systemGray6
        // A root view controller: the date picker's calendar is presented from it.
        let controller = ViewController()
        window.rootViewController = controller
        let root = controller.view!
        root.backgroundColor = .systemGray6
        @discardableResult
        func caption(_ text: String, _ y: Double) -> Label {
            let label = Label(frame: Rect(x: 20, y: y, width: 140, height: 30))
            label.text = text
            label.font = .systemFont(ofSize: 14, weight: .semibold)
            label.textColor = .secondaryLabel
            root.addSubview(label)
            return label
        }
        caption("Buttons", 20)
        var x = 160.0
        for (title, style, state) in [("Plain", Button.Style.plain, 0), ("Filled", .filled, 0), ("Pressed", .filled, 1), ("Disabled", .filled, 2)] {
            let button = Button(title: title, style: style)
            button.frame.origin = Point(x: x, y: 18)
            if state == 1 { button.isHighlighted = true }
            if state == 2 { button.isEnabled = false }
            button.addAction(for: .primaryActionTriggered) { _ in print("\(title) pressed") }
            root.addSubview(button)
            x += button.frame.width + 16
        }
        caption("Switches", 70)
        for (i, (on, enabled)) in [(false, true), (true, true), (true, false)].enumerated() {
            let toggle = Switch(frame: Rect(x: 160 + Double(i) * 70, y: 70, width: 0, height: 0))
            toggle.isOn = on
            toggle.isEnabled = enabled
            toggle.accessibilityLabel = "Switch \(i + 1)"
            root.addSubview(toggle)
        }
        let pages = PageControl(frame: Rect(x: 552, y: 72, width: 0, height: 0))
        pages.numberOfPages = 5
        pages.sizeToFit()
        pages.currentPage = 1
        pages.accessibilityLabel = "Pages"
        root.addSubview(pages)
        caption("Sliders", 120)
        for (i, value) in [0.25, 0.7].enumerated() {
            let slider = Slider(frame: Rect(x: 160 + Double(i) * 200, y: 120, width: 180, height: 31))
            slider.value = value
            slider.accessibilityLabel = "Slider \(i + 1)"
            if i == 1 { slider.minimumTrackTintColor = .systemOrange }
            root.addSubview(slider)
        }
        let stepper = Stepper(frame: Rect(x: 560, y: 119, width: 0, height: 0))
        stepper.maximumValue = 10
        stepper.value = 3
        stepper.accessibilityLabel = "Stepper"
        let count = Label(frame: Rect(x: 664, y: 119, width: 60, height: 32))
        count.text = "3"
        count.font = .systemFont(ofSize: 17)
        stepper.addAction(for: .valueChanged) { [unowned count] control in count.text = "\(Int((control as! Stepper).value))" }
        for v in [stepper, count] as [View] { root.addSubview(v) }
        caption("Progress", 170)
        for (i, value) in [0.3, 0.85].enumerated() {
            let bar = ProgressView(frame: Rect(x: 160 + Double(i) * 200, y: 183, width: 180, height: 4))
            bar.progress = value
            bar.accessibilityLabel = "Progress \(i + 1)"
            root.addSubview(bar)
        }
        caption("Text fields", 210)
        let empty = TextField(frame: Rect(x: 160, y: 210, width: 180, height: 34))
        empty.placeholder = "Your name"
        let filled = TextField(frame: Rect(x: 360, y: 210, width: 180, height: 34))
        filled.text = "Selected text"
        filled.accessibilityLabel = "Text"
        let secure = TextField(frame: Rect(x: 560, y: 210, width: 180, height: 34))
        secure.isSecureTextEntry = true
        secure.text = "password"
        secure.accessibilityLabel = "Password"
        for field in [empty, filled, secure] { root.addSubview(field) }
        caption("Image", 270)
        let image = ImageView(image: Self.gradient(width: 120, height: 80))
        image.frame = Rect(x: 160, y: 265, width: 120, height: 80)
        image.layer.cornerRadius = 10
        image.clipsToBounds = true
        image.accessibilityLabel = "A gradient made in code"
        root.addSubview(image)
        let listCaption = caption("List", 360)
        let list = ListView(frame: Rect(x: 160, y: 360, width: 300, height: 140))
        list.accessibilityLabeledBy = listCaption
        list.layer.cornerRadius = 10
        list.dataSource = self
        list.onSelectRow = { _, row in print("selected \(self.fruits[row])") }
        root.addSubview(list)
        // Menus: an Edit pull-down (its commands go to the focused field), a pop-up
        // button, a tooltip on the image and a context menu on the list.
        let editButton = Button(title: "Edit ▾")
        editButton.frame.origin = Point(x: 320, y: 270)
        editButton.menu = Menu(children: StandardEditAction.allCases.map(KeyCommand.standard))
        editButton.showsMenuAsPrimaryAction = true
        editButton.accessibilityLabel = "Edit"
        let size = Button(title: "")
        size.frame = Rect(x: 420, y: 270, width: 140, height: 34)
        size.accessibilityLabel = "Size"
        size.menu = Menu(children: ["Small", "Medium", "Large"].map { t in MenuAction(title: t, state: t == "Medium" ? .on : .off) { _ in print("size: \(t)") } })
        size.changesSelectionAsPrimaryAction = true
        for b in [editButton, size] { root.addSubview(b) }
        let datePicker = DatePicker(frame: Rect(x: 480, y: 360, width: 0, height: 0))
        datePicker.sizeToFit()
        datePicker.addAction(for: .valueChanged) { print("date: \(($0 as! DatePicker).date)") }
        root.addSubview(datePicker)
        let search = SearchTextField(frame: Rect(x: 580, y: 270, width: 160, height: 34))
        search.addAction(for: .editingChanged) { print("search: \(($0 as! TextField).text ?? "")") }
        root.addSubview(search)
        image.addInteraction(ToolTipInteraction(defaultToolTip: "A gradient made in code"))
        list.addInteraction(ContextMenuInteraction { [unowned self, unowned list] point in
            guard let row = list.row(at: point), fruits.indices.contains(row) else { return nil }
            let fruit = fruits[row]
            return Menu(title: fruit, children: [
                MenuAction(title: "Copy Name") { _ in Pasteboard.general.string = fruit },
                Menu(title: "Rate", options: .singleSelection, children: (1...5).map { n in
                    MenuAction(title: String(repeating: "★", count: n)) { _ in print("\(fruit): \(n) stars") }
                }),
                MenuAction(title: "Remove", attributes: .destructive) { _ in print("remove \(fruit)") },
            ])
        })
        // Right to left (a Hebrew or Arabic session: LANG=he_IL.UTF-8), the page is
        // mirrored — the controls mirror themselves (rule P3), the frames here are the app's.
        if Application.localeLayoutDirection == .rightToLeft {
            for view in root.subviews {
                view.frame.origin.x = root.bounds.width - view.frame.maxX
                (view as? Label)?.textAlignment = .right
            }
        }
        // The middle field has the focus with its last word selected.
        filled.becomeFirstResponder()
        let text = filled.text!
        filled.selectedTextRange = text.firstRange(of: "text")!
    }

    func numberOfRows(in list: ListView) -> Int { fruits.count }
    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.textLabel.text = fruits[row] }

    /// A colourful image made in code (no file needed).
    static func gradient(width: Int, height: Int) -> Image {
        var pixels: [UInt32] = []
        for y in 0..<height {
            for x in 0..<width {
                let r = UInt32(255 * x / width), g = UInt32(120 + 100 * y / height), b = UInt32(255 - 255 * x / width)
                pixels.append(0xff00_0000 | r << 16 | g << 8 | b)
            }
        }
        return Image(width: width, height: height, pixels: pixels)!
    }
}

ExampleCommandLine.main(program: "controls", screenshot: "controls.png", make: { _ in ControlsShowcase() }) { app, headless in
    app.window.show()
    if headless { app.window.isFullscreen = true }
}
