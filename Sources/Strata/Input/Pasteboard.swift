import LayerKit
import WaylandClient

/// Copy and paste of text (`UIPasteboard`), through the compositor's selection
/// when the app runs on one, and within the process offscreen.
///
/// Setting ``string`` offers the text to every app at once. Reading another
/// app's text takes a trip through a pipe, so it is asynchronous:
/// ``readString()``; ``string`` reads back only what this app offered.
@MainActor
public final class Pasteboard {
    /// The system-wide pasteboard (the first seat's clipboard).
    public static let general = Pasteboard(.clipboard)
    /// The primary selection: what is selected, pasted with the middle button
    /// (a Linux desktop's second pasteboard), where the compositor offers it.
    public static let primary = Pasteboard(.primary)

    private let kind: Clipboard.Kind
    /// The text offscreen: the current context's (each test's its own).
    private var localText: String? {
        get { LayerContext.current.values[ObjectIdentifier(self)] as? String }
        set { LayerContext.current.values[ObjectIdentifier(self)] = newValue }
    }

    private init(_ kind: Clipboard.Kind) { self.kind = kind }

    /// The compositor's selection: the app's, for code in the app's context
    /// (code in a context of its own, a test's, is offscreen: rule W3).
    private var clipboard: (Clipboard, Seat)? {
        LayerContext.current === LayerContext.main ? Application.shared.clipboard(kind) : nil
    }

    /// The text this app put on the pasteboard (nil once another app replaced it).
    /// Setting it offers the text to every app, quoting the seat's latest input.
    public var string: String? {
        get { clipboard.map { $0.0.ownText } ?? localText }
        set {
            guard let (clipboard, seat) = clipboard else { return localText = newValue }
            clipboard.setText(newValue, serial: seat.lastSerial)
        }
    }

    /// True when the pasteboard holds text (this app's or another's).
    public var hasStrings: Bool {
        guard let (clipboard, _) = clipboard else { return localText != nil }
        return clipboard.ownText != nil || clipboard.offersText
    }

    /// The pasteboard's text, whoever offered it: nil when it holds none, or when
    /// the other app sent more than 16 MiB or did not finish within 5 s.
    public func readString() async -> String? {
        await withCheckedContinuation { continuation in readString { continuation.resume(returning: $0) } }
    }

    /// ``readString()`` with a completion, called on the main actor.
    public func readString(completion: @escaping @MainActor @Sendable (String?) -> Void) {
        guard let (clipboard, _) = clipboard else { return completion(localText) }
        clipboard.readText { result in completion((try? result.get()) ?? nil) }
    }
}
