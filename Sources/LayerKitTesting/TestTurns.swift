/// Who may run now: any number of tests in contexts of their own, or one test
/// on the app's context alone.
///
/// A test on ``LayerContext/main`` may turn a real event loop, and the loop runs
/// the main queue — where every other waiting main-actor test is queued. So
/// while such a test runs, the others wait here, off the main actor, instead of
/// running inside its loop. A waiting exclusive test goes first: tests in their
/// own contexts that come later wait for it.
actor TestTurns {
    static let shared = TestTurns()

    private var sharing = 0
    private var exclusive = false
    private var waitingExclusive: [CheckedContinuation<Void, Never>] = []
    private var waitingShared: [CheckedContinuation<Void, Never>] = []

    func enterShared() async {
        guard exclusive || !waitingExclusive.isEmpty else { sharing += 1; return }
        await withCheckedContinuation { waitingShared.append($0) }   // counted by whoever resumes it
    }

    func leaveShared() {
        sharing -= 1
        if sharing == 0 { handOver() }
    }

    func enterExclusive() async {
        guard exclusive || sharing > 0 else { exclusive = true; return }
        await withCheckedContinuation { waitingExclusive.append($0) }
    }

    func leaveExclusive() {
        exclusive = false
        handOver()
    }

    /// The next exclusive test if one waits, else every waiting shared one.
    private func handOver() {
        if !waitingExclusive.isEmpty {
            exclusive = true
            waitingExclusive.removeFirst().resume()
        } else {
            sharing += waitingShared.count
            for waiter in waitingShared { waiter.resume() }
            waitingShared = []
        }
    }

    /// True inside a turn: a suite nested in another, both with the trait, scopes
    /// each test twice, and the inner scope must not wait for the outer one.
    @TaskLocal static var isHeld = false

    /// Runs `body` holding a turn of either kind (at once when the task holds one).
    nonisolated func withTurn(exclusive: Bool, _ body: @Sendable () async throws -> Void) async throws {
        guard !Self.isHeld else { return try await body() }
        if exclusive { await enterExclusive() } else { await enterShared() }
        do {
            try await Self.$isHeld.withValue(true) { try await body() }
        } catch {
            if exclusive { await leaveExclusive() } else { await leaveShared() }
            throw error
        }
        if exclusive { await leaveExclusive() } else { await leaveShared() }
    }
}
