// strata-probe: what a Wayland compositor offers, for people who build or test
// compositors. Attaches to WAYLAND_DISPLAY, or starts one headless for the run.
import Glibc
import StrataTesting
import WaylandClient

let usage = """
    usage: strata-probe COMMAND [--compositor weston|sway] [--json]

    commands:
      compositors   which compositors this machine can start headless, one a line
      probe         what the compositor offers: features (yes/no) and its globals

    --compositor NAME   start that compositor headless for the run (else attach to WAYLAND_DISPLAY)
    --json              probe: print JSON instead of a table
    """

/// The launchers this tool knows, by name.
@MainActor
func launchers() -> [(name: String, start: () throws -> any Compositor)] {
    [("weston", { try HeadlessWeston() }), ("sway", { try HeadlessSway() })]
}

func fail(_ message: String, status: Int32 = 1) -> Never {
    let line = "strata-probe: \(message)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
    exit(status)
}

@MainActor
func compositorFor(_ name: String?) throws -> any Compositor {
    guard let name else { return try AttachedCompositor() }
    guard let launcher = launchers().first(where: { $0.name == name }) else {
        fail("unknown compositor '\(name)' (this tool starts: \(launchers().map(\.name).joined(separator: ", ")))", status: 2)
    }
    return try launcher.start()
}

/// A JSON string literal.
func json(_ s: String) -> String {
    var out = "\""
    for c in s.unicodeScalars {
        switch c {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        default: out += c.value < 0x20 ? "\\u00" + String(c.value >> 4, radix: 16) + String(c.value & 15, radix: 16) : String(c)
        }
    }
    return out + "\""
}

@MainActor
func run() throws {
    var args = Array(CommandLine.arguments.dropFirst())
    if args.isEmpty || args.contains("--help") || args.contains("-h") { print(usage); exit(args.isEmpty ? 2 : 0) }
    let command = args.removeFirst()
    var compositorName: String?
    var asJSON = false
    while !args.isEmpty {
        switch args.removeFirst() {
        case "--compositor":
            guard !args.isEmpty else { fail("--compositor needs a name", status: 2) }
            compositorName = args.removeFirst()
        case "--json": asJSON = true
        case let other: fail("unknown option '\(other)'\n\(usage)", status: 2)
        }
    }
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
        let compositor = try compositorFor(compositorName)
        defer { compositor.stop() }
        let capabilities = CompositorCapabilities(try compositor.connect())
        if asJSON {
            let features = CompositorCapabilities.Feature.allCases.map { "\(json($0.rawValue)): \(capabilities.has($0))" }
            let globals = capabilities.globals.keys.sorted().map { "\(json($0)): \(capabilities.globals[$0]!)" }
            print("{\"compositor\": \(json(compositor.name)), \"features\": {\(features.joined(separator: ", "))}, \"globals\": {\(globals.joined(separator: ", "))}}")
        } else {
            print("compositor: \(compositor.name)")
            print(capabilities)
        }
    default:
        fail("unknown command '\(command)'\n\(usage)", status: 2)
    }
}

do {
    try MainActor.assumeIsolated { try run() }
} catch {
    fail("\(error)")
}
