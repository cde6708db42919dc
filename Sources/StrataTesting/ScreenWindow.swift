/// A toplevel window as a compositor shows it: where it is on the output (in
/// the output's logical pixels, the window's own geometry without shadows),
/// its title and app id — what a test of someone else's client aims input and
/// captures with. ``Compositor/windows()`` lists them where the compositor can
/// tell; ``ClientRunner`` finds one on the screen where it cannot.
public struct ScreenWindow: Equatable, Sendable, CustomStringConvertible {
    public var title: String?
    public var appID: String?
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int
    /// The client's process, where the compositor says.
    public var pid: Int32?
    /// The compositor's own name for the window (sway's node id, kwin's
    /// internal id), for asking it to close the window.
    public var id: String?
    /// How it was found: `sway's IPC`, `kwin's scripting`, `the screen`.
    public var source: String

    public init(title: String?, appID: String?, x: Int, y: Int, width: Int, height: Int, pid: Int32? = nil, id: String? = nil, source: String) {
        (self.title, self.appID, self.x, self.y, self.width, self.height, self.pid, self.id, self.source) = (title, appID, x, y, width, height, pid, id, source)
    }

    public var description: String {
        ([title.map { "\"\($0)\"" }, appID.map { "app id \($0)" }].compactMap { $0 } + ["\(width)x\(height) at \(x),\(y) (from \(source))"])
            .joined(separator: ", ")
    }
}
