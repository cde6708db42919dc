@testable import LayerKit
import Testing

/// A clean LayerKit world for one test: a `ManualMediaClock` at `t = 100`,
/// no open transactions, implicit transactions committed only by `flush()`.
@MainActor
struct Fixture {
    let clock = ManualMediaClock(now: 100)
    /// A root that an (imaginary) renderer presents, so its tree is visible (rules A7, B5).
    let root = Layer()

    init() {
        Transaction.reset()
        AnimationTimeline.reset()
        Transaction.endOfTurnScheduler = { _ in }
        Transaction.commitObservers = []
        ActionTrace.sink = nil
        Diagnostics.handler = { _ in }
        MediaTime.clock = clock
        root.bounds = Rect(x: 0, y: 0, width: 400, height: 300)
        PresentationHosts.attach(root)
        Transaction.flush()
    }

    /// A layer in the presented tree, already presented by a commit, so changes animate.
    func presentedLayer<L: Layer>(_ make: () -> L = { Layer() as! L }) -> L {
        let layer = make()
        layer.bounds = Rect(x: 0, y: 0, width: 100, height: 50)
        layer.position = Point(x: 50, y: 25)
        // Without actions: the root's implicit `sublayers` fade would be noise here.
        Transaction.withoutActions { root.addSublayer(layer) }
        Transaction.flush()
        return layer
    }

    /// Advances the clock.
    func advance(_ seconds: Double) { clock.advance(by: seconds) }
}

/// Records delegate callbacks in order.
@MainActor
final class DelegateLog: AnimationDelegate {
    var events: [String] = []
    let name: String
    init(_ name: String = "a") { self.name = name }
    func animationDidStart(_ animation: Animation) { events.append("\(name) start") }
    func animationDidStop(_ animation: Animation, finished: Bool) { events.append("\(name) stop \(finished)") }
}

/// An action that records that it ran, with the model value it saw.
@MainActor
final class RecordingAction: Action {
    var runs: [(key: String, layer: Layer)] = []
    var modelValues: [Any?] = []
    func run(forKey event: String, object: Layer, arguments: [String: Any]?) {
        runs.append((event, object))
        modelValues.append(object.value(forKey: event))
    }
}

func approx(_ a: Double?, _ b: Double, _ tol: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tol
}

func approx(_ a: Point?, _ b: Point, _ tol: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tol && abs(a.y - b.y) <= tol
}
