import Glibc
import WaylandClient

/// The command line the example programs share: `--seconds N` (run that long),
/// `--socket NAME` (the compositor to use) and `--screenshot PATH` (where to save
/// the picture when they had to start their own headless weston).
public struct ExampleCommandLine {
    public var seconds: Double?
    public var socket: String?
    public var screenshotPath: String

    /// Reads `CommandLine.arguments`; anything else prints the usage and exits with status 2.
    public init(program: String, screenshot: String) {
        screenshotPath = screenshot
        var args = CommandLine.arguments.dropFirst().makeIterator()
        while let a = args.next() {
            switch a {
            case "--seconds": seconds = args.next().flatMap(Double.init)
            case "--socket": socket = args.next()
            case "--screenshot": screenshotPath = args.next() ?? screenshotPath
            default:
                Self.printError("usage: \(program) [--seconds N] [--socket NAME] [--screenshot PATH]")
                exit(2)
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
}
