import Testing
import WaylandClient

/// The positioner's arithmetic (issue 23, item 1; rule M1): where the rules put
/// a popup for every anchor and gravity, and what each constraint adjustment does.
@MainActor
@Suite("Popup positioner")
struct PopupPositionerTests {
    typealias R = PopupPositioner.Rectangle
    typealias D = PopupPositioner.Direction
    let anchorRect = R(x: 100, y: 60, width: 40, height: 20)

    /// The point of `r` a direction names (its centre for none).
    func point(of r: R, _ d: D) -> (Int, Int) {
        let x = [D.left, .topLeft, .bottomLeft].contains(d) ? r.x : [D.right, .topRight, .bottomRight].contains(d) ? r.maxX : r.x + r.width / 2
        let y = [D.top, .topLeft, .topRight].contains(d) ? r.y : [D.bottom, .bottomLeft, .bottomRight].contains(d) ? r.maxY : r.y + r.height / 2
        return (x, y)
    }

    @Test("every anchor and gravity: the popup's corner or edge opposite the gravity sits on the anchor point, moved by the offset")
    func everyAnchorAndGravity() {
        let opposite: [D: D] = [.none: .none, .top: .bottom, .bottom: .top, .left: .right, .right: .left,
                                .topLeft: .bottomRight, .bottomRight: .topLeft, .topRight: .bottomLeft, .bottomLeft: .topRight]
        for anchor in D.allCases {
            for gravity in D.allCases {
                let p = PopupPositioner(width: 30, height: 16, anchorRect: anchorRect, anchor: anchor, gravity: gravity, offsetX: 3, offsetY: -2)
                let f = p.place(within: R(x: 0, y: 0, width: 1000, height: 1000))
                #expect(f == p.unadjustedFrame(), "fits: no adjustment (\(anchor), \(gravity))")
                let a = point(of: anchorRect, anchor), q = point(of: f, opposite[gravity]!)
                #expect(q.0 == a.0 + 3 && q.1 == a.1 - 2 && f.width == 30 && f.height == 16, "anchor \(anchor), gravity \(gravity): \(f)")
            }
        }
    }

    @Test("a menu at the right and bottom edges flips to the other side of its anchor; each adjustment only where allowed")
    func flips() {
        let bounds = R(x: 0, y: 0, width: 200, height: 120)
        // Below and to the right of a point near the bottom-right corner: no room either way.
        let point = R(x: 180, y: 110, width: 1, height: 1)
        var p = PopupPositioner(width: 60, height: 40, anchorRect: point, anchor: .topLeft, gravity: .bottomRight)
        #expect(p.place(within: bounds) == R(x: 121, y: 71, width: 60, height: 40), "flipped on both axes: above and to the left")
        p.adjustments = [.flipY]
        #expect(p.place(within: bounds) == R(x: 180, y: 71, width: 60, height: 40), "only y may flip")
        p.adjustments = []
        #expect(p.place(within: bounds) == R(x: 180, y: 110, width: 60, height: 40), "no adjustments: where it was asked, off the area")
        // An offset is mirrored with the flip.
        p.adjustments = [.flipX]
        p.offsetX = 5
        #expect(p.place(within: bounds).x == 181 - 60 - 5, "to the left of the anchor, the offset mirrored")
    }

    @Test("slide: a popup that flipping cannot save slides until its far edge is in; larger than the area, its near edge wins")
    func slides() {
        let bounds = R(x: 0, y: 0, width: 200, height: 120)
        var p = PopupPositioner(width: 80, height: 30, anchorRect: R(x: 170, y: 10, width: 20, height: 10), anchor: .bottom, gravity: .bottom,
                                adjustments: [.slideX])
        #expect(p.place(within: bounds) == R(x: 120, y: 20, width: 80, height: 30), "centred under the anchor, slid left by 20")
        p.anchorRect = R(x: -30, y: 10, width: 20, height: 10)
        #expect(p.place(within: bounds).x == 0, "slid right to the left edge")
        p.width = 300
        #expect(p.place(within: bounds).x == 0, "wider than the area: the left edge stays in")
        p.adjustments = [.flipX, .slideX]
        p.width = 80
        p.anchorRect = R(x: 190, y: 10, width: 10, height: 10)
        p.anchor = .right
        p.gravity = .right
        // Flipped: to the left of the anchor (110…190), which fits, so no slide.
        #expect(p.place(within: bounds) == R(x: 110, y: 0, width: 80, height: 30))
    }

