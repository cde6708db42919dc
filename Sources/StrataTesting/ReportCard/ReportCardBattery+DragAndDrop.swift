import Glibc
import PixmanRender
import WaylandClient

extension ReportCardCheck {
    /// Drag and drop between two clients: one window starts a drag from a
    /// pressed button, the pointer moves over another client's window and is
    /// released; the second client accepts text, reads it, finishes the drop,
    /// and the source hears the action taken.
    ///
    /// Neither client can know where its window is, so both are drawn in a
    /// colour of their own and found in a capture of the screen (again after
    /// the press, which may raise the source over the target).
    @MainActor
    static func dragAndDropBetweenClients(_ c: ReportCardContext) throws -> Verdict {
        guard c.display.dataDeviceManager != nil else { return .skip("wl_data_device_manager is not offered") }
        guard let input = try? c.compositor.injectedInput() else {
            return .skip("no input to inject here: a drag starts from a pressed button")
        }
        c.awaitEmptyScreen()
        let other = try c.secondClient()
        guard let seatA = try c.pointerSeat(), let seatB = try other.pointerSeat(), let o = try c.output() else {
            return .skip("no seat with a pointer, or no output")
        }
        func both(_ timeout: Double, until condition: () -> Bool) throws -> Bool { try c.wait(timeout, with: other, until: condition) }

        let (sourceColor, targetColor): (UInt32, UInt32) = (0xffd0_4020, 0xff20_a040)
        let source = TestToplevel(c, title: "drag source")
        let target = TestToplevel(other, title: "drop target")
        guard try source.map(size: (240, 180), color: sourceColor), try target.map(size: (240, 180), color: targetColor) else {
            return .fail("no configure within 4 s")
        }
        _ = try both(0.5) { false }   // let both frames reach the screen
        let logicalWidth = Double(o.shownSize.width) / Double(o.scale)
        // Captured again until it shows, for up to `seconds`: a loaded compositor shows a frame late.
        func find(_ color: UInt32, within seconds: Double) throws -> (x: Double, y: Double)? {
            let deadline = MonotonicClock.now + seconds
            while true {
                let shot = try c.compositor.screenshot(timeout: 10)
                let toLogical = logicalWidth / Double(max(shot.width, 1))
                if let p = shot.pointShowing(color) { return (Double(p.x) * toLogical, Double(p.y) * toLogical) }
                if MonotonicClock.now > deadline {
                    // Seen once in three full runs on sway, not reproduced alone: what showed instead.
                    let path = "/tmp/strata-report-card-\(getpid())-\(String(color, radix: 16)).png"
                    try? shot.writePNG(to: path)
                    let listed = (try? c.compositor.windows())??.map(\.description)
                    ExampleCommandLine.printError("report card, drag and drop on \(c.compositor.name): no #\(String(color & 0xff_ffff, radix: 16)) on the screen within \(seconds) s; "
                                                  + "windows listed: \(listed?.joined(separator: ", ") ?? "none can be"); the last capture: \(path)")
                    return nil
                }
                _ = try both(0.2) { false }
            }
        }
        guard let start = try find(sourceColor, within: 5) else { return .skip("the source window is not to be seen on the screen") }

        let clipA = try Clipboard(display: c.display, seat: seatA, kind: .clipboard)
        let clipB = try Clipboard(display: other.display, seat: seatB, kind: .clipboard)
        guard let dndA = clipA.dragAndDrop, let dndB = clipB.dragAndDrop else { return .fail("no data device for a seat") }
        let text = "dragged from another client ✓"
        let type = "text/plain;charset=utf-8"
        var entered = false, dropped = false, read: String??, ended: DragAndDrop.Action??
        // Unowned: held strongly, the closure would keep dndB, and with it the
        // other client and its window, after the check (on the screen of every later check).
        dndB.onTargetEvent = { [unowned dndB] event in
            switch event {
            case let .entered(_, _, _, types, _):
                entered = true
                dndB.accept(mimeType: types.contains(type) ? type : nil, action: .copy)
            case .dropped:
                dropped = true
                dndB.receive(mimeType: type, timeout: 4) { result in
                    read = .some((try? result.get()).map { String(decoding: $0, as: UTF8.self) })
                    dndB.finishDrop()
                }
            case .moved, .left: break
            }
        }
        var pressSerial: UInt32?
        let previous = seatA.onEvent
        seatA.onEvent = { event in
            if case let .pointerButton(_, true, serial) = event { pressSerial = serial }
            previous?(event)
        }
        defer { seatA.onEvent = previous }

        try input.movePointer(toX: start.x, y: start.y)
        try input.button(0x110, pressed: true)
        var released = false
        defer { if !released { try? input.button(0x110, pressed: false) } }
        guard try both(4, until: { pressSerial != nil }) else { return .fail("a press on the source's window brought it no serial") }
        dndA.startDrag([(type, Array(text.utf8))], actions: .copy, origin: source.surface, serial: pressSerial!) { ended = .some($0) }
        _ = try both(0.3) { false }
        guard let end = try find(targetColor, within: 2) else { return .skip("the drop target is hidden under the source once the source is pressed") }
        // Motion in steps, as a hand moves: some compositors look for a target only on motion.
        for step in 1...8 {
            let f = Double(step) / 8
            try input.movePointer(toX: start.x + (end.x - start.x) * f, y: start.y + (end.y - start.y) * f)
            _ = try both(0.05) { false }
        }
        guard try both(3, until: { entered }) else { return .fail("the drag never entered the other client's window") }
        _ = try both(0.2) { false }   // the accept reaches the compositor before the release
        try input.button(0x110, pressed: false)
        released = true
        guard try both(4, until: { dropped }) else {
            return .fail("released over a window that accepted text, but no drop came", detail: ended.map { "the source heard \($0.map { "\($0)" } ?? "cancelled")" })
        }
        guard try both(5, until: { read != nil }) else { return .fail("dropped, but the text did not arrive") }
        guard read! == text else { return .fail("other text arrived", detail: read!.map { "\($0)" }) }
        guard try both(3, until: { ended != nil }) else { return .fail("the text arrived, but the source never heard the drag end") }
        guard let action = ended! else { return .fail("the text arrived, but the source was told the drag was cancelled") }
        withExtendedLifetime((clipA, clipB, other)) {}
        return .pass(action == .copy ? "copied, and the source told so" : "the source was told \(action)")
    }
}

