@testable import Strata
import PixmanRender
import Testing

/// `VisualEffectView` (issue 28, item 7): the window's content behind it blurred
/// and tinted by the material, following light and dark; `effect = nil` in an
/// animation block fades the blur out, outside one it goes at once.
@MainActor
@Suite(.serialized, .isolatedLayerContext)
struct VisualEffectViewTests {
    /// A white window with black stripes every 20 points, and an effect view over 100…300 × 50…150.
    func scene(_ effect: VisualEffect?) -> (ViewFixture, VisualEffectView) {
        let f = ViewFixture(size: Size(width: 400, height: 200))
        f.window.rootView.backgroundColor = .white
        for x in stride(from: 0.0, to: 400, by: 20) {
            let stripe = View(frame: Rect(x: x, y: 0, width: 6, height: 200))
            stripe.backgroundColor = .black
            f.window.rootView.addSubview(stripe)
        }
        let v = VisualEffectView(effect: effect)
        v.frame = Rect(x: 100, y: 50, width: 200, height: 100)
        f.window.rootView.addSubview(v)
        Transaction.flush()
        return (f, v)
    }

    /// Darkest and lightest red along a row inside the view.
    func spread(_ shot: RenderedImage, y: Int) -> (min: Int, max: Int) {
        var lo = 255, hi = 0
        for x in 120..<280 { let r = Int(shot.rgba8(x: x, y: y).r); lo = min(lo, r); hi = max(hi, r) }
        return (lo, hi)
    }

    @Test("the stripes behind a material are blurred into grey and tinted light; outside they stay crisp")
    func blursAndTints() {
        let (f, v) = scene(BlurEffect(style: .systemMaterial))
        let shot = f.window.snapshot()
        let inside = spread(shot, y: 100)
        #expect(inside.max - inside.min < 60 && inside.min > 150, "inside \(inside)")
        let outside = spread(shot, y: 20)
        #expect(outside.min == 0 && outside.max == 255)
        #expect((v.layer as? BackdropLayer)?.blurRadius == 22 && v.contentView.superview === v)
    }

    @Test("in dark mode the system material is tinted dark; a …Light material stays light")
    func followsAppearance() {
        let (f, v) = scene(BlurEffect(style: .systemThickMaterial))
        f.window.rootView.overrideUserInterfaceStyle = .dark
        Transaction.flush()
        #expect(spread(f.window.snapshot(), y: 100).max < 110, "dark tint")
        v.effect = BlurEffect(style: .systemThickMaterialLight)
        Transaction.flush()
        #expect(spread(f.window.snapshot(), y: 100).min > 150, "light tint in dark mode")
    }

    @Test("effect = nil in a block fades the blur out over its duration; outside a block it goes at once")
    func animatesOut() {
        let (f, v) = scene(BlurEffect(style: .systemUltraThinMaterial))
        View.animate(duration: 1) { v.effect = nil }
        Transaction.flush()
        f.advance(0.5)
        #expect(abs((v.layer.presentation() as? BackdropLayer)!.blurRadius - 7) < 0.01)
        let half = spread(f.window.snapshot(), y: 100)
        f.advance(0.6)
        let after = spread(f.window.snapshot(), y: 100)
        #expect(after.min == 0 && after.max == 255, "no blur, no tint: \(after)")
        #expect(half.max - half.min > 30 && half.max - half.min < 255, "half way: \(half)")
        v.effect = BlurEffect(style: .systemMaterial)
        Transaction.flush()
        #expect(!v.layer.hasAnimations && spread(f.window.snapshot(), y: 100).min > 150)
    }
}
