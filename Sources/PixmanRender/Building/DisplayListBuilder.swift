import CPixman
import Glibc
import LayerKit

/// Turns a layer tree into the display list of a frame, as Core Animation draws
/// it (rules R1–R5):
/// each layer's background (rounded by `cornerRadius`), its contents, its
/// sublayers in `zPosition` then insertion order, then its border; `opacity` as
/// group opacity; `masksToBounds` clipping to the rounded bounds; hidden layers
/// skipped; every value taken from the presentation at the frame's time.
///
/// Transitions draw the state before the change and after it (rule G2); shadows
/// are blurred copies of the layer's alpha (or `shadowPath`); `mask` layers clip
/// by their alpha; `ShapeLayer` paths are filled and stroked; projective
/// transforms (perspective, turns about x or y) warp the layer's plane, and
/// `isDoubleSided = false` hides a back-facing layer.
///
/// Everything that reads layers happens here, on the main actor; the list it
/// makes holds plain values, and `DisplayListPlayer` draws it on any thread.
@MainActor
struct DisplayListBuilder {
    /// The frame's device pixels.
    let frame: PixelBox
    /// Device pixels per layer unit.
    let scale: Double
    /// Root media time of the frame (a replicator's delayed copy: earlier).
    var time: Double
    let contents: ContentsCache
    let aligned: AlignedShapes
    let shadows: ShadowCache
    let shapes: ShapeCoverageCache
    /// Items of still leaves from earlier frames (nil: built every time).
    var leaves: LeafItemCache? = nil
    /// Bitmaps of rasterized layers from earlier frames (nil: drawn every time).
    var rasters: RasterCache? = nil
    /// The opacity of ancestors that apply it to each sublayer on its own
    /// (`allowsGroupOpacity` false), multiplied into every layer drawn.
    var inheritedOpacity = 1.0
    /// The damage pass of this frame: its presentation copies are reused, and the
    /// bounds it knows let leaves outside the repainted area be skipped unread.
    var damage: DamageTracker? = nil
    /// The area being repainted, when not everything is: layers without
    /// sublayers that cannot touch it are skipped.
    var repaintArea: Rect? = nil

    /// Inside a transition's old state: the layers being drawn on the way down. The
    /// state before a change names sublayers that may since have been moved above
    /// the layer (even the tree's root under one of them); a layer met again on
    /// its own way down is not drawn again, so such a loop ends.
    final class WayDown {
        var layers: Set<ObjectIdentifier> = []
    }
    var snapshotPath: WayDown? = nil

    /// The items of the lists enclosing the one being built (a group's content is
    /// built apart, then composited over them): with it, everything drawn before
    /// a backdrop layer in the frame.
    final class Enclosing {
        var levels: [[DisplayItem]] = []
    }
    var enclosing = Enclosing()

    /// Layers deeper than this below the root are not drawn: each level of drawing
    /// takes a few kilobytes of stack in a debug build, and the main thread has 8 MiB.
    static let maximumDepth = 1024

    func build(_ root: Layer) -> [DisplayItem] {
        var items: [DisplayItem] = []
        draw(root, parent: nil, parentTransform: AffineTransform(scaleX: scale, y: scale), into: &items, depth: 0)
        return items
    }

    private func draw(_ layer: Layer, parent: Layer?, parentTransform: AffineTransform, into items: inout [DisplayItem], depth: Int) {
        guard depth < Self.maximumDepth else { return }   // deeper trees are cut off rather than overflowing the stack
        if let path = snapshotPath {
            guard path.layers.insert(ObjectIdentifier(layer)).inserted else { return }
            defer { path.layers.remove(ObjectIdentifier(layer)) }
            drawLayer(layer, parent: parent, parentTransform: parentTransform, into: &items, depth: depth)
        } else {
            drawLayer(layer, parent: parent, parentTransform: parentTransform, into: &items, depth: depth)
        }
    }

    /// The parent's map to the device in full, for a layer kept in 3D or a
    /// replicator's copy: it stands for the flattened `parentTransform`. (A class:
    /// every level of drawing passes one, nil but for such layers, and a reference
    /// costs the stack 8 bytes where the matrix would cost 136.)
    final class ParentMap {
        let transform: Transform3D
        init(_ transform: Transform3D) { self.transform = transform }
    }

    /// `layer` and its subtree under a parent whose map to the device is `parent3D`.
    func draw(_ layer: Layer, parent: Layer, parent3D: Transform3D, into items: inout [DisplayItem], depth: Int) {
        guard depth < Self.maximumDepth else { return }
        if let path = snapshotPath {
            guard path.layers.insert(ObjectIdentifier(layer)).inserted else { return }
            defer { path.layers.remove(ObjectIdentifier(layer)) }
        }
        buildLayer(layer, parent: parent, parentTransform: .identity, parentMap: ParentMap(parent3D), into: &items, depth: depth)
    }

