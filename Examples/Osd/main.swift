// An on-screen display for a level, as wob is: `osd 40` springs a pill in on the
// overlay layer; `osd 80` while it shows retargets the bar from where it is;
// 1.5 s (--timeout) after the last level it fades out and the program ends. One instance
// shows at a time: a later call hands its level over a Unix socket and exits.
// Usage: osd LEVEL [TITLE] [--timeout SECONDS] [--seconds N] [--socket NAME] [--screenshot PATH];
// STRATA_OFFSCREEN=DIR renders offscreen. Needs the shell layers (sway, kwin …):
// elsewhere it says so and exits with status 1.
import Glibc
import ShellApps
import Strata
import StrataTesting

@MainActor
final class OsdApp {
    let display: OnScreenDisplay
    let level: Double
    var instance: SingleInstance?

    init(_ options: ExampleCommandLine) throws {
        guard let word = options.arguments.first, let level = Double(word), !level.isNaN, options.arguments.count <= 2 else {
            ExampleCommandLine.printError("usage: osd LEVEL [TITLE] (LEVEL a number, 0-100)")
            exit(2)
        }
        // A running instance takes the level, and this one is done.
        if SingleInstance.send(word, to: SingleInstance.path(for: "osd")) { exit(0) }
        self.level = level
        display = OnScreenDisplay(title: options.arguments.count > 1 ? options.arguments[1] : "Volume")
        if let timeout = options.values["--timeout"] {
            guard let seconds = Double(timeout), seconds.isFinite, seconds > 0 else {
                ExampleCommandLine.printError("osd: --timeout takes a number of seconds above 0")
                exit(2)
            }
            display.hideDelay = seconds
        }
    }

    func start(headless: Bool) {
        // On a headless compositor started for the demo it stays until the screenshot.
        if headless { display.hideDelay = .infinity }
        display.onHidden = { [weak self] in
            self?.instance?.stop()
            Application.shared.stop()
        }
        display.show(level: level)
        if let error = display.window?.shellError {
            ExampleCommandLine.printError("osd: \(error)")
            exit(1)
        }
        guard Application.shared.display != nil else { return }
        do {
            instance = try SingleInstance(path: SingleInstance.path(for: "osd")) { [display] message in
                guard let level = message.split(separator: " ").first.flatMap({ Double($0) }), display.show(level: level) else {
                    return ExampleCommandLine.printError("osd: not a level: \(message.prefix(40))")
                }
            }
        } catch {
            ExampleCommandLine.printError("osd: \(error); later levels will start their own display")
        }
    }
}

ExampleCommandLine.main(program: "osd", screenshot: "osd.png", operands: "LEVEL [TITLE]", options: ["--timeout"], headless: { try HeadlessSway() },
                        make: { try OsdApp($0) }) { app, headless in app.start(headless: headless) }
