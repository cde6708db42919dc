/// The colours UIKit's controls use in light mode (`UIColor.systemBlue` …).
extension Color {
    public static let systemBlue = Color(rgba8: 0, 122, 255)
    public static let systemGreen = Color(rgba8: 52, 199, 89)
    public static let systemRed = Color(rgba8: 255, 59, 48)
    public static let systemOrange = Color(rgba8: 255, 149, 0)
    public static let systemGray = Color(rgba8: 142, 142, 147)
    public static let systemGray3 = Color(rgba8: 199, 199, 204)
    public static let systemGray4 = Color(rgba8: 209, 209, 214)
    public static let systemGray5 = Color(rgba8: 229, 229, 234)
    public static let systemGray6 = Color(rgba8: 242, 242, 247)
    /// Text (`UIColor.label`).
    public static let label = Color.black
    public static let secondaryLabel = Color(rgba8: 60, 60, 67, 153)
    /// A text field's placeholder (`UIColor.placeholderText`).
    public static let placeholderText = Color(rgba8: 60, 60, 67, 77)
    public static let separator = Color(rgba8: 60, 60, 67, 74)
}

extension Color {
    /// The same colour with another alpha (`withAlphaComponent(_:)`).
    public func withAlpha(_ alpha: Double) -> Color { Color(red: red, green: green, blue: blue, alpha: alpha) }
}
