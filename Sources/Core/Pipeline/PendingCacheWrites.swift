import Synchronization

/// The data-cache writes a loader started in the background and has not finished, so callers (a command about
/// to exit, a test about to read the cache) can wait for them.
final class PendingCacheWrites: Sendable {
    private struct State {
        var running = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Mutex(State())

    init() {}

    /// How many writes are in flight.
    var count: Int { state.withLock { $0.running } }

    /// Runs `write` in a task of its own, counted until it ends. The cache does its blocking I/O on its own
    /// threads (`DiskDataCache` on `WorkExecutor.io`); the task only awaits it.
    func start(_ write: @escaping @Sendable () async -> Void) {
        state.withLock { $0.running += 1 }
        Task {
            await write()
            self.end()
        }
    }

    /// Returns when no write is in flight (writes started meanwhile are waited for too).
    func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                if state.running == 0 { return true }
                state.waiters.append(continuation)
                return false
            }
            if idle { continuation.resume() }
        }
    }

    private func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running -= 1
            guard state.running == 0 else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}
