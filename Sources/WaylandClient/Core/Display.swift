/// A client's view of a compositor: the connection, its globals, and the objects
/// every window needs, bound once at the highest versions both sides support.
///
/// Required: `wl_compositor`, `wl_shm`, `xdg_wm_base` (a missing one is
/// ``WaylandError/missingGlobal(interface:)``). Optional features are bound when
/// offered and simply absent otherwise: server-side decorations, viewporter,
/// fractional scale, presentation feedback, single-pixel buffers, activation,
/// copy and paste, the primary selection, input methods' text input, dialogs,
/// shell layers.
@MainActor
public final class Display {
    public let connection: Connection
    public let registry: Registry
    public let compositor: WlCompositor
    public let shm: WlShm
    public let wmBase: XdgWmBase
    public let decorationManager: ZxdgDecorationManagerV1?
    public let viewporter: WpViewporter?
    public let fractionalScaleManager: WpFractionalScaleManagerV1?
    public let presentation: WpPresentation?
    public let singlePixelBufferManager: WpSinglePixelBufferManagerV1?
    public let activation: XdgActivationV1?
    /// Dialog hints for toplevels, modality (`xdg_wm_dialog_v1`), when offered.
    public let dialogManager: XdgWmDialogV1?
    /// Handles naming toplevels to other clients (`zxdg_exporter_v2`: a portal's
    /// dialog made the child of an app's window), when offered.
    public let exporter: ZxdgExporterV2?
    /// The first version of the same (`zxdg_exporter_v1`), for compositors that
    /// offer only it.
    public let exporterV1: ZxdgExporterV1?
    /// Shell layers for panels and overlays (`zwlr_layer_shell_v1`), when offered.
    public let layerShell: ZwlrLayerShellV1?
    /// Session locks (`ext_session_lock_manager_v1`), where the compositor offers them.
    public let sessionLockManager: ExtSessionLockManagerV1?
    /// Copy and paste, drag and drop (`wl_data_device_manager`), when offered.
    public let dataDeviceManager: WlDataDeviceManager?
    /// The primary selection (middle-click paste), when offered.
    public let primarySelectionManager: ZwpPrimarySelectionDeviceManagerV1?
    /// Input methods' text (`zwp_text_input_manager_v3`), when offered.
    public let textInputManager: ZwpTextInputManagerV3?
    /// Cursors by shape name, drawn by the compositor (`wp_cursor_shape_manager_v1`), where offered.
    public let cursorShapeManager: WpCursorShapeManagerV1?
    /// The outputs, as they come and go, with their scale.
    public private(set) var outputs: [UInt32: Output] = [:]
    /// The seats, as they come and go, with their capabilities.
    public private(set) var seats: [UInt32: Seat] = [:]
    /// Told of each seat that appears after the display connected.
    public var onSeatAdded: ((Seat) -> Void)?
    /// Told of each output that appears after the display connected (it describes
    /// itself a moment later: ``Output/onChange``), and of each that goes.
    public var onOutputAdded: ((Output) -> Void)?
    public var onOutputRemoved: ((Output) -> Void)?
    /// The pixel formats `wl_shm` offers.
    public private(set) var shmFormats: Set<UInt32> = []
    /// The clock `wp_presentation` timestamps use (CLOCK_MONOTONIC when absent).
    public private(set) var presentationClock: UInt32 = 1

