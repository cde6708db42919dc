import Glibc
import Strata
import WaylandClient

/// The command line the example programs share: `--seconds N` (run that long),
/// `--socket NAME` (the compositor to use) and `--screenshot PATH` (where to save
/// the picture when they had to start their own headless weston).
public struct ExampleCommandLine {
    public var seconds: Double?
    public var socket: String?
    public var screenshotPath: String

    /// Reads `CommandLine.arguments`; anything else prints the usage and exits with status 2.
    public init(program: String, screenshot: String) {
        screenshotPath = screenshot
        var args = CommandLine.arguments.dropFirst().makeIterator()
        while let a = args.next() {
            switch a {
            case "--seconds": seconds = args.next().flatMap(Double.init)
            case "--socket": socket = args.next()
            case "--screenshot": screenshotPath = args.next() ?? screenshotPath
            default:
                Self.printError("usage: \(program) [--seconds N] [--socket NAME] [--screenshot PATH]")
                exit(2)
            }
        }
    }

    /// Writes a line to standard error.
    public static func printError(_ message: String) {
        let line = message + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    /// Stops `loop` after `seconds` (when finite), from a main-actor task.
    @MainActor
    public static func stop(_ loop: EventLoop, after seconds: Double) {
        guard seconds.isFinite else { return }
        Task { @MainActor in
            try? await Task.sleep(for: .seconds(seconds))
            loop.stop()
        }
    }

    /// Runs an app built by `prepare` the way every example runs: with
    /// `STRATA_OFFSCREEN=DIR` offscreen into PNGs (rule W3); otherwise on the
    /// compositor named by `--socket` or `WAYLAND_DISPLAY`, or — when none is
    /// named — on a headless weston it starts, saving a screenshot at the end.
    /// `prepare` makes and shows the windows; it is told whether the compositor is
    /// a headless one (where a fullscreen window has a known place on screen).
    /// Stops after `--seconds` (default: never, or 2.5 s on a headless weston).
    @MainActor
    public func runApplication(prepare: (_ headless: Bool) -> Void) throws {
        let app = Application.shared
        if case .offscreen = Application.environmentRunMode {
            prepare(false)
            return try app.run(mode: Application.environmentRunMode)
        }
        let (display, headless) = try HeadlessWeston.connectOrStart(socket: socket)
        app.use(display)
        prepare(headless != nil)
        if let loop = app.loop { Self.stop(loop, after: seconds ?? (headless == nil ? .infinity : 2.5)) }
        try app.run(mode: .compositor)
        for window in app.windows {
            if let statistics = window.frameStatistics { print("frames: \(window.frameNumber), callbacks: \(statistics.callbackCount)") }
        }
        try headless?.saveScreenshot(to: screenshotPath)
    }

    /// An example app's whole entry point: reads the command line, makes the app
    /// with `make` (on the main actor), runs it as ``runApplication(prepare:)``
    /// does, and exits with status 1 and the error on standard error if it fails.
    public static func main<App>(program: String, screenshot: String, make: @MainActor () -> App,
                                 prepare: @MainActor (App, _ headless: Bool) -> Void) {
        let options = ExampleCommandLine(program: program, screenshot: screenshot)
        do {
            try MainActor.assumeIsolated {
                let app = make()
                try options.runApplication { prepare(app, $0) }
            }
        } catch {
            printError("\(program): \(error)")
            exit(1)
        }
    }

    /// Runs `body` every `seconds` on the application's event loop (nothing offscreen).
    @MainActor
    public static func every(_ seconds: Double, _ body: @escaping @MainActor () -> Void) {
        Application.shared.loop?.schedule(after: seconds) {
            body()
            every(seconds, body)
        }
    }
}
