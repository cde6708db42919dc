import Glibc

/// What a seat's devices report, in the order they reported it. Positions are
/// in the surface's coordinates.
public enum SeatEvent {
    case pointerEntered(SurfaceID, x: Double, y: Double, serial: UInt32)
    case pointerLeft(SurfaceID)
    case pointerMoved(x: Double, y: Double)
    /// A button by its Linux code (`BTN_LEFT`…).
    case pointerButton(code: UInt32, pressed: Bool, serial: UInt32)
    /// A pointer frame's scrolling, in surface units (a wheel's detents are in `value120`
    /// from version 8, else 15 units each by libinput's convention).
    case scroll(dx: Double, dy: Double, source: WlPointer.AxisSource?)
    case keyboardEntered(SurfaceID, keyCodes: [UInt32], serial: UInt32)
    case keyboardLeft(SurfaceID)
    /// A key read with the seat's keymap; `repeats` says whether the keymap repeats it.
    case keyPressed(Keyboard.KeyPress, Keyboard.Modifiers)
    case keyReleased(keyCode: UInt32, keysym: UInt32, Keyboard.Modifiers)
    /// Repeats per second (0: none) and the delay before the first, in seconds.
    case repeatInfo(rate: Double, delay: Double)
    /// The compositor's keymap did not compile: the keyboard is off until another comes.
    case keymapFailed(KeymapError)
    case touchDown(SurfaceID, id: Int32, x: Double, y: Double)
    case touchMoved(id: Int32, x: Double, y: Double)
    case touchUp(id: Int32)
    case touchesCancelled
    /// The seat went away (or lost its devices): held keys, buttons and touches are gone.
    case devicesGone
}

/// A seat (`wl_seat`): its pointer, keyboard and touch as they come and go with
/// its capabilities, reporting through ``onEvent`` (rule H5's keymap comes from
/// the compositor, read with xkbcommon).
@MainActor
public final class Seat {
    public let proxy: WlSeat
    public private(set) var capabilities: WlSeat.Capability = []
    public private(set) var name: String?
    /// Receives every event of the seat's devices.
    public var onEvent: ((SeatEvent) -> Void)?
    /// The keymap and state, once the compositor sent a keymap that compiles.
    public private(set) var keyboard: Keyboard?
    /// The serial of the latest input event (enter, key, button): requests that
    /// need user action, like setting the selection, quote it.
    public private(set) var lastSerial: UInt32 = 0
    /// Text from input methods for this seat's focused surface, where the compositor offers it.
    public internal(set) var textInput: TextInput?

    private var pointer: WlPointer?
    private var keyboardProxy: WlKeyboard?
    private var touch: WlTouch?
    /// Scrolling of the pointer frame in progress.
    private var pendingScroll: (dx: Double, dy: Double, source: WlPointer.AxisSource?, discrete: Bool)?

    private let compositor: WlCompositor
    private let shm: WlShm
    /// The serial of the pointer's latest enter: setting the cursor quotes it.
    private var enterSerial: UInt32?
    private var cursorSurface: CursorSurface?
    /// Shapes the compositor draws, where it offers them (then no theme is loaded).
    private let cursorShapes: WpCursorShapeManagerV1?
    private var shapeDevice: WpCursorShapeDeviceV1?
    /// The shape set last through `wp_cursor_shape_v1`, by its CSS name.
    private var shownShape: String?

    init(_ proxy: WlSeat, compositor: WlCompositor, shm: WlShm, cursorShapes: WpCursorShapeManagerV1? = nil) {
        self.proxy = proxy
        self.compositor = compositor
        self.shm = shm
        self.cursorShapes = cursorShapes
        proxy.onEvent = { [unowned self] event in
            switch event {
            case let .capabilities(c): capabilitiesChanged(c)
            case let .name(n): name = n
            }
        }
    }

