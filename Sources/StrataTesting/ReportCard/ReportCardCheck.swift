import Glibc
import PixmanRender
import WaylandClient

/// One check of a ``ReportCard``: a small client run on a connection of its
/// own (a protocol error ends only that one), every wait bounded.
public struct ReportCardCheck: Sendable {
    public let name: String
    public let area: String
    let run: @MainActor @Sendable (ReportCardContext) throws -> Verdict

    enum Verdict {
        case pass(String? = nil)
        case fail(String, detail: String? = nil)
        case skip(String)
    }

    /// Runs every check against `compositor`, in order. After each, a new
    /// client must get an answer within 5 s; when none comes, the check fails
    /// with the end of the compositor's log and the rest are skipped.
    @MainActor
    public static func run(_ checks: [ReportCardCheck] = ReportCardCheck.battery, on compositor: any Compositor) -> ReportCard {
        var results: [ReportCard.Result] = []
        var dead: String?
        for check in checks {
            let start = MonotonicClock.now
            guard dead == nil else {
                results.append(.init(check: check.name, area: check.area, outcome: .skip, reason: "the compositor stopped answering earlier", detail: nil, seconds: 0))
                continue
            }
            var verdict: Verdict
            do {
                let display = try compositor.connect()
                let context = ReportCardContext(compositor: compositor, display: display)
                verdict = try check.run(context)
                withExtendedLifetime(context) {}
            } catch {
                verdict = .fail("the check could not finish: \(Self.stable(error))")
            }
            if let latency = answers(compositor) {
                if case let .pass(detail) = verdict, check.area == "edge cases" {
                    verdict = .pass([detail, "a new client answered in \(ClientRunner.seconds(latency * 1000)) ms after"].compactMap { $0 }.joined(separator: "; "))
                }
            } else {
                let log = compositor.runtimeDirectory + "/\(compositor.name).log"
                dead = "the compositor stopped answering (a new client got no answer within 5 s)"
                verdict = .fail(dead!, detail: access(log, R_OK) == 0 ? tail(of: log, lines: 4) : nil)
            }
            let seconds = MonotonicClock.now - start
            switch verdict {
            case let .pass(detail): results.append(.init(check: check.name, area: check.area, outcome: .pass, reason: nil, detail: detail, seconds: seconds))
            case let .fail(reason, detail): results.append(.init(check: check.name, area: check.area, outcome: .fail, reason: reason, detail: detail, seconds: seconds))
            case let .skip(reason): results.append(.init(check: check.name, area: check.area, outcome: .skip, reason: reason, detail: nil, seconds: seconds))
            }
        }
        return ReportCard(compositor: compositor.name, results: results)
    }

    /// Seconds a new client's round trip took, nil when it got no answer within 5 s.
    @MainActor
    static func answers(_ compositor: any Compositor) -> Double? {
        let start = MonotonicClock.now
        guard let display = try? compositor.connect(), (try? display.connection.roundtrip(timeout: 5)) != nil else { return nil }
        return MonotonicClock.now - start
    }

    /// An error in words without the numbers that change between runs.
    static func stable(_ error: Error) -> String {
        String("\(error)".map { $0.isNumber ? "#" : $0 })
    }
}

/// What a check works with: the compositor, a connection of the check's own,
/// and small clients made on it.
@MainActor
final class ReportCardContext {
    let compositor: any Compositor
    let display: Display
    let pool: ShmBufferPool
    private var kept: [AnyObject] = []

    init(compositor: any Compositor, display: Display) {
        self.compositor = compositor
        self.display = display
        pool = ShmBufferPool(shm: display.shm)
    }

    /// Keeps objects alive until the check ends.
    func keep(_ objects: AnyObject...) { kept += objects }

    /// Turns the connection until `condition` holds; false after `timeout`.
    func wait(_ timeout: Double = 4, until condition: () -> Bool) throws -> Bool {
        let deadline = MonotonicClock.now + timeout
        while !condition() {
            let left = deadline - MonotonicClock.now
            guard left > 0 else { return false }
            try display.connection.dispatch(timeout: min(left, 0.05))
        }
        return true
    }

    /// Turns this connection and `other` in turn until `condition` holds (one
    /// answers what the other asks); false after `timeout`.
    func wait(_ timeout: Double, with other: ReportCardContext, until condition: () -> Bool) throws -> Bool {
        let deadline = MonotonicClock.now + timeout
        while !condition() {
            guard MonotonicClock.now < deadline else { return false }
            _ = try display.connection.dispatch(timeout: 0.02)
            _ = try other.display.connection.dispatch(timeout: 0.02)
        }
        return true
    }

    /// Waits, up to 5 s, for the windows of earlier checks to leave the screen
    /// (a loaded compositor unmaps a client that has gone a while later); what is
    /// still there is named on standard error. For a check that looks for its
    /// windows on the screen.
    func awaitEmptyScreen() {
        let left = compositor.windowsLeft(within: 5)
        guard !left.isEmpty else { return }
        ExampleCommandLine.printError("report card on \(compositor.name): still on the screen from an earlier check after 5 s: "
                                      + left.map(\.description).joined(separator: ", "))
    }

