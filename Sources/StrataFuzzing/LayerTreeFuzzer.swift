import LayerKit
import PixmanRender

/// Turns fuzzer bytes into a program over the public API — trees of layers with
/// masks, transforms (singular and projective ones too), hostile property values,
/// animations with extreme timing, clock steps and renders — and checks the
/// properties every such program must keep: no crash (the process survives), no
/// NaN or ∞ in a presentation value, and damage-tracked frames byte-equal to a
/// full repaint. `strata-fuzz` runs it under libFuzzer with AddressSanitizer;
/// the tests replay the committed corpus (`Tests/Fuzz/corpus`) without them.
@MainActor
public enum LayerTreeFuzzer {
    /// What a program broke.
    public struct Violation: Error, CustomStringConvertible {
        public let description: String
    }

    /// Layers a program may make, and steps it may take.
    public static let maximumLayers = 48
    public static let maximumSteps = 160
    /// Renders a program may ask for (each is a damage-tracked and a full frame):
    /// a frame at the documented worst case — a stroke 10³⁰⁵ wide across the
    /// target — takes tens of milliseconds, and 160 of them under the sanitizer
    /// passed libFuzzer's time limit without finding anything new.
    public static let maximumRenders = 16
    static let size = 48

    /// Runs the program `bytes` spell; throws the first property it breaks.
    /// `trace` is told each step with its values; steps in `skipping` (numbered
    /// from 1) read their bytes but act on a layer outside the tree — to reduce a
    /// finding to the steps it needs.
    public static func run(_ bytes: [UInt8], trace: ((String) -> Void)? = nil, skipping: Set<Int> = []) throws(Violation) {
        var input = FuzzReader(bytes: bytes)
        let clock = ManualMediaClock(now: 10)
        MediaTime.clock = clock
        Transaction.reset()
        AnimationTimeline.reset()
        Transaction.endOfTurnScheduler = { _ in }
        let previousHandler = Diagnostics.handler
        Diagnostics.handler = { _ in }   // diagnostics are expected: hostile values are refused
        // The turn never ends here: let go of what it would let go of (the spare
        // presentation copy holds its model, the program's tree).
        defer { Diagnostics.handler = previousHandler; Transaction.reset() }

        let root = Layer()
        Transaction.withoutActions {
            root.anchorPoint = .zero
            root.bounds = Rect(x: 0, y: 0, width: Double(size), height: Double(size))
            root.backgroundColor = .white
        }
        var layers = [root]
        let outside = Layer()
        let tracked = OffscreenRenderer(width: size, height: size)
        tracked.rootLayer = root
        defer { tracked.rootLayer = nil }
        var steps = 0, renders = 0
        while !input.isAtEnd, steps < maximumSteps {
            steps += 1
            // A skipped step reads the same bytes but acts on a layer outside the tree
            // (for reducing a finding to the steps that matter).
            let skip = skipping.contains(steps)
            let chosen = layers[input.index(layers.count)]
            let target = skip ? outside : chosen
            let op = input.byte() % 14
            trace?("step \(steps): op \(op) on layer \(layers.firstIndex { $0 === chosen }!)\(skip ? " (skipped)" : "")")
            switch op {
            case 0 where layers.count < maximumLayers:
                let child = input.byte() % 4 == 0 ? ShapeLayer() : Layer()
                if let shape = child as? ShapeLayer {
                    configure(shape, &input)
                    trace?("  path \(shape.path?.elements.map { "\($0)" }.joined(separator: " ") ?? "-") fill \(String(describing: shape.fillColor)) stroke \(String(describing: shape.strokeColor)) lineWidth \(shape.lineWidth) strokeEnd \(shape.strokeEnd)")
                }
                let frame = Rect(x: input.number(), y: input.number(), width: input.number(), height: input.number())
                let color = input.color()
                trace?("  new \(type(of: child)) frame \(frame) bg \(color)")
                child.frame = frame
                child.backgroundColor = color
                target.addSublayer(child)
                layers.append(child)
            case 1 where target !== root:
                target.removeFromSuperlayer()
            case 2:
                let other = skip ? outside : layers[input.index(layers.count)]
                trace?("  into layer \(layers.firstIndex { $0 === other }.map(String.init) ?? "outside")")
                other.addSublayer(target)   // cycles and self-insertion must be refused
            case 3:
                let position = Point(x: input.number(), y: input.number())
                let bounds = Rect(x: input.number(), y: input.number(), width: input.number(), height: input.number())
                trace?("  position \(position) bounds \(bounds)")
                target.position = position
                target.bounds = bounds
            case 4:
                target.opacity = input.number()
                target.cornerRadius = input.number()
                target.borderWidth = input.number()
                target.borderColor = input.color()
            case 5:
                let transform = input.transform()
                let sublayerTransform = input.byte() % 3 == 0 ? input.transform() : .identity
                trace?("  transform \(transform) sublayerTransform \(sublayerTransform)")
                target.transform = transform
                target.sublayerTransform = sublayerTransform
            case 6:
                let masks = input.byte() % 2 == 0, hidden = input.byte() % 5 == 0
                let z = input.number(), shadowOpacity = input.number(), shadowRadius = input.number()
                trace?("  masksToBounds \(masks) hidden \(hidden) z \(z) shadowOpacity \(shadowOpacity) shadowRadius \(shadowRadius)")
                target.masksToBounds = masks
                target.isHidden = hidden
                target.zPosition = z
                target.shadowOpacity = shadowOpacity
                target.shadowRadius = shadowRadius
            case 7:
                let mask = input.byte() % 3 == 0 ? nil : layers[input.index(layers.count)]
                trace?("  mask = \(mask.map { m in "layer \(layers.firstIndex { $0 === m }!)" } ?? "nil")")
                if !skip, mask !== target, mask !== root { target.mask = mask }   // skipped: no layer of the tree moves
            case 8:
                let a = basicAnimation(&input)
                if let a = a as? BasicAnimation {
                    trace?("  basic \(a.keyPath ?? "-") from \(String(describing: a.fromValue)) to \(String(describing: a.toValue)) by \(String(describing: a.byValue)) d \(a.duration) begin \(a.beginTime) speed \(a.speed) offset \(a.timeOffset) repeat \(a.repeatCount) auto \(a.autoreverses) fill \(a.fillMode) removed \(a.isRemovedOnCompletion)")
                }
                target.add(a, forKey: "a\(input.byte() % 4)")
            case 9:
                let a = keyframeAnimation(&input)
                if let a = a as? KeyframeAnimation {
                    trace?("  keyframes \(a.keyPath ?? "-") values \(String(describing: a.values)) times \(String(describing: a.keyTimes)) d \(a.duration) begin \(a.beginTime) speed \(a.speed) offset \(a.timeOffset) repeat \(a.repeatCount) auto \(a.autoreverses) fill \(a.fillMode) removed \(a.isRemovedOnCompletion)")
                }
                target.add(a, forKey: "k\(input.byte() % 4)")
            case 10:
                let step = input.timeStep()
                trace?("  advance \(step)")
                guard !skip else { break }
                Transaction.flush()
                clock.advance(by: step)
            case 11 where layers.count < maximumLayers:
                // A layer of one of Core Animation's other classes (issue 28).
                let child = otherLayer(&input)
                let frame = Rect(x: input.number(), y: input.number(), width: input.number(), height: input.number())
                trace?("  new \(describe(child)) frame \(frame)")
                child.frame = frame
                target.addSublayer(child)
                layers.append(child)
            case 12:
                // Image contents, placed by gravity and a contents rectangle (issue 30:
                // contents under degenerate geometry reached pixman out of range).
                let side = 1 + Int(input.byte() % 4)
                let image = Image(width: side, height: side, color: input.color())
                let rect = Rect(x: input.number(), y: input.number(), width: input.number(), height: input.number())
                let center = Rect(x: input.number(), y: input.number(), width: input.number(), height: input.number())
                trace?("  contents \(side)x\(side) contentsRect \(rect) contentsCenter \(center)")
                target.contents = image
                target.contentsRect = rect
                target.contentsCenter = center   // nine-slice scaling (issue 28)
                let filters: [ContentsFilter] = [.nearest, .linear, .trilinear]
                target.minificationFilter = filters[input.index(3)]
                target.magnificationFilter = filters[input.index(3)]
                target.shouldRasterize = input.byte() % 3 == 0
                target.rasterizationScale = input.number()
                target.allowsGroupOpacity = input.byte() % 2 == 0
                target.edgeAntialiasingMask = EdgeAntialiasingMask(rawValue: input.byte() & 15)
                trace?("  filters \(target.minificationFilter)/\(target.magnificationFilter) rasterize \(target.shouldRasterize) at \(target.rasterizationScale) group opacity \(target.allowsGroupOpacity) edges \(target.edgeAntialiasingMask.rawValue)")
            case 13:
                // A write by key with any numeric type must follow the typed setter's rule.
                let key = numericKeys[input.index(numericKeys.count)]
                let value = input.anyNumber()
                trace?("  setValue(\(value) as \(type(of: value)), forKeyPath: \(key))")
                target.setValue(value, forKeyPath: key)
                if !(target.opacity >= 0 && target.opacity <= 1) || !(target.shadowOpacity >= 0 && target.shadowOpacity <= 1) {
                    throw Violation(description: "opacity \(target.opacity), shadowOpacity \(target.shadowOpacity) after setting \(key) to \(value)")
                }
                if !(target.cornerRadius >= 0 && target.borderWidth >= 0) {
                    throw Violation(description: "a negative length after setting \(key) to \(value)")
                }
            default:
                guard !skip else { break }
                Transaction.flush()
                guard renders < maximumRenders else { break }
                renders += 1
                try render(root, tracked, at: clock.now)
            }
        }
        // Every program ends with a frame now and one after all its animations.
        trace?("end: render, advance 1000 s, render")
        Transaction.flush()
        try render(root, tracked, at: clock.now)
        clock.advance(by: 1000)
        try render(root, tracked, at: clock.now)
    }

