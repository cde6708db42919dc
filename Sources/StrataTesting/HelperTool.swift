import Glibc
import StrataTestingTools

/// StrataTesting's helper programs, written in C (target StrataTestingTools) and
/// built with the package: a kwin screenshot and mutter's remote desktop over
/// D-Bus, and a minimal Wayland server. Each runs as this very program started
/// again with the tool's name in its environment (the C target's constructor
/// runs the tool instead of the program), so nothing is compiled when a test runs.
enum HelperTool: String {
    case kwinScreenshot = "kwin-screenshot"
    case mutterRemote = "mutter-remote"
    case protocolHarness = "protocol-harness"

    /// The command line that runs the tool with `arguments`.
    func command(_ arguments: [String] = []) -> [String] { [Self.executable] + arguments }

    /// What to add to the child's environment to run the tool.
    var environment: [String: String] { [String(cString: strata_testing_tool_variable()): rawValue] }

    /// This program's executable.
    private static let executable: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }()
}
