@testable import LayerKit
import Testing

/// `presentation()` copies (rule B3): each is what the layer shows at its time and
/// stays so while its taker keeps it, though a copy let go is made again for the
/// next layer asked (the context keeps one spare).
@Suite("Presentation copies", .serialized, .isolatedLayerContext)
@MainActor
struct PresentationCopyTests {
    /// Two layers sliding in x over 1 s from 0 and from 1000.
    private func twoMoving(_ f: Fixture) -> (Layer, Layer) {
        let a = f.presentedLayer(), b = f.presentedLayer()
        for (layer, start) in [(a, 0.0), (b, 1000.0)] {
            let move = BasicAnimation(keyPath: "position.x")
            move.fromValue = start
            move.toValue = start + 100
            move.duration = 1
            layer.add(move, forKey: "move")
        }
        Transaction.flush()
        return (a, b)
    }

    @Test("a copy kept by its taker keeps its values and model while later copies are made")
    func keptCopiesStay() {
        let f = Fixture()
        let (a, b) = twoMoving(f)
        f.advance(0.25)
        let keptA = a.presentation()!
        f.advance(0.25)
        let fromB = b.presentation()!
        #expect(keptA !== fromB)
        #expect(keptA.position.x == 25 && keptA.model() === a)
        #expect(fromB.position.x == 1050 && fromB.model() === b)
        #expect(a.presentation()!.position.x == 50)
        #expect(keptA.position.x == 25)
    }

    @Test("a kept copy's mask, contents, shadow path, name and custom keys stay as they were while the model's change, and the other way round (they share one box until one changes)")
    func referencesAreCopiedOnWrite() {
        let f = Fixture()
        let layer = f.presentedLayer()
        let image = Image(width: 2, height: 2, color: .red), path = Path(rect: Rect(x: 0, y: 0, width: 4, height: 4))
        let mask = Layer()
        Transaction.withoutActions {
            layer.name = "first"
            layer.contents = image
            layer.shadowPath = path
            layer.mask = mask
            layer.setValue(1.0, forKey: "weight")
        }
        Transaction.flush()
        let kept = layer.presentation()!
        Transaction.withoutActions {
            layer.name = "second"
            layer.contents = nil
            layer.shadowPath = nil
            layer.mask = nil
            layer.setValue(2.0, forKey: "weight")
        }
        #expect(kept.name == "first" && kept.contents === image && kept.shadowPath == path && kept.state.mask === mask)
        #expect(kept.value(forKey: "weight") as? Double == 1)
        #expect(layer.name == "second" && layer.contents == nil && layer.shadowPath == nil && layer.mask == nil)
        #expect(layer.value(forKey: "weight") as? Double == 2)
        // A plain layer's state holds no box, and setting nil makes none.
        let plain = Layer()
        plain.name = nil
        #expect(plain.name == nil && plain.contents == nil && plain.value(forKey: "weight") == nil)
    }

    @Test("a copy made again from a layer without references releases the one it held before: the box of references is the only part of a state not copied as bytes")
    func refilledCopyReleasesReferences() {
        // What the byte copy relies on: every stored field but the box is plain data
        // (so a field added later that holds a reference cannot break it unnoticed).
        func isPlainData(_ type: Any.Type) -> Bool {
            func check<T>(_: T.Type) -> Bool { _isPOD(T.self) }
            return _openExistential(type, do: check)
        }
        let notPlain = Mirror(reflecting: LayerState()).children.filter { !isPlainData(type(of: $0.value)) }.map(\.label)
        #expect(notPlain == ["references"])
        let f = Fixture()
        let (a, b) = twoMoving(f)
        weak var maskSeen: Layer?
        do {
            let mask = Layer()
            maskSeen = mask
            Transaction.withoutActions { a.mask = mask; a.name = "a" }
        }
        f.advance(0.25)
        var copy: Layer? = a.presentation()!
        #expect(copy?.name == "a" && copy?.state.mask === maskSeen)
        let madeAgain = ObjectIdentifier(copy!)
        copy = nil
        Transaction.withoutActions { a.mask = nil }
        #expect(maskSeen != nil, "the copy let go still holds the old box")
        copy = b.presentation()!
        #expect(ObjectIdentifier(copy!) == madeAgain, "the same object, made again")
        #expect(copy?.name == nil && copy?.state.mask == nil && copy?.position.x == 1025)
        #expect(maskSeen == nil, "made again from a layer with no references, it let the old box go")
        copy = nil
        copy = a.presentation()!
        #expect(copy?.name == "a" && copy?.position.x == 25)
    }

