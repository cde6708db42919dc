import Glibc
import PixmanRender
import StrataTesting
import Testing
import WaylandClient
import LayerKitTesting
@testable import Strata

extension Integration {
/// The protocol proxy between a client and the compositor: what it passes on,
/// what it reads from the trace, and what it does with a client sending garbage.
@MainActor
@Suite("Protocol proxy", .serialized, .mainLayerContext)
struct ProtocolProxyTests {
    @Test("a Strata window through the proxy: its requests are the client's own, in order; its pacing is the window's statistics; shm buffers and their fds arrive intact; the rules hold")
    func strataClientThroughTheProxy() throws {
        MediaTime.clock = MonotonicMediaClock()
        Transaction.reset()
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let proxy = try ProtocolProxy(upstream: weston.socketPath, socketPath: weston.runtimeDirectory + "/proxy-0")
        defer { proxy.stop() }
        let app = Application.shared
        var window: Window!
        var card: View!
        let own = try WaylandTraffic.recording {
            app.use(try Display(socket: proxy.socketPath))
            window = Window(title: "proxied", size: Size(width: 320, height: 240))
            window.backgroundColor = Color(rgba8: 0x33, 0x99, 0x66)
            card = View(frame: Rect(x: 0, y: 0, width: 40, height: 40))
            card.backgroundColor = .white
            window.rootView.addSubview(card)
            window.show()
            window.isFullscreen = true
            try app.loop?.turn(for: 0.5)
            View.animate(duration: 1, options: [.curveLinear]) { card.frame.origin = Point(x: 500, y: 400) }
            try app.loop?.turn(for: 2)
        }
        let idleSince = MonotonicClock.now - 0.8
        let trace = ProxyTrace(proxy.messages, end: MonotonicClock.now)
        #expect(proxy.problems.isEmpty && proxy.connections == 1, "\(proxy.problems)")

        // Requests: the client's own, one for one, and libwayland's own to the display (get_registry, sync).
        let sent = own.filter { $0.direction == .request }.map(\.description)
        let display = trace.messages.filter { $0.direction == .request && $0.objectID == 1 }
        #expect(Set(display.compactMap(\.name)).isSubset(of: ["get_registry", "sync"]), "\(display)")
        let passed = trace.messages.filter { $0.direction == .request && $0.objectID != 1 }.map(\.key)
        #expect(sent.count > 20 && passed == sent, "\(sent.count) requests sent, \(passed.count) passed on; first difference: \(zip(sent, passed).first { $0 != $1 }.map { "\($0) / \($1)" } ?? "in length")")
        // Events: the client's own are among them, in order; the others are libwayland's own (delete_id).
        let received = own.filter { $0.direction == .event }.map(\.description)
        var rest = trace.messages.filter { $0.direction == .event }[...]
        var extras: [String] = []
        for event in received {
            while let next = rest.first, next.key != event { extras.append(next.key); rest.removeFirst() }
            #expect(!rest.isEmpty, "the client received \(event), which the proxy never passed on")
            rest = rest.dropFirst()
        }
        extras += rest.map(\.key)
        #expect(extras.allSatisfy { $0.hasPrefix("<- wl_display#1.delete_id") || $0.hasPrefix("<- wl_buffer#") }, "\(Set(extras))")
        // Arguments decoded: the buffer the window made, with its size.
        #expect(trace.messages.contains { $0.is("wl_shm_pool.create_buffer") && $0.arguments.contains(.int(640)) && $0.arguments.contains(.int(480)) })
        #expect(trace.messages.contains { $0.is("wl_shm.create_pool") && $0.fileDescriptors == 1 && $0.arguments.contains(.fd) })

        // The fds passed intact: the compositor shows the window's pixels.
        let shot = try weston.screenshot(timeout: 10)
        #expect(shot.rgba8(x: 100, y: 300) == (0x33, 0x99, 0x66, 255))

        // Pacing: as the window measured itself.
        let pacing = try #require(trace.pacing())
        let statistics = try #require(window.frameStatistics)
        #expect(abs(pacing.frames - statistics.frames.count) <= 2 && abs(pacing.callbacks - statistics.callbackCount) <= 2,
                "proxy: \(pacing.frames) frames, \(pacing.callbacks) callbacks; window: \(statistics.frames.count), \(statistics.callbackCount)")
        let ownInterval = try #require(FrameStatistics.percentile(statistics.callbackIntervals, 50))
        let seenInterval = try #require(PacingReport.ms(pacing.callbackIntervals, 50))
        #expect(abs(seenInterval - ownInterval * 1000) < 2, "callback interval p50: proxy \(seenInterval) ms, window \(ownInterval * 1000) ms")
        #expect(pacing.presented > 10 && !pacing.commitToPresent.isEmpty, "weston presents through wp_presentation")
        #expect(trace.buffersInFlight() >= 1 && trace.buffersInFlight() <= 4)

