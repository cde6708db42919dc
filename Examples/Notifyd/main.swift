// A notification daemon, as mako is: it serves org.freedesktop.Notifications on
// the session bus, so `notify-send` and every desktop app's notifications show
// here — toasts at the top right that slide in and stack with springs, with the
// body's markup, the app's icon from the icon theme and buttons for actions;
// a click invokes the default action (or dismisses), and each expires on time.
// Usage: notifyd [--seconds N] [--socket NAME] [--screenshot PATH]
// Needs the shell layers (sway, kwin …) and a session bus; exits 1 without them.
import Glibc
import ShellApps
import Strata
import StrataTesting

ExampleCommandLine.main(program: "notifyd", screenshot: "notifyd.png", headless: { try HeadlessSway() },
                        make: { _ in NotificationDaemon() }) { daemon, headless in
    if Application.shared.display != nil && !ShellWindow.isAvailable {
        ExampleCommandLine.printError("notifyd: the compositor has no shell layers (zwlr_layer_shell_v1)")
        exit(1)
    }
    daemon.onBusClosed = {
        print("notifyd: the session bus closed; stopping")
        Application.shared.stop()
    }
    do {
        try daemon.start()
    } catch {
        ExampleCommandLine.printError("notifyd: \(error)")
        exit(1)
    }
    print("notifyd: serving \(NotificationServer.busName)")
    // A daemon: it runs with no toast on screen.
    Application.shared.quitsWhenLastWindowCloses = false
    if headless || Application.shared.display == nil {
        daemon.notify(.init(appName: "notifyd", appIcon: "dialog-information", summary: "Strata notifications",
                            body: "Toasts slide in, <b>stack</b> and expire.", actions: ["ok", "OK"], expireTimeout: 0))
    }
}
