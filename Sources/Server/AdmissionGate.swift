import Imago
import Synchronization

/// Where a request stands when it asks for a slot.
private enum GateEntry {
    case admitted, full, queued(Int)
}

/// Bounds the work in progress: at most `limit` requests processed at once, at most `queueLimit` waiting for a
/// slot; beyond that a request is shed (503 with `Retry-After`) instead of queueing without bound. A request that
/// is cancelled while it waits (its client left, its deadline passed) leaves the line at once.
final class AdmissionGate: Sendable {
    private struct Waiter {
        var id: Int
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
        var nextID = 0
        /// Waiters cancelled before they were queued.
        var cancelledEarly: Set<Int> = []
        var arriving: Set<Int> = []
    }

    let limit: Int
    let queueLimit: Int
    private let state = Mutex(State())

    init(limit: Int, queueLimit: Int) {
        self.limit = max(1, limit)
        self.queueLimit = max(0, queueLimit)
    }

    /// Runs `work` in a slot, waiting in line for one; throws `overloaded` when the line is full, `cancelled` when
    /// the task is cancelled while it waits.
    func withSlot<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        try Task.checkCancellation()
        let entry: GateEntry = state.withLock { state in
            if state.running < limit, state.waiting.isEmpty {
                state.running += 1
                return .admitted
            }
            guard state.waiting.count + state.arriving.count < queueLimit else { return .full }
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return .queued(state.nextID)
        }
        switch entry {
        case .admitted: break
        case .full:
            throw RequestError(.overloaded, "overloaded: \(limit) requests in progress and \(queueLimit) waiting")
        case .queued(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { state in
                        state.arriving.remove(id)
                        if state.cancelledEarly.remove(id) != nil { return true }
                        state.waiting.append(Waiter(id: id, continuation: continuation))
                        return false
                    }
                    if cancelled { continuation.resume(throwing: CancellationError()) }
                    // A slot may have been freed between the first look and the enqueue.
                    admitNext()
                }
            } onCancel: {
                let removed: Waiter? = state.withLock { state in
                    if let index = state.waiting.firstIndex(where: { $0.id == id }) {
                        return state.waiting.remove(at: index)
                    }
                    if state.arriving.contains(id) { state.cancelledEarly.insert(id) }
                    return nil
                }
                removed?.continuation.resume(throwing: CancellationError())
            }
        }
        defer { leave() }
        return try await work()
    }

    /// Requests processed now and waiting now.
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    /// Frees a slot and hands it to the first in line.
    private func leave() {
        state.withLock { $0.running -= 1 }
        admitNext()
    }

    /// Admits the first in line while there are free slots.
    private func admitNext() {
        while let next: Waiter = state.withLock({ state in
            guard state.running < limit, !state.waiting.isEmpty else { return nil }
            state.running += 1
            return state.waiting.removeFirst()
        }) {
            next.continuation.resume()
        }
    }
}
