import Foundation
import Synchronization

/// Progressive previews: an image shown while its bytes are still arriving.
extension ImageLoader {
    /// Loads `request`, yielding previews (`isPreview`) while the bytes arrive, then the final response; the
    /// sequence ends after the final one, or throws `ImagoError`. Ending the iteration cancels the load.
    ///
    /// Previews come from an incremental decoder (progressive JPEG scans, Adam7 PNG passes) fed with the
    /// fetch's chunks: no byte is decoded twice, and the final image is the one-shot decode's. They go through
    /// the request's orientation and processors (so they have the final image's size), are throttled by
    /// `policy`, and are never cached. A memory or disk hit, or bytes that arrive all at once, give no preview.
    /// Identical requests still share one load: those that did not ask for previews pay nothing for them; a
    /// request that joins a load started without previews gets the final image only.
    public func responses(
        for request: ImageRequest, previews policy: PreviewPolicy = PreviewPolicy(),
        progress: (@Sendable (FetchProgress) -> Void)? = nil
    ) -> AsyncThrowingStream<ImageResponse, any Error> {
        // The newest response wins when the consumer lags: a stale preview is worth nothing, the final is last.
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: ImageResponse.self, bufferingPolicy: .bufferingNewest(1))
        let finished = Mutex(false)
        let task = Task {
            do {
                let response = try await self.image(for: request, previews: policy, progress: progress) { preview in
                    finished.withLock { done in if !done { continuation.yield(preview) } }
                }
                finished.withLock { done in
                    done = true
                    continuation.yield(response)
                }
                continuation.finish()
            } catch {
                finished.withLock { $0 = true }
                continuation.finish(throwing: ImagoError.wrapping(error, source: request.sourceString))
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Loads `request`, calling `onPreview` with each preview before returning the final response.
    public func image(
        for request: ImageRequest, previews policy: PreviewPolicy,
        progress: (@Sendable (FetchProgress) -> Void)? = nil,
        onPreview: @escaping @Sendable (ImageResponse) -> Void
    ) async throws -> ImageResponse {
        let start = ContinuousClock.now
        if let hit = cachedResponse(for: request) { return hit }
        let key = ImageWorkKey(request)
        let subscription = previewHub.subscribe(key, onPreview)
        defer { previewHub.unsubscribe(key, subscription) }
        do {
            try Task.checkCancellation()
            let loaded = try await imageTasks.value(
                for: key, priority: PriorityBox(request.priority), progress: progress
            ) { work in
                try await self.loadImageWithPreviews(request, policy: policy, work: work)
            }
            return loaded.response(for: request, totalDuration: start.duration(to: .now).seconds)
        } catch {
            throw ImagoError.wrapping(error, source: request.sourceString)
        }
    }

    /// Previews made, finals taken from incremental decoders, and incremental decoders alive (for tests and
    /// benchmarks: a cancelled load must leave none).
    public var previewStatistics: PreviewStatistics {
        PreviewStatistics(
            previews: previewHub.previewsMade.load(ordering: .relaxed),
            incrementalFinals: previewHub.incrementalFinals.load(ordering: .relaxed),
            liveDecoders: previewHub.liveSessions.load(ordering: .relaxed))
    }

    /// The image work of a load whose first caller asked for previews: the fetch shared as usual, its chunks fed
    /// to a preview session; the final image from the session's decoder when it saw every byte, else decoded in
    /// one shot; then processors and the memory cache, as `loadImage` does.
    func loadImageWithPreviews(_ request: ImageRequest, policy: PreviewPolicy, work: SharedWork<LoadedImage>)
        async throws -> LoadedImage
    {
        var options = request.effectiveDecodeOptions
        if options.limits == .default { options.limits = settings.limits }
        let session = PreviewSession(
            request: request, options: options, policy: policy, registry: registry, hub: previewHub)
        let fetchKey = FetchWorkKey(request)
        let tap = chunkTaps.add(fetchKey) { chunk, offset in session.feed(chunk, offset: offset) }
        defer {
            chunkTaps.remove(fetchKey, tap)
            session.close()
        }
        let fetched = try await fetchTasks.value(for: fetchKey, priority: work, progress: work.report) { fetchWork in
            try await self.fetchData(request, work: fetchWork)
        }
        chunkTaps.remove(fetchKey, tap)
        try Task.checkCancellation()
        let start = ContinuousClock.now
        var image = try await decodeLimiter.withSlot(priority: work) {
            try Task.checkCancellation()
            guard var image = await session.finalImage(byteCount: fetched.data.count) else {
                return try decodeImage(fetched.data, for: request)
            }
            counters.decodes.increment()
            previewHub.incrementalFinals.increment()
            if request.appliesOrientation, image.orientation != .up {
                image = try OrientationProcessor().process(image)
            }
            image.scale = request.scale
            return image
        }
        if !request.processors.isEmpty {
            try Task.checkCancellation()
            image = try Self.process(image, with: request.processors, scale: request.scale)
        }
        if request.cachePolicy.contains(.writeMemory) {
            registry.imageCache?.store(image, for: request.imageCacheKey)
        }
        return LoadedImage(
            image: image, origin: fetched.origin, attempts: fetched.attempts, fetchDuration: fetched.fetchDuration,
            decodeDuration: start.duration(to: .now).seconds, byteCount: fetched.data.count)
    }
}

/// What the loader's previews have cost so far.
public struct PreviewStatistics: Sendable, Hashable {
    /// Previews rendered (and processed) in all.
    public var previews: Int
    /// Final images taken from an incremental decoder instead of a second, one-shot decode.
    public var incrementalFinals: Int
    /// Incremental decoders holding buffers now.
    public var liveDecoders: Int
}
