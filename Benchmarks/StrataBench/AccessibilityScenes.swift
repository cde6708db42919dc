import Glibc
import Strata
import StrataTesting
import WaylandClient

/// What exporting over AT-SPI costs (issue 24): an assistive technology
/// (libatspi through pyatspi, as Orca reads) walking the whole tree of a window
/// of 1,000 labels and of a window of 30 controls — every node's name, role,
/// states and extents; the resident memory each exported element adds once
/// walked; and the main thread's time per frame when 100 labels change their
/// text every frame, with an assistive technology listening and with none.
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
    func client(_ arguments: [String]) throws -> String {
        let log = directory + "/client-\(Int(MonotonicClock.now * 1000)).log"
        let child = try Subprocess.spawn(["/usr/bin/python3", "Tests/Fixtures/atspi-client.py", "org.strata.bench"] + arguments,
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

    // With a listener for the changes.
    let listener = try Subprocess.spawn(["/usr/bin/python3", "Tests/Fixtures/atspi-client.py", "org.strata.bench", "listen", "20",
                                         "object:property-change:accessible-name"],
                                        environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address, "NO_AT_BRIDGE": "1"], directory: nil,
                                        logPath: directory + "/listener.log")
    defer { listener.terminate() }
    try loop.turn(for: 2)
    let listened = try changingFrames()
    return [
        Figure(scene: "a11y-walk", metric: "first walk of both windows' trees (1,000 labels, 30 controls)", value: walks[0] * 1000, unit: "ms", repetitions: 1),
        Figure(scene: "a11y-walk", metric: "walk again, every object known", value: median(Array(walks.dropFirst())) * 1000, unit: "ms", repetitions: 5),
        Figure(scene: "a11y-walk", metric: "resident memory per exported element, once walked", value: perElement, unit: "bytes", repetitions: 1),
        Figure(scene: "a11y-walk", metric: "main thread per frame, 100 labels changing, no assistive technology", value: quiet * 1e6, unit: "µs", repetitions: 60),
        Figure(scene: "a11y-walk", metric: "main thread per frame, 100 labels changing, a listener for their names", value: listened * 1e6, unit: "µs", repetitions: 60),
    ]
}
