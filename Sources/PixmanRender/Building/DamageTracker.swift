import CPixman
import LayerKit

/// Works out which device pixels a frame must repaint: for every layer that
/// draws, its device bounds and what it draws with; a layer for which either
/// changed — or that appeared or went away — damages its old and its new bounds.
/// Animating layers change every frame.
///
/// What a layer draws with: its transform to the device, its accumulated
/// opacity, its place among its siblings, its own model changes and those of its
/// ancestors and mask. Bounds include borders, shadows, shape strokes and contents.
///
/// Records are kept between frames, and a subtree whose `subtreeVersion`, and
/// everything its parent passes down, are as last seen — and in which nothing
/// animates — is passed over without looking inside: a frame costs in proportion
/// to what changed and the siblings on its way, not to the whole tree.
@MainActor
final class DamageTracker {
    /// What a layer passes down to a sublayer.
    struct Inputs: Equatable {
        var parent: ObjectIdentifier?
        var transform: AffineTransform
        var opacity: Double
        var ancestry: Int
        var index: Int
        /// Under a layer drawn in perspective: drawn into its plane and warped, so
        /// where it lands is not known here.
        var inProjection = false
        /// How far (device pixels) the shadows of ancestors, cast from their content,
        /// spread what this layer draws.
        var shadowSpread = 0.0
    }

    /// What a layer drew with: compared field by field (cheaper than hashing them).
    struct Drawing: Equatable {
        var bounds: Rect
        var transform: AffineTransform
        var opacity: Double
        var modelVersion: UInt64
        var maskVersion: UInt64
        var time: Double
        /// While a transition runs: the pass. Its old state draws layers that may
        /// have left the tree (their changes reach no version here), so it is
        /// repainted every frame (found by the fuzzer).
        var transitionPass = 0
        /// `masksToBounds`: turning it on or off shows or hides what the sublayers
        /// draw outside the bounds, which no sublayer's own drawing records (found by
        /// the fuzzer).
        var clips = false
        /// Whether a mask clips it: a mask clips the sublayers too, also where they
        /// draw outside the layer's bounds, so a masked layer's change (the mask set
        /// or removed, its content or its animation) repaints the whole subtree's
        /// extent (found by the fuzzer: a mask set on a layer whose sublayer reached
        /// above it left that part on screen).
        var masked = false
    }

    private struct Record {
        var inputs: Inputs
        var subtreeVersion: UInt64
        /// Nil when the layer draws nothing (hidden, transparent, degenerate).
        var drawing: Drawing?
        /// The sublayers visited under it.
        var children: [ObjectIdentifier]
        /// What it passed down to them (their inputs but the index), and what was
        /// seen of them then: sublayers found as they were are passed over by
        /// comparing these, without looking up their records.
        var passedDown: Inputs? = nil
        var seen = SeenSublayers()
    }

    /// What a pass saw of a layer's sublayers, index by index, in arrays of the
    /// same length: their subtree versions, device bounds (nil: draws nothing),
    /// model `zPosition`, and whether they have no sublayers — the display list
    /// culls and orders them from these without looking at each sublayer.
    struct SeenSublayers {
        private(set) var versions: [UInt64] = []
        private(set) var bounds: [Rect?] = []
        private(set) var z: [Double] = []
        private(set) var isLeaf: [Bool] = []

        init() {}

        init(count n: Int) {
            versions = Array(repeating: 0, count: n)
            bounds = Array(repeating: nil, count: n)
            z = Array(repeating: 0, count: n)
            isLeaf = Array(repeating: false, count: n)
        }

        var count: Int { versions.count }

        @MainActor
        mutating func note(_ i: Int, _ s: Layer, bounds b: Rect?) {
            versions[i] = s.subtreeVersion
            bounds[i] = b
            z[i] = s.zPosition
            isLeaf[i] = s.sublayers.isEmpty
        }
    }

    /// What the last pass saw of a layer's sublayers, index by index.
    struct Sublayers {
        let ids: [ObjectIdentifier]
        let seen: SeenSublayers
        var bounds: [Rect?] { seen.bounds }
        var isLeaf: [Bool] { seen.isLeaf }

        // (Plain loops: a closure made on the main actor checks its actor when called.)

        /// True when `layers` are these, in this order (compared by identity only).
        func describe(_ layers: [Layer]) -> Bool {
            DamageTracker.same(layers, ids)
        }

