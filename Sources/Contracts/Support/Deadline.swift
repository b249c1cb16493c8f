import Foundation
import Synchronization

/// Thrown when an operation outlives its deadline.
struct DeadlineExceeded: Error {}

/// Runs work with a deadline without waiting for work that ignores cancellation, so a hung plugin fails its
/// check instead of hanging the test run.
enum Deadline {
    /// Runs `body`; throws `DeadlineExceeded` (and cancels `body`) when it has not finished after `seconds`.
    static func run<T: Sendable>(seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let gate = Gate<T>()
        return try await withCheckedThrowingContinuation { continuation in
            gate.install(continuation)
            let work = Task {
                do { gate.resume(.success(try await body())) } catch { gate.resume(.failure(error)) }
            }
            let timer = Task {
                try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
                if !Task.isCancelled, gate.resume(.failure(DeadlineExceeded())) { work.cancel() }
            }
            gate.onResume { timer.cancel() }
        }
    }
}

/// Resumes a continuation exactly once, whoever comes first.
private final class Gate<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var done = false
        var cleanup: (@Sendable () -> Void)?
    }
    private let state = Mutex(State())

    func install(_ continuation: CheckedContinuation<T, any Error>) {
        state.withLock { $0.continuation = continuation }
    }

    /// Runs `cleanup` once the gate is resumed (at once if it already was).
    func onResume(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.done { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    /// Resumes with `result` if nobody did yet; returns whether this call did.
    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        let taken = state.withLock { state -> (CheckedContinuation<T, any Error>, (@Sendable () -> Void)?)? in
            guard !state.done, let continuation = state.continuation else { return nil }
            state.done = true
            state.continuation = nil
            defer { state.cleanup = nil }
            return (continuation, state.cleanup)
        }
        guard let (continuation, cleanup) = taken else { return false }
        continuation.resume(with: result)
        cleanup?()
        return true
    }
}