    /// A frame damage-tracked and a full repaint must agree, and presentation values be finite.
    private static func render(_ root: Layer, _ tracked: OffscreenRenderer, at time: Double) throws(Violation) {
        let incremental = tracked.render(atTime: time)
        let fresh = OffscreenRenderer(width: size, height: size)
        fresh.rootLayer = root
        let full = fresh.render(atTime: time)
        fresh.rootLayer = nil
        if incremental != full {
            let differing = incremental.pixels.indices.filter { incremental.pixels[$0] != full.pixels[$0] }
            let xs = differing.map { $0 % size }, ys = differing.map { $0 / size }
            throw Violation(description: "a damage-tracked frame differs from a full repaint in \(differing.count) pixels, "
                            + "x \(xs.min()!)…\(xs.max()!), y \(ys.min()!)…\(ys.max()!), at \(time)")
        }
        var stack = [root]
        while let layer = stack.popLast() {
            let shown = layer.presentation(atTime: time)
            let values = [shown.opacity, shown.position.x, shown.position.y, shown.bounds.width, shown.bounds.height,
                          shown.cornerRadius, shown.borderWidth, shown.zPosition]
            if let bad = values.first(where: { !$0.isFinite }) {
                throw Violation(description: "a presentation value is \(bad)")
            }
            stack += layer.sublayers
        }
    }

