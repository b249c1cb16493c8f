import Synchronization

/// Runs one piece of work per key at a time and lets every caller of that key wait for it: the one coalescer of
/// the package (the loader's fetches, decodes and loads; the server's renders).
///
/// Fifty callers of one key cause one run of the work; each gets its result, or `cancelled` at once if it
/// cancels, and the work is cancelled only when the last caller is gone.
package final class TaskCoalescer<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct State {
        var works: [Key: SharedWork<Value>] = [:]
        var nextWaiterID = 0
    }
    private let state = Mutex(State())

    package init() {}

    /// How many pieces of work are in flight (for tests and diagnostics).
    var inFlightCount: Int { state.withLock { $0.works.count } }
    /// How many callers wait for work in flight (for tests and diagnostics).
    var waiterCount: Int {
        let works = state.withLock { Array($0.works.values) }
        return works.reduce(0) { total, work in total + work.state.withLock { $0.waiters.count } }
    }

    /// The result of the work for `key`, starting `work` unless the same key is already in flight.
    func value(
        for key: Key, priority: any PrioritySource, sink: LoadEventSink? = nil,
        work: @escaping @Sendable (SharedWork<Value>) async throws -> Value
    ) async throws -> Value {
        let id = state.withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let holder = WorkHolder<Value>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: SharedWork<Value>.Continuation) in
                let waiter = SharedWork<Value>.Waiter(
                    continuation: continuation, sink: sink, priority: priority)
                let (shared, isNew) = join(key, id: id, waiter: waiter)
                holder.set(shared)
                if isNew { shared.start(work) } else { shared.replay(to: id) }
            }
        } onCancel: {
            holder.cancel(id)
        }
    }

    /// The result of the work for `key`, starting `work` unless the same key is in flight, and whether this caller
    /// joined work another caller started.
    package func value(for key: Key, work: @escaping @Sendable () async throws -> Value) async throws -> (
        value: Value, joined: Bool
    ) {
        let joined = Joined()
        let value = try await value(for: key, priority: PriorityBox(.normal)) { _ in
            joined.startedHere()
            return try await work()
        }
        return (value, !joined.here)
    }

    private func join(_ key: Key, id: Int, waiter: SharedWork<Value>.Waiter) -> (SharedWork<Value>, Bool) {
        state.withLock { state in
            var late = waiter
            late.joinedLate = true
            if let existing = state.works[key], existing.add(id, late) { return (existing, false) }
            let shared = SharedWork<Value>(onEnd: { [weak self] ended in self?.forget(key, ended) })
            _ = shared.add(id, waiter)
            state.works[key] = shared
            return (shared, true)
        }
    }

    private func forget(_ key: Key, _ ended: SharedWork<Value>) {
        state.withLock { state in
            if state.works[key] === ended { state.works[key] = nil }
        }
    }
}

/// Holds the shared work a waiter joined, so a cancellation arriving at any time reaches it.
private final class WorkHolder<Value: Sendable>: Sendable {
    private struct State {
        var work: SharedWork<Value>?
        var cancelledID: Int?
    }
    private let state = Mutex(State())

    func set(_ work: SharedWork<Value>) {
        let early = state.withLock { state in
            state.work = work
            return state.cancelledID
        }
        if let early { work.cancelWaiter(early) }
    }

    func cancel(_ id: Int) {
        let work = state.withLock { state in
            if state.work == nil { state.cancelledID = id }
            return state.work
        }
        work?.cancelWaiter(id)
    }
}

/// Whether the work a caller waited for was started by it.
private final class Joined: Sendable {
    private let started = Atomic(false)
    func startedHere() { started.store(true, ordering: .relaxed) }
    var here: Bool { started.load(ordering: .relaxed) }
}
