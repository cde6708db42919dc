import LayerKit
import Testing

/// Runs each test of a suite (or one test) on the app's context
/// (``LayerContext/main``) — the one `Application.shared`, its compositor
/// connection and the pasteboards use — and alone: no other test runs until it
/// ends, in any suite. For tests that connect to a compositor and turn a real
/// event loop.
///
/// ```swift
/// @Suite(.mainLayerContext) struct ClipboardOnSwayTests { … }
/// ```
public struct MainLayerContext: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // A scope per test case (each argument of a parameterized test), none for suites and test functions.
        guard testCase != nil else { return try await function() }
        try await TestTurns.shared.withTurn(exclusive: true) { try await function() }
    }
}

extension Trait where Self == MainLayerContext {
    /// Each test on the app's context, alone (``MainLayerContext``).
    public static var mainLayerContext: Self { MainLayerContext() }
}
