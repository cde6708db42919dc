import WaylandClient

/// Takes the compositor's seats' events to the windows they are for: pointer
/// and touch events to the window whose surface they entered, keys to the window
/// with keyboard focus — through `Window.handle(_:)`, the path `InputDriver`
/// takes too (rule W3).
@MainActor
final class SeatRouter {
    private weak var pointerWindow: Window?
    private(set) weak var keyboardWindow: Window? {
        didSet { if keyboardWindow !== oldValue { Application.shared.accessibilityExporter?.activeWindowChanged(from: oldValue, to: keyboardWindow) } }
    }
    private var touchWindows: [Int32: Window] = [:]
    /// Where each held key's press went, and the window under that popup: a
    /// release goes where its press went (as offscreen, `routeToPopups`), also
    /// when the compositor still names a popup the press closed (Left closing a
    /// submenu) — then to the window the popup stood on, not lost.
    private var keyPresses: [UInt32: (window: WeakWindow, top: WeakWindow)] = [:]
    /// The compositor's key repeat, for windows shown later too.
    private(set) var repeatInfo: (rate: Double, delay: Double)?
    private let windows: () -> [Window]

    init(windows: @escaping () -> [Window]) { self.windows = windows }

    /// Each seat's selection, where the compositor offers copy and paste.
    private(set) var clipboards: [(Clipboard, Seat)] = []

    func attach(_ seat: Seat, display: Display) {
        seat.onEvent = { [unowned self, unowned seat] in
            if case let .pointerButton(_, true, serial) = $0 { pointerWindow?.onscreen?.latestPress = (seat, serial) }
            if case let .touchDown(surface, _, _, _) = $0 { window(for: surface)?.onscreen?.latestPress = (seat, seat.lastSerial) }
            handle($0)
            if case .pointerEntered = $0, let w = pointerWindow {
                // A client sets its cursor on every enter; then whenever the view under it wants another.
                seat.setCursor(w.cursor.names, scale: Int(w.scale.rounded(.up)))
                // Weak all round: the window may outlive this router and its seat (a disconnect).
                w.input.onCursorChange = { [weak self, weak w, weak seat] c in
                    guard let self, let w, let seat, w === self.pointerWindow else { return }
                    seat.setCursor(c.names, scale: Int(w.scale.rounded(.up)))
                }
            }
        }
        seat.textInput?.onEvent = { [unowned self, unowned seat] event in
            switch event {
            case let .entered(surface):
                window(for: surface)?.textInput = seat.textInput
            case let .left(surface):
                window(for: surface)?.textInput = nil
            case let .done(update):
                let w = seat.textInput?.focusedSurface.flatMap(window(for:)) ?? keyboardWindow
                w?.handle(.composition(preedit: update.preedit?.text, commit: update.commit,
                                       deleteBefore: update.deleteBefore, deleteAfter: update.deleteAfter))
            }
        }
        for kind in [Clipboard.Kind.clipboard, .primary] {
            if let clipboard = try? Clipboard(display: display, seat: seat, kind: kind) { clipboards.append((clipboard, seat)) }
        }
        if let dnd = clipboards.last(where: { $0.1 === seat && $0.0.kind == .clipboard })?.0.dragAndDrop { routeDrops(of: dnd) }
    }

    /// The window a drag is over now.
    private weak var dropWindow: Window?

    /// Drags from any app over our surfaces go to their window's drop targets;
    /// the target's answer is the MIME type and action accepted.
    private func routeDrops(of dnd: DragAndDrop) {
        var types: [String] = []
        // The closure is dnd's own: it holds dnd weakly (else the two keep each other, and
        // the connection with them, after the app disconnects).
        dnd.onTargetEvent = { [unowned self, weak dnd] event in
            guard let dnd else { return }
            @MainActor func answer(_ op: DropOperation, _ types: [String]) {
                let taken = op == .copy || op == .move
                let type = ([DragItem.uriList] + DragItem.textTypes).first(where: types.contains)
                dnd.accept(mimeType: taken ? type : nil, action: op.action)
            }
            switch event {
            case let .entered(surface, x, y, offered, actions):
                dropWindow = window(for: surface)
                types = offered
                let load: (String, @escaping @MainActor ([UInt8]?) -> Void) -> Void = { type, done in
                    dnd.receive(mimeType: type) { done(try? $0.get()) }
                }
                let op = dropWindow?.handleDrop(.entered(Point(x: x, y: y), types: offered, allowed: DropOperation.allowed(by: actions), load: load))
                answer(op ?? .cancel, types)
            case let .moved(x, y):
                answer(dropWindow?.handleDrop(.moved(Point(x: x, y: y))) ?? .cancel, types)
            case .left:
                dropWindow?.handleDrop(.left)
                dropWindow = nil
            case .dropped:
                guard let w = dropWindow else { return dnd.finishDrop() }
                dropWindow = nil
                w.handleDrop(.dropped { _ in dnd.finishDrop() })
            }
        }
    }

