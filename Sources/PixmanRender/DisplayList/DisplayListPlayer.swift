import CPixman

/// Plays display items into a pixman image, on any thread. Device pixel (x, y)
/// is the target's pixel (x − origin.x, y − origin.y); only device pixels inside
/// `area` are drawn (items and coverage outside it are skipped or cut), and every
/// pixel inside comes out exactly as if the whole list were played at once — so
/// bands of one frame can be played on several threads.
enum DisplayListPlayer {
    struct Target {
        let image: OpaquePointer
        let originX: Int
        let originY: Int
        let area: PixelBox
    }

    static func play(_ items: [DisplayItem], onto target: Target) {
        for item in items where item.bounds.intersects(target.area) {
            play(item, onto: target)
        }
    }

    /// One item; each kind's drawing is in its own helper, so nested groups cost
    /// little stack per level.
    private static func play(_ item: DisplayItem, onto t: Target) {
        switch item {
        case .boxes(let boxes, let color): fillBoxes(boxes, color, onto: t)
        case .maskedColor(let mask, let placements, let color): fillMasked(mask, placements, color, onto: t)
        case .coverage(let coverage, let color):
            withSolid(color) { composite($0, through: coverage, onto: t) }
        case .image(let image, let sampling, let coverage):
            guard let header = image.header() else { return }
            sampling.apply(to: header)
            composite(header, through: coverage, onto: t)
            pixman_image_unref(header)
        case .gradient(let paint, let coverage): playGradient(paint, coverage, onto: t)
        case .particles(let batch): batch.play(onto: t.image, originX: t.originX, originY: t.originY, area: t.area)
        case .backdrop(let backdrop): playBackdrop(backdrop, onto: t)
        case .group(let group): playGroup(group, onto: t)
        case .shadow(let shadow): playShadow(shadow, onto: t)
        case .plane(let plane): playPlane(plane, onto: t)
        }
    }

    /// A dithered ramp is dithered into the target by device pixel, wherever the
    /// target's origin is: bands and canvases of any frame get the same noise.
    @inline(never)
    private static func playGradient(_ paint: GradientPaint, _ coverage: Coverage, onto t: Target) {
        guard let source = paint.image() else { return }
        if paint.dithers {
            pixman_image_set_dither(t.image, PIXMAN_DITHER_ORDERED_BLUE_NOISE_64)
            pixman_image_set_dither_offset(t.image, Int32(t.originX), Int32(t.originY))
        }
        composite(source, through: coverage, onto: t)
        if paint.dithers { pixman_image_set_dither(t.image, PIXMAN_DITHER_NONE) }
        pixman_image_unref(source)
    }

    /// The blurred picture, enlarged back through the outline, replacing what is there.
    @inline(never)
    private static func playBackdrop(_ b: Backdrop, onto t: Target) {
        guard let picture = b.picture(play: { play($0, onto: $1) }), let header = picture.header() else { return }
        defer { pixman_image_unref(header) }
        // device → picture: from the source's corner, shrunk.
        let d = Double(b.downscale)
        var m = pixman_transform_t()
        m.matrix.0 = (pixmanFixed(1 / d), 0, pixmanFixed(-Double(b.source.x0) / d))
        m.matrix.1 = (0, pixmanFixed(1 / d), pixmanFixed(-Double(b.source.y0) / d))
        m.matrix.2 = (0, 0, pixmanFixed(1))
        pixman_image_set_transform(header, &m)
        pixman_image_set_filter(header, PIXMAN_FILTER_BILINEAR, nil, 0)
        pixman_image_set_repeat(header, PIXMAN_REPEAT_PAD)
        // Replaced through the coverage: what is there goes by the coverage (OUT_REVERSE),
        // the blur comes in by it (ADD). (SRC through a mask would clear the rest of
        // the mask's box.)
        withSolid(pixman_color_t(red: 0, green: 0, blue: 0, alpha: 65535)) { composite($0, through: b.coverage, onto: t, op: PIXMAN_OP_OUT_REVERSE) }
        composite(header, through: b.coverage, onto: t, op: PIXMAN_OP_ADD)
    }

    @inline(never)
    private static func fillBoxes(_ boxes: [PixelBox], _ color: pixman_color_t, onto t: Target) {
        withSolid(color) { src in
            for b in boxes {
                let c = b.intersection(t.area)
                guard !c.isEmpty else { continue }
                pixman_image_composite32(PIXMAN_OP_OVER, src, nil, t.image, 0, 0, 0, 0,
                                         Int32(c.x0 - t.originX), Int32(c.y0 - t.originY), Int32(c.width), Int32(c.height))
            }
        }
    }

