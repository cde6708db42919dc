/// A seat's text input (`zwp_text_input_v3`): the channel through which an
/// input method (a compositor-side one, or a client of `input-method-v2`) sends
/// text being composed (preedit) and text to insert (commit) to the focused surface.
///
/// Events are gathered until the compositor's `done` and reported as one
/// ``Update``, applied in the protocol's order: the old preedit goes, surrounding
/// text is deleted, the commit string is inserted, the new preedit is shown.
@MainActor
public final class TextInput {
    /// What one `done` brings.
    public struct Update: Equatable, Sendable {
        /// The text being composed, with the cursor's byte range inside it (nil: none).
        public var preedit: (text: String, cursorBegin: Int, cursorEnd: Int)?
        /// Text to insert at the cursor, replacing the selection.
        public var commit: String?
        /// Bytes to delete before and after the cursor (before the commit is inserted).
        public var deleteBefore = 0
        public var deleteAfter = 0

        public init() {}

        public static func == (a: Update, b: Update) -> Bool {
            a.preedit?.text == b.preedit?.text && a.preedit?.cursorBegin == b.preedit?.cursorBegin
                && a.preedit?.cursorEnd == b.preedit?.cursorEnd && a.commit == b.commit
                && a.deleteBefore == b.deleteBefore && a.deleteAfter == b.deleteAfter
        }
    }

    public enum Event {
        /// A surface of this client got the text input focus (it has the keyboard focus).
        case entered(SurfaceID)
        case left(SurfaceID)
        case done(Update)
    }

    public let proxy: ZwpTextInputV3
    public var onEvent: ((Event) -> Void)?
    /// The surface that has the text input focus, if one of ours has.
    public private(set) var focusedSurface: SurfaceID?
    public private(set) var isEnabled = false
    private var pending = Update()
    /// Commit requests so far: `done` quotes it when it answers the latest state.
    private var commits: UInt32 = 0

    init(_ proxy: ZwpTextInputV3) {
        self.proxy = proxy
        proxy.onEvent = { [unowned self] event in
            switch event {
            case let .enter(surface?):
                focusedSurface = surface.surfaceID
                onEvent?(.entered(surface.surfaceID))
            case let .leave(surface?):
                if focusedSurface == surface.surfaceID { focusedSurface = nil }
                isEnabled = false
                onEvent?(.left(surface.surfaceID))
            case let .preeditString(text, begin, end):
                pending.preedit = text.map { ($0, Int(begin), Int(end)) }
            case let .commitString(text):
                pending.commit = text
            case let .deleteSurroundingText(before, after):
                pending.deleteBefore = Int(before)
                pending.deleteAfter = Int(after)
            case .done:
                let update = pending
                pending = Update()
                onEvent?(.done(update))
            case .enter(nil), .leave(nil):
                break
            }
        }
    }

    /// Asks for input method text for the focused surface, with where the caret
    /// is (surface coordinates) so a candidate window can be placed by it.
    public func enable(cursorRectangle: (x: Int, y: Int, width: Int, height: Int)?, purpose: ZwpTextInputV3.ContentPurpose = .normal) {
        guard focusedSurface != nil else { return }
        proxy.enable()
        proxy.setContentType(hint: [], purpose: purpose)
        if let r = cursorRectangle { proxy.setCursorRectangle(x: Int32(r.x), y: Int32(r.y), width: Int32(r.width), height: Int32(r.height)) }
        commit()
        isEnabled = true
    }

    /// Tells where the caret moved to.
    public func setCursorRectangle(x: Int, y: Int, width: Int, height: Int) {
        guard isEnabled else { return }
        proxy.setCursorRectangle(x: Int32(x), y: Int32(y), width: Int32(width), height: Int32(height))
        commit()
    }

    public func disable() {
        guard isEnabled else { return }
        proxy.disable()
        commit()
        isEnabled = false
    }

    private func commit() {
        proxy.commit()
        commits &+= 1
    }
}