        /// True when the z positions never decrease: the sublayers draw in index order.
        var inZOrder: Bool {
            let z = seen.z
            for i in z.indices.dropFirst() where z[i] < z[i - 1] { return false }
            return true
        }
    }

    private var records: [ObjectIdentifier: Record] = [:]
    private var root: ObjectIdentifier?
    /// The presentation copies the last pass made, for the compositor to reuse.
    private(set) var presentations: [ObjectIdentifier: Layer] = [:]
    /// Damage of recent frames, newest last, for buffers of some age.
    private var history: [[Rect]] = []
    /// The damage of frames drawn but never shown, counted into the next frame.
    private var carried: [Rect] = []
    private var lastPassAddedHistory = false
    private let historyLength = 8
    /// The layers of the last pass with an animation at or below them (a rasterized
    /// layer's bitmap is not kept while one is below it).
    private(set) var animatedOrAbove: Set<ObjectIdentifier> = []
    /// Backdrop layers as last seen: their device bounds and how far their blur reads.
    private var backdrops: [ObjectIdentifier: (bounds: Rect, reach: Double)] = [:]
    /// Layers looked at by the last pass (for tests).
    private(set) var visited = 0
    private var passes = 0

    /// The damaged rectangles (device pixels, whole) of this frame.
    func damage(root: Layer, time: Double, scale: Double, width: Int, height: Int) -> [Rect] {
        Layer.noteSubtreeVersionsRead()
        passes += 1
        presentations.removeAll(keepingCapacity: true)
        visited = 0
        var rects: [Rect] = []
        let rootID = ObjectIdentifier(root)
        if let old = self.root, old != rootID { forget(old, parent: nil, into: &rects) }
        self.root = rootID
        // Animated layers, and everything above them, are looked at every frame.
        var animated: Set<ObjectIdentifier> = []
        AnimationTimeline.forEachAnimatedLayer { layer in
            var l: Layer? = layer
            while let current = l, animated.insert(ObjectIdentifier(current)).inserted {
                l = current.superlayer ?? current.maskOwner
            }
        }
        animatedOrAbove = animated
        visit(root, Inputs(parent: nil, transform: AffineTransform(scaleX: scale, y: scale), opacity: 1, ancestry: 0, index: 0),
              parentPresentation: nil, time: time, animated: animated, into: &rects, depth: 0)
        rects += carried
        carried = []
        // A change within a backdrop's reach changes its blur: it is drawn again,
        // with all it reads (so every layer under it is built and played).
        for b in backdrops.values {
            let zone = b.bounds.insetBy(dx: -b.reach, dy: -b.reach)
            if rects.contains(where: { $0.intersects(zone) }) { rects.append(zone) }
        }
        let canvas = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        var damage = rects.map { $0.intersection(canvas) }.filter { !$0.isEmpty }.map(Self.pixelAligned)
        if damage.count > 64 { damage = [damage.dropFirst().reduce(damage[0]) { $0.union($1) }] }
        // Frames without damage are not drawn or committed: they leave no mark on any buffer.
        lastPassAddedHistory = !damage.isEmpty
        if !damage.isEmpty { history.append(damage) }
        if history.count > historyLength { history.removeFirst() }
        return damage
    }

    /// The device bounds `layer` drew in at the last pass; nil when it drew nothing or was not seen.
    func bounds(of layer: Layer) -> Rect? {
        records[ObjectIdentifier(layer)]?.drawing?.bounds
    }

    /// The sublayers seen under `layer` at the last pass, in order, with their device
    /// bounds, z positions and whether they are leaves: one lookup for all of them.
    func sublayers(of layer: Layer) -> Sublayers? {
        guard let r = records[ObjectIdentifier(layer)], r.seen.count == r.children.count else { return nil }
        return Sublayers(ids: r.children, seen: r.seen)
    }

    /// What to repaint in a buffer whose contents are `age` frames old (1: the last
    /// frame's). Nil when the buffer must be painted whole.
    func damage(forBufferAge age: Int) -> [Rect]? {
        guard age > 0, age <= history.count else { return nil }
        return Array(history.suffix(age).joined())
    }

    /// Forgets everything: the next frame is painted whole.
    func reset() {
        records.removeAll()
        backdrops.removeAll()
        root = nil
        history.removeAll()
        carried = []
    }

    /// The last frame was dropped, not shown: what it changed is counted into the
    /// next frame's damage (the records already describe the dropped frame, so the
    /// next pass alone would see only what changed since it).
    func discardLastFrame() {
        guard lastPassAddedHistory, let last = history.popLast() else { return }
        lastPassAddedHistory = false
        carried += last
    }

