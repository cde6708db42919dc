import LayerKit
import Testing

/// Marks tests that use what a process has once — `Application.shared` and its
/// compositor connection, the pasteboards, the app's ``LayerContext/main``:
/// such tests run one at a time, across every suite, while other tests (each
/// in a context of its own, `.isolatedLayerContext`) may run between them. A
/// test that waits for a compositor suspends without letting another test
/// connect the application elsewhere.
///
/// ```swift
/// @Suite(.usesApplication) struct ClipboardOnSwayTests { … }
/// ```
public struct UsesApplication: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else { return try await function() }
        await ApplicationTurn.shared.take()
        do {
            try await function()
        } catch {
            await ApplicationTurn.shared.give()
            throw error
        }
        await ApplicationTurn.shared.give()
    }
}

extension Trait where Self == UsesApplication {
    /// One test at a time with the application (``UsesApplication``).
    public static var usesApplication: Self { UsesApplication() }
}

/// Whose turn it is with the application: first come, first served.
private actor ApplicationTurn {
    static let shared = ApplicationTurn()
    private var taken = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        guard taken else { taken = true; return }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { taken = false } else { waiting.removeFirst().resume() }
    }
}
