import CShims
import Glibc

/// A child process started with `posix_spawnp`, its output sent to a file.
public struct Subprocess: Sendable {
    public let pid: pid_t

    /// Starts `arguments[0]` (looked up in PATH) with the current environment
    /// plus `environment`, in `directory`, its stdout and stderr appended to
    /// `logPath` — or its stdin and stdout on the given descriptors (a pipe's
    /// ends), stderr still to the log.
    package static func spawn(_ arguments: [String], environment: [String: String], directory: String?, logPath: String,
                      standardInput: Int32? = nil, standardOutput: Int32? = nil) throws(CompositorError) -> Subprocess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let standardOutput {
            posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 2, 1)
        }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if let directory { strata_spawn_addchdir(&actions, directory) }

        var env: [String: String] = [:]
        var e = environ
        while let entry = e.pointee {
            let s = String(cString: entry)
            if let eq = s.firstIndex(of: "=") { env[String(s[..<eq])] = String(s[s.index(after: eq)...]) }
            e += 1
        }
        env["WAYLAND_SOCKET"] = nil
        for (k, v) in environment { env[k] = v }
        let envStrings = env.map { "\($0.key)=\($0.value)" }

        var pid: pid_t = 0
        let cArgs = arguments.map { strdup($0) } + [nil]
        let cEnv = envStrings.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        let rc = posix_spawnp(&pid, arguments[0], &actions, nil, cArgs, cEnv)
        guard rc == 0 else { throw .launchFailed(command: arguments[0], errno: rc) }
        return Subprocess(pid: pid)
    }

    /// Waits up to `timeout` seconds for the process to exit; its exit status, or nil if still running.
    /// A timeout of 0 only looks, without sleeping (for loops that turn an event loop meanwhile).
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        let deadline = now() + timeout
        while true {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }
            if r < 0 { return -1 }
            guard now() < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// Asks the process to stop (SIGTERM), then kills it (SIGKILL) if it has
    /// not within `grace` seconds; returns how it ended, as ``wait(timeout:)``.
    @discardableResult
    public func terminate(grace: Double = 3) -> Int32? {
        kill(pid, SIGTERM)
        if let status = wait(timeout: grace) { return status }
        kill(pid, SIGKILL)
        return wait(timeout: 2)
    }
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