    private static func pixelAligned(_ r: Rect) -> Rect {
        let x0 = r.minX.rounded(.down), y0 = r.minY.rounded(.down)
        return Rect(x: x0, y: y0, width: r.maxX.rounded(.up) - x0, height: r.maxY.rounded(.up) - y0)
    }

    /// Looks at one layer and, unless its subtree is as last seen, below it. The
    /// per-layer work is in helpers, so each level of a deep tree costs little stack.
    private func visit(_ layer: Layer, _ inputs: Inputs, parentPresentation: Layer?, time: Double, animated: Set<ObjectIdentifier>,
                       into rects: inout [Rect], depth: Int) {
        guard depth < DisplayListBuilder.maximumDepth, !isUnchanged(layer, inputs, animated: animated) else { return }
        visited += 1
        let below = look(layer, inputs, parentPresentation: parentPresentation, time: time, animated: animated, into: &rects)
        if let below {
            let pass = SublayerPass(layer, below, takingArraysFrom: &records[ObjectIdentifier(layer)])
            // With nothing animating, the sublayers whose identity or version changed
            // come from one tight pass in LayerKit; the rest are as last seen.
            let candidates = pass.same && animated.isEmpty
                ? layer.changedSublayers(ids: pass.children, versions: pass.seen.versions) : Array(pass.sublayers.indices)
            for i in candidates {
                let s = pass.sublayers[i]
                guard !pass.isUnchanged(i, s, animated: animated) else { continue }
                visit(s, pass.inputs(i), parentPresentation: below.presentation, time: time, animated: animated, into: &rects, depth: depth + 1)
                pass.note(i, s, bounds: bounds(of: s))
            }
            pass.store(in: &records[ObjectIdentifier(layer)])
        }
        remember(layer, drewSublayers: below != nil, into: &rects)
    }

    /// One layer's sublayers in a pass, against what the last pass saw of them: work
    /// in proportion to what changed. A sublayer where it was, given the same
    /// inputs, with the same subtree version and nothing animating in it, is
    /// unchanged (what `isUnchanged` finds), found so without looking up its record.
    /// A class, so each level of a deep tree keeps one reference on the stack.
    @MainActor
    private final class SublayerPass {
        let sublayers: [Layer]
        let passed: Inputs
        let children: [ObjectIdentifier]
        let same: Bool
        var seen: SeenSublayers

        /// Moves the record's arrays here (left in the record too they would be
        /// copied on the first change: thousands of entries a frame).
        init(_ layer: Layer, _ below: Below, takingArraysFrom record: inout Record?) {
            let old = record
            record?.seen = SeenSublayers()
            sublayers = layer.sublayers
            passed = Inputs(parent: ObjectIdentifier(layer), transform: below.transform, opacity: below.opacity, ancestry: below.ancestry,
                            index: 0, inProjection: below.inProjection, shadowSpread: below.shadowSpread)
            let n = sublayers.count
            children = old?.children ?? []
            same = old?.passedDown == passed && children.count == n && old?.seen.count == n
            seen = same ? old!.seen : SeenSublayers(count: n)
        }

        func isUnchanged(_ i: Int, _ s: Layer, animated: Set<ObjectIdentifier>) -> Bool {
            let id = ObjectIdentifier(s)
            return same && children[i] == id && seen.versions[i] == s.subtreeVersion && (animated.isEmpty || !animated.contains(id))
        }

        func inputs(_ i: Int) -> Inputs {
            var given = passed
            given.index = i
            return given
        }

        func note(_ i: Int, _ s: Layer, bounds b: Rect?) {
            seen.note(i, s, bounds: b)
        }

        func store(in record: inout Record?) {
            record?.passedDown = passed
            record?.seen = seen
        }
    }

    /// True when the layer's subtree is as last seen, with the same inputs, and nothing in it animates.
    @inline(never)
    private func isUnchanged(_ layer: Layer, _ inputs: Inputs, animated: Set<ObjectIdentifier>) -> Bool {
        let id = ObjectIdentifier(layer)
        guard let old = records[id] else { return false }
        return old.inputs == inputs && old.subtreeVersion == layer.subtreeVersion && !animated.contains(id)
    }

