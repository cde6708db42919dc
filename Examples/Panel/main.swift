// A top bar on every output, as waybar is: a menu button, the date and time, and
// the machine's status from /proc and /sys (processor, memory, battery where
// there is one). It keeps its height out of other windows' way, slides down when
// it appears, follows outputs as they come and go, and draws once a minute.
// Usage: panel [--seconds N] [--socket NAME] [--screenshot PATH];
// STRATA_OFFSCREEN=DIR renders offscreen. Needs the shell layers (sway, kwin …):
// elsewhere it says so and exits with status 1.
import Glibc
import ShellApps
import Strata
import StrataTesting

ExampleCommandLine.main(program: "panel", screenshot: "panel.png", headless: { try HeadlessSway() },
                        make: { _ in Panels() }) { panels, _ in
    panels.onQuit = { Application.shared.stop() }
    panels.start()
    if let error = panels.all.first?.window.shellError {
        ExampleCommandLine.printError("panel: \(error)")
        exit(1)
    }
}
