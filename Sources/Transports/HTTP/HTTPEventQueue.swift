import ImagoCore
import Synchronization

/// The events of one HTTP fetch, waiting for the consumer, who pulls them one by one.
///
/// A plain `AsyncThrowingStream` continuation keeps delivering its buffered chunks after the consumer's task is
/// cancelled; this queue checks for cancellation on every pull, so nothing is delivered after it.
final class HTTPEventQueue: Sendable {
    private struct State {
        var events: [TransportEvent] = []
        var ending: Result<Void, ImagoError>?
        var waiter: CheckedContinuation<TransportEvent?, any Error>?
        var isCancelled = false
        var onCancel: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// Sets what runs once, when the consumer is cancelled or goes away.
    func onCancel(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCancel = handler }
    }

    /// Adds an event, or hands it straight to a waiting consumer; ignored once the queue has ended.
    func push(_ event: TransportEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<TransportEvent?, any Error>? in
            guard state.ending == nil, !state.isCancelled else { return nil }
            guard let waiter = state.waiter else {
                state.events.append(event)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: event)
    }

    /// Ends the queue: the consumer gets the events still queued, then the end (or `error`).
    func end(throwing error: ImagoError?) {
        let waiter = state.withLock { state -> CheckedContinuation<TransportEvent?, any Error>? in
            guard state.ending == nil else { return nil }
            state.ending = error.map { .failure($0) } ?? .success(())
            defer { state.waiter = nil }
            return state.waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The consumer is cancelled or gone: drop what is queued, end every pull, and stop the fetch.
    func cancel() {
        let (waiter, onCancel) = state.withLock { state in
            defer {
                state.isCancelled = true
                state.events.removeAll()
                state.waiter = nil
                state.onCancel = nil
            }
            return (state.waiter, state.onCancel)
        }
        waiter?.resume(returning: nil)
        onCancel?()
    }

    /// The next event, waiting for one if needed; `nil` at the end or once the consumer's task is cancelled.
    func next() async throws -> TransportEvent? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> Result<TransportEvent?, ImagoError>? in
                    if state.isCancelled { return .success(nil) }
                    if !state.events.isEmpty { return .success(state.events.removeFirst()) }
                    switch state.ending {
                    case .failure(let error): return .failure(error)
                    case .success: return .success(nil)
                    case nil:
                        state.waiter = continuation
                        return nil
                    }
                }
                if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
            }
        } onCancel: {
            cancel()
        }
    }
}

/// The consumer's end of a queue, owned by the stream: when the stream is released before the end (the consumer
/// broke out of its loop), the fetch is cancelled.
final class HTTPStreamConsumer: Sendable {
    private let queue: HTTPEventQueue
    init(_ queue: HTTPEventQueue) { self.queue = queue }
    deinit { queue.cancel() }

    func next() async throws -> TransportEvent? { try await queue.next() }
}
