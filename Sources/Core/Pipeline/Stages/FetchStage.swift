import Foundation
import Synchronization

/// Stage 3: the transport, with retries for what can succeed later (`RetryPolicy.isRetryable`).
struct FetchStage: Sendable {
    let limiter: WorkLimiter
    let retry: RetryPolicy
    let maxBytes: Int
    /// `LoaderSettings.fetchTimeout`: one deadline over all attempts.
    let timeout: Double?
    let counters: LoaderCounters
    let sleep: @Sendable (Double) async throws -> Void

    /// Fetches `request` with `transport`; returns the bytes and the attempts made. A failure carries the
    /// attempts made in `ImagoError.attempts`. With a `timeout`, one deadline bounds every attempt, the queue before
    /// it and the waits between them: a retry starts only if its wait ends before the deadline.
    func fetch(
        _ request: TransportRequest, with transport: any ImageTransport, priority: any PrioritySource,
        sink: LoadEventSink?, chunks: (@Sendable (_ chunk: Data, _ offset: Int) -> Void)? = nil
    ) async throws -> (FetchedData, attempts: Int) {
        let source = request.url.absoluteString
        var request = request
        request.limits.maxBytes = min(request.limits.maxBytes, maxBytes)
        if let timeout { request.limits.deadline = ContinuousClock.now.advanced(by: .seconds(timeout)) }
        let limits = request.limits
        var attempt = 0
        while true {
            attempt += 1
            let number = attempt
            let queuedSince = ContinuousClock.now
            let began = AttemptStart()
            do {
                let fetched = try await Deadline.run(
                    by: limits.deadline, error: { Self.deadlineError(timeout, attempt: number, source: source) }
                ) { [limiter, counters, request] in
                    try await limiter.withSlot(group: request.url.host, priority: priority) {
                        let started = began.mark()
                        counters.transportAttempts.increment()
                        sink(.fetchStarted(attempt: number, queued: queuedSince.duration(to: started).seconds))
                        // `fetchAll` caps the bytes at `request.limits.maxBytes`.
                        return try await transport.fetchAll(
                            request,
                            progress: { progress in
                                began.received(progress.received)
                                sink(.bytesReceived(progress))
                            }, chunks: chunks)
                    }
                }
                try Self.checkStatus(fetched.metadata, source: source)
                // A transport that followed a redirect without asking the policy is caught here: nothing it read
                // from a refused place is used.
                if let policy = limits.policy, let final = fetched.metadata.finalURL, final != request.url {
                    _ = try policy.check(final)
                }
                sink(
                    .fetchEnded(
                        FetchAttempt(
                            attempt: attempt, duration: (began.instant ?? queuedSince).duration(to: .now).seconds,
                            statusCode: fetched.metadata.statusCode, byteCount: fetched.data.count)))
                return (fetched, attempt)
            } catch {
                // A cancelled fetch may surface as a transport error: cancellation wins.
                let error =
                    Task.isCancelled
                    ? ImagoError(.cancelled, "cancelled", source: source) : ImagoError.wrapping(error, source: source)
                let retries = attempt < retry.maxAttempts && retry.isRetryable(error)
                var delay = retries ? retry.delay(afterAttempt: attempt, error: error) : nil
                // No attempt is started that the deadline would cut short before it could send anything.
                if let wait = delay, let left = limits.secondsLeft(), wait + Self.minimumAttemptTime >= left {
                    delay = nil
                }
                let startedAt = began.instant
                if let startedAt {
                    sink(
                        .fetchEnded(
                            FetchAttempt(
                                attempt: attempt, duration: startedAt.duration(to: .now).seconds,
                                statusCode: error.statusCode, byteCount: began.byteCount, error: error,
                                retryDelay: delay)))
                }
                // An attempt cancelled while still queued was never made.
                let made = startedAt != nil ? attempt : attempt - 1
                guard let delay else { throw error.with(attempts: made) }
                do {
                    try await sleep(delay)
                } catch {
                    throw ImagoError(.cancelled, "cancelled", source: source).with(attempts: attempt)
                }
            }
        }
    }

    /// Time an attempt needs at the least to be worth starting before the deadline, seconds.
    static let minimumAttemptTime = 0.05

    static func deadlineError(_ timeout: Double?, attempt: Int, source: String) -> ImagoError {
        let seconds = timeout.map { $0.rounded() == $0 ? String(Int($0)) : String($0) } ?? "?"
        let attempts = attempt == 1 ? "1 attempt" : "\(attempt) attempts"
        return ImagoError(.timedOut, "timed out after \(seconds) s (fetch deadline, \(attempts))", source: source)
    }

    /// Transports are expected to throw for failed statuses; this catches one that reported a failure quietly.
    static func checkStatus(_ metadata: TransportMetadata, source: String) throws {
        guard let status = metadata.statusCode, !(200..<300).contains(status), status != 304 else { return }
        throw ImagoError(
            .transportFailed(status: status), "status \(status)", source: source, retryAfter: metadata.retryAfter)
    }
}

/// When an attempt got its slot and started, and the body bytes it has received (set from inside the attempt,
/// read after it, so one that fails or is cancelled reports what it had).
private final class AttemptStart: Sendable {
    private let state = Mutex<(started: ContinuousClock.Instant?, received: Int64)>((nil, 0))

    /// Records now as the start; returns it.
    func mark() -> ContinuousClock.Instant {
        let now = ContinuousClock.now
        state.withLock { $0.started = now }
        return now
    }

    /// Records the body bytes received so far.
    func received(_ count: Int64) { state.withLock { $0.received = count } }

    var instant: ContinuousClock.Instant? { state.withLock { $0.started } }
    var byteCount: Int { state.withLock { Int($0.received) } }
}
