import LayerKit

/// The display items of leaf layers, kept from frame to frame: a leaf drawn
/// again with the same model, under the same superlayer model, at the same place
/// on the device gets the items it had instead of building them again — a frame
/// that repaints a small area among thousands of still layers builds only what
/// changed (issue 13).
///
/// Only leaves whose items depend on nothing else are kept: no animations (on the
/// leaf or its superlayer, whose presentation changes with time), no mask (whose
/// changes do not reach the leaf's model version), not inside a transition's old
/// state. A leaf that changed since it was last drawn is drawn straight into the
/// frame, its items not kept: one that changes every frame (all of them, when
/// everything moves) costs a lookup, not a copy; its items are kept once it
/// stands still. Model versions are unique across layers, so a new layer at a
/// gone one's address never matches.
@MainActor
final class LeafItemCache {
    struct Key: Equatable {
        let modelVersion: UInt64
        let parentVersion: UInt64
        let parentTransform: AffineTransform
        let frame: PixelBox
        let scale: Double
    }

    private struct Entry {
        var key: Key
        /// Nil: the leaf had changed when last drawn.
        var items: [DisplayItem]?
        var lastUse: Int
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var frame = 0
    /// Leaves whose kept items were used (for tests).
    private(set) var reuses = 0
    /// Leaves not drawn for this many of the renderer's frames are forgotten
    /// (looked at once per as many, so within twice as many): a gone layer's
    /// items, and the images they hold, do not stay.
    static let idleFrames = 64

    /// What to do for a leaf: reuse its items, build and keep them, or build them into the frame.
    enum Use {
        case reuse([DisplayItem])
        case buildAndKeep
        case build
    }

    /// The key for drawing `layer` under `parent` with `parentTransform`, when its
    /// items may be kept.
    static func key(_ layer: Layer, parent: Layer?, parentTransform: AffineTransform, frame: PixelBox, scale: Double) -> Key? {
        // (A backdrop's items hold what was drawn before it: never the same twice.)
        guard layer.sublayers.isEmpty, !layer.hasAnimations, !layer.isPresentationCopy, layer.modelMask == nil, !(layer is BackdropLayer),
              parent.map({ !$0.isPresentationCopy && !$0.hasAnimations }) ?? true else { return nil }
        return Key(modelVersion: layer.modelVersion, parentVersion: parent?.modelVersion ?? 0,
                   parentTransform: parentTransform, frame: frame, scale: scale)
    }

    /// A new frame begins.
    func beginFrame() {
        frame += 1
        if frame % Self.idleFrames == 0 {
            let recent = frame - Self.idleFrames
            entries = entries.filter { $0.value.lastUse > recent }
        }
    }

    /// How many leaves are remembered (for tests).
    var count: Int { entries.count }

    func use(for layer: Layer, key: Key) -> Use {
        let id = ObjectIdentifier(layer)
        guard let i = entries.index(forKey: id) else {
            entries[id] = Entry(key: key, items: nil, lastUse: frame)
            return .build
        }
        entries.values[i].lastUse = frame
        guard entries.values[i].key == key else {
            entries.values[i].key = key
            entries.values[i].items = nil
            return .build
        }
        if let items = entries.values[i].items {
            reuses += 1
            return .reuse(items)
        }
        return .buildAndKeep
    }

    func keep(_ items: [DisplayItem], for layer: Layer) {
        entries[ObjectIdentifier(layer)]?.items = items
    }

    func removeAll() {
        entries.removeAll()
    }
}
