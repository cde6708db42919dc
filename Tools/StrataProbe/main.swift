// strata-probe: what a Wayland compositor offers, for people who build or test
// compositors. Attaches to WAYLAND_DISPLAY, or starts one headless for the run.
import Glibc
import StrataTesting
import WaylandClient

let usage = """
    usage: strata-probe COMMAND [--compositor weston|sway|cage|mutter|kwin] [options]

    commands:
      compositors        which compositors this machine can start headless, one a line
      probe              what the compositor offers: features (yes/no) and its globals
      pacing             shows an animated window for --seconds (default 5) and reports how
                         the compositor paced it: frames and callbacks per second, callback
                         intervals, callback→commit, commit→present where presentation works
      capture FILE.png   the compositor's whole output, as a PNG
      run SCRIPT         runs a scripted scenario (a window, its pixels, resizes, animations,
                         idleness; see the README) and reports each step: pass or fail
      proxy [--trace FILE] [--pacing] [--assert RULES] -- CLIENT ARGS…
                         runs any client through a protocol proxy: every message decoded with
                         its time (--trace), the client's frame pacing (--pacing), rules checked
                         over the traffic (--assert A,B: no-protocol-error, ack-before-commit,
                         damage-within-buffer, "no-commit-while-idle SECONDS"); 1 if one fails
      report-card [--all] [--markdown]
                         what the compositor does, checked from a client: xdg-shell states,
                         popups, frame callbacks, presentation, buffers, outputs, decorations,
                         the keyboard, shell layers, captures, unusual clients; pass/fail/skip
                         with reasons (--all: the five compositors this tool starts, a column each)
      exec [--script FILE] -- CLIENT ARGS…
                         runs any client program in the compositor (WAYLAND_DISPLAY set, its
                         output kept); without a script until it exits, with its exit status;
                         with one, the script's steps against its window, reported as run's

    --compositor NAME   start that compositor headless for the run (else attach to WAYLAND_DISPLAY)
    --compositor-command "CMD …"
                        start any compositor from a command line: {socket} becomes its socket's
                        name, {runtime} its private runtime directory (WLR_BACKENDS=headless set)
    --json              probe, pacing, run, exec, proxy, report-card: print JSON instead of a table
    --seconds N         pacing: how long to measure (after half a second of warm-up);
                        exec without a script: the longest the client may run (then exit 124);
                        proxy: how long the client runs before it is stopped and measured
    --script FILE       exec: the steps to run against the client's window (below)
    --plot FILE.png     pacing: also draw the callback intervals as a plot
    --require A,B       probe: exit 77 (skip) naming what is missing when a feature is not
                        offered (names as probe prints them: seat,text input,…)
    --strict            with --require: a missing feature fails (exit 1) instead
    --trace FILE        write the protocol traffic (every request and event, with the
                        time since the start) to FILE, or to standard error for -
                        (proxy: the client's, with arguments)

    scenario steps (one a line; # starts a comment):
      window "TITLE" WxH [#rrggbb]   wait-configure   resize WxH   wait-size WxH
      fullscreen on|off   maximize on|off   animate SECONDS   wait-frames N
      sleep SECONDS   expect-idle SECONDS   expect-pixel X,Y #rrggbb [tolerance N]
      capture FILE.png   click X,Y   type "TEXT"   (injected input: kwin, mutter)   close
      misuse unconfigured-buffer|zero-size-positioner|second-role
      expect-protocol-error INTERFACE CODE     (last: the error ends the connection)

    exec script steps (points in the found window unless followed by `screen`):
      wait-window ["TITLE" | app-id ID] [timeout S]     click X,Y [right|middle] [screen]
      drag X,Y X,Y [screen]   scroll X,Y STEPS [screen]   type "TEXT"   key [ctrl+|shift+|alt+|super+]NAME
      expect-pixel X,Y #rrggbb [tolerance N] [screen]   expect-region FILE.png [at X,Y] [tolerance N] [screen]
      wait-still SECONDS [timeout S]   capture FILE.png [window]   filmstrip FPS SECONDS DIR
      close-window   expect-exit CODE [timeout S]   sleep SECONDS
    """