    /// A second client on the same compositor.
    func secondClient() throws -> ReportCardContext {
        ReportCardContext(compositor: compositor, display: try compositor.connect())
    }

    /// A buffer of a size, filled with one colour, attached to `surface` (not committed).
    func attachBuffer(to surface: WlSurface, width: Int, height: Int, color: UInt32 = 0xff33_6699) throws -> ShmBuffer {
        let buffer = try pool.nextBuffer(width: width, height: height)
        let words = buffer.data.assumingMemoryBound(to: UInt32.self)
        for i in 0..<(buffer.stride / 4 * height) { words[i] = color }
        surface.attach(buffer: buffer.wlBuffer, x: 0, y: 0)
        surface.damageBuffer(x: 0, y: 0, width: Int32(width), height: Int32(height))
        pool.markAttached(buffer, frame: 1)
        return buffer
    }

    /// The first seat, once it has a pointer (or after 2 s without one).
    func pointerSeat() throws -> Seat? {
        _ = try wait(2) { display.seats.values.first?.capabilities.contains(.pointer) == true }
        return display.seats.values.first
    }

    /// The first output, once it described itself.
    func output() throws -> Output? {
        _ = try wait(1) { display.outputs.values.contains { $0.isDescribed } }
        return display.outputs.values.first { $0.isDescribed }
    }
}

/// A toplevel window made from the protocol's objects, recording what the
/// compositor says to it.
@MainActor
final class TestToplevel {
    let surface: WlSurface
    let xdg: XdgSurface
    let toplevel: XdgToplevel
    private(set) var configures: [(width: Int32, height: Int32, states: [UInt32])] = []
    private(set) var serials: [UInt32] = []
    private(set) var capabilities: [UInt32]?
    private(set) var order: [String] = []
    private let context: ReportCardContext

    /// Makes the objects, lets `setUp` set what goes before the first commit, and commits.
    init(_ context: ReportCardContext, title: String, setUp: (XdgToplevel) -> Void = { _ in }) {
        self.context = context
        surface = context.display.compositor.createSurface()
        xdg = context.display.wmBase.getXdgSurface(surface: surface)
        toplevel = xdg.getToplevel()
        toplevel.setTitle(title: title)
        toplevel.onEvent = { [unowned self] event in
            switch event {
            case let .configure(w, h, states):
                configures.append((w, h, Self.words(states)))
                order.append("toplevel")
            case let .wmCapabilities(c): capabilities = Self.words(c)
            default: break
            }
        }
        xdg.onEvent = { [unowned self] event in
            if case let .configure(serial) = event {
                serials.append(serial)
                order.append("surface")
            }
        }
        setUp(toplevel)
        surface.commit()
    }

    var lastStates: [UInt32] { configures.last?.states ?? [] }

    /// Waits for a configure after the `count`th, and for any that follow it
    /// within 0.2 s (a compositor may send a state and then its size); false
    /// when none came in time.
    func waitConfigure(after count: Int? = nil, timeout: Double = 4) throws -> Bool {
        let n = count ?? serials.count
        guard try context.wait(timeout, until: { serials.count > n }) else { return false }
        var seen = serials.count
        while try context.wait(0.2, until: { serials.count > seen }) { seen = serials.count }
        return true
    }

    private var acked: UInt32?

    /// Acknowledges the last configure, once.
    func acknowledge() {
        guard let serial = serials.last, serial != acked else { return }
        xdg.ackConfigure(serial: serial)
        acked = serial
    }

    /// Acknowledges the last configure and commits a buffer of its size (or `fallback`).
    func draw(fallback: (Int, Int) = (200, 150), color: UInt32 = 0xff33_6699) throws {
        acknowledge()
        let w = Int(configures.last?.width ?? 0), h = Int(configures.last?.height ?? 0)
        _ = try context.attachBuffer(to: surface, width: w > 0 ? w : fallback.0, height: h > 0 ? h : fallback.1, color: color)
        surface.commit()
    }

    /// Configured and drawn once: on the screen.
    func map(timeout: Double = 4, size: (Int, Int) = (200, 150), color: UInt32 = 0xff33_6699) throws -> Bool {
        guard try waitConfigure(after: 0, timeout: timeout) || !serials.isEmpty else { return false }
        try draw(fallback: size, color: color)
        try context.display.connection.roundtrip(timeout: 5)
        return true
    }

    /// Little-endian 32-bit words of a Wayland array.
    static func words(_ bytes: [UInt8]) -> [UInt32] {
        stride(from: 0, to: bytes.count - 3, by: 4).map { i in
            UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24
        }
    }
}

extension Compositor {
    /// The windows still listed after waiting up to `seconds` for none to be
    /// (empty at once where the compositor cannot list its windows).
    @MainActor
    func windowsLeft(within seconds: Double) -> [ScreenWindow] {
        let deadline = MonotonicClock.now + seconds
        while let listed = (try? windows()) ?? nil, !listed.isEmpty {
            guard MonotonicClock.now < deadline else { return listed }
            usleep(50_000)
        }
        return []
    }
}
