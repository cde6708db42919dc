// A to-do list in view controllers: add with the text field and the button (or
// Return), complete with the switch, delete with a swipe to the left; a tap on a
// row pushes its details — the title, done, and notes in a text view — (swipe
// back from the left edge); "Clear done" asks first.
// Usage: todo [--seconds N] [--socket NAME] [--screenshot PATH]; STRATA_OFFSCREEN=DIR renders offscreen.
import Strata
import StrataTesting

struct TodoItem { var title: String; var done: Bool; var notes = "" }

/// The items, shared by the list and the details.
@MainActor
final class TodoStore {
    var items = [TodoItem(title: "Buy oat milk", done: false, notes: "The barista kind, two cartons.\nAsk whether the shop takes the empty bottles back."), TodoItem(title: "Water the plants", done: true),
                 TodoItem(title: "Call the plumber", done: false), TodoItem(title: "Read chapter 3", done: false)]
}

@MainActor
final class TodoListController: ViewController, ListDataSource {
    let store: TodoStore
    let field = TextField(frame: .zero)
    let add = Button(title: "Add", style: .filled)
    let list = ListView(frame: .zero)
    let summary = Label(frame: .zero)

    init(store: TodoStore) {
        self.store = store
        super.init()
        title = "To do"
        navigationItem.rightBarButtonItem = BarButtonItem(title: "Clear done") { [unowned self] _ in confirmClear() }
    }

    override func viewDidLoad() {
        view.backgroundColor = .systemGray6
        field.placeholder = "Something to do"
        field.shouldReturn = { [unowned self] _ in addItem(); return false }
        add.addAction(for: .primaryActionTriggered) { [unowned self] _ in addItem() }
        list.dataSource = self
        list.layer.cornerRadius = 10
        list.backgroundColor = .systemBackground
        list.onDeleteRow = { [unowned self] list, row in
            store.items.remove(at: row)
            list.deleteRows(at: [row], animated: true)
            updateSummary()
        }
        list.onSelectRow = { [unowned self] _, row in
            navigationController?.pushViewController(TodoDetailController(store: store, row: row) { [weak self] in self?.reload() },
                                                     animated: true)
        }
        summary.font = .systemFont(ofSize: 13)
        summary.textColor = .secondaryLabel
        summary.textAlignment = .center
        for v in [field, add, list, summary] { view.addSubview(v) }
        updateSummary()
    }

    /// Back from an item's details: its row fades from selected, as in UIKit's table view controllers.
    override func viewWillAppear(_ animated: Bool) {
        if let row = list.selectedRow { list.deselectRow(row, animated: animated) }
    }

    override func viewWillLayoutSubviews() {
        let size = view.bounds.size
        add.sizeToFit()
        add.frame = Rect(x: size.width - 16 - add.frame.width, y: 16, width: add.frame.width, height: 34)
        field.frame = Rect(x: 16, y: 16, width: add.frame.minX - 28, height: 34)
        mirrorIfRightToLeft([add, field], in: view)
        list.frame = Rect(x: 16, y: 66, width: size.width - 32, height: max(0, size.height - 110))
        summary.frame = Rect(x: 16, y: size.height - 36, width: size.width - 32, height: 24)
    }

    func addItem() {
        guard let title = field.text, !title.allSatisfy(\.isWhitespace) else { return }
        store.items.insert(TodoItem(title: title, done: false), at: 0)
        list.insertRows(at: [0], animated: true)
        list.setContentOffset(.zero, animated: true)
        field.text = ""
        updateSummary()
    }

    func reload() {
        list.reloadData()
        updateSummary()
    }

    /// Asks before the done items go.
    func confirmClear() {
        let done = store.items.filter(\.done).count
        guard done > 0 else { return }
        let alert = AlertController(title: "Clear \(done) done item\(done == 1 ? "" : "s")?", message: "They cannot be brought back.",
                                    preferredStyle: .alert)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        let clear = AlertAction(title: "Clear", style: .destructive) { [unowned self] _ in
            store.items.removeAll(where: \.done)
            reload()
        }
        alert.addAction(clear)
        alert.preferredAction = clear
        present(alert, animated: true)
    }

    func updateSummary() {
        let open = store.items.filter { !$0.done }.count
        summary.text = "\(open) to do, \(store.items.count - open) done — tap for details, swipe to delete"
    }

    func numberOfRows(in list: ListView) -> Int { store.items.count }

