@testable import Strata
import PixmanRender
import Testing

/// `TextLayer` (issue 28, item 4): drawn by the text system the views use — the
/// same pixels as a label with the same text, font, colour and truncation —
/// with Core Animation's defaults, wrapping, alignment, `fontSize` and
/// `foregroundColor` animated (redrawn each frame), and bad input refused.
@MainActor
@Suite(.serialized, .isolatedLayerContext)
struct TextLayerTests {
    /// A window with a white root and a text layer at (10, 60) of `size`, configured, committed.
    func scene(scale: Double = 1, size: Size = Size(width: 200, height: 30), _ configure: (TextLayer) -> Void) -> (ViewFixture, TextLayer) {
        let f = ViewFixture(size: Size(width: 260, height: 120))
        f.window.scale = scale
        f.window.rootView.backgroundColor = .white
        let t = TextLayer()
        Transaction.withoutActions {
            t.frame = Rect(x: 10, y: 60, width: size.width, height: size.height)
            t.contentsScale = scale
            configure(t)
            f.window.rootView.layer.addSublayer(t)
        }
        Transaction.flush()
        return (f, t)
    }

    func crop(_ shot: RenderedImage, _ r: Rect, scale: Double) -> RenderedImage {
        shot.cropped(x: Int(r.minX * scale), y: Int(r.minY * scale), width: Int(r.width * scale), height: Int(r.height * scale))
    }

    @Test("the same pixels as a label with the same text, font, size and colour, at scales 1 and 2; truncation as the label's")
    func sameAsLabel() {
        for scale in [1.0, 2.0] {
            for (truncated, text) in [(false, "Layers: ffi ½ →"), (true, "A line far too long to fit in the bounds it has")] {
                let (f, t) = scene(scale: scale) {
                    $0.string = text
                    $0.fontSize = 17
                    $0.foregroundColor = .black
                    if truncated { $0.truncationMode = .end }
                }
                let label = Label()
                label.text = text
                label.font = .systemFont(ofSize: 17)
                label.textColor = .black
                label.lineBreakMode = .byTruncatingTail
                let height = label.intrinsicContentSize.height
                label.frame = Rect(x: 10, y: 10, width: 200, height: height)
                f.window.rootView.addSubview(label)
                Transaction.withoutActions { t.frame.size.height = height }
                Transaction.flush()
                let shot = f.window.snapshot()
                let a = crop(shot, label.frame, scale: scale), b = crop(shot, t.frame, scale: scale)
                #expect(inkBounds(a) != nil)
                #expect(differingPixels(a, b) == 0, "scale \(scale), truncated \(truncated): \(differingPixels(a, b)) pixels differ")
            }
        }
    }

    @Test("Core Animation's defaults: 36-point white text, unwrapped, uncut, contents scale 1")
    func defaults() {
        let t = TextLayer()
        #expect(t.fontSize == 36 && t.foregroundColor == .white && t.font == nil && t.string == nil)
        #expect(t.alignmentMode == .natural && !t.isWrapped && t.truncationMode == .none && t.contentsScale == 1)
        let (f, _) = scene { $0.string = "Hi"; $0.backgroundColor = .black; $0.bounds.size = Size(width: 100, height: 50) }
        let shot = f.window.snapshot()
        // White ink on black, starting at the top: 36-point text is taller than 20 pixels.
        var white = 0, top = Int.max, bottom = 0
        for y in 60..<110 { for x in 10..<110 where shot.rgba8(x: x, y: y).r > 200 { white += 1; top = min(top, y); bottom = max(bottom, y) } }
        #expect(white > 100 && bottom - top > 20 && top < 75, "ink rows \(top)…\(bottom)")
    }

