import Glibc
import PixmanRender
import WaylandClient

/// The app: its windows, its connection to the compositor and its event loop
/// (`UIApplication`, rule W1, W3).
///
/// ```swift
/// let window = Window(title: "Hello", size: Size(width: 400, height: 300))
/// window.rootView.addSubview(card)
/// window.show()
/// Application.shared.run()
/// ```
///
/// Windows shown before ``run()`` open when it connects. Implicit transactions
/// commit at the end of each turn of the loop; the application's one commit
/// observer forwards each commit to every shown window.
@MainActor
public final class Application: Responder {
    /// The one application.
    public static let shared = Application()

    /// The shown windows, in the order they were shown.
    public private(set) var windows: [Window] = []
    /// The app's identity on the desktop (`xdg_toplevel.set_app_id` on every
    /// window it shows): task lists and docks match it to a desktop entry of the
    /// same name (`ID.desktop`), so make it your reverse-DNS id, e.g.
    /// `org.example.Notes`, before showing windows. By default the program's
    /// file name, as GTK and Qt use when none is set.
    public var applicationID: String = Application.defaultApplicationID

    static var defaultApplicationID: String {
        let name = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
        return name.isEmpty ? "strata" : name
    }

    /// Whether ``connect(socket:)`` starts following the desktop's appearance
    /// (``followSystemAppearance(busAddress:)``). Set it false first to pin the
    /// app's look (``LayerContext/systemTraits`` of ``LayerContext/main``).
    public var followsSystemAppearance = true
    /// The desktop's settings, while the app follows them.
    var settingsPortal: SettingsPortal?
    /// Whether ``connect(socket:)`` starts exporting the app to assistive
    /// technologies when one asks (``followAccessibilityStatus(busAddress:)``).
    public var exportsAccessibility = true
    /// Whether an assistive technology asks, and the export while it does.
    var accessibilityWatcher: AccessibilityStatusWatcher?
    /// The connection file choosers and opened links go through, made when first needed.
    var portal: DesktopPortal?
    /// The bus xdg-desktop-portal is reached on for file choosers and opened
    /// links: nil is the session bus (`DBUS_SESSION_BUS_ADDRESS`, else
    /// `$XDG_RUNTIME_DIR/bus`). A test points it at a private bus.
    public var desktopBusAddress: String? { didSet { portal = nil } }
    /// Whether the person asked for less motion (`UIAccessibility.isReduceMotionEnabled`):
    /// GNOME's `enable-animations` off, read through the Settings portal. The
    /// app's context's ``LayerContext/systemReducesMotion``; set it to pin it.
    public var isReduceMotionEnabled: Bool {
        get { LayerContext.main.systemReducesMotion }
        set { LayerContext.main.systemReducesMotion = newValue }
    }
    /// Told when the system's reduce-motion setting changes
    /// (`UIAccessibility.reduceMotionStatusDidChangeNotification`).
    public var onReduceMotionChange: (() -> Void)?
    /// The compositor connection, once made (``connect(socket:)``, ``run()``).
    public private(set) var display: Display?
    /// The event loop ``run()`` turns.
    public private(set) var loop: EventLoop?
    /// ``run()`` returns when the last window closes (default true).
    public var quitsWhenLastWindowCloses = true
    /// Takes the seats' input to the windows.
    private lazy var seats = SeatRouter { [unowned self] in windows }
    private override init() {
        super.init()
        // One hook for all windows: each commit may change what any of them shows
        // (each window looks at its own tree), and may add events or timers.
        // The app's context is the process's (tests that make their own contexts run offscreen).
        LayerContext.main.setCommitObserver(for: ObjectIdentifier(self)) { [unowned self] in
            for window in windows {
                window.onscreen?.transactionCommitted()
                for popup in window.popupsInStackingOrder { popup.window.onscreen?.transactionCommitted() }
            }
            accessibilityExporter?.treeCommitted()
            scheduleEventWakeUp()
        }
    }

    // MARK: Animation events outside the windows' frames

    private var eventWakeUp: MediaWakeUp?

    /// Animation events (delegate calls, completion blocks, removals) and media
    /// timers belong to the app, not to a surface: one wake-up delivers them when
    /// they fall due, so a window whose tree has none of them is not woken.
    private func scheduleEventWakeUp() {
        eventWakeUp?.schedule(atMediaTime: AnimationTimeline.nextEventTime(after: currentMediaTime())) { [unowned self] in
            AnimationTimeline.deliverDueEvents(in: .main)
            scheduleEventWakeUp()
        }
    }