    func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        let item = store.items[row]
        cell.textLabel.text = item.title
        cell.textLabel.textColor = item.done ? .secondaryLabel : .label
        let toggle = cell.accessoryView as? Switch ?? Switch()
        toggle.removeActions(for: .valueChanged)
        toggle.isOn = item.done
        toggle.addAction(for: .valueChanged) { [unowned self, unowned cell] control in
            guard cell.row < store.items.count else { return }
            store.items[cell.row].done = (control as! Switch).isOn
            cell.textLabel.textColor = store.items[cell.row].done ? .secondaryLabel : .label
            updateSummary()
        }
        cell.accessoryView = toggle
    }
}

/// One item: its title to edit, whether it is done and notes of any length; "Delete" asks first.
@MainActor
final class TodoDetailController: ViewController, TextViewDelegate {
    let store: TodoStore
    let row: Int
    let changed: () -> Void
    let titleField = TextField(frame: .zero)
    let doneLabel = Label(frame: .zero)
    let doneSwitch = Switch()
    let notesLabel = Label(frame: .zero)
    let notes = TextView(frame: .zero)

    init(store: TodoStore, row: Int, changed: @escaping () -> Void) {
        self.store = store
        self.row = row
        self.changed = changed
        super.init()
        title = "Details"
        navigationItem.rightBarButtonItem = BarButtonItem(title: "Delete") { [unowned self] _ in confirmDelete() }
    }

    override func viewDidLoad() {
        view.backgroundColor = .systemGray6
        titleField.text = store.items[row].title
        titleField.addAction(for: .editingChanged) { [unowned self] _ in
            store.items[row].title = titleField.text ?? ""
            changed()
        }
        doneLabel.text = "Done"
        doneSwitch.accessibilityLabeledBy = doneLabel
        doneSwitch.isOn = store.items[row].done
        doneSwitch.addAction(for: .valueChanged) { [unowned self] _ in
            store.items[row].done = doneSwitch.isOn
            changed()
        }
        notesLabel.text = "Notes"
        notesLabel.font = .systemFont(ofSize: 13)
        notesLabel.textColor = .secondaryLabel
        notes.text = store.items[row].notes
        notes.accessibilityLabeledBy = notesLabel
        notes.layer.cornerRadius = 10
        notes.delegate = self
        for v in [titleField, doneLabel, doneSwitch, notesLabel, notes] { view.addSubview(v) }
    }

    func textViewDidChange(_ textView: TextView) {
        store.items[row].notes = textView.text
    }

    override func viewWillLayoutSubviews() {
        let width = view.bounds.width
        titleField.frame = Rect(x: 16, y: 20, width: width - 32, height: 34)
        doneLabel.frame = Rect(x: 16, y: 72, width: 120, height: 31)
        doneSwitch.frame = Rect(x: width - 16 - 51, y: 72, width: 51, height: 31)
        notesLabel.frame = Rect(x: 16, y: 122, width: width - 32, height: 18)
        notes.frame = Rect(x: 16, y: 144, width: width - 32, height: max(0, view.bounds.height - 160))
        mirrorIfRightToLeft([doneLabel, doneSwitch, notesLabel], in: view)
    }

    func confirmDelete() {
        let alert = AlertController(title: "Delete “\(store.items[row].title)”?", message: nil, preferredStyle: .alert)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(AlertAction(title: "Delete", style: .destructive) { [unowned self] _ in
            store.items.remove(at: row)
            changed()
            navigationController?.popViewController(animated: true)
        })
        present(alert, animated: true)
    }
}

@MainActor
final class TodoApp {
    let window = Window(title: "To do", size: Size(width: 380, height: 520))
    let store = TodoStore()

    init() {
        window.rootViewController = NavigationController(rootViewController: TodoListController(store: store))
    }
}

ExampleCommandLine.main(program: "todo", screenshot: "todo.png", make: { _ in TodoApp() }) { app, headless in
    app.window.show()
    if headless { app.window.isFullscreen = true }
}

/// Right to left (an Arabic or Hebrew session), frames laid out from the left
/// are mirrored: the controls mirror themselves, the app's own frames are its to mirror.
@MainActor
func mirrorIfRightToLeft(_ views: [View], in container: View) {
    guard container.effectiveUserInterfaceLayoutDirection == .rightToLeft else { return }
    for v in views { v.frame.origin.x = container.bounds.width - v.frame.maxX }
}
