import AllocationCounter
import LayerKit

/// Benchmarks/Reference/ca-engine.c's figures (S3 and S4 in C), measured once per run.
@MainActor let engineReference: [String: Double] = runCReference("ca-engine.c", arguments: "61 7") ?? [:]

/// Scene S4 `implicit-100k`: set `position` of 100,000 presented layers (not
/// view-backed) inside one transaction, implicit actions on; the same with
/// actions disabled as the reference.
@MainActor
func sceneImplicit100k(repetitions: Int) -> [Figure] {
    // Freed animations stay with the process, as in the C reference: otherwise
    // the heap's layout decides whether each round page-faults them in again
    // (Docs/Benchmarks.md, "S4 and the heap").
    strata_heap_trimming(0)
    defer { strata_heap_trimming(1) }
    let clock = ManualMediaClock(now: 1000)
    MediaTime.clock = clock
    let root = Layer()
    PresentationHosts.attach(root)
    let count = 100_000
    var layers: [Layer] = []
    layers.reserveCapacity(count)
    Transaction.withoutActions {
        for i in 0..<count {
            let l = Layer()
            l.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
            l.position = Point(x: Double(i % 1000), y: Double(i / 1000))
            root.addSublayer(l)
            layers.append(l)
        }
    }
    Transaction.flush()

    func run(disabled: Bool, offset: Double) -> (set: Double, commit: Double) {
        let t0 = now()
        Transaction.begin()
        if disabled { Transaction.disableActions = true }
        for (i, l) in layers.enumerated() {
            l.position = Point(x: Double(i % 1000) + offset, y: Double(i / 1000))
        }
        let t1 = now()
        Transaction.commit()
        let t2 = now()
        clock.advance(by: 1)   // let the animations finish and be removed (not timed)
        return (t1 - t0, t2 - t1)
    }

    var on: [Double] = [], off: [Double] = [], commits: [Double] = []
    for r in 0..<repetitions {
        let a = run(disabled: false, offset: Double(2 * r + 1))
        on.append(a.set)
        commits.append(a.commit)
        off.append(run(disabled: true, offset: Double(2 * r + 2)).set)
    }
    PresentationHosts.detach(root)
    let perOn = median(on) / Double(count) * 1e9, perOff = median(off) / Double(count) * 1e9
    let c = engineReference
    return [
        Figure(scene: "S4 implicit-100k", metric: "per change, actions on", value: perOn, unit: "ns", repetitions: repetitions),
        Figure(scene: "S4 implicit-100k", metric: "per change, actions disabled", value: perOff, unit: "ns", repetitions: repetitions),
        Figure(scene: "S4 implicit-100k", metric: "ratio on/disabled", value: perOn / perOff, unit: "x", repetitions: repetitions),
        Figure(scene: "S4 implicit-100k", metric: "commit of 100k animations", value: median(commits) * 1e3, unit: "ms", repetitions: repetitions),
    ] + (c["s4-on"].map { ref in [
        Figure(scene: "S4 implicit-100k", metric: "C engine, per change, actions on", value: ref, unit: "ns", repetitions: 7),
        Figure(scene: "S4 implicit-100k", metric: "ratio LayerKit/C, actions on", value: perOn / ref, unit: "x", repetitions: repetitions),
    ] } ?? []) + (c["s4-off"].map { ref in [
        Figure(scene: "S4 implicit-100k", metric: "C engine, per change, actions disabled", value: ref, unit: "ns", repetitions: 7),
        Figure(scene: "S4 implicit-100k", metric: "ratio LayerKit/C, actions disabled", value: perOff / ref, unit: "x", repetitions: repetitions),
    ] } ?? []) + (c["s4-lean-on"].map { ref in [
        Figure(scene: "S4 implicit-100k", metric: "lean C engine, per change, actions on", value: ref, unit: "ns", repetitions: 7),
        Figure(scene: "S4 implicit-100k", metric: "ratio LayerKit/lean C, actions on", value: perOn / ref, unit: "x", repetitions: repetitions),
    ] } ?? []) + (c["s4-lean-off"].map { ref in [
        Figure(scene: "S4 implicit-100k", metric: "lean C engine, per change, actions disabled", value: ref, unit: "ns", repetitions: 7),
        Figure(scene: "S4 implicit-100k", metric: "ratio LayerKit/lean C, actions disabled", value: perOff / ref, unit: "x", repetitions: repetitions),
    ] } ?? [])
}

