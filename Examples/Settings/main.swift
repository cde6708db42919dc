// A settings app in a tab bar: "Settings" is an inset-grouped collection view list
// fed by a diffable data source — switches and steppers in cells laid out by
// constraints; turning notifications off takes their options out of the list with
// an animation (a new snapshot applied) and turning them on brings them back.
// "Colours" is a grid (a flow layout) of swatches to choose from.
// Usage: settings [--seconds N] [--socket NAME] [--screenshot PATH] [--notifications off] [--tab colours];
// STRATA_OFFSCREEN=DIR renders offscreen.
import Strata
import StrataTesting

enum SettingsSection: Hashable { case display, notifications }

enum Setting: Hashable {
    case boldText, textSize, notifications, sounds, badges

    var title: String {
        switch self {
        case .boldText: "Bold text"
        case .textSize: "Text size"
        case .notifications: "Allow notifications"
        case .sounds: "Sounds"
        case .badges: "Badge count"
        }
    }
}

/// A row: a title on the leading side and a control (a switch, or a stepper with
/// its value) on the trailing side, placed by constraints.
final class SettingCell: CollectionViewCell {
    let title = Label(), value = Label()
    let toggle = Switch(frame: .zero), stepper = Stepper(frame: .zero)
    var onChange: ((Double) -> Void)?

    required init(frame: Rect) {
        super.init(frame: frame)
        backgroundColor = .secondarySystemGroupedBackground
        value.textColor = .secondaryLabel
        for v in [title, value, toggle, stepper] as [View] {
            v.translatesAutoresizingMaskIntoConstraints = false
            contentView.addSubview(v)
        }
        // At least 48 tall: just below required, as the cell's frame (from the list) holds its content view.
        let tall = contentView.heightAnchor.constraint(greaterThanOrEqualToConstant: 48)
        tall.priority = LayoutPriority(999)
        LayoutConstraint.activate([
            title.leadingAnchor.constraint(equalTo: contentView.leadingAnchor, constant: 16),
            title.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
            tall,
            toggle.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -16),
            toggle.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
            stepper.trailingAnchor.constraint(equalTo: contentView.trailingAnchor, constant: -16),
            stepper.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
            value.trailingAnchor.constraint(equalTo: stepper.leadingAnchor, constant: -12),
            value.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
            value.leadingAnchor.constraint(greaterThanOrEqualTo: title.trailingAnchor, constant: 8),
        ])
        toggle.addAction(for: .valueChanged) { [unowned self] _ in onChange?(toggle.isOn ? 1 : 0) }
        stepper.addAction(for: .valueChanged) { [unowned self] _ in
            value.text = "\(Int(stepper.value)) pt"
            onChange?(stepper.value)
        }
    }

    func show(_ setting: Setting, _ store: SettingsStore) {
        title.text = setting.title
        toggle.accessibilityLabeledBy = title
        stepper.accessibilityLabeledBy = title
        let isStepper = setting == .textSize
        toggle.isHidden = isStepper
        stepper.isHidden = !isStepper
        value.isHidden = !isStepper
        if isStepper {
            stepper.minimumValue = 12
            stepper.maximumValue = 28
            stepper.value = store.textSize
            value.text = "\(Int(store.textSize)) pt"
        } else {
            toggle.isOn = store.isOn(setting)
        }
    }
}

/// A section's title above it, as inset-grouped lists show them.
final class SectionHeader: CollectionReusableView {
    let label = Label()
    required init(frame: Rect) {
        super.init(frame: frame)
        label.font = .systemFont(ofSize: 13)
        label.textColor = .secondaryLabel
        label.translatesAutoresizingMaskIntoConstraints = false
        addSubview(label)
        LayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: leadingAnchor, constant: 36),
            label.bottomAnchor.constraint(equalTo: bottomAnchor, constant: -6),
        ])
    }
}

@MainActor
final class SettingsStore {
    var boldText = false, notifications = true, sounds = true, badges = false
    var textSize = 17.0

    func isOn(_ s: Setting) -> Bool {
        switch s {
        case .boldText: boldText
        case .notifications: notifications
        case .sounds: sounds
        case .badges: badges
        case .textSize: false
        }
    }

    func set(_ s: Setting, _ value: Double) {
        switch s {
        case .boldText: boldText = value != 0
        case .notifications: notifications = value != 0
        case .sounds: sounds = value != 0
        case .badges: badges = value != 0
        case .textSize: textSize = value
        }
    }
}

@MainActor
final class SettingsController: ViewController {
    let store: SettingsStore
    var list: CollectionView!
    var source: CollectionViewDiffableDataSource<SettingsSection, Setting>!

    init(store: SettingsStore) {
        self.store = store
        super.init()
        title = "Settings"
        tabBarItem.title = "Settings"
    }

