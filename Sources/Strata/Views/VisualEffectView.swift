import LayerKit

/// What a ``VisualEffectView`` does to what is behind it (`UIVisualEffect`).
open class VisualEffect {
    public init() {}
}

/// A blur of what is behind the view, in one of the system's materials
/// (`UIBlurEffect`): the `system…` styles follow the view's light or dark style,
/// the `…Light` and `…Dark` ones do not.
public final class BlurEffect: VisualEffect {
    public enum Style: Hashable, Sendable {
        case systemUltraThinMaterial, systemThinMaterial, systemMaterial, systemThickMaterial, systemChromeMaterial
        case systemUltraThinMaterialLight, systemThinMaterialLight, systemMaterialLight, systemThickMaterialLight, systemChromeMaterialLight
        case systemUltraThinMaterialDark, systemThinMaterialDark, systemMaterialDark, systemThickMaterialDark, systemChromeMaterialDark
        /// UIKit's first styles: a white, light, dark or regular frost.
        case extraLight, light, dark, regular
    }

    public let style: Style

    public init(style: Style) {
        self.style = style
        super.init()
    }

    /// Strata's recipe for the style: blur radius (points), saturation, and the
    /// tint laid over the blur (a colour that follows light and dark for `system…` styles).
    var recipe: (radius: Double, saturation: Double, tint: Color) {
        enum Look { case adaptive, light, dark }
        let (thickness, look): (Int, Look) = switch style {
        case .systemUltraThinMaterial: (0, .adaptive)
        case .systemThinMaterial: (1, .adaptive)
        case .systemMaterial, .regular: (2, .adaptive)
        case .systemThickMaterial: (3, .adaptive)
        case .systemChromeMaterial: (4, .adaptive)
        case .systemUltraThinMaterialLight: (0, .light)
        case .systemThinMaterialLight: (1, .light)
        case .systemMaterialLight, .light: (2, .light)
        case .systemThickMaterialLight, .extraLight: (3, .light)
        case .systemChromeMaterialLight: (4, .light)
        case .systemUltraThinMaterialDark: (0, .dark)
        case .systemThinMaterialDark: (1, .dark)
        case .systemMaterialDark, .dark: (2, .dark)
        case .systemThickMaterialDark: (3, .dark)
        case .systemChromeMaterialDark: (4, .dark)
        }
        let radius = [14.0, 18, 22, 26, 22][thickness]
        let alpha = [0.28, 0.45, 0.6, 0.78, 0.7][thickness]
        let light = Color(red: 0.97, green: 0.97, blue: 0.98, alpha: alpha)
        let dark = Color(red: 0.11, green: 0.11, blue: 0.12, alpha: alpha)
        let tint = switch look {
        case .adaptive: Color(light: light, dark: dark)
        case .light: light
        case .dark: dark
        }
        return (radius, 1.8, tint)
    }
}

/// A view that blurs what is behind it in its window (`UIVisualEffectView`): a
/// ``BackdropLayer`` as its layer, tinted by the effect's material, with its
/// content in ``contentView`` above the blur. Setting `effect` inside an animation
/// block animates the blur in or out (`effect = nil` fades it); outside one it
/// changes at once (rules V2, V3).
public final class VisualEffectView: View {
    public override class var layerClass: Layer.Type { BackdropLayer.self }

    /// Put the view's content here, over the blur (as UIKit asks).
    public let contentView = View()

    public var effect: VisualEffect? {
        didSet { applyEffect() }
    }

    public init(effect: VisualEffect?) {
        self.effect = effect
        super.init(frame: .zero)
        contentView.frame = bounds
        contentView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(contentView)
        applyEffect()
    }

    public convenience override init(frame: Rect) {
        self.init(effect: nil)
        self.frame = frame
    }

    private var backdrop: BackdropLayer { layer as! BackdropLayer }

    private func applyEffect() {
        guard let blur = effect as? BlurEffect else {
            backdrop.blurRadius = 0
            backdrop.saturation = 1
            backgroundColor = nil
            return
        }
        let recipe = blur.recipe
        backdrop.blurRadius = recipe.radius
        backdrop.saturation = recipe.saturation
        backgroundColor = recipe.tint
    }
}
