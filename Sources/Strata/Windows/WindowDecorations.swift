import WaylandClient

/// What a window's own frame asks the compositor to do.
enum DecorationRequest: Equatable {
    case move
    case resize(ToplevelWindow.Edge)
    case showMenu(Point)
    case minimize
    case toggleMaximized
    case close
}

/// The frame a window draws itself where the compositor draws none (rule W1):
/// a title bar with minimize, maximize and close buttons, and resize edges
/// around it — views, like the app's. Dragging the title bar moves the window,
/// double-clicking it maximizes, its secondary button opens the window menu;
/// the edges and corners resize. Maximized or tiled windows have no edges;
/// fullscreen ones no frame at all.
@MainActor
final class WindowDecorations: View {
    static let titleBarHeight = 32.0
    /// The resize edges around a floating window (outside its geometry).
    static let margin = 8.0

    let titleBar = View()
    /// The window's title, centred in the title bar and cut with "…" when long.
    let titleLabel = Label(frame: .zero)
    let closeButton = DecorationButton(glyph: .close)
    let maximizeButton = DecorationButton(glyph: .maximize)
    let minimizeButton = DecorationButton(glyph: .minimize)
    /// Takes the frame's requests (the window's on-screen part).
    var onRequest: ((DecorationRequest) -> Void)?
    /// Floating: with resize edges and rounded top corners.
    var isFloating = true { didSet { setNeedsLayout() } }

    override init(frame: Rect) {
        super.init(frame: frame)
        titleBar.backgroundColor = Color(light: Color(rgba8: 0xeb, 0xeb, 0xed), dark: Color(rgba8: 0x2c, 0x2c, 0x2e))
        titleBar.setColor(Color(light: Color(rgba8: 0xc8, 0xc8, 0xcc), dark: Color(rgba8: 0x48, 0x48, 0x4a)), of: titleBar.layer, \.borderColor)
        addSubview(titleBar)
        titleLabel.font = .systemFont(ofSize: 13, weight: .semibold)
        titleLabel.textColor = Color(light: Color(rgba8: 0x3a, 0x3a, 0x3c), dark: Color(rgba8: 0xe5, 0xe5, 0xea))
        titleLabel.textAlignment = .center
        titleLabel.isAccessibilityElement = false   // the window itself is named by its title
        titleBar.addSubview(titleLabel)
        for (button, request) in [(minimizeButton, DecorationRequest.minimize), (maximizeButton, .toggleMaximized), (closeButton, .close)] {
            button.onPress = { [unowned self] in onRequest?(request) }
            titleBar.addSubview(button)
        }
    }

    /// The insets around the content: margins and the title bar.
    var insets: (top: Double, left: Double, bottom: Double, right: Double) {
        let m = isFloating ? Self.margin : 0
        return (m + Self.titleBarHeight, m, m, m)
    }

    /// Only the frame is the frame: the content area inside it is not.
    override func point(inside point: Point, with event: Event?) -> Bool {
        let i = insets
        let content = Rect(x: i.left, y: i.top, width: bounds.width - i.left - i.right, height: bounds.height - i.top - i.bottom)
        return bounds.contains(point) && !content.contains(point)
    }

    override func layoutSubviews() {
        let m = isFloating ? Self.margin : 0
        titleBar.frame = Rect(x: m, y: m, width: max(0, bounds.width - 2 * m), height: Self.titleBarHeight)
        titleBar.layer.cornerRadius = isFloating ? 8 : 0
        let size = 24.0, gap = 6.0
        // At the trailing end: the right, or the left in a right-to-left layout (close outermost).
        let rightToLeft = effectiveUserInterfaceLayoutDirection == .rightToLeft
        for (i, button) in [closeButton, maximizeButton, minimizeButton].enumerated() {
            let fromEdge = gap + (size + gap) * Double(i)
            button.frame = Rect(x: rightToLeft ? fromEdge : titleBar.bounds.width - fromEdge - size, y: (Self.titleBarHeight - size) / 2,
                                width: size, height: size)
        }
        // Centred in the bar, clear of the buttons on both sides.
        let buttons = 3 * (size + gap) + gap
        titleLabel.frame = Rect(x: buttons, y: 0, width: max(0, titleBar.bounds.width - 2 * buttons), height: Self.titleBarHeight)
    }

