/// A key and modifiers that run an action (`UIKeyCommand`), offered by a
/// responder through ``Responder/keyCommands`` (rule M6): when the key goes
/// down, commands are looked up from the first responder along the responder
/// chain, and the first responder that has a command for the key and can
/// perform it (``Responder/canPerformAction(_:withSender:)``, asked with the
/// command's title) runs it. The key then goes no further (no `pressesBegan`).
@MainActor
public final class KeyCommand: MenuElement {
    /// The key: a character (compared without case) or one of the special inputs.
    public let input: String
    /// Exactly these of Shift, Control, Alt and Super must be held (Caps Lock is ignored).
    public let modifierFlags: KeyModifierFlags
    let action: (KeyCommand) -> Void
    /// The standard edit action it sends (``standard(_:)``), instead of running ``action``.
    let editAction: StandardEditAction?

    public static let inputEscape = "UIKeyInputEscape"
    public static let inputUpArrow = "UIKeyInputUpArrow"
    public static let inputDownArrow = "UIKeyInputDownArrow"
    public static let inputLeftArrow = "UIKeyInputLeftArrow"
    public static let inputRightArrow = "UIKeyInputRightArrow"
    public static let inputReturn = "\r"
    public static let inputTab = "\t"

    public init(title: String = "", input: String, modifierFlags: KeyModifierFlags = [], action: @escaping (KeyCommand) -> Void) {
        self.input = input
        self.modifierFlags = modifierFlags
        self.action = action
        editAction = nil
        super.init(title: title)
    }

    init(title: String, input: String, modifierFlags: KeyModifierFlags, editAction: StandardEditAction) {
        self.input = input
        self.modifierFlags = modifierFlags
        action = { _ in }
        self.editAction = editAction
        super.init(title: title)
    }

    /// Runs the command for `responder`'s chain: a standard edit action goes to
    /// the first responder from `responder` that can perform it.
    func run(from responder: Responder?) {
        if let editAction { responder?.send(editAction) } else { action(self) }
    }

    private static let specialKeys: [UInt32: String] = [
        0xff1b: inputEscape, 0xff52: inputUpArrow, 0xff54: inputDownArrow, 0xff51: inputLeftArrow, 0xff53: inputRightArrow,
        0xff0d: inputReturn, 0xff8d: inputReturn, Key.tab: inputTab, Key.isoLeftTab: inputTab,
    ]
    private static let commandModifiers: KeyModifierFlags = [.shift, .control, .alternate, .command]

    /// Whether `key` is this command's key with exactly its modifiers.
    func matches(_ key: Key) -> Bool {
        guard key.modifierFlags.intersection(Self.commandModifiers) == modifierFlags.intersection(Self.commandModifiers) else { return false }
        if let special = Self.specialKeys[key.keysym] { return special == input }
        return !input.isEmpty && key.charactersIgnoringModifiers.lowercased() == input.lowercased()
    }
}

extension Responder {
    /// Runs the first key command for `key` along the chain from this responder
    /// that its responder can perform (rule M6); false when none did.
    func performKeyCommand(for key: Key) -> Bool {
        var responder: Responder? = self
        var visited = 0
        while let r = responder, visited < 10_000 {
            if let command = r.keyCommands?.first(where: { $0.matches(key) }), r.canPerformAction(command.title, withSender: command),
               command.editAction.map({ target(for: $0) != nil }) ?? true {
                command.run(from: self)
                return true
            }
            responder = r.next
            visited += 1
        }
        return false
    }
}