    private func capabilitiesChanged(_ c: WlSeat.Capability) {
        let lost = capabilities.subtracting(c)
        capabilities = c
        if c.contains(.pointer), pointer == nil {
            let p = proxy.getPointer()
            p.onEvent = { [unowned self] in pointerEvent($0) }
            pointer = p
            shapeDevice = cursorShapes?.getPointer(pointer: p)
        }
        if c.contains(.keyboard), keyboardProxy == nil {
            let k = proxy.getKeyboard()
            k.onEvent = { [unowned self] in keyboardEvent($0) }
            keyboardProxy = k
        }
        if c.contains(.touch), touch == nil {
            let t = proxy.getTouch()
            t.onEvent = { [unowned self] in touchEvent($0) }
            touch = t
        }
        if !lost.isEmpty { releaseDevices(lost) }
    }

    private func releaseDevices(_ lost: WlSeat.Capability) {
        let canRelease = proxy.version >= 3
        if lost.contains(.pointer), let p = pointer {
            shapeDevice?.destroy()
            shapeDevice = nil
            if canRelease { p.release() }
            pointer = nil
        }
        if lost.contains(.keyboard), let k = keyboardProxy { if canRelease { k.release() }; keyboardProxy = nil; keyboard = nil }
        if lost.contains(.touch), let t = touch { if canRelease { t.release() }; touch = nil }
        onEvent?(.devicesGone)
    }

    /// The seat's global went away.
    func removed() {
        releaseDevices([.pointer, .keyboard, .touch])
        onEvent = nil
    }

    // MARK: Pointer

    private func pointerEvent(_ event: WlPointer.Event) {
        switch event {
        case let .enter(serial, surface?, x, y):
            lastSerial = serial
            enterSerial = serial
            onEvent?(.pointerEntered(surface.surfaceID, x: x, y: y, serial: serial))
        case let .leave(_, surface?): onEvent?(.pointerLeft(surface.surfaceID))
        case let .motion(_, x, y): onEvent?(.pointerMoved(x: x, y: y))
        case let .button(serial, _, code, state):
            lastSerial = serial
            onEvent?(.pointerButton(code: code, pressed: state == .pressed, serial: serial))
        case let .axis(_, axis, value):
            var s = pendingScroll ?? (0, 0, nil, false)
            if !s.discrete { if axis == .horizontalScroll { s.dx += value } else { s.dy += value } }
            pendingScroll = s
            if pointer?.version ?? 0 < 5 { flushScroll() }   // no frames before version 5
        case let .axisValue120(axis, value120):
            // High-resolution wheel steps replace the axis values of this frame.
            var s = pendingScroll ?? (0, 0, nil, false)
            if !s.discrete { (s.dx, s.dy, s.discrete) = (0, 0, true) }
            let units = Double(value120) / 120 * 15
            if axis == .horizontalScroll { s.dx += units } else { s.dy += units }
            pendingScroll = s
        case let .axisSource(source):
            var s = pendingScroll ?? (0, 0, nil, false)
            s.source = source
            pendingScroll = s
        case .frame: flushScroll()
        default: break
        }
    }

    /// Shows the cursor named first in `names` (CSS names: `text`, `pointer`…)
    /// while the pointer is over the client's surface: drawn by the compositor
    /// where it offers cursor shapes and knows the name, else the first of
    /// `names` the theme has, drawn at `scale`.
    public func setCursor(_ names: [String], scale: Int = 1) {
        guard let pointer, let enterSerial else { return }
        if let shapeDevice, let name = names.first, let shape = Self.cursorShape(named: name) {
            shapeDevice.setShape(serial: enterSerial, shape: shape)
            shownShape = name
            return
        }
        shownShape = nil
        let surface = cursorSurface ?? CursorSurface(compositor: compositor, shm: shm)
        cursorSurface = surface
        surface.show(names, scale: scale, pointer: pointer, serial: enterSerial)
    }

    /// The names of the cursor shown last (a shape's one name, when the compositor draws it).
    public var cursorNames: [String] { shownShape.map { [$0] } ?? cursorSurface?.shown ?? [] }

