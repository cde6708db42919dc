import CShims
import Glibc
import Synchronization

/// Work other threads hand to the main actor through a connection: kept in order
/// and announced on an eventfd that whatever dispatches the connection also
/// polls (``Connection/dispatch(timeout:)``, an ``EventLoop``'s turns), so a
/// result from a render worker wakes a main thread asleep in `poll`.
final class MainActorMailbox: Sendable {
    /// Readable while work is waiting; -1 when no eventfd could be made (work then
    /// runs at the next dispatch anyway).
    let fileDescriptor: Int32
    private let work = Mutex<[@MainActor @Sendable () -> Void]>([])

    init() {
        fileDescriptor = strata_eventfd()
    }

    deinit {
        if fileDescriptor >= 0 { close(fileDescriptor) }
    }

    /// From any thread.
    func post(_ body: @escaping @MainActor @Sendable () -> Void) {
        work.withLock { $0.append(body) }
        var one: UInt64 = 1
        if fileDescriptor >= 0 { _ = write(fileDescriptor, &one, 8) }
    }

    /// Runs what was posted, in order (and what that posts in turn); `signalled`:
    /// the eventfd polled readable, and is reset.
    @MainActor
    func runPosted(signalled: Bool) {
        var value: UInt64 = 0
        if signalled && fileDescriptor >= 0 { _ = read(fileDescriptor, &value, 8) }
        while true {
            let batch = work.withLock { w -> [@MainActor @Sendable () -> Void] in
                defer { w.removeAll() }
                return w
            }
            guard !batch.isEmpty else { return }
            for body in batch { body() }
        }
    }
}
