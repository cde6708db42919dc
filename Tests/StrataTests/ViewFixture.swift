@testable import Strata
import Glibc
import PixmanRender
import StrataTesting
import WaylandClient
import Testing

/// A clean world for one view test: a `ManualMediaClock` at t = 100, no open
/// transactions (implicit ones commit only at `flush()`), diagnostics recorded,
/// and a window shown with no compositor (offscreen, rule W3), so its tree is
/// presented (rule B5). In a suite with `.isolatedLayerContext` all of it is the
/// test's own; on the app's context it starts the app disconnected.
@MainActor
final class ViewFixture {
    let clock = ManualMediaClock(now: 100)
    let window: Window
    private(set) var diagnostics: [LayerKitDiagnostic] = []

    init(size: Size = Size(width: 400, height: 300)) {
        if LayerContext.current === LayerContext.main { Application.shared.disconnect() }
        Transaction.reset()
        AnimationTimeline.reset()
        AnimationBlock.stack = []
        Transaction.endOfTurnScheduler = { _ in }
        MediaTime.clock = clock
        window = Window(title: "test", size: size)
        window.show()
        Diagnostics.handler = { [weak self] in self?.diagnostics.append($0) }   // outlives the fixture until the next one replaces it
        Transaction.flush()
    }

    /// A view with a frame, added to the window's root view and committed.
    func addView(_ frame: Rect = Rect(x: 10, y: 20, width: 100, height: 50), color: Color = .red) -> View {
        let view = View(frame: frame)
        view.backgroundColor = color
        window.rootView.addSubview(view)
        Transaction.flush()
        return view
    }

    func advance(_ seconds: Double) { clock.advance(by: seconds) }

    /// The presentation value of `key` of `view`'s layer now.
    func shown(_ view: View, _ keyPath: String) -> Any? {
        view.layer.presentation()?.value(forKeyPath: keyPath)
    }
    func shownDouble(_ view: View, _ keyPath: String) -> Double { shown(view, keyPath) as? Double ?? .nan }
    func shownPoint(_ view: View) -> Point { shown(view, "position") as? Point ?? Point(x: .nan, y: .nan) }
}

extension Color {
    /// A system colour as drawn in light mode (pixels read back are fixed colours; the system ones are dynamic).
    var light: Color { resolvedColor(with: .standard) }
}

/// Waits, suspending (so the main queue delivers what outside peers send —
/// a bus's calls and signals), until `condition`; past `timeout` seconds records
/// the wait as an issue and throws.
@MainActor
func until(_ what: String, timeout: Double = 20, _ condition: () -> Bool) async throws {
    let deadline = MonotonicMediaClock().now + timeout
    while !condition() {
        guard MonotonicMediaClock().now < deadline else {
            Issue.record("timed out waiting for \(what)")
            throw CancellationError()
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}

func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }
func close(_ a: Point, _ b: Point, _ tolerance: Double = 1e-6) -> Bool { close(a.x, b.x, tolerance) && close(a.y, b.y, tolerance) }

/// The default block curve (rule V8).
let easeInOut = MediaTimingFunction(name: .easeInEaseOut)

/// The application on a fresh headless compositor, on the system clock with no
/// transaction open; `Application.shared.disconnect()` ends it (in a `defer`).
@MainActor
func appOnSway() throws -> (HeadlessSway, Display) { try app { try HeadlessSway() } }

@MainActor
func appOnWeston(width: Int = 640, height: Int = 480) throws -> (HeadlessWeston, Display) {
    try app { try HeadlessWeston(width: width, height: height) }
}

@MainActor
func appOnKWin(width: Int = 640, height: Int = 480) throws -> (HeadlessKWin, Display) {
    try app { try HeadlessKWin(width: width, height: height) }
}

@MainActor
func appOnMutter(width: Int = 640, height: Int = 480) throws -> (HeadlessMutter, Display) {
    try app { try HeadlessMutter(width: width, height: height) }
}

/// The application connected to the compositor `start` makes.
@MainActor
private func app<C: Compositor>(on start: () throws -> C) throws -> (C, Display) {
    let (compositor, display) = try startApp { try start() }
    return (compositor as! C, display)
}

/// The application on a fresh compositor, on the system clock with no
/// transaction open; `Application.shared.disconnect()` ends it.
@MainActor
func startApp(_ start: () throws -> any Compositor) throws -> (any Compositor, Display) {
    MediaTime.clock = MonotonicMediaClock()
    Transaction.reset()
    Application.shared.disconnect()
    let compositor = try start()
    let display = try compositor.connect()
    Application.shared.use(display)
    return (compositor, display)
}

/// A shown window filled by a view that takes the focus and records what it gets,
/// once the compositor has its first frame.
@MainActor
func showRecordingWindow(_ title: String, _ display: Display, size: Size = Size(width: 200, height: 100)) throws -> (Window, RecordingView) {
    let window = Window(title: title, size: size)
    let field = RecordingView(frame: Rect(origin: .zero, size: size))
    field.takesFocus = true
    window.rootView.addSubview(field)
    window.show()
    field.becomeFirstResponder()
    try display.connection.dispatch(until: { window.frameNumber > 0 }, timeout: 5)
    return (window, field)
}

/// A fresh private directory, `/tmp/PREFIX-XXXXXX` (mkdtemp).
func makeTemporaryDirectory(_ prefix: String) -> String {
    var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
    return String(cString: mkdtemp(&template)!)
}

/// Removes a directory made by ``makeTemporaryDirectory(_:)`` and all in it.
func removeTemporaryDirectory(_ path: String) {
    _ = try? Subprocess.spawn(["rm", "-rf", path], environment: [:], directory: "/", logPath: "/dev/null").wait(timeout: 10)
}

/// A window with a button that counts its presses and a text field below it,
/// for input tests on compositors (blue, 300×200 unless asked).
@MainActor
final class PressAndTypeWindow {
    let window: Window
    let button = Button(frame: Rect(x: 40, y: 40, width: 120, height: 40))
    let field = TextField(frame: Rect(x: 40, y: 120, width: 200, height: 32))
    private(set) var presses = 0

    init(title: String, size: Size = Size(width: 300, height: 200)) {
        window = Window(title: title, size: size)
        window.backgroundColor = Color(rgba8: 0x33, 0x66, 0xcc)
        button.setTitle("Press", for: .normal)
        button.addAction(for: .touchUpInside) { [unowned self] _ in presses += 1 }
        for v in [button, field] { window.rootView.addSubview(v) }
    }
}