    // MARK: Connecting

    /// Connects to the compositor named by `socket` (default: `WAYLAND_DISPLAY`)
    /// and opens every window already shown on it.
    public func connect(socket: String? = nil) throws(WaylandError) {
        guard display == nil else { return }
        use(try Display(socket: socket))
        if followsSystemAppearance { followSystemAppearance() }
        if exportsAccessibility { followAccessibilityStatus() }
    }

    /// Uses a display connected elsewhere (a test's headless compositor) and an
    /// event loop on it (a new one when nil).
    public func use(_ display: Display, loop: EventLoop? = nil) {
        self.display = display
        let loop = loop ?? EventLoop(connection: display.connection)
        self.loop = loop
        eventWakeUp?.cancel()
        eventWakeUp = MediaWakeUp(loop: loop)
        LayerContext.main.endOfTurnScheduler = { body in loop.atEndOfTurn(body) }
        attachScreens(of: display)
        for seat in display.seats.values { seats.attach(seat, display: display) }
        display.onSeatAdded = { [unowned self, unowned display] in seats.attach($0, display: display) }
        for window in windows where window.onscreen == nil {
            window.onscreen = window.makeOnscreen(display: display, loop: loop)
        }
    }

    // MARK: Screens

    /// The outputs of the compositor, as ``Screen``s (empty offscreen).
    public private(set) var screens: [Screen] = []
    /// Told when an output appears (once it has described itself) and when one goes.
    public var onScreenAdded: ((Screen) -> Void)?
    public var onScreenRemoved: ((Screen) -> Void)?

    private func attachScreens(of display: Display) {
        screens = display.outputs.values.sorted { $0.globalName < $1.globalName }.map(Screen.init)
        display.onOutputAdded = { [unowned self] output in
            // Added once it has described itself (the closure lets go of it then).
            let screen = Screen(output)
            output.onChange = { [unowned self] output in
                output.onChange = nil
                screens.append(screen)
                onScreenAdded?(screen)
            }
        }
        display.onOutputRemoved = { [unowned self] output in
            guard let i = screens.firstIndex(where: { $0.output === output }) else { return }
            let screen = screens.remove(at: i)
            screen.detach()
            onScreenRemoved?(screen)
        }
    }

    /// The window with the keyboard focus, if one of ours has it.
    public var keyboardFocusWindow: Window? { seats.keyboardWindow }

    /// The seat and serial of the latest input on any seat (activation quotes it).
    var latestInput: (seat: Seat, serial: UInt32)? {
        guard let seat = display?.seats.values.max(by: { $0.lastSerial < $1.lastSerial }), seat.lastSerial != 0 else { return nil }
        return (seat, seat.lastSerial)
    }

    /// The first seat's selection of `kind`, for the pasteboards (nil offscreen).
    func clipboard(_ kind: Clipboard.Kind) -> (Clipboard, Seat)? {
        display == nil ? nil : seats.clipboards.first { $0.0.kind == kind }
    }

    /// The drag and drop of `seat` (on its clipboard's data device).
    func dragAndDrop(for seat: Seat) -> DragAndDrop? {
        seats.clipboards.first { $0.1 === seat && $0.0.kind == .clipboard }?.0.dragAndDrop
    }

    /// Closes every window and forgets the connection (tests end with it).
    public func disconnect() {
        for window in windows { window.close() }
        seats = SeatRouter { [unowned self] in windows }
        eventWakeUp?.cancel()
        eventWakeUp = nil
        screens.forEach { $0.detach() }
        screens = []
        display = nil
        loop = nil
        settingsPortal?.stop()
        settingsPortal = nil
        accessibilityWatcher?.stop()
        accessibilityWatcher = nil
        portal = nil
        LayerContext.main.endOfTurnScheduler = { body in Task { @MainActor in body() } }
    }

    // MARK: Running

    /// How ``run()`` runs the app.
    public enum RunMode: Sendable, Equatable {
        /// On the compositor (`WAYLAND_DISPLAY`).
        case compositor
        /// Without a compositor (rule W3): every shown window is rendered at
        /// `framesPerSecond` over `duration` seconds of media time into
        /// `directory` — `TITLE.png` (the last frame) and `TITLE-filmstrip.png`
        /// (at most 16 frames spread over the run). Durations past an hour and
        /// rates past 240 frames a second are clamped.
        case offscreen(directory: String, duration: Double, framesPerSecond: Double)
    }

