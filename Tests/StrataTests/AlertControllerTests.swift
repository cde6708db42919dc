@testable import Strata
import LayerKitTesting
import PixmanRender
import StrataTesting
import Testing

/// Alerts (issue 23, item on alerts; rule M5): modal over the window, focus kept
/// inside, Return and Escape, handlers after dismissal.
@MainActor
@Suite("Alerts", .serialized, .isolatedLayerContext)
struct AlertControllerTests {
    /// A window whose root controller holds a text field and a button behind the alert.
    final class Behind: ViewController {
        let field = TextField(frame: Rect(x: 10, y: 10, width: 150, height: 28))
        let button = Button(title: "Behind")
        var pressed = 0
        override func viewDidLoad() {
            view.backgroundColor = .white
            view.addSubview(field)
            button.frame = Rect(x: 10, y: 250, width: 100, height: 30)
            button.addAction(for: .primaryActionTriggered) { [unowned self] _ in pressed += 1 }
            view.addSubview(button)
        }
    }

    func setUp() -> (ViewFixture, Behind, InputDriver) {
        let f = ViewFixture()
        let behind = Behind()
        f.window.rootViewController = behind
        _ = f.window.snapshot()
        return (f, behind, InputDriver(window: f.window))
    }

    func press(_ driver: InputDriver, _ keysym: UInt32) {
        driver.pressKey(keysym: keysym)
        driver.releaseKey(keysym: keysym)
        Transaction.flush()
    }

    @Test("M5: Return runs the preferred action after the alert is gone; Escape the cancel action; clicks outside reach nothing")
    func returnEscapeAndClicks() {
        let (f, behind, driver) = setUp()
        var ran: [String] = []
        let alert = AlertController(title: "Delete the draft?", message: "It cannot be restored.", preferredStyle: .alert)
        alert.addAction(AlertAction(title: "Cancel", style: .cancel) { _ in ran.append("cancel") })
        let delete = AlertAction(title: "Delete", style: .destructive) { [weak alert] _ in
            ran.append(alert?.presentingViewController == nil ? "delete after dismissal" : "delete while shown")
        }
        alert.addAction(delete)
        alert.preferredAction = delete
        behind.present(alert, animated: true)
        Transaction.flush()
        f.advance(0.4)
        let shot = f.window.snapshot()
        // A 270-point card in the middle, two buttons in a row; the window behind dimmed.
        let card = try! #require(alert.view.superview)
        #expect(card.frame.width == 270 && close(card.frame.midX, 200) && close(card.frame.midY, 150))
        #expect(abs(shot.pixel(x: 5, y: 150).red - 0.6) < 0.01)
        driver.click(at: Point(x: 60, y: 265))
        #expect(behind.pressed == 0 && behind.presentedViewController === alert, "the click outside reached nothing")
        press(driver, 0xff0d)
        f.advance(0.4)
        #expect(ran == ["delete after dismissal"] && behind.presentedViewController == nil)

        let second = AlertController(title: "Leave?", message: nil, preferredStyle: .alert)
        second.addAction(AlertAction(title: "Stay", style: .cancel) { _ in ran.append("stay") })
        second.addAction(AlertAction(title: "Leave", style: .default) { _ in ran.append("leave") })
        behind.present(second, animated: false)
        press(driver, Key.escape)
        f.advance(0.4)
        #expect(ran.last == "stay" && behind.presentedViewController == nil)
    }

    @Test("M5: with no cancel action Escape does nothing; Return runs the first default action; a disabled one is skipped")
    func defaults() {
        let (f, behind, driver) = setUp()
        var ran: [String] = []
        let alert = AlertController(title: "Saved", message: nil, preferredStyle: .alert)
        let first = AlertAction(title: "First", style: .default) { _ in ran.append("first") }
        first.isEnabled = false
        alert.addAction(first)
        alert.addAction(AlertAction(title: "Second", style: .default) { _ in ran.append("second") })
        alert.addAction(AlertAction(title: "Third", style: .default) { _ in ran.append("third") })
        behind.present(alert, animated: false)
        press(driver, Key.escape)
        f.advance(0.4)
        #expect(behind.presentedViewController === alert && ran.isEmpty)
        // Three actions: a column of buttons.
        let view = alert.view as! AlertView
        #expect(view.buttons.map(\.frame.minX) == [0, 0, 0] && view.buttons[1].frame.minY > view.buttons[0].frame.minY)
        press(driver, 0xff0d)
        f.advance(0.4)
        #expect(ran == ["second"])
    }

    @Test("M5: focus starts in the first text field, Tab cycles inside the alert through fields and buttons, typing fills it, and the focus comes back after")
    func textFieldsAndFocus() {
        let (f, behind, driver) = setUp()
        behind.field.becomeFirstResponder()
        var entered: [String] = []
        let alert = AlertController(title: "Sign in", message: nil, preferredStyle: .alert)
        alert.addTextField { $0.placeholder = "Name" }
        alert.addTextField { $0.isSecureTextEntry = true }
        alert.addAction(AlertAction(title: "OK", style: .default) { [unowned alert] _ in
            entered = alert.textFields!.map { $0.text ?? "" }
        })
        behind.present(alert, animated: false)
        let fields = alert.textFields!
        #expect(fields[0].isFirstResponder)
        driver.type("ada")
        press(driver, Key.tab)
        #expect(fields[1].isFirstResponder)
        driver.type("pw")
        press(driver, Key.tab)
        let ok = try! #require((alert.view as? AlertView)?.buttons.first)
        #expect(ok.isFirstResponder, "after the fields, Tab reaches the buttons")
        press(driver, Key.tab)
        #expect(fields[0].isFirstResponder, "Tab wraps inside the alert, never to the field behind")
        driver.pressKey(keysym: 0xffe1)   // Shift
        press(driver, Key.tab)
        driver.releaseKey(keysym: 0xffe1)
        #expect(ok.isFirstResponder, "Shift-Tab goes back")
        press(driver, Key.tab)
        press(driver, 0xff0d)
        f.advance(0.4)
        #expect(entered == ["ada", "pw"])
        #expect(behind.field.isFirstResponder, "the focus is back where it was")
        #expect(behind.field.text?.isEmpty ?? true, "nothing typed reached the field behind")
    }

    @Test("an action sheet sits at the bottom; bad input: a second cancel action, text fields on a sheet, a foreign preferred action")
    func actionSheetAndBadInput() {
        let (f, behind, _) = setUp()
        let sheet = AlertController(title: nil, message: "Share", preferredStyle: .actionSheet)
        sheet.addAction(AlertAction(title: "Copy", style: .default))
        sheet.addAction(AlertAction(title: "Cancel", style: .cancel))
        sheet.addAction(AlertAction(title: "Also cancel", style: .cancel))
        sheet.addTextField()
        sheet.preferredAction = AlertAction(title: "Elsewhere", style: .default)
        #expect(sheet.actions.count == 2 && sheet.textFields == nil && sheet.preferredAction == nil)
        #expect(f.diagnostics.count == 3)
        behind.present(sheet, animated: false)
        let card = try! #require(sheet.view.superview)
        #expect(close(card.frame.maxY, 292) && close(card.frame.midX, 200))
        sheet.addAction(AlertAction(title: "Late", style: .default))
        #expect(sheet.actions.count == 2)
    }
}