    /// The `wp_cursor_shape_device_v1` shape of a CSS cursor name (`ew-resize` is
    /// `ew_resize`), nil for names the protocol lacks.
    public static func cursorShape(named name: String) -> WpCursorShapeDeviceV1.Shape? {
        let names = ["default", "context-menu", "help", "pointer", "progress", "wait", "cell", "crosshair", "text", "vertical-text",
                     "alias", "copy", "move", "no-drop", "not-allowed", "grab", "grabbing", "e-resize", "n-resize", "ne-resize",
                     "nw-resize", "s-resize", "se-resize", "sw-resize", "w-resize", "ew-resize", "ns-resize", "nesw-resize",
                     "nwse-resize", "col-resize", "row-resize", "all-scroll", "zoom-in", "zoom-out"]
        return names.firstIndex(of: name).map { WpCursorShapeDeviceV1.Shape(rawValue: UInt32($0 + 1)) }
    }

    private func flushScroll() {
        guard let s = pendingScroll else { return }
        pendingScroll = nil
        if s.dx != 0 || s.dy != 0 { onEvent?(.scroll(dx: s.dx, dy: s.dy, source: s.source)) }
    }

    // MARK: Keyboard

    private func keyboardEvent(_ event: WlKeyboard.Event) {
        switch event {
        case let .keymap(format, fd, size):
            defer { close(fd) }
            guard format == .xkbV1, size > 0, size < 64 << 20 else {
                keyboard = nil
                onEvent?(.keymapFailed(.compileFailed("keymap format \(format.rawValue), \(size) bytes")))
                return
            }
            guard let map = mmap(nil, Int(size), PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED else {
                keyboard = nil
                onEvent?(.keymapFailed(.compileFailed("cannot map the keymap: errno \(errno)")))
                return
            }
            let text = String(cString: map.assumingMemoryBound(to: CChar.self))
            munmap(map, Int(size))
            do {
                keyboard = try Keyboard(keymapText: text)
            } catch {
                keyboard = nil
                onEvent?(.keymapFailed(error))
            }
        case let .enter(serial, surface?, keys):
            lastSerial = serial
            let codes = stride(from: 0, to: keys.count - 3, by: 4).map {
                UInt32(keys[$0]) | UInt32(keys[$0 + 1]) << 8 | UInt32(keys[$0 + 2]) << 16 | UInt32(keys[$0 + 3]) << 24
            }
            onEvent?(.keyboardEntered(surface.surfaceID, keyCodes: codes, serial: serial))
        case let .leave(_, surface?):
            onEvent?(.keyboardLeft(surface.surfaceID))
        case let .key(serial, _, code, state):
            lastSerial = serial
            guard let keyboard else { return }
            if state == .pressed {
                onEvent?(.keyPressed(keyboard.press(keyCode: code), keyboard.modifiers))
            } else {
                keyboard.release(keyCode: code)
                onEvent?(.keyReleased(keyCode: code, keysym: keyboard.keysym(keyCode: code), keyboard.modifiers))
            }
        case let .modifiers(_, depressed, latched, locked, group):
            keyboard?.updateModifiers(depressed: depressed, latched: latched, locked: locked, group: group)
        case let .repeatInfo(rate, delay):
            onEvent?(.repeatInfo(rate: Double(max(0, rate)), delay: Double(max(0, delay)) / 1000))
        default:
            break
        }
    }

    // MARK: Touch

    private func touchEvent(_ event: WlTouch.Event) {
        switch event {
        case let .down(serial, _, surface?, id, x, y):
            lastSerial = serial
            onEvent?(.touchDown(surface.surfaceID, id: id, x: x, y: y))
        case let .motion(_, id, x, y): onEvent?(.touchMoved(id: id, x: x, y: y))
        case let .up(_, _, id): onEvent?(.touchUp(id: id))
        case .cancel: onEvent?(.touchesCancelled)
        default: break
        }
    }
}
