import Glibc
import Strata

/// A top bar, as waybar is: on the top shell layer across its screen, keeping
/// its height out of other windows' way (exclusive zone). A menu button at the
/// left, the date and time in the middle, the machine's status at the right. It
/// slides down when it appears. It draws once a minute and not otherwise: the
/// clock shows minutes, and the status is read with it.
@MainActor
public final class Panel {
    public static let height = 32.0
    static let background = Color(rgba8: 0x20, 0x23, 0x28)
    static let foreground = Color(rgba8: 0xe8, 0xea, 0xed)

    public let window: ShellWindow
    let bar = View()
    let menuButton = Button(title: "Strata")
    let clock = Label(), status = Label()
    /// Whether the clock shows seconds (it then draws every second).
    public private(set) var showsSeconds = false
    /// Called by the menu's Quit.
    public var onQuit: (() -> Void)?

    public init(screen: Screen?) {
        let width = screen?.bounds.width ?? 640
        window = ShellWindow(layer: .top, namespace: "panel", screen: screen, size: Size(width: width, height: Self.height))
        window.anchors = [.top, .left, .right]
        window.exclusiveZone = .automatic
        bar.backgroundColor = Self.background
        bar.frame = Rect(x: 0, y: 0, width: width, height: Self.height)
        bar.autoresizingMask = [.flexibleWidth]
        menuButton.setTitleColor(Self.foreground, for: .normal)
        menuButton.titleLabel.font = .systemFont(ofSize: 13, weight: .bold)
        menuButton.showsMenuAsPrimaryAction = true
        menuButton.frame = Rect(x: 4, y: 2, width: 72, height: 28)
        clock.font = .systemFont(ofSize: 13, weight: .medium)
        clock.textColor = Self.foreground
        clock.textAlignment = .center
        clock.frame = Rect(x: width / 2 - 120, y: 6, width: 240, height: 20)
        clock.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        status.font = .monospacedSystemFont(ofSize: 12)
        status.textColor = Self.foreground
        status.textAlignment = .right
        status.frame = Rect(x: width - 412, y: 7, width: 400, height: 18)
        status.autoresizingMask = [.flexibleLeftMargin]
        for v in [menuButton, clock, status] { bar.addSubview(v) }
        window.rootView.addSubview(bar)
        updateMenu()
    }

    private func updateMenu() {
        menuButton.menu = Menu(children: [
            MenuAction(title: "Show Seconds", state: showsSeconds ? .on : .off) { [weak self] _ in self?.setShowsSeconds(!(self?.showsSeconds ?? true)) },
            MenuAction(title: "Quit Panel", attributes: .destructive) { [weak self] _ in self?.onQuit?() },
        ])
    }

    public func setShowsSeconds(_ on: Bool) {
        showsSeconds = on
        updateMenu()
        onClockChange?()
    }
    /// Tells the owner the clock's period changed.
    var onClockChange: (() -> Void)?

    /// Shows the panel, sliding down from above its screen.
    public func show(animated: Bool = true) {
        window.show()
        guard animated else { return }
        View.performWithoutAnimation { bar.transform = AffineTransform(translationX: 0, y: -Self.height) }
        View.animate(duration: 0.45, dampingRatio: 0.8) { self.bar.transform = .identity }
    }

    /// Sets what the panel shows.
    public func update(time: String, status: SystemStatus) {
        clock.text = time
        self.status.text = status.summary
    }

    public func close() { window.close() }

    /// The local time as the clock shows it ("Thu 26 Nov  07:02", with seconds when asked).
    public static func clockText(at seconds: time_t, withSeconds: Bool) -> String {
        var t = seconds
        var parts = tm()
        localtime_r(&t, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, withSeconds ? "%a %e %b  %H:%M:%S" : "%a %e %b  %H:%M", &parts)
        return String(decoding: buffer.prefix(n).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A panel on every screen, made and closed as screens come and go, and the
/// timer that updates them all at each minute (or second).
@MainActor
public final class Panels {
    public private(set) var panels: [ObjectIdentifier: Panel] = [:]
    private var reader = SystemStatusReader()
    private var timer: MediaTimer?
    /// Called by a panel's Quit.
    public var onQuit: (() -> Void)?
    /// The wall clock, replaceable by tests.
    var now: () -> (seconds: time_t, fraction: Double) = {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return (ts.tv_sec, Double(ts.tv_nsec) / 1e9)
    }

    public init() {}

    /// One panel per screen now, and on each screen that appears; none offscreen but one.
    public func start() {
        let app = Application.shared
        let screens = Screen.screens
        if screens.isEmpty { add(nil) } else { screens.forEach(add) }
        previousHandlers = (app.onScreenAdded, app.onScreenRemoved)
        app.onScreenAdded = { [weak self] in self?.add($0) }
        app.onScreenRemoved = { [weak self] screen in
            self?.panels.removeValue(forKey: ObjectIdentifier(screen))?.close()
        }
        tick()
        // Processor use needs two readings: the first figure a second from now, not at the minute.
        MediaTimer.schedule(after: 1) { [weak self] in self?.refreshStatus() }
    }

    private func refreshStatus() {
        let status = reader.read()
        let (seconds, _) = now()
        for panel in panels.values { panel.update(time: Panel.clockText(at: seconds, withSeconds: panel.showsSeconds), status: status) }
    }

    public var all: [Panel] { Array(panels.values) }

    private func add(_ screen: Screen?) {
        let panel = Panel(screen: screen)
        panel.onQuit = { [weak self] in self?.onQuit?() }
        panel.onClockChange = { [weak self] in self?.tick() }
        panels[screen.map(ObjectIdentifier.init) ?? ObjectIdentifier(Panels.self)] = panel
        panel.update(time: Panel.clockText(at: now().seconds, withSeconds: panel.showsSeconds), status: reader.read())
        panel.show()
    }

    /// Updates every panel, then waits for the next minute (or second) to begin.
    private func tick() {
        timer?.cancel()
        refreshStatus()
        let (seconds, fraction) = now()
        let withSeconds = panels.values.contains { $0.showsSeconds }
        let period = withSeconds ? 1.0 : 60.0
        let intoPeriod = Double(Int(seconds) % Int(period)) + fraction
        timer = MediaTimer.schedule(after: period - intoPeriod + 0.01) { [weak self] in self?.tick() }
    }

    /// Closes the panels and gives the application back its screen handlers.
    public func stop() {
        timer?.cancel()
        panels.values.forEach { $0.close() }
        panels = [:]
        if let (added, removed) = previousHandlers {
            Application.shared.onScreenAdded = added
            Application.shared.onScreenRemoved = removed
        }
        previousHandlers = nil
    }
    private var previousHandlers: (((Screen) -> Void)?, ((Screen) -> Void)?)?
}
