import Synchronization

/// Bounds the work in progress: at most `limit` requests processed at once, at most `queueLimit` waiting for a
/// slot; beyond that a request is shed (503 with `Retry-After`) instead of queueing without bound.
final class AdmissionGate: Sendable {
    private struct State {
        var running = 0
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }

    let limit: Int
    let queueLimit: Int
    private let state = Mutex(State())

    init(limit: Int, queueLimit: Int) {
        self.limit = max(1, limit)
        self.queueLimit = max(0, queueLimit)
    }

    /// Runs `work` in a slot, waiting in line for one; throws a 503 when the line is full.
    func withSlot<T: Sendable>(_ work: () async throws -> T) async throws -> T {
        let admitted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let immediate: Bool? = state.withLock { state in
                if state.running < limit {
                    state.running += 1
                    return true
                }
                if state.waiting.count >= queueLimit { return false }
                state.waiting.append(continuation)
                return nil
            }
            if let immediate { continuation.resume(returning: immediate) }
        }
        guard admitted else {
            throw RequestError(.overloaded, "overloaded: \(limit) requests in progress and \(queueLimit) waiting")
        }
        defer { leave() }
        // A request whose client left while it queued gives its slot straight back.
        try Task.checkCancellation()
        return try await work()
    }

    /// Requests processed now and waiting now.
    var load: (running: Int, waiting: Int) { state.withLock { ($0.running, $0.waiting.count) } }

    /// Hands the slot to the first in line, or frees it.
    private func leave() {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: true)
    }
}
