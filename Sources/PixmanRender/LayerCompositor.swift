import CPixman
import Glibc
import LayerKit

/// Draws a layer tree with pixman, as Core Animation draws it (rules R1–R5):
/// each layer's background (rounded by `cornerRadius`), its contents, its
/// sublayers in `zPosition` then insertion order, then its border; `opacity` as
/// group opacity; `masksToBounds` clipping to the rounded bounds; hidden layers
/// skipped; every value taken from the presentation at the frame's time.
///
/// Transitions draw the state before the change and after it (rule G2); shadows
/// are blurred copies of the layer's alpha (or `shadowPath`); `mask` layers clip
/// by their alpha; `ShapeLayer` paths are filled and stroked. Not yet drawn:
/// perspective (the affine part of a 3D transform is used), `isDoubleSided`.
@MainActor
struct LayerCompositor {
    let width: Int
    let height: Int
    /// Device pixels per layer unit.
    let scale: Double
    /// Root media time of the frame.
    let time: Double
    let contents: ContentsCache
    let aligned: AlignedShapes
    /// The area being repainted, when not everything is: layers without
    /// sublayers that cannot touch it are skipped.
    var repaintArea: Rect? = nil

    func draw(_ root: Layer, into canvas: Canvas) {
        draw(root, parent: nil, parentTransform: AffineTransform(scaleX: scale, y: scale), into: canvas, depth: 0)
    }

    private func draw(_ layer: Layer, parent: Layer?, parentTransform: AffineTransform, into canvas: Canvas, depth: Int) {
        guard depth < 4096 else { return }   // deeper trees are cut off rather than overflowing the stack
        let p: Layer = layer.hasAnimations ? layer.presentation(atTime: time) : layer
        guard !p.isHidden, p.opacity > 0 else { return }
        let m = Layer.affineTransform(of: p, in: parent).concatenating(parentTransform)
        guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite, m.a * m.d - m.b * m.c != 0 else { return }

        if layer.sublayers.isEmpty, p.activeTransition == nil, let area = repaintArea,
           !DamageTracker.deviceBounds(p, m).intersects(area) {
            return
        }
        let sublayers = Self.drawingOrder(layer.sublayers)
        if let transition = p.activeTransition, let snapshot = transition.snapshot {
            drawTransition(transition, snapshot, p, layer: layer, sublayers: sublayers, transform: m, into: canvas, depth: depth)
            return
        }
        let clips = p.masksToBounds && (!sublayers.isEmpty || p.contents != nil)
        let needsGroup = clips || (p.opacity < 1 && (!sublayers.isEmpty || p.contents != nil || p.borderWidth > 0 || p is ShapeLayer))

        if p.shadowOpacity > 0, !p.masksToBounds, let color = p.shadowColor, color.alpha > 0 {
            drawShadow(p, layer: layer, sublayers: sublayers, transform: m, color: color, into: canvas, depth: depth)
        }
        if needsGroup || p.mask != nil {
            let shape = outline(p, m)
            guard let box = pixelBox(contentArea(p, m, clips: clips, hasSublayers: !sublayers.isEmpty, canvas: canvas), canvas) else { return }
            let group = Canvas(width: box.width, height: box.height)
            let shifted = m.concatenating(AffineTransform(translationX: -Double(box.x), y: -Double(box.y)))
            drawContent(p, layer: layer, sublayers: sublayers, transform: shifted, opacity: 1, into: group, depth: depth)
            if let maskLayer = p.mask {
                // The mask layer's alpha clips the layer (rule R3); it sits in the layer's coordinates.
                let maskCanvas = Canvas(width: box.width, height: box.height)
                draw(maskLayer, parent: nil, parentTransform: shifted, into: maskCanvas, depth: depth + 1)
                pixman_image_composite32(PIXMAN_OP_IN_REVERSE, maskCanvas.image, nil, group.image, 0, 0, 0, 0, 0, 0, Int32(box.width), Int32(box.height))
            }
            compositeGroup(group, at: (box.x, box.y), onto: canvas, clipTo: clips ? shape : nil, opacity: p.opacity)
        } else {
            drawContent(p, layer: layer, sublayers: sublayers, transform: m, opacity: p.opacity, into: canvas, depth: depth)
        }
    }

