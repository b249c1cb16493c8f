/// Prefetching: loads started at low priority only to fill the caches.
extension ImageLoader {
    /// Starts loading `requests` at low priority (or lower, if a request asks for less) into the caches, and
    /// returns a handle that cancels them as a group. Requests the memory cache already holds are skipped.
    @discardableResult
    public func prefetch(_ requests: [ImageRequest]) -> PrefetchHandle {
        let tasks: [Task<Bool, Never>] = requests.compactMap { request in
            var request = request
            request.priority = min(request.priority, .low)
            if request.cachePolicy.contains(.readMemory), cachedImage(for: request) != nil { return nil }
            return Task {
                do {
                    _ = try await self.image(for: request)
                    return true
                } catch {
                    return false
                }
            }
        }
        return PrefetchHandle(tasks: tasks)
    }
}

/// A group of prefetches, cancelled together.
public final class PrefetchHandle: Sendable {
    private let tasks: [Task<Bool, Never>]

    init(tasks: [Task<Bool, Never>]) { self.tasks = tasks }

    /// How many loads were started (requests already in the memory cache are not).
    public var count: Int { tasks.count }

    /// Cancels every prefetch of the group that is still running; a load another caller also waits for goes on.
    public func cancel() { tasks.forEach { $0.cancel() } }

    /// Waits until every prefetch has ended, and returns how many succeeded.
    @discardableResult
    public func wait() async -> Int {
        var succeeded = 0
        for task in tasks where await task.value { succeeded += 1 }
        return succeeded
    }
}
