import Dispatch
import Glibc
import Synchronization

/// Threads that play bands of a frame, one per core, started on first use and
/// kept. A caller that waits for a frame plays bands too; one that does not (a
/// window, whose main thread goes back to its events) hears when the last band
/// is done. They have large stacks, as deeply nested groups recurse while drawn.
final class RenderWorkers: @unchecked Sendable {
    /// The process's workers.
    static let shared = RenderWorkers(threads: coreCount)

    /// Cores online.
    static var coreCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    let threads: Int
    private let wake = DispatchSemaphore(value: 0)
    /// Batches that may have calls left to take, oldest first.
    private let batches = Locked<[Batch]>([])

    private init(threads: Int) {
        self.threads = threads
        for _ in 0..<threads { startThread() }
    }

    /// Runs `body(0)`, …, `body(count - 1)` on the workers and the calling thread;
    /// returns when every call has returned.
    func perform(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 1, threads > 0 else {
            for i in 0..<count { body(i) }
            return
        }
        let batch = Batch(count: count, body: body)
        batches.withLock { $0.append(batch) }
        for _ in 0..<min(threads, count - 1) { wake.signal() }
        batch.run()
        batch.finished.wait()
    }

    /// Runs `body(0)`, …, `body(count - 1)` on the workers and returns at once;
    /// `done` runs on the worker that finishes the last call.
    func performAsync(_ count: Int, _ body: @escaping @Sendable (Int) -> Void, done: @escaping @Sendable () -> Void) {
        guard count > 0, threads > 0 else {
            for i in 0..<count { body(i) }
            done()
            return
        }
        let batch = Batch(count: count, body: body, done: done)
        batches.withLock { $0.append(batch) }
        for _ in 0..<min(threads, count) { wake.signal() }
    }

    private final class Batch: @unchecked Sendable {
        let count: Int
        let body: @Sendable (Int) -> Void
        let done: (@Sendable () -> Void)?
        let next = Atomic<Int>(0)
        let remaining: Atomic<Int>
        let finished = DispatchSemaphore(value: 0)

        init(count: Int, body: @escaping @Sendable (Int) -> Void, done: (@Sendable () -> Void)? = nil) {
            self.count = count
            self.body = body
            self.done = done
            remaining = Atomic(count)
        }

        var hasCallsLeft: Bool { next.load(ordering: .relaxed) < count }

        /// Takes calls until none are left; whoever finishes the last one says so.
        func run() {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                body(i)
                if remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                    finished.signal()
                    done?()
                }
            }
        }
    }

    private func startThread() {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setstacksize(&attributes, 64 << 20)
        var thread = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&thread, &attributes, { context in
            let workers = Unmanaged<RenderWorkers>.fromOpaque(context!).takeRetainedValue()
            workers.serve()
            return nil
        }, context)
        pthread_attr_destroy(&attributes)
        if started == 0 { pthread_detach(thread) } else { Unmanaged<RenderWorkers>.fromOpaque(context).release() }
    }

    /// The oldest batch with calls left (forgetting those without).
    private func nextBatch() -> Batch? {
        batches.withLock { list in
            list.removeAll { !$0.hasCallsLeft }
            return list.first
        }
    }

    private func serve() {
        while true {
            wake.wait()
            while let batch = nextBatch() { batch.run() }
        }
    }
}