    @inline(never)
    private static func fillMasked(_ mask: SharedImage, _ placements: [MaskPlacement], _ color: pixman_color_t, onto t: Target) {
        guard let header = mask.header() else { return }
        withSolid(color) { src in
            for p in placements {
                let c = p.device.intersection(t.area)
                guard !c.isEmpty else { continue }
                pixman_image_composite32(PIXMAN_OP_OVER, src, header, t.image, 0, 0,
                                         Int32(p.maskX + c.x0 - p.device.x0), Int32(p.maskY + c.y0 - p.device.y0),
                                         Int32(c.x0 - t.originX), Int32(c.y0 - t.originY), Int32(c.width), Int32(c.height))
            }
        }
        pixman_image_unref(header)
    }

    /// `source` (sampled in device coordinates) through the coverage, cut to the
    /// target's rows: a band rasterizes only its own part of a shape.
    private static func composite(_ source: OpaquePointer, through coverage: Coverage, onto t: Target,
                                  op: pixman_op_t = PIXMAN_OP_OVER) {
        if coverage.hardCut != nil {
            // Through a mask of the coverage cut by the hard edges, over the part of the target it touches.
            let box = coverage.bounds.intersection(t.area)
            guard !box.isEmpty, let m = mask(coverage, over: box, opacity: 1) else { return }
            pixman_image_composite32(op, source, m, t.image, Int32(box.x0), Int32(box.y0), 0, 0,
                                     Int32(box.x0 - t.originX), Int32(box.y0 - t.originY), Int32(box.width), Int32(box.height))
            pixman_image_unref(m)
            return
        }
        let traps = rows(of: coverage, in: t.area)
        guard !traps.isEmpty else { return }
        var split = CoverageSplit(traps)
        for (box, alpha) in split.boxes {
            let c = box.intersection(t.area)
            guard !c.isEmpty else { continue }
            var a = pixman_color_t(red: 0, green: 0, blue: 0, alpha: alpha16(alpha))
            let mask = alpha < 1 ? pixman_image_create_solid_fill(&a) : nil
            pixman_image_composite32(op, source, mask, t.image, Int32(c.x0), Int32(c.y0), 0, 0,
                                     Int32(c.x0 - t.originX), Int32(c.y0 - t.originY), Int32(c.width), Int32(c.height))
            if let mask { pixman_image_unref(mask) }
        }
        guard !split.rasterized.isEmpty else { return }
        if reachesFar(split.rasterized, beyond: t.area) {
            // pixman sizes its mask by the edges' end points, wherever they are: a
            // far-reaching edge would make it gigabytes. Rasterize into a mask the
            // size of the area instead (found by the fuzzer).
            let a = t.area
            guard let mask = pixman_image_create_bits(PIXMAN_a8, Int32(a.width), Int32(a.height), nil, 0) else { return }
            pixman_add_trapezoids(mask, Int16(clamping: -a.x0), Int32(-a.y0), Int32(split.rasterized.count), &split.rasterized)
            pixman_image_composite32(op, source, mask, t.image, Int32(a.x0), Int32(a.y0), 0, 0,
                                     Int32(a.x0 - t.originX), Int32(a.y0 - t.originY), Int32(a.width), Int32(a.height))
            pixman_image_unref(mask)
            return
        }
        pixman_composite_trapezoids(op, source, t.image, PIXMAN_a8, 0, 0, Int32(-t.originX), Int32(-t.originY),
                                    Int32(split.rasterized.count), &split.rasterized)
    }

    /// True when an edge's end points lie more than 1,024 pixels outside `area` sideways.
    private static func reachesFar(_ traps: [pixman_trapezoid_t], beyond area: PixelBox) -> Bool {
        let lo = pixman_fixed_t(clamping: (area.x0 - 1024) << 16), hi = pixman_fixed_t(clamping: (area.x1 + 1024) << 16)
        return traps.contains { t in
            min(t.left.p1.x, t.left.p2.x) < lo || max(t.right.p1.x, t.right.p2.x) > hi
        }
    }

