// An application launcher, as fuzzel and wofi are: a card in the middle of the
// screen above everything with a search field and the installed applications
// (XDG .desktop entries, names in your language). Typing filters as you type;
// Up/Down choose, Return launches (with an activation token), Escape closes.
// Where the compositor has no shell layers (weston, mutter, cage) it opens as an
// ordinary window instead.
// Usage: launcher [--applications DIR] [--seconds N] [--socket NAME] [--screenshot PATH];
// STRATA_OFFSCREEN=DIR renders offscreen.
import ShellApps
import Strata
import StrataTesting

/// The app: its entries read at start, its launcher made once the compositor is
/// known (a shell window, or an ordinary one where there are no shell layers).
@MainActor
final class LauncherApp {
    let found: DesktopEntries
    var launcher: Launcher?

    init(_ options: ExampleCommandLine) {
        found = options.values["--applications"].map { DesktopEntries(directories: [$0]) } ?? DesktopEntries()
    }

    func start() {
        for refused in found.refused { print("launcher: left out \(refused.path): \(refused.why)") }
        let offscreen = Application.shared.display == nil
        let launcher = Launcher(entries: found.entries, shellLayers: offscreen || ShellWindow.isAvailable)
        if launcher.isFallbackWindow { print("launcher: the compositor has no shell layers (zwlr_layer_shell_v1); showing an ordinary window") }
        launcher.onFinish = { [weak launcher] in
            if let launched = launcher?.lastLaunch {
                print("launcher: started \(launched.argv.joined(separator: " "))\(launched.token.map { " with activation token \($0)" } ?? "")")
            }
            Application.shared.stop()
        }
        launcher.show()
        self.launcher = launcher
    }
}

ExampleCommandLine.main(program: "launcher", screenshot: "launcher.png", options: ["--applications"], headless: { try HeadlessSway() },
                        make: { LauncherApp($0) }) { app, _ in app.start() }
