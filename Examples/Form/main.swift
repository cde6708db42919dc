// A sign-up form laid out by Auto Layout: captions and fields in rows, the
// captions as wide as the widest, the card centred at a readable width in any
// window; a field that does not pass gets a message that animates in under it
// (a constraint's constant changed in an animation block, then layoutIfNeeded),
// and the rows below slide down to make room. Right to left it mirrors itself
// (leading and trailing anchors).
// Usage: form [--seconds N] [--socket NAME] [--screenshot PATH] [--fill invalid|valid]; STRATA_OFFSCREEN=DIR renders offscreen.
import Strata
import StrataTesting

/// One caption, field and message, and the constraint that opens the message.
@MainActor
final class FormRow {
    let caption = Label(), field = TextField(frame: .zero), message = Label()
    let check: (String) -> String?
    /// The message's height: 0 while there is nothing to say.
    private(set) var messageHeight: LayoutConstraint!

    init(_ caption: String, placeholder: String, secure: Bool = false, check: @escaping (String) -> String?) {
        self.caption.text = caption
        self.caption.textColor = .secondaryLabel
        field.placeholder = placeholder
        field.isSecureTextEntry = secure
        field.accessibilityLabeledBy = self.caption
        message.font = .systemFont(ofSize: 13)
        message.textColor = .systemRed
        message.clipsToBounds = true
        message.contentMode = .top   // revealed as it opens, not squeezed
        message.alpha = 0
        self.check = check
        for v in [self.caption, field, message] as [View] { v.translatesAutoresizingMaskIntoConstraints = false }
    }

    /// Lays the row out in `card` below `above` (its top anchor), leading with `leading`.
    func constraints(in card: View, below above: LayoutYAxisAnchor, captionsLike first: Label?) -> [LayoutConstraint] {
        for v in [caption, field, message] as [View] { card.addSubview(v) }
        messageHeight = message.heightAnchor.constraint(equalToConstant: 0)
        var made = [
            field.topAnchor.constraint(equalTo: above, constant: 12),
            field.heightAnchor.constraint(equalToConstant: 34),
            field.leadingAnchor.constraint(equalTo: caption.trailingAnchor, constant: 12),
            field.trailingAnchor.constraint(equalTo: card.trailingAnchor, constant: -16),
            caption.leadingAnchor.constraint(equalTo: card.leadingAnchor, constant: 16),
            caption.centerYAnchor.constraint(equalTo: field.centerYAnchor),
            message.topAnchor.constraint(equalTo: field.bottomAnchor, constant: 4),
            message.leadingAnchor.constraint(equalTo: field.leadingAnchor),
            // At most the field's width: an empty label hugs at 251 too, and pinned to both
            // sides it would pull the field to nothing (as in UIKit).
            message.trailingAnchor.constraint(lessThanOrEqualTo: field.trailingAnchor),
            messageHeight!,
        ]
        // Every caption as wide as the widest: each at least its text, all equal.
        if let first { made.append(caption.widthAnchor.constraint(equalTo: first.widthAnchor)) }
        return made
    }

    /// What is wrong with the field's text, or nil.
    var problem: String? { check(field.text ?? "") }

    /// Opens the message (with its text set before) or closes it. Call inside an animation block.
    func showMessage(_ shown: Bool) {
        messageHeight.constant = shown ? message.intrinsicContentSize.height : 0
        message.alpha = shown ? 1 : 0
    }
}

@MainActor
final class SignUpController: ViewController {
    let heading = Label(), card = View(), submit = Button(title: "Create account", style: .filled), welcome = Label()
    let rows = [
        FormRow("Name", placeholder: "Ada Lovelace") { $0.allSatisfy(\.isWhitespace) ? "Say what to call you." : nil },
        FormRow("Email", placeholder: "ada@example.org") { text in
            let parts = text.split(separator: "@", omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".") ? nil : "An address looks like name@example.org."
        },
        FormRow("Password", placeholder: "8 characters or more", secure: true) { $0.count >= 8 ? nil : "Use at least 8 characters." },
    ]

