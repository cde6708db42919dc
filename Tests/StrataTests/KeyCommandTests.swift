@testable import Strata
import LayerKitTesting
import StrataTesting
import Testing

/// Key commands (issue 23; rule M6): looked up from the first responder along
/// the responder chain; the first that can perform a command for the key runs
/// it, and the key goes no further.
@MainActor
@Suite("Key commands", .isolatedLayerContext)
struct KeyCommandTests {
    final class Editor: ViewController {
        var ran: [String] = []
        var canSave = true
        override var keyCommands: [KeyCommand]? {
            [KeyCommand(title: "New", input: "n", modifierFlags: .control) { [unowned self] in ran.append($0.title) },
             KeyCommand(title: "Save", input: "s", modifierFlags: .control) { [unowned self] in ran.append($0.title) },
             KeyCommand(title: "Up", input: KeyCommand.inputUpArrow) { [unowned self] in ran.append($0.title) }]
        }
        override func canPerformAction(_ name: String, withSender sender: Any?) -> Bool { name != "Save" || canSave }
    }

    /// A view that records the presses it gets and offers Ctrl+N itself.
    final class Panel: View {
        var presses: [String] = []
        var ran = 0
        override var canBecomeFirstResponder: Bool { true }
        override var keyCommands: [KeyCommand]? {
            [KeyCommand(title: "Panel new", input: "N", modifierFlags: .control) { [unowned self] _ in ran += 1 }]
        }
        override func pressesBegan(_ presses: Set<Press>, with event: PressesEvent?) {
            self.presses.append("began \(presses.first?.key?.keysym ?? 0)")
        }
        override func pressesEnded(_ presses: Set<Press>, with event: PressesEvent?) {
            self.presses.append("ended \(presses.first?.key?.keysym ?? 0)")
        }
    }

    func chord(_ driver: InputDriver, control: Bool = true, _ keysym: UInt32) {
        if control { driver.pressKey(keysym: 0xffe3) }
        driver.pressKey(keysym: keysym)
        driver.releaseKey(keysym: keysym)
        if control { driver.releaseKey(keysym: 0xffe3) }
    }

    @Test("M6: a command up the chain from a focused text field runs, and the field never sees the key")
    func fromTheFirstResponder() {
        let f = ViewFixture()
        let editor = Editor()
        f.window.rootViewController = editor
        let field = TextField(frame: Rect(x: 10, y: 10, width: 200, height: 30))
        editor.view.addSubview(field)
        #expect(field.becomeFirstResponder())
        let driver = InputDriver(window: f.window)
        chord(driver, 0x6e)                                // Ctrl+N
        chord(driver, control: false, 0xff52)              // Up
        driver.type("n")
        #expect(editor.ran == ["New", "Up"])
        #expect(field.text == "n", "only the plain n was typed")
        editor.canSave = false
        chord(driver, 0x73)                                // Ctrl+S: refused by canPerformAction
        #expect(editor.ran == ["New", "Up"])
        chord(driver, control: false, 0xff1b)              // Escape: no command
        #expect(editor.ran.count == 2)
    }

    @Test("M6: the nearest responder's command wins; a command's press and release go nowhere else; without focus the window's chain is searched")
    func nearestWins() {
        let f = ViewFixture()
        let editor = Editor()
        f.window.rootViewController = editor
        let panel = Panel(frame: Rect(x: 0, y: 0, width: 100, height: 100))
        editor.view.addSubview(panel)
        let field = TextField(frame: Rect(x: 10, y: 10, width: 80, height: 30))
        panel.addSubview(field)
        field.becomeFirstResponder()
        let driver = InputDriver(window: f.window)
        chord(driver, 0x6e)
        #expect(panel.ran == 1 && editor.ran.isEmpty, "Ctrl+N (input N, matched without case) ran the panel's")
        #expect(panel.presses == ["began 65507"], "only Control reached the panel (its release stays in the field): the command's n reached neither pressesBegan nor pressesEnded")
        // The panel focused: Control's press and release reach it, the command's n neither.
        panel.presses = []
        #expect(panel.becomeFirstResponder())
        chord(driver, 0x6e)
        #expect(panel.ran == 2 && panel.presses == ["began 65507", "ended 65507"])
        panel.resignFirstResponder()
        // No first responder: the window is the target, and its chain has no commands.
        chord(driver, 0x6e)
        #expect(panel.ran == 2 && editor.ran.isEmpty)
    }
}