    /// The app's window or open popup whose surface this is.
    private func window(for surface: SurfaceID) -> Window? {
        for window in windows() {
            if window.surfaceID == surface { return window }
            if let popup = window.popupsInStackingOrder.first(where: { $0.window.surfaceID == surface }) { return popup.window }
        }
        return nil
    }

    func handle(_ event: SeatEvent) {
        switch event {
        case let .pointerEntered(surface, x, y, _):
            pointerWindow = window(for: surface)
            pointerWindow?.handle(.pointerMoved(Point(x: x, y: y)))
        case .pointerLeft:
            pointerWindow?.handle(.pointerLeft)
            pointerWindow = nil
        case let .pointerMoved(x, y):
            pointerWindow?.handle(.pointerMoved(Point(x: x, y: y)))
        case let .pointerButton(code, pressed, _):
            if let button = PointerButton(code: code) { pointerWindow?.handle(.pointerButton(button, pressed: pressed)) }
        case let .scroll(dx, dy, _):
            pointerWindow?.handle(.scroll(dx: dx, dy: dy))
        case let .keyboardEntered(surface, _, _):
            keyboardWindow = window(for: surface)
            if let r = repeatInfo { keyboardWindow?.setKeyRepeat(rate: r.rate, delay: r.delay) }
        case .keyboardLeft:
            keyboardWindow?.handle(.keyboardLeft)
            keyboardWindow = nil
            keyPresses = [:]
        case let .keyPressed(press, modifiers):
            guard let w = keyboardWindow else { return }
            keyPresses[press.keyCode] = (WeakWindow(window: w), WeakWindow(window: w.topWindow))
            w.handle(.key(Key(press, modifiers: modifiers), pressed: true, repeats: press.repeats))
        case let .keyReleased(code, keysym, modifiers):
            let key = Key(characters: "", charactersIgnoringModifiers: "", modifierFlags: KeyModifierFlags(modifiers), keysym: keysym, keyCode: code)
            let press = keyPresses.removeValue(forKey: code)
            let target = [press?.window.window, press?.top.window].compactMap { $0 }.first { $0.isVisible } ?? keyboardWindow
            target?.handle(.key(key, pressed: false, repeats: false))
        case let .repeatInfo(rate, delay):
            repeatInfo = (rate, delay)
            keyboardWindow?.setKeyRepeat(rate: rate, delay: delay)
        case let .keymapFailed(error):
            Diagnostics.report(.invalidView("keyboard off: \(error)"))
            keyboardWindow?.handle(.keyboardLeft)
        case let .touchDown(surface, id, x, y):
            guard let w = window(for: surface) else { return }
            touchWindows[id] = w
            w.handle(.touchDown(id: Int(id), at: Point(x: x, y: y)))
        case let .touchMoved(id, x, y):
            touchWindows[id]?.handle(.touchMoved(id: Int(id), to: Point(x: x, y: y)))
        case let .touchUp(id):
            touchWindows.removeValue(forKey: id)?.handle(.touchUp(id: Int(id)))
        case .touchesCancelled:
            cancelTouches()
        case .devicesGone:
            // Nothing may stay pressed: keys stop repeating, touches and buttons are cancelled.
            keyboardWindow?.handle(.keyboardLeft)
            pointerWindow?.handle(.pointerButton(.left, pressed: false))
            pointerWindow?.handle(.pointerLeft)
            cancelTouches()
            (keyboardWindow, pointerWindow) = (nil, nil)
            keyPresses = [:]
        }
    }

    private func cancelTouches() {
        var seen = Set<ObjectIdentifier>()
        for w in touchWindows.values where seen.insert(ObjectIdentifier(w)).inserted { w.handle(.touchesCancelled) }
        touchWindows = [:]
    }
}