    @Test("resize: what cannot flip or slide is cut to the area; a popup wholly outside keeps its size")
    func resizes() {
        let bounds = R(x: 0, y: 0, width: 200, height: 120)
        var p = PopupPositioner(width: 60, height: 500, anchorRect: R(x: 20, y: 30, width: 10, height: 10), anchor: .bottomLeft,
                                gravity: .bottomRight, adjustments: [.resizeY])
        #expect(p.place(within: bounds) == R(x: 20, y: 40, width: 60, height: 80))
        p.adjustments = [.slideY, .resizeY]
        #expect(p.place(within: bounds) == R(x: 20, y: 0, width: 60, height: 120), "slid to the top, then cut at the bottom")
        p.adjustments = [.resizeY]
        p.anchorRect = R(x: 20, y: 300, width: 10, height: 10)
        #expect(p.place(within: bounds).height == 500, "nothing of it inside: left as it is")
    }

    @Test("every set of adjustments at every corner: an axis with none stays put; sliding keeps a popup that fits inside; resizing leaves it inside; flipping only to a side that fits")
    func everyAdjustmentSet() {
        let bounds = R(x: 0, y: 0, width: 300, height: 200)
        for raw in UInt32(0)..<64 {
            let set = PopupPositioner.Adjustments(rawValue: raw)
            for corner in [(5, 5), (295, 5), (5, 195), (295, 195)] {
                let p = PopupPositioner(width: 80, height: 60, anchorRect: R(x: corner.0, y: corner.1, width: 1, height: 1),
                                        anchor: .bottomRight, gravity: .bottomRight, adjustments: set)
                let asked = p.unadjustedFrame(), f = p.place(within: bounds)
                let insideX = f.x >= 0 && f.maxX <= 300, insideY = f.y >= 0 && f.maxY <= 200
                let what = "adjustments \(raw) at \(corner): \(f)"
                if set.isDisjoint(with: [.flipX, .slideX, .resizeX]) { #expect(f.x == asked.x && f.width == 80, "\(what)") }
                if set.isDisjoint(with: [.flipY, .slideY, .resizeY]) { #expect(f.y == asked.y && f.height == 60, "\(what)") }
                if !set.isDisjoint(with: [.slideX, .resizeX]) { #expect(insideX, "\(what)") }
                if !set.isDisjoint(with: [.slideY, .resizeY]) { #expect(insideY, "\(what)") }
                if set.contains(.flipX) && corner.0 > 200 { #expect(insideX && f.maxX == corner.0, "flipped to the anchor rectangle's left: \(what)") }
                if set.contains(.flipY) && corner.1 > 100 { #expect(insideY && f.maxY == corner.1, "flipped above the anchor rectangle: \(what)") }
                if f.width != 80 || f.height != 60 { #expect(set.contains(.resizeX) || set.contains(.resizeY), "only resize shrinks: \(what)") }
            }
        }
    }

    @Test("bad input: zero, negative and huge sizes and offsets are made what the protocol accepts")
    func sanitized() {
        let p = PopupPositioner(width: 0, height: -5, anchorRect: R(x: Int.max / 2, y: Int.min / 2, width: 0, height: -1),
                                offsetX: Int.max, offsetY: Int.min).sanitized
        #expect(p.width == 1 && p.height == 1 && p.anchorRect.width == 1 && p.anchorRect.height == 1)
        #expect(p.anchorRect.x == 1 << 24 && p.anchorRect.y == -(1 << 24) && p.offsetX == 1 << 24 && p.offsetY == -(1 << 24))
        #expect(Int32(exactly: p.unadjustedFrame().x) != nil)
    }
}
