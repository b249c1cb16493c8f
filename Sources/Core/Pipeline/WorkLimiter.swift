import Synchronization

/// An async semaphore with a priority queue: at most `limit` holders at once, and at most `perGroupLimit` per
/// group (a host); when a slot frees, the waiting request of highest priority that fits takes it (first come
/// first served among equals).
final class WorkLimiter: Sendable {
    private struct Waiting {
        var id: Int
        var group: String?
        var priority: any PrioritySource
        var continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var active = 0
        var activeByGroup: [String: Int] = [:]
        var waiting: [Waiting] = []
        var nextID = 0
        /// Ids whose task was cancelled before its waiter was queued; the enqueue takes the id out again.
        var cancelledEarly: Set<Int> = []
        /// Ids allocated and not queued yet: only for these may a cancellation be remembered (one that races a
        /// grant must not be, or its id stays for ever).
        var arriving: Set<Int> = []
    }

    let limit: Int
    let perGroupLimit: Int
    private let state = Mutex(State())

    init(limit: Int, perGroupLimit: Int = .max) {
        self.limit = max(1, limit)
        self.perGroupLimit = max(1, perGroupLimit)
    }

    /// Requests waiting for a slot now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }
    /// Slots held now.
    var activeCount: Int { state.withLock { $0.active } }
    /// Cancellations remembered for waiters not queued yet (must not grow: test hook).
    var rememberedCancellations: Int { state.withLock { $0.cancelledEarly.count } }

    /// Runs `body` holding a slot; waits in the queue first when none is free. Throws `cancelled` when the
    /// task is cancelled while waiting.
    func withSlot<T: Sendable>(
        group: String? = nil, priority: any PrioritySource, _ body: () async throws -> T
    ) async throws -> T {
        try await acquire(group: group, priority: priority)
        defer { release(group: group) }
        return try await body()
    }

    func acquire(group: String?, priority: any PrioritySource) async throws {
        try Task.checkCancellation()
        let id: Int? = state.withLock { state in
            if state.waiting.isEmpty, fits(group, state) {
                take(group, &state)
                return nil
            }
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    state.arriving.remove(id)
                    if state.cancelledEarly.remove(id) != nil { return true }
                    state.waiting.append(Waiting(id: id, group: group, priority: priority, continuation: continuation))
                    return false
                }
                if resumeNow { continuation.resume(throwing: ImagoError(.cancelled, "cancelled")) }
                // A slot may have freed between the first check and the enqueue.
                grantSlots()
            }
        } onCancel: {
            let removed: Waiting? = state.withLock { state in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else {
                    // Not queued yet: the enqueue sees this. Granted already: the holder releases its slot.
                    if state.arriving.contains(id) { state.cancelledEarly.insert(id) }
                    return nil
                }
                return state.waiting.remove(at: index)
            }
            removed?.continuation.resume(throwing: ImagoError(.cancelled, "cancelled"))
        }
    }

    func release(group: String?) {
        state.withLock { state in
            state.active -= 1
            if let group {
                state.activeByGroup[group, default: 1] -= 1
                if state.activeByGroup[group] == 0 { state.activeByGroup[group] = nil }
            }
        }
        grantSlots()
    }

    /// Hands free slots to the waiting requests of highest priority that fit.
    private func grantSlots() {
        // Priorities are read outside the lock: they may consult other locks.
        while true {
            let candidates = state.withLock { state in
                state.active < limit ? state.waiting.map { ($0.id, $0.group, $0.priority) } : []
            }
            guard !candidates.isEmpty else { return }
            let ranked = candidates.enumerated().map {
                (
                    order: $0.offset, id: $0.element.0, group: $0.element.1,
                    priority: $0.element.2.currentPriority
                )
            }
            .sorted { $0.priority != $1.priority ? $0.priority > $1.priority : $0.order < $1.order }
            let granted: Waiting? = state.withLock { state in
                for candidate in ranked where fits(candidate.group, state) {
                    guard let index = state.waiting.firstIndex(where: { $0.id == candidate.id }) else { continue }
                    take(candidate.group, &state)
                    return state.waiting.remove(at: index)
                }
                return nil
            }
            guard let granted else { return }
            granted.continuation.resume()
        }
    }

    private func fits(_ group: String?, _ state: State) -> Bool {
        guard state.active < limit else { return false }
        guard let group else { return true }
        return state.activeByGroup[group, default: 0] < perGroupLimit
    }

    private func take(_ group: String?, _ state: inout State) {
        state.active += 1
        if let group { state.activeByGroup[group, default: 0] += 1 }
    }
}
