import CPixman

/// An emitter layer's live particles: each its image's alpha, moved, scaled and
/// turned onto the device (`transform` maps device pixels to image pixels),
/// filled with its colour, in drawing order — composited OVER, or ADDed for an
/// additive emitter.
final class ParticleBatch: @unchecked Sendable {
    struct Sprite {
        let image: SharedImage
        let transform: pixman_transform_t
        let box: PixelBox
        let color: pixman_color_t
    }

    let sprites: [Sprite]
    let op: pixman_op_t
    let bounds: PixelBox

    init(sprites: [Sprite], op: pixman_op_t) {
        self.sprites = sprites
        self.op = op
        bounds = sprites.reduce(PixelBox.empty) { $0.union($1.box) }
    }

    /// Plays the sprites that touch `area` of a target whose pixel (0, 0) is device (originX, originY).
    func play(onto image: OpaquePointer, originX: Int, originY: Int, area: PixelBox) {
        var header: OpaquePointer?
        var headerOf: SharedImage?
        defer { if let header { pixman_image_unref(header) } }
        for s in sprites {
            let c = s.box.intersection(area)
            guard !c.isEmpty else { continue }
            if headerOf !== s.image {
                if let header { pixman_image_unref(header) }
                header = s.image.header()
                headerOf = s.image
                guard let header else { continue }
                pixman_image_set_filter(header, PIXMAN_FILTER_BILINEAR, nil, 0)
                pixman_image_set_repeat(header, PIXMAN_REPEAT_NONE)
            }
            guard let header else { continue }
            var t = s.transform
            pixman_image_set_transform(header, &t)
            var color = s.color
            guard let solid = pixman_image_create_solid_fill(&color) else { continue }
            // The mask is sampled in device coordinates: its transform takes them to the image.
            pixman_image_composite32(op, solid, header, image, 0, 0, Int32(c.x0), Int32(c.y0),
                                     Int32(c.x0 - originX), Int32(c.y0 - originY), Int32(c.width), Int32(c.height))
            pixman_image_unref(solid)
        }
    }
}