/// Scene S3 `anim-eval-10k`: 10,000 layers, each with an explicit 1 s animation
/// of `position` and one of `opacity`; advance the clock by 1/60 s and compute
/// every presentation value: in the timeline's one pass (the figure compared with
/// C), per layer through `presentationState(atTime:)`, and as presentation
/// layers. Also with only 10 of the 10,000 animating.
@MainActor
func sceneAnimEval10k(repetitions: Int) -> [Figure] {
    enum Way { case pass, perLayer, copies }
    func measure(animating: Int, _ way: Way = .pass) -> Double {
        let clock = ManualMediaClock(now: 2000)
        MediaTime.clock = clock
        let root = Layer()
        var layers: [Layer] = []
        Transaction.withoutActions {
            for i in 0..<10_000 {
                let l = Layer()
                l.bounds = Rect(x: 0, y: 0, width: 20, height: 20)
                l.position = Point(x: Double(i % 100) * 20, y: Double(i / 100) * 20)
                root.addSublayer(l)
                layers.append(l)
            }
        }
        for l in layers.prefix(animating) {
            let move = BasicAnimation(keyPath: "position")
            move.fromValue = l.position
            move.toValue = Point(x: l.position.x + 100, y: l.position.y)
            move.duration = 1
            move.repeatCount = .infinity
            let fade = BasicAnimation(keyPath: "opacity")
            fade.fromValue = 1.0
            fade.toValue = 0.0
            fade.duration = 1
            fade.repeatCount = .infinity
            l.add(move, forKey: "move")
            l.add(fade, forKey: "fade")
        }
        Transaction.flush()
        var times: [Double] = []
        var checksum = 0.0
        for _ in 0..<repetitions {
            clock.advance(by: 1.0 / 60)
            let t0 = now()
            let t = clock.now
            switch way {
            case .pass:
                AnimationTimeline.evaluate(atTime: t)
                AnimationTimeline.withShownStates { states in
                    for i in states.indices { checksum += states[i].position.x + states[i].opacity }
                }
            case .perLayer:
                AnimationTimeline.forEachAnimatedLayer { l in
                    let p = l.presentationState(atTime: t)
                    checksum += p.position.x + p.opacity
                }
            case .copies:
                AnimationTimeline.forEachAnimatedLayer { l in
                    let p = l.presentation(atTime: t)
                    checksum += p.position.x + p.opacity
                }
            }
            times.append(now() - t0)
        }
        if checksum.isNaN { print("checksum NaN") }
        for l in layers { l.removeAllAnimations() }
        return median(times) * 1e6
    }
    let all = measure(animating: 10_000)
    let few = measure(animating: 10)
    let perLayer = measure(animating: 10_000, .perLayer)
    let layers = measure(animating: 10_000, .copies)
    let c = engineReference
    return [
        Figure(scene: "S3 anim-eval-10k", metric: "all 10,000 animating", value: all, unit: "µs/frame", repetitions: repetitions),
        Figure(scene: "S3 anim-eval-10k", metric: "all 10,000, presentationState(atTime:) per layer", value: perLayer, unit: "µs/frame", repetitions: repetitions),
        Figure(scene: "S3 anim-eval-10k", metric: "all 10,000, as presentation layers", value: layers, unit: "µs/frame", repetitions: repetitions),
        Figure(scene: "S3 anim-eval-10k", metric: "10 of 10,000 animating", value: few, unit: "µs/frame", repetitions: repetitions),
        Figure(scene: "S3 anim-eval-10k", metric: "ratio few/all", value: few / all, unit: "x", repetitions: repetitions),
    ] + (c["s3-all"].map { ref in [
        Figure(scene: "S3 anim-eval-10k", metric: "C engine, all 10,000 animating", value: ref, unit: "µs/frame", repetitions: 61),
        Figure(scene: "S3 anim-eval-10k", metric: "ratio LayerKit/C", value: all / ref, unit: "x", repetitions: repetitions),
    ] } ?? []) + (c["s3-lean-all"].map { ref in [
        Figure(scene: "S3 anim-eval-10k", metric: "lean C engine, all 10,000 animating", value: ref, unit: "µs/frame", repetitions: 61),
        Figure(scene: "S3 anim-eval-10k", metric: "ratio LayerKit/lean C", value: all / ref, unit: "x", repetitions: repetitions),
        Figure(scene: "S3 anim-eval-10k", metric: "ratio presentation layers/lean C", value: layers / ref, unit: "x", repetitions: repetitions),
    ] } ?? [])
}
