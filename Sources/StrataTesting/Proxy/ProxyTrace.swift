import WaylandClient

/// What a ``ProtocolProxy``'s messages say about a client, whoever wrote it:
/// the trace as text, its frame pacing (``PacingReport``, as a Strata window
/// measures its own), buffers in flight, and rules checked over it
/// (``TraceRule``).
public struct ProxyTrace: Sendable {
    public let messages: [WireMessage]
    /// When the trace ends (CLOCK_MONOTONIC seconds): when the proxy stopped
    /// looking, which may be long after the last message of an idle client.
    public let end: Double

    public init(_ messages: [WireMessage], end: Double? = nil) {
        self.messages = messages
        self.end = end ?? messages.last?.time ?? 0
    }

    /// A message a line: seconds since the first message, the connection, the message.
    public var text: String {
        let start = messages.first?.time ?? 0
        return messages.map { m in
            let micros = Int(((m.time - start) * 1e6).rounded())
            return "\(micros / 1_000_000)." + String(String(micros % 1_000_000 + 1_000_000).dropFirst()) + " [\(m.connection)] \(m)"
        }.joined(separator: "\n")
    }

    /// The compositor's `wl_display.error`, if it sent one.
    public var protocolError: WireMessage? { messages.first { $0.direction == .event && $0.is("wl_display.error") } }

    // MARK: Pacing

    /// The surface of the first toplevel (`xdg_surface.get_toplevel`) on a
    /// connection, else the surface that committed most.
    public func mainSurface(connection: Int = 1) -> UInt32? {
        var xdgSurfaces: [UInt32: UInt32] = [:]
        var commits: [UInt32: Int] = [:]
        for m in messages where m.connection == connection && m.direction == .request {
            if m.is("xdg_wm_base.get_xdg_surface"), case let .newID(x, _) = m.arguments.first, case let .object(s, _) = m.arguments.last {
                xdgSurfaces[x] = s
            } else if m.is("xdg_surface.get_toplevel"), let s = xdgSurfaces[m.objectID] {
                return s
            } else if m.is("wl_surface.commit") {
                commits[m.objectID, default: 0] += 1
            }
        }
        return commits.max { $0.value < $1.value }?.key
    }

    /// How the compositor paced a surface's frames (by default the main
    /// surface's): each commit of a new buffer a frame, started by the frame
    /// callback that came since the frame before, presented when its
    /// `wp_presentation_feedback` says.
    public func pacing(connection: Int = 1, surface: UInt32? = nil) -> PacingReport? {
        guard let surface = surface ?? mainSurface(connection: connection) else { return nil }
        var frames: [FrameStatistics.Frame] = []
        var callbacks: Set<UInt32> = [], callbackCount = 0
        var lastCallback: Double?
        var pendingFeedback: UInt32?
        var feedbackFrame: [UInt32: Int] = [:]
        var clockOffset: Double? = 0
        var first: Double?
        var newBuffer = false
        for m in messages where m.connection == connection {
            switch (m.interface, m.name, m.direction) {
            case ("wl_surface", "attach", .request) where m.objectID == surface:
                if case let .object(b, _) = m.arguments.first { newBuffer = b != 0 }
            case ("wl_surface", "frame", .request) where m.objectID == surface:
                if case let .newID(id, _) = m.arguments.first { callbacks.insert(id) }
            case ("wl_callback", "done", .event) where callbacks.contains(m.objectID):
                callbacks.remove(m.objectID)
                callbackCount += 1
                lastCallback = m.time
                first = first ?? m.time
            case ("wp_presentation", "clock_id", .event):
                if case let .uint(id) = m.arguments.first { clockOffset = clockOffsetFromMonotonic(id) }
            case ("wp_presentation", "feedback", .request):
                if case let .object(s, _) = m.arguments.first, s == surface, case let .newID(f, _) = m.arguments.last { pendingFeedback = f }
            case ("wl_surface", "commit", .request) where m.objectID == surface && newBuffer:
                newBuffer = false
                frames.append(FrameStatistics.Frame(number: UInt64(frames.count + 1), callbackTime: lastCallback, commitTime: m.time))
                if let f = pendingFeedback { feedbackFrame[f] = frames.count - 1 }
                pendingFeedback = nil
                lastCallback = nil
                first = first ?? m.time
            case ("wp_presentation_feedback", "presented", .event):
                guard let i = feedbackFrame.removeValue(forKey: m.objectID), m.arguments.count >= 4,
                      case let .uint(hi) = m.arguments[0], case let .uint(lo) = m.arguments[1], case let .uint(ns) = m.arguments[2],
                      case let .uint(refresh) = m.arguments[3] else { break }
                frames[i].presentedTime = Double(UInt64(hi) << 32 | UInt64(lo)) + Double(ns) / 1e9
                if refresh > 0 { frames[i].refreshInterval = Double(refresh) / 1e9 }
            case ("wp_presentation_feedback", "discarded", .event):
                if let i = feedbackFrame.removeValue(forKey: m.objectID) { frames[i].discarded = true }
            default: break
            }
        }
        return PacingReport(frames: frames, callbacks: callbackCount, seconds: max(0, end - (first ?? end)), presentationClockOffset: clockOffset)
    }