    private func drawLayer(_ layer: Layer, parent: Layer?, parentTransform: AffineTransform, into items: inout [DisplayItem], depth: Int) {
        if layer.sublayers.isEmpty, let area = repaintArea, let known = damage?.bounds(of: layer), !known.intersects(area) { return }
        // (Under an opacity handed down by an ancestor, items hold it: no record of the leaf says so.)
        guard let leaves, snapshotPath == nil, inheritedOpacity == 1,
              let key = LeafItemCache.key(layer, parent: parent, parentTransform: parentTransform, frame: frame, scale: scale) else {
            return buildLayer(layer, parent: parent, parentTransform: parentTransform, into: &items, depth: depth)
        }
        switch leaves.use(for: layer, key: key) {
        case .reuse(let kept):
            items += kept
        case .build:
            buildLayer(layer, parent: parent, parentTransform: parentTransform, into: &items, depth: depth)
        case .buildAndKeep:
            var built: [DisplayItem] = []
            buildLayer(layer, parent: parent, parentTransform: parentTransform, into: &built, depth: depth)
            leaves.keep(built, for: layer)
            items += built
        }
    }

    private func buildLayer(_ layer: Layer, parent: Layer?, parentTransform: AffineTransform, parentMap: ParentMap? = nil,
                            into items: inout [DisplayItem], depth: Int) {
        let p: Layer = layer.hasAnimations ? (damage?.presentations[ObjectIdentifier(layer)] ?? layer.presentation(atTime: time)) : layer
        guard !p.isHidden, p.opacity > 0 else { return }
        if p !== layer, layer.animatesDisplayedContent { redisplay(p) }
        let full = Layer.transform3D(of: p, in: parent).concatenating(parentMap?.transform ?? Transform3D(parentTransform))
        if p is TransformLayer {
            drawInDepth(Self.depthEntries(below: layer, p, full: full, time: time, depth: depth), into: &items, depth: depth)
            return
        }
        if Self.isProjective(full) {
            drawInPerspective(p, layer: layer, transform: full, into: &items, depth: depth)
            return
        }
        let m = full.affineTransform
        guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite, m.a * m.d - m.b * m.c != 0 else { return }
        // Seen from behind (its picture mirrored: a half turn about x or y, with or
        // without perspective): a single-sided layer is not drawn.
        if !p.isDoubleSided && m.a * m.d - m.b * m.c < 0 { return }

        if layer.sublayers.isEmpty, p.activeTransition == nil, let area = repaintArea,
           !DamageTracker.deviceBounds(p, m, time: time).intersects(area) {
            return
        }
        // The damage pass's record of the sublayers, when it describes them: ordered
        // and culled from its arrays, without a look at each sublayer.
        let model = layer.sublayers
        let recorded = model.isEmpty ? nil : damage?.sublayers(of: layer)
        let sublayers = recorded.map { $0.inZOrder && $0.describe(model) } == true ? model : Self.drawingOrder(model)
        if let transition = p.activeTransition, let snapshot = transition.snapshot {
            return drawUnculled(transition, snapshot, p, layer: layer, sublayers: sublayers, transform: m, into: &items, depth: depth)
        }
        if p.shouldRasterize, drawRasterized(p, layer: layer, sublayers: sublayers, transform: m, into: &items, depth: depth) { return }
        let clips = p.masksToBounds && (!sublayers.isEmpty || p.contents != nil)
        let opacity = p.opacity * inheritedOpacity
        let apart = !p.allowsGroupOpacity && p.opacity < 1 && !clips && p.modelMask == nil && !sublayers.isEmpty
        let needsGroup = clips || (opacity < 1 && !apart
                                   && (!sublayers.isEmpty || p.contents != nil || p.borderWidth > 0 || p is ShapeLayer || p is GradientLayer))

        if let color = Self.drawnShadowColor(p) {
            drawShadow(p, layer: layer, sublayers: sublayers, transform: m, color: color, into: &items, depth: depth)
        }
        // A translucent card — background and border, nothing else — on whole pixels
        // needs no group the size of the layer (see AlignedShapes.translucentCard).
        if needsGroup, !clips, p.modelMask == nil, sublayers.isEmpty, p.contents == nil, !(p is ShapeLayer), !(p is GradientLayer),
           let bg = p.backgroundColor, let bd = p.borderColor, p.borderWidth > 0,
           !needsEdgeCut(p, m), let pixels = aligned.pixelRect(p, m),
           let card = aligned.translucentCard(pixels, background: bg, border: bd, opacity: opacity) {
            items += card
            return
        }
        if needsGroup || p.modelMask != nil {
            drawGroup(p, layer: layer, sublayers: sublayers, transform: m, clips: clips, into: &items, depth: depth)
        } else if apart {
            drawApart(p, layer: layer, sublayers: sublayers, transform: m, opacity: opacity, into: &items, depth: depth)
        } else {
            drawContent(p, layer: layer, sublayers: sublayers, transform: m, opacity: opacity, into: &items, depth: depth)
        }
    }