    override func viewDidLoad() {
        view.backgroundColor = .systemGroupedBackground
        let layout = CollectionViewListLayout(appearance: .insetGrouped)
        layout.headerReferenceSize = Size(width: 0, height: 36)
        list = CollectionView(frame: view.bounds, collectionViewLayout: layout)
        list.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        list.backgroundColor = .systemGroupedBackground
        list.allowsSelection = false
        view.addSubview(list)
        let rows = CellRegistration<SettingCell, Setting> { [unowned self] cell, _, setting in
            cell.show(setting, store)
            cell.onChange = { [unowned self] value in changed(setting, value) }
        }
        source = CollectionViewDiffableDataSource(collectionView: list) { cv, path, setting in
            cv.dequeueConfiguredReusableCell(using: rows, for: path, item: setting)
        }
        list.register(SectionHeader.self, forSupplementaryViewOfKind: CollectionView.elementKindSectionHeader, withReuseIdentifier: "header")
        source.supplementaryViewProvider = { [unowned self] cv, kind, path in
            let header = cv.dequeueReusableSupplementaryView(ofKind: kind, withReuseIdentifier: "header", for: path) as! SectionHeader
            header.label.text = source.sectionIdentifier(for: path.section) == .display ? "DISPLAY" : "NOTIFICATIONS"
            return header
        }
        source.apply(snapshot(), animatingDifferences: false)
    }

    /// What the list shows: a notification's options only while notifications are allowed.
    func snapshot() -> DiffableDataSourceSnapshot<SettingsSection, Setting> {
        var s = DiffableDataSourceSnapshot<SettingsSection, Setting>()
        s.appendSections([.display, .notifications])
        s.appendItems([.boldText, .textSize], toSection: .display)
        s.appendItems(store.notifications ? [.notifications, .sounds, .badges] : [.notifications], toSection: .notifications)
        return s
    }

    func changed(_ setting: Setting, _ value: Double) {
        store.set(setting, value)
        if setting == .notifications { source.apply(snapshot(), animatingDifferences: true) }
    }
}

@MainActor
final class ColoursController: ViewController, CollectionViewDelegate {
    static let swatches: [(String, Color)] = [
        ("Red", .systemRed), ("Orange", .systemOrange), ("Yellow", .systemYellow), ("Green", .systemGreen),
        ("Mint", .systemMint), ("Teal", .systemTeal), ("Cyan", .systemCyan), ("Blue", .systemBlue),
        ("Indigo", .systemIndigo), ("Purple", .systemPurple), ("Pink", .systemPink), ("Brown", .systemBrown),
    ]
    var grid: CollectionView!
    var source: CollectionViewDiffableDataSource<Int, String>!
    let chosen = Label()

    override init() {
        super.init()
        title = "Colours"
        tabBarItem.title = "Colours"
    }

    override func viewDidLoad() {
        view.backgroundColor = .systemBackground
        let layout = CollectionViewFlowLayout()
        layout.itemSize = Size(width: 72, height: 72)
        layout.minimumLineSpacing = 16
        layout.sectionInset = EdgeInsets(top: 20, left: 20, bottom: 20, right: 20)
        grid = CollectionView(frame: .zero, collectionViewLayout: layout)
        grid.translatesAutoresizingMaskIntoConstraints = false
        grid.delegate = self
        chosen.translatesAutoresizingMaskIntoConstraints = false
        chosen.text = "Choose a colour"
        chosen.textColor = .secondaryLabel
        view.addSubview(chosen)
        view.addSubview(grid)
        LayoutConstraint.activate([
            chosen.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 16),
            chosen.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            grid.topAnchor.constraint(equalTo: chosen.bottomAnchor, constant: 8),
            grid.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            grid.trailingAnchor.constraint(equalTo: view.trailingAnchor),
            grid.bottomAnchor.constraint(equalTo: view.bottomAnchor),
        ])
        let swatch = CellRegistration<CollectionViewCell, String> { cell, _, name in
            cell.contentView.backgroundColor = Self.swatches.first { $0.0 == name }?.1
            cell.contentView.layer.cornerRadius = 16
            cell.layer.cornerRadius = 20
            cell.isAccessibilityElement = true
            cell.accessibilityLabel = name
        }
        source = CollectionViewDiffableDataSource(collectionView: grid) { cv, path, name in
            cv.dequeueConfiguredReusableCell(using: swatch, for: path, item: name)
        }
        var s = DiffableDataSourceSnapshot<Int, String>()
        s.appendSections([0])
        s.appendItems(Self.swatches.map(\.0))
        source.apply(s, animatingDifferences: false)
    }

    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) {
        chosen.text = source.itemIdentifier(for: indexPath).map { "Chosen: \($0)" }
    }
}

@MainActor
final class SettingsApp {
    let window = Window(title: "Settings", size: Size(width: 480, height: 560))
    let store = SettingsStore()
    let tabs = TabBarController()

    init(notifications: String?, tab: String?) {
        store.notifications = notifications != "off"
        let settings = NavigationController(rootViewController: SettingsController(store: store))
        settings.tabBarItem.title = "Settings"
        let colours = NavigationController(rootViewController: ColoursController())
        colours.tabBarItem.title = "Colours"
        tabs.viewControllers = [settings, colours]
        tabs.selectedIndex = tab == "colours" ? 1 : 0
        window.rootViewController = tabs
    }
}

ExampleCommandLine.main(program: "settings", screenshot: "settings.png", options: ["--notifications", "--tab"],
                        make: { SettingsApp(notifications: $0.values["--notifications"], tab: $0.values["--tab"]) }) { app, headless in
    app.window.show()
    if headless { app.window.isFullscreen = true }
}
