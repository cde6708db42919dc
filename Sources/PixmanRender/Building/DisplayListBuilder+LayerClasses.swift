import CPixman
import LayerKit

/// What Core Animation's other layer classes, and rasterized layers, draw:
/// replicator copies, emitter particles, a backdrop's blur, contents redrawn for
/// animated keys, bitmaps of rasterized subtrees. (Gradients and shapes are drawn
/// with the layer's own content; transform layers in `+Depth`.)
extension DisplayListBuilder {
    /// A presentation copy whose animated keys redraw its contents
    /// (`Layer.needsDisplay(forKey:)`): its contents drawn now, from its own values.
    @inline(never)
    func redisplay(_ p: Layer) {
        guard let draw = Layer.backingStoreRenderer else { return }
        p.contents = draw(p)
    }

    /// A rasterized layer (`shouldRasterize`): the layer and its sublayers drawn into
    /// a bitmap of `rasterizationScale` pixels a point over their extent in the
    /// layer's coordinates (its bounds when it clips), kept while nothing in the
    /// subtree changes or animates (`RasterCache`), and drawn like a plane under the
    /// layer's transform, at its opacity, through the extent (rounded when it clips).
    /// A layer with a mask or a shadow, inside a transition's old state, or whose
    /// bitmap would pass 4,096 pixels a side, is drawn live. False when drawn live.
    @inline(never)
    func drawRasterized(_ p: Layer, layer: Layer, sublayers: [Layer], transform m: AffineTransform,
                        into items: inout [DisplayItem], depth: Int) -> Bool {
        guard snapshotPath == nil, p.modelMask == nil, Self.drawnShadowColor(p) == nil else { return false }
        let s = p.rasterizationScale
        let extent = p.masksToBounds ? p.bounds : rasterExtent(p, layer: layer, depth: depth)
        let (fw, fh) = ((extent.width * s).rounded(.up), (extent.height * s).rounded(.up))
        guard fw >= 1, fh >= 1, fw <= 4096, fh <= 4096 else { return false }
        let toPlane = AffineTransform(translationX: -extent.minX, y: -extent.minY).concatenating(AffineTransform(scaleX: s, y: s))
        let area = p.masksToBounds ? bodyCoverage(p, m) : coverage(extent.corners.applying(m))
        guard !area.bounds.isEmpty else { return true }
        guard let sampling = pixmanTransform(m.inverted().concatenating(toPlane), sampling: area.bounds) else { return false }
        let key = RasterCache.Key(p, layer: layer, scale: s, extent: extent)
        let animated = damage.map { $0.animatedOrAbove.contains(ObjectIdentifier(layer)) } ?? Self.animates(below: layer)
        let kept = animated ? nil : rasters?.image(for: layer, key: key)
        var planeItems: [DisplayItem] = []
        if kept == nil {
            var inPlane = DisplayListBuilder(frame: PixelBox(x0: 0, y0: 0, x1: Int(fw), y1: Int(fh)), scale: s, time: time, contents: contents,
                                             aligned: aligned, shadows: shadows, shapes: shapes)
            inPlane.drawContent(p, layer: layer, sublayers: sublayers, transform: toPlane, opacity: 1, into: &planeItems, depth: depth)
        }
        let plane = Plane(width: Int(fw), height: Int(fh), items: planeItems,
                          sampling: ImageSampling(transform: sampling, filter: PIXMAN_FILTER_BILINEAR, repeatMode: PIXMAN_REPEAT_NONE),
                          coverage: area, opacity: p.opacity * inheritedOpacity, image: kept)
        if kept == nil, !animated { rasters?.made(plane, for: layer, key: key) }
        items.append(.plane(plane))
        return true
    }

    /// What a layer and its sublayers draw, in its coordinates (shadows of sublayers aside).
    func rasterExtent(_ p: Layer, layer: Layer, depth: Int) -> Rect {
        var r = Self.ownExtent(p, time: time)
        guard depth < Self.maximumDepth, !p.masksToBounds || depth == 0 else { return r }
        for s in layer.sublayers {
            let ps = s.hasAnimations ? s.presentation(atTime: time) : s
            guard !ps.isHidden, ps.opacity > 0 else { continue }
            let t = Layer.transform3D(of: ps, in: p).affineTransform
            let below = ps.masksToBounds ? Self.ownExtent(ps, time: time) : rasterExtent(ps, layer: s, depth: depth + 1)
            r = r.union(below.applying(t))
        }
        return r
    }