    private static func configure(_ shape: ShapeLayer, _ input: inout FuzzReader) {
        let path = Path()
        let count = input.byte() % 6
        path.move(to: Point(x: input.number(), y: input.number()))
        for _ in 0..<count {
            switch input.byte() % 4 {
            case 0: path.addLine(to: Point(x: input.number(), y: input.number()))
            case 1: path.addQuadCurve(to: Point(x: input.number(), y: input.number()), control: Point(x: input.number(), y: input.number()))
            case 2: path.addArc(center: Point(x: input.number(), y: input.number()), radius: input.number(),
                                startAngle: input.number(), endAngle: input.number(), clockwise: input.byte() % 2 == 0)
            default: path.closeSubpath()
            }
        }
        shape.path = path
        shape.fillColor = input.byte() % 3 == 0 ? nil : input.color()
        shape.strokeColor = input.byte() % 2 == 0 ? nil : input.color()
        shape.lineWidth = input.number()
        shape.strokeEnd = input.number()
    }

    private static func otherLayer(_ input: inout FuzzReader) -> Layer {
        switch input.byte() % 5 {
        case 0: return gradientLayer(&input)
        case 4:
            let b = BackdropLayer()
            b.blurRadius = input.number()
            b.saturation = input.number()
            return b
        case 3:
            // Rates up to 200 a second here: the particle budget is tested apart.
            let e = EmitterLayer()
            let cell = EmitterCell()
            cell.contents = Image(width: 1 + Int(input.byte() % 4), height: 2, color: input.color())
            cell.birthRate = Double(input.byte() % 200)
            cell.lifetime = input.number()
            cell.velocity = input.number()
            cell.emissionRange = input.number()
            cell.scale = input.number()
            cell.spin = input.number()
            cell.yAcceleration = input.number()
            cell.alphaSpeed = input.number()
            e.emitterCells = [cell]
            e.emitterPosition = Point(x: input.number(), y: input.number())
            e.emitterShape = [.point, .line, .rectangle, .circle][input.index(4)]
            e.emitterSize = Size(width: input.number(), height: input.number())
            e.renderMode = input.byte() % 2 == 0 ? .additive : .oldestFirst
            e.seed = UInt32(input.byte())
            return e
        case 1:
            let r = ReplicatorLayer()
            // Counts up to 40 here: a bounded count is tested apart (10,000 copies per frame would slow every program).
            r.instanceCount = Int(input.byte() % 41)
            r.instanceTransform = input.transform()
            r.instanceDelay = input.number()
            r.instanceColor = input.byte() % 4 == 0 ? nil : input.color()
            r.instanceRedOffset = input.number()
            r.instanceAlphaOffset = input.number()
            r.preservesDepth = input.byte() % 2 == 0
            return r
        default:
            return TransformLayer()
        }
    }

