import Glibc
import ShellApps
import Strata
import StrataTesting
import WaylandClient

/// The shell examples (issue 26) on headless sway, next to the tools they
/// resemble where Debian has them (waybar, mako, fuzzel, wob): the idle panel's
/// processor time, wake-ups and surface commits over a minute; a toast's latency
/// from `notify()` (and from `notify-send`) to its first commit; the launcher's
/// latency from a key's arrival to the commit of the filtered list of 1,000
/// entries; and each program's resident memory once shown.
@MainActor
func sceneShellApps(binaries: String) throws -> [Figure] {
    try idlePanels(binaries: binaries) + toastLatency() + launcherLatency() + shellMemory(binaries: binaries)
}

/// A process started in sway (under `runuser` when root): the program's own pid, found by its command line.
@MainActor
private func start(_ sway: HeadlessSway, _ arguments: [String], program: String) throws -> (Subprocess, pid_t?, String) {
    let (process, log) = try sway.startClient(arguments)
    var pid: pid_t?
    for _ in 0..<100 where pid == nil {
        pid = processID(running: program)
        if pid == nil { usleep(50_000) }
    }
    return (process, pid, log)
}

/// The pid of the newest process whose first argument ends with `program`.
private func processID(running program: String) -> pid_t? {
    guard let dir = opendir("/proc") else { return nil }
    defer { closedir(dir) }
    var found: pid_t?
    while let e = readdir(dir) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard let pid = pid_t(name), let cmdline = SystemStatus.readText("/proc/\(name)/cmdline") else { continue }
        let argv0 = cmdline.split(separator: "\0").first.map(String.init) ?? ""
        if argv0 == program || argv0.hasSuffix("/" + program) { found = max(found ?? 0, pid) }
    }
    return found
}

/// Processor seconds (user + system), voluntary context switches, resident and
/// private (not shared with other processes) memory of `pid`.
private func usage(_ pid: pid_t) -> (cpu: Double, wakeups: Int, rssKiB: Int, privateKiB: Int) {
    let stat = SystemStatus.readText("/proc/\(pid)/stat") ?? ""
    let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    let cpu = fields.count > 12 ? ((Double(fields[11]) ?? 0) + (Double(fields[12]) ?? 0)) / ticks : .nan
    func field(_ name: String, in file: String) -> Int {
        let text = SystemStatus.readText("/proc/\(pid)/\(file)") ?? ""
        return text.split(separator: "\n").first { $0.hasPrefix(name) }
            .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") } ?? -1
    }
    return (cpu, field("voluntary_ctxt_switches:", in: "status"), field("VmRSS:", in: "status"),
            field("Private_Clean:", in: "smaps_rollup") + field("Private_Dirty:", in: "smaps_rollup"))
}

private func lines(in path: String, containing needle: String) -> Int {
    (SystemStatus.readText(path) ?? "").split(separator: "\n").filter { $0.contains(needle) }.count
}

/// Runs `body` with the application on a fresh headless sway, turning its loop.
@MainActor
private func onSway<T>(_ body: @MainActor (EventLoop) throws -> T) throws -> T {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    _ = try useApplication(on: sway)
    defer { Application.shared.disconnect() }
    return try body(Application.shared.loop!)
}

/// Seconds from `t0` to the first commit of `window` after it (turning `loop`, at most 5 s); nil if none came.
@MainActor
private func firstCommitTime(of window: Window, after t0: Double, loop: EventLoop) throws -> Double? {
    _ = try loop.turn(until: { (window.frameStatistics?.frames.contains { $0.commitTime > t0 }) == true }, timeout: 5)
    return window.frameStatistics?.frames.first { $0.commitTime > t0 }.map { $0.commitTime - t0 }
}