    /// A translucent layer whose opacity is not a group's (`allowsGroupOpacity`
    /// false): it and each sublayer drawn at it on their own.
    @inline(never)
    private func drawApart(_ p: Layer, layer: Layer, sublayers: [Layer], transform m: AffineTransform, opacity: Double,
                           into items: inout [DisplayItem], depth: Int) {
        var each = self
        each.inheritedOpacity = opacity
        each.drawContent(p, layer: layer, sublayers: sublayers, transform: m, opacity: opacity, into: &items, depth: depth)
    }

    /// A transition's states (rule G2), moved, turned, and (the old one) with the
    /// layer's values before the change: where the damage pass saw a sublayer says
    /// nothing of where it lands in them, so none is left out. (Apart from
    /// `buildLayer`, as is `drawGroup`: their locals would cost every level of a
    /// deep tree stack.)
    @inline(never)
    private func drawUnculled(_ transition: TransitionState, _ snapshot: LayerSnapshot, _ p: Layer, layer: Layer, sublayers: [Layer],
                              transform m: AffineTransform, into items: inout [DisplayItem], depth: Int) {
        var unculled = self
        unculled.repaintArea = nil
        if unculled.snapshotPath == nil {
            unculled.snapshotPath = WayDown()
            unculled.snapshotPath!.layers.insert(ObjectIdentifier(layer))
        }
        unculled.drawTransition(transition, snapshot, p, layer: layer, sublayers: sublayers, transform: m, into: &items, depth: depth)
    }

    /// The layer and its sublayers composited as one: group opacity, clipping, a mask.
    @inline(never)
    private func drawGroup(_ p: Layer, layer: Layer, sublayers: [Layer], transform m: AffineTransform, clips: Bool,
                           into items: inout [DisplayItem], depth: Int) {
        let box = PixelBox.covering(contentArea(p, m, clips: clips, hasSublayers: !sublayers.isEmpty), within: frame)
        guard !box.isEmpty else { return }
        var content: [DisplayItem] = []
        enclosing.levels.append(items)
        var inside = self
        inside.inheritedOpacity = 1   // the group as a whole takes it
        inside.drawContent(p, layer: layer, sublayers: sublayers, transform: m, opacity: 1, into: &content, depth: depth)
        enclosing.levels.removeLast()
        var mask: [DisplayItem]?
        if let maskLayer = p.modelMask, depth + 1 < Self.maximumDepth {   // masks nested deeper are ignored, not empty
            // The mask layer's alpha clips the layer (rule R3); it sits in the layer's coordinates.
            var maskItems: [DisplayItem] = []
            draw(maskLayer, parent: nil, parentTransform: m, into: &maskItems, depth: depth + 1)
            mask = maskItems
        }
        items.append(.group(Group(bounds: box, items: content, mask: mask, clip: clips ? bodyCoverage(p, m) : nil,
                                  opacity: p.opacity * inheritedOpacity)))
    }

