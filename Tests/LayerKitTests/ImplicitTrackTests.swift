@testable import LayerKit
import Testing
import LayerKitTesting

/// The implicit animation of a standard property kept as its typed track until
/// someone asks for the object (issue 13, S4): the same animation either way.
@MainActor
@Suite("Implicit animations kept as tracks (B1, B2, B4)", .serialized, .isolatedLayerContext)
struct ImplicitTrackTests {
    @Test("rule B1: a change adds a track, not an object; asked for, it is the BasicAnimation the search makes, stamped by the commit, and shows the same")
    func ruleB1TrackUntilAsked() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.perform {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .easeIn
            layer.position = Point(x: 250, y: 25)
            layer.opacity = 0.5
        }
        #expect(layer.animationEntries.count == 2 && layer.animationEntries.allSatisfy(\.isKeptAsTrack))
        f.advance(0.25)
        let shownBefore = layer.presentationState(atTime: f.clock.now)
        let move = try #require(layer.animation(forKey: "position") as? BasicAnimation)
        #expect(move.keyPath == "position" && move.fromValue as? Point == Point(x: 50, y: 25) && move.toValue as? Point == Point(x: 250, y: 25))
        #expect(move.byValue == nil && move.duration == 1 && move.beginTime == 100 && move.timingFunction == .easeIn)
        #expect(move.speed == 1 && move.timeOffset == 0 && move.repeatCount == 0 && move.fillMode == .removed && move.isRemovedOnCompletion)
        #expect(move.delegate == nil && !move.isAdditive && move.isImplicit)
        #expect(layer.animation(forKey: "position") === move)   // made once
        #expect(layer.animationEntries.map(\.isKeptAsTrack) == [false, true])
        let shownAfter = layer.presentationState(atTime: f.clock.now)
        #expect(shownAfter.position == shownBefore.position && shownAfter.opacity == shownBefore.opacity)
        #expect(approx(layer.presentation()?.position, Point(x: 50 + 200 * MediaTimingFunction.easeIn.value(at: 0.25), y: 25)))
        #expect(approx(layer.presentation()?.opacity, 1 - 0.5 * MediaTimingFunction.easeIn.value(at: 0.25)))
        f.advance(0.75)
        #expect(layer.animationKeys.isEmpty)
        #expect(layer.presentation()?.position == Point(x: 250, y: 25))
    }

    @Test("rule B1: asked for before the commit, the animation has no begin time; the commit stamps the object and the track alike")
    func ruleB1AskedBeforeCommit() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        layer.zPosition = 4
        let anim = try #require(layer.animation(forKey: "zPosition"))
        #expect(anim.beginTime == 0)
        f.advance(0.1)
        Transaction.flush()
        #expect(anim.beginTime == 100.1)
        f.advance(0.125)
        #expect(approx(layer.presentation()?.zPosition, 4 * MediaTimingFunction.default.value(at: 0.5)))
        #expect(approx(layer.presentationState(atTime: f.clock.now).zPosition, 4 * MediaTimingFunction.default.value(at: 0.5)))
    }

    @Test("rule T2: the commit stamps every animation its transaction added — several on one layer, implicit and explicit, on two layers — and none it dropped; each layer is listed once, and listed again after the commit or a reset")
    func ruleT2CommitStampsEachLayersNewAnimations() throws {
        let f = Fixture()
        let a = f.presentedLayer(), b = f.presentedLayer()
        let context = LayerContext.current
        Transaction.begin()
        a.position = Point(x: 10, y: 10)
        a.opacity = 0.5
        let spin = BasicAnimation(keyPath: "zPosition")
        spin.fromValue = 0.0
        spin.toValue = 8.0
        spin.duration = 1
        a.add(spin, forKey: "spin")
        b.cornerRadius = 6
        b.add(spin, forKey: "gone")
        b.removeAnimation(forKey: "gone")
        #expect(context.uncommitted.map(ObjectIdentifier.init) == [ObjectIdentifier(a), ObjectIdentifier(b)])
        f.advance(0.5)
        Transaction.commit()
        #expect(context.uncommitted.isEmpty && !a.awaitsCommit && !b.awaitsCommit)
        for (layer, key) in [(a, "position"), (a, "opacity"), (a, "spin"), (b, "cornerRadius")] {
            #expect(try #require(layer.animation(forKey: key)).beginTime == 100.5, "\(key)")
        }
        #expect(b.animationKeys == ["cornerRadius"])
        // Mid-animation, a later transaction lists the layer again and stamps only what it added.
        f.advance(0.1)
        Transaction.begin()
        a.position = Point(x: 20, y: 10)
        Transaction.commit()
        #expect(try #require(a.animation(forKey: "position")).beginTime == f.clock.now)
        #expect(try #require(a.animation(forKey: "spin")).beginTime == 100.5)
        // A reset drops the list; the layer's next change lists it again.
        Transaction.begin()
        b.cornerRadius = 2
        Transaction.reset()
        #expect(context.uncommitted.isEmpty && !b.awaitsCommit)
        f.advance(0.1)
        b.opacity = 0.25
        #expect(context.uncommitted.count == 1 && b.awaitsCommit)
        Transaction.flush()
        #expect(try #require(b.animation(forKey: "opacity")).beginTime == f.clock.now)
    }

    /// The same changes, with tracks and with objects (`TypedTrack.isEnabled` off),
    /// sampled at the same times.
    @Test("rules B1, B4: tracks and objects show the same values, for every kind of standard value, through changes mid-animation",
          arguments: [true, false])
    func ruleB4SameAsObjects(replaceMidway: Bool) {
        func run(tracks: Bool) -> [LayerState] {
            TypedTrack.isEnabled = tracks
            defer { TypedTrack.isEnabled = true }
            let f = Fixture()
            let layer = f.presentedLayer()
            var shown: [LayerState] = []
            func change(_ k: Double) {
                layer.position = Point(x: 10 * k, y: -3 * k)
                layer.bounds = Rect(x: k, y: 2 * k, width: 40 + k, height: 30 * k)
                layer.opacity = 1 / (1 + k)
                layer.cornerRadius = 2 * k
                layer.anchorPoint = Point(x: 0.1 * k, y: 0.5)
                layer.zPosition = -k
                layer.shadowOffset = Size(width: k, height: -k)
                layer.contentsRect = Rect(x: 0, y: 0, width: 1 / k, height: 1)
                layer.transform = Transform3D(translationX: k, y: 0, z: 0)   // no slot value: an object either way
            }
            change(1)
            Transaction.flush()
            for _ in 0..<3 {
                f.advance(0.05)
                shown.append(layer.presentationState(atTime: f.clock.now))
            }
            if replaceMidway { change(3) } else { Transaction.withoutActions { change(3) } }
            Transaction.flush()
            for _ in 0..<6 {
                f.advance(0.05)
                shown.append(layer.presentationState(atTime: f.clock.now))
                shown.append(layer.presentation()!.state)
            }
            return shown
        }
        let withTracks = run(tracks: true), withObjects = run(tracks: false)
        #expect(withTracks.count == withObjects.count)
        for (a, b) in zip(withTracks, withObjects) {
            #expect(a.position == b.position && a.bounds == b.bounds && a.opacity == b.opacity && a.cornerRadius == b.cornerRadius)
            #expect(a.anchorPoint == b.anchorPoint && a.zPosition == b.zPosition && a.shadowOffset == b.shadowOffset)
            #expect(a.contentsRect == b.contentsRect && a.transform == b.transform)
        }
        // The values moved: a comparison of two still layers would prove nothing.
        #expect(Set(withTracks.map(\.position.x)).count > 5)
    }

    @Test("rule B2: a class whose descriptors say a standard property does not animate gets no animation for it, whoever asked first")
    func ruleB2ClassDescriptors() {
        let f = Fixture()
        let plain = f.presentedLayer()
        plain.opacity = 0.5
        let still = f.presentedLayer { StillOpacityLayer() }
        still.opacity = 0.5
        still.position = Point(x: 9, y: 9)
        let another = f.presentedLayer { StillOpacityLayer() }
        another.opacity = 0.25
        plain.cornerRadius = 3
        #expect(plain.animationKeys == ["opacity", "cornerRadius"])
        #expect(still.animationKeys == ["position"])
        #expect(another.animationKeys.isEmpty)
        Transaction.flush()
    }

    @Test("a retimed animation kept as a track becomes an object and shows the new timing")
    func retimingATrack() throws {
        let f = Fixture()
        let layer = f.presentedLayer()
        Transaction.perform {
            Transaction.animationDuration = 1
            Transaction.animationTimingFunction = .linear
            layer.position = Point(x: 150, y: 25)
        }
        f.advance(0.5)
        #expect(approx(layer.presentation()?.position, Point(x: 100, y: 25)))
        let paused = layer.retimeAnimation(forKey: "position") { a in
            a.timeOffset = 0.5
            a.beginTime = 0
            a.speed = 0
        }
        #expect(paused && layer.animationEntries.first?.isKeptAsTrack == false)
        f.advance(0.5)
        #expect(approx(layer.presentation()?.position, Point(x: 100, y: 25)))
        #expect(approx(layer.presentationState(atTime: f.clock.now).position, Point(x: 100, y: 25)))
    }

    @Test("a layer's animations keep their order through removals at the head, in the middle and at the end")
    func entryListOrder() {
        var list = AnimationEntryList()
        #expect(list.isEmpty && list.count == 0)
        let made = ["a", "b", "c", "d"].map { AnimationEntry(key: $0, isAnonymous: false, animation: BasicAnimation(keyPath: "opacity")) }
        let anonymous = AnimationEntry(key: "b", isAnonymous: true, animation: BasicAnimation(keyPath: "opacity"))
        list.append(anonymous)
        made.forEach { list.append($0) }
        #expect(list.map(\.key) == ["b", "a", "b", "c", "d"])
        #expect(list.entry(forKey: "b") === made[1])   // not the anonymous one
        list.remove(anonymous)
        #expect(list.map(\.key) == ["a", "b", "c", "d"] && list.first === made[0])
        list.remove(made[2])
        list.remove(made[3])
        #expect(list.map(\.key) == ["a", "b"])
        list.remove(made[0])
        list.remove(made[0])   // not there: nothing happens
        #expect(list.map(\.key) == ["b"] && list.entry(forKey: "a") == nil)
        list.remove(made[1])
        #expect(list.isEmpty && list.entry(forKey: "b") == nil)
    }

    @Test("a track's timing stays six numbers and two flags: one more number made each implicit animation's entry slower to fill (S4 156 → 230–290 ns a change)")
    func timingValuesStaySmall() {
        #expect(MemoryLayout<MediaTimingValues>.stride <= 56)
    }
}

/// A layer class whose `opacity` does not animate implicitly (its descriptor says so).
final class StillOpacityLayer: Layer {
    override class var propertyDescriptors: [String: PropertyDescriptor] {
        var d = super.propertyDescriptors
        let o = d["opacity"]!
        d["opacity"] = PropertyDescriptor(key: o.key, valueType: o.valueType, isOptional: o.isOptional, isImplicitlyAnimatable: false,
                                          accepts: o.accepts, read: o.read, write: o.write)
        return d
    }
}
