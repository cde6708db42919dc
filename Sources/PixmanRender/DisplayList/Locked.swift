import Glibc

/// A value behind a pthread mutex, for state the render threads share (batches
/// of bands, a plane or shadow mask made by the first band that needs it). The
/// standard library's `Mutex` would do as well; a pthread mutex is what thread
/// checkers (TSan) understand, so the renderer can be checked with them.
final class Locked<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}

extension Locked {
    /// The value, made by `make` on first use; the others wait for it.
    func get<T>(orMake make: () -> T?) -> T? where Value == T? {
        withLock { v in
            if v == nil { v = make() }
            return v
        }
    }
}