    @Test("a copy let go is made again from the next layer, whole: values, delegate, actions, style, versions")
    func releasedCopyIsRemade() {
        let f = Fixture()
        let (a, b) = twoMoving(f)
        let delegate = RecordingDelegate()
        b.delegate = delegate
        b.actions = ["opacity": NullAction()]
        b.style = ["cornerRadius": 7.0]
        b.name = "b"
        f.advance(0.5)
        var first: ObjectIdentifier?
        var firstVersion: UInt64 = 0
        do {
            let copy = a.presentation()!
            first = ObjectIdentifier(copy)
            firstVersion = copy.modelVersion
            #expect(copy.position.x == 50 && copy.name == nil && copy.delegate == nil)
        }
        let copy = b.presentation()!
        #expect(ObjectIdentifier(copy) == first, "the spare was made again")
        #expect(copy.modelVersion != firstVersion, "renderers see a new object")
        #expect(copy.position.x == 1050 && copy.model() === b && copy.name == "b" && copy.cornerRadius == 7)
        #expect(copy.delegate === delegate && copy.actions["opacity"] is NullAction)
        #expect(copy.isPresentationCopy && copy.presentation() === copy)
    }

    @Test("a copy its taker changed (a sublayer, marked display, a property) is not made again")
    func changedCopyIsKept() {
        let f = Fixture()
        let (a, b) = twoMoving(f)
        f.advance(0.5)
        do {
            let copy = a.presentation()!
            copy.addSublayer(Layer())
        }
        // The copy with a sublayer is the spare, and is not reused: a new one is made.
        let second = b.presentation()!
        #expect(second.sublayers.isEmpty && second.position.x == 1050)
        let third = a.presentation()!
        #expect(third !== second && third.position.x == 50)
        _ = third
        do {
            let copy = b.presentation()!
            copy.setNeedsDisplay()
        }
        let fourth = a.presentation()!
        #expect(!fourth.needsDisplay && fourth.position.x == 50)
    }

    @Test("subclasses get a copy of their own class each time (their init(layer:) copies their fields)")
    func subclassesAreNotReused() {
        let f = Fixture()
        let thin = f.presentedLayer { ShapeLayer() }, thick = f.presentedLayer { ShapeLayer() }
        Transaction.withoutActions {
            thin.lineWidth = 1
            thick.lineWidth = 9
        }
        do { #expect(thin.presentation()!.lineWidth == 1) }
        #expect(thick.presentation()!.lineWidth == 9)
    }

    @Test("the spare copy holds its model only until the end of the turn")
    func spareLetGoAtEndOfTurn() {
        let f = Fixture()
        var ends: [@MainActor () -> Void] = []
        Transaction.endOfTurnScheduler = { ends.append($0) }
        var model: Layer? = Layer()
        Transaction.flush()
        weak let watched = model
        ends = []
        _ = model!.presentation()
        _ = model!.presentation()
        model = nil
        #expect(watched != nil, "the spare still holds it during the turn")
        #expect(ends.count == 1, "one release per turn")
        for end in ends { end() }
        #expect(watched == nil)
        // A new turn schedules again.
        ends = []
        _ = f.root.presentation()
        #expect(ends.count == 1)
    }
}

@MainActor
private final class RecordingDelegate: LayerDelegate {}
