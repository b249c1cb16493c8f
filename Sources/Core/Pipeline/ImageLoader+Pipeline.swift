import Foundation

/// The request flow, top to bottom, the one path of every load (with or without previews): memory cache →
/// interceptors → data cache → fetch (with retries) → decode (incremental when previews are wanted) →
/// orientation → processors → caches. Each stage is a small type in `Stages/`; this file only strings them together
/// and shares the work of identical requests in flight.
extension ImageLoader {
    /// Loads `request`, reporting to `sink`; `previews`, when set, asks for previews while the bytes arrive;
    /// `bytes`, when set, are the source's bytes already read (`image(for:from:)`), decoded instead of a fetch.
    func load(
        _ request: ImageRequest, priority: PriorityBox, sink: LoadEventSink?, previews: PreviewListener? = nil,
        bytes: FetchedBytes? = nil
    ) async throws -> ImageResponse {
        let start = ContinuousClock.now
        sink(.started)
        do {
            let response: ImageResponse
            if let image = memoryStage.lookup(request, sink: sink) {
                response = memoryResponse(image, for: request, since: start)
            } else {
                let chain = ImageInterceptorChain(request: request, interceptors: registry.interceptors) { changed in
                    try await self.loadShared(
                        changed, original: request, since: start, priority: priority, sink: sink, previews: previews,
                        bytes: bytes)
                }
                response = try await chain.proceed()
                // An interceptor may answer after the caller cancelled (a placeholder for the `cancelled` it was
                // given): the caller asked for nothing more, and gets `cancelled`.
                try ImageInterceptorChain.checkCancellation(request)
            }
            sink(.finished(response))
            return response
        } catch {
            // A caller that cancelled gets `cancelled`, whatever an interceptor made of it.
            let error =
                Task.isCancelled
                ? ImagoError(.cancelled, "cancelled", source: request.sourceString)
                : ImagoError.wrapping(error, source: request.sourceString)
            sink(error.kind == .cancelled ? .cancelled : .failed(error))
            throw error
        }
    }

    /// The chain's last link: the memory cache again when an interceptor changed the request, else the work shared
    /// by identical requests, whose previews (if any) go to `previews`.
    ///
    /// What the stages give for a changed request is also kept under the caller's request, so the view that asked
    /// finds it in the memory cache (`cachedResponse(for:)`) as it would have without the interceptor; unless the
    /// change added or changed credentials: a request without a user's token never sees what was fetched with it.
    private func loadShared(
        _ request: ImageRequest, original: ImageRequest, since start: ContinuousClock.Instant, priority: PriorityBox,
        sink: LoadEventSink?, previews: PreviewListener?, bytes given: FetchedBytes?
    ) async throws -> ImageResponse {
        let changed = request.imageCacheKey != original.imageCacheKey
        func keepForTheCaller(_ image: DecodedImage) {
            if changed, request.credentials == original.credentials {
                memoryStage.store(image, for: original, sink: nil)
            }
        }
        if changed, let image = memoryStage.lookup(request, sink: sink) {
            keepForTheCaller(image)
            return memoryResponse(image, for: request, since: start)
        }
        let key = ImageWorkKey(request)
        let subscription = previews.map { previewHub.subscribe(key, $0.onPreview) }
        defer { if let subscription { previewHub.unsubscribe(key, subscription) } }
        let loaded = try await imageTasks.value(for: key, priority: priority, sink: sink) { work in
            // Bytes read for the caller's request are not those of a source an interceptor swapped in.
            try await self.loadImage(
                request, previews: previews?.policy,
                bytes: FetchWorkKey(request) == FetchWorkKey(original) ? given : nil, work: work)
        }
        keepForTheCaller(loaded.image)
        // Handed over: the budget is given back when `loaded` goes, unless the caller holds it longer.
        PixelMemoryBudget.keepIfHolding(loaded.reservation)
        return loaded.response(for: request, totalDuration: start.duration(to: .now).seconds)
    }

    private func memoryResponse(_ image: DecodedImage, for request: ImageRequest, since start: ContinuousClock.Instant)
        -> ImageResponse
    {
        ImageResponse(
            image: image, request: request, origin: .memory, attempts: 0,
            metrics: LoadMetrics(totalDuration: start.duration(to: .now).seconds))
    }

