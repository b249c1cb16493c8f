import Synchronization

/// Identical requests in flight share one processing: the first starts it, later ones wait for the same result.
final class InFlightRenders<Value: Sendable>: Sendable {
    private let tasks = Mutex<[String: Task<Value, any Error>]>([:])

    /// The result of the work for `key`, started by `work` unless it is running already; `shared` tells whether
    /// another request had started it.
    func value(for key: String, work: @escaping @Sendable () async throws -> Value) async throws -> (
        Value, shared: Bool
    ) {
        let (task, shared) = tasks.withLock { tasks -> (Task<Value, any Error>, Bool) in
            if let running = tasks[key] { return (running, true) }
            let task = Task {
                defer { self.tasks.withLock { _ = $0.removeValue(forKey: key) } }
                return try await work()
            }
            tasks[key] = task
            return (task, false)
        }
        return (try await task.value, shared)
    }

    /// Keys being processed now.
    var count: Int { tasks.withLock { $0.count } }
}
