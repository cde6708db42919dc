import LayerKit

/// An action of an alert (`UIAlertAction`): a button's title, its style and
/// what it does after the alert is dismissed.
@MainActor
public final class AlertAction {
    public enum Style: Hashable, Sendable { case `default`, cancel, destructive }

    public let title: String?
    public let style: Style
    /// A disabled action's button does nothing and Return skips it.
    public var isEnabled = true { didSet { button?.isEnabled = isEnabled } }
    let handler: ((AlertAction) -> Void)?
    weak var button: Button?

    public init(title: String?, style: Style, handler: ((AlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

/// An alert or action sheet (`UIAlertController`), shown with
/// ``ViewController/present(_:animated:completion:)``: a title, a message, text
/// fields and one button per action, modal over the dimmed window (rule M5).
///
/// Input to the rest of the window is refused and the focus stays inside (Tab
/// and Shift-Tab cycle through its text fields); Return runs the
/// ``preferredAction`` (else the first enabled default action), Escape the
/// cancel action — and nothing when there is none; clicks outside do nothing. An
/// action's button dismisses the alert, then runs the action's handler. An
/// alert is 270 points wide and centred, fading in from 1.2× its size; an
/// action sheet sits at the bottom, as on a phone.
@MainActor
public final class AlertController: ViewController {
    public enum Style: Hashable, Sendable { case alert, actionSheet }

    public let preferredStyle: Style
    public private(set) var actions: [AlertAction] = []
    /// The action Return runs (`preferredAction`); its button's title is bold.
    /// An action not added to the alert is refused (with a diagnostic).
    public var preferredAction: AlertAction? {
        didSet {
            if let p = preferredAction, !actions.contains(where: { $0 === p }) {
                Diagnostics.report(.invalidView("preferredAction: the action is not one of the alert's"))
                preferredAction = oldValue
            }
        }
    }
    public private(set) var textFields: [TextField]? = nil
    /// The message under the title.
    public var message: String?

    /// An alert's width, in points.
    static let width = 270.0

    public init(title: String?, message: String?, preferredStyle: Style) {
        self.preferredStyle = preferredStyle
        self.message = message
        super.init()
        self.title = title
        isModalInPresentation = true
    }

    /// Adds an action (a button). A second cancel action is refused (with a
    /// diagnostic), as UIKit refuses it; so are actions added once shown.
    public func addAction(_ action: AlertAction) {
        guard !isViewLoaded else { return Diagnostics.report(.invalidView("addAction: the alert is already shown")) }
        if action.style == .cancel, actions.contains(where: { $0.style == .cancel }) {
            return Diagnostics.report(.invalidView("addAction: an alert can have one cancel action"))
        }
        actions.append(action)
    }

    /// Adds a text field (alerts only; an action sheet refuses it, as UIKit's does).
    public func addTextField(configurationHandler: ((TextField) -> Void)? = nil) {
        guard preferredStyle == .alert else {
            return Diagnostics.report(.invalidView("addTextField: only an alert has text fields"))
        }
        guard !isViewLoaded else { return Diagnostics.report(.invalidView("addTextField: the alert is already shown")) }
        let field = TextField(frame: .zero)
        field.addAction(for: .editingDidEndOnExit) { [weak self] _ in self?.performReturn() }
        configurationHandler?(field)
        textFields = (textFields ?? []) + [field]
    }

    override var presentsAsAlert: Bool { true }

    public override func loadView() {
        let view = AlertView(alert: self)
        self.view = view
        preferredContentSize = view.fittingSize(width: Self.width)
    }

    /// Takes the focus once in the window: the first text field, else the alert.
    override func didEnterPresentation() {
        if let first = textFields?.first { first.becomeFirstResponder() } else { view.becomeFirstResponder() }
    }

    /// Dismisses the alert, then runs the action's handler.
    func perform(_ action: AlertAction) {
        guard action.isEnabled, presentation?.isDismissing == false else { return }
        dismiss(animated: true) { action.handler?(action) }
    }

    /// Return: the preferred action, else the first enabled default one.
    func performReturn() {
        if let action = preferredAction ?? actions.first(where: { $0.style == .default && $0.isEnabled }) { perform(action) }
    }

    /// Escape: the cancel action, if there is one.
    func performCancel() {
        if let cancel = actions.first(where: { $0.style == .cancel }) { perform(cancel) }
    }
}

/// An alert's content: title, message, text fields and buttons.
@MainActor
final class AlertView: View {
    unowned let alert: AlertController
    // An alert node named by its title, holding its text and buttons (rule Y2).
    override var accessibilityRole: AccessibilityRole? { .alert }
    override var defaultAccessibilityLabel: String? { alert.title ?? alert.message }
    let titleLabel = Label(frame: .zero)
    let messageLabel = Label(frame: .zero)
    private(set) var buttons: [Button] = []
    private var separators: [View] = []
    static let padding = 16.0, buttonHeight = 44.0, fieldHeight = 28.0

    init(alert: AlertController) {
        self.alert = alert
        super.init(frame: .zero)
        backgroundColor = .systemGray6
        for (label, font) in [(titleLabel, Font.boldSystemFont(ofSize: 17)), (messageLabel, Font.systemFont(ofSize: 13))] {
            label.font = font
            label.numberOfLines = 0
            label.textAlignment = .center
            addSubview(label)
        }
        titleLabel.text = alert.title
        messageLabel.text = alert.message
        for field in alert.textFields ?? [] { addSubview(field) }
        // Cancel goes last in a column, first in a row of two, as UIKit puts it.
        let ordered = actions
        for action in ordered {
            let button = Button(title: action.title ?? "")
            button.isEnabled = action.isEnabled
            if action.style == .destructive { button.setTitleColor(.systemRed, for: .normal) }
            if action === alert.preferredAction || (alert.preferredAction == nil && action.style == .cancel) {
                button.titleLabel.font = .boldSystemFont(ofSize: Font.labelFontSize)
            }
            button.addAction(for: .primaryActionTriggered) { [unowned alert] _ in alert.perform(action) }
            action.button = button
            addSubview(button)
            buttons.append(button)
            let separator = View()
            separator.backgroundColor = .systemGray3
            addSubview(separator)
            separators.append(separator)
        }
    }

    /// The actions in the order their buttons go.
    private var actions: [AlertAction] {
        let cancel = alert.actions.filter { $0.style == .cancel }, others = alert.actions.filter { $0.style != .cancel }
        return alert.actions.count == 2 ? cancel + others : others + cancel
    }

    private var buttonsInARow: Bool { alert.preferredStyle == .alert && buttons.count == 2 }

    /// The height the content needs at `width`.
    func fittingSize(width: Double) -> Size {
        Size(width: width, height: layOut(width: width, apply: false))
    }

    override func layoutSubviews() { _ = layOut(width: bounds.width, apply: true) }

    /// Places the content from the top; the bottom of what was placed.
    private func layOut(width: Double, apply: Bool) -> Double {
        let inner = max(0, width - 2 * Self.padding)
        var y = Self.padding + 4
        for label in [titleLabel, messageLabel] where label.text?.isEmpty == false {
            let height = label.sizeThatFits(Size(width: inner, height: .infinity)).height
            if apply { label.frame = Rect(x: Self.padding, y: y, width: inner, height: height) }
            y += height + 4
        }
        for field in alert.textFields ?? [] {
            y += 8
            if apply { field.frame = Rect(x: Self.padding, y: y, width: inner, height: Self.fieldHeight) }
            y += Self.fieldHeight
        }
        y += Self.padding
        for (i, button) in buttons.enumerated() {
            let frame: Rect
            if buttonsInARow {
                // Two in a row: the first at the leading edge (rule P3).
                let column = effectiveUserInterfaceLayoutDirection == .rightToLeft ? 1 - i : i
                frame = Rect(x: Double(column) * width / 2, y: y, width: width / 2, height: Self.buttonHeight)
            } else {
                frame = Rect(x: 0, y: y + Double(i) * Self.buttonHeight, width: width, height: Self.buttonHeight)
            }
            if apply {
                button.frame = frame
                separators[i].frame = buttonsInARow && i == 1
                    ? Rect(x: frame.minX, y: frame.minY, width: 0.5, height: frame.height)
                    : Rect(x: frame.minX, y: frame.minY, width: frame.width, height: 0.5)
            }
        }
        return y + (buttonsInARow ? Self.buttonHeight : Double(buttons.count) * Self.buttonHeight)
    }

    override var canBecomeFirstResponder: Bool { true }

    /// Return, Escape and Tab, from the alert, a text field or a button in it (rule M5).
    override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
        guard let key = presses.first?.key else { return }
        switch key.keysym {
        case 0xff0d, 0xff8d: alert.performReturn()
        case Key.escape: alert.performCancel()
        case Key.tab, Key.isoLeftTab:
            // Through its fields, then its buttons (Space or Return presses the focused one).
            let stops: [View] = (alert.textFields ?? []) + buttons.filter(\.isEnabled)
            guard !stops.isEmpty else { return }
            let back = key.keysym == Key.isoLeftTab || key.modifierFlags.contains(.shift)
            let current = stops.firstIndex { $0.isFirstResponder }
            let next = current.map { (back ? $0 - 1 + stops.count : $0 + 1) % stops.count } ?? (back ? stops.count - 1 : 0)
            stops[next].becomeFirstResponder()
        default: break   // the rest of the window gets nothing while the alert is up
        }
    }

    override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) {}
}