    /// Records the sublayers seen under the layer now; those it had before and no
    /// longer has are forgotten. (`look` recorded the rest.)
    @inline(never)
    private func remember(_ layer: Layer, drewSublayers: Bool, into rects: inout [Rect]) {
        let id = ObjectIdentifier(layer)
        let before = records[id]?.children ?? []
        let sublayers = layer.sublayers
        guard drewSublayers && !sublayers.isEmpty || !before.isEmpty else { return }   // a leaf, then and now
        if drewSublayers && Self.same(sublayers, before) { return }
        let children = drewSublayers ? sublayers.map(ObjectIdentifier.init) : []
        let kept = Set(children)
        for child in before where !kept.contains(child) { forget(child, parent: id, into: &rects) }
        records[id]?.children = children
    }

    /// True when `layers` are `ids`, in order (a plain loop: no array is made).
    nonisolated static func same(_ layers: [Layer], _ ids: [ObjectIdentifier]) -> Bool {
        guard layers.count == ids.count else { return false }
        for i in ids.indices where ObjectIdentifier(layers[i]) != ids[i] { return false }
        return true
    }

    /// Everything the subtree under `id` drew at the last pass (unclipped), found
    /// from the records without recursion.
    private func subtreeBounds(_ id: ObjectIdentifier) -> Rect? {
        var union: Rect?
        var stack = [id]
        while let next = stack.popLast() {
            guard let r = records[next] else { continue }
            if let b = r.drawing?.bounds { union = union.map { $0.union(b) } ?? b }
            stack += r.children
        }
        return union
    }

    /// A subtree gone from under `parent`: its old bounds are damaged and its records
    /// dropped (unless the layer has moved elsewhere and was seen there this pass).
    private func forget(_ id: ObjectIdentifier, parent: ObjectIdentifier?, into rects: inout [Rect]) {
        guard let r = records[id], r.inputs.parent == parent else { return }
        records[id] = nil
        backdrops[id] = nil
        if let b = r.drawing?.bounds { rects.append(b) }
        for child in r.children { forget(child, parent: id, into: &rects) }
    }

    /// What a layer passes down to its sublayers; nil when it draws nothing.
    private struct Below {
        let presentation: Layer
        let transform: AffineTransform
        let opacity: Double
        let ancestry: Int
        let inProjection: Bool
        let shadowSpread: Double
    }

    /// One layer's drawing, compared with the last: a change damages the old and the
    /// new bounds. Returns what the layer passes down; nil when it draws nothing.
    @inline(never)
    private func look(_ layer: Layer, _ inputs: Inputs, parentPresentation: Layer?, time: Double, animated: Set<ObjectIdentifier>,
                      into rects: inout [Rect]) -> Below? {
        let id = ObjectIdentifier(layer)
        let (drawing, below) = measure(layer, inputs, parentPresentation: parentPresentation, time: time, animated: animated)
        let old = records[id]
        if drawing != old?.drawing {
            if let b = old?.drawing?.bounds { rects.append(b) }
            if let b = drawing?.bounds { rects.append(b) }
            // What clips the sublayers changed: all they drew is damaged.
            let clipsChanged = old?.drawing != nil && drawing != nil && old?.drawing?.clips != drawing?.clips
            let masked = old?.drawing?.masked == true || drawing?.masked == true
            if clipsChanged || masked, let b = subtreeBounds(id) { rects.append(b) }
        }
        records[id] = Record(inputs: inputs, subtreeVersion: layer.subtreeVersion, drawing: drawing, children: old?.children ?? [],
                             passedDown: old?.passedDown, seen: old?.seen ?? SeenSublayers())
        if let b = layer as? BackdropLayer {
            let shown = b.hasAnimations ? (presentations[id] as? BackdropLayer ?? b) : b
            let sigma = min(200, shown.blurRadius / 2 * DisplayListBuilder.deviceScale(drawing?.transform ?? .identity))
            backdrops[id] = drawing.map { ($0.bounds, Double(ShadowBlur.reach(sigma: sigma)) + 2 * 8 + 2) }
        }
        return below
    }

