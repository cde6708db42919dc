import Glibc
import Strata

/// An application launcher, as fuzzel and wofi are: a card in the middle of the
/// screen above everything, taking the keyboard (exclusive), with a search field
/// and the installed applications (``DesktopEntries``). Typing filters the list
/// as you type (``FuzzyMatch``), rows going and coming animated; Up and Down move
/// the selection, Return or a click launches it with an activation token (so the
/// compositor focuses what starts), Escape closes.
///
/// Where the compositor has no shell layers it is an ordinary window instead —
/// a launcher is still useful there (``isFallbackWindow``).
@MainActor
public final class Launcher: ListDataSource {
    public static let size = Size(width: 480, height: 400)
    public let window: Window
    /// Whether it is an ordinary window because the shell layers are missing.
    public let isFallbackWindow: Bool
    let field = TextField(frame: Rect(x: 16, y: 16, width: 448, height: 36))
    let list = ListView(frame: Rect(x: 8, y: 64, width: 464, height: 328))
    public let entries: [DesktopEntry]
    public private(set) var shown: [DesktopEntry]
    public private(set) var selectedRow = 0
    /// Starts a program (argv, extra environment): `posix_spawnp` by default; tests record instead.
    public var spawn: ([String], [String: String]) -> Bool = Launcher.spawnDetached
    /// Called after a launch or Escape.
    public var onFinish: (() -> Void)?
    /// What the last launch did, for a person reading the log.
    public private(set) var lastLaunch: (entry: DesktopEntry, argv: [String], token: String?)?

    /// A launcher as a shell window (or, with `shellLayers` false, an ordinary window).
    public init(entries: [DesktopEntry], shellLayers: Bool = true) {
        self.entries = entries
        shown = entries
        isFallbackWindow = !shellLayers
        if shellLayers {
            let shell = ShellWindow(layer: .overlay, namespace: "launcher", size: Self.size)
            shell.keyboardInteractivity = .exclusive
            window = shell
        } else {
            window = Window(title: "Launcher", size: Self.size)
        }
        let root = LauncherView(frame: Rect(origin: .zero, size: Self.size))
        root.launcher = self
        root.backgroundColor = Color(rgba8: 0xfa, 0xfa, 0xfc)
        root.layer.cornerRadius = shellLayers ? 14 : 0
        root.layer.borderWidth = shellLayers ? 1 : 0
        root.layer.borderColor = Color(rgba8: 0, 0, 0, 0x30)
        root.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        window.backgroundColor = .clear
        field.placeholder = "Type to search"
        field.font = .systemFont(ofSize: 17)
        field.autoresizingMask = [.flexibleWidth]
        field.addAction(for: .editingChanged) { [weak self] _ in self?.filter() }
        list.rowHeight = 40
        list.dataSource = self
        list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        list.onSelectRow = { [weak self] _, row in self?.launch(row: row) }
        root.addSubview(field)
        root.addSubview(list)
        window.rootView.addSubview(root)
    }

    public func show() {
        window.show()
        field.becomeFirstResponder()
    }

    // MARK: The list

    public func numberOfRows(in list: ListView) -> Int { shown.count }

