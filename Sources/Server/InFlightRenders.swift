import Synchronization

/// Identical requests in flight share one processing: the first starts it, later ones wait for the same result.
/// The processing is cancelled when every request waiting for it has been cancelled (their clients left).
final class InFlightRenders<Value: Sendable>: Sendable {
    private struct Entry {
        var task: Task<Value, any Error>
        var waiters: Int
        /// Tells this render's entry from a later one under the same key.
        var id: UInt64
    }

    private let entries = Mutex<[String: Entry]>([:])
    private let ids = Atomic<UInt64>(0)

    /// The result of the work for `key`, started by `work` unless it is running already; `shared` tells whether
    /// another request had started it.
    func value(for key: String, work: @escaping @Sendable () async throws -> Value) async throws -> (
        Value, shared: Bool
    ) {
        let (task, shared) = entries.withLock { entries -> (Task<Value, any Error>, Bool) in
            if var running = entries[key] {
                running.waiters += 1
                entries[key] = running
                return (running.task, true)
            }
            let id = ids.wrappingAdd(1, ordering: .relaxed).newValue
            let task = Task {
                defer { self.finished(key, id: id) }
                return try await work()
            }
            entries[key] = Entry(task: task, waiters: 1, id: id)
            return (task, false)
        }
        let waiter = Waiter()
        return try await withTaskCancellationHandler {
            defer { leave(key, task, waiter) }
            return (try await task.value, shared)
        } onCancel: {
            leave(key, task, waiter)
        }
    }

    /// Keys being processed now.
    var count: Int { entries.withLock { $0.count } }

    /// Requests waiting for the render of `key` now.
    func waiters(for key: String) -> Int { entries.withLock { $0[key]?.waiters ?? 0 } }

    /// One waiter is done (answered, or cancelled); the last to leave unfinished work cancels it.
    private func leave(_ key: String, _ task: Task<Value, any Error>, _ waiter: Waiter) {
        guard waiter.leave() else { return }
        let abandoned = entries.withLock { entries -> Bool in
            guard var entry = entries[key], entry.task == task else { return false }
            entry.waiters -= 1
            guard entry.waiters == 0 else {
                entries[key] = entry
                return false
            }
            // Nobody waits any more: later requests start afresh rather than join a cancelled render.
            entries.removeValue(forKey: key)
            return true
        }
        if abandoned { task.cancel() }
    }

    private func finished(_ key: String, id: UInt64) {
        entries.withLock { entries in
            if entries[key]?.id == id { entries.removeValue(forKey: key) }
        }
    }

    /// Leaves once: cancellation and the answer may both try.
    private final class Waiter: Sendable {
        private let left = Atomic(false)
        func leave() -> Bool { !left.exchange(true, ordering: .relaxed) }
    }
}