    override func viewDidLoad() {
        title = "Sign up"
        view.backgroundColor = .systemGroupedBackground
        heading.text = "Create your account"
        heading.font = .boldSystemFont(ofSize: 24)
        heading.accessibilityTraits = [.header]
        card.backgroundColor = .secondarySystemGroupedBackground
        card.layer.cornerRadius = 12
        welcome.textColor = .secondaryLabel
        welcome.alpha = 0
        for v in [heading, card, welcome, submit] as [View] {
            v.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(v)
        }
        let margins = view.layoutMarginsGuide
        let readable = card.widthAnchor.constraint(equalTo: margins.widthAnchor)
        readable.priority = .defaultHigh    // as wide as the margins allow, up to 520
        var constraints = [
            heading.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 24),
            heading.leadingAnchor.constraint(equalTo: card.leadingAnchor),
            card.topAnchor.constraint(equalTo: heading.bottomAnchor, constant: 12),
            card.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            card.widthAnchor.constraint(lessThanOrEqualToConstant: 520),
            card.leadingAnchor.constraint(greaterThanOrEqualTo: margins.leadingAnchor),
            readable,
            submit.topAnchor.constraint(equalTo: card.bottomAnchor, constant: 16),
            submit.trailingAnchor.constraint(equalTo: card.trailingAnchor),
            welcome.leadingAnchor.constraint(equalTo: card.leadingAnchor),
            welcome.trailingAnchor.constraint(lessThanOrEqualTo: submit.leadingAnchor, constant: -12),
            welcome.centerYAnchor.constraint(equalTo: submit.centerYAnchor),
        ]
        var above = card.topAnchor
        for row in rows {
            constraints += row.constraints(in: card, below: above, captionsLike: row === rows[0] ? nil : rows[0].caption)
            above = row.message.bottomAnchor
        }
        constraints.append(card.bottomAnchor.constraint(equalTo: above, constant: 16))
        LayoutConstraint.activate(constraints)
        for (row, next) in zip(rows, rows.dropFirst()) {
            row.field.shouldReturn = { _ in _ = next.field.becomeFirstResponder(); return false }
        }
        rows.last?.field.shouldReturn = { [unowned self] _ in signUp(); return false }
        submit.addAction(for: .primaryActionTriggered) { [unowned self] _ in signUp() }
    }

    /// Checks every field; messages open or close with one spring, and the rows below move with them.
    func signUp() {
        let problems = rows.map(\.problem)
        // New texts and widths first, while closed messages show nothing: only the opening animates.
        for (row, problem) in zip(rows, problems) { if let problem { row.message.text = problem } }
        view.layoutIfNeeded()
        let passed = problems.allSatisfy { $0 == nil }
        welcome.text = passed ? "Welcome, \(rows[0].field.text ?? "")!" : nil
        View.animate(duration: 0.45, dampingRatio: 0.8) {
            for (row, problem) in zip(rows, problems) { row.showMessage(problem != nil) }
            welcome.alpha = passed ? 1 : 0
            view.layoutIfNeeded()
        }
    }
}

@MainActor
final class FormApp {
    let window = Window(title: "Sign up", size: Size(width: 560, height: 420))
    let form = SignUpController()

    init(fill: String?) {
        window.rootViewController = form
        window.minimumSize = Size(width: 360, height: 380)
        _ = form.view
        switch fill {
        case "invalid":
            form.rows[0].field.text = "Ada"
            form.rows[1].field.text = "ada.example.org"
            form.rows[2].field.text = "engine"
        case "valid":
            form.rows[0].field.text = "Ada"
            form.rows[1].field.text = "ada@example.org"
            form.rows[2].field.text = "analytical"
        default: break
        }
    }
}

ExampleCommandLine.main(program: "form", screenshot: "form.png", options: ["--fill"], make: { FormApp(fill: $0.values["--fill"]) }) { app, headless in
    app.window.show()
    if headless { app.window.isFullscreen = true }
    if app.form.rows[0].field.text?.isEmpty == false { app.form.signUp() }
}
