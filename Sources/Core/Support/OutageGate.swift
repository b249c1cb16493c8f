import Foundation
import Synchronization

/// The stand-aside rule of a shared part a process can live without (a Redis or S3 cache, the fleet's leases):
/// after a failure no call is made for `retryInterval` seconds, the failure is reported once per outage (the first
/// after a success), and a call that succeeds ends the outage.
package final class OutageGate: Sendable {
    package let retryInterval: Double
    private let now: @Sendable () -> Date
    private let state = Mutex(State())

    private struct State {
        var until: Date?
        /// Set once a failure was reported; cleared by the first call that succeeds after it.
        var reported = false
        var failures = 0
        var skipped = 0
        var lastError: ImagoError?
        var firstError: ImagoError?
    }

    /// A gate standing aside for `retryInterval` seconds after each failure, on the clock `now`.
    package init(retryInterval: Double, now: @escaping @Sendable () -> Date = { Date() }) {
        self.retryInterval = retryInterval
        self.now = now
    }

    /// Failures recorded so far.
    package var failures: Int { state.withLock { $0.failures } }
    /// Calls refused while standing aside.
    package var skipped: Int { state.withLock { $0.skipped } }
    /// The last failure, while standing aside or until a call succeeds again.
    package var lastError: ImagoError? { state.withLock { $0.lastError } }
    /// The first failure ever recorded.
    package var firstError: ImagoError? { state.withLock { $0.firstError } }

    /// Whether a call may be made now; one refused (while standing aside) is counted as skipped.
    package func enter() -> Bool {
        let time = now()
        return state.withLock { state in
            guard let until = state.until, time < until else { return true }
            state.skipped += 1
            return false
        }
    }

    /// A call succeeded: the outage, if any, ends, unless a failure was recorded since `failuresBefore` (a call
    /// that began before a failure must not clear it by succeeding late).
    package func succeeded(since failuresBefore: Int? = nil) {
        state.withLock { state in
            if let failuresBefore, state.failures != failuresBefore { return }
            state.until = nil
            state.lastError = nil
            state.reported = false
        }
    }

    /// A call failed with `error`: stands aside for `retryInterval`; whether it is the first failure of an outage,
    /// the one to report.
    package func failed(_ error: ImagoError) -> Bool {
        let until = now().addingTimeInterval(retryInterval)
        return state.withLock { state in
            state.failures += 1
            state.until = until
            state.lastError = error
            if state.firstError == nil { state.firstError = error }
            defer { state.reported = true }
            return !state.reported
        }
    }
}