    @Test("wrapped text breaks into lines at the width; alignment places each line")
    func wrappingAndAlignment() {
        let long = "one two three four five six seven eight nine ten"
        let (f1, _) = scene(size: Size(width: 120, height: 60)) {
            $0.string = long; $0.foregroundColor = .black; $0.fontSize = 14; $0.isWrapped = true
        }
        let wrapped = inkBounds(f1.window.snapshot(), in: (x: 0..<260, y: 55..<120))!
        #expect(wrapped.maxY - wrapped.minY > 30 && wrapped.maxX < 131, "\(wrapped)")
        for (mode, check) in [(TextLayerAlignmentMode.left, { (l: Int, r: Int) in l <= 12 }),
                              (.right, { l, r in r >= 205 }),
                              (.center, { l, r in abs((l - 10) - (210 - r)) <= 2 })] {
            let (f, _) = scene { $0.string = "Centre"; $0.foregroundColor = .black; $0.fontSize = 14; $0.alignmentMode = mode }
            let ink = inkBounds(f.window.snapshot(), in: (x: 0..<260, y: 55..<100))!
            #expect(check(ink.minX, ink.maxX), "\(mode): ink \(ink.minX)…\(ink.maxX)")
        }
    }

    @Test("fontSize and foregroundColor animate: half way, the text is drawn as a static layer at the half-way values")
    func animatedRedraw() {
        let (f, t) = scene { $0.string = "Grow"; $0.foregroundColor = .black; $0.fontSize = 10 }
        let grow = BasicAnimation(keyPath: "fontSize")
        grow.fromValue = 10.0
        grow.toValue = 30.0
        grow.duration = 1
        let tint = BasicAnimation(keyPath: "foregroundColor")
        tint.fromValue = Color.black
        tint.toValue = Color.blue
        tint.duration = 1
        t.add(grow, forKey: "grow")
        t.add(tint, forKey: "tint")
        Transaction.flush()
        #expect(t.animatesDisplayedContent && !Layer().animatesDisplayedContent)
        f.advance(0.5)
        let animated = crop(f.window.snapshot(), t.frame, scale: 1)
        let (g, _) = scene { $0.string = "Grow"; $0.foregroundColor = Color(red: 0, green: 0, blue: 0.5); $0.fontSize = 20 }
        let still = crop(g.window.snapshot(), t.frame, scale: 1)
        #expect(differingPixels(animated, still) == 0, "\(differingPixels(animated, still)) pixels differ")
        // The model never changed: after the animations, 10-point black text again.
        f.advance(1)
        let after = crop(f.window.snapshot(), t.frame, scale: 1)
        let (h, _) = scene { $0.string = "Grow"; $0.foregroundColor = .black; $0.fontSize = 10 }
        #expect(differingPixels(after, crop(h.window.snapshot(), t.frame, scale: 1)) == 0)
    }

    @Test("an attributed string keeps its runs' colours; bad strings, sizes and colours are refused with diagnostics")
    func attributedAndBadInput() {
        var text = AttributedText("red blue")
        text.setAttributes(.init(color: .blue), forOccurrencesOf: "blue")
        let (f, t) = scene { $0.string = text; $0.foregroundColor = .red; $0.fontSize = 20 }
        #expect(t.string as? AttributedText == text)
        let shot = f.window.snapshot()
        var reds = 0, blues = 0
        for y in 60..<90 { for x in 10..<210 {
            let p = shot.rgba8(x: x, y: y)
            if p.r > 200 && p.b < 80 && p.g < 80 { reds += 1 }
            if p.b > 200 && p.r < 80 && p.g < 80 { blues += 1 }
        } }
        #expect(reds > 20 && blues > 20, "red \(reds), blue \(blues)")
        let before = f.diagnostics.count
        t.string = 42
        t.fontSize = -3
        t.fontSize = .nan
        t.foregroundColor = Color(red: .nan, green: 0, blue: 0)
        #expect(f.diagnostics.count - before == 4)
        #expect(t.string as? AttributedText == text && t.fontSize == 20 && t.foregroundColor == .red)
        t.string = "plain"
        #expect(t.string as? String == "plain")
    }
}
