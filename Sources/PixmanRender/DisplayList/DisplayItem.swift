import CPixman

/// One drawing operation of a frame, in device pixels, made from the layer tree on
/// the main actor by `DisplayListBuilder` and played on any thread by
/// `DisplayListPlayer`. Items hold plain values and immutable images only, so
/// several threads can play one list into disjoint bands of the same buffer.
///
/// Every item knows the device pixels it can touch (``bounds``): a band skips
/// what lies outside it.
enum DisplayItem: @unchecked Sendable {
    /// A solid colour OVER whole-pixel boxes.
    case boxes([PixelBox], pixman_color_t)
    /// A solid colour through an a8 coverage mask, placed at several spots.
    case maskedColor(SharedImage, [MaskPlacement], pixman_color_t)
    /// A solid colour through anti-aliased coverage.
    case coverage(Coverage, pixman_color_t)
    /// An image through coverage; `transform` maps device pixels to image pixels.
    case image(SharedImage, ImageSampling, Coverage)
    /// A gradient layer's ramp through coverage.
    case gradient(GradientPaint, Coverage)
    /// An emitter layer's particles.
    case particles(ParticleBatch)
    /// A backdrop layer's blur of what was drawn before it.
    case backdrop(Backdrop)
    /// Items drawn into a canvas of their own, then composited as one (group opacity,
    /// clipping, masks, cross-dissolves).
    case group(Group)
    /// A blurred copy of the alpha of some items, in a colour.
    case shadow(Shadow)
    /// Items drawn flat in a plane of their own, then warped onto the device by a
    /// projective transform.
    case plane(Plane)

    var bounds: PixelBox {
        switch self {
        case .boxes(let boxes, _): boxes.reduce(PixelBox.empty) { $0.union($1) }
        case .maskedColor(_, let placements, _): placements.reduce(PixelBox.empty) { $0.union($1.device) }
        case .coverage(let c, _), .image(_, _, let c), .gradient(_, let c): c.bounds
        case .group(let g): g.bounds
        case .shadow(let s): s.bounds
        case .plane(let p): p.coverage.bounds
        case .particles(let batch): batch.bounds
        case .backdrop(let b): b.bounds
        }
    }
}

/// Where a mask goes: the mask's pixels from (`maskX`, `maskY`) onto `device`.
struct MaskPlacement: Sendable {
    var maskX: Int
    var maskY: Int
    var device: PixelBox
}

/// How an image is sampled: the device-to-image transform (16.16 fixed point),
/// the filter, and the repeat at its edges.
struct ImageSampling: @unchecked Sendable {
    var transform: pixman_transform_t
    var filter: pixman_filter_t
    var repeatMode: pixman_repeat_t
}

/// Anti-aliased coverage as pixman trapezoids in device coordinates, with the
/// whole pixels they touch.
struct Coverage: @unchecked Sendable {
    let trapezoids: [pixman_trapezoid_t]
    let bounds: PixelBox
    /// A polygon the coverage is cut to without anti-aliasing (a layer's
    /// `edgeAntialiasingMask` leaving edges out): pixels are in or out of it by
    /// their centres.
    var hardCut: [pixman_trapezoid_t]? = nil

    init(_ trapezoids: [pixman_trapezoid_t], within limit: PixelBox) {
        self.trapezoids = trapezoids
        guard !trapezoids.isEmpty else { bounds = .empty; return }
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        // A side's x at the trapezoid's top and bottom (its ends may lie beyond them).
        func include(_ l: pixman_line_fixed_t, _ t: pixman_trapezoid_t) {
            let (ax, ay, bx, by) = (Double(l.p1.x), Double(l.p1.y), Double(l.p2.x), Double(l.p2.y))
            let top = by == ay ? min(ax, bx) : ax + (bx - ax) * (Double(t.top) - ay) / (by - ay)
            let bottom = by == ay ? min(ax, bx) : ax + (bx - ax) * (Double(t.bottom) - ay) / (by - ay)
            x0 = min(x0, top, bottom); x1 = max(x1, top, bottom)
        }
        for t in trapezoids where t.bottom > t.top {
            y0 = min(y0, Double(t.top)); y1 = max(y1, Double(t.bottom))
            include(t.left, t)
            include(t.right, t)
        }
        guard y1 > y0 else { bounds = .empty; return }
        let one = 65536.0
        let box = PixelBox(x0: Int(max(-1e9, (x0 / one).rounded(.down))), y0: Int(max(-1e9, (y0 / one).rounded(.down))),
                           x1: Int(min(1e9, (x1 / one).rounded(.up))) + 1, y1: Int(min(1e9, (y1 / one).rounded(.up))) + 1)
        let clipped = box.intersection(limit)
        bounds = clipped.isEmpty ? .empty : clipped
    }
}