/// The panel and waybar (clock, CPU, memory, battery; minutes) side by side for a minute.
@MainActor
private func idlePanels(binaries: String) throws -> [Figure] {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let config = sway.runtimeDirectory + "/waybar.json"
    let fd = open(config, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let text = #"{"layer": "top", "position": "top", "height": 32, "modules-left": [], "modules-center": ["clock"], "modules-right": ["cpu", "memory", "battery"], "clock": {"interval": 60, "format": "{:%a %d %b  %H:%M}"}, "cpu": {"interval": 60}, "memory": {"interval": 60}}"#
    _ = text.withCString { write(fd, $0, strlen($0)) }
    close(fd)
    let (panel, panelPID, panelLog) = try start(sway, ["env", "WAYLAND_DEBUG=1", binaries + "/panel"], program: "panel")
    defer { panel.terminate() }
    var figures: [Figure] = []
    let hasWaybar = access("/usr/bin/waybar", X_OK) == 0
    let (waybar, waybarPID, waybarLog) = hasWaybar ? try start(sway, ["env", "WAYLAND_DEBUG=1", "waybar", "-c", config], program: "waybar") : (nil, nil, "")
    defer { waybar?.terminate() }
    sleep(5)   // both shown and settled
    let commit = "wl_surface@", window = 60.0
    let p0 = panelPID.map(usage), w0 = waybarPID.map(usage)
    let pc0 = lines(in: panelLog, containing: commit), wc0 = lines(in: waybarLog, containing: commit)
    usleep(UInt32(window * 1e6))
    let p1 = panelPID.map(usage), w1 = waybarPID.map(usage)
    let pc1 = lines(in: panelLog, containing: commit), wc1 = lines(in: waybarLog, containing: commit)
    for (name, a, b, c0, c1) in [("panel", p0, p1, pc0, pc1), ("waybar", w0, w1, wc0, wc1)] {
        guard let a, let b else { continue }
        let scene = "idle bar for a minute (\(name), sway)"
        figures.append(Figure(scene: scene, metric: "processor time", value: (b.cpu - a.cpu) * 1e3, unit: "ms", repetitions: 1))
        figures.append(Figure(scene: scene, metric: "voluntary wake-ups", value: Double(b.wakeups - a.wakeups), unit: "", repetitions: 1))
        figures.append(Figure(scene: scene, metric: "wl_surface requests (commits, frames, damage)", value: Double(c1 - c0), unit: "", repetitions: 1))
    }
    return figures
}

/// A toast from nothing on screen: `notify()` to the toast window's first commit,
/// 30 times, each after the last one's window has gone; then end to end from
/// starting `notify-send` (process start and D-Bus included).
@MainActor
private func toastLatency() throws -> [Figure] { try onSway { loop in
    var dir = Array("/tmp/strata-bench-bus-XXXXXX".utf8CString)
    let busDir = String(cString: mkdtemp(&dir)!)
    var bus = try SessionBus(in: busDir)
    defer { bus.stop() }
    let daemon = NotificationDaemon()
    try daemon.start(busAddress: bus.address)
    defer { daemon.stop() }
    @MainActor func firstCommit(after t0: Double) throws -> Double? { try firstCommitTime(of: daemon.window, after: t0, loop: loop) }
    @MainActor func clear() throws {
        for t in daemon.shown { daemon.close(t.id, reason: .dismissed) }
        _ = try loop.turn(until: { !daemon.window.isVisible }, timeout: 5)
        try loop.turn(for: 0.1)
    }
    var direct: [Double] = [], viaBus: [Double] = []
    for i in 0..<30 {
        let t0 = MonotonicClock.now
        daemon.notify(.init(appName: "bench", summary: "Toast \(i)", body: "A <b>toast</b>", expireTimeout: 0))
        if let d = try firstCommit(after: t0) { direct.append(d) }
        try clear()
    }
    for i in 0..<15 {
        let t0 = MonotonicClock.now
        let p = try Subprocess.spawn(["notify-send", "-t", "0", "Toast \(i)", "from notify-send"], environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address],
                                     directory: busDir, logPath: busDir + "/notify-send.log")
        if let d = try firstCommit(after: t0) { viaBus.append(d) }
        p.wait(timeout: 5)
        try clear()
    }
    let scene = "notification toast (sway)"
    return [50.0, 99].map { p in
        Figure(scene: scene, metric: "notify() → toast's first commit p\(Int(p))", value: (FrameStatistics.percentile(direct, p) ?? .nan) * 1e3, unit: "ms", repetitions: direct.count)
    } + [50.0, 99].map { p in
        Figure(scene: scene, metric: "notify-send started → first commit p\(Int(p))", value: (FrameStatistics.percentile(viaBus, p) ?? .nan) * 1e3, unit: "ms", repetitions: viaBus.count)
    }
}}

