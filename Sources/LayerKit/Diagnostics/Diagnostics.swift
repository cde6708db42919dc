#if canImport(Glibc)
import Glibc
#endif

/// A problem LayerKit noticed in what it was asked to do. None of them crashes:
/// each says what was refused or what fallback was used.
public enum LayerKitDiagnostic: Error, Equatable, Sendable, CustomStringConvertible {
    /// An animation value is not of the property's type; the animation was not added.
    case typeMismatch(keyPath: String, expected: String, got: String)
    /// A property animation has no key path; it was not added.
    case missingKeyPath
    /// A value was refused (NaN, infinite, out of range); the property kept its value.
    case invalidValue(key: String, reason: String)
    /// A tree operation was refused or adjusted (cycles, foreign layers, bad indices).
    case invalidTree(String)
    /// An animation's timing was out of range; the stated fallback was used.
    case invalidTiming(String)
    /// `Transaction.commit()` with no explicit transaction open; ignored.
    case unmatchedCommit
    /// Layout kept asking for more layout; the pass was cut off after the stated number of rounds.
    case layoutLoop(String)
    /// A view-level request was refused or adjusted (Strata's views, animation blocks, windows).
    case invalidView(String)
    /// Text could not be shown as asked (Strata's fonts and text): what was used instead.
    case text(String)
    /// A layout constraint was refused, or broken to resolve a conflict (Strata's Auto Layout).
    case layoutConstraints(String)

    public var description: String {
        switch self {
        case let .typeMismatch(k, e, g): "animation of '\(k)' has a \(g) value where \(e) is expected; not added"
        case .missingKeyPath: "property animation without a keyPath; not added"
        case let .invalidValue(k, r): "invalid value for '\(k)': \(r)"
        case .invalidTree(let r): "layer tree: \(r)"
        case .invalidTiming(let r): "animation timing: \(r)"
        case .unmatchedCommit: "Transaction.commit() without a matching begin(); ignored"
        case .layoutLoop(let r): "layout: \(r)"
        case .invalidView(let r): "view: \(r)"
        case .text(let r): "text: \(r)"
        case .layoutConstraints(let r): "Auto Layout: \(r)"
        }
    }
}

/// Where LayerKit reports ``LayerKitDiagnostic``s. Debug builds also print them
/// to standard error.
@MainActor
public enum Diagnostics {
    /// Receives every diagnostic of the current context while set
    /// (``LayerContext/diagnosticsHandler``).
    public static var handler: (@MainActor (LayerKitDiagnostic) -> Void)? {
        get { LayerContext.current.diagnosticsHandler }
        set { LayerContext.current.diagnosticsHandler = newValue }
    }

    /// Runs `body` and returns the diagnostics it produced.
    public static func recording(_ body: () throws -> Void) rethrows -> [LayerKitDiagnostic] {
        let previous = handler
        var seen: [LayerKitDiagnostic] = []
        handler = { seen.append($0) }
        defer { handler = previous }
        try body()
        return seen
    }

    /// Reports a diagnostic: to ``handler`` when set, else (debug builds) to standard error.
    package static func report(_ d: LayerKitDiagnostic) {
        if let handler {
            handler(d)
            return
        }
        #if DEBUG
        let line = "LayerKit: \(d)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        #endif
    }
}
