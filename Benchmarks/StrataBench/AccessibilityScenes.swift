import Glibc
import Strata
import StrataTesting
import WaylandClient

/// What exporting over AT-SPI costs (issue 24): an assistive technology
/// (libatspi through pyatspi, as Orca reads) walking the whole tree of a window
/// of 1,000 labels and of a window of 30 controls — every node's name, role,
/// states and extents; the resident memory each exported element adds once
/// walked; and the main thread's time per frame when 100 labels change their
/// text every frame, with an assistive technology listening and with none, and
/// while a list of 1,000 rows scrolls (exported, with and without a listener). The
/// same two windows made with GTK 4 (`Benchmarks/Fixtures/gtk4-a11y-reference.py`)
/// on the same compositor and bus are walked by the same client: the reference.
@MainActor
func sceneAccessibilityWalk() throws -> [Figure] {
    let weston = try HeadlessWeston(width: 1280, height: 720)
    defer { weston.stop() }
    _ = try useApplication(on: weston)
    let app = Application.shared
    defer { app.disconnect() }
    let loop = app.loop!
    var template = Array("/tmp/strata-bench-a11y-XXXXXX".utf8CString)
    let directory = String(cString: mkdtemp(&template)!)
    defer { _ = try? Subprocess.spawn(["rm", "-rf", directory], environment: [:], directory: "/", logPath: "/dev/null").wait(timeout: 10) }
    var bus = try SessionBus(in: directory, environment: ["XDG_RUNTIME_DIR": directory, "HOME": directory, "GSETTINGS_BACKEND": "memory"])
    defer { bus.stop() }
    app.applicationID = "org.strata.bench"

    // Runs the test's assistive technology and turns the loop until it ends; its last line.
    func client(_ arguments: [String], app name: String = "org.strata.bench") throws -> String {
        let log = directory + "/client-\(Int(MonotonicClock.now * 1000)).log"
        let child = try Subprocess.spawn(["/usr/bin/python3", "Tests/Fixtures/atspi-client.py", name] + arguments,
                                         environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "NO_AT_BRIDGE": "1"], directory: nil, logPath: log)
        _ = try loop.turn(until: { child.wait(timeout: 0) != nil }, timeout: 300)
        return tail(of: log, lines: 1).split(separator: "\n").last.map(String.init) ?? ""
    }
    func seconds(_ line: String) -> [Double] {
        guard let open = line.firstIndex(of: "["), let close = line.firstIndex(of: "]") else { return [] }
        return line[line.index(after: open)..<close].split(separator: ",").compactMap { Double($0.trimmingPrefix(" ")) }
    }

    let labels = Window(title: "1000 labels", size: Size(width: 1280, height: 720))
    var texts: [Label] = []
    for i in 0..<1000 {
        let label = Label(frame: Rect(x: Double(i % 40) * 32, y: Double(i / 40) * 28, width: 30, height: 26))
        label.text = "\(i)"
        labels.rootView.addSubview(label)
        texts.append(label)
    }
    let controls = Window(title: "30 controls", size: Size(width: 640, height: 480))
    for i in 0..<30 {
        let frame = Rect(x: Double(i % 3) * 200 + 10, y: Double(i / 3) * 45 + 10, width: 180, height: 34)
        let control: View = switch i % 5 {
        case 0: { let b = Button(frame: frame); b.setTitle("Button \(i)", for: .normal); return b }()
        case 1: { let s = Switch(frame: frame); s.accessibilityLabel = "Switch \(i)"; return s }()
        case 2: { let s = Slider(frame: frame); s.accessibilityLabel = "Slider \(i)"; return s }()
        case 3: { let f = TextField(frame: frame); f.placeholder = "Field \(i)"; f.text = "Some text"; return f }()
        default: { let l = Label(frame: frame); l.text = "Label \(i)"; return l }()
        }
        controls.rootView.addSubview(control)
    }
    for w in [labels, controls] { w.show() }
    _ = try loop.turn(until: { labels.frameNumber > 0 && controls.frameNumber > 0 }, timeout: 10)

    // Frames of 100 labels changing their text: the main thread's time per frame.
    func changingFrames() throws -> Double {
        var times: [Double] = []
        for frame in 0..<60 {
            let start = MonotonicClock.now
            for label in texts.prefix(100) { label.text = "\(frame)" }
            try loop.turn(timeout: 0)
            times.append(MonotonicClock.now - start)
            try loop.turn(for: 1.0 / 60)
        }
        return median(times)
    }
    let quiet = try changingFrames()

    let gdbus = try Subprocess.spawn(["gdbus", "call", "--address", bus.address, "--dest", "org.a11y.Bus", "--object-path", "/org/a11y/bus", "--method",
                                      "org.freedesktop.DBus.Properties.Set", "org.a11y.Status", "IsEnabled", "<true>"],
                                     environment: [:], directory: directory, logPath: directory + "/gdbus.log")
    _ = gdbus.wait(timeout: 30)
    app.followAccessibilityStatus(busAddress: bus.address)
    guard try loop.turn(until: { app.isAccessibilityExported }, timeout: 30) else { return [] }

    let before = residentBytes()
    let walks = seconds(try client(["walk", "6"]))   // the first meets every object for the first time
    let perElement = Double(residentBytes() - before) / 1030
    guard walks.count == 6 else { return [] }

    // The controls example, beside the bench's binary when built (`swift build -c release --product controls`).
    let controlsBinary = String(CommandLine.arguments[0].split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")) + "/controls"
    var exampleWalks: [Double] = []
    if access(controlsBinary, X_OK) == 0 {
        let example = try Subprocess.spawn([controlsBinary, "--seconds", "120", "--appearance", "light"],
                                           environment: ["WAYLAND_DISPLAY": weston.socketName, "XDG_RUNTIME_DIR": weston.runtimeDirectory,
                                                         "DBUS_SESSION_BUS_ADDRESS": bus.address, "LANG": "en_US.UTF-8"],
                                           directory: nil, logPath: directory + "/controls.log")
        defer { example.terminate() }
        try loop.turn(for: 3)
        exampleWalks = seconds(try client(["walk", "6"], app: "org.strata.controls"))
    }

    // GTK 4's windows, walked the same way.
    let gtk = try Subprocess.spawn(["/usr/bin/python3", "Benchmarks/Fixtures/gtk4-a11y-reference.py", "120"],
                                   environment: ["WAYLAND_DISPLAY": weston.socketName, "XDG_RUNTIME_DIR": weston.runtimeDirectory,
                                                 "DBUS_SESSION_BUS_ADDRESS": bus.address, "GSETTINGS_BACKEND": "memory"],
                                   directory: nil, logPath: directory + "/gtk.log")
    defer { gtk.terminate() }
    try loop.turn(for: 4)
    let gtkWalks = seconds(try client(["walk", "6"], app: "org.strata.gtkreference"))
    gtk.terminate()

    // A list of 1,000 rows scrolling 12 points a frame: the main thread's time per frame.
    final class Rows: ListDataSource {
        func numberOfRows(in list: ListView) -> Int { 1000 }
        func listView(_ list: ListView, configure cell: ListCell, forRow row: Int) { cell.textLabel.text = "Row \(row)" }
    }
    let rows = Rows()
    let listWindow = Window(title: "list", size: Size(width: 400, height: 720))
    let list = ListView(frame: listWindow.rootView.bounds)
    list.dataSource = rows
    listWindow.rootView.addSubview(list)
    listWindow.show()
    _ = try loop.turn(until: { listWindow.frameNumber > 0 }, timeout: 10)
    func scrollingFrames() throws -> Double {
        var times: [Double] = []
        for frame in 0..<120 {
            let start = MonotonicClock.now
            list.contentOffset = Point(x: 0, y: Double(frame % 100) * 12)
            try loop.turn(timeout: 0)
            times.append(MonotonicClock.now - start)
            try loop.turn(for: 1.0 / 60)
        }
        return median(times)
    }
    let scrollingUnheard = try scrollingFrames()

    // With a listener for every object event.
    let listener = try Subprocess.spawn(["/usr/bin/python3", "Tests/Fixtures/atspi-client.py", "org.strata.bench", "listen", "30", "object:"],
                                        environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "NO_AT_BRIDGE": "1"], directory: nil,
                                        logPath: directory + "/listener.log")
    defer { listener.terminate() }
    try loop.turn(for: 2)
    let listened = try changingFrames()
    let scrollingHeard = try scrollingFrames()
    // (GTK 4 missing or its walk failed: no reference figures.)
    let reference = gtkWalks.count == 6 ? [
        Figure(scene: "a11y-walk", metric: "GTK 4, the same windows: first walk", value: gtkWalks[0] * 1000, unit: "ms", repetitions: 1),
        Figure(scene: "a11y-walk", metric: "GTK 4, walk again", value: median(Array(gtkWalks.dropFirst())) * 1000, unit: "ms", repetitions: 5),
        Figure(scene: "a11y-walk", metric: "Strata ÷ GTK 4, walk again", value: median(Array(walks.dropFirst())) / median(Array(gtkWalks.dropFirst())),
               unit: "×", repetitions: 5),
    ] : []
    let example = exampleWalks.count == 6 ? [
        Figure(scene: "a11y-walk", metric: "the controls example: first walk", value: exampleWalks[0] * 1000, unit: "ms", repetitions: 1),
        Figure(scene: "a11y-walk", metric: "the controls example: walk again", value: median(Array(exampleWalks.dropFirst())) * 1000, unit: "ms", repetitions: 5),
    ] : []
    return [
        Figure(scene: "a11y-walk", metric: "first walk of both windows' trees (1,000 labels, 30 controls)", value: walks[0] * 1000, unit: "ms", repetitions: 1),
        Figure(scene: "a11y-walk", metric: "walk again, every object known", value: median(Array(walks.dropFirst())) * 1000, unit: "ms", repetitions: 5),
        Figure(scene: "a11y-walk", metric: "resident memory per exported element, once walked", value: perElement, unit: "bytes", repetitions: 1),
        Figure(scene: "a11y-walk", metric: "main thread per frame, 100 labels changing, no assistive technology", value: quiet * 1e6, unit: "µs", repetitions: 60),
        Figure(scene: "a11y-walk", metric: "main thread per frame, 100 labels changing, a listener for every object event", value: listened * 1e6, unit: "µs", repetitions: 60),
        Figure(scene: "a11y-walk", metric: "main thread per frame, a 1,000-row list scrolling, exported, nobody listening", value: scrollingUnheard * 1e6, unit: "µs", repetitions: 120),
        Figure(scene: "a11y-walk", metric: "main thread per frame, the list scrolling, a listener for every object event", value: scrollingHeard * 1e6, unit: "µs", repetitions: 120),
    ] + example + reference
}