    /// The device area a layer can draw into: its outline (and contents) when it
    /// clips or has no sublayers, else the whole canvas.
    private func contentArea(_ p: Layer, _ m: AffineTransform, clips: Bool, hasSublayers: Bool, canvas: Canvas) -> Rect {
        if !clips && hasSublayers { return Rect(x: 0, y: 0, width: Double(canvas.width), height: Double(canvas.height)) }
        var area = Rect.boundingBox(of: outline(p, m))
        if !clips, let shape = p as? ShapeLayer, let path = shape.path {
            // A shape may reach outside its bounds (by its path and half its line width, more at miters).
            let reach = shape.lineWidth * max(1, shape.miterLimit)
            area = area.union(Rect.boundingBox(of: path.boundingBox.insetBy(dx: -reach, dy: -reach).corners.map { $0.applying(m) }))
        }
        if let image = p.contents {
            area = area.union(Rect.boundingBox(of: Self.contentsFrame(p, imageSize: image.size).corners.map { $0.applying(m) }))
        }
        return area
    }

    /// The layer's shadow, under it: the alpha of `shadowPath` or else of the layer
    /// itself, blurred by `shadowRadius` (σ = radius / 2), moved by `shadowOffset`,
    /// in `shadowColor` at `shadowOpacity` (and the layer's opacity).
    private func drawShadow(_ p: Layer, layer: Layer, sublayers: [Layer], transform m: AffineTransform, color: Color,
                            into canvas: Canvas, depth: Int) {
        let sigma = max(0, p.shadowRadius) * deviceScale(m) / 2
        let margin = Double(Int((3 * sigma).rounded(.up)) + 2)
        let offset = Point(x: m.a * p.shadowOffset.width + m.c * p.shadowOffset.height,
                           y: m.b * p.shadowOffset.width + m.d * p.shadowOffset.height)
        var area: Rect
        let polygons = p.shadowPath.map { $0.polylines.map { $0.map { $0.applying(m) } } }
        if let polygons {
            area = Rect.boundingBox(of: polygons.flatMap { $0 })
        } else {
            area = contentArea(p, m, clips: false, hasSublayers: !sublayers.isEmpty, canvas: canvas)
        }
        // Where the shadow lands, and the area of the layer it comes from.
        let (ox, oy) = (offset.x.rounded(), offset.y.rounded())
        guard let box = pixelBox(area.insetBy(dx: -margin, dy: -margin).offsetBy(dx: ox, dy: oy), canvas) else { return }
        let source = Canvas(width: box.width, height: box.height)
        let shift = AffineTransform(translationX: -(Double(box.x) - ox), y: -(Double(box.y) - oy))
        if let polygons {
            var white = pixmanColor(.white)
            if let solid = pixman_image_create_solid_fill(&white) {
                PolygonFill.composite(PolygonFill.trapezoids(polygons.map { $0.map { $0.applying(shift) } }, evenOdd: false),
                                      source: solid, onto: source.image)
                pixman_image_unref(solid)
            }
        } else {
            drawContent(p, layer: layer, sublayers: sublayers, transform: m.concatenating(shift), opacity: 1, into: source, depth: depth)
        }
        guard let blurred = ShadowBlur.blurredAlpha(of: source.image, width: box.width, height: box.height, sigma: sigma) else { return }
        var c = pixmanColor(color, alpha: p.shadowOpacity * p.opacity)
        if let solid = pixman_image_create_solid_fill(&c) {
            pixman_image_composite32(PIXMAN_OP_OVER, solid, blurred, canvas.image, 0, 0, 0, 0,
                                     Int32(box.x), Int32(box.y), Int32(box.width), Int32(box.height))
            pixman_image_unref(solid)
        }
        pixman_image_unref(blurred)
    }

