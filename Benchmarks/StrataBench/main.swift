// Strata's benchmark scenes (see Docs/Benchmarks.md). Usage:
//   swift run -c release strata-bench [scene…]     scenes: implicit-100k anim-eval-10k cards-1080p window-720p window-720p-500 views-720p-500 input-latency menu-latency a11y-walk text-500 textview-1mb nav-push autolayout-form diffable-10k list-fling layer-classes blur-sidebar proxy shell-apps
//   (shell-apps runs the panel, osd, launcher and notifyd examples from the release build folder)
// Prints one line per figure: scene, metric, median, repetitions, cores.
import Glibc
import LayerKit

let requested = Set(CommandLine.arguments.dropFirst())
func wants(_ name: String) -> Bool { requested.isEmpty || requested.contains(name) }

MainActor.assumeIsolated {
    Transaction.endOfTurnScheduler = { _ in }   // the benchmark commits explicitly
    if wants("implicit-100k") { sceneImplicit100k(repetitions: 7).forEach { $0.print() } }
    if wants("anim-eval-10k") { sceneAnimEval10k(repetitions: 61).forEach { $0.print() } }
    if wants("cards-1080p") { sceneCards(frames: 300).forEach { $0.print() } }
    if wants("window-720p-500") {
        do { try sceneWindow720p500().forEach { $0.print() } } catch { print("window-720p-500: \(error)") }
    }
    if wants("views-720p-500") {
        sceneViewAnimateCost(repetitions: 21).forEach { $0.print() }
        do { try sceneViews720p500().forEach { $0.print() } } catch { print("views-720p-500: \(error)") }
    }
    if wants("input-latency") {
        do { try sceneInputLatency().forEach { $0.print() } } catch { print("input-latency: \(error)") }
        do { try scenePointerLatency().forEach { $0.print() } } catch { print("input-latency (pointer): \(error)") }
    }
    if wants("menu-latency") {
        do { try sceneMenuLatency().forEach { $0.print() } } catch { print("menu-latency: \(error)") }
    }
    if wants("a11y-walk") {
        do { try sceneAccessibilityWalk().forEach { $0.print() } } catch { print("a11y-walk: \(error)") }
    }
    if wants("text-500") { sceneText500(repetitions: 41).forEach { $0.print() } }
    if wants("nav-push") {
        do { try sceneNavigationPush().forEach { $0.print() } } catch { print("nav-push: \(error)") }
    }
    if wants("autolayout-form") { sceneAutoLayoutForm(repetitions: 7).forEach { $0.print() } }
    if wants("textview-1mb") { sceneTextView1MB(repetitions: 9).forEach { $0.print() } }
    if wants("diffable-10k") { sceneDiffable10k(repetitions: 15).forEach { $0.print() } }
    if wants("layer-classes") { sceneLayerClasses(frames: 120).forEach { $0.print() } }
    if wants("blur-sidebar") {
        do { try sceneBlurSidebar().forEach { $0.print() } } catch { print("blur-sidebar: \(error)") }
    }
    if wants("proxy") {
        do { try sceneProxyOverhead().forEach { $0.print() } } catch { print("proxy: \(error)") }
    }
    if wants("list-fling") {
        do { try sceneListFling().forEach { $0.print() } } catch { print("list-fling: \(error)") }
    }
    if requested.contains("shell-apps") {   // only when asked: it takes minutes
        // The examples beside this program, by absolute path (they run in the compositor's folder).
        var path = CommandLine.arguments[0]
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) { path = String(cString: cwd) + "/" + path; free(cwd) }
        let binaries = "/" + path.split(separator: "/").dropLast().joined(separator: "/")
        do { try sceneShellApps(binaries: binaries).forEach { $0.print() } } catch { print("shell-apps: \(error)") }
    }
    if wants("window-720p") {
        do { try sceneWindow720p().forEach { $0.print() } } catch { print("window-720p: \(error)") }
    }
}
