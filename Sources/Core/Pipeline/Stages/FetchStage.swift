import Foundation

/// Stage 3: the transport, with retries for what can succeed later (`RetryPolicy.isRetryable`).
struct FetchStage: Sendable {
    let limiter: WorkLimiter
    let retry: RetryPolicy
    let maxBytes: Int
    let counters: LoaderCounters
    let sleep: @Sendable (Double) async throws -> Void

    /// Fetches `request` with `transport`; returns the bytes and the attempts made. A failure carries the
    /// attempts made in `ImagoError.attempts`.
    func fetch(
        _ request: TransportRequest, with transport: any ImageTransport, priority: any PrioritySource,
        sink: LoadEventSink?, chunks: (@Sendable (_ chunk: Data, _ offset: Int) -> Void)? = nil
    ) async throws -> (FetchedData, attempts: Int) {
        let source = request.url.absoluteString
        var attempt = 0
        while true {
            attempt += 1
            let queuedSince = ContinuousClock.now
            var started = queuedSince
            var began = false
            do {
                let fetched = try await limiter.withSlot(group: request.url.host, priority: priority) {
                    started = .now
                    began = true
                    counters.transportAttempts.increment()
                    sink(.fetchStarted(attempt: attempt, queued: queuedSince.duration(to: started).seconds))
                    return try await transport.fetchAll(
                        request, maxBytes: maxBytes, progress: { progress in sink(.bytesReceived(progress)) },
                        chunks: chunks)
                }
                try Self.checkStatus(fetched.metadata, source: source)
                sink(
                    .fetchEnded(
                        FetchAttempt(
                            attempt: attempt, duration: started.duration(to: .now).seconds,
                            statusCode: fetched.metadata.statusCode, byteCount: fetched.data.count)))
                return (fetched, attempt)
            } catch {
                // A cancelled fetch may surface as a transport error: cancellation wins.
                let error =
                    Task.isCancelled
                    ? ImagoError(.cancelled, "cancelled", source: source) : ImagoError.wrapping(error, source: source)
                let retries = attempt < retry.maxAttempts && retry.isRetryable(error)
                let delay = retries ? retry.delay(afterAttempt: attempt, error: error) : nil
                if began {
                    sink(
                        .fetchEnded(
                            FetchAttempt(
                                attempt: attempt, duration: started.duration(to: .now).seconds,
                                statusCode: error.statusCode, error: error, retryDelay: delay)))
                }
                // An attempt cancelled while still queued was never made.
                let made = began ? attempt : attempt - 1
                guard let delay else { throw error.with(attempts: made) }
                do {
                    try await sleep(delay)
                } catch {
                    throw ImagoError(.cancelled, "cancelled", source: source).with(attempts: attempt)
                }
            }
        }
    }

    /// Transports are expected to throw for failed statuses; this catches one that reported a failure quietly.
    static func checkStatus(_ metadata: TransportMetadata, source: String) throws {
        guard let status = metadata.statusCode, !(200..<300).contains(status), status != 304 else { return }
        throw ImagoError(
            .transportFailed(status: status), "status \(status)", source: source, retryAfter: metadata.retryAfter)
    }
}
