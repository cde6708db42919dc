/// A record of the action search, to see why a change did or did not animate.
///
/// Core Animation gives no such view; LayerKit can report every search: which
/// step answered (rule A3), for which layer and key, and whether the action then
/// ran, or was suppressed by `disableActions` (rule T3) or because the layer had
/// never been presented (rule B5).
///
/// ```swift
/// let entries = ActionTrace.recording { layer.opacity = 0.5 }
/// print(entries.map(\.description))
/// // ["Layer 'card' opacity: implicit animation (ran)"]
/// ```
@MainActor
public enum ActionTrace {
    /// Where the search ended.
    public enum Step: Equatable, Sendable, CustomStringConvertible {
        /// The delegate returned an action.
        case delegate
        /// The `actions` dictionary held the key.
        case actionsDictionary
        /// A `style` dictionary held the key; `depth` 0 is `style` itself, 1 its `"style"` entry, …
        case style(depth: Int)
        /// `defaultAction(forKey:)` returned an action.
        case defaultAction
        /// The toolkit's implicit animation (rule B1).
        case implicit
        /// No step had an action for the key.
        case none

        public var description: String {
            switch self {
            case .delegate: "delegate"
            case .actionsDictionary: "actions dictionary"
            case .style(let d): d == 0 ? "style" : "style (nested \(d))"
            case .defaultAction: "defaultAction(forKey:)"
            case .implicit: "implicit animation"
            case .none: "no action"
            }
        }
    }

    /// What happened to the action that was found.
    public enum Outcome: Equatable, Sendable {
        /// It ran.
        case ran
        /// A `NullAction` ended the search: nothing ran.
        case stoppedByNullAction
        /// Nothing was found.
        case noAction
        /// `Transaction.disableActions` was set: no search was made (rule T3).
        case actionsDisabled
        /// The implicit animation was skipped: the layer has never been presented (rule B5).
        case notYetPresented
        /// Only looked up (`action(forKey:)` called directly): nothing was run.
        case lookedUp
    }

    public struct Entry: Sendable, CustomStringConvertible {
        public let layerName: String
        public let key: String
        public let step: Step
        public let outcome: Outcome
        public var description: String {
            let o: String
            switch outcome {
            case .ran: o = "ran"
            case .stoppedByNullAction: o = "NullAction: stopped"
            case .noAction: o = "nothing to run"
            case .actionsDisabled: o = "actions disabled"
            case .notYetPresented: o = "skipped: layer never presented"
            case .lookedUp: o = "looked up"
            }
            return "\(layerName) \(key): \(step) (\(o))"
        }
    }

    /// Receives every entry of the current context while set
    /// (``LayerContext/actionTraceSink``). Off (nil) by default; costs nothing then.
    public static var sink: (@MainActor (Entry) -> Void)? {
        get { LayerContext.current.actionTraceSink }
        set { LayerContext.current.actionTraceSink = newValue }
    }

    /// Runs `body` and returns the entries it produced.
    public static func recording(_ body: () throws -> Void) rethrows -> [Entry] {
        let previous = sink
        var entries: [Entry] = []
        sink = { entries.append($0); previous?($0) }
        defer { sink = previous }
        try body()
        return entries
    }

    /// Every change asks: only the test for a sink is inlined.
    @inline(__always)
    static func record(_ layer: Layer, _ key: String, _ step: Step, _ outcome: Outcome) {
        if layer.context.actionTraceSink != nil { deliver(layer, key, step, outcome) }
    }

    @inline(never)
    private static func deliver(_ layer: Layer, _ key: String, _ step: Step, _ outcome: Outcome) {
        guard let sink = layer.context.actionTraceSink else { return }
        let name = layer.name.map { "Layer '\($0)'" } ?? "\(type(of: layer))@\(ObjectIdentifier(layer).hashValue & 0xffff)"
        sink(Entry(layerName: name, key: key, step: step, outcome: outcome))
    }
}
