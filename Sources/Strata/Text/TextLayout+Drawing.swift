import CPango
import CPixman
import LayerKit
import PixmanRender

extension TextLayout {
    /// Draws the layout with its top left at `origin` (layer units) into a
    /// layer's backing store. Glyphs are rasterized at the context's scale
    /// (rule X3) and composited with `pixman_composite_glyphs`, one call per
    /// colour. The context's translation and scale apply; glyphs stay upright
    /// under a rotation of the context.
    @MainActor
    func draw(at origin: Point, color: Color, in context: any DrawingContext) {
        guard let context = context as? PixmanDrawingContext, !glyphs.isEmpty else { return }
        var missing: [(Rect, Color)] = []
        var problems: [String] = []
        context.withPixmanTarget { target, transform in
            let scale = (abs(transform.a * transform.d - transform.b * transform.c)).squareRoot()
            guard scale > 0, scale.isFinite else { return }
            TextSystem.shared.withLock { system in
                let rasterizer = system.rasterizer
                pixman_glyph_cache_freeze(rasterizer.cache)
                let fonts = faces.map { rasterizer.font(GlyphRasterizer.SizedFace(face: $0, pixelsPerEm: $0.size * scale)) }
                // Glyphs by colour, in the order the colours come (usually one).
                var masks: [(color: Color, glyphs: [pixman_glyph_t])] = []
                var colored: [(OpaquePointer, Int32, Int32)] = []
                let phases = Double(GlyphRasterizer.subpixelPhases)
                // Only glyphs that can touch the target: pixman's glyph compositing
                // works in 16-bit extents, and a line 33,000 pixels long (a field's
                // few thousand characters) drew nothing at all.
                let reach = 4 * (faces.map { $0.size * scale }.max() ?? 0)
                let visibleX = -reach...(Double(pixman_image_get_width(target)) + reach)
                let visibleY = -reach...(Double(pixman_image_get_height(target)) + reach)
                for g in glyphs {
                    let glyphColor = g.color ?? color
                    let point = Point(x: origin.x + g.x, y: origin.y + g.y)
                    if let width = g.missingWidth {
                        let height = style.font.ascender * 0.7
                        missing.append((Rect(x: point.x + width * 0.1, y: point.y - height, width: width * 0.8, height: height), glyphColor))
                        continue
                    }
                    let device = point.applying(transform)
                    let quarters = (device.x * phases).rounded()
                    guard visibleX.contains(device.x), visibleY.contains(device.y) else { continue }
                    let x = Int32((quarters / phases).rounded(.down))
                    let phase = Int(quarters) - Int(x) * GlyphRasterizer.subpixelPhases
                    let y = Int32(device.y.rounded())
                    switch rasterizer.glyph(g.id, of: fonts[g.face], phase: phase) {
                    case let .mask(entry)?:
                        let glyph = pixman_glyph_t(x: x, y: y, glyph: entry)
                        if masks.last?.color == glyphColor {
                            masks[masks.count - 1].glyphs.append(glyph)
                        } else if let i = masks.firstIndex(where: { $0.color == glyphColor }) {
                            masks[i].glyphs.append(glyph)
                        } else {
                            masks.append((glyphColor, [glyph]))
                        }
                    case let .color(image, left, top)?: colored.append((image, x + left, y - top))
                    case nil: break
                    }
                }
                for (glyphColor, var list) in masks {
                    var c = pixmanColor(glyphColor)
                    guard let source = pixman_image_create_solid_fill(&c) else { continue }
                    var box = pixman_box32_t()
                    list.withUnsafeMutableBufferPointer { glyphs in
                        pixman_glyph_get_extents(rasterizer.cache, Int32(glyphs.count), glyphs.baseAddress, &box)
                        pixman_composite_glyphs(PIXMAN_OP_OVER, source, target, PIXMAN_a8, 0, 0, box.x1, box.y1, box.x1, box.y1,
                                                box.x2 - box.x1, box.y2 - box.y1, rasterizer.cache, Int32(glyphs.count), glyphs.baseAddress)
                    }
                    pixman_image_unref(source)
                }
                if !colored.isEmpty {
                    // Emoji keep their own colours; the text's alpha fades them.
                    var alpha = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((min(1, max(0, color.alpha)) * 65535).rounded()))
                    let mask = color.alpha < 1 ? pixman_image_create_solid_fill(&alpha) : nil
                    for (image, x, y) in colored {
                        pixman_image_composite32(PIXMAN_OP_OVER, image, mask, target, 0, 0, 0, 0, x, y,
                                                 pixman_image_get_width(image), pixman_image_get_height(image))
                    }
                    if let mask { pixman_image_unref(mask) }
                }
                pixman_glyph_cache_thaw(rasterizer.cache)
                rasterizer.trim()
                problems = rasterizer.problems
                rasterizer.problems = []
            }
        }
        problems.forEach(reportTextProblem)
        // Characters no font has: a hollow box each, never nothing (rule X1).
        for (rect, boxColor) in missing {
            context.stroke(Path(rect: rect.insetBy(dx: 0.5 / context.scale, dy: 0.5 / context.scale)), color: boxColor, lineWidth: 1 / context.scale)
        }
    }
}