    /// The mode the environment asks for: `STRATA_OFFSCREEN=DIR` (with
    /// `STRATA_OFFSCREEN_DURATION`, default 1 s, and `STRATA_OFFSCREEN_FPS`,
    /// default 8) runs offscreen; otherwise on the compositor.
    public static var environmentRunMode: RunMode {
        guard let dir = getenv("STRATA_OFFSCREEN").map({ String(cString: $0) }), !dir.isEmpty else { return .compositor }
        func number(_ name: String, _ fallback: Double) -> Double {
            guard let s = getenv(name), let v = Double(String(cString: s)), v.isFinite, v > 0 else { return fallback }
            return v
        }
        return .offscreen(directory: dir, duration: number("STRATA_OFFSCREEN_DURATION", 1),
                          framesPerSecond: min(240, number("STRATA_OFFSCREEN_FPS", 8)))
    }

    /// Runs the app until ``stop()`` or its last window closes. On a compositor
    /// that cannot be reached it prints why (naming the socket and the runtime
    /// directory) and exits with status 1; with `STRATA_OFFSCREEN` set it renders
    /// offscreen instead (rule W3). See ``run(mode:)``.
    public func run() {
        do {
            try run(mode: Application.environmentRunMode)
        } catch {
            let line = "Strata: \(error)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            exit(1)
        }
    }

    /// Runs the app in `mode`, throwing instead of exiting. Owns the main thread
    /// (see `EventLoop.run()`); where the main dispatch queue is served elsewhere
    /// (an `async` main, a test runner) use ``runAsync(mode:)``.
    public func run(mode: RunMode) throws {
        guard let loop = try prepareToRun(mode) else { return }
        isRunning = true
        defer { isRunning = false }
        try loop.run()
    }

    /// ``run(mode:)`` from `async` code: the loop turns from the main dispatch queue.
    public func runAsync(mode: RunMode = Application.environmentRunMode) async throws {
        guard let loop = try prepareToRun(mode) else { return }
        isRunning = true
        defer { isRunning = false }
        try await loop.runAsync()
    }

    /// Connects (or runs offscreen, to the end); the loop to turn, or nil when
    /// there is nothing to run.
    private func prepareToRun(_ mode: RunMode) throws -> EventLoop? {
        switch mode {
        case .compositor:
            do {
                try connect()
            } catch {
                throw ApplicationError.compositorUnreachable(socket: Application.socketDescription, underlying: error)
            }
            if quitsWhenLastWindowCloses && windows.isEmpty { return nil }
            return loop
        case let .offscreen(directory, duration, fps):
            try OffscreenRun(directory: directory, duration: duration, framesPerSecond: fps).run(windows)
            return nil
        }
    }

    /// True while ``run(mode:)`` or ``runAsync(mode:)`` turns the event loop.
    public private(set) var isRunning = false

    /// Makes ``run()`` return after the current turn.
    public func stop() {
        loop?.stop()
    }

    private static var socketDescription: String {
        let socket = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        let dir = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "(XDG_RUNTIME_DIR unset)"
        return socket.hasPrefix("/") ? socket : "\(dir)/\(socket)"
    }

    // MARK: Windows

    func windowDidShow(_ window: Window) {
        guard !windows.contains(where: { $0 === window }) else { return }
        windows.append(window)
        accessibilityExporter?.windowsChanged()
        if accessibilityExporter != nil { window.rootView.tellNotificationsAppeared() }
    }

    func windowDidClose(_ window: Window) {
        windows.removeAll { $0 === window }
        accessibilityExporter?.windowsChanged()
        if windows.isEmpty && quitsWhenLastWindowCloses && isRunning { stop() }
    }
}

/// Why an app could not run.
public enum ApplicationError: Error, CustomStringConvertible {
    /// No compositor answered at the socket.
    case compositorUnreachable(socket: String, underlying: any Error)
    /// An offscreen run could not write its images.
    case cannotWrite(path: String, reason: String)

    public var description: String {
        switch self {
        case let .compositorUnreachable(socket, underlying):
            "no Wayland compositor at \(socket) (\(underlying)); start one, set WAYLAND_DISPLAY, or set STRATA_OFFSCREEN=DIR to render offscreen"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        }
    }
}
