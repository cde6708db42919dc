// strata-probe exec: any client in a compositor, with or without a script.
import Glibc
import StrataTesting

/// Runs `client` in the compositor `start` makes. With a script: its steps
/// against the client's window, reported as a table or JSON; 0 when every step
/// passed, 1 otherwise. Without: until the client exits (or `seconds` pass:
/// 124), its output copied to standard output; the client's exit status.
/// Everything started is stopped before this returns.
@MainActor
func execute(_ client: [String], script path: String?, compositor start: () throws -> any Compositor, asJSON: Bool, seconds: Double?) throws -> Int32 {
    var script: ClientScript?
    if let path {
        guard let text = readTextFile(path) else { fail("cannot read '\(path)'", status: 2) }
        do { script = try ClientScript(parsing: text) } catch { fail("\(path): \(error)", status: 2) }
    }
    let compositor = try start()
    defer { compositor.stop() }
    if let script {
        let slash = path!.lastIndex(of: "/")
        let report = ClientRunner(compositor: compositor, directory: slash.map { String(path![..<$0]) } ?? ".").run(script, client: client)
        print(asJSON ? report.json : report.table)
        if !report.passed, let output = report.client?.output, !asJSON {
            print("the client's output ends:\n" + output)
        }
        return report.passed ? 0 : 1
    }
    let (process, log) = try compositor.startClient(client, environment: [:], inDirectory: currentDirectory())
    let status = process.wait(timeout: seconds ?? .infinity)
    if status == nil { process.terminate() }
    if let text = readTextFile(log) { print(text, terminator: "") }
    return status ?? 124
}
