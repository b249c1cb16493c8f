import Foundation

/// Fetching bytes: the disk cache (fresh entries served, stale ones revalidated), then the transport with retries.
extension ImageLoader {
    /// The work shared by every request of one source.
    func fetchData(_ request: ImageRequest, work: SharedWork<FetchedBytes>) async throws -> FetchedBytes {
        let start = ContinuousClock.now
        let policy = request.cachePolicy
        // A credentialed answer belongs to one user: it is neither read from nor written to the data cache, whose
        // key is the source alone and which a whole fleet may share (Redis).
        let dataCache = Self.carriesCredentials(request) ? nil : registry.dataCache
        var stale: DataCacheEntry?
        if policy.contains(.readDisk), let dataCache, let entry = await dataCache.entry(for: request.dataCacheKey) {
            if entry.metadata.isFresh(at: Date()) {
                counters.diskHits.increment()
                let count = Int64(entry.data.count)
                work.report(FetchProgress(received: count, expected: count))
                return FetchedBytes(
                    data: entry.data, origin: .disk, attempts: 0, fetchDuration: start.duration(to: .now).seconds,
                    cacheLayer: entry.layer)
            }
            if entry.metadata.canRevalidate { stale = entry }
        }
        try Task.checkCancellation()
        let transport = try registry.transport(serving: request.url)
        var transportRequest = TransportRequest(url: request.url, headers: request.headers)
        if let stale { transportRequest = transportRequest.revalidating(stale.metadata) }
        let (fetched, attempts) = try await fetchWithRetries(transport, transportRequest, work: work)
        // Only responses with HTTP semantics are kept: local files and `data:` URIs are at hand already, and
        // without validators a copy could not tell when the file changed.
        let writes =
            policy.contains(.writeDisk) && request.url.scheme?.lowercased() != "data"
            && fetched.metadata.statusCode != nil

        if fetched.metadata.isNotModified {
            guard let stale else {
                throw ImagoError(
                    .transportFailed(status: 304), "304 Not Modified without a cached copy",
                    source: request.sourceString)
            }
            if writes, let dataCache {
                let metadata = stale.metadata.refreshed(by: fetched.metadata)
                try? await dataCache.store(
                    DataCacheEntry(data: stale.data, metadata: metadata), for: request.dataCacheKey)
            }
            counters.diskHits.increment()
            let count = Int64(stale.data.count)
            work.report(FetchProgress(received: count, expected: count))
            return FetchedBytes(
                data: stale.data, origin: .disk, attempts: attempts, fetchDuration: start.duration(to: .now).seconds,
                cacheLayer: stale.layer)
        }
        if writes, let dataCache, let metadata = CacheMetadata(response: fetched.metadata) {
            // A cache that cannot write must not fail the load.
            try? await dataCache.store(
                DataCacheEntry(data: fetched.data, metadata: metadata), for: request.dataCacheKey)
        }
        return FetchedBytes(
            data: fetched.data, origin: .network, attempts: attempts, fetchDuration: start.duration(to: .now).seconds)
    }

    /// Fetches with `settings.retry`: retryable failures are tried again after a backoff (or the server's
    /// Retry-After, within the cap). Returns the bytes and the number of attempts made.
    func fetchWithRetries(
        _ transport: any ImageTransport, _ request: TransportRequest, work: SharedWork<FetchedBytes>
    ) async throws -> (FetchedData, Int) {
        let source = request.url.absoluteString
        let policy = settings.retry
        var attempt = 0
        while true {
            attempt += 1
            do {
                let fetched = try await loadLimiter.withSlot(group: request.url.host, priority: work) {
                    counters.transportAttempts.increment()
                    return try await transport.fetchAll(
                        request, maxBytes: settings.limits.maxBytes, progress: work.report)
                }
                try Self.checkStatus(fetched.metadata, source: source)
                return (fetched, attempt)
            } catch {
                // A cancelled fetch may surface as a transport error: cancellation wins.
                if Task.isCancelled { throw ImagoError(.cancelled, "cancelled", source: source) }
                let error = ImagoError.wrapping(error, source: source)
                guard attempt < policy.maxAttempts, policy.isRetryable(error) else { throw error }
                try await sleep(policy.delay(afterAttempt: attempt, error: error))
            }
        }
    }

    /// Whether `request` sends credentials (`Authorization`, `Cookie`), so its answer may be meant for one user.
    static func carriesCredentials(_ request: ImageRequest) -> Bool {
        request.headers.keys.contains { ["authorization", "cookie", "proxy-authorization"].contains($0.lowercased()) }
    }

    /// Transports are expected to throw for failed statuses; this catches one that reported a failure quietly.
    static func checkStatus(_ metadata: TransportMetadata, source: String) throws {
        guard let status = metadata.statusCode, !(200..<300).contains(status), status != 304 else { return }
        throw ImagoError(
            .transportFailed(status: status), HTTPStatus.describe(status), source: source,
            retryAfter: metadata.retryAfter)
    }
}

/// Reason phrases for the statuses a user is likely to meet.
enum HTTPStatus {
    static func describe(_ status: Int) -> String {
        let phrases = [
            400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 408: "Request Timeout",
            410: "Gone", 429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable", 504: "Gateway Timeout",
        ]
        return phrases[status].map { "\(status) \($0)" } ?? "HTTP status \(status)"
    }
}
