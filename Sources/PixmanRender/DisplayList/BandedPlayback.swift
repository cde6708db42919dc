import CPixman

/// Plays a frame's display list into a buffer: the background, then the items,
/// only inside the damaged region. A large region is cut into horizontal bands
/// of about equal damaged area, played at once on the render workers; each band
/// draws through its own pixman image over the buffer's pixels, clipped to its
/// part of the region, so no band touches another's pixels or image state.
struct BandedPlayback {
    /// Bands at most (normally one per core).
    var maximumBands: Int
    /// Damaged pixels below which a band is not worth a thread.
    var minimumBandArea = 96 * 1024

    /// Plays `items` over `background` into `image` (premultiplied ARGB32), inside
    /// `region` (device pixels; nil: everything). Returns the bands used.
    @discardableResult
    func play(_ items: [DisplayItem], onto image: OpaquePointer, region: [PixelBox]?, background: pixman_color_t) -> [PixelBox] {
        guard let frame = frame(items, image, region, background) else { return [] }
        RenderWorkers.shared.perform(frame.bands.count) { frame.playBand($0) }
        return frame.bands
    }

    /// Like `play`, but returns at once, while the render workers draw; `done` runs
    /// on one of them when the last band is drawn. `image` must live until then.
    @discardableResult
    func playAsync(_ items: [DisplayItem], onto image: OpaquePointer, region: [PixelBox]?, background: pixman_color_t,
                   done: @escaping @Sendable () -> Void) -> [PixelBox] {
        guard let frame = frame(items, image, region, background) else {
            done()
            return []
        }
        RenderWorkers.shared.performAsync(frame.bands.count, { frame.playBand($0) }, done: done)
        return frame.bands
    }

    private func frame(_ items: [DisplayItem], _ image: OpaquePointer, _ region: [PixelBox]?, _ background: pixman_color_t) -> Frame? {
        let width = Int(pixman_image_get_width(image)), height = Int(pixman_image_get_height(image))
        let whole = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        let rects = (region ?? [whole]).map { $0.intersection(whole) }.filter { !$0.isEmpty }
        guard !rects.isEmpty else { return nil }
        let bands = Self.bands(of: rects, count: maximumBands, minimumArea: minimumBandArea)
        return Frame(image: image, rects: rects, bands: bands, items: items, background: background)
    }

    /// Horizontal strips as wide as the region, splitting its area about evenly.
    static func bands(of rects: [PixelBox], count: Int, minimumArea: Int) -> [PixelBox] {
        let bounds = rects.reduce(PixelBox.empty) { $0.union($1) }
        let area = exactArea(rects)
        let n = max(1, min(count, area / max(1, minimumArea), bounds.height))
        guard n > 1 else { return [bounds] }
        // Damaged pixels per row, summed from the top.
        var perRow = [Int](repeating: 0, count: bounds.height + 1)
        for r in disjoint(rects) {
            perRow[r.y0 - bounds.y0] += r.width
            perRow[r.y1 - bounds.y0] -= r.width
        }
        var cuts = [bounds.y0]
        var width = 0, sum = 0
        for row in 0..<bounds.height where cuts.count < n {
            width += perRow[row]
            sum += width
            if sum * n >= area * cuts.count, bounds.y0 + row + 1 < bounds.y1 { cuts.append(bounds.y0 + row + 1) }
        }
        cuts.append(bounds.y1)
        return zip(cuts, cuts.dropFirst()).map { PixelBox(x0: bounds.x0, y0: $0, x1: bounds.x1, y1: $1) }
    }

    /// The rectangles as non-overlapping ones (pixman's region arithmetic).
    static func disjoint(_ rects: [PixelBox]) -> [PixelBox] {
        var region = pixman_region32_t()
        var boxes = rects.map { pixman_box32_t(x1: Int32($0.x0), y1: Int32($0.y0), x2: Int32($0.x1), y2: Int32($0.y1)) }
        pixman_region32_init_rects(&region, &boxes, Int32(boxes.count))
        defer { pixman_region32_fini(&region) }
        var n: Int32 = 0
        guard let out = pixman_region32_rectangles(&region, &n) else { return [] }
        return (0..<Int(n)).map { PixelBox(x0: Int(out[$0].x1), y0: Int(out[$0].y1), x1: Int(out[$0].x2), y1: Int(out[$0].y2)) }
    }

    static func exactArea(_ rects: [PixelBox]) -> Int {
        disjoint(rects).reduce(0) { $0 + $1.area }
    }

    /// What every band reads; shared by the threads, changed by none.
    private final class Frame: @unchecked Sendable {
        let image: OpaquePointer
        let rects: [PixelBox]
        let bands: [PixelBox]
        let items: [DisplayItem]
        let background: pixman_color_t

        init(image: OpaquePointer, rects: [PixelBox], bands: [PixelBox], items: [DisplayItem], background: pixman_color_t) {
            self.image = image
            self.rects = rects
            self.bands = bands
            self.items = items
            self.background = background
        }

        func playBand(_ index: Int) {
            let band = bands[index]
            let parts = rects.map { $0.intersection(band) }.filter { !$0.isEmpty }
            guard !parts.isEmpty,
                  let header = pixman_image_create_bits(pixman_image_get_format(image), pixman_image_get_width(image),
                                                        pixman_image_get_height(image), pixman_image_get_data(image),
                                                        pixman_image_get_stride(image)) else { return }
            defer { pixman_image_unref(header) }
            // Items are cut to the band's rows (and boxes to its columns) as they are
            // played; a clip region is needed only where the damage is not the whole
            // width of the band, and it makes every composite slower.
            let wholeRows = parts.count == 1 && parts[0] == band && band.x0 == 0 && band.x1 == Int(pixman_image_get_width(image))
            if !wholeRows {
                var boxes = parts.map { pixman_box32_t(x1: Int32($0.x0), y1: Int32($0.y0), x2: Int32($0.x1), y2: Int32($0.y1)) }
                var clip = pixman_region32_t()
                pixman_region32_init_rects(&clip, &boxes, Int32(boxes.count))
                pixman_image_set_clip_region32(header, &clip)
                pixman_region32_fini(&clip)
            }
            var color = background
            var all = pixman_box32_t(x1: Int32(band.x0), y1: Int32(band.y0), x2: Int32(band.x1), y2: Int32(band.y1))
            pixman_image_fill_boxes(PIXMAN_OP_SRC, header, &color, 1, &all)
            let area = parts.reduce(PixelBox.empty) { $0.union($1) }
            DisplayListPlayer.play(items, onto: DisplayListPlayer.Target(image: header, originX: 0, originY: 0, area: area))
        }
    }
}