/// The launchers this tool knows, by name.
@MainActor
func launchers() -> [(name: String, start: () throws -> any Compositor)] {
    [("weston", { try HeadlessWeston() }), ("sway", { try HeadlessSway() }), ("cage", { try HeadlessCage() }), ("mutter", { try HeadlessMutter() }),
     ("kwin", { try HeadlessKWin() })]
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    let line = "strata-probe: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

@MainActor
func compositorFor(_ name: String?, command: String? = nil) throws -> any Compositor {
    if let command { return try CommandCompositor(command: command) }
    guard let name else { return try AttachedCompositor() }
    guard let launcher = launchers().first(where: { $0.name == name }) else {
        fail("unknown compositor '\(name)' (this tool starts: \(launchers().map(\.name).joined(separator: ", ")))", status: 2)
    }
    return try launcher.start()
}

@MainActor
func run() throws {
    var args = Array(CommandLine.arguments.dropFirst())
    // What follows `--` is the client's command line, options and all.
    let client = args.firstIndex(of: "--").map { Array(args[($0 + 1)...]) }
    if let dashes = args.firstIndex(of: "--") { args.removeSubrange(dashes...) }
    if args.isEmpty || args.contains("--help") || args.contains("-h") { print(usage); exit(args.isEmpty ? 2 : 0) }
    let command = args.removeFirst()
    var compositorName: String?
    var compositorCommand: String?
    var scriptPath: String?
    var pacingWanted = false
    var markdown = false
    var allCompositors = false
    var assertions: String?
    var asJSON = false
    var seconds = 5.0
    var secondsGiven = false
    var plotPath: String?
    var tracePath: String?
    var required: [CompositorCapabilities.Feature] = []
    var strict = false
    var operands: [String] = []
    while !args.isEmpty {
        switch args.removeFirst() {
        case "--compositor":
            guard !args.isEmpty else { fail("--compositor needs a name", status: 2) }
            compositorName = args.removeFirst()
        case "--compositor-command":
            guard !args.isEmpty else { fail("--compositor-command needs a command line in quotes", status: 2) }
            compositorCommand = args.removeFirst()
        case "--script":
            guard !args.isEmpty else { fail("--script needs a file name", status: 2) }
            scriptPath = args.removeFirst()
        case "--pacing": pacingWanted = true
        case "--assert":
            guard !args.isEmpty else { fail("--assert needs rules, as no-protocol-error,ack-before-commit", status: 2) }
            assertions = args.removeFirst()
        case "--json": asJSON = true
        case "--markdown": markdown = true
        case "--all": allCompositors = true
        case "--seconds":
            guard let value = args.first.flatMap(Double.init), value.isFinite, value > 0, value <= 3600 else {
                fail("--seconds needs a number of seconds (more than 0, at most 3600)", status: 2)
            }
            args.removeFirst()
            seconds = value
            secondsGiven = true
        case "--plot":
            guard !args.isEmpty else { fail("--plot needs a file name", status: 2) }
            plotPath = args.removeFirst()
        case "--require":
            guard !args.isEmpty else { fail("--require needs feature names", status: 2) }
            for name in args.removeFirst().split(separator: ",") {
                guard let f = CompositorCapabilities.Feature(rawValue: String(name)) else {
                    fail("unknown feature '\(name)' (known: \(CompositorCapabilities.Feature.allCases.map(\.rawValue).joined(separator: ", ")))", status: 2)
                }
                required.append(f)
            }
        case "--strict": strict = true
        case "--trace":
            guard !args.isEmpty else { fail("--trace needs a file name (or - for standard error)", status: 2) }
            tracePath = args.removeFirst()
        case let other where !other.hasPrefix("-"): operands.append(other)
        case let other: fail("unknown option '\(other)'\n\(usage)", status: 2)
        }
    }
    let expected = command == "capture" || command == "run" ? 1 : 0
    guard operands.count == expected else {
        fail(expected == 1 ? "\(command) needs one file name" : "unexpected '\(operands[0])'\n\(usage)", status: 2)
    }
    if compositorName != nil && compositorCommand != nil { fail("--compositor and --compositor-command exclude each other", status: 2) }
    if let tracePath, command != "proxy" { traceProtocol(to: tracePath) }
    if command == "proxy" {
        guard let client, !client.isEmpty else { fail("proxy needs the client's command line after --\n\(usage)", status: 2) }
        var rules: [TraceRule] = []
        for name in (assertions ?? "").split(separator: ",").map({ $0.split(separator: " ").joined(separator: " ") }) where !name.isEmpty {
            guard let rule = TraceRule(parsing: name) else { fail("unknown rule '\(name)' (known: \(TraceRule.names.joined(separator: ", ")))", status: 2) }
            rules.append(rule)
        }
        exit(try proxyClient(client, compositor: { try compositorFor(compositorName, command: compositorCommand) }, tracePath: tracePath,
                             pacing: pacingWanted, rules: rules, asJSON: asJSON, seconds: secondsGiven ? seconds : nil))
    }
    if command == "exec" {
        guard let client, !client.isEmpty else { fail("exec needs the client's command line after --\n\(usage)", status: 2) }
        exit(try execute(client, script: scriptPath, compositor: { try compositorFor(compositorName, command: compositorCommand) },
                         asJSON: asJSON, seconds: secondsGiven ? seconds : nil))
    }
    guard client == nil else { fail("only exec and proxy take a client after --", status: 2) }
    switch command {
    case "compositors":
        for launcher in launchers() {
            do {
                let c = try launcher.start()
                c.stop()
                print("\(launcher.name)\tstarts")
            } catch {
                print("\(launcher.name)\tdoes not start: \(error)")
            }
        }
    case "probe":
        let compositor = try compositorFor(compositorName, command: compositorCommand)
        defer { compositor.stop() }
        let capabilities = CompositorCapabilities(try compositor.connect())
        if !required.isEmpty {
            do {
                if let reason = try capabilities.skipReason(for: required, strict: strict || CompositorCapabilities.isStrict) {
                    print("skip: \(reason)")
                    compositor.stop()
                    exit(77)
                }
            } catch {
                compositor.stop()
                fail("\(error)")
            }
        }
        if asJSON {
            let features = CompositorCapabilities.Feature.allCases.map { "\(JSON.string($0.rawValue)): \(capabilities.has($0))" }
            let globals = capabilities.globals.keys.sorted().map { "\(JSON.string($0)): \(capabilities.globals[$0]!)" }
            print("{\"compositor\": \(JSON.string(compositor.name)), \"features\": {\(features.joined(separator: ", "))}, \"globals\": {\(globals.joined(separator: ", "))}}")
        } else {
            print("compositor: \(compositor.name)")
            print(capabilities)
        }
    case "pacing":
        let compositor = try compositorFor(compositorName, command: compositorCommand)
        defer { compositor.stop() }
        let report = try measurePacing(on: compositor, seconds: seconds)
        print(asJSON ? "{\"compositor\": \(JSON.string(compositor.name)), \"pacing\": \(report.json)}" : "compositor: \(compositor.name)\n\(report.table)")
        if let plotPath { try report.plot().writePNG(to: plotPath) }
        if report.frames == 0 { fail("the compositor sent no frame callbacks in \(seconds) s") }
    case "report-card":
        let starts = allCompositors ? launchers() : [(name: compositorName ?? compositorCommand ?? "WAYLAND_DISPLAY",
                                                     start: { try compositorFor(compositorName, command: compositorCommand) })]
        var cards: [ReportCard] = []
        for (name, start) in starts {
            let compositor: any Compositor
            do { compositor = try start() } catch { fail("\(name) did not start: \(error)") }
            cards.append(ReportCardCheck.run(on: compositor))
            compositor.stop()
        }
        if markdown {
            print(ReportCard.markdown(cards), terminator: "")
        } else if asJSON {
            print(cards.count == 1 ? cards[0].json : "[" + cards.map(\.json).joined(separator: ", ") + "]")
        } else {
            print(cards.map(\.table).joined(separator: "\n\n"))
        }
    case "capture":
        let compositor = try compositorFor(compositorName, command: compositorCommand)
        defer { compositor.stop() }
        try compositor.screenshot(timeout: 10).writePNG(to: operands[0])
    case "run":
        guard let text = readTextFile(operands[0]) else { fail("cannot read '\(operands[0])'", status: 2) }
        let scenario: Scenario
        do { scenario = try Scenario(parsing: text) } catch { fail("\(operands[0]): \(error)", status: 2) }
        let compositor = try compositorFor(compositorName, command: compositorCommand)
        defer { compositor.stop() }
        let slash = operands[0].lastIndex(of: "/")
        let report = ScenarioRunner(compositor: compositor, directory: slash.map { String(operands[0][..<$0]) } ?? ".").run(scenario)
        print(asJSON ? report.json : report.table)
        if !report.passed { compositor.stop(); exit(1) }
    default:
        fail("unknown command '\(command)'\n\(usage)", status: 2)
    }
}

/// Writes every request and event to `path` (`-`: standard error), a line each:
/// seconds since the start, direction, interface#id.message.
@MainActor
func traceProtocol(to path: String) {
    let fd = path == "-" ? 2 : open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { fail("cannot write the trace to '\(path)'", status: 2) }
    let start = MonotonicClock.now
    WaylandTraffic.observer = { message in
        let micros = Int(((MonotonicClock.now - start) * 1e6).rounded())
        let seconds = "\(micros / 1_000_000)." + String(String(micros % 1_000_000 + 1_000_000).dropFirst())
        let line = "\(seconds) \(message)\n"
        _ = line.withCString { write(fd, $0, strlen($0)) }
    }
}

/// A text file's contents (nil when it cannot be read, or is over 1 MiB).
func readTextFile(_ path: String) -> String? {
    guard let f = fopen(path, "r") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes += buffer.prefix(n)
        if bytes.count > 1 << 20 { return nil }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Shows the pacing scene on `compositor`, warms up for half a second, and
/// reports the next `seconds` of frames.
@MainActor
func measurePacing(on compositor: any Compositor, seconds: Double) throws -> PacingReport {
    let display = try compositor.connect()
    let app = Application.shared
    app.use(display)
    defer { app.disconnect() }
    let scene = PacingScene()
    scene.window.show()
    scene.start()
    guard let loop = app.loop, let statistics = scene.window.frameStatistics else { fail("no event loop") }
    try loop.turn(for: 0.5)
    let framesBefore = statistics.frames.count, callbacksBefore = statistics.callbackCount
    let start = MonotonicClock.now
    try loop.turn(for: seconds)
    try display.connection.roundtrip()   // presentation feedback for the last frames
    let frames = Array(statistics.frames.dropFirst(framesBefore))
    return PacingReport(frames: frames, callbacks: statistics.callbackCount - callbacksBefore,
                        seconds: MonotonicClock.now - start, presentationClockOffset: clockOffsetFromMonotonic(display.presentationClock))
}

do {
    try MainActor.assumeIsolated { try run() }
} catch {
    fail("\(error)")
}
