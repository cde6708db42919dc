import LayerKit

/// UIKit's system colours (`UIColor.systemBlue`, `.label`, …): dynamic colours
/// with light, dark and high-contrast values, resolved against the traits of
/// the view that draws them (rule P2). Every control and the window frame draw
/// from these, so an app follows dark mode and contrast without code of its own.
extension Color {
    private static func rgb(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: Double = 1) -> Color {
        Color(rgba8: r, g, b).withAlpha(a)
    }

    /// A palette colour: light, dark, and both with increased contrast.
    private static func palette(_ light: Color, _ dark: Color, _ highLight: Color, _ highDark: Color) -> Color {
        Color(light: light, dark: dark, highContrastLight: highLight, highContrastDark: highDark)
    }

    // MARK: The palette

    public static let systemBlue = palette(rgb(0, 122, 255), rgb(10, 132, 255), rgb(0, 64, 221), rgb(64, 156, 255))
    public static let systemGreen = palette(rgb(52, 199, 89), rgb(48, 209, 88), rgb(36, 138, 61), rgb(48, 219, 91))
    public static let systemRed = palette(rgb(255, 59, 48), rgb(255, 69, 58), rgb(215, 0, 21), rgb(255, 105, 97))
    public static let systemOrange = palette(rgb(255, 149, 0), rgb(255, 159, 10), rgb(201, 52, 0), rgb(255, 179, 64))
    public static let systemYellow = palette(rgb(255, 204, 0), rgb(255, 214, 10), rgb(178, 80, 0), rgb(255, 212, 38))
    public static let systemPink = palette(rgb(255, 45, 85), rgb(255, 55, 95), rgb(211, 15, 69), rgb(255, 100, 130))
    public static let systemPurple = palette(rgb(175, 82, 222), rgb(191, 90, 242), rgb(137, 68, 171), rgb(218, 143, 255))
    public static let systemTeal = palette(rgb(48, 176, 199), rgb(64, 200, 224), rgb(0, 130, 153), rgb(93, 230, 255))
    public static let systemIndigo = palette(rgb(88, 86, 214), rgb(94, 92, 230), rgb(54, 52, 163), rgb(125, 122, 255))
    public static let systemMint = palette(rgb(0, 199, 190), rgb(99, 230, 226), rgb(12, 129, 123), rgb(102, 212, 207))
    public static let systemCyan = palette(rgb(50, 173, 230), rgb(100, 210, 255), rgb(0, 113, 164), rgb(112, 215, 255))
    public static let systemBrown = palette(rgb(162, 132, 94), rgb(172, 142, 104), rgb(127, 101, 69), rgb(181, 148, 105))

    public static let systemGray = palette(rgb(142, 142, 147), rgb(142, 142, 147), rgb(108, 108, 112), rgb(174, 174, 178))
    public static let systemGray2 = palette(rgb(174, 174, 178), rgb(99, 99, 102), rgb(142, 142, 147), rgb(124, 124, 128))
    public static let systemGray3 = palette(rgb(199, 199, 204), rgb(72, 72, 74), rgb(174, 174, 178), rgb(84, 84, 86))
    public static let systemGray4 = palette(rgb(209, 209, 214), rgb(58, 58, 60), rgb(188, 188, 192), rgb(68, 68, 70))
    public static let systemGray5 = palette(rgb(229, 229, 234), rgb(44, 44, 46), rgb(216, 216, 220), rgb(54, 54, 56))
    public static let systemGray6 = palette(rgb(242, 242, 247), rgb(28, 28, 30), rgb(235, 235, 240), rgb(36, 36, 38))

    // MARK: Text

    /// Text (`UIColor.label`).
    public static let label = palette(rgb(0, 0, 0), rgb(255, 255, 255), rgb(0, 0, 0), rgb(255, 255, 255))
    public static let secondaryLabel = palette(rgb(60, 60, 67, 0.6), rgb(235, 235, 245, 0.6), rgb(60, 60, 67, 0.8), rgb(235, 235, 245, 0.8))
    public static let tertiaryLabel = palette(rgb(60, 60, 67, 0.3), rgb(235, 235, 245, 0.3), rgb(60, 60, 67, 0.5), rgb(235, 235, 245, 0.5))
    public static let quaternaryLabel = palette(rgb(60, 60, 67, 0.18), rgb(235, 235, 245, 0.16), rgb(60, 60, 67, 0.3), rgb(235, 235, 245, 0.3))
    /// A text field's placeholder (`UIColor.placeholderText`).
    public static let placeholderText = palette(rgb(60, 60, 67, 77.0 / 255), rgb(235, 235, 245, 0.3), rgb(60, 60, 67, 0.5), rgb(235, 235, 245, 0.5))
    /// Links (`UIColor.link`).
    public static let link = palette(rgb(0, 122, 255), rgb(9, 132, 255), rgb(0, 64, 221), rgb(64, 156, 255))

    // MARK: Backgrounds

    public static let systemBackground = palette(rgb(255, 255, 255), rgb(0, 0, 0), rgb(255, 255, 255), rgb(0, 0, 0))
    public static let secondarySystemBackground = palette(rgb(242, 242, 247), rgb(28, 28, 30), rgb(235, 235, 240), rgb(36, 36, 38))
    public static let tertiarySystemBackground = palette(rgb(255, 255, 255), rgb(44, 44, 46), rgb(255, 255, 255), rgb(54, 54, 56))
    public static let systemGroupedBackground = palette(rgb(242, 242, 247), rgb(0, 0, 0), rgb(235, 235, 240), rgb(0, 0, 0))
    public static let secondarySystemGroupedBackground = palette(rgb(255, 255, 255), rgb(28, 28, 30), rgb(255, 255, 255), rgb(36, 36, 38))
    public static let tertiarySystemGroupedBackground = palette(rgb(242, 242, 247), rgb(44, 44, 46), rgb(235, 235, 240), rgb(54, 54, 56))

    // MARK: Separators and fills

    public static let separator = palette(rgb(60, 60, 67, 74.0 / 255), rgb(84, 84, 88, 0.6), rgb(60, 60, 67, 0.5), rgb(84, 84, 88, 0.8))
    public static let opaqueSeparator = palette(rgb(198, 198, 200), rgb(56, 56, 58), rgb(160, 160, 164), rgb(84, 84, 88))
    public static let systemFill = palette(rgb(120, 120, 128, 0.2), rgb(120, 120, 128, 0.36), rgb(120, 120, 128, 0.32), rgb(120, 120, 128, 0.48))
    public static let secondarySystemFill = palette(rgb(120, 120, 128, 0.16), rgb(120, 120, 128, 0.32), rgb(120, 120, 128, 0.28), rgb(120, 120, 128, 0.44))
    public static let tertiarySystemFill = palette(rgb(118, 118, 128, 0.12), rgb(118, 118, 128, 0.24), rgb(118, 118, 128, 0.2), rgb(118, 118, 128, 0.36))
}