    /// Sublayers in `zPosition`, then insertion order (rule R1).
    static func drawingOrder(_ layers: [Layer]) -> [Layer] {
        layers.enumerated()
            .sorted { ($0.element.zPosition, $0.offset) < ($1.element.zPosition, $1.offset) }
            .map(\.element)
    }

    /// A transition (rule G2): the state before the change and the state after it,
    /// each moved and faded as the transition says, within the layer's bounds.
    private func drawTransition(_ t: TransitionState, _ snapshot: LayerSnapshot, _ p: Layer, layer: Layer, sublayers: [Layer],
                                transform m: AffineTransform, into canvas: Canvas, depth: Int) {
        let group = Canvas(width: canvas.width, height: canvas.height)
        func drawState(old: Bool) {
            let offset = old ? t.oldOffset : t.newOffset
            let opacity = old ? t.oldOpacity : t.newOpacity
            guard opacity > 0 else { return }
            let moved = AffineTransform(translationX: offset.width, y: offset.height).concatenating(m)
            let target = opacity < 1 ? Canvas(width: canvas.width, height: canvas.height) : group
            if old {
                drawContent(snapshot.layer, layer: snapshot.layer, sublayers: Self.drawingOrder(snapshot.sublayers),
                            transform: moved, opacity: 1, into: target, depth: depth)
            } else {
                drawContent(p, layer: layer, sublayers: sublayers, transform: moved, opacity: 1, into: target, depth: depth)
            }
            // A fade is a cross-dissolve: the two states' weights add up to one.
            if target !== group {
                compositeGroup(target, at: (0, 0), onto: group, clipTo: nil, opacity: opacity, op: t.type == .fade ? PIXMAN_OP_ADD : PIXMAN_OP_OVER)
            }
        }
        for old in t.oldOnTop ? [false, true] : [true, false] { drawState(old: old) }
        compositeGroup(group, at: (0, 0), onto: canvas, clipTo: t.type == .fade ? nil : outline(p, m), opacity: p.opacity)
    }

    private func drawContent(_ p: Layer, layer: Layer, sublayers: [Layer], transform m: AffineTransform, opacity: Double,
                             into canvas: Canvas, depth: Int) {
        let pixels = aligned.pixelRect(p, m)
        if let bg = p.backgroundColor, bg.alpha > 0 {
            let color = pixmanColor(bg, alpha: opacity)
            if !(pixels.map { aligned.fill($0, border: 0, color: color, onto: canvas.image) } ?? false) {
                ShapeRasterizer.fill(ShapeRasterizer.fan(outline(p, m)), color: color, onto: canvas.image)
            }
        }
        if let image = p.contents {
            drawContents(image, of: p, transform: m, into: canvas)
        }
        if let shape = p as? ShapeLayer {
            drawShape(shape, transform: m, opacity: opacity, into: canvas)
        }
        for s in sublayers {
            draw(s, parent: p, parentTransform: m, into: canvas, depth: depth + 1)
        }
        if p.borderWidth > 0, let color = p.borderColor, color.alpha > 0 {
            let c = pixmanColor(color, alpha: opacity)
            if !(pixels.map { aligned.fill($0, border: $0.bw, color: c, onto: canvas.image) } ?? false) {
                drawBorder(p, m, color: c, into: canvas)
            }
        }
    }

    /// A shape layer's path (in its coordinates): filled by its rule, then stroked,
    /// trimmed to `strokeStart…strokeEnd`, with its caps and joins.
    private func drawShape(_ shape: ShapeLayer, transform m: AffineTransform, opacity: Double, into canvas: Canvas) {
        guard let path = shape.path else { return }
        let lines = path.polylines
        if let fill = shape.fillColor, fill.alpha > 0 {
            let polygons = lines.map { $0.map { $0.applying(m) } }
            fillPolygons(polygons, evenOdd: shape.fillRule == .evenOdd, color: pixmanColor(fill, alpha: opacity), into: canvas)
        }
        if let stroke = shape.strokeColor, stroke.alpha > 0, shape.lineWidth > 0 {
            let trimmed = Stroker.trim(lines, start: shape.strokeStart, end: shape.strokeEnd)
            let pieces = Stroker.outline(trimmed, width: shape.lineWidth, cap: shape.lineCap, join: shape.lineJoin, miterLimit: shape.miterLimit)
            fillPolygons(pieces.map { $0.map { $0.applying(m) } }, evenOdd: false, color: pixmanColor(stroke, alpha: opacity), into: canvas)
        }
    }