/// Items composited as one, through an optional clip coverage, at an opacity,
/// optionally tinted (every channel multiplied by a premultiplied colour: a
/// replicator's copy).
final class Group: @unchecked Sendable {
    /// The device pixels of the group's canvas.
    let bounds: PixelBox
    let items: [DisplayItem]
    /// Items whose alpha masks the group (a mask layer), drawn in the same space.
    let mask: [DisplayItem]?
    let clip: Coverage?
    let opacity: Double
    let op: pixman_op_t
    let tint: pixman_color_t?

    init(bounds: PixelBox, items: [DisplayItem], mask: [DisplayItem]? = nil, clip: Coverage? = nil, opacity: Double,
         op: pixman_op_t = PIXMAN_OP_OVER, tint: pixman_color_t? = nil) {
        self.bounds = bounds
        self.items = items
        self.mask = mask
        self.clip = clip
        self.opacity = opacity
        self.op = op
        self.tint = tint
    }
}

/// A shadow: `source` items (already moved by the shadow offset) whose alpha is
/// blurred by `sigma` device pixels and drawn in `color` within `bounds`.
///
/// A shadow with a cache `key` uses a mask of its whole box: the one the cache
/// kept, or one the first band to need it makes (and the cache keeps after the
/// frame). Without a key, each band blurs just the part it needs.
final class Shadow: @unchecked Sendable {
    let bounds: PixelBox
    let source: [DisplayItem]
    let sigma: Double
    let color: pixman_color_t
    let key: ShadowCache.Key?
    private let mask: Locked<SharedImage?>
    private let kept: Bool

    init(bounds: PixelBox, source: [DisplayItem], sigma: Double, color: pixman_color_t, key: ShadowCache.Key? = nil,
         mask: SharedImage? = nil) {
        self.bounds = bounds
        self.source = source
        self.sigma = sigma
        self.color = color
        self.key = key
        self.mask = Locked(mask)
        kept = mask != nil
    }

    /// The blurred mask of the whole box, made on first use; nil without a key.
    func wholeMask(make: (Shadow) -> SharedImage?) -> SharedImage? {
        guard key != nil else { return nil }
        return mask.get { make(self) }
    }

    /// A mask this frame made (not one the cache already had).
    var madeMask: SharedImage? { kept ? nil : mask.withLock { $0 } }
}

/// A layer in perspective: its items drawn in a `width × height` plane, then
/// sampled through `sampling` (device → plane) within `coverage`, at `opacity`.
/// The plane is drawn once, by whichever band needs it first.
final class Plane: @unchecked Sendable {
    let width: Int
    let height: Int
    let items: [DisplayItem]
    let sampling: ImageSampling
    let coverage: Coverage
    let opacity: Double
    private let drawn = Locked<SharedImage?>(nil)

    /// `image`: the plane already drawn (a rasterized layer's kept bitmap).
    init(width: Int, height: Int, items: [DisplayItem], sampling: ImageSampling, coverage: Coverage, opacity: Double,
         image: SharedImage? = nil) {
        self.width = width
        self.height = height
        self.items = items
        self.sampling = sampling
        self.coverage = coverage
        self.opacity = opacity
        if let image { drawn.withLock { $0 = image } }
    }

    /// The plane's pixels, if drawn.
    var drawnImage: SharedImage? { drawn.withLock { $0 } }

    /// The plane's pixels, drawn on first use.
    func image(draw: (Plane) -> SharedImage?) -> SharedImage? {
        drawn.get { draw(self) }
    }
}