    /// The trapezoids cut to the rows of `area`. Cutting at whole pixel rows leaves
    /// the coverage of every row inside unchanged (pixman samples each row on its own grid).
    private static func rows(of coverage: Coverage, in area: PixelBox) -> [pixman_trapezoid_t] {
        let b = coverage.bounds
        guard b.intersects(area) else { return [] }
        if b.y0 >= area.y0 && b.y1 <= area.y1 { return coverage.trapezoids }
        let top = pixman_fixed_t(clamping: area.y0 << 16), bottom = pixman_fixed_t(clamping: area.y1 << 16)
        var cut: [pixman_trapezoid_t] = []
        cut.reserveCapacity(coverage.trapezoids.count)
        for var trap in coverage.trapezoids where trap.bottom > top && trap.top < bottom {
            trap.top = max(trap.top, top)
            trap.bottom = min(trap.bottom, bottom)
            cut.append(trap)
        }
        return cut
    }

    /// An a8 mask of `coverage` over the device pixels of `box`, at `opacity`.
    static func mask(_ coverage: Coverage, over box: PixelBox, opacity: Double) -> OpaquePointer? {
        guard let m = pixman_image_create_bits(PIXMAN_a8, Int32(box.width), Int32(box.height), nil, 0) else { return nil }
        var split = CoverageSplit(rows(of: coverage, in: box))
        if !split.rasterized.isEmpty {
            pixman_add_trapezoids(m, Int16(clamping: -box.x0), Int32(-box.y0), Int32(split.rasterized.count), &split.rasterized)
        }
        for (b, alpha) in split.boxes {
            let c = b.intersection(box)
            guard !c.isEmpty else { continue }
            var a = pixman_color_t(red: 0, green: 0, blue: 0, alpha: alpha16(alpha))
            var fill = pixman_box32_t(x1: Int32(c.x0 - box.x0), y1: Int32(c.y0 - box.y0), x2: Int32(c.x1 - box.x0), y2: Int32(c.y1 - box.y0))
            pixman_image_fill_boxes(PIXMAN_OP_ADD, m, &a, 1, &fill)
        }
        if var cut = coverage.hardCut, let hard = pixman_image_create_bits(PIXMAN_a1, Int32(box.width), Int32(box.height), nil, 0) {
            // Hard edges: the coverage kept only where the cut's polygon holds the pixel's centre.
            pixman_add_trapezoids(hard, Int16(clamping: -box.x0), Int32(-box.y0), Int32(cut.count), &cut)
            pixman_image_composite32(PIXMAN_OP_IN, hard, nil, m, 0, 0, 0, 0, 0, 0, Int32(box.width), Int32(box.height))
            pixman_image_unref(hard)
        }
        if opacity < 1 {
            withSolid(pixman_color_t(red: 0, green: 0, blue: 0, alpha: alpha16(opacity))) { solid in
                pixman_image_composite32(PIXMAN_OP_IN, solid, nil, m, 0, 0, 0, 0, 0, 0, Int32(box.width), Int32(box.height))
            }
        }
        return m
    }

    @inline(never)
    private static func playGroup(_ g: Group, onto t: Target) {
        let region = g.bounds.intersection(t.area)
        guard !region.isEmpty, let canvas = newImage(PIXMAN_a8r8g8b8, region) else { return }
        defer { pixman_image_unref(canvas) }
        let inner = Target(image: canvas, originX: region.x0, originY: region.y0, area: region)
        play(g.items, onto: inner)
        if let maskItems = g.mask, let maskCanvas = newImage(PIXMAN_a8r8g8b8, region) {
            // The mask layer's alpha clips the group (rule R3).
            play(maskItems, onto: Target(image: maskCanvas, originX: region.x0, originY: region.y0, area: region))
            pixman_image_composite32(PIXMAN_OP_IN_REVERSE, maskCanvas, nil, canvas, 0, 0, 0, 0, 0, 0,
                                     Int32(region.width), Int32(region.height))
            pixman_image_unref(maskCanvas)
        }
        if let tint = g.tint {
            // Each channel times the tint's: white through the tint as a component-alpha mask, IN_REVERSE.
            withSolid(pixman_color_t(red: 65535, green: 65535, blue: 65535, alpha: 65535)) { white in
                var c = tint
                guard let m = pixman_image_create_solid_fill(&c) else { return }
                pixman_image_set_component_alpha(m, 1)
                pixman_image_composite32(PIXMAN_OP_IN_REVERSE, white, m, canvas, 0, 0, 0, 0, 0, 0, Int32(region.width), Int32(region.height))
                pixman_image_unref(m)
            }
        }
        var mask: OpaquePointer?
        if let clip = g.clip {
            mask = Self.mask(clip, over: region, opacity: g.opacity)
        } else if g.opacity < 1 {
            var a = pixman_color_t(red: 0, green: 0, blue: 0, alpha: alpha16(g.opacity))
            mask = pixman_image_create_solid_fill(&a)
        }
        pixman_image_composite32(g.op, canvas, mask, t.image, 0, 0, 0, 0, Int32(region.x0 - t.originX), Int32(region.y0 - t.originY),
                                 Int32(region.width), Int32(region.height))
        if let mask { pixman_image_unref(mask) }
    }

