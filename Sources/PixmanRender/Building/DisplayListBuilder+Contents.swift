import CPixman
import Glibc
import LayerKit

/// A layer's `contents`: placed by gravity, cut by `contentsRect`, in nine patches
/// by `contentsCenter`, sampled by the layer's filters.
extension DisplayListBuilder {
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

    /// The contents: the part of the image `contentsRect` names, placed by
    /// gravity — and with `contentsCenter` smaller than the unit rectangle and
    /// gravity `.resize`, in nine patches (`nineSlices`).
    func drawContents(_ image: Image, of p: Layer, transform m: AffineTransform, into items: inout [DisplayItem]) {
        guard let src = contents.sharedImage(for: image) else { return }
        let frame = Self.contentsFrame(p, imageSize: image.size)
        guard frame.width > 0, frame.height > 0 else { return }
        let cr = p.contentsRect
        let shown = Rect(x: cr.minX * Double(image.width), y: cr.minY * Double(image.height),
                         width: cr.width * Double(image.width), height: cr.height * Double(image.height))
        for (from, to) in Self.nineSlices(p, source: shown, frame: frame, transform: m) {
            drawPatch(src, of: image, layer: p, from: from, to: to, transform: m, into: &items)
        }
    }

    /// Image pixels `from` drawn over `to` (layer coordinates), through `to`'s device
    /// outline, sampled by the layer's filters: nearest, linear (pixman's GOOD filter
    /// when shrinking), or when shrinking with trilinear, the mipmap level nearest
    /// the scale (`ContentsCache.mipmap`), blended bilinearly.
    func drawPatch(_ src: SharedImage, of image: Image, layer p: Layer, from: Rect, to: Rect, transform m: AffineTransform,
                   into items: inout [DisplayItem]) {
        // image pixels ← layer coordinates ← device pixels
        let layerToImage = AffineTransform(translationX: -to.minX, y: -to.minY)
            .concatenating(AffineTransform(scaleX: from.width / to.width, y: from.height / to.height))
            .concatenating(AffineTransform(translationX: from.minX, y: from.minY))
        var deviceToImage = m.inverted().concatenating(layerToImage)
        let placed = coverage(to.corners.applying(m))
        guard !placed.bounds.isEmpty else { return }
        let area = abs(deviceToImage.a * deviceToImage.d - deviceToImage.b * deviceToImage.c)   // image pixels a device pixel
        let magnifying = area < 1
        var sampled = src, filter: pixman_filter_t
        switch magnifying ? p.magnificationFilter : p.minificationFilter {
        case .nearest: filter = PIXMAN_FILTER_NEAREST
        case .linear: filter = magnifying ? PIXMAN_FILTER_BILINEAR : PIXMAN_FILTER_GOOD
        case .trilinear:
            filter = PIXMAN_FILTER_BILINEAR
            // (A degenerate map's area is ∞ or NaN: no level; found by the fuzzer.)
            let level = magnifying || !area.isFinite ? 0 : Int(min(30, log2(area.squareRoot())).rounded())
            if level > 0, let mip = contents.mipmap(for: image, level: level) {
                sampled = mip.image
                deviceToImage = deviceToImage.concatenating(AffineTransform(scaleX: mip.scaleX, y: mip.scaleY))
            }
        }
        guard let transform = pixmanTransform(deviceToImage, sampling: placed.bounds) else { return }
        items.append(.image(sampled, ImageSampling(transform: transform, filter: filter, repeatMode: PIXMAN_REPEAT_PAD), placed))
    }

    /// Nine-slice scaling (`contentsCenter`, unit coordinates of the shown image):
    /// the corners keep their size (image pixels / `contentsScale`), the edges
    /// stretch along their side, the centre both ways; corners that do not fit are
    /// shrunk in proportion. A centre outside the unit rectangle is clamped to it; a
    /// centre of no width or height stretches the one pixel line there. Other
    /// gravities, or the whole unit rectangle, draw one patch. Pairs of image pixels
    /// and layer rectangles, empty ones left out. Under a map `m` that keeps axes,
    /// the cuts between patches fall on whole device pixels: two patches meeting
    /// inside a pixel would each cover part of it, and the background would show
    /// through the seam.
    static func nineSlices(_ p: Layer, source: Rect, frame: Rect, transform m: AffineTransform) -> [(from: Rect, to: Rect)] {
        let cc = p.contentsCenter
        let unit = Rect(x: 0, y: 0, width: 1, height: 1)
        guard p.contentsGravity == .resize, cc != unit, source.width > 0, source.height > 0 else { return [(source, frame)] }
        let scale = max(p.contentsScale, 0.0001)
        func cuts(_ lo: Double, _ hi: Double, _ start: Double, _ length: Double, _ outStart: Double, _ outLength: Double) -> ([Double], [Double]) {
            let a = min(1, max(0, lo.isNaN ? 0 : lo)), b = min(1, max(a, hi.isNaN ? 1 : hi))
            var from = [start, start + a * length, start + b * length, start + length]
            if from[2] - from[1] < 1 {
                // No centre: the one pixel line at the cut stretches.
                let line = min(max(start, (from[1]).rounded(.down)), start + length - 1)
                from[1] = max(start, line); from[2] = min(start + length, line + 1)
            }
            var first = (from[1] - from[0]) / scale, last = (from[3] - from[2]) / scale
            if first + last > outLength, first + last > 0 {
                let shrink = outLength / (first + last)
                first *= shrink; last *= shrink
            }
            return (from, [outStart, outStart + first, outStart + outLength - last, outStart + outLength])
        }
        var (sx, lx) = cuts(cc.minX, cc.maxX, source.minX, source.width, frame.minX, frame.width)
        var (sy, ly) = cuts(cc.minY, cc.maxY, source.minY, source.height, frame.minY, frame.height)
        if m.b == 0, m.c == 0, m.a != 0, m.d != 0 {
            func snapped(_ v: Double, _ scale: Double, _ offset: Double, within lo: Double, _ hi: Double) -> Double {
                min(hi, max(lo, ((v * scale + offset).rounded() - offset) / scale))
            }
            for k in [1, 2] {
                lx[k] = snapped(lx[k], m.a, m.tx, within: lx[0], lx[3])
                ly[k] = snapped(ly[k], m.d, m.ty, within: ly[0], ly[3])
            }
        }
        var out: [(from: Rect, to: Rect)] = []
        for j in 0..<3 {
            for i in 0..<3 {
                let to = Rect(x: lx[i], y: ly[j], width: lx[i + 1] - lx[i], height: ly[j + 1] - ly[j])
                let from = Rect(x: sx[i], y: sy[j], width: sx[i + 1] - sx[i], height: sy[j + 1] - sy[j])
                guard to.width > 1e-9, to.height > 1e-9, from.width > 0, from.height > 0 else { continue }
                out.append((from, to))
            }
        }
        return out
    }
}
