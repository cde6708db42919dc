import Glibc

/// A private D-Bus session bus for one compositor (kwin, mutter: both serve
/// their test interfaces on it), at `unix:path=DIRECTORY/bus`, killed with
/// this process if it dies first.
@MainActor
struct SessionBus {
    let address: String
    private var process: Subprocess?

    init(in directory: String) throws(CompositorError) {
        address = "unix:path=\(directory)/bus"
        process = try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--", "dbus-daemon", "--session", "--nofork", "--address=\(address)"],
                                       environment: [:], directory: directory, logPath: directory + "/dbus.log")
    }

    mutating func stop() {
        process?.terminate()
        process = nil
    }
}
