@testable import Strata
import LayerKitTesting
import Glibc
import StrataTesting
import Testing
import WaylandClient

/// Copy and paste: pipes read and written without blocking, bounded; the
/// pasteboard offscreen and through a real compositor's selection.
@MainActor
@Suite("Clipboard", .serialized, .mainLayerContext)
struct ClipboardTests {
    static func contents(of path: String) -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = chunk.withUnsafeMutableBytes({ read(fd, $0.baseAddress, $0.count) }), n > 0 { bytes += chunk[0..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }

    func makePipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [0, 0]
        _ = pipe(&fds)
        return (fds[0], fds[1])
    }

    /// Generous: while this test awaits, the parallel suite's other main-actor
    /// tests may hold the main queue for many seconds.
    func wait(until done: () -> Bool, seconds: Double = 30) async {
        let start = MonotonicClock.now
        while !done() && MonotonicClock.now - start < seconds { try? await Task.sleep(for: .milliseconds(5)) }
    }

    @Test("bad input: a pipe that never closes times out; one that sends too much is cut off; invalid UTF-8 becomes U+FFFD")
    func boundedReads() async {
        let silent = makePipe()
        var results: [Result<[UInt8], PipeTransfer.Failure>] = []
        PipeTransfer.read(silent.read, timeout: 0.2) { results.append($0) }
        await wait { results.count == 1 }
        #expect(results.first.map { if case .failure(.timedOut) = $0 { true } else { false } } == true)
        close(silent.write)

        let flood = makePipe()
        _ = fcntl(flood.write, F_SETFL, O_NONBLOCK)
        let chunk = [UInt8](repeating: 65, count: 65_536)
        PipeTransfer.read(flood.read, limit: 100_000, timeout: 5) { results.append($0) }
        let writer = PipeTransfer.write(chunk + chunk + chunk, to: flood.write, timeout: 5) { _ in }
        await wait { results.count == 2 }
        #expect(results.last.map { if case .failure(.tooLarge(100_000)) = $0 { true } else { false } } == true)
        writer.cancel()

        let bad = makePipe()
        var text: String?
        PipeTransfer.read(bad.read) { text = (try? $0.get()).map { String(decoding: $0, as: UTF8.self) } }
        PipeTransfer.write([0x68, 0x69, 0xff, 0xfe], to: bad.write)
        await wait { text != nil }
        #expect(text == "hi\u{FFFD}\u{FFFD}")
    }

    @Test("offscreen, the pasteboard keeps its text within the process")
    func offscreenPasteboard() async {
        _ = ViewFixture()
        Pasteboard.general.string = "kept"
        #expect(Pasteboard.general.hasStrings)
        #expect(await Pasteboard.general.readString() == "kept")
        Pasteboard.general.string = nil
        #expect(!Pasteboard.general.hasStrings)
    }

    @Test("copy from Strata, paste with wl-paste; copy with wl-copy, paste in Strata (sway's selection)")
    func roundTripOnSway() async throws {
        let (sway, display) = try appOnSway()
        defer { withExtendedLifetime(sway) { Application.shared.disconnect() } }
        let (_, field) = try showRecordingWindow("clipboard", display)
        // A key from a virtual keyboard gives the window focus and an input serial.
        let (wtype, _) = try sway.startClient(["wtype", "-s", "300", "x"])
        defer { wtype.terminate() }
        try display.connection.dispatch(until: { field.log.contains("key x") }, timeout: 10, what: "a key from wtype")

        let text = "Strata ✓ copied"
        Pasteboard.general.string = text
        let (paste, pasteLog) = try sway.startClient(["wl-paste", "--no-newline"])
        try display.connection.dispatch(until: { paste.wait(timeout: 0) != nil }, timeout: 10, what: "wl-paste to finish")
        let pasted = Self.contents(of: pasteLog)
        #expect(pasted == text)

        let (copy, _) = try sway.startClient(["wl-copy", "from outside ✓"])
        defer { copy.terminate() }
        try display.connection.dispatch(until: { Pasteboard.general.string == nil && Pasteboard.general.hasStrings }, timeout: 10,
                                        what: "wl-copy's selection")
        var received: String?
        Pasteboard.general.readString { received = $0 }
        try display.connection.dispatch(until: { received != nil }, timeout: 10, what: "the pasted text")
        #expect(received == "from outside ✓")

        // The primary selection is a second pasteboard, separate from the clipboard.
        Pasteboard.primary.string = "selected ✓"
        let (primary, primaryLog) = try sway.startClient(["wl-paste", "--primary", "--no-newline"])
        try display.connection.dispatch(until: { primary.wait(timeout: 0) != nil }, timeout: 10, what: "wl-paste --primary")
        #expect(Self.contents(of: primaryLog) == "selected ✓")
        #expect(Pasteboard.general.string == nil && Pasteboard.general.hasStrings)
    }
}
