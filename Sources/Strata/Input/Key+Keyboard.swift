import WaylandClient

extension KeyModifierFlags {
    /// The flags of modifiers a keymap says are in effect.
    public init(_ modifiers: Keyboard.Modifiers) {
        self = []
        if modifiers.contains(.shift) { insert(.shift) }
        if modifiers.contains(.control) { insert(.control) }
        if modifiers.contains(.alternate) { insert(.alternate) }
        if modifiers.contains(.logo) { insert(.command) }
        if modifiers.contains(.capsLock) { insert(.alphaShift) }
    }
}

extension Key {
    /// The key a keymap read (`Keyboard.press(keyCode:)`), with the modifiers then in effect.
    public init(_ press: Keyboard.KeyPress, modifiers: Keyboard.Modifiers) {
        self.init(characters: press.characters, charactersIgnoringModifiers: press.charactersIgnoringModifiers,
                  modifierFlags: KeyModifierFlags(modifiers), keysym: press.keysym, keyCode: press.keyCode)
    }
}