        // Rules: it acked before committing, damaged within its buffers, raised no error, and went idle.
        for rule in [TraceRule.ackBeforeCommit, .damageWithinBuffer, .noProtocolError, .noCommitWhileIdle(seconds: 0.5)] {
            let outcome = rule.check(trace)
            #expect(outcome.passed, "\(rule): \(outcome.message ?? "")")
        }
        let busy = TraceRule.noCommitWhileIdle(seconds: 0.5).check(ProxyTrace(proxy.messages, end: idleSince - 0.5))
        #expect(!busy.passed && busy.message?.contains("commits in the last 0.5 s, the last at ") == true, "\(busy)")
        #expect(trace.text.split(separator: "\n").count == trace.messages.count)
        #expect(trace.text.contains(" [1] -> wl_compositor#") && trace.text.contains("create_surface(new wl_surface#"))
        app.disconnect()
    }

    @Test("a client sending garbage is cut off at the byte where it went wrong; the compositor is unharmed and serves the next client")
    func garbage() throws {
        let weston = try HeadlessWeston()
        defer { weston.stop() }
        let proxy = try ProtocolProxy(upstream: weston.socketPath, socketPath: weston.runtimeDirectory + "/proxy-0")
        defer { proxy.stop() }
        // get_registry (12 bytes), then a header claiming 3 bytes.
        func words(_ w: [UInt32]) -> [UInt8] { w.flatMap { v in (0..<4).map { UInt8((v >> (8 * $0)) & 0xff) } } }
        for (bytes, problem) in [
            (words([1, 12 << 16 | 1, 2]) + words([2, 3 << 16]), "at byte 12 of its stream: a message of 3 bytes (a message is 8 to 4096 bytes, a multiple of 4)"),
            (words([99, 8 << 16]), "at byte 0 of its stream: a request to object 99, which was never made"),
            // bind's interface name says 100 bytes; the message has 4 left.
            (words([1, 12 << 16 | 1, 2, 2, 16 << 16 | 0, 1, 100]), "at byte 12 of its stream: wl_registry.bind's arguments run past its 16 bytes"),
        ] {
            let before = proxy.problems.count
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in for (i, b) in Array(proxy.socketPath.utf8).enumerated() { raw[i] = b } }
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            try #require(connected == 0)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            // Cut off: the proxy closes the connection (reads end), after the registry's events if any.
            var buffer = [UInt8](repeating: 0, count: 65_536)
            var timeout = timeval(tv_sec: 5, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var n = 0
            repeat { n = read(fd, &buffer, buffer.count) } while n > 0
            #expect(n == 0, "the connection was closed")
            close(fd)
            let problems = proxy.problems
            #expect(problems.count == before + 1 && problems.last?.hasSuffix(problem + "; it was cut off") == true, "\(problems)")
        }
        #expect(weston.isRunning)
        let display = try Display(socket: proxy.socketPath)
        try display.connection.roundtrip()
        #expect(CompositorCapabilities(display).has(.xdgShell), "the next client is served")
    }

    @Test("strata-probe proxy: any client's trace, pacing and rules; a broken rule is exit 1, an unknown one 2")
    func commandLine() throws {
        let binary = ".build/debug/strata-probe"
        try #require(access(binary, X_OK) == 0, "build the examples first (swift build --build-tests)")
        let weston = try HeadlessWeston()   // a place for files
        defer { weston.stop() }
        let dir = weston.runtimeDirectory
        func probe(_ arguments: [String]) throws -> (status: Int32?, output: String) {
            let log = dir + "/probe-\(arguments.count).log"
            defer { unlink(log) }
            let p = try Subprocess.spawn([binary] + arguments, environment: ["WAYLAND_DISPLAY": ""], directory: nil, logPath: log)
            let status = p.wait(timeout: 90)
            if status == nil { p.terminate() }
            return (status, String(decoding: (try? PNGCodec.readFile(log)) ?? [], as: UTF8.self))
        }
        let ok = try probe(["proxy", "--compositor", "weston", "--seconds", "2", "--pacing", "--trace", dir + "/trace.txt",
                            "--assert", "no-protocol-error,ack-before-commit,damage-within-buffer", "--", "weston-simple-shm"])
        #expect(ok.status == 0, "\(ok.output)")
        #expect(ok.output.contains("frames_per_second") && ok.output.contains("buffers_in_flight") && ok.output.contains("pass  no-protocol-error"), "\(ok.output)")
        let trace = String(decoding: try PNGCodec.readFile(dir + "/trace.txt"), as: UTF8.self)
        #expect(trace.contains("[1] -> wl_registry#2.bind(") && trace.contains("-> wl_surface#") && trace.contains(".commit()"), "\(trace.prefix(500))")
        let busy = try probe(["proxy", "--compositor", "weston", "--seconds", "2", "--json", "--assert", "no-commit-while-idle 1", "--", "weston-simple-shm"])
        #expect(busy.status == 1 && busy.output.contains("\"rule\": \"no-commit-while-idle 1\", \"passed\": false"), "\(busy.output)")
        let unknown = try probe(["proxy", "--compositor", "weston", "--assert", "be-nice", "--", "true"])
        #expect(unknown.status == 2 && unknown.output.contains("unknown rule 'be-nice'"), "\(unknown.output)")
        // A GTK client: interfaces the kit does not know pass through; its window works.
        let gtk = try probe(["proxy", "--compositor", "weston", "--seconds", "4", "--assert", "no-protocol-error", "--", "Examples/ExecTesting/gtk-demo.py"])
        #expect(gtk.status == 0 && gtk.output.contains("pass  no-protocol-error"), "\(gtk.output)")
    }
}
}