    private func fillPolygons(_ polygons: [[Point]], evenOdd: Bool, color: pixman_color_t, into canvas: Canvas) {
        var c = color
        guard let solid = pixman_image_create_solid_fill(&c) else { return }
        PolygonFill.composite(PolygonFill.trapezoids(polygons, evenOdd: evenOdd), source: solid, onto: canvas.image)
        pixman_image_unref(solid)
    }

    /// The layer's rounded bounds in device space.
    private func outline(_ p: Layer, _ m: AffineTransform) -> [Point] {
        let segments = ShapeRasterizer.segments(forRadius: p.cornerRadius, scale: deviceScale(m))
        return ShapeRasterizer.roundedRect(p.bounds, radius: p.cornerRadius, segments: segments).map { $0.applying(m) }
    }

    private func deviceScale(_ m: AffineTransform) -> Double {
        max((m.a * m.a + m.b * m.b).squareRoot(), (m.c * m.c + m.d * m.d).squareRoot())
    }

    private func drawBorder(_ p: Layer, _ m: AffineTransform, color: pixman_color_t, into canvas: Canvas) {
        let b = p.bounds
        let w = min(p.borderWidth, b.width / 2, b.height / 2)
        let segments = ShapeRasterizer.segments(forRadius: p.cornerRadius, scale: deviceScale(m))
        let outer = ShapeRasterizer.roundedRect(b, radius: p.cornerRadius, segments: segments).map { $0.applying(m) }
        let inner = ShapeRasterizer.roundedRect(b.insetBy(dx: w, dy: w), radius: max(0, p.cornerRadius - w), segments: segments)
            .map { $0.applying(m) }
        ShapeRasterizer.fill(ShapeRasterizer.ring(outer: outer, inner: inner), color: color, onto: canvas.image)
    }

    /// Where the contents go inside the bounds, by `contentsGravity`, in layer coordinates.
    static func contentsFrame(_ p: Layer, imageSize: Size) -> Rect {
        let b = p.bounds
        let s = max(p.contentsScale, 0.0001)
        let w = imageSize.width * p.contentsRect.width / s, h = imageSize.height * p.contentsRect.height / s
        func placed(_ width: Double, _ height: Double, _ gx: Double, _ gy: Double) -> Rect {
            Rect(x: b.minX + (b.width - width) * gx, y: b.minY + (b.height - height) * gy, width: width, height: height)
        }
        switch p.contentsGravity {
        case .resize: return b
        case .resizeAspect, .resizeAspectFill:
            guard w > 0, h > 0 else { return b }
            let fit = p.contentsGravity == .resizeAspect ? min(b.width / w, b.height / h) : max(b.width / w, b.height / h)
            return placed(w * fit, h * fit, 0.5, 0.5)
        case .center: return placed(w, h, 0.5, 0.5)
        case .top: return placed(w, h, 0.5, 0)
        case .bottom: return placed(w, h, 0.5, 1)
        case .left: return placed(w, h, 0, 0.5)
        case .right: return placed(w, h, 1, 0.5)
        case .topLeft: return placed(w, h, 0, 0)
        case .topRight: return placed(w, h, 1, 0)
        case .bottomLeft: return placed(w, h, 0, 1)
        case .bottomRight: return placed(w, h, 1, 1)
        }
    }