    /// True when a layer at or below `layer` animates (without a damage pass, which knows).
    static func animates(below layer: Layer) -> Bool {
        var found = false
        AnimationTimeline.forEachAnimatedLayer { a in
            var l: Layer? = a
            while let x = l, !found {
                if x === layer { found = true }
                l = x.superlayer
            }
        }
        return found
    }

    /// A replicator's sublayers once per copy (`ReplicatorLayer.instances`): each copy
    /// built again under its transform, at its time, and tinted as a group. The
    /// damage pass bounds them all together (`DamageTracker.replicatedExtent`).
    @inline(never)
    func drawCopies(_ r: ReplicatorLayer, sublayers: [Layer], transform m: AffineTransform, into items: inout [DisplayItem],
                    depth: Int) {
        let device = Transform3D(m)
        if r.preservesDepth {
            return drawInDepth(Self.depthEntries(copiesOf: r, sublayers: sublayers, device: device, time: time, depth: depth),
                               into: &items, depth: depth)
        }
        var copy = self
        copy.leaves = nil
        copy.damage = nil   // its presentation copies are of the frame's time, and it saw no copy
        for instance in r.instances {
            if let tint = instance.tint, tint.alpha <= 0 { continue }
            copy.time = time - instance.delay
            let parent3D = instance.transform.concatenating(device)
            var drawn: [DisplayItem] = []
            for s in sublayers { copy.draw(s, parent: r, parent3D: parent3D, into: &drawn, depth: depth + 1) }
            guard let tint = instance.tint else { items += drawn; continue }
            let box = drawn.reduce(PixelBox.empty) { $0.union($1.bounds) }.intersection(frame)
            guard !box.isEmpty else { continue }
            items.append(.group(Group(bounds: box, items: drawn, opacity: 1, tint: pixmanColor(tint))))
        }
    }

    /// An emitter's live particles at the frame's time (`EmitterLayer.particles(atTime:)`).
    @inline(never)
    func drawParticles(_ e: EmitterLayer, transform m: AffineTransform, opacity: Double, into items: inout [DisplayItem]) {
        var sprites: [ParticleBatch.Sprite] = []
        for particle in e.particles(atTime: time) {
            guard let image = particle.contents, particle.color.alpha > 0, particle.scale > 0, image.width > 0, image.height > 0,
                  let shared = contents.sharedImage(for: image) else { continue }
            // image pixels → layer: centred on the particle, scaled, turned.
            let toLayer = AffineTransform(translationX: -Double(image.width) / 2, y: -Double(image.height) / 2)
                .concatenating(AffineTransform(scaleX: particle.scale / max(particle.contentsScale, 0.0001),
                                               y: particle.scale / max(particle.contentsScale, 0.0001)))
                .concatenating(AffineTransform(rotationAngle: particle.angle))
                .concatenating(AffineTransform(translationX: particle.position.x, y: particle.position.y))
                .concatenating(m)
            let corners = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height)).corners.applying(toLayer)
            let box = PixelBox.covering(Rect.boundingBox(of: corners), within: frame)
            guard !box.isEmpty, let transform = pixmanTransform(toLayer.inverted(), sampling: box) else { continue }
            sprites.append(.init(image: shared, transform: transform, box: box, color: pixmanColor(particle.color, alpha: opacity)))
        }
        guard !sprites.isEmpty else { return }
        items.append(.particles(ParticleBatch(sprites: sprites, op: e.renderMode == .additive ? PIXMAN_OP_ADD : PIXMAN_OP_OVER)))
    }

    /// A backdrop layer's blur of everything drawn before it (`Backdrop`): σ is half
    /// the blur radius, in device pixels. No blur and saturation 1 draw nothing:
    /// the backdrop is there already.
    @inline(never)
    func drawBackdrop(_ b: BackdropLayer, transform m: AffineTransform, into items: inout [DisplayItem]) {
        let sigma = b.blurRadius / 2 * Self.deviceScale(m)
        guard sigma.isFinite, sigma > 0.25 || b.saturation != 1 else { return }
        let area = bodyCoverage(b, m)
        guard !area.bounds.isEmpty else { return }
        let below = Array(enclosing.levels.joined()) + items
        items.append(.backdrop(Backdrop(below: below, coverage: area, sigma: min(sigma, 200), saturation: b.saturation, frame: frame)))
    }
}