    /// Connects and binds the globals. Throws when the compositor cannot be
    /// reached or lacks a required global.
    public init(socket: String? = nil, timeout: Double = 5) throws(WaylandError) {
        connection = try Connection(socket: socket)
        registry = Registry(connection: connection)
        try connection.roundtrip(timeout: timeout)
        compositor = try registry.bind(WlCompositor.self, minVersion: 4)
        shm = try registry.bind(WlShm.self)
        wmBase = try registry.bind(XdgWmBase.self)
        decorationManager = registry.bindIfOffered(ZxdgDecorationManagerV1.self)
        viewporter = registry.bindIfOffered(WpViewporter.self)
        fractionalScaleManager = registry.bindIfOffered(WpFractionalScaleManagerV1.self)
        presentation = registry.bindIfOffered(WpPresentation.self)
        singlePixelBufferManager = registry.bindIfOffered(WpSinglePixelBufferManagerV1.self)
        activation = registry.bindIfOffered(XdgActivationV1.self)
        dialogManager = registry.bindIfOffered(XdgWmDialogV1.self)
        exporter = registry.bindIfOffered(ZxdgExporterV2.self)
        exporterV1 = registry.bindIfOffered(ZxdgExporterV1.self)
        layerShell = registry.bindIfOffered(ZwlrLayerShellV1.self)
        sessionLockManager = registry.bindIfOffered(ExtSessionLockManagerV1.self)
        dataDeviceManager = registry.bindIfOffered(WlDataDeviceManager.self)
        primarySelectionManager = registry.bindIfOffered(ZwpPrimarySelectionDeviceManagerV1.self)
        textInputManager = registry.bindIfOffered(ZwpTextInputManagerV3.self)
        cursorShapeManager = registry.bindIfOffered(WpCursorShapeManagerV1.self)

        wmBase.onEvent = { [unowned wmBase] event in
            if case let .ping(serial) = event { wmBase.pong(serial: serial) }
        }
        shm.onEvent = { [unowned self] event in
            if case let .format(format) = event { shmFormats.insert(format.rawValue) }
        }
        presentation?.onEvent = { [unowned self] event in
            if case let .clockId(clk) = event { presentationClock = clk }
        }
        for g in registry.globals.values { globalAdded(g) }
        registry.onGlobalAdded = { [unowned self] g in globalAdded(g) }
        registry.onGlobalRemoved = { [unowned self] g in
            if let output = outputs.removeValue(forKey: g.name) { onOutputRemoved?(output) }
            if let seat = seats.removeValue(forKey: g.name) { seat.removed() }
        }
        try connection.roundtrip(timeout: timeout)
        // Said once a process, as a library's notice is (each connection would repeat it).
        if presentation == nil && !Self.saidPresentationIsMissing {
            Self.saidPresentationIsMissing = true
            printError("WaylandClient: wp_presentation unavailable: frame statistics use frame-callback times")
        }
    }

    // A line in the log, said once per process however many displays connect.
    private static var saidPresentationIsMissing = false

    private func globalAdded(_ g: Registry.Global) {
        switch g.interface {
        case WlOutput.interfaceName:
            guard outputs[g.name] == nil, let wl = try? registry.bind(g, WlOutput.self) else { return }
            let output = Output(wl, globalName: g.name)
            outputs[g.name] = output
            onOutputAdded?(output)
        case WlSeat.interfaceName:
            guard seats[g.name] == nil, let wl = try? registry.bind(g, WlSeat.self) else { return }
            let seat = Seat(wl, compositor: compositor, shm: shm, cursorShapes: cursorShapeManager)
            if let m = textInputManager { seat.textInput = TextInput(m.getTextInput(seat: wl)) }
            seats[g.name] = seat
            onSeatAdded?(seat)
        default:
            break
        }
    }

    /// The output a `wl_output` proxy belongs to.
    public func output(for proxy: WlOutput) -> Output? {
        outputs.values.first { $0.proxy === proxy }
    }
}

/// An output (`wl_output`) and what it says about itself.
@MainActor
public final class Output {
    public let proxy: WlOutput
    /// The registry's name for its global (it goes away with it).
    public let globalName: UInt32
    /// The integer scale factor; 1 until the output says otherwise.
    public private(set) var scale: Int32 = 1
    /// Its name ("HDMI-A-1", "HEADLESS-1"; `wl_output` 4), else nil.
    public private(set) var name: String?
    /// A description a person reads (`wl_output` 4), else make and model.
    public private(set) var description: String?
    public private(set) var make = ""
    public private(set) var model = ""
    /// The current mode in pixels.
    public private(set) var width: Int32 = 0
    public private(set) var height: Int32 = 0
    /// Refresh rate in mHz, 0 when unknown.
    public private(set) var refresh: Int32 = 0
    /// `wl_output.transform`: 0 normal, 1–3 rotated by 90°, 180°, 270°, 4–7 flipped.
    public private(set) var transform: Int32 = 0
    /// True once the output sent its first `done` (all of the above are in).
    public private(set) var isDescribed = false
    /// Called after each `done` (the description changed).
    public var onChange: ((Output) -> Void)?

    init(_ proxy: WlOutput, globalName: UInt32) {
        self.proxy = proxy
        self.globalName = globalName
        proxy.onEvent = { [unowned self] event in
            switch event {
            case let .scale(factor): scale = max(1, factor)
            case let .name(n): name = n
            case let .description(d): description = d
            case let .geometry(_, _, _, _, _, mk, md, t): (make, model, transform) = (mk, md, t)
            case let .mode(flags, w, h, r) where flags.contains(.current):
                (width, height, refresh) = (w, h, r)
            case .done:
                isDescribed = true
                onChange?(self)
            default: break
            }
        }
    }

    /// The size in pixels as shown: width and height swapped when rotated a quarter turn.
    public var shownSize: (width: Int32, height: Int32) {
        transform % 2 == 1 ? (height, width) : (width, height)
    }
}
