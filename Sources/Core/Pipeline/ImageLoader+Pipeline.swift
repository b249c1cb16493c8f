import Foundation

/// The request flow, top to bottom: memory cache → data cache → fetch (with retries) → decode → orientation →
/// processors → caches. Each stage is a small type in `Stages/`; this file only strings them together and shares
/// the work of identical requests in flight.
extension ImageLoader {
    /// Loads `request`, reporting to `sink`; the memory cache first, then the work shared by identical requests.
    func load(
        _ request: ImageRequest, priority: PriorityBox, sink: LoadEventSink?
    ) async throws -> ImageResponse {
        let start = ContinuousClock.now
        sink(.started)
        return try await respond(to: request, since: start, sink: sink) {
            let loaded = try await imageTasks.value(for: ImageWorkKey(request), priority: priority, sink: sink) {
                work in try await self.loadImage(request, work: work)
            }
            // Handed over: the budget is given back when `loaded` goes, unless the caller holds it longer.
            PixelMemoryBudget.keepIfHolding(loaded.reservation)
            return loaded
        }
    }

    /// The end of every load, with or without previews: the memory cache, else `shared` (the work shared by
    /// identical requests); then `.finished`, or the error (typed) with `.failed` or `.cancelled`.
    func respond(
        to request: ImageRequest, since start: ContinuousClock.Instant, sink: LoadEventSink?,
        shared: () async throws -> LoadedImage
    ) async throws -> ImageResponse {
        do {
            if let image = memoryStage.lookup(request, sink: sink) {
                let response = ImageResponse(
                    image: image, request: request, origin: .memory, attempts: 0,
                    metrics: LoadMetrics(totalDuration: start.duration(to: .now).seconds))
                sink(.finished(response))
                return response
            }
            try Task.checkCancellation()
            let loaded = try await shared()
            let response = loaded.response(for: request, totalDuration: start.duration(to: .now).seconds)
            sink(.finished(response))
            return response
        } catch {
            let error = ImagoError.wrapping(error, source: request.sourceString)
            sink(error.kind == .cancelled ? .cancelled : .failed(error))
            throw error
        }
    }

    /// The work shared by identical requests: the bytes (shared by every request of the source), the decode
    /// (shared by requests that decode alike), then the request's processors and the memory cache.
    func loadImage(_ request: ImageRequest, work: SharedWork<LoadedImage>) async throws -> LoadedImage {
        let sink = work.sink
        let bytes = try await fetchTasks.value(for: FetchWorkKey(request), priority: work, sink: sink) {
            fetchWork in try await self.fetchBytes(request, work: fetchWork)
        }
        // All waiters may have left while the bytes arrived: then the decode is skipped.
        try Task.checkCancellation()
        do {
            let decoded = try await decodeTasks.value(
                for: DecodeWorkKey(request), priority: work, sink: sink
            ) { decodeWork in
                try await self.decodeStage.decode(bytes.data, for: request, priority: decodeWork, sink: decodeWork.sink)
            }
            let (image, processTiming) = try await processStage.process(
                decoded.image, for: request, priority: work, sink: sink)
            memoryStage.store(image, for: request, sink: sink)
            // A processed image holds the budget from here (the decoded one's goes when its other users are done).
            let reservation = processTiming == nil ? decoded.reservation : pixelBudget.reserveNow(bytes: image.cost)
            return LoadedImage(
                image: image, origin: bytes.origin, attempts: bytes.attempts, fetchDuration: bytes.fetchDuration,
                decodeDuration: decoded.timing.duration + (processTiming?.duration ?? 0), byteCount: bytes.data.count,
                reservation: reservation, cacheLayer: bytes.cacheLayer)
        } catch {
            // A decode or processing failure still says how many fetches were made.
            throw ImagoError.wrapping(error, source: request.sourceString).with(attempts: bytes.attempts)
        }
    }

    /// The work shared by every request of one source: the data cache (fresh entries served, stale ones
    /// revalidated), then the transport, then the data cache again with what the transport allows to keep. That
    /// write runs beside the decode: the bytes are handed on without waiting for it (`waitForPendingWrites()`).
    func fetchBytes(_ request: ImageRequest, work: SharedWork<FetchedBytes>) async throws -> FetchedBytes {
        let start = ContinuousClock.now
        let sink = work.sink
        // The policy decides before anything is read, the data cache included; what it allows is what is fetched.
        let url = try sourcePolicy?.check(request.url) ?? request.url
        var stale: DataCacheEntry?
        switch await dataStage.lookup(request, sink: sink) {
        case .fresh(let entry):
            let count = Int64(entry.data.count)
            sink(.bytesReceived(FetchProgress(received: count, expected: count)))
            return FetchedBytes(
                data: entry.data, origin: .disk, attempts: 0, fetchDuration: start.duration(to: .now).seconds,
                cacheLayer: entry.layer)
        case .stale(let entry): stale = entry
        case .miss: break
        }
        try Task.checkCancellation()
        let transport = try plugins.transport(serving: url)
        var transportRequest = TransportRequest(
            url: url, headers: request.headers, limits: FetchLimits(policy: sourcePolicy))
        if let stale { transportRequest = transportRequest.revalidating(stale.metadata) }
        // Preview work taps the chunks (ImageLoader+Previews); without a tap that is one lookup a chunk.
        let (fetched, attempts) = try await fetchStage.fetch(
            transportRequest, with: transport, priority: work, sink: sink,
            chunks: chunkTaps.feeder(for: FetchWorkKey(request)))
        // The transport says what may be kept (HTTP: by RFC 9111); one without a policy keeps nothing.
        let policy = transport.cachePolicy

        if fetched.metadata.isNotModified {
            guard let stale else {
                throw ImagoError(
                    .transportFailed(status: 304), "304 Not Modified without a cached copy",
                    source: request.sourceString, attempts: attempts)
            }
            if let policy {
                let metadata = policy.refreshed(stale.metadata, by: fetched.metadata, now: Date())
                storeInBackground(DataCacheEntry(data: stale.data, metadata: metadata), for: request, work: work)
            }
            counters.diskHits.increment()
            sink(.dataCacheRevalidated(byteCount: stale.data.count))
            let count = Int64(stale.data.count)
            sink(.bytesReceived(FetchProgress(received: count, expected: count)))
            return FetchedBytes(
                data: stale.data, origin: .disk, attempts: attempts, fetchDuration: start.duration(to: .now).seconds,
                cacheLayer: stale.layer)
        }
        if let policy, let dataCache = plugins.dataCache,
            let metadata = policy.metadata(for: fetched.metadata, defaultMaxAge: dataCache.defaultMaxAge, now: Date())
        {
            storeInBackground(DataCacheEntry(data: fetched.data, metadata: metadata), for: request, work: work)
        }
        return FetchedBytes(
            data: fetched.data, origin: .network, attempts: attempts, fetchDuration: start.duration(to: .now).seconds)
    }

    /// Writes `entry` to the data cache without holding up the fetch. Its event goes to the loads waiting for the
    /// fetch now, which may have finished by the time the write ends.
    private func storeInBackground(_ entry: DataCacheEntry, for request: ImageRequest, work: SharedWork<FetchedBytes>) {
        guard request.cachePolicy.contains(.writeDisk), plugins.dataCache != nil else { return }
        let sink = work.sinkOutlivingTheWork
        let stage = dataStage
        pendingWrites.start { await stage.store(entry, for: request, sink: sink) }
    }
}
