import CXKBCommon
import Glibc

/// Why a keymap could not be used.
public enum KeymapError: Error, Equatable, CustomStringConvertible {
    /// xkbcommon could not compile it (the keyboard stays off; the app runs on).
    case compileFailed(String)
    public var description: String {
        switch self { case .compileFailed(let what): "keymap does not compile: \(what)" }
    }
}

/// A keyboard's keymap and state, read with xkbcommon: which keysym and text
/// each key gives with the modifiers held, compose sequences included, and
/// which keys repeat (rule H5: text comes from the keymap, never from a
/// hard-coded layout).
///
/// On a compositor the keymap comes from `wl_keyboard.keymap` and the modifiers
/// from `wl_keyboard.modifiers`; for tests and offscreen apps
/// ``init(layout:variant:options:)`` compiles one from names and tracks the
/// modifiers from the keys it is given.
@MainActor
public final class Keyboard {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer
    private var compose: OpaquePointer?
    /// True when the keys given here drive the modifiers (no compositor sends them).
    private let tracksModifiers: Bool

    /// The result of a key going down.
    public struct KeyPress: Equatable, Sendable {
        /// The evdev key code.
        public let keyCode: UInt32
        /// The keysym with the modifiers held (the composed one after a compose sequence).
        public let keysym: UInt32
        /// The text it types: empty for keys that type nothing and inside a compose sequence.
        public let characters: String
        /// The text with no modifiers but Shift.
        public let charactersIgnoringModifiers: String
        public let repeats: Bool
    }

