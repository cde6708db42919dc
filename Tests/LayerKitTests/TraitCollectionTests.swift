import LayerKit
import Testing

@Suite("Traits and dynamic colours (rules P1, P2)")
struct TraitCollectionTests {
    let dark = TraitCollection(userInterfaceStyle: .dark)

    @Test("an overlay takes only the fields the other collection specifies")
    func overlay() {
        let base = TraitCollection.standard
        let t = base.overlaid(by: TraitCollection(userInterfaceStyle: .dark, displayScale: 2))
        #expect(t.userInterfaceStyle == .dark && t.displayScale == 2)
        #expect(t.accessibilityContrast == .normal && t.preferredContentSizeCategory == .large && t.layoutDirection == .leftToRight)
        #expect(base.overlaid(by: TraitCollection()) == base)
        #expect(TraitCollection(displayScale: .nan).displayScale == 0 && TraitCollection(displayScale: -1).displayScale == 0)
        #expect(!base.hasDifferentColorAppearance(comparedTo: base.overlaid(by: TraitCollection(displayScale: 3))))
        #expect(base.hasDifferentColorAppearance(comparedTo: base.overlaid(by: TraitCollection(accessibilityContrast: .high))))
        #expect(base.hasDifferentColorAppearance(comparedTo: nil))
    }

    @Test("a dynamic colour resolves by style and contrast; its components are the light value; fixed colours resolve to themselves")
    func dynamicColour() {
        let c = Color(light: .white, dark: .black, highContrastLight: .red, highContrastDark: .blue)
        #expect(c.isDynamic && !Color.white.isDynamic)
        #expect(c.resolvedColor(with: .standard) == .white)
        #expect(c.resolvedColor(with: TraitCollection.standard.overlaid(by: dark)) == .black)
        #expect(c.resolvedColor(with: TraitCollection(userInterfaceStyle: .light, accessibilityContrast: .high)) == .red)
        #expect(c.resolvedColor(with: TraitCollection(userInterfaceStyle: .dark, accessibilityContrast: .high)) == .blue)
        #expect((c.red, c.green, c.blue, c.alpha) == (1, 1, 1, 1))
        #expect(!c.resolvedColor(with: dark).isDynamic)
        #expect(Color.green.resolvedColor(with: dark) == .green)
        // Equal when they share a provider; not equal to their fixed light value.
        let copy = c
        #expect(copy == c && c != .white && Set([c, copy, Color.white]).count == 2)
    }

    @Test("withAlpha keeps a colour dynamic; a provider answering with dynamic colours is followed, and one that answers with itself ends")
    func nesting() {
        let c = Color(light: .white, dark: .black).withAlpha(0.5)
        #expect(c.isDynamic && c.resolvedColor(with: dark) == Color.black.withAlpha(0.5))
        let inner = Color(light: .red, dark: .blue)
        let outer = Color { _ in inner }
        #expect(outer.resolvedColor(with: dark) == .blue)
        final class Box: @unchecked Sendable { var color = Color.red }
        let box = Box()
        let loop = Color { _ in box.color }
        box.color = loop   // answers with itself, forever
        let resolved = loop.resolvedColor(with: dark)
        #expect(!resolved.isDynamic)
    }

    @Test("content size categories: 17 × the text scaling factor picks the nearest body size; bad factors are the default")
    func contentSize() {
        #expect(ContentSizeCategory(textScalingFactor: 1) == .large)
        #expect(ContentSizeCategory(textScalingFactor: 1.25) == .extraExtraLarge)   // 21.25 → 21
        #expect(ContentSizeCategory(textScalingFactor: 1.5) == .extraExtraExtraLarge)   // 25.5: 23 is nearer than 28
        #expect(ContentSizeCategory(textScalingFactor: 3) == .accessibilityExtraExtraExtraLarge)
        #expect(ContentSizeCategory(textScalingFactor: 0.8) == .extraSmall)   // 13.6: 14 is nearest
        for bad in [Double.nan, .infinity, 0, -2] { #expect(ContentSizeCategory(textScalingFactor: bad) == .large) }
        #expect(ContentSizeCategory.accessibilityMedium.isAccessibilityCategory && !ContentSizeCategory.extraExtraExtraLarge.isAccessibilityCategory)
    }
}

@Suite("Layout direction from the locale (rule P3)")
struct LayoutDirectionTests {
    @Test("Arabic, Hebrew (also its old code), Persian and Urdu locales are right to left; others, C and empty ones left to right")
    func locales() {
        for rtl in ["ar_EG.UTF-8", "he_IL", "iw_IL.UTF-8", "fa", "ur_PK", "ckb_IQ"] { #expect(LayoutDirection(locale: rtl) == .rightToLeft, "\(rtl)") }
        for ltr in ["en_US.UTF-8", "C.UTF-8", "C", "POSIX", "", "de_DE@euro", "arn_CL", "hr_HR"] { #expect(LayoutDirection(locale: ltr) == .leftToRight, "\(ltr)") }
    }
}