    private static func gradientLayer(_ input: inout FuzzReader) -> Layer {
        let g = GradientLayer()
        let count = Int(input.byte() % 5)
        g.colors = input.byte() % 4 == 0 ? nil : (0..<count).map { _ in input.color() }
        // Locations of any count, in any order, out of range.
        g.locations = input.byte() % 2 == 0 ? nil : (0..<Int(input.byte() % 5)).map { _ in input.number() }
        g.startPoint = Point(x: input.number(), y: input.number())
        g.endPoint = Point(x: input.number(), y: input.number())
        g.type = [.axial, .radial, .conic][input.index(3)]
        return g
    }

    private static func describe(_ layer: Layer) -> String {
        if let e = layer as? EmitterLayer, let c = e.emitterCells?.first {
            return "EmitterLayer at \(e.emitterPosition) size \(e.emitterSize) \(e.emitterShape) \(e.renderMode) seed \(e.seed): cell rate \(c.birthRate) "
                + "life \(c.lifetime) velocity \(c.velocity) range \(c.emissionRange) scale \(c.scale) spin \(c.spin) "
                + "yAcceleration \(c.yAcceleration) alphaSpeed \(c.alphaSpeed) contents \(c.contents.map { "\($0.width)x\($0.height)" } ?? "-")"
        }
        if let r = layer as? ReplicatorLayer {
            return "ReplicatorLayer count \(r.instanceCount) transform \(r.instanceTransform) delay \(r.instanceDelay) "
                + "color \(String(describing: r.instanceColor)) offsets \(r.instanceRedOffset) \(r.instanceAlphaOffset) depth \(r.preservesDepth)"
        }
        guard let g = layer as? GradientLayer else { return "\(type(of: layer))" }
        return "GradientLayer \(g.type) colors \(String(describing: g.colors)) locations \(String(describing: g.locations)) "
            + "from \(g.startPoint) to \(g.endPoint)"
    }

    private static let numericKeys = ["opacity", "shadowOpacity", "cornerRadius", "borderWidth", "position.x", "bounds.size.width",
                                      "zPosition", "contentsRect.size.width", "transform.scale", "shadowRadius"]