    /// The most buffers of a surface (by default the main surface) the
    /// compositor held at once: attached and committed, not yet released.
    public func buffersInFlight(connection: Int = 1, surface: UInt32? = nil) -> Int {
        guard let surface = surface ?? mainSurface(connection: connection) else { return 0 }
        var attached: UInt32?
        var held: Set<UInt32> = [], most = 0
        for m in messages where m.connection == connection {
            if m.objectID == surface && m.is("wl_surface.attach"), case let .object(b, _) = m.arguments.first {
                attached = b == 0 ? nil : b
            } else if m.objectID == surface && m.is("wl_surface.commit") {
                if let b = attached { held.insert(b) }
                attached = nil
                most = max(most, held.count)
            } else if m.is("wl_buffer.release") {
                held.remove(m.objectID)
            }
        }
        return most
    }
}

/// A rule a client's traffic should keep, checked over a ``ProxyTrace``
/// (`strata-probe proxy --assert no-protocol-error,ack-before-commit,…`).
public enum TraceRule: Equatable, Sendable, CustomStringConvertible {
    /// The client commits nothing in the trace's last `seconds`: once still, it is idle.
    case noCommitWhileIdle(seconds: Double)
    /// No xdg surface commits a buffer before it acknowledged a configure.
    case ackBeforeCommit
    /// Every damage rectangle lies within the attached buffer (`damage_buffer`
    /// in buffer pixels, `damage` in surface points at the buffer scale); the
    /// whole-surface idiom (a size of 2³⁰ or more) is allowed.
    case damageWithinBuffer
    /// The compositor raised no protocol error.
    case noProtocolError

    public static let names = ["no-commit-while-idle SECONDS", "ack-before-commit", "damage-within-buffer", "no-protocol-error"]

    /// One rule by name (`no-commit-while-idle 1.5`); nil for anything else.
    public init?(parsing text: String) {
        let words = text.split(separator: " ")
        switch (words.first, words.count) {
        case ("no-commit-while-idle", 2):
            guard let s = Double(words[1]), s.isFinite, s > 0 else { return nil }
            self = .noCommitWhileIdle(seconds: s)
        case ("ack-before-commit", 1): self = .ackBeforeCommit
        case ("damage-within-buffer", 1): self = .damageWithinBuffer
        case ("no-protocol-error", 1): self = .noProtocolError
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case let .noCommitWhileIdle(s): "no-commit-while-idle \(ClientRunner.seconds(s))"
        case .ackBeforeCommit: "ack-before-commit"
        case .damageWithinBuffer: "damage-within-buffer"
        case .noProtocolError: "no-protocol-error"
        }
    }

