/// A key press (`UIPress`, rule H5).
@MainActor
public final class Press: Hashable {
    public enum Phase: Hashable, Sendable { case began, changed, stationary, ended, cancelled }
    public internal(set) var phase: Phase
    public let key: Key?
    public internal(set) var timestamp: Double
    /// True for a press delivered again by key repeat.
    public internal(set) var isRepeat = false

    init(key: Key, time: Double) {
        self.key = key
        phase = .began
        timestamp = time
    }

    public nonisolated static func == (a: Press, b: Press) -> Bool { a === b }
    public nonisolated func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The presses of one moment (`UIPressesEvent`).
@MainActor
public final class PressesEvent: Event {
    public let allPresses: Set<Press>
    init(presses: Set<Press>, timestamp: Double) {
        allPresses = presses
        super.init(type: .presses, timestamp: timestamp)
    }
}

/// A key as the keymap reads it (`UIKey`): the text it types, with and without
/// modifiers, its keysym and its evdev key code.
public struct Key: Hashable, Sendable {
    /// The text the key types with the modifiers held (after compose sequences).
    public var characters: String
    /// The text without modifiers but Shift.
    public var charactersIgnoringModifiers: String
    public var modifierFlags: KeyModifierFlags
    /// The xkb keysym (`XKB_KEY_…`).
    public var keysym: UInt32
    /// The Linux evdev key code (`KEY_…`).
    public var keyCode: UInt32

    public init(characters: String, charactersIgnoringModifiers: String, modifierFlags: KeyModifierFlags, keysym: UInt32, keyCode: UInt32) {
        self.characters = characters
        self.charactersIgnoringModifiers = charactersIgnoringModifiers
        self.modifierFlags = modifierFlags
        self.keysym = keysym
        self.keyCode = keyCode
    }

    /// Keysyms of keys the toolkit itself looks at.
    public static let tab: UInt32 = 0xff09
    public static let isoLeftTab: UInt32 = 0xfe20
    public static let escape: UInt32 = 0xff1b
    /// The Menu key (context menus, rule M4) and F10.
    public static let menu: UInt32 = 0xff67
    public static let f10: UInt32 = 0xffc7
}

/// Modifier keys held (`UIKeyModifierFlags`).
public struct KeyModifierFlags: OptionSet, Hashable, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let alphaShift = KeyModifierFlags(rawValue: 1 << 16)   // Caps Lock
    public static let shift = KeyModifierFlags(rawValue: 1 << 17)
    public static let control = KeyModifierFlags(rawValue: 1 << 18)
    public static let alternate = KeyModifierFlags(rawValue: 1 << 19)
    /// The logo (Super) key, where a Mac has Command.
    public static let command = KeyModifierFlags(rawValue: 1 << 20)
}
