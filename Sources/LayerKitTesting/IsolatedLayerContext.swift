import LayerKit
import Testing

/// Runs each test of a suite (or one test) in a ``LayerContext`` of its own:
/// its own transactions, timeline, presented trees, diagnostics and a
/// `ManualMediaClock` at t = 0 until the test installs another. Tests in such
/// suites may run in parallel with each other: none sees another's clock or
/// open transactions, even across suspensions. (Not with a `.mainLayerContext`
/// test: that one runs alone.)
///
/// ```swift
/// @Suite(.isolatedLayerContext) struct FadeTests { … }
/// ```
///
/// `alone: true` runs each test by itself, as ``MainLayerContext`` does, for a
/// test whose outside peers need the main actor to answer within their own
/// deadlines (a D-Bus service answering on the main queue): a test driving a
/// compositor holds the main actor for seconds at a time while it waits.
public struct IsolatedLayerContext: TestTrait, SuiteTrait, TestScoping {
    public var isRecursive: Bool { true }
    var alone = false

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // A scope per test case (each argument of a parameterized test), none for suites and test functions.
        guard testCase != nil, !TestTurns.isHeld else { return try await function() }
        let context = await MainActor.run { LayerContext(clock: ManualMediaClock(now: 0)) }
        try await TestTurns.shared.withTurn(exclusive: alone) {
            try await context.runTest { try await function() }
        }
    }
}

extension Trait where Self == IsolatedLayerContext {
    /// Each test in a ``LayerContext`` of its own (``IsolatedLayerContext``).
    public static var isolatedLayerContext: Self { IsolatedLayerContext() }
    /// Each test in a ``LayerContext`` of its own, and alone when `alone` (``IsolatedLayerContext``).
    public static func isolatedLayerContext(alone: Bool) -> Self { IsolatedLayerContext(alone: alone) }
}