    /// Whether the trace keeps the rule; when not, the first message that broke it.
    public func check(_ trace: ProxyTrace) -> (passed: Bool, message: String?) {
        let start = trace.messages.first?.time ?? trace.end
        func at(_ m: WireMessage) -> String { "at \(ClientRunner.seconds(m.time - start)) s: \(m)" }
        switch self {
        case let .noCommitWhileIdle(seconds):
            let commits = trace.messages.filter { $0.is("wl_surface.commit") && $0.time > trace.end - seconds }
            guard let last = commits.last else { return (true, nil) }
            return (false, "\(commits.count) commits in the last \(ClientRunner.seconds(seconds)) s, the last \(at(last))")
        case .ackBeforeCommit:
            var surfaceOf: [UInt32: UInt32] = [:], acked: Set<UInt32> = [], withBuffer: Set<UInt32> = []
            for m in trace.messages where m.direction == .request {
                if m.is("xdg_wm_base.get_xdg_surface"), case let .newID(x, _) = m.arguments.first, case let .object(s, _) = m.arguments.last {
                    surfaceOf[s] = x
                } else if m.is("xdg_surface.ack_configure") {
                    acked.insert(m.objectID)
                } else if m.is("wl_surface.attach"), case let .object(b, _) = m.arguments.first {
                    if b == 0 { withBuffer.remove(m.objectID) } else { withBuffer.insert(m.objectID) }
                } else if m.is("wl_surface.commit") {
                    if let x = surfaceOf[m.objectID], withBuffer.contains(m.objectID), !acked.contains(x) {
                        return (false, "a buffer committed before xdg_surface#\(x) acknowledged a configure, \(at(m))")
                    }
                    withBuffer.remove(m.objectID)
                }
            }
            return (true, nil)
        case .damageWithinBuffer:
            var sizes: [UInt32: (Int, Int)] = [:], attached: [UInt32: UInt32] = [:], scale: [UInt32: Int] = [:]
            var pending: [UInt32: [(rect: [Int], buffer: Bool, message: WireMessage)]] = [:]
            for m in trace.messages where m.direction == .request {
                let ints = m.arguments.compactMap { a -> Int? in if case let .int(v) = a { return Int(v) } else { return nil } }
                if m.is("wl_shm_pool.create_buffer"), case let .newID(b, _) = m.arguments.first, ints.count >= 3 {
                    sizes[b] = (ints[1], ints[2])
                } else if m.is("wl_surface.attach"), case let .object(b, _) = m.arguments.first {
                    attached[m.objectID] = b
                } else if m.is("wl_surface.set_buffer_scale"), let s = ints.first {
                    scale[m.objectID] = max(1, s)
                } else if m.is("wl_surface.damage") || m.is("wl_surface.damage_buffer"), ints.count == 4 {
                    pending[m.objectID, default: []].append((ints, m.name == "damage_buffer", m))
                } else if m.is("wl_surface.commit") {
                    defer { pending[m.objectID] = nil }
                    guard let b = attached[m.objectID], let (w, h) = sizes[b] else { continue }
                    for d in pending[m.objectID] ?? [] where d.rect[2] < 1 << 30 && d.rect[3] < 1 << 30 {
                        let s = d.buffer ? 1 : scale[m.objectID] ?? 1
                        if d.rect[0] < 0 || d.rect[1] < 0 || (d.rect[0] + d.rect[2]) * s > w || (d.rect[1] + d.rect[3]) * s > h {
                            return (false, "damage outside the \(w)x\(h) buffer, \(at(d.message))")
                        }
                    }
                }
            }
            return (true, nil)
        case .noProtocolError:
            return trace.protocolError.map { (false, "the compositor raised \(at($0))") } ?? (true, nil)
        }
    }
}