    /// The work shared by identical requests: the bytes (shared by every request of the source), the decode
    /// (shared by requests that decode alike), then the request's processors and the memory cache. With a preview
    /// `policy` (the first caller's), the fetch's chunks also feed a preview session, which the decode stage
    /// finishes instead of decoding again when it saw every byte. `given` bytes skip the fetch.
    func loadImage(
        _ request: ImageRequest, previews policy: PreviewPolicy?, bytes given: FetchedBytes? = nil,
        work: SharedWork<LoadedImage>
    ) async throws -> LoadedImage {
        let sink = work.sink
        let fetchKey = FetchWorkKey(request)
        let session = policy.map { policy in
            PreviewSession(
                request: request, options: decodeStage.decodeOptions(for: request), policy: policy,
                decoders: registry, hub: previewHub)
        }
        let tap = session.map { session in
            chunkTaps.add(fetchKey) { chunk, offset in session.feed(chunk, offset: offset) }
        }
        defer {
            if let tap { chunkTaps.remove(fetchKey, tap) }
            session?.close()
        }
        let bytes: FetchedBytes
        if let given {
            bytes = given
        } else {
            bytes = try await fetchTasks.value(for: fetchKey, priority: work, sink: sink) { fetchWork in
                try await self.fetchBytes(request, work: fetchWork)
            }
        }
        // All waiters may have left while the bytes arrived: then the decode is skipped.
        try Task.checkCancellation()
        do {
            let decoded = try await decodeTasks.value(
                for: DecodeWorkKey(request), priority: work, sink: sink
            ) { decodeWork in
                try await self.decodeStage.decode(
                    bytes.data, for: request, previews: session, priority: decodeWork, sink: decodeWork.sink)
            }
            let (image, processTiming) = try await processStage.process(
                decoded.image, for: request, priority: work, sink: sink)
            memoryStage.store(image, for: request, sink: sink)
            // A processed image holds the budget from here (the decoded one's goes when its other users are done).
            let reservation = processTiming == nil ? decoded.reservation : pixelBudget.reserveNow(bytes: image.cost)
            return LoadedImage(
                image: image, origin: bytes.origin, attempts: bytes.attempts, fetchDuration: bytes.fetchDuration,
                decodeDuration: decoded.timing.duration + (processTiming?.duration ?? 0), byteCount: bytes.data.count,
                reservation: reservation, cacheLayer: bytes.cacheLayer, sourceLastModified: bytes.lastModified)
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
                data: entry.data, origin: .dataCache, attempts: 0, fetchDuration: start.duration(to: .now).seconds,
                cacheLayer: entry.layer, lastModified: entry.metadata.lastModified)
        case .stale(let entry): stale = entry
        case .miss: break
        }
        try Task.checkCancellation()
        let transport = try registry.transport(serving: url)
        var transportRequest = TransportRequest(
            url: url, headers: request.headers, limits: FetchLimits(policy: sourcePolicy))
        if let stale { transportRequest = transportRequest.revalidating(stale.metadata) }
        // A preview session taps the chunks (`loadImage`); without a tap that is one lookup a chunk.
        let (fetched, attempts) = try await fetchStage.fetch(
            transportRequest, with: transport, priority: work, sink: sink,
            chunks: chunkTaps.feeder(for: FetchWorkKey(request)))
        // The transport says what may be kept (HTTP: by RFC 9111); one without a policy keeps nothing.
        if let dataCache = registry.dataCache,
            let entry = transport.cachePolicy?.entry(
                after: fetched.metadata, data: fetched.data, stale: stale, defaultMaxAge: dataCache.defaultMaxAge)
        {
            storeInBackground(entry, for: request, work: work)
        }
        if fetched.metadata.isNotModified {
            guard let stale else {
                throw ImagoError(
                    .transportFailed(status: 304), "304 Not Modified without a cached copy",
                    source: request.sourceString, attempts: attempts)
            }
            counters.diskHits.increment()
            sink(.dataCacheRevalidated(byteCount: stale.data.count))
            let count = Int64(stale.data.count)
            sink(.bytesReceived(FetchProgress(received: count, expected: count)))
            return FetchedBytes(
                data: stale.data, origin: .dataCache, attempts: attempts,
                fetchDuration: start.duration(to: .now).seconds, cacheLayer: stale.layer,
                lastModified: fetched.metadata.lastModified ?? stale.metadata.lastModified)
        }
        return FetchedBytes(
            data: fetched.data, origin: .network, attempts: attempts, fetchDuration: start.duration(to: .now).seconds,
            lastModified: fetched.metadata.lastModified)
    }

    /// Writes `entry` to the data cache without holding up the fetch. Its event goes to the loads waiting for the
    /// fetch now, which may have finished by the time the write ends.
    private func storeInBackground(_ entry: DataCacheEntry, for request: ImageRequest, work: SharedWork<FetchedBytes>) {
        guard request.cachePolicy.contains(.writeDisk), registry.dataCache != nil else { return }
        let sink = work.sinkOutlivingTheWork
        let stage = dataStage
        pendingWrites.start { await stage.store(entry, for: request, sink: sink) }
    }
}