    private static let keys = ["position", "bounds", "opacity", "cornerRadius", "borderWidth", "backgroundColor", "transform",
                               "position.x", "transform.rotation.z", "shadowRadius", "zPosition", "bounds.size.width",
                               // Meaningful on gradient and replicator layers; on others, refused or ignored.
                               "colors", "locations", "startPoint", "endPoint", "instanceTransform", "instanceDelay",
                               "instanceColor"]

    private static func basicAnimation(_ input: inout FuzzReader) -> Animation {
        let key = keys[input.index(keys.count)]
        let a = BasicAnimation(keyPath: key)
        a.fromValue = input.byte() % 3 == 0 ? nil : input.value(for: key)
        a.toValue = input.byte() % 3 == 0 ? nil : input.value(for: key)
        a.byValue = input.byte() % 5 == 0 ? input.value(for: key) : nil
        timing(a, &input)
        return a
    }

    private static func keyframeAnimation(_ input: inout FuzzReader) -> Animation {
        let key = keys[input.index(keys.count)]
        let a = KeyframeAnimation(keyPath: key)
        let count = input.byte() % 7
        a.values = (0..<count).map { _ in input.value(for: key) }
        if input.byte() % 2 == 0 { a.keyTimes = (0..<Int(input.byte() % 7)).map { _ in input.number() } }
        if input.byte() % 3 == 0 {
            a.calculationMode = .cubic
            a.tensionValues = (0..<count).map { _ in input.number() }
            a.continuityValues = input.byte() % 2 == 0 ? (0..<count).map { _ in input.number() } : nil
            a.biasValues = input.byte() % 2 == 0 ? (0..<count).map { _ in input.number() } : nil
        }
        a.isCumulative = input.byte() % 4 == 0
        timing(a, &input)
        return a
    }

    private static func timing(_ a: Animation, _ input: inout FuzzReader) {
        a.duration = input.number()
        a.beginTime = input.byte() % 4 == 0 ? input.number() : 0
        a.speed = input.byte() % 4 == 0 ? input.number() : 1
        a.timeOffset = input.byte() % 4 == 0 ? input.number() : 0
        a.repeatCount = input.byte() % 4 == 0 ? input.number() : 0
        a.autoreverses = input.byte() % 3 == 0
        a.fillMode = [FillMode.removed, .forwards, .backwards, .both][input.index(4)]
        a.isRemovedOnCompletion = input.byte() % 3 != 0
    }
}

/// The layer fuzzer's own values.
extension FuzzReader {
    mutating func color() -> Color {
        Color(red: Double(byte()) / 255, green: Double(byte()) / 255, blue: Double(byte()) / 255, alpha: number() / 100)
    }

    mutating func timeStep() -> Double {
        [0, 1.0 / 60, 0.1, 0.25, 1, -1, 1e9, .nan, .infinity][index(9)]
    }

    mutating func transform() -> Transform3D {
        switch byte() % 5 {
        case 0: return Transform3D(rotationAngle: number(), x: number(), y: number(), z: number())
        case 1: return Transform3D(scaleX: number(), y: number(), z: number())
        case 2: return Transform3D(translationX: number(), y: number(), z: number())
        case 3:   // projective: perspective with a hostile m34
            var t = Transform3D.identity
            t.m34 = -1 / number()
            return t.rotated(by: number(), x: 0, y: 1, z: 0)
        default: return Transform3D(scaleX: 0, y: number(), z: 1)   // singular
        }
    }

    /// A value for a key: mostly of its type, sometimes of another.
    mutating func value(for key: String) -> Any {
        if byte() % 11 == 0 { return "not a value" }
        switch key {
        case "position": return Point(x: number(), y: number())
        case "bounds": return Rect(x: number(), y: number(), width: number(), height: number())
        case "backgroundColor": return color()
        case "transform", "instanceTransform": return transform()
        case "instanceColor": return color()
        case "colors": return (0..<Int(byte() % 4)).map { _ in color() }
        case "locations": return (0..<Int(byte() % 4)).map { _ in number() }
        case "startPoint", "endPoint": return Point(x: number(), y: number())
        default: return number()
        }
    }
}
