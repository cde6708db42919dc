import CPixman
import Glibc
import LayerKit

/// A gradient layer's ramp as pixman draws it: one of pixman's gradient pictures,
/// placed by a device-to-gradient transform, with stops that already hold the
/// layer's opacity. Made by `DisplayListBuilder`, turned into a pixman image by
/// each band that plays it.
///
/// pixman blends neighbouring stops in straight (unpremultiplied) colour; Core
/// Animation blends in premultiplied colour. The two agree when the stops have
/// the same alpha. Where they differ, the segment is cut into short ones whose
/// ends are the premultiplied blend, and a stop with no alpha takes the colour of
/// its neighbour on each side — so a ramp to `.clear` keeps its hue.
struct GradientPaint: @unchecked Sendable {
    enum Geometry {
        /// From p1 to p2, in gradient space.
        case linear(pixman_point_fixed_t, pixman_point_fixed_t)
        /// A circle of this radius about the origin of gradient space.
        case radial(pixman_fixed_t)
        /// Around the origin, starting at this angle (degrees, pixman's sense).
        case conical(pixman_fixed_t)
    }

    private(set) var geometry: Geometry
    let stops: [pixman_gradient_stop_t]
    /// Device pixels to gradient space.
    let transform: pixman_transform_t
    /// Whether bands of one colour would be wider than two device pixels: then the
    /// ramp is dithered into the target (pixman's blue-noise dither).
    let dithers: Bool

    /// Segments whose ends differ in alpha are cut into this many.
    static let premultipliedSteps = 8

    /// The paint of `layer`'s ramp under `m` (layer → device) at `opacity`, for the
    /// device pixels of `box`; nil when the layer draws no gradient — also when
    /// gradient space there lies beyond pixman's fixed-point range (±32,000 points
    /// from the start point), where a ramp cannot be drawn right.
    @MainActor
    init?(_ layer: GradientLayer, transform m: AffineTransform, opacity: Double, sampling box: PixelBox) {
        let ramp = layer.resolvedStops
        guard !ramp.isEmpty else { return nil }
        let b = layer.bounds
        func inLayer(_ u: Point) -> Point { Point(x: b.minX + u.x * b.width, y: b.minY + u.y * b.height) }
        let start = inLayer(layer.startPoint), end = inLayer(layer.endPoint)
        let dx = end.x - start.x, dy = end.y - start.y
        // gradient space ← layer space
        var toGradient = AffineTransform.identity
        var rampLength: Double   // in layer units, for the banding estimate
        var degenerate = false
        switch layer.type {
        case .axial:
            // From the start point: gradient space stays small on a huge layer.
            toGradient = AffineTransform(translationX: -start.x, y: -start.y)
            geometry = .linear(pixman_point_fixed_t(x: 0, y: 0), pixman_point_fixed_t(x: pixmanFixed(dx), y: pixmanFixed(dy)))
            rampLength = (dx * dx + dy * dy).squareRoot()
            degenerate = rampLength < 1e-6
        case .radial:
            // The ellipse's half-axes are |dx| and |dy|: squeezed into a circle of the larger.
            let rx = abs(dx), ry = abs(dy), r = max(rx, ry)
            degenerate = !(rx > 1e-6 && ry > 1e-6)
            toGradient = AffineTransform(translationX: -start.x, y: -start.y)
                .concatenating(AffineTransform(scaleX: degenerate ? 1 : r / rx, y: degenerate ? 1 : r / ry))
            geometry = .radial(pixmanFixed(r))
            rampLength = r
        case .conic:
            // pixman turns counter-clockwise in its space; mirrored in y it turns
            // clockwise on screen, from the direction of the end point.
            toGradient = AffineTransform(translationX: -start.x, y: -start.y).concatenating(AffineTransform(scaleX: 1, y: -1))
            let angle = (dx == 0 && dy == 0) ? 0 : Glibc.atan2(dy, dx) * 180 / .pi
            geometry = .conical(pixmanFixed(angle))
            rampLength = 2 * .pi * max(b.width, b.height) / 2
        }
        // A ramp with no length or an ellipse with no width shows its last colour.
        let colours = degenerate ? [(location: 0.0, color: ramp.last!.color)] : ramp
        if colours.count == 1 {
            geometry = .linear(pixman_point_fixed_t(x: 0, y: 0), pixman_point_fixed_t(x: pixmanFixed(1), y: 0))
            toGradient = .identity
        }
        guard let deviceToGradient = pixmanTransform(m.inverted().concatenating(toGradient), sampling: box) else { return nil }
        transform = deviceToGradient
        stops = Self.stops(colours, opacity: opacity)
        dithers = !degenerate && Self.bands(colours, overDevicePixels: rampLength * DisplayListBuilder.deviceScale(m))
    }