    private func drawContents(_ image: Image, of p: Layer, transform m: AffineTransform, into canvas: Canvas) {
        guard let src = contents.pixmanImage(for: image) else { return }
        let frame = Self.contentsFrame(p, imageSize: image.size)
        guard frame.width > 0, frame.height > 0 else { return }
        let cr = p.contentsRect
        // image pixels ← layer coordinates ← device pixels
        let layerToImage = AffineTransform(translationX: -frame.minX, y: -frame.minY)
            .concatenating(AffineTransform(scaleX: cr.width * Double(image.width) / frame.width, y: cr.height * Double(image.height) / frame.height))
            .concatenating(AffineTransform(translationX: cr.minX * Double(image.width), y: cr.minY * Double(image.height)))
        let deviceToImage = m.inverted().concatenating(layerToImage)
        var t = pixman_transform_t()
        func f(_ v: Double) -> pixman_fixed_t { pixman_fixed_t(clamping: Int64((v * 65536).rounded())) }
        t.matrix.0 = (f(deviceToImage.a), f(deviceToImage.c), f(deviceToImage.tx))
        t.matrix.1 = (f(deviceToImage.b), f(deviceToImage.d), f(deviceToImage.ty))
        t.matrix.2 = (0, 0, f(1))
        pixman_image_set_transform(src, &t)
        let magnifying = abs(deviceToImage.a * deviceToImage.d - deviceToImage.b * deviceToImage.c) < 1
        pixman_image_set_filter(src, magnifying ? PIXMAN_FILTER_BILINEAR : PIXMAN_FILTER_GOOD, nil, 0)
        pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD)
        // Only inside the placed frame: its device outline is the coverage.
        let corners = Rect(x: frame.minX, y: frame.minY, width: frame.width, height: frame.height).corners.map { $0.applying(m) }
        ShapeRasterizer.composite(ShapeRasterizer.fan(corners), source: src, onto: canvas.image)
        pixman_image_set_transform(src, nil)
    }

    /// The whole pixels of `area` inside the canvas, or nil when none.
    private func pixelBox(_ area: Rect, _ canvas: Canvas) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard !area.isNull, area.minX.isFinite, area.minY.isFinite, area.maxX.isFinite, area.maxY.isFinite else { return nil }
        let x0 = max(0, Int(area.minX.rounded(.down)) - 1), y0 = max(0, Int(area.minY.rounded(.down)) - 1)
        let x1 = min(canvas.width, Int(min(1e9, area.maxX).rounded(.up)) + 1), y1 = min(canvas.height, Int(min(1e9, area.maxY).rounded(.up)) + 1)
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// Composites a group drawn for the canvas area at `origin` through an optional
    /// clip outline (canvas coordinates), with group opacity (rules R2, R3).
    private func compositeGroup(_ group: Canvas, at origin: (x: Int, y: Int), onto canvas: Canvas, clipTo outline: [Point]?,
                                opacity: Double, op: pixman_op_t = PIXMAN_OP_OVER) {
        var mask: OpaquePointer?
        if let outline {
            let local = outline.map { Point(x: $0.x - Double(origin.x), y: $0.y - Double(origin.y)) }
            mask = ShapeRasterizer.mask(ShapeRasterizer.fan(local), width: group.width, height: group.height)
            if opacity < 1, let m = mask {
                var a = pixmanColor(.white, alpha: opacity)
                if let solid = pixman_image_create_solid_fill(&a) {
                    pixman_image_composite32(PIXMAN_OP_IN, solid, nil, m, 0, 0, 0, 0, 0, 0, Int32(group.width), Int32(group.height))
                    pixman_image_unref(solid)
                }
            }
        } else if opacity < 1 {
            var a = pixmanColor(.white, alpha: opacity)
            mask = pixman_image_create_solid_fill(&a)
        }
        pixman_image_composite32(op, group.image, mask, canvas.image, 0, 0, 0, 0, Int32(origin.x), Int32(origin.y),
                                 Int32(group.width), Int32(group.height))
        if let mask { pixman_image_unref(mask) }
    }
}