/// The launcher with 1,000 entries on sway: a key's arrival (typed into the
/// field through the window's input) to the commit of the filtered list, for a
/// query typed letter by letter and erased, 40 keys.
@MainActor
private func launcherLatency() throws -> [Figure] { try onSway { loop in
    let words = ["Text", "Editor", "Calculator", "Terminal", "Image", "Viewer", "Music", "Player", "Files", "Mail", "Maps", "Photos",
                 "Weather", "Clock", "Notes", "Sound", "Recorder", "Disk", "Usage", "System", "Monitor", "Settings", "Fonts", "Camera"]
    var rng = SystemRandomNumberGenerator()
    let entries = (0..<1000).map { i in
        DesktopEntry(id: "app\(i).desktop", name: "\(words[i % words.count]) \(words[Int.random(in: 0..<words.count, using: &rng)]) \(i)",
                     exec: "true", path: "/dev/null")
    }
    let launcher = Launcher(entries: entries)
    launcher.spawn = { (_: [String], _: [String: String]) in true }
    launcher.show()
    let window = launcher.window
    _ = try loop.turn(until: { window.frameNumber > 0 }, timeout: 10)
    try loop.turn(for: 0.5)
    let driver = InputDriver(window: window)
    var latencies: [Double] = []
    let keys = Array("termin") + Array(repeating: "\u{8}", count: 6)
    for round in 0..<4 {
        for key in keys {
            let t0 = MonotonicClock.now
            if key == "\u{8}" { driver.pressKey(keysym: 0xff08); driver.releaseKey(keysym: 0xff08) } else { driver.type(String(key)) }
            if let d = try firstCommitTime(of: window, after: t0, loop: loop) { latencies.append(d) }
            try loop.turn(for: round == 0 ? 0.05 : 0.4)   // the rows' animations settle
        }
    }
    let scene = "launcher keystroke (1,000 entries, sway)"
    return [50.0, 99].map { p in
        Figure(scene: scene, metric: "key arrival → filtered list's first commit p\(Int(p))", value: (FrameStatistics.percentile(latencies, p) ?? .nan) * 1e3, unit: "ms", repetitions: latencies.count)
    }
}}

/// Each program's resident memory once shown, next to the tool it resembles.
@MainActor
private func shellMemory(binaries: String) throws -> [Figure] {
    let sway = try HeadlessSway()
    defer { sway.stop() }
    let apps = sway.runtimeDirectory + "/apps"
    mkdir(apps, 0o755)
    var figures: [Figure] = []
    let runs: [(name: String, program: String, command: [String], classic: Bool)] = [
        ("panel", "panel", [binaries + "/panel"], false),
        ("osd", "osd", [binaries + "/osd", "50", "--timeout", "60"], false),
        ("launcher", "launcher", [binaries + "/launcher"], false),
        ("notifyd", "notifyd", ["dbus-run-session", "--", binaries + "/notifyd"], false),
        ("waybar", "waybar", ["waybar"], true),
        ("wob", "wob", ["sh", "-c", "(echo 50; sleep 60) | wob"], true),
        ("fuzzel", "fuzzel", ["fuzzel"], true),
        ("mako", "mako", ["dbus-run-session", "--", "mako"], true),
    ]
    for run in runs {
        if run.classic, access("/usr/bin/" + run.program, X_OK) != 0 { continue }
        let (process, pid, _) = try start(sway, run.command, program: run.program)
        sleep(3)
        if let pid {
            let u = usage(pid)
            figures.append(Figure(scene: "memory once shown (sway)", metric: "\(run.name) resident", value: Double(u.rssKiB) / 1024, unit: "MiB", repetitions: 1))
            figures.append(Figure(scene: "memory once shown (sway)", metric: "\(run.name) private (not shared)", value: Double(u.privateKiB) / 1024, unit: "MiB", repetitions: 1))
        }
        process.terminate()
        if let pid { kill(pid, SIGTERM) }
    }
    return figures
}