    /// A shadow with a cache key uses a mask of its whole box, kept or made once.
    /// Otherwise a band blurs the source within the blur's reach of its pixels, no
    /// more: the blur is local, so those pixels come out as in a blur of the whole.
    @inline(never)
    private static func playShadow(_ s: Shadow, onto t: Target) {
        let out = s.bounds.intersection(t.area)
        guard !out.isEmpty else { return }
        var mask: OpaquePointer?, origin = s.bounds
        if let whole = s.wholeMask(make: { blur($0, over: $0.bounds).flatMap(SharedImage.init(adopting:)) }) {
            mask = whole.header()
        } else {
            origin = s.bounds.intersection(out.insetBy(-(ShadowBlur.reach(sigma: s.sigma) + 1)))
            mask = blur(s, over: origin)
        }
        guard let mask else { return }
        withSolid(s.color) { solid in
            pixman_image_composite32(PIXMAN_OP_OVER, solid, mask, t.image, 0, 0, Int32(out.x0 - origin.x0), Int32(out.y0 - origin.y0),
                                     Int32(out.x0 - t.originX), Int32(out.y0 - t.originY), Int32(out.width), Int32(out.height))
        }
        pixman_image_unref(mask)
    }

    /// The shadow's source drawn over the device pixels of `box`, its alpha blurred (a8).
    private static func blur(_ s: Shadow, over box: PixelBox) -> OpaquePointer? {
        guard let source = newImage(PIXMAN_a8r8g8b8, box) else { return nil }
        play(s.source, onto: Target(image: source, originX: box.x0, originY: box.y0, area: box))
        defer { pixman_image_unref(source) }
        return ShadowBlur.blurredAlpha(of: source, width: box.width, height: box.height, sigma: s.sigma)
    }

    @inline(never)
    private static func playPlane(_ p: Plane, onto t: Target) {
        let region = p.coverage.bounds.intersection(t.area)
        guard !region.isEmpty else { return }
        let image = p.image { plane in
            let box = PixelBox(x0: 0, y0: 0, x1: plane.width, y1: plane.height)
            guard let canvas = newImage(PIXMAN_a8r8g8b8, box) else { return nil }
            play(plane.items, onto: Target(image: canvas, originX: 0, originY: 0, area: box))
            return SharedImage(adopting: canvas)
        }
        guard let image, let header = image.header() else { return }
        p.sampling.apply(to: header)
        if let mask = mask(p.coverage, over: region, opacity: p.opacity) {
            pixman_image_composite32(PIXMAN_OP_OVER, header, mask, t.image, Int32(region.x0), Int32(region.y0), 0, 0,
                                     Int32(region.x0 - t.originX), Int32(region.y0 - t.originY), Int32(region.width), Int32(region.height))
            pixman_image_unref(mask)
        }
        pixman_image_unref(header)
    }

    /// A cleared image for the device pixels of `box`.
    private static func newImage(_ format: pixman_format_code_t, _ box: PixelBox) -> OpaquePointer? {
        guard !box.isEmpty, box.width <= 1 << 15, box.height <= 1 << 15 else { return nil }
        return pixman_image_create_bits(format, Int32(box.width), Int32(box.height), nil, 0)
    }

    private static func withSolid(_ color: pixman_color_t, _ body: (OpaquePointer) -> Void) {
        var c = color
        guard let solid = pixman_image_create_solid_fill(&c) else { return }
        body(solid)
        pixman_image_unref(solid)
    }

    private static func alpha16(_ opacity: Double) -> UInt16 {
        UInt16((min(1, max(0, opacity)) * 65535).rounded())
    }
}

extension ImageSampling {
    func apply(to image: OpaquePointer) {
        var t = transform
        pixman_image_set_transform(image, &t)
        pixman_image_set_filter(image, filter, nil, 0)
        pixman_image_set_repeat(image, repeatMode)
    }
}
