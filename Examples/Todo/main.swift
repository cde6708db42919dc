// A to-do list: add with the text field and the button (or Return), complete
// with the switch, delete with a swipe to the left; insertions and removals animate.
// Usage: todo [--seconds N] [--socket NAME] [--screenshot PATH]; STRATA_OFFSCREEN=DIR renders offscreen.
import Strata
import StrataTesting

@MainActor
final class TodoApp: ListDataSource {
    struct Item { var title: String; var done: Bool }

    let window = Window(title: "To do", size: Size(width: 380, height: 520))
    let field = TextField(frame: .zero)
    let add = Button(title: "Add", style: .filled)
    let list = ListView(frame: .zero)
    let summary = Label(frame: .zero)
    var items = [Item(title: "Buy oat milk", done: false), Item(title: "Water the plants", done: true),
                 Item(title: "Call the plumber", done: false), Item(title: "Read chapter 3", done: false)]

    init() {
        window.backgroundColor = .systemGray6
        let root = window.rootView
        field.placeholder = "Something to do"
        field.shouldReturn = { [unowned self] _ in addItem(); return false }
        add.addAction(for: .primaryActionTriggered) { [unowned self] _ in addItem() }
        list.dataSource = self
        list.layer.cornerRadius = 10
        list.backgroundColor = .white
        list.onDeleteRow = { [unowned self] list, row in
            items.remove(at: row)
            list.deleteRows(at: [row], animated: true)
            updateSummary()
        }
        summary.font = .systemFont(ofSize: 13)
        summary.textColor = .secondaryLabel
        summary.textAlignment = .center
        for v in [field, add, list, summary] { root.addSubview(v) }
        layout(in: window.size)
        // The window's size may change: the field and list stretch, the button keeps to the right.
        field.autoresizingMask = [.flexibleWidth]
        add.autoresizingMask = [.flexibleLeftMargin]
        list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        summary.autoresizingMask = [.flexibleWidth, .flexibleTopMargin]
        updateSummary()
    }

    func layout(in size: Size) {
        add.frame = Rect(x: size.width - 16 - add.frame.width, y: 16, width: add.frame.width, height: 34)
        field.frame = Rect(x: 16, y: 16, width: add.frame.minX - 28, height: 34)
        list.frame = Rect(x: 16, y: 66, width: size.width - 32, height: size.height - 110)
        summary.frame = Rect(x: 16, y: size.height - 36, width: size.width - 32, height: 24)
    }

    func addItem() {
        guard let title = field.text, !title.allSatisfy(\.isWhitespace) else { return }
        items.insert(Item(title: title, done: false), at: 0)
        list.insertRows(at: [0], animated: true)
        list.setContentOffset(.zero, animated: true)
        field.text = ""
        updateSummary()
    }

    func updateSummary() {
        let open = items.filter { !$0.done }.count
        summary.text = "\(open) to do, \(items.count - open) done — swipe a row left to delete it"
    }

    func numberOfRows(in list: ListView) -> Int { items.count }

    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        let item = items[row]
        cell.textLabel.text = item.title
        cell.textLabel.textColor = item.done ? .secondaryLabel : .label
        let toggle = cell.accessoryView as? Switch ?? Switch()
        toggle.removeActions(for: .valueChanged)
        toggle.isOn = item.done
        toggle.addAction(for: .valueChanged) { [unowned self, unowned cell] control in
            guard cell.row < items.count else { return }
            items[cell.row].done = (control as! Switch).isOn
            cell.textLabel.textColor = items[cell.row].done ? .secondaryLabel : .label
            updateSummary()
        }
        cell.accessoryView = toggle
    }
}

ExampleCommandLine.main(program: "todo", screenshot: "todo.png", make: { TodoApp() }) { app, headless in
    app.window.show()
    if headless { app.window.isFullscreen = true }
}
