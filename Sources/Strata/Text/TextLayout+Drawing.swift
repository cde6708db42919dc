import LayerKit

extension TextLayout {
    /// Draws the layout with its top left at `origin` (layer units) into a
    /// layer's backing store: glyphs through the context, rasterized by FreeType
    /// at the context's scale (rule X3); characters no font has as hollow boxes.
    /// Colours, the text's own included, are resolved against `traits` (rule P2).
    func draw(at origin: Point, color: Color, traits: TraitCollection, in context: any DrawingContext) {
        guard !glyphs.isEmpty else { return }
        let color = color.resolvedColor(with: traits)
        let rasterizer = TextSystem.shared.rasterizer
        let fonts = faces.map { GlyphFont(face: rasterizer.faceNumber($0), size: $0.size) }
        var drawn: [Glyph] = []
        drawn.reserveCapacity(glyphs.count)
        var missing: [(Rect, Color)] = []
        for g in glyphs {
            let point = Point(x: origin.x + g.x, y: origin.y + g.y)
            if let width = g.missingWidth {
                let height = style.font.ascender * 0.7
                missing.append((Rect(x: point.x + width * 0.1, y: point.y - height, width: width * 0.8, height: height), g.color?.resolvedColor(with: traits) ?? color))
            } else {
                drawn.append(Glyph(id: g.id, font: g.face, position: point, color: g.color?.resolvedColor(with: traits)))
            }
        }
        context.drawGlyphs(drawn, fonts: fonts, color: color, rasterizer: rasterizer)
        // Characters no font has: a hollow box each, never nothing (rule X1).
        for (rect, boxColor) in missing {
            context.stroke(Path(rect: rect.insetBy(dx: 0.5 / context.scale, dy: 0.5 / context.scale)), color: boxColor, lineWidth: 1 / context.scale)
        }
    }
}