extension RenderedImage {
    /// A point well inside what shows `color` (±2 in each channel, as
    /// compositors that draw through GL may round): the middle of the widest
    /// run of it on the row nearest the middle of its extent that has one at
    /// least 8 pixels wide; nil when none has.
    func pointShowing(_ color: UInt32) -> (x: Int, y: Int)? {
        func matches(_ p: UInt32) -> Bool {
            (0..<3).allSatisfy { i in
                let a = Int(p >> (8 * i) & 0xff), b = Int(color >> (8 * i) & 0xff)
                return abs(a - b) <= 2
            }
        }
        var top = height, bottom = -1
        for y in 0..<height where (0..<width).contains(where: { matches(pixels[y * width + $0]) }) {
            top = min(top, y)
            bottom = y
        }
        guard bottom >= top else { return nil }
        let middle = (top + bottom) / 2
        for offset in 0...(bottom - top) {
            for y in [middle - offset, middle + offset] where y >= top && y <= bottom {
                var best: (start: Int, length: Int) = (0, 0), run = 0
                for x in 0..<width {
                    run = matches(pixels[y * width + x]) ? run + 1 : 0
                    if run > best.length { best = (x - run + 1, run) }
                }
                if best.length >= 8 { return (best.start + best.length / 2, y) }
            }
        }
        return nil
    }
}
