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
        /// A waiter that joined work already running gets no event until `replay(to:)` has told it of the fetch
        /// attempt in progress, so it sees that attempt start before it ends.
        var joinedLate = false
    }

    struct State {
        var waiters: [Int: Waiter] = [:]
        /// The `fetchStarted` of the attempt in progress, for waiters that join while it runs.
        var openAttempt: ImageLoadEvent.Kind?
        /// Waiters whose cancellation arrived before they were registered.
        var cancelledEarly: Set<Int> = []
        var isDone = false
        var task: Task<Void, Never>?
    }

    let state = Mutex(State())
    /// Held while the work's events are handed out, so a late waiter's replay cannot pass an event sent meanwhile.
    private let emission = Mutex(())
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

    /// Sends an event of the shared work to every waiter (those that joined late once they have had their replay).
    func emit(_ kind: ImageLoadEvent.Kind) {
        emission.withLock { _ in
            let sinks = state.withLock { state in
                switch kind {
                case .fetchStarted: state.openAttempt = kind
                case .fetchEnded: state.openAttempt = nil
                default: break
                }
                return state.waiters.values.filter { !$0.joinedLate }.compactMap(\.sink)
            }
            for sink in sinks { sink(kind) }
        }
    }

    /// Tells the waiter `id`, which joined the work while it ran, of the fetch attempt in progress, if any; from
    /// then on it gets the work's events as the others do.
    func replay(to id: Int) {
        emission.withLock { _ in
            let (sink, open) = state.withLock { state -> (LoadEventSink?, ImageLoadEvent.Kind?) in
                guard state.waiters[id]?.joinedLate == true else { return (nil, nil) }
                state.waiters[id]?.joinedLate = false
                return (state.waiters[id]?.sink, state.openAttempt)
            }
            if let sink, let open { sink(open) }
        }
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
