import Dispatch
import Synchronization

/// Runs work that must end by a deadline, whatever it does: at the deadline the caller gets `timedOut` and the
/// work is cancelled, even if the work is slow to notice (a plugin that ignores cancellation cannot hold its caller).
package enum Deadline {
    /// A private serial queue, so the timer fires on time while the cooperative pool is busy.
    private static let timers = DispatchQueue(label: "imago.deadlines")

    /// `operation`'s result, or `error()` thrown at `deadline` (the operation is then cancelled and left to end).
    package static func run<T: Sendable>(
        by deadline: ContinuousClock.Instant?, error: @escaping @Sendable () -> any Error,
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        guard let deadline else { return try await operation() }
        let seconds = ContinuousClock.now.duration(to: deadline).seconds
        guard seconds > 0 else { throw error() }
        let race = Race<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.begin(continuation)
                // A timer left pending after the work won finds the race over and does nothing.
                timers.asyncAfter(deadline: .now() + seconds) { race.finish(.failure(error())) }
                race.setWork(
                    Task {
                        do { race.finish(.success(try await operation())) } catch { race.finish(.failure(error)) }
                    })
            }
        } onCancel: {
            race.cancelWork()
        }
    }

    /// The first result wins; the loser is cancelled.
    private final class Race<T: Sendable>: Sendable {
        private struct State {
            var continuation: CheckedContinuation<T, any Error>?
            var work: Task<Void, Never>?
            var finished = false
            var cancelled = false
        }
        private let state = Mutex(State())

        func begin(_ continuation: CheckedContinuation<T, any Error>) {
            state.withLock { $0.continuation = continuation }
        }

        func setWork(_ work: Task<Void, Never>) {
            let cancel = state.withLock { state in
                state.work = work
                return state.finished || state.cancelled
            }
            if cancel { work.cancel() }
        }

        func cancelWork() {
            let work = state.withLock { state in
                state.cancelled = true
                return state.work
            }
            work?.cancel()
        }

        func finish(_ result: Result<T, any Error>) {
            let (continuation, work) = state.withLock {
                state -> (CheckedContinuation<T, any Error>?, Task<Void, Never>?) in
                guard !state.finished else { return (nil, nil) }
                state.finished = true
                defer { state.continuation = nil }
                return (state.continuation, state.work)
            }
            guard let continuation else { return }
            work?.cancel()
            continuation.resume(with: result)
        }
    }
}
