import Glibc
import WaylandClient

/// Input through wlroots' virtual devices: a pointer (`zwlr_virtual_pointer_v1`)
/// at absolute output coordinates with its buttons and wheel, and a keyboard
/// (`zwp_virtual_keyboard_v1`, a US keymap) typing by evdev code — arriving at
/// clients as a real seat's would, on sway and other wlroots-based compositors
/// that offer them. A separate connection of its own. No touch screen: touches
/// throw ``InputUnavailable``, as keys do where no virtual keyboard is offered.
@MainActor
public final class WlrootsVirtualInput: InjectedInput {
    private let connection: Connection
    private let registry: Registry
    private let manager: ZwlrVirtualPointerManagerV1
    /// Made at the first pointer event: a pointer in the seat makes wlroots draw
    /// a cursor on the output, which a test that only types should not find in
    /// its captures.
    private var madePointer: ZwlrVirtualPointerV1?
    private let keyboard: VirtualKeyboard?
    private let compositorName: String
    /// The output layout's logical size: the extent absolute motion is measured in.
    private let extent: (width: UInt32, height: UInt32)

    /// Binds the virtual devices on the compositor at `socketPath`, the pointer
    /// moving over an output layout of `width` × `height` logical pixels.
    public init(socketPath: String, width: Int, height: Int, compositorName: String) throws {
        self.compositorName = compositorName
        connection = try Connection(socket: socketPath)
        registry = Registry(connection: connection)
        try connection.roundtrip()
        guard let manager = registry.bindIfOffered(ZwlrVirtualPointerManagerV1.self) else {
            throw InputUnavailable(description: "\(compositorName) offers no wlroots virtual pointer (zwlr_virtual_pointer_manager_v1)")
        }
        self.manager = manager
        guard width > 0, height > 0 else { throw InputUnavailable(description: "\(compositorName): an output of \(width)x\(height)") }
        extent = (UInt32(width), UInt32(height))
        keyboard = VirtualKeyboard(registry: registry)
        try connection.roundtrip()
    }

    /// The pointer, made when first needed (in the compositor's default seat).
    /// Clients bind a seat's new pointer when told of it, and events sent before
    /// then are lost to them: the first event waits a moment.
    private func pointer() throws -> ZwlrVirtualPointerV1 {
        if let madePointer { return madePointer }
        let made = manager.createVirtualPointer(seat: nil)
        try connection.roundtrip()
        usleep(300_000)
        madePointer = made
        return made
    }

    /// Milliseconds, as input events carry them.
    private var time: UInt32 { UInt32(truncatingIfNeeded: Int64(MonotonicClock.now * 1000)) }

    public func movePointer(toX x: Double, y: Double) throws {
        let cx = UInt32(max(0, min(Double(extent.width - 1), x.rounded())))
        let cy = UInt32(max(0, min(Double(extent.height - 1), y.rounded())))
        let pointer = try pointer()
        pointer.motionAbsolute(time: time, x: cx, y: cy, xExtent: extent.width, yExtent: extent.height)
        pointer.frame()
        try connection.roundtrip()
    }

    public func button(_ button: UInt32, pressed: Bool) throws {
        let pointer = try pointer()
        pointer.button(time: time, button: button, state: pressed ? 1 : 0)
        pointer.frame()
        try connection.roundtrip()
    }

    public func scroll(dx: Double, dy: Double) throws {
        let pointer = try pointer()
        if dy != 0 { pointer.axis(time: time, axis: 0, value: dy) }
        if dx != 0 { pointer.axis(time: time, axis: 1, value: dx) }
        pointer.frame()
        try connection.roundtrip()
    }

    public func wheel(steps: Int, horizontal: Bool) throws {
        let pointer = try pointer()
        pointer.axisSource(axisSource: 0)   // a wheel
        pointer.axisDiscrete(time: time, axis: horizontal ? 1 : 0, value: Double(steps) * 15, discrete: Int32(clamping: steps))
        pointer.frame()
        try connection.roundtrip()
    }

    public func touchDown(_ id: UInt32, x: Double, y: Double) throws { throw noTouch }
    public func touchMove(_ id: UInt32, x: Double, y: Double) throws { throw noTouch }
    public func touchUp(_ id: UInt32) throws { throw noTouch }

    public func key(_ code: UInt32, pressed: Bool) throws {
        guard let keyboard else { throw InputUnavailable(description: "\(compositorName) offers no zwp_virtual_keyboard_manager_v1") }
        keyboard.key(code, pressed: pressed, time: time)
        try connection.roundtrip()
    }

    private var noTouch: InputUnavailable { InputUnavailable(description: "\(compositorName) offers no touch screen to inject") }
}

/// A virtual keyboard with a US keymap. The compositor takes the modifiers a
/// client says are down (it does not work them out from the keys), so the
/// keyboard keeps a keymap state of its own and tells them after every key.
@MainActor
private final class VirtualKeyboard {
    private let device: ZwpVirtualKeyboardV1
    private let keymap: Keyboard
    /// A new keyboard adds one to the seat: clients bind it when told, and keys
    /// sent before then are lost to them. The first key waits until this.
    private let usableFrom = MonotonicClock.now + 0.3

    init?(registry: Registry) {
        guard let manager = try? registry.bind(ZwpVirtualKeyboardManagerV1.self), let seat = try? registry.bind(WlSeat.self),
              let keymap = try? Keyboard(layout: "us"), let text = keymap.keymapText else { return nil }
        // The keymap goes as a file, its terminating NUL included.
        var path = Array("/tmp/strata-keymap-XXXXXX".utf8CString)
        let fd = mkstemp(&path)
        guard fd >= 0 else { return nil }
        unlink(path)
        defer { close(fd) }
        let size = text.utf8.count + 1
        guard text.withCString({ write(fd, $0, size) }) == size else { return nil }
        self.keymap = keymap
        device = manager.createVirtualKeyboard(seat: seat)
        device.keymap(format: 1, fd: fd, size: UInt32(size))   // 1: xkb's text format
    }

    func key(_ code: UInt32, pressed: Bool, time: UInt32) {
        let early = usableFrom - MonotonicClock.now
        if early > 0 { usleep(UInt32(early * 1_000_000)) }
        if pressed { _ = keymap.press(keyCode: code) } else { keymap.release(keyCode: code) }
        device.key(time: time, key: code, state: pressed ? 1 : 0)
        let m = keymap.serializedModifiers
        device.modifiers(modsDepressed: m.depressed, modsLatched: m.latched, modsLocked: m.locked, group: m.group)
    }
}