    /// pixman stops for the ramp: premultiplied blends between stops of different alpha.
    static func stops(_ ramp: [(location: Double, color: Color)], opacity: Double) -> [pixman_gradient_stop_t] {
        func stop(_ x: Double, _ c: Color) -> pixman_gradient_stop_t {
            let k = c.clamped
            func ch(_ v: Double) -> UInt16 { UInt16((min(1, max(0, v)) * 65535).rounded()) }
            return pixman_gradient_stop_t(x: pixmanFixed(x),
                                          color: pixman_color_t(red: ch(k.red), green: ch(k.green), blue: ch(k.blue),
                                                                alpha: ch(k.alpha * min(1, max(0, opacity)))))
        }
        guard ramp.count > 1 else { return [stop(0, ramp[0].color), stop(1, ramp[0].color)] }
        var out: [pixman_gradient_stop_t] = []
        for i in 0..<(ramp.count - 1) {
            let (x0, c0) = ramp[i], (x1, c1) = ramp[i + 1]
            // A clear end takes the other end's colour: the blend's colour is the other end's all the way.
            let from = c0.alpha > 0 || c1.alpha == 0 ? c0 : Color(red: c1.red, green: c1.green, blue: c1.blue, alpha: 0)
            let to = c1.alpha > 0 || c0.alpha == 0 ? c1 : Color(red: c0.red, green: c0.green, blue: c0.blue, alpha: 0)
            out.append(stop(x0, from))
            if from.alpha != to.alpha, from.alpha > 0, to.alpha > 0, x1 > x0 {
                for j in 1..<premultipliedSteps {
                    let f = Double(j) / Double(premultipliedSteps)
                    out.append(stop(x0 + (x1 - x0) * f, from.interpolated(to: to, fraction: f)))
                }
            }
            out.append(stop(x1, to))
        }
        return out
    }

    /// True when some segment's colour steps (8 bits, premultiplied) are more than
    /// two device pixels apart: plain 8-bit drawing would show bands.
    static func bands(_ ramp: [(location: Double, color: Color)], overDevicePixels length: Double) -> Bool {
        guard ramp.count > 1, length.isFinite, length > 0 else { return false }
        for (a, b) in zip(ramp, ramp.dropFirst()) {
            let p = a.color.clamped, q = b.color.clamped
            let levels = [p.red * p.alpha - q.red * q.alpha, p.green * p.alpha - q.green * q.alpha,
                          p.blue * p.alpha - q.blue * q.alpha, p.alpha - q.alpha].map { abs($0) * 255 }.max()!
            if levels >= 1, (b.location - a.location) * length / levels > 2 { return true }
        }
        return false
    }

    /// A new pixman image of the ramp in device coordinates (the caller unrefs it).
    func image() -> OpaquePointer? {
        var image: OpaquePointer?
        stops.withUnsafeBufferPointer { s in
            let n = Int32(s.count)
            switch geometry {
            case .linear(var p1, var p2):
                image = pixman_image_create_linear_gradient(&p1, &p2, s.baseAddress, n)
            case .radial(let r):
                var c = pixman_point_fixed_t(x: 0, y: 0)
                image = pixman_image_create_radial_gradient(&c, &c, 0, r, s.baseAddress, n)
            case .conical(let angle):
                var c = pixman_point_fixed_t(x: 0, y: 0)
                image = pixman_image_create_conical_gradient(&c, angle, s.baseAddress, n)
            }
        }
        guard let image else { return nil }
        var t = transform
        pixman_image_set_transform(image, &t)
        pixman_image_set_repeat(image, PIXMAN_REPEAT_PAD)
        return image
    }
}
