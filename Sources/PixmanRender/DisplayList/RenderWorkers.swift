import Dispatch
import Glibc
import Synchronization

/// Threads that play bands of a frame: one fewer than the cores (the calling
/// thread plays a band too), started on first use and kept. They have large
/// stacks, as deeply nested groups recurse while they are drawn.
final class RenderWorkers: @unchecked Sendable {
    /// The process's workers, one per core but the caller's.
    static let shared = RenderWorkers(threads: max(0, coreCount - 1))

    /// Cores online.
    static var coreCount: Int { max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    let threads: Int
    private let wake = DispatchSemaphore(value: 0)
    private let current = Mutex<Batch?>(nil)

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
        current.withLock { $0 = batch }
        for _ in 0..<min(threads, count - 1) { wake.signal() }
        batch.run()
        batch.finished.wait()
        current.withLock { if $0 === batch { $0 = nil } }
    }

    private final class Batch: @unchecked Sendable {
        let count: Int
        let body: @Sendable (Int) -> Void
        let next = Atomic<Int>(0)
        let remaining: Atomic<Int>
        let finished = DispatchSemaphore(value: 0)

        init(count: Int, body: @escaping @Sendable (Int) -> Void) {
            self.count = count
            self.body = body
            remaining = Atomic(count)
        }

        /// Takes calls until none are left; whoever finishes the last one says so.
        func run() {
            while true {
                let i = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard i < count else { return }
                body(i)
                if remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 { finished.signal() }
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

    private func serve() -> Never {
        while true {
            wake.wait()
            current.withLock { $0 }?.run()
        }
    }
}
