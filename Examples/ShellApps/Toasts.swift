import Strata

/// One notification as the daemon keeps it.
public struct Toast: Sendable {
    public var id: UInt32
    public var appName: String
    public var summary: String
    public var body: String
    /// Action keys and labels, in the order sent ("default" is a click on the toast).
    public var actions: [(key: String, label: String)]
    public var urgency: UInt8
    public var icon: String?
    /// Seconds it stays (nil: until dismissed).
    public var lifetime: Double?

    /// A `Notify` request's notification: sizes bounded (summary 256
    /// characters, body 4,096, eight actions), an odd action list's last key
    /// dropped, the lifetime from the timeout (-1: 5 s, or never when critical;
    /// 0: never), the icon from the app icon or the `image-path` hint.
    public init(id: UInt32, request r: NotificationServer.Request) {
        self.id = id
        appName = String(r.appName.prefix(64))
        summary = String(r.summary.prefix(256))
        body = String(r.body.prefix(4096))
        actions = stride(from: 0, to: r.actions.count - 1, by: 2).prefix(8).map { (r.actions[$0], String(r.actions[$0 + 1].prefix(40))) }
        urgency = min(2, r.urgency)
        icon = r.imagePath ?? (r.appIcon.isEmpty ? nil : r.appIcon)
        switch r.expireTimeout {
        case 0: lifetime = nil
        case ..<0: lifetime = urgency == 2 ? nil : 5
        default: lifetime = min(Double(r.expireTimeout), 3_600_000) / 1000
        }
    }
}

/// A toast on screen: the icon, the summary in bold, the body's markup, and a
/// button per action other than the default one.
@MainActor
final class ToastView: View {
    static let width = 360.0
    static let background = Color(rgba8: 0x2a, 0x2e, 0x35, 0xf4)
    static let critical = Color(rgba8: 0xd8, 0x3a, 0x2f)
    let id: UInt32
    let iconView = ImageView(frame: .zero)
    let summaryLabel = Label(), bodyLabel = Label()
    private(set) var buttons: [Button] = []
    var onAction: ((String) -> Void)?
    var onDismiss: (() -> Void)?
    private(set) var hasDefaultAction = false

    init(_ toast: Toast, icon: Image?) {
        id = toast.id
        super.init(frame: Rect(x: 0, y: 0, width: Self.width, height: 64))
        backgroundColor = Self.background
        layer.cornerRadius = 10
        layer.borderWidth = toast.urgency == 2 ? 2 : 0
        layer.borderColor = Self.critical
        // A screen reader says it as it comes, whatever has the focus.
        accessibilityContainerType = .notification
        summaryLabel.font = .boldSystemFont(ofSize: 14)
        summaryLabel.textColor = Color(rgba8: 0xf1, 0xf3, 0xf4)
        bodyLabel.font = .systemFont(ofSize: 13)
        bodyLabel.textColor = Color(rgba8: 0xc8, 0xcc, 0xd2)
        bodyLabel.numberOfLines = 5
        for v in [iconView, summaryLabel, bodyLabel] { addSubview(v) }
        update(toast, icon: icon)
    }

    /// Shows `toast` (a replacement keeps the view and its place).
    func update(_ toast: Toast, icon: Image?) {
        summaryLabel.text = toast.summary
        bodyLabel.attributedText = BodyMarkup.parse(toast.body)
        iconView.image = icon
        layer.borderWidth = toast.urgency == 2 ? 2 : 0
        buttons.forEach { $0.removeFromSuperview() }
        hasDefaultAction = toast.actions.contains { $0.key == "default" }
        buttons = toast.actions.filter { $0.key != "default" }.map { action in
            let b = Button(title: action.label)
            b.setTitleColor(Color(rgba8: 0x8a, 0xb4, 0xf8), for: .normal)
            b.addAction(for: .touchUpInside) { [weak self] _ in self?.onAction?(action.key) }
            addSubview(b)
            return b
        }
        layout()
    }

    /// Places the parts and takes the height they need.
    private func layout() {
        let left = iconView.image == nil ? 14.0 : 66.0, width = Self.width - left - 14
        iconView.frame = Rect(x: 14, y: 14, width: 40, height: 40)
        summaryLabel.frame = Rect(x: left, y: 12, width: width, height: 20)
        let bodyHeight = bodyLabel.attributedText?.string.isEmpty == false ? min(90, bodyLabel.sizeThatFits(Size(width: width, height: 1000)).height) : 0
        bodyLabel.frame = Rect(x: left, y: 34, width: width, height: bodyHeight)
        var y = 34 + bodyHeight + (bodyHeight > 0 ? 6 : 0), x = left - 12
        for b in buttons {
            let size = b.intrinsicContentSize
            b.frame = Rect(x: x, y: y, width: min(size.width, Self.width - x - 8), height: 30)
            x += size.width + 4
        }
        if !buttons.isEmpty { y += 32 }
        bounds.size.height = max(iconView.image == nil ? 0 : 68, y + 10)
    }

    // A click on the toast (not on a button): its default action, else dismissed.
    override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        guard let t = touches.first, bounds.contains(t.location(in: self)) else { return }
        if hasDefaultAction { onAction?("default") } else { onDismiss?() }
    }
    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {}
}

/// The column of toasts at the top right of the screen: newest on top, each
/// sliding in from the right with a spring, the others moving down to make room;
/// a closed one slides out and the others close the gap. The shell window takes
/// the column's height (``ShellWindow/sizesToFitContent``), so it covers no more
/// of the screen than the toasts do.
@MainActor
final class ToastColumn: View {
    static let gap = 8.0
    private(set) var views: [ToastView] = []

    override func sizeThatFits(_ size: Size) -> Size {
        let height = views.reduce(0) { $0 + $1.bounds.height } + Self.gap * Double(max(0, views.count - 1))
        return Size(width: ToastView.width, height: max(1, height))
    }

    override func layoutSubviews() {
        var y = 0.0
        for v in views {
            v.center = Point(x: ToastView.width / 2, y: y + v.bounds.height / 2)
            y += v.bounds.height + Self.gap
        }
    }

    func insert(_ view: ToastView) {
        views.insert(view, at: 0)
        addSubview(view)
        View.performWithoutAnimation {
            layoutSubviews()
            view.transform = AffineTransform(translationX: ToastView.width + 20, y: 0)
            view.alpha = 0
        }
        View.animate(duration: 0.5, dampingRatio: 0.78) {
            view.transform = .identity
            view.alpha = 1
            self.layoutSubviews()
        }
        setNeedsLayout()
    }

    func remove(_ view: ToastView) {
        guard let index = views.firstIndex(where: { $0 === view }) else { return }
        views.remove(at: index)
        View.animate(duration: 0.25, options: .curveEaseIn) {
            view.transform = AffineTransform(translationX: ToastView.width + 20, y: 0)
            view.alpha = 0
        } completion: { _ in view.removeFromSuperview() }
        View.animate(duration: 0.45, dampingRatio: 0.85) { self.layoutSubviews() }
        setNeedsLayout()
    }

    /// A replaced toast changed height: the others move.
    func relayout() {
        View.animate(duration: 0.35, dampingRatio: 0.85) { self.layoutSubviews() }
        setNeedsLayout()
    }
}