    /// Modifiers that are active.
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let shift = Modifiers(rawValue: 1)
        public static let control = Modifiers(rawValue: 2)
        public static let alternate = Modifiers(rawValue: 4)
        public static let logo = Modifiers(rawValue: 8)
        public static let capsLock = Modifiers(rawValue: 16)
    }

    /// A keymap in xkb's text format, as `wl_keyboard.keymap` sends it.
    public convenience init(keymapText: String, locale: String? = nil) throws(KeymapError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw .compileFailed("no xkb context") }
        guard let keymap = keymapText.withCString({ xkb_keymap_new_from_string(context, $0, XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS) }) else {
            xkb_context_unref(context)
            throw .compileFailed("the compositor's keymap (\(keymapText.utf8.count) bytes)")
        }
        self.init(context: context, keymap: keymap, tracksModifiers: false, locale: locale)
    }

    /// A keymap compiled from names (`us`, `de`, `us` + `intl`…), tracking its own modifiers.
    public convenience init(layout: String = "us", variant: String = "", options: String? = nil, locale: String? = nil) throws(KeymapError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else { throw .compileFailed("no xkb context") }
        let keymap: OpaquePointer? = "evdev".withCString { rules in "pc105".withCString { model in layout.withCString { l in
            variant.withCString { v in
                let compile: (UnsafePointer<CChar>?) -> OpaquePointer? = { o in
                    var names = xkb_rule_names(rules: rules, model: model, layout: l, variant: v, options: o)
                    return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
                return options.map { $0.withCString(compile) } ?? compile(nil)
            } } } }
        guard let keymap else {
            xkb_context_unref(context)
            throw .compileFailed("layout \(layout)\(variant.isEmpty ? "" : "(\(variant))")")
        }
        self.init(context: context, keymap: keymap, tracksModifiers: true, locale: locale)
    }

    private init(context: OpaquePointer, keymap: OpaquePointer, tracksModifiers: Bool, locale: String?) {
        self.context = context
        self.keymap = keymap
        state = xkb_state_new(keymap)
        self.tracksModifiers = tracksModifiers
        // Compose sequences from the user's locale (LC_ALL, LC_CTYPE, LANG); none in "C".
        let fromEnvironment = ["LC_ALL", "LC_CTYPE", "LANG"].compactMap { (name: String) -> String? in
            guard let value = getenv(name) else { return nil }
            let s = String(cString: value)
            return s.isEmpty ? nil : s
        }.first
        let name = locale ?? fromEnvironment ?? "C"
        if let table = name.withCString({ xkb_compose_table_new_from_locale(context, $0, XKB_COMPOSE_COMPILE_NO_FLAGS) }) {
            compose = xkb_compose_state_new(table, XKB_COMPOSE_STATE_NO_FLAGS)
            xkb_compose_table_unref(table)
        }
    }

    isolated deinit {
        if let compose { xkb_compose_state_unref(compose) }
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// True when a compose table was found for the locale.
    public var hasCompose: Bool { compose != nil }

    /// A key went down: what it types, through the compose sequence in progress.
    public func press(keyCode: UInt32) -> KeyPress {
        let xkbCode = keyCode + 8
        var keysym = xkb_state_key_get_one_sym(state, xkbCode)
        var text = Self.utf8 { xkb_state_key_get_utf8(state, xkbCode, $0, $1) }
        let plain = charactersIgnoringModifiers(xkbCode)
        if let compose, keysym != 0 {
            xkb_compose_state_feed(compose, keysym)
            switch xkb_compose_state_get_status(compose) {
            case XKB_COMPOSE_COMPOSING:
                text = ""
            case XKB_COMPOSE_COMPOSED:
                text = Self.utf8 { xkb_compose_state_get_utf8(compose, $0, $1) }
                keysym = xkb_compose_state_get_one_sym(compose)
                xkb_compose_state_reset(compose)
            case XKB_COMPOSE_CANCELLED:
                text = ""
                xkb_compose_state_reset(compose)
            default:
                break
            }
        }
        let repeats = xkb_keymap_key_repeats(keymap, xkbCode) != 0
        if tracksModifiers { xkb_state_update_key(state, xkbCode, XKB_KEY_DOWN) }
        return KeyPress(keyCode: keyCode, keysym: keysym, characters: text, charactersIgnoringModifiers: plain, repeats: repeats)
    }

    /// A key went up.
    public func release(keyCode: UInt32) {
        if tracksModifiers { xkb_state_update_key(state, keyCode + 8, XKB_KEY_UP) }
    }

    /// The modifiers the compositor says are in effect (`wl_keyboard.modifiers`).
    public func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// The modifiers as `wl_keyboard.modifiers` carries them (the converse of
    /// ``updateModifiers(depressed:latched:locked:group:)``): what a virtual
    /// keyboard tells its compositor after each key.
    public var serializedModifiers: (depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        (xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED), xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
         xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED), xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }

    /// The keymap in xkb's text format, as `wl_keyboard.keymap` sends it.
    public var keymapText: String? {
        guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// The modifiers in effect now.
    public var modifiers: Modifiers {
        var m: Modifiers = []
        let pairs: [(String, Modifiers)] = [(XKB_MOD_NAME_SHIFT, .shift), (XKB_MOD_NAME_CTRL, .control), (XKB_MOD_NAME_ALT, .alternate),
                                            (XKB_MOD_NAME_LOGO, .logo), (XKB_MOD_NAME_CAPS, .capsLock)]
        for (name, flag) in pairs where xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 { m.insert(flag) }
        return m
    }

    /// A key code that types `keysym`, and whether Shift is needed for it (the
    /// first match in the keymap's first layout) — for input drivers.
    public func keyCode(for keysym: UInt32) -> (keyCode: UInt32, shift: Bool)? {
        let lo = xkb_keymap_min_keycode(keymap), hi = xkb_keymap_max_keycode(keymap)
        guard lo <= hi else { return nil }
        for level in 0..<2 {
            for code in lo...hi where code >= 8 {
                var syms: UnsafePointer<xkb_keysym_t>?
                let n = xkb_keymap_key_get_syms_by_level(keymap, code, 0, xkb_level_index_t(level), &syms)
                if n > 0, let syms, (0..<Int(n)).contains(where: { syms[$0] == keysym }) { return (code - 8, level == 1) }
            }
        }
        return nil
    }

    /// The keysym a key gives now, with the modifiers in effect.
    public func keysym(keyCode: UInt32) -> UInt32 { xkb_state_key_get_one_sym(state, keyCode + 8) }

    /// The keysym of a Unicode scalar (`xkb_utf32_to_keysym`), 0 when there is none.
    public nonisolated static func keysym(for scalar: Unicode.Scalar) -> UInt32 { xkb_utf32_to_keysym(scalar.value) }

    /// The keysym called `name` (`"Return"`, `"dead_acute"`), 0 when there is none.
    public nonisolated static func keysym(named name: String) -> UInt32 { xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS) }

    /// The key's text at the level Shift alone selects.
    private func charactersIgnoringModifiers(_ xkbCode: UInt32) -> String {
        let layout = xkb_state_key_get_layout(state, xkbCode)
        let shifted = modifiers.contains(.shift) ? 1 : 0
        var syms: UnsafePointer<xkb_keysym_t>?
        let n = xkb_keymap_key_get_syms_by_level(keymap, xkbCode, layout, xkb_level_index_t(shifted), &syms)
        guard n > 0, let syms else { return "" }
        return Self.utf8 { xkb_keysym_to_utf8(syms[0], $0, $1) }
    }

    /// Reads a string that an xkb function writes into a buffer.
    private static func utf8(_ read: (UnsafeMutablePointer<CChar>, Int) -> Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBufferPointer { read($0.baseAddress!, $0.count) }
        guard n > 0 else { return "" }
        return buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
