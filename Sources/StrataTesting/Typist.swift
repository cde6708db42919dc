import WaylandClient

/// Keys into a compositor's seat: its injected keyboard (evdev codes of the US
/// keymap), or `wtype` through the virtual-keyboard protocol.
@MainActor
enum Typist {
    case injected(InjectedInput)
    case virtualKeyboard(any Compositor, timeout: Double)

    private static let modifierCodes: [String: UInt32] = ["ctrl": 29, "shift": 42, "alt": 56, "super": 125]
    private static let wtypeModifiers: [String: String] = ["ctrl": "ctrl", "shift": "shift", "alt": "alt", "super": "logo"]

    func type(_ text: String) throws {
        switch self {
        case let .injected(input):
            let keyboard = try Keyboard(layout: "us")
            for scalar in text.unicodeScalars {
                let keysym = scalar == "\n" ? Keyboard.keysym(named: "Return") : Keyboard.keysym(for: scalar)
                guard let (code, shift) = keyboard.keyCode(for: keysym) else {
                    throw InputUnavailable(description: "no key of the US keymap types \"\(scalar)\"")
                }
                try press(code, with: shift ? [42] : [], on: input)
            }
        case let .virtualKeyboard(compositor, timeout):
            try runWtype([text], on: compositor, timeout: timeout)
        }
    }

    func key(_ name: String, modifiers: [String]) throws {
        switch self {
        case let .injected(input):
            let keyboard = try Keyboard(layout: "us")
            guard let (code, shift) = keyboard.keyCode(for: Keyboard.keysym(named: name)) else {
                throw InputUnavailable(description: "no key of the US keymap gives \(name)")
            }
            let held = modifiers.compactMap { Self.modifierCodes[$0] } + (shift && !modifiers.contains("shift") ? [42] : [])
            try press(code, with: held, on: input)
        case let .virtualKeyboard(compositor, timeout):
            let mods = modifiers.compactMap { Self.wtypeModifiers[$0] }
            try runWtype(mods.flatMap { ["-M", $0] } + ["-k", name] + mods.reversed().flatMap { ["-m", $0] }, on: compositor, timeout: timeout)
        }
    }

    private func press(_ code: UInt32, with held: [UInt32], on input: InjectedInput) throws {
        for m in held { try input.key(m, pressed: true) }
        try input.key(code, pressed: true)
        try input.key(code, pressed: false)
        for m in held.reversed() { try input.key(m, pressed: false) }
    }

    private func runWtype(_ arguments: [String], on compositor: any Compositor, timeout: Double) throws {
        // A client sees the virtual keyboard's keymap arrive with its first key,
        // and has been seen to drop that key: wtype waits 300 ms before it.
        let (p, log) = try compositor.startClient(["wtype", "-s", "300"] + arguments, environment: [:])
        guard let status = p.wait(timeout: timeout) else {
            p.terminate()
            throw InputUnavailable(description: "wtype did not finish within \(timeout) s")
        }
        guard status == 0 else { throw InputUnavailable(description: "wtype failed (\(status)): \(tail(of: log, lines: 3))") }
    }
}
