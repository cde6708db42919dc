import Glibc
import Strata
import WaylandClient

/// The command line the example programs share: `--seconds N` (run that long),
/// `--socket NAME` (the compositor to use), `--screenshot PATH` (where to save
/// the picture when they had to start their own headless weston) and
/// `--appearance light|dark` (pinned, instead of following the desktop's setting).
public struct ExampleCommandLine {
    public var seconds: Double?
    public var socket: String?
    public var screenshotPath: String
    /// Light or dark as `--appearance` pins it; nil follows the desktop.
    public var appearance: UserInterfaceStyle?
    /// The words that are not options, for a program that takes some (`osd 40`).
    public var arguments: [String] = []
    /// The values of the program's own options (`--timeout 3` as `["--timeout": "3"]`).
    public var values: [String: String] = [:]

    /// Reads `CommandLine.arguments`; anything else prints the usage and exits
    /// with status 2. `operands` names the words a program takes besides the
    /// options ("LEVEL [TITLE]"); without it, none is accepted. `options` names
    /// the program's own options, each taking a value ("--timeout").
    public init(program: String, screenshot: String, operands: String? = nil, options: [String] = []) {
        screenshotPath = screenshot
        var args = CommandLine.arguments.dropFirst().makeIterator()
        func usage() -> Never {
            let own = options.map { "[\($0) VALUE] " }.joined()
            Self.printError("usage: \(program) \(operands.map { $0 + " " } ?? "")\(own)[--seconds N] [--socket NAME] [--screenshot PATH] [--appearance light|dark]")
            exit(2)
        }
        while let a = args.next() {
            switch a {
            case "--seconds": seconds = args.next().flatMap(Double.init)
            case "--socket": socket = args.next()
            case "--screenshot": screenshotPath = args.next() ?? screenshotPath
            case "--appearance":
                switch args.next() {
                case "light": appearance = .light
                case "dark": appearance = .dark
                default: usage()
                }
            case _ where operands != nil && !a.hasPrefix("--"): arguments.append(a)
            case _ where options.contains(a): values[a] = args.next() ?? ""
            default: usage()
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
    /// `headless` starts the compositor used when none is named (weston; a shell
    /// example starts sway, which has the shell layers).
    @MainActor
    public func runApplication(headless start: @MainActor () throws -> any Compositor = { try HeadlessWeston() },
                               prepare: (_ headless: Bool) -> Void) throws {
        let app = Application.shared
        if let appearance {
            app.followsSystemAppearance = false
            LayerContext.main.systemTraits.userInterfaceStyle = appearance
            LayerContext.main.systemTraits.layoutDirection = Application.localeLayoutDirection
        } else {
            app.followSystemAppearance()
        }
        if case .offscreen = Application.environmentRunMode {
            prepare(false)
            return try app.run(mode: Application.environmentRunMode)
        }
        let (display, headless) = try Self.connectOrStart(socket: socket, start)
        defer { headless?.stop() }
        app.use(display)
        if app.exportsAccessibility { app.followAccessibilityStatus() }
        prepare(headless != nil)
        if let loop = app.loop { Self.stop(loop, after: seconds ?? (headless == nil ? .infinity : 2.5)) }
        try app.run(mode: .compositor)
        for window in app.windows {
            if let statistics = window.frameStatistics { print("frames: \(window.frameNumber), callbacks: \(statistics.callbackCount)") }
        }
        try headless?.saveScreenshot(to: screenshotPath)
    }

    /// The compositor named by `socket` or `WAYLAND_DISPLAY`; when none is named
    /// and none answers, one `start` starts (and the caller stops).
    @MainActor
    static func connectOrStart(socket: String?, _ start: @MainActor () throws -> any Compositor) throws -> (Display, (any Compositor)?) {
        // An empty WAYLAND_DISPLAY names nothing, as an unset one.
        let named = socket ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        do {
            return (try Display(socket: socket), nil)
        } catch {
            // Only when no compositor was named: a named one that is not there is an error.
            if let named {
                let dir = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) } ?? "(XDG_RUNTIME_DIR unset)"
                throw CompositorError.unreachable(socket: named, runtimeDirectory: dir, reason: "\(error)")
            }
            let compositor = try start()
            print("No compositor to connect to (\(error)); started a headless \(compositor.name).")
            return (try compositor.connect(), compositor)
        }
    }

    /// An example app's whole entry point: sets the app id `org.strata.PROGRAM`,
    /// reads the command line, makes the app
    /// with `make` (on the main actor), runs it as ``runApplication(prepare:)``
    /// does, and exits with status 1 and the error on standard error if it fails.
    /// `operands` as in ``init(program:screenshot:operands:)``; `make` gets the
    /// command line.
    public static func main<App>(program: String, screenshot: String, operands: String? = nil, options: [String] = [],
                                 headless: @MainActor () throws -> any Compositor = { try HeadlessWeston() },
                                 make: @MainActor (ExampleCommandLine) throws -> App, prepare: @MainActor (App, _ headless: Bool) -> Void) {
        let options = ExampleCommandLine(program: program, screenshot: screenshot, operands: operands, options: options)
        // The id scripts/install-desktop-entries names the example's desktop entry after.
        MainActor.assumeIsolated { Application.shared.applicationID = "org.strata." + program }
        do {
            try MainActor.assumeIsolated {
                let app = try make(options)
                try options.runApplication(headless: headless) { prepare(app, $0) }
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

extension Compositor {
    /// Saves a screenshot and says where, for demos run without a compositor.
    public func saveScreenshot(to path: String) throws {
        try screenshot(timeout: 10).writePNG(to: path)
        let cwd = getcwd(nil, 0).map { p in defer { free(p) }; return String(cString: p) } ?? "."
        print("Saved a screenshot of the demo to \(path.hasPrefix("/") ? path : cwd + "/" + path)")
    }
}
