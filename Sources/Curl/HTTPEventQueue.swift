import ImagoCore
import Synchronization

/// The events of one HTTP fetch, waiting for the consumer, who pulls them one by one.
///
/// A plain `AsyncThrowingStream` continuation keeps delivering its buffered chunks after the consumer's task is
/// cancelled; this queue checks for cancellation on every pull, so nothing is delivered after it.
package final class HTTPEventQueue: Sendable {
    private struct State {
        var events: [TransportEvent] = []
        var ending: Result<Void, ImagoError>?
        var waiter: CheckedContinuation<TransportEvent?, any Error>?
        var isCancelled = false
        var onCancel: (@Sendable () -> Void)?
        /// Bytes queued and not yet pulled, for back-pressure.
        var bufferedBytes = 0
        /// Set when a producer was told to pause; cleared (running `onResume`) once the consumer caught up.
        var isProducerPaused = false
        var resumeBelow = 0
        var onResume: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// An empty queue.
    package init() {}

    /// Sets what runs once, when the consumer is cancelled or goes away.
    package func onCancel(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onCancel = handler }
    }

    /// Sets what runs (once per pause) when the consumer has caught up with a producer `push(_:pausingAbove:)`
    /// paused: fewer than half the limit's bytes are still queued.
    package func onResume(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.onResume = handler }
    }

    /// Adds an event, or hands it straight to a waiting consumer; ignored once the queue has ended.
    package func push(_ event: TransportEvent) {
        _ = push(event, pausingAbove: nil)
    }

    /// Adds `event` unless `limit` bytes already wait for the consumer: then nothing is added, the producer counts
    /// as paused, and `false` tells it to stop until `onResume` runs.
    package func push(_ event: TransportEvent, pausingAbove limit: Int?) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<TransportEvent?, any Error>?) in
            guard state.ending == nil, !state.isCancelled else { return (true, nil) }
            guard let waiter = state.waiter else {
                if let limit, state.bufferedBytes >= limit {
                    state.isProducerPaused = true
                    state.resumeBelow = limit / 2
                    return (false, nil)
                }
                if case .bytes(let data) = event { state.bufferedBytes += data.count }
                state.events.append(event)
                return (true, nil)
            }
            state.waiter = nil
            return (true, waiter)
        }
        waiter?.resume(returning: event)
        return accepted
    }

    /// Ends the queue: the consumer gets the events still queued, then the end (or `error`).
    package func end(throwing error: ImagoError?) {
        let waiter = state.withLock { state -> CheckedContinuation<TransportEvent?, any Error>? in
            guard state.ending == nil else { return nil }
            state.ending = error.map { .failure($0) } ?? .success(())
            defer { state.waiter = nil }
            return state.waiter
        }
        if let error { waiter?.resume(throwing: error) } else { waiter?.resume(returning: nil) }
    }

    /// The consumer is cancelled or gone: drop what is queued, end every pull, and stop the fetch.
    package func cancel() {
        let (waiter, onCancel) = state.withLock { state in
            defer {
                state.isCancelled = true
                state.events.removeAll()
                state.waiter = nil
                state.onCancel = nil
                state.onResume = nil
            }
            return (state.waiter, state.onCancel)
        }
        waiter?.resume(returning: nil)
        onCancel?()
    }

    /// The next event, waiting for one if needed; `nil` at the end or once the consumer's task is cancelled.
    package func next() async throws -> TransportEvent? {
        if Task.isCancelled {
            cancel()
            return nil
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                var resume: (@Sendable () -> Void)?
                let ready = state.withLock { state -> Result<TransportEvent?, ImagoError>? in
                    if state.isCancelled { return .success(nil) }
                    if !state.events.isEmpty {
                        let event = state.events.removeFirst()
                        if case .bytes(let data) = event { state.bufferedBytes -= data.count }
                        if state.isProducerPaused, state.bufferedBytes <= state.resumeBelow {
                            state.isProducerPaused = false
                            resume = state.onResume
                        }
                        return .success(event)
                    }
                    switch state.ending {
                    case .failure(let error): return .failure(error)
                    case .success: return .success(nil)
                    case nil:
                        if state.isProducerPaused {
                            state.isProducerPaused = false
                            resume = state.onResume
                        }
                        state.waiter = continuation
                        return nil
                    }
                }
                resume?()
                if let ready { continuation.resume(with: ready.mapError { $0 as any Error }) }
            }
        } onCancel: {
            cancel()
        }
    }
}

/// The consumer's end of a queue, owned by the stream: when the stream is released before the end (the consumer
/// broke out of its loop), the fetch is cancelled.
package final class HTTPStreamConsumer: Sendable {
    private let queue: HTTPEventQueue
    package init(_ queue: HTTPEventQueue) { self.queue = queue }
    deinit { queue.cancel() }

    package func next() async throws -> TransportEvent? { try await queue.next() }
}
