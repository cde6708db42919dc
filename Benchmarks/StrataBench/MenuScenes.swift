import Glibc
import Strata
import StrataTesting
import WaylandClient

/// Menu latency on headless kwin and mutter with real input (issue 23): a
/// secondary click on a 1280×720 fullscreen window opens a 20-item context
/// menu, 30 times; from the click's arrival at the app (the menu provider runs)
/// to the commit of the menu popup's first frame (p50, p99). Then the memory an
/// open popup costs: the process's resident size with a chain of 10 submenus
/// open, less with one, per popup.
@MainActor
func sceneMenuLatency() throws -> [Figure] {
    try ["kwin", "mutter"].flatMap { name -> [Figure] in
        let compositor: any Compositor = name == "kwin" ? try HeadlessKWin(width: 1280, height: 720) : try HeadlessMutter(width: 1280, height: 720)
        defer { compositor.stop() }
        _ = try useApplication(on: compositor)
        let app = Application.shared
        defer { app.disconnect() }
        var arrival = 0.0
        @MainActor func chain(_ depth: Int) -> Menu {
            Menu(title: "Level \(depth)", children: (depth > 0 ? [chain(depth - 1)] : []) + (0..<19).map { i in MenuAction(title: "Item \(i)") { _ in } })
        }
        let target = View(frame: Rect(x: 0, y: 0, width: 1280, height: 720))
        let interaction = ContextMenuInteraction { _ in
            arrival = MonotonicClock.now
            return chain(10)
        }
        target.addInteraction(interaction)
        let window = Window(title: "menus", size: Size(width: 1280, height: 720))
        window.rootView.addSubview(target)
        window.show()
        window.isFullscreen = true
        let loop = app.loop!
        _ = try loop.turn(until: { window.isFullscreen && window.frameNumber > 0 }, timeout: 10)
        try loop.turn(for: 1)   // the compositor shows the fullscreen window
        let driver = InputDriver(window: window, injecting: try compositor.injectedInput())
        var latencies: [Double] = []
        for i in 0..<30 {
            driver.movePointer(to: Point(x: 100 + Double(i * 37 % 1000), y: 100 + Double(i * 23 % 400)))
            driver.press(.right)
            driver.release(.right)
            guard try loop.turn(until: { (window.popupWindows.first?.frameNumber ?? 0) > 0 }, timeout: 5),
                  let first = window.popupWindows.first?.frameStatistics?.frames.first else { continue }
            latencies.append(first.commitTime - arrival)
            interaction.dismissMenu()
            try loop.turn(for: 0.05)
        }
        // Memory: one level open, then ten (Right opens each submenu with its first row highlighted).
        driver.movePointer(to: Point(x: 40, y: 40))
        driver.press(.right)
        driver.release(.right)
        _ = try loop.turn(until: { (window.popupWindows.first?.frameNumber ?? 0) > 0 }, timeout: 5)
        try loop.turn(for: 0.3)
        let one = residentBytes()
        driver.pressKey(keysym: 0xff54)
        driver.releaseKey(keysym: 0xff54)
        for level in 2...10 {
            driver.pressKey(keysym: 0xff53)
            driver.releaseKey(keysym: 0xff53)
            _ = try loop.turn(until: { window.popupWindows.count == level && (window.popupWindows.last?.frameNumber ?? 0) > 0 }, timeout: 5)
        }
        _ = try loop.turn(until: { window.popupWindows.count == 10 && window.popupWindows.allSatisfy { $0.frameNumber > 0 } }, timeout: 10)
        try loop.turn(for: 0.3)
        let ten = residentBytes(), open = window.popupWindows.count
        interaction.dismissMenu()
        let scene = "menu latency (\(name), secondary click)"
        return [50.0, 99].map { p in
            Figure(scene: scene, metric: "click arrival → menu's first commit p\(Int(p))",
                   value: (FrameStatistics.percentile(latencies, p) ?? .nan) * 1e3, unit: "ms", repetitions: latencies.count)
        } + [Figure(scene: scene, metric: "resident memory per open menu popup (10 open vs 1)",
                    value: open == 10 ? Double(ten - one) / 9 / 1024 : .nan, unit: "KiB", repetitions: 1)]
    }
}

/// The process's resident set size, in bytes (`/proc/self/statm`'s second field, in pages).
func residentBytes() -> Int {
    guard let f = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, Int32(line.count), f) != nil else { return 0 }
    let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * sysconf(Int32(_SC_PAGESIZE))
}