    /// Resize cursors on the edges.
    override func cursor(at point: Point) -> Cursor? {
        switch edge(at: point) {
        case .top?: .resizeTop
        case .bottom?: .resizeBottom
        case .left?: .resizeLeft
        case .right?: .resizeRight
        case .topLeft?: .resizeTopLeft
        case .topRight?: .resizeTopRight
        case .bottomLeft?: .resizeBottomLeft
        case .bottomRight?: .resizeBottomRight
        default: cursor
        }
    }

    /// Where a press starts: the title bar moves (twice: maximizes), the margins resize.
    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        guard let touch = touches.first else { return }
        let p = touch.location(in: self)
        if titleBar.frame.contains(p) {
            onRequest?(touch.tapCount == 2 ? .toggleMaximized : .move)
        } else if let edge = edge(at: p) {
            onRequest?(.resize(edge))
        }
    }

    override func pointerButton(_ button: PointerButton, pressed: Bool, with event: Event?) {
        guard button == .right, pressed, let window else { return }
        onRequest?(.showMenu(window.input.pointerLocation ?? .zero))
    }

    /// The edge or corner a point in the margins resizes (corners take a title bar's height along the sides).
    func edge(at p: Point) -> ToplevelWindow.Edge? {
        guard isFloating else { return nil }
        let m = Self.margin, corner = Self.titleBarHeight
        let left = p.x < m + (p.y < corner || p.y > bounds.height - corner ? corner - m : 0)
        let right = p.x > bounds.width - m - (p.y < corner || p.y > bounds.height - corner ? corner - m : 0)
        let top = p.y < m, bottom = p.y > bounds.height - m
        switch (top, bottom, left, right) {
        case (true, _, true, _): return .topLeft
        case (true, _, _, true): return .topRight
        case (_, true, true, _): return .bottomLeft
        case (_, true, _, true): return .bottomRight
        case (true, _, _, _): return .top
        case (_, true, _, _): return .bottom
        case (_, _, true, _): return .left
        case (_, _, _, true): return .right
        default: return nil
        }
    }
}

/// A title bar button: a glyph drawn with a shape layer; it acts when a touch
/// that began on it ends on it.
@MainActor
final class DecorationButton: View {
    enum Glyph { case close, maximize, minimize }
    override class var layerClass: Layer.Type { ShapeLayer.self }
    var onPress: () -> Void = {}
    let glyph: Glyph

    // A push button named for what it does (rule Y2); activating it presses it.
    override var defaultIsAccessibilityElement: Bool { true }
    override var defaultAccessibilityTraits: AccessibilityTraits { .button }
    override var defaultAccessibilityLabel: String? {
        switch glyph {
        case .close: "Close"
        case .maximize: "Maximize"
        case .minimize: "Minimize"
        }
    }
    override func accessibilityActivate() -> Bool {
        onPress()
        return true
    }

    init(glyph: Glyph) {
        self.glyph = glyph
        super.init(frame: Rect(x: 0, y: 0, width: 24, height: 24))
        layer.cornerRadius = 12
        let shape = layer as! ShapeLayer
        let path = Path()
        switch glyph {
        case .close:
            path.move(to: Point(x: 8, y: 8)); path.addLine(to: Point(x: 16, y: 16))
            path.move(to: Point(x: 16, y: 8)); path.addLine(to: Point(x: 8, y: 16))
        case .maximize:
            path.move(to: Point(x: 7.5, y: 7.5)); path.addLine(to: Point(x: 16.5, y: 7.5)); path.addLine(to: Point(x: 16.5, y: 16.5))
            path.addLine(to: Point(x: 7.5, y: 16.5)); path.closeSubpath()
        case .minimize:
            path.move(to: Point(x: 8, y: 16)); path.addLine(to: Point(x: 16, y: 16))
        }
        shape.path = path
        shape.fillColor = nil
        setColor(Color(light: Color(rgba8: 0x2e, 0x34, 0x36), dark: Color(rgba8: 0xe5, 0xe5, 0xea)), of: shape, \.strokeColor)
        shape.lineWidth = 1.5
        backgroundColor = Color(light: Color(rgba8: 0xd8, 0xd8, 0xdc), dark: Color(rgba8: 0x48, 0x48, 0x4a))
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event?) {
        alpha = 0.6
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event?) {
        alpha = 1
        if let t = touches.first, bounds.contains(t.location(in: self)) { onPress() }
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event?) { alpha = 1 }
}
