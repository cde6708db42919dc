import Glibc

/// A private D-Bus session bus (`dbus-daemon --session`) at
/// `unix:path=DIRECTORY/bus`, killed with this process if it dies first: for
/// one compositor (kwin and mutter serve their test interfaces on it), or for a
/// test of a session service (a notification daemon driven by `notify-send`).
@MainActor
public struct SessionBus {
    /// What `DBUS_SESSION_BUS_ADDRESS` is for its clients.
    public let address: String
    private var process: Subprocess?

    /// Starts the bus; it listens as soon as the socket exists (clients retry briefly).
    public init(in directory: String) throws(CompositorError) {
        address = "unix:path=\(directory)/bus"
        process = try Subprocess.spawn(["setpriv", "--pdeathsig", "KILL", "--", "dbus-daemon", "--session", "--nofork", "--address=\(address)"],
                                       environment: [:], directory: directory, logPath: directory + "/dbus.log")
    }

    public mutating func stop() {
        process?.terminate()
        process = nil
    }
}
