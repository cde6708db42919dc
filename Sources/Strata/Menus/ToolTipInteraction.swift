/// A short text shown under the pointer once it rests on a view
/// (`UIToolTipInteraction`, rule M2): after ``delay`` of the pointer resting on
/// the view, at the pointer's place then (it does not follow the pointer); gone
/// when the pointer leaves the view, or at any press or key in the window, and not
/// back until the pointer leaves and comes again. It never grabs input or takes
/// the focus, and the pointer and touches pass through it. On a compositor it is a
/// popup with no input region; offscreen the window's snapshot shows it.
@MainActor
public final class ToolTipInteraction: Interaction {
    public private(set) weak var view: View?
    /// The text shown (`defaultToolTip`); nil or empty shows nothing.
    public var defaultToolTip: String? {
        didSet {
            if defaultToolTip?.isEmpty ?? true { hide() } else { label?.text = defaultToolTip }
            view?.accessibilityDidChange(.description)
        }
    }
    /// Whether the tip shows at all.
    public var isEnabled = true {
        didSet { if !isEnabled { hide() } }
    }
    /// How long the pointer rests before the tip shows, in seconds of media time.
    public static let delay = 0.7
    /// The widest a tip grows before its text wraps.
    static let maximumWidth = 320.0

    private var timer: MediaTimer?
    private var popup: Popup?
    private var label: Label?
    /// A press or key closed the tip: it stays closed until the pointer leaves.
    private var closedByInput = false
    // Weak: the input dispatcher may still hold the recognizer (hovering) after this is gone.
    private lazy var hover = HoverGestureRecognizer { [weak self] r in
        guard let self else { return }
        switch r.state {
        case .began, .changed: pointerRests(at: r.location(in: nil))
        default: pointerLeft()
        }
    }

    public init(defaultToolTip: String?) {
        self.defaultToolTip = defaultToolTip
    }

    public func didMove(to view: View?) {
        self.view?.removeGestureRecognizer(hover)
        hide()
        self.view = view
        view?.addGestureRecognizer(hover)
    }

    /// Whether the tip is shown now.
    public var isToolTipVisible: Bool { popup?.isOpen ?? false }

    private func pointerRests(at point: Point) {
        guard popup == nil, !closedByInput else { return }
        timer?.cancel()
        timer = MediaTimer.schedule(after: Self.delay) { [weak self] in self?.show(at: point) }
    }

    private func pointerLeft() {
        closedByInput = false
        hide()
    }

    /// Shows the tip under `point` (window coordinates, as the pointer's).
    private func show(at point: Point) {
        timer = nil
        guard isEnabled, let text = defaultToolTip, !text.isEmpty, let view, let window = view.window, window.isVisible else { return }
        let label = Label(frame: .zero)
        label.text = text
        label.font = .systemFont(ofSize: 13)
        label.textColor = .white
        label.numberOfLines = 0
        label.preferredMaxLayoutWidth = Self.maximumWidth - 16
        let textSize = label.intrinsicContentSize
        let size = Size(width: (textSize.width + 16).rounded(.up), height: (textSize.height + 10).rounded(.up))
        let inContent = window.rootView.convert(point, from: nil)
        let popup = Popup(on: window, placement: Popup.Placement(size: size, anchorRect: Rect(x: inContent.x, y: inContent.y, width: 1, height: 1),
                                                                 anchor: .bottomLeft, gravity: .bottomRight, offset: Point(x: 0, y: 18)),
                          grabsInput: false, acceptsInput: false, traitsFrom: view)
        let background = View(frame: popup.window.rootView.bounds)
        background.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        background.backgroundColor = Color(rgba8: 40, 40, 44, 240)
        background.layer.cornerRadius = 5
        label.frame = Rect(x: 8, y: 5, width: textSize.width, height: textSize.height)
        background.addSubview(label)
        popup.window.rootView.addSubview(background)
        popup.window.isToolTip = true
        popup.onDismiss = { [weak self, weak popup] in
            guard let self, self.popup === popup else { return }
            self.popup = nil
            self.label = nil
            closedByInput = true   // not closed here: a press or key in the window
        }
        self.popup = popup
        self.label = label
        popup.open()
        if !popup.isOpen { self.popup = nil }
    }

    /// Its view left its window: the tip goes.
    func viewLeftWindow() { pointerLeft() }

    /// Hides the tip (and forgets a pending one).
    private func hide() {
        timer?.cancel()
        timer = nil
        guard let p = popup else { return }
        popup = nil
        label = nil
        p.dismiss()
    }
}
