import Testing
import WaylandClient
@testable import Strata
@testable import StrataTesting
import LayerKitTesting

/// Drag and drop: items and their MIME forms, drop targets, drags within a
/// window offscreen (through `InputDriver`), and across clients on mutter.
@MainActor
@Suite("Drag and drop", .serialized, .isolatedLayerContext)
struct DragAndDropTests {
    @Test("files travel as a text/uri-list of percent-encoded file URLs; a list from another app is read back to local paths")
    func uriLists() {
        let paths = ["/tmp/a b.txt", "/home/zoë/100%.png"]
        let list = DragItem.uriList(paths)
        #expect(list == "file:///tmp/a%20b.txt\r\nfile:///home/zo%C3%AB/100%25.png\r\n")
        #expect(DragItem.paths(fromURIList: list) == paths)
        // Comments, other schemes, localhost, bare newlines and a bad escape.
        let foreign = "# from a file manager\nfile://localhost/etc/hosts\nhttps://example.com/x\nfile:///tmp/bad%zz\n\n"
        #expect(DragItem.paths(fromURIList: foreign) == ["/etc/hosts", "/tmp/bad%zz"])
        // What a drag offers: the list first for files, text types always.
        let offers = DragItem.offers([.files(["/tmp/x"]), .text("hi")])
        #expect(offers.first?.mimeType == "text/uri-list")
        #expect(offers.contains { $0.mimeType == "text/plain;charset=utf-8" && $0.bytes == Array("hi".utf8) })
        #expect(DragItem.offers([]).isEmpty && DragItem.offers([.text("")]).isEmpty)
    }

    /// A window with a drop target (an outer view whose inner part takes only files).
    private func targets() -> (ViewFixture, InputDriver, outer: View, inner: View, log: Log) {
        let f = ViewFixture()
        let log = Log()
        let outer = View(frame: Rect(x: 200, y: 50, width: 150, height: 150))
        let inner = View(frame: Rect(x: 25, y: 25, width: 50, height: 50))
        outer.addSubview(inner)
        f.window.rootView.addSubview(outer)
        let outerDrop = DropInteraction { items, session in log.entries.append("outer dropped \(items) at \(session.location(in: outer))") }
        outerDrop.sessionDidExit = { _ in log.entries.append("outer exit") }
        outer.addInteraction(outerDrop)
        let innerDrop = DropInteraction { items, _ in log.entries.append("inner dropped \(items)") }
        innerDrop.canHandle = { $0.hasFiles }
        innerDrop.sessionDidUpdate = { _ in .move }
        inner.addInteraction(innerDrop)
        return (f, InputDriver(window: f.window), outer, inner, log)
    }

    final class Log { var entries: [String] = [] }

    @Test("drops go to the deepest view whose interaction takes the drag, else up the chain; the operation is the target's, forbidden when not allowed")
    func dropTargets() {
        let (f, driver, outer, inner, log) = targets()
        // Text over the inner view: it takes only files, so the outer one gets it.
        #expect(driver.dragFromOtherApp([.text("hello")], through: [Point(x: 240, y: 90)]) == .copy)
        #expect(log.entries == ["outer dropped [Strata.DragItem.text(\"hello\")] at (40.0, 40.0)"])
        // Files over the inner view: it asks to move, which the source allows.
        log.entries = []
        #expect(driver.dragFromOtherApp([.files(["/tmp/a"])], through: [Point(x: 240, y: 90)], allowed: [.copy, .move]) == .move)
        #expect(log.entries == ["inner dropped [Strata.DragItem.files([\"/tmp/a\"]), Strata.DragItem.text(\"/tmp/a\")]"])
        // A move the source does not allow is forbidden: nothing is dropped.
        log.entries = []
        #expect(driver.dragFromOtherApp([.files(["/tmp/a"])], through: [Point(x: 240, y: 90)], allowed: [.copy]) == .cancel)
        #expect(log.entries.isEmpty)
        #expect(f.window.drop.operation == .cancel)
        // Crossing from the outer view to empty space exits it; dropped nowhere: cancel.
        #expect(driver.dragFromOtherApp([.text("x")], through: [Point(x: 210, y: 60), Point(x: 20, y: 20)]) == .cancel)
        #expect(log.entries == ["outer exit"])
        // Leaving without a drop exits too.
        log.entries = []
        #expect(driver.dragFromOtherApp([.text("x")], through: [Point(x: 210, y: 60)], drop: false) == .cancel)
        #expect(log.entries == ["outer exit"])
        // A hidden target takes nothing.
        log.entries = []
        outer.isHidden = true
        #expect(driver.dragFromOtherApp([.text("x")], through: [Point(x: 210, y: 60)]) == .cancel && log.entries.isEmpty)
        _ = inner
    }