    /// What a layer draws with and passes down.
    private func measure(_ layer: Layer, _ inputs: Inputs, parentPresentation parent: Layer?, time: Double,
                         animated animatedLayers: Set<ObjectIdentifier>) -> (Drawing?, Below?) {
        let p: Layer
        if layer.hasAnimations {
            p = layer.presentation(atTime: time)
            presentations[ObjectIdentifier(layer)] = p
        } else {
            p = layer
        }
        guard !p.isHidden, p.opacity > 0 else { return (nil, nil) }
        let full = Layer.transform3D(of: p, in: parent).concatenating(Transform3D(inputs.transform))
        let m = full.affineTransform
        guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite else { return (nil, nil) }
        // A transition also draws the state before the change, whose sublayers may be
        // gone from the tree, and a projected layer (and all in its plane) is warped:
        // either may touch anything.
        let projected = DisplayListBuilder.isProjective(full) || inputs.inProjection
        let bounds = p.activeTransition == nil && !projected
            ? Self.deviceBounds(p, m, time: time).insetBy(dx: -inputs.shadowSpread, dy: -inputs.shadowSpread).intersection(Self.everywhere)
            : Self.everywhere
        // A mask clips by everything in it: one whose sublayers animate (the set holds
        // every layer with an animation at or below it) changes the clip every frame.
        let animated = layer.hasAnimations || (p.modelMask.map { animatedLayers.contains(ObjectIdentifier($0)) } ?? false)
        if p is ReplicatorLayer || p is TransformLayer || p.shouldRasterize, !layer.sublayers.isEmpty {
            return (wholeSubtreeDrawing(p, model: layer, inputs, full: full, m, bounds: bounds, time: time,
                                        animated: animatedLayers.contains(ObjectIdentifier(layer))), nil)
        }
        let drawing = Drawing(bounds: bounds, transform: m, opacity: inputs.opacity * p.opacity, modelVersion: layer.modelVersion,
                              maskVersion: p.modelMask?.subtreeVersion ?? 0, time: animated ? time : 0,
                              transitionPass: p.activeTransition == nil ? 0 : passes, clips: p.masksToBounds, masked: p.modelMask != nil)
        // Sublayers redraw when anything above them changed (their ancestry).
        var ancestry = Hasher()
        ancestry.combine(inputs.ancestry)
        ancestry.combine(layer.modelVersion)
        ancestry.combine(layer.hasAnimations ? time : 0)
        return (drawing, Below(presentation: p, transform: m, opacity: inputs.opacity * p.opacity, ancestry: ancestry.finalize(),
                               inProjection: projected, shadowSpread: inputs.shadowSpread + Self.contentShadowSpread(p, m)))
    }

    /// How far (device pixels) a layer's shadow spreads what its sublayers draw: a
    /// shadow without `shadowPath` is cast by the sublayers too, moved by the offset
    /// and blurred (as `DisplayListBuilder` draws it).
    static func contentShadowSpread(_ p: Layer, _ m: AffineTransform) -> Double {
        guard p.shadowPath == nil, DisplayListBuilder.drawnShadowColor(p) != nil else { return 0 }
        let (_, reach) = DisplayListBuilder.shadowBlur(p, m)
        let (ox, oy) = DisplayListBuilder.shadowOffset(p, m)
        return min(1e9, max(abs(ox), abs(oy)) + reach + 1)
    }

    /// Everything the layer itself can touch on the device, with a pixel of slack
    /// for anti-aliasing.
    static func deviceBounds(_ p: Layer, _ m: AffineTransform, time: Double) -> Rect {
        let local = DisplayListBuilder.ownExtent(p, time: time)
        var device = local.applying(m)
        if DisplayListBuilder.drawnShadowColor(p) != nil {
            // As drawn: the source moved by the device offset, blurred the same in
            // every direction (a squashed layer's shadow still spreads sideways).
            let (_, reach) = DisplayListBuilder.shadowBlur(p, m)
            let (ox, oy) = DisplayListBuilder.shadowOffset(p, m)
            let source = (p.shadowPath?.boundingBox ?? local).applying(m)
            device = device.union(source.offsetBy(dx: ox, dy: oy).insetBy(dx: -reach, dy: -reach))
        }
        device = device.insetBy(dx: -1, dy: -1)
        // Bounds this far out have lost their far edge to rounding (an origin of
        // −10³⁰⁸ leaves nothing of a width's last hundred points; found by the
        // fuzzer): they count as everywhere.
        let reliable = [local.minX, local.minY, local.maxX, local.maxY].allSatisfy { abs($0) < 1e15 }
            && [device.minX, device.minY, device.maxX, device.maxY].allSatisfy { abs($0) < 1e8 }
        return reliable ? device : everywhere
    }

    /// Bounds that touch every pixel any target can have.
    static let everywhere = Rect(x: -1e9, y: -1e9, width: 2e9, height: 2e9)
}
