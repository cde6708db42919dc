import Foundation
import Glibc

extension HeadlessKWin {
    /// kwin's windows, listed by a KWin script (`workspace.clientList()`):
    /// normal windows and dialogs with their frame geometry, caption, resource
    /// class (a Wayland client's app id) and process.
    public func windows() throws(CompositorError) -> [ScreenWindow]? {
        let lines = try runScript("""
            for (const c of workspace.clientList()) {
                if (!c.normalWindow && !c.dialog) continue;
                const g = c.frameGeometry;
                report(JSON.stringify({title: c.caption, appId: c.resourceClass, pid: c.pid, id: String(c.internalId),
                                       x: g.x, y: g.y, w: g.width, h: g.height}));
            }
            """)
        return lines.compactMap { line in
            guard let data = line.data(using: .utf8), let w = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
            func int(_ k: String) -> Int { (w[k] as? NSNumber).map { Int($0.doubleValue.rounded()) } ?? 0 }
            let appID = (w["appId"] as? String).flatMap { $0.isEmpty ? nil : $0 }
            return ScreenWindow(title: w["title"] as? String, appID: appID, x: int("x"), y: int("y"), width: int("w"), height: int("h"),
                                pid: (w["pid"] as? NSNumber)?.int32Value, id: w["id"] as? String, source: "kwin's scripting")
        }
    }

    /// Closes the window as its close button would (the script's `closeWindow()`).
    public func closeWindow(_ window: ScreenWindow) throws(CompositorError) -> Bool {
        guard let id = window.id else { return false }
        let lines = try runScript("""
            for (const c of workspace.clientList()) {
                if (String(c.internalId) === \(JSON.string(id))) { c.closeWindow(); report("closed"); }
            }
            """)
        return lines == ["closed"]
    }

    /// Runs a KWin script (JavaScript) through kwin's D-Bus `Scripting` object
    /// and returns what it passed to `report(text)`, one line each, read back
    /// from kwin's log (where `print` goes); at most `timeout` seconds.
    public func runScript(_ source: String, timeout: Double = 10) throws(CompositorError) -> [String] {
        let token = "strata-\(getpid())-\(Int(now() * 1_000_000))"
        let path = runtimeDirectory + "/\(token).js"
        writeText("function report(text) { print(\(JSON.string(token + " ")) + text); }\n" + source + "\nprint(\(JSON.string(token + " end")));\n",
                  to: path)
        defer { unlink(path) }
        let logSize = fileSize(logPath)
        let deadline = now() + timeout
        func call(_ arguments: [String]) throws(CompositorError) {
            let log = runtimeDirectory + "/dbus-send.log"
            while true {
                unlink(log)
                let p = try Subprocess.spawn(["dbus-send", "--session", "--print-reply", "--dest=org.kde.KWin"] + arguments,
                                             environment: ["DBUS_SESSION_BUS_ADDRESS": busAddress], directory: runtimeDirectory, logPath: log)
                guard let status = p.wait(timeout: max(0.1, deadline - now())) else {
                    p.terminate()
                    throw .notReady("kwin did not answer \(arguments[1]) within \(timeout) s")
                }
                if status == 0 { return }
                // kwin takes its name on the bus a moment after its socket appears.
                guard tail(of: log, lines: 3).contains("ServiceUnknown"), now() < deadline else {
                    throw .notReady("kwin refused \(arguments[1]): \(tail(of: log, lines: 3))")
                }
                usleep(100_000)
            }
        }
        try call(["/Scripting", "org.kde.kwin.Scripting.loadScript", "string:\(path)", "string:\(token)"])
        defer { try? call(["/Scripting", "org.kde.kwin.Scripting.unloadScript", "string:\(token)"]) }
        try call(["/Scripting", "org.kde.kwin.Scripting.start"])
        while true {
            let lines = readText(logPath, from: logSize).split(separator: "\n").compactMap { line in
                line.firstRange(of: token + " ").map { String(line[$0.upperBound...]) }
            }
            if let end = lines.firstIndex(of: "end") { return Array(lines[..<end]) }
            guard now() < deadline else { throw .notReady("kwin's script gave no answer within \(timeout) s: \(tail(of: logPath, lines: 4))") }
            usleep(20_000)
        }
    }
}

/// The size of a file in bytes (0 when missing).
func fileSize(_ path: String) -> Int {
    var st = stat()
    return stat(path, &st) == 0 ? Int(st.st_size) : 0
}

/// A file's text from a byte offset on ("" when missing).
func readText(_ path: String, from offset: Int) -> String {
    guard let f = fopen(path, "rb") else { return "" }
    defer { fclose(f) }
    fseek(f, offset, SEEK_SET)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = fread(&buffer, 1, buffer.count, f)
        if n <= 0 { break }
        bytes += buffer[..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
