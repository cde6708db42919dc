/// What an accessibility element is and how it behaves (`UIAccessibilityTraits`):
/// combined into the element's role and states when exported (rule Y2).
public struct AccessibilityTraits: OptionSet, Hashable, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    public static let none: AccessibilityTraits = []
    /// Acts when activated: a push button.
    public static let button = AccessibilityTraits(rawValue: 1 << 0)
    /// Opens a link.
    public static let link = AccessibilityTraits(rawValue: 1 << 1)
    /// Heads a section of content.
    public static let header = AccessibilityTraits(rawValue: 1 << 2)
    /// A search field.
    public static let searchField = AccessibilityTraits(rawValue: 1 << 3)
    /// A picture.
    public static let image = AccessibilityTraits(rawValue: 1 << 4)
    /// Currently selected (a chosen segment, tab or row).
    public static let selected = AccessibilityTraits(rawValue: 1 << 5)
    /// Plays its own sound when activated.
    public static let playsSound = AccessibilityTraits(rawValue: 1 << 6)
    /// A key of an on-screen keyboard.
    public static let keyboardKey = AccessibilityTraits(rawValue: 1 << 7)
    /// Text that does not change.
    public static let staticText = AccessibilityTraits(rawValue: 1 << 8)
    /// Sums up the state of the screen it is on.
    public static let summaryElement = AccessibilityTraits(rawValue: 1 << 9)
    /// Not enabled: it does not respond (actions on it are refused, rule Y4).
    public static let notEnabled = AccessibilityTraits(rawValue: 1 << 10)
    /// Its value changes often (a progress bar, a clock).
    public static let updatesFrequently = AccessibilityTraits(rawValue: 1 << 11)
    /// Starts a media session when activated.
    public static let startsMediaSession = AccessibilityTraits(rawValue: 1 << 12)
    /// Takes values in a range, stepped by increment and decrement: a slider.
    public static let adjustable = AccessibilityTraits(rawValue: 1 << 13)
    /// Takes touches directly (a drawing surface).
    public static let allowsDirectInteraction = AccessibilityTraits(rawValue: 1 << 14)
    /// Turns a page when the reader reaches its end.
    public static let causesPageTurn = AccessibilityTraits(rawValue: 1 << 15)
    /// A tab of a tab bar.
    public static let tabBar = AccessibilityTraits(rawValue: 1 << 16)
    /// A button that is on or off (iOS 17's `toggleButton`): a switch.
    public static let toggleButton = AccessibilityTraits(rawValue: 1 << 17)
    /// Can be zoomed in and out.
    public static let supportsZoom = AccessibilityTraits(rawValue: 1 << 18)
}