    public func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) {
        let entry = shown[row]
        cell.textLabel.text = entry.comment.map { "\(entry.name) — \($0)" } ?? entry.name
        cell.contentView.backgroundColor = row == selectedRow ? Self.selection : .white
    }
    static let selection = Color(rgba8: 0xd6, 0xe8, 0xff)

    /// Filters by the field's text: rows that leave and rows that come are
    /// animated; a new order is shown at once.
    func filter() {
        let new = FuzzyMatch.filter(entries, by: field.text ?? "")
        let old = shown
        let newIDs = Set(new.map(\.id)), oldIDs = Set(old.map(\.id))
        let kept = old.filter { newIDs.contains($0.id) }.map(\.id), keptInNew = new.filter { oldIDs.contains($0.id) }.map(\.id)
        selectedRow = 0
        guard kept == keptInNew else {
            shown = new
            list.reloadData()
            return announceSelection()
        }
        let removed = old.indices.filter { !newIDs.contains(old[$0].id) }
        shown = old.filter { newIDs.contains($0.id) }
        if !removed.isEmpty { list.deleteRows(at: removed, animated: true) }
        let inserted = new.indices.filter { !oldIDs.contains(new[$0].id) }
        shown = new
        if !inserted.isEmpty { list.insertRows(at: inserted, animated: true) }
        refreshSelection()
        announceSelection()
    }

    /// Moves the selection by `delta` rows (kept in the list, scrolled into view).
    public func moveSelection(by delta: Int) {
        guard !shown.isEmpty else { return }
        selectedRow = min(shown.count - 1, max(0, selectedRow + delta))
        list.scrollToRow(selectedRow, animated: true)
        refreshSelection()
        announceSelection()
    }

    /// The keyboard stays in the field while the chosen row moves: the screen
    /// reader is sent to the chosen row (UIKit's layout-changed notification with
    /// it as the argument), so it reads which application Return would start.
    private func announceSelection() {
        guard shown.indices.contains(selectedRow) else { return }
        list.layoutIfNeeded()
        Accessibility.post(notification: .layoutChanged, argument: list.cellForRow(at: selectedRow))
    }

    private func refreshSelection() {
        for case let cell as ListCell in list.visibleCells {
            cell.contentView.backgroundColor = cell.row == selectedRow ? Self.selection : .white
        }
    }

    // MARK: Launching

    /// Launches the selected row's application.
    public func launchSelection() { launch(row: selectedRow) }

    /// Launches `row`'s application: its Exec line expanded without files, run
    /// detached with an activation token from the compositor where it gives one.
    public func launch(row: Int) {
        guard shown.indices.contains(row) else { return }
        let entry = shown[row]
        guard var argv = try? entry.commandLine(files: []) else { return }
        if entry.terminal { argv = ["x-terminal-emulator", "-e"] + argv }
        window.requestActivationToken(forAppID: String(entry.id.dropLast(".desktop".count))) { [weak self] token in
            guard let self else { return }
            var environment: [String: String] = [:]
            if let token { environment["XDG_ACTIVATION_TOKEN"] = token; environment["DESKTOP_STARTUP_ID"] = token }
            lastLaunch = (entry, argv, token)
            if !spawn(argv, environment) {
                print("launcher: could not start \(argv.joined(separator: " "))")
            }
            onFinish?()
        }
    }

    /// Closes without launching.
    public func cancel() { onFinish?() }

    /// Starts `argv` as a process of its own (searching PATH), with `environment` added.
    public nonisolated static func spawnDetached(_ argv: [String], _ environment: [String: String]) -> Bool {
        var env: [String] = []
        var e = environ
        while let p = e.pointee { env.append(String(cString: p)); e += 1 }
        env = env.filter { line in !environment.keys.contains { line.hasPrefix($0 + "=") } } + environment.map { "\($0)=\($1)" }
        var cargv = argv.map { strdup($0) } + [nil], cenv = env.map { strdup($0) } + [nil]
        defer { cargv.forEach { free($0) }; cenv.forEach { free($0) } }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)   // POSIX_SPAWN_SETSID (glibc, GNU only): its own session, so it outlives the launcher
        var pid: pid_t = 0
        return posix_spawnp(&pid, argv[0], nil, &attributes, &cargv, &cenv) == 0
    }
}

/// The launcher's root view: its keys (Up, Down, Return, Escape) as key commands,
/// which the field passes up the responder chain.
final class LauncherView: View {
    weak var launcher: Launcher?
    override var keyCommands: [KeyCommand]? {
        [KeyCommand(input: KeyCommand.inputDownArrow) { [weak self] _ in self?.launcher?.moveSelection(by: 1) },
         KeyCommand(input: KeyCommand.inputUpArrow) { [weak self] _ in self?.launcher?.moveSelection(by: -1) },
         KeyCommand(input: KeyCommand.inputReturn) { [weak self] _ in self?.launcher?.launchSelection() },
         KeyCommand(input: KeyCommand.inputEscape) { [weak self] _ in self?.launcher?.cancel() }]
    }
}
