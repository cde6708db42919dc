// strata-probe proxy: any client's protocol traffic, pacing and rules.
import Glibc
import StrataTesting
import WaylandClient

/// Runs `client` in the compositor `start` makes, through a ``ProtocolProxy``,
/// until it exits (or `seconds` pass: then it is stopped). Writes the trace,
/// prints the pacing and the rules' outcomes; 0 when every rule held and the
/// client sent nothing malformed, 1 otherwise.
@MainActor
func proxyClient(_ client: [String], compositor start: () throws -> any Compositor, tracePath: String?, pacing: Bool,
                 rules: [TraceRule], asJSON: Bool, seconds: Double?) throws -> Int32 {
    let compositor = try start()
    defer { compositor.stop() }
    let upstream = compositor.socketName.hasPrefix("/") ? compositor.socketName : compositor.runtimeDirectory + "/" + compositor.socketName
    let proxy = try ProtocolProxy(upstream: upstream, socketPath: compositor.runtimeDirectory + "/strata-proxy-\(getpid())")
    defer { proxy.stop() }
    let (process, _) = try compositor.startClient(client, environment: ["WAYLAND_DISPLAY": proxy.socketPath], inDirectory: currentDirectory())
    var status = process.wait(timeout: seconds ?? .infinity)
    let stopped = status == nil
    if stopped { status = process.terminate() }
    proxy.stop()
    let trace = ProxyTrace(proxy.messages, end: MonotonicClock.now)
    if let tracePath {
        let text = trace.text + "\n"
        let fd = tracePath == "-" ? 2 : open(tracePath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { fail("cannot write the trace to '\(tracePath)'", status: 2) }
        _ = text.withCString { write(fd, $0, strlen($0)) }
        if fd != 2 { close(fd) }
    }
    let report = pacing ? trace.pacing() : nil
    let outcomes = rules.map { ($0, $0.check(trace)) }
    let problems = proxy.problems
    let passed = problems.isEmpty && outcomes.allSatisfy(\.1.passed)
    let ending = stopped ? nil : status
    if asJSON {
        let rulesJSON = outcomes.map { rule, o in
            "{\"rule\": \(JSON.string(rule.description)), \"passed\": \(o.passed)" + (o.message.map { ", \"message\": \(JSON.string($0))" } ?? "") + "}"
        }
        print("{\"compositor\": \(JSON.string(compositor.name)), \"client\": {\"command\": [\(client.map(JSON.string).joined(separator: ", "))], "
              + "\"exit\": \(ending.map(String.init) ?? "null")}, \"messages\": \(trace.messages.count), "
              + "\"problems\": [\(problems.map(JSON.string).joined(separator: ", "))], \"pacing\": \(report?.json ?? "null"), "
              + "\"buffers_in_flight\": \(trace.buffersInFlight()), \"rules\": [\(rulesJSON.joined(separator: ", "))], \"passed\": \(passed)}")
    } else {
        print("compositor: \(compositor.name)")
        print("client \(client[0]) " + (ending.map { "exited with status \($0)" } ?? "was stopped after \(seconds ?? 0) s"))
        print("messages: \(trace.messages.count) on \(proxy.connections) connection\(proxy.connections == 1 ? "" : "s")")
        for p in problems { print("problem: \(p)") }
        if let report { print(report.table + "\nbuffers_in_flight" + String(repeating: " ", count: 13) + "\(trace.buffersInFlight())") }
        for (rule, o) in outcomes { print((o.passed ? "pass  " : "FAIL  ") + rule.description + (o.message.map { "  — \($0)" } ?? "")) }
    }
    return passed ? 0 : 1
}