    /// A layer whose map to the device is projective (perspective, turns about x or
    /// y): drawn flat into its own plane at device resolution, then warped by the
    /// projection (`pixman`'s projective transforms), through the projected outline.
    /// Its sublayers share its plane (flattened, as Core Animation does without a
    /// transform layer); what lies outside its bounds is not drawn. A layer with a
    /// corner at or behind the eye is skipped; so is a back-facing one whose
    /// `isDoubleSided` is false.
    private func drawInPerspective(_ p: Layer, layer: Layer, sublayers: [Layer]? = nil, transform t: Transform3D, opacity: Double? = nil,
                                   into items: inout [DisplayItem], depth: Int) {
        let b = p.bounds
        guard b.width > 0, b.height > 0 else { return }
        // Homogeneous map of the z = 0 plane: (x, y, 1) → (X, Y, W), row-vector form.
        let h = [[t.m11, t.m12, t.m14], [t.m21, t.m22, t.m24], [t.m41, t.m42, t.m44]]
        guard let corners = Self.projectedCorners(b, t) else { return }
        // Which way it faces: the projected outline's winding flips when seen from behind.
        var signedArea = 0.0
        for i in 0..<4 { signedArea += corners[i].x * corners[(i + 1) % 4].y - corners[(i + 1) % 4].x * corners[i].y }
        if signedArea < 0 && !p.isDoubleSided { return }
        let box = PixelBox.covering(Rect.boundingBox(of: corners), within: frame)
        guard !box.isEmpty else { return }
        // The plane at roughly device resolution (never more than the frame).
        let reach = max(box.width, box.height)
        let planeScale = min(max(1, Double(reach) / max(b.width, b.height)) * 1.25, 4 * scale)
        // A plane too large for one image (or with bounds past a double's range) is not drawn.
        let fw = (b.width * planeScale).rounded(.up), fh = (b.height * planeScale).rounded(.up)
        guard fw <= Double(1 << 15), fh <= Double(1 << 15) else { return }
        let pw = max(1, Int(fw)), ph = max(1, Int(fh))
        guard pw * ph <= 16_384 * 4_096 else { return }
        let toPlane = AffineTransform(translationX: -b.minX, y: -b.minY).concatenating(AffineTransform(scaleX: planeScale, y: planeScale))
        var planeItems: [DisplayItem] = []
        // The plane is drawn whole (no repaint area), reusing the frame's presentation copies.
        var inPlane = DisplayListBuilder(frame: PixelBox(x0: 0, y0: 0, x1: pw, y1: ph), scale: scale, time: time, contents: contents,
                                         aligned: aligned, shadows: shadows, shapes: shapes, damage: damage)
        inPlane.snapshotPath = snapshotPath
        inPlane.drawContent(p, layer: layer, sublayers: sublayers ?? Self.drawingOrder(layer.sublayers), transform: toPlane, opacity: 1,
                            into: &planeItems, depth: depth)
        // plane pixel (u, v) → layer point (u/s + minX, v/s + minY) → device via h. Invert for pixman.
        let s = planeScale
        let forward = [[h[0][0] / s, h[0][1] / s, h[0][2] / s],
                       [h[1][0] / s, h[1][1] / s, h[1][2] / s],
                       [h[2][0] + b.minX * h[0][0] + b.minY * h[1][0], h[2][1] + b.minX * h[0][1] + b.minY * h[1][1],
                        h[2][2] + b.minX * h[0][2] + b.minY * h[1][2]]]
        guard let inverse = Self.invert3(forward) else { return }
        // pixman multiplies column vectors: its matrix is the transpose of the row form.
        // A projective matrix means the same at any scale: scaled so its largest entry
        // is 256 and w is positive where the layer is (w at the device origin can have
        // the other sign: scaling w there to 1 turned a layer at −72° about y dim).
        let largest = inverse.joined().map(abs).max() ?? 0
        guard largest.isFinite, largest > 0 else { return }
        let centre = Rect.boundingBox(of: corners)
        let w = centre.midX * inverse[0][2] + centre.midY * inverse[1][2] + inverse[2][2]
        let scaleBy = (w < 0 ? -largest : largest) / 256
        guard w.isFinite, w != 0 else { return }
        var pt = pixman_transform_t()
        func f(_ v: Double) -> pixman_fixed_t { pixmanFixed(v / scaleBy) }
        pt.matrix.0 = (f(inverse[0][0]), f(inverse[1][0]), f(inverse[2][0]))
        pt.matrix.1 = (f(inverse[0][1]), f(inverse[1][1]), f(inverse[2][1]))
        pt.matrix.2 = (f(inverse[0][2]), f(inverse[1][2]), f(inverse[2][2]))
        items.append(.plane(Plane(width: pw, height: ph, items: planeItems,
                                  sampling: ImageSampling(transform: pt, filter: PIXMAN_FILTER_BILINEAR, repeatMode: PIXMAN_REPEAT_NONE),
                                  coverage: coverage(corners), opacity: opacity ?? p.opacity * inheritedOpacity)))
    }

    /// The corners of `b` (in the z = 0 plane) on the device under the projective map
    /// `t`; nil when one is at or behind the eye.
    static func projectedCorners(_ b: Rect, _ t: Transform3D) -> [Point]? {
        var out: [Point] = []
        for q in b.corners {
            let w = q.x * t.m14 + q.y * t.m24 + t.m44
            guard w > 1e-6, w.isFinite else { return nil }
            out.append(Point(x: (q.x * t.m11 + q.y * t.m21 + t.m41) / w, y: (q.x * t.m12 + q.y * t.m22 + t.m42) / w))
        }
        return out
    }

    /// True when the map of the z = 0 plane needs a perspective divide (depth alone
    /// only matters for ordering, and turns about x or y without perspective are affine).
    static func isProjective(_ t: Transform3D) -> Bool {
        t.m14 != 0 || t.m24 != 0 || t.m44 != 1
    }

