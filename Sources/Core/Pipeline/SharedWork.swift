import Synchronization

/// One piece of work shared by every waiter that asked for the same key.
///
/// The work runs in its own unstructured task. A waiter that cancels is answered `cancelled` at once; the work
/// itself is cancelled only when its last waiter is gone.
final class SharedWork<Value: Sendable>: PrioritySource {
    typealias Continuation = CheckedContinuation<Value, any Error>

    struct Waiter {
        var continuation: Continuation
        var sink: LoadEventSink?
        var priority: any PrioritySource
    }

    struct State {
        var waiters: [Int: Waiter] = [:]
        /// Waiters whose cancellation arrived before they were registered.
        var cancelledEarly: Set<Int> = []
        var isDone = false
        var task: Task<Void, Never>?
    }

    let state = Mutex(State())
    /// Called once when the work ends (finished, failed or abandoned) so the coalescer forgets it.
    let onEnd: @Sendable (SharedWork<Value>) -> Void

    init(onEnd: @escaping @Sendable (SharedWork<Value>) -> Void) { self.onEnd = onEnd }

    var currentPriority: ImagePriority {
        let sources = state.withLock { $0.waiters.values.map(\.priority) }
        return sources.lazy.map(\.currentPriority).max() ?? .veryLow
    }

    /// Adds a waiter; returns `false` when the work has already ended and cannot take it.
    func add(_ id: Int, _ waiter: Waiter) -> Bool {
        // (ended, cancelled early)
        let (ended, cancelled) = state.withLock { state in
            if state.isDone { return (true, false) }
            if state.cancelledEarly.remove(id) != nil { return (false, true) }
            state.waiters[id] = waiter
            return (false, false)
        }
        if cancelled { waiter.continuation.resume(throwing: ImagoError(.cancelled, "cancelled")) }
        return !ended
    }

    /// Starts the work; called once, right after the first waiter is added.
    func start(_ work: @escaping @Sendable (SharedWork<Value>) async throws -> Value) {
        // The work runs where its first waiter runs: on a work executor when the load prefers one.
        let task = Task(executorPreference: WorkExecutor.current) {
            do {
                self.finish(.success(try await work(self)))
            } catch {
                self.finish(.failure(error))
            }
        }
        let abandoned = state.withLock { state in
            state.task = task
            return state.isDone
        }
        if abandoned { task.cancel() }
    }

    /// Answers the waiter `id` with `cancelled`; cancels the work when no waiter is left.
    func cancelWaiter(_ id: Int) {
        let (waiter, cancelWork): (Waiter?, Task<Void, Never>??) = state.withLock { state in
            guard let waiter = state.waiters.removeValue(forKey: id) else {
                if !state.isDone { state.cancelledEarly.insert(id) }
                return (nil, nil)
            }
            guard state.waiters.isEmpty, !state.isDone else { return (waiter, nil) }
            state.isDone = true
            return (waiter, .some(state.task))
        }
        waiter?.continuation.resume(throwing: ImagoError(.cancelled, "cancelled"))
        if let cancelWork {
            cancelWork?.cancel()
            onEnd(self)
        }
    }

    /// Sends an event of the shared work to every waiter.
    func emit(_ kind: ImageLoadEvent.Kind) {
        let sinks = state.withLock { $0.waiters.values.compactMap(\.sink) }
        for sink in sinks { sink(kind) }
    }

    /// The sink that reaches every waiter, for the stages the work runs.
    var sink: LoadEventSink {
        LoadEventSink(pinning: { self.sinkOutlivingTheWork }, deliver: { kind in self.emit(kind) })
    }

    /// A sink that reaches the waiters there are now, even after the work has ended (they are no longer
    /// waiting then): for events of work it started in the background, such as its cache write.
    var sinkOutlivingTheWork: LoadEventSink {
        let sinks = state.withLock { $0.waiters.values.compactMap(\.sink) }.map(\.pinned)
        return LoadEventSink { kind in for sink in sinks { sink(kind) } }
    }

    private func finish(_ result: Result<Value, any Error>) {
        let (waiters, wasDone) = state.withLock { state in
            defer {
                state.waiters = [:]
                state.isDone = true
            }
            return (Array(state.waiters.values), state.isDone)
        }
        for waiter in waiters { waiter.continuation.resume(with: result) }
        if !wasDone { onEnd(self) }
    }
}