    @Test("a drag begun on a view (10 points of movement, pointer or finger) is dropped on another view of the window offscreen; the source's touches are cancelled; didEnd reports it")
    func dragWithinWindow() {
        let (f, driver, _, _, log) = targets()
        let source = RecordingView(frame: Rect(x: 20, y: 20, width: 100, height: 100))
        f.window.rootView.addSubview(source)
        var ended: [DropOperation] = []
        let drag = DragInteraction { point in point.x < 50 ? [.text("dragged")] : [] }
        drag.didEnd = { ended.append($0) }
        source.addInteraction(drag)
        #expect(source.interactions.count == 1)
        driver.drag(from: Point(x: 30, y: 30), to: Point(x: 300, y: 180), steps: 20)
        #expect(ended == [.copy])
        #expect(log.entries == ["outer dropped [Strata.DragItem.text(\"dragged\")] at (100.0, 130.0)"])
        #expect(source.log.first == "began 1" && source.log.last == "cancelled", "\(source.log)")
        // From a point where the view offers nothing, no drag: the touch stays the view's.
        log.entries = []
        source.log = []
        driver.drag(from: Point(x: 80, y: 30), to: Point(x: 300, y: 180), steps: 20)
        #expect(ended == [.copy] && log.entries.isEmpty)
        #expect(source.log.last == "ended", "\(source.log)")
        // Dropped where nothing takes it: cancel.
        driver.drag(from: Point(x: 30, y: 30), to: Point(x: 150, y: 350), steps: 20)
        #expect(ended == [.copy, .cancel])
        // A finger drags too, dropped where it lifts.
        log.entries = []
        driver.touchDown(7, at: Point(x: 30, y: 30))
        for i in 1...10 { driver.touchMove(7, to: Point(x: 30 + 27 * Double(i), y: 30 + 15 * Double(i))) }
        driver.touchUp(7)
        #expect(ended == [.copy, .cancel, .copy])
        #expect(log.entries == ["outer dropped [Strata.DragItem.text(\"dragged\")] at (100.0, 130.0)"])
        source.removeInteraction(drag)
        #expect(source.interactions.isEmpty && source.gestureRecognizers.isEmpty)
    }
}

extension DragAndDropTests {
    @Test("text (or a file's path) dropped on a text field goes in where it lands and makes the field first responder; a disabled field takes none")
    func dropIntoTextField() {
        let f = ViewFixture()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 300, height: 34))
        field.text = "ab"
        var changes = 0
        field.addAction(for: .editingChanged) { _ in changes += 1 }
        f.window.rootView.addSubview(field)
        let driver = InputDriver(window: f.window)
        // Dropped far right of the text: at its end.
        #expect(driver.dragFromOtherApp([.text("cd")], through: [Point(x: 300, y: 37)]) == .copy)
        #expect(field.text == "abcd" && field.isFirstResponder && changes == 1)
        // Dropped at the left edge: before everything.
        #expect(driver.dragFromOtherApp([.text(">")], through: [Point(x: 21, y: 37)]) == .copy)
        #expect(field.text == ">abcd")
        // A file comes with its path as text: the path goes in.
        #expect(driver.dragFromOtherApp([.files(["/tmp/x"])], through: [Point(x: 21, y: 37)]) == .copy)
        #expect(field.text == "/tmp/x>abcd")
        field.isEnabled = false
        #expect(driver.dragFromOtherApp([.text("x")], through: [Point(x: 100, y: 37)]) == .cancel)
        #expect(field.text == "/tmp/x>abcd")
    }
}

extension DragAndDropTests {
    @Test("bad drops: bytes that are not UTF-8 arrive as U+FFFD; data that cannot be read is no drop (cancel, performDrop not called); a target removed mid-drag is exited")
    func badDrops() {
        let f = ViewFixture()
        var received: [[DragItem]] = []
        let target = View(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        f.window.rootView.addSubview(target)
        target.addInteraction(DropInteraction { items, _ in received.append(items) })
        func drop(_ bytes: [UInt8]?) -> DropOperation {
            f.window.handleDrop(.entered(Point(x: 10, y: 10), types: ["text/plain"], allowed: [.copy]) { _, done in done(bytes) })
            var result = DropOperation.cancel
            f.window.handleDrop(.dropped { result = $0 })
            return result
        }
        #expect(drop([0x61, 0xff, 0xfe, 0x62]) == .copy)
        #expect(received == [[.text("a\u{FFFD}\u{FFFD}b")]])
        #expect(drop(nil) == .cancel)
        #expect(received.count == 1)
        // Over the target, which is then removed: the next move finds nothing; the drop is refused.
        #expect(f.window.handleDrop(.entered(Point(x: 10, y: 10), types: ["text/plain"], allowed: [.copy]) { _, done in done([0x61]) }) == .copy)
        target.removeFromSuperview()
        #expect(f.window.handleDrop(.moved(Point(x: 12, y: 12))) == .cancel)
        var result = DropOperation.copy
        f.window.handleDrop(.dropped { result = $0 })
        #expect(result == .cancel && received.count == 1)
        // Events with no drag under way change nothing.
        #expect(f.window.handleDrop(.moved(Point(x: 1, y: 1))) == .cancel)
        f.window.handleDrop(.left)
    }
}