    /// The inverse of a 3×3 matrix, or nil when it is singular.
    static func invert3(_ m: [[Double]]) -> [[Double]]? {
        let (a, b, c) = (m[0][0], m[0][1], m[0][2]), (d, e, f) = (m[1][0], m[1][1], m[1][2]), (g, h, i) = (m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard abs(det) > 1e-300, det.isFinite else { return nil }
        return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
                [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }

    /// The device area a layer can draw into: its outline (and contents) when it
    /// clips or has no sublayers, else the whole canvas.
    private func contentArea(_ p: Layer, _ m: AffineTransform, clips: Bool, hasSublayers: Bool) -> Rect {
        if !clips && hasSublayers {
            return Rect(x: Double(frame.x0), y: Double(frame.y0), width: Double(frame.width), height: Double(frame.height))
        }
        return Self.ownExtent(p, withShape: !clips, time: time).applying(m)
    }

    /// What a layer draws itself, in its own coordinates: its bounds, its contents
    /// as placed by gravity, an emitter's particles at `time`, and (`withShape`) a
    /// shape's path with the stroke's reach — half the line width, more at miters.
    /// Not its shadow or sublayers.
    static func ownExtent(_ p: Layer, withShape: Bool = true, time: Double) -> Rect {
        var local = p.bounds
        // An emitter's particles, where they are at the time.
        if let e = p as? EmitterLayer, let reach = e.particleExtent(atTime: time) { local = local.union(reach) }
        if let image = p.contents { local = local.union(contentsFrame(p, imageSize: image.size)) }
        if withShape, let shape = p as? ShapeLayer, let path = shape.path {
            // An infinite reach made a null rectangle, which the union dropped: the
            // shape counted as its bounds alone and went uncounted in damage (found by
            // the fuzzer). Past 10¹⁵ points a reach is as good as everywhere.
            let reach = min(1e15, max(0, shape.lineWidth) * max(1, shape.miterLimit))
            local = local.union(path.boundingBox.insetBy(dx: -reach, dy: -reach))
        }
        return local
    }

    /// The indices of `sublayers` to draw: every one, unless the damage pass saw
    /// them in this order — then the leaves whose drawing misses the repaint area
    /// are left out (a sublayer with sublayers of its own is always drawn: they may
    /// draw outside it). Nil: every one.
    @inline(never)
    private func sublayersToDraw(_ layer: Layer, _ sublayers: [Layer]) -> [Int]? {
        guard let area = repaintArea, !sublayers.isEmpty, let known = damage?.sublayers(of: layer), known.describe(sublayers) else { return nil }
        var drawn: [Int] = []
        for i in known.bounds.indices {
            // (Rect.intersects, unrolled: a thousand siblings are compared each frame.)
            if known.isLeaf[i], let b = known.bounds[i],
               !(b.minX < area.maxX && area.minX < b.maxX && b.minY < area.maxY && area.minY < b.maxY) { continue }
            drawn.append(i)
        }
        return drawn
    }

    /// The layer's shadow, under it: the alpha of `shadowPath` or else of the layer
    /// itself, blurred by `shadowRadius` (σ = radius / 2), moved by `shadowOffset`,
    /// in `shadowColor` at `shadowOpacity` (and the layer's opacity).
    private func drawShadow(_ p: Layer, layer: Layer, sublayers: [Layer], transform m: AffineTransform, color: Color,
                            into items: inout [DisplayItem], depth: Int) {
        let (sigma, margin) = Self.shadowBlur(p, m)
        let (ox, oy) = Self.shadowOffset(p, m)
        let moved = m.concatenating(AffineTransform(translationX: ox, y: oy))
        var source: [DisplayItem] = []
        let area: Rect
        if let path = p.shadowPath {
            let polygons = path.polylines.applying(moved)
            area = Rect.boundingBox(of: polygons.flatMap { $0 })
            source.append(.coverage(Coverage(PolygonFill.trapezoids(polygons, evenOdd: false), within: frame), pixmanColor(.white)))
        } else {
            area = contentArea(p, moved, clips: false, hasSublayers: !sublayers.isEmpty)
            // What casts shadow into the repainted area lies up to the blur's reach
            // around it, against the offset: sublayers there are drawn even when
            // they themselves are outside the area.
            var casting = self
            casting.repaintArea = repaintArea?.offsetBy(dx: -ox, dy: -oy).insetBy(dx: -margin, dy: -margin)
            casting.drawContent(p, layer: layer, sublayers: sublayers, transform: moved, opacity: 1, into: &source, depth: depth)
        }
        let box = PixelBox.covering(area.insetBy(dx: -margin, dy: -margin), within: frame)
        guard !box.isEmpty else { return }
        items.append(.shadow(shadows.shadow(bounds: box, source: source, sigma: sigma, color: pixmanColor(color, alpha: p.shadowOpacity * p.opacity * inheritedOpacity))))
    }

    /// Sublayers in `zPosition`, then insertion order (rule R1).
    static func drawingOrder(_ layers: [Layer]) -> [Layer] {
        var last = -Double.infinity, inOrder = true
        for l in layers {
            if l.zPosition < last { inOrder = false; break }
            last = l.zPosition
        }
        if inOrder { return layers }   // the usual case: nothing to sort
        return layers.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }

    /// A transition (rule G2): the state before the change and the state after it,
    /// each moved and faded as the transition says, within the layer's bounds.
    private func drawTransition(_ t: TransitionState, _ snapshot: LayerSnapshot, _ p: Layer, layer: Layer, sublayers: [Layer],
                                transform m: AffineTransform, into items: inout [DisplayItem], depth: Int) {
        var states: [DisplayItem] = []
        for old in t.oldOnTop ? [false, true] : [true, false] {
            let offset = old ? t.oldOffset : t.newOffset
            let opacity = old ? t.oldOpacity : t.newOpacity
            guard opacity > 0 else { continue }
            let moved = AffineTransform(translationX: offset.width, y: offset.height).concatenating(m)
            var state: [DisplayItem] = []
            if let turn = old ? t.oldTransform : t.newTransform {
                // A flip: the state drawn in its own plane, turned in perspective.
                let (stateLayer, stateSublayers) = old ? (snapshot.layer, Self.drawingOrder(snapshot.sublayers)) : (p, sublayers)
                drawInPerspective(stateLayer, layer: old ? snapshot.layer : layer, sublayers: stateSublayers,
                                  transform: turn.concatenating(Transform3D(moved)), opacity: 1, into: &state, depth: depth)
            } else if old {
                drawContent(snapshot.layer, layer: snapshot.layer, sublayers: Self.drawingOrder(snapshot.sublayers),
                            transform: moved, opacity: 1, into: &state, depth: depth)
            } else {
                drawContent(p, layer: layer, sublayers: sublayers, transform: moved, opacity: 1, into: &state, depth: depth)
            }
            if opacity < 1 {
                // A fade is a cross-dissolve: the two states' weights add up to one.
                states.append(.group(Group(bounds: frame, items: state, opacity: opacity, op: t.type == .fade ? PIXMAN_OP_ADD : PIXMAN_OP_OVER)))
            } else {
                states += state
            }
        }
        let clip = t.type == .fade || t.type == .flip ? nil : coverage(outline(p, m))
        items.append(.group(Group(bounds: frame, items: states, clip: clip, opacity: p.opacity * inheritedOpacity)))
    }

    /// The layer itself and its sublayers: what is under the sublayers, the
    /// sublayers, what is over them. The drawing is in helpers, so each level of a
    /// deep tree costs little stack.
    func drawContent(_ p: Layer, layer: Layer, sublayers: [Layer], transform m: AffineTransform, opacity: Double,
                     into items: inout [DisplayItem], depth: Int) {
        drawUnderSublayers(p, transform: m, opacity: opacity, into: &items)
        if let replicator = p as? ReplicatorLayer {
            drawCopies(replicator, sublayers: sublayers, transform: m, into: &items, depth: depth)
        } else if let drawn = sublayersToDraw(layer, sublayers) {
            for i in drawn { draw(sublayers[i], parent: p, parentTransform: m, into: &items, depth: depth + 1) }
        } else {
            for s in sublayers { draw(s, parent: p, parentTransform: m, into: &items, depth: depth + 1) }
        }
        drawOverSublayers(p, transform: m, opacity: opacity, into: &items)
    }

    /// Background, contents and a shape layer's path.
    @inline(never)
    private func drawUnderSublayers(_ p: Layer, transform m: AffineTransform, opacity: Double, into items: inout [DisplayItem]) {
        if let backdrop = p as? BackdropLayer { drawBackdrop(backdrop, transform: m, into: &items) }
        if let bg = p.backgroundColor, bg.alpha > 0 {
            let color = pixmanColor(bg, alpha: opacity)
            if !needsEdgeCut(p, m), let pixels = aligned.pixelRect(p, m), let fast = aligned.fill(pixels, border: 0, color: color) {
                items += fast
            } else {
                items.append(.coverage(bodyCoverage(p, m), color))
            }
        }
        if let gradient = p as? GradientLayer {
            let area = bodyCoverage(p, m)
            if !area.bounds.isEmpty, let paint = GradientPaint(gradient, transform: m, opacity: opacity, sampling: area.bounds) {
                items.append(.gradient(paint, area))
            }
        }
        if let image = p.contents {
            drawContents(image, of: p, transform: m, into: &items)
        }
        if let shape = p as? ShapeLayer {
            drawShape(shape, transform: m, opacity: opacity, into: &items)
        }
        if let emitter = p as? EmitterLayer {
            drawParticles(emitter, transform: m, opacity: opacity, into: &items)
        }
    }

    /// The border, over the sublayers.
    @inline(never)
    private func drawOverSublayers(_ p: Layer, transform m: AffineTransform, opacity: Double, into items: inout [DisplayItem]) {
        guard p.borderWidth > 0, let color = p.borderColor, color.alpha > 0 else { return }
        let c = pixmanColor(color, alpha: opacity)
        if !needsEdgeCut(p, m), let pixels = aligned.pixelRect(p, m), let fast = aligned.fill(pixels, border: pixels.bw, color: c) {
            items += fast
        } else {
            items.append(.coverage(border(p, m), c))
        }
    }

    /// A shape layer's path (in its coordinates): filled by its rule, then stroked,
    /// trimmed to `strokeStart…strokeEnd`, with its caps and joins.
    private func drawShape(_ shape: ShapeLayer, transform m: AffineTransform, opacity: Double, into items: inout [DisplayItem]) {
        guard let path = shape.path else { return }
        // Shapes that reach far outside the target are clipped to it first (and not
        // cached: what is kept depends on where the target is).
        let area = clipArea
        let device = path.polylines.applying(m)
        let clipped = PolygonClip.needsClipping(device, to: area)
        // Far-reaching shapes are flattened where they can be seen, in device space
        // (a flattening made for the whole shape may miss the view by far).
        let pad = shape.lineWidth * Self.deviceScale(m) * max(1, shape.miterLimit) + 2
        let visible = clipped ? VisibleFlattening.polylines(path, m, area: area, pad: pad) : []
        if let fill = shape.fillColor, fill.alpha > 0 {
            let evenOdd = shape.fillRule == .evenOdd
            let traps = clipped ? PolygonFill.trapezoids(PolygonClip.clip(visible, to: area), evenOdd: evenOdd)
                                : shapes.trapezoids(path, m, evenOdd: evenOdd, stroke: nil)
            items.append(.coverage(Coverage(traps, within: frame), pixmanColor(fill, alpha: opacity)))
        }
        if let stroke = shape.strokeColor, stroke.alpha > 0, shape.lineWidth > 0 {
            let style = ShapeCoverageCache.Stroke(width: shape.lineWidth, miterLimit: shape.miterLimit, start: shape.strokeStart,
                                                  end: shape.strokeEnd, cap: shape.lineCap, join: shape.lineJoin)
            let traps: [pixman_trapezoid_t]
            let det = m.a * m.d - m.b * m.c
            if clipped, det != 0, det.isFinite {
                let back = m.inverted()
                // Stroked in the layer's space (widths and joins as the layer sees them), from the visible flattening.
                let trimmed = Stroker.trim(visible.applying(back), start: style.start, end: style.end)
                let pieces = Stroker.outline(trimmed, width: style.width, cap: style.cap, join: style.join, miterLimit: style.miterLimit)
                traps = PolygonFill.trapezoids(PolygonClip.clip(pieces.applying(m), to: area), evenOdd: false)
            } else {
                traps = shapes.trapezoids(path, m, evenOdd: false, stroke: style)
            }
            items.append(.coverage(Coverage(traps, within: frame), pixmanColor(stroke, alpha: opacity)))
        }
    }

    /// The coverage of a convex device outline.
    func coverage(_ outline: [Point]) -> Coverage {
        Coverage(ShapeRasterizer.convex(outline), within: frame)
    }

    /// The coverage of the layer's rounded bounds: its background, its clip. Edges
    /// left out of `edgeAntialiasingMask` are not anti-aliased: on a map that keeps
    /// axes, square corners land them on whole pixels (`outline`); otherwise the
    /// coverage is cut hard along them (`edgeCut`).
    func bodyCoverage(_ p: Layer, _ m: AffineTransform) -> Coverage {
        guard needsEdgeCut(p, m) else { return coverage(outline(p, m)) }
        // Anti-aliased past the hard edges, then cut hard along them.
        var c = coverage(roundedBounds(p, m, widened: .all.subtracting(p.edgeAntialiasingMask)))
        c.hardCut = ShapeRasterizer.convex(roundedBounds(p, m, widened: p.edgeAntialiasingMask))
        return c
    }

    /// True when edges left out of `edgeAntialiasingMask` cannot land on whole pixels
    /// (`outline`): a turned map, or rounded corners.
    func needsEdgeCut(_ p: Layer, _ m: AffineTransform) -> Bool {
        p.edgeAntialiasingMask != .all && !(p.cornerRadius <= 0 && m.b == 0 && m.c == 0)
    }

    /// The rounded bounds in device space, pushed out four device pixels past the
    /// `widened` edges (so that they do not cut whatever they bound).
    func roundedBounds(_ p: Layer, _ m: AffineTransform, widened: EdgeAntialiasingMask) -> [Point] {
        let b = p.bounds, far = 4 / max(Self.deviceScale(m), 1e-9)
        let x0 = b.minX - (widened.contains(.minXEdge) ? far : 0), x1 = b.maxX + (widened.contains(.maxXEdge) ? far : 0)
        let y0 = b.minY - (widened.contains(.minYEdge) ? far : 0), y1 = b.maxY + (widened.contains(.maxYEdge) ? far : 0)
        let segments = ShapeRasterizer.segments(forRadius: p.cornerRadius, scale: Self.deviceScale(m))
        return ShapeRasterizer.roundedRect(Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0), radius: p.cornerRadius, segments: segments)
            .applying(m)
    }

    /// The layer's rounded bounds in device space. Edges left out of its
    /// `edgeAntialiasingMask` land on whole device pixels (square corners, a map that
    /// keeps axes: see `Layer.edgeAntialiasingMask`).
    func outline(_ p: Layer, _ m: AffineTransform) -> [Point] {
        if p.edgeAntialiasingMask != .all, p.cornerRadius <= 0, m.b == 0, m.c == 0 {
            let b = p.bounds, mask = p.edgeAntialiasingMask
            func snap(_ v: Double, _ keep: Bool) -> Double { keep ? v : v.rounded() }
            let x0 = snap(b.minX * m.a + m.tx, mask.contains(.minXEdge)), x1 = snap(b.maxX * m.a + m.tx, mask.contains(.maxXEdge))
            let y0 = snap(b.minY * m.d + m.ty, mask.contains(.minYEdge)), y1 = snap(b.maxY * m.d + m.ty, mask.contains(.maxYEdge))
            let r = Rect(x: min(x0, x1), y: min(y0, y1), width: abs(x1 - x0), height: abs(y1 - y0))
            return r.corners
        }
        let segments = ShapeRasterizer.segments(forRadius: p.cornerRadius, scale: Self.deviceScale(m))
        return ShapeRasterizer.roundedRect(p.bounds, radius: p.cornerRadius, segments: segments).applying(m)
    }

    /// Device pixels per layer unit along the transform's longer axis.
    static func deviceScale(_ m: AffineTransform) -> Double {
        max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
    }

    /// The colour of the shadow the layer draws; nil when it draws none (no
    /// opacity or colour, or clipped to its bounds).
    static func drawnShadowColor(_ p: Layer) -> Color? {
        guard p.shadowOpacity > 0, !p.masksToBounds, let color = p.shadowColor, color.alpha > 0 else { return nil }
        return color
    }

    /// A shadow's blur in device pixels — its σ and how far it reaches (with a
    /// margin) — the same in every direction: the radius at the longer axis's scale.
    /// The damage pass bounds shadows with it too.
    static func shadowBlur(_ p: Layer, _ m: AffineTransform) -> (sigma: Double, reach: Double) {
        let scaled = max(0, p.shadowRadius) * deviceScale(m) / 2
        let sigma = scaled.isNaN ? 0 : min(1e6, scaled)   // a degenerate scale blurs nothing; a huge one, at most everything
        return (sigma, Double(ShadowBlur.reach(sigma: sigma) + 2))
    }

    /// Where a shadow is drawn relative to its layer, in device pixels: the offset
    /// under the transform, in whole pixels (so the blur's input is the layer's own coverage).
    static func shadowOffset(_ p: Layer, _ m: AffineTransform) -> (x: Double, y: Double) {
        ((m.a * p.shadowOffset.width + m.c * p.shadowOffset.height).rounded(),
         (m.b * p.shadowOffset.width + m.d * p.shadowOffset.height).rounded())
    }

    /// The border's ring (width clamped to half the bounds), following the corners.
    /// A ring reaching far beyond the target is clipped to it first (as shapes are).
    /// Edges left out of `edgeAntialiasingMask` are hard on the outside (as `bodyCoverage`).
    private func border(_ p: Layer, _ m: AffineTransform) -> Coverage {
        let b = p.bounds
        let w = min(p.borderWidth, b.width / 2, b.height / 2)
        let segments = ShapeRasterizer.segments(forRadius: p.cornerRadius, scale: Self.deviceScale(m))
        let cut = needsEdgeCut(p, m)
        let outer = cut ? roundedBounds(p, m, widened: .all.subtracting(p.edgeAntialiasingMask))
                        : ShapeRasterizer.roundedRect(b, radius: p.cornerRadius, segments: segments).applying(m)
        let inner = ShapeRasterizer.roundedRect(b.insetBy(dx: w, dy: w), radius: max(0, p.cornerRadius - w), segments: segments)
            .applying(m)
        var ring = PolygonClip.needsClipping([outer, inner], to: clipArea)
            ? Coverage(PolygonFill.trapezoids(PolygonClip.clip([outer, inner], to: clipArea), evenOdd: true), within: frame)
            : Coverage(ShapeRasterizer.ring(outer: outer, inner: inner), within: frame)
        if cut { ring.hardCut = ShapeRasterizer.convex(roundedBounds(p, m, widened: p.edgeAntialiasingMask)) }
        return ring
    }

    /// The target with a margin, which far-reaching geometry is clipped to.
    private var clipArea: Rect {
        Rect(x: Double(frame.x0 - 2), y: Double(frame.y0 - 2), width: Double(frame.width + 4), height: Double(frame.height + 4))
    }

}
