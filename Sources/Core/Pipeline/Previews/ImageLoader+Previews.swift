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
        let loadID = loadIDs.wrappingAdd(1, ordering: .relaxed).newValue
        let sink = LoadEventSink.load(loadID, request, listeners: eventListeners, progress: progress)
        let start = ContinuousClock.now
        sink(.started)
        let key = ImageWorkKey(request)
        let subscription = previewHub.subscribe(key, onPreview)
        defer { previewHub.unsubscribe(key, subscription) }
        return try await respond(to: request, since: start, sink: sink) {
            try await imageTasks.value(for: key, priority: PriorityBox(request.priority), sink: sink) { work in
                try await self.loadImageWithPreviews(request, policy: policy, work: work)
            }
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

    /// `loadImage` for a load whose first caller asked for previews: the same stages, with the shared fetch's
    /// chunks fed to a preview session, and the decode stage's work done by the session's decoder when it saw
    /// every byte (else the decode stage decodes the bytes in one shot).
    func loadImageWithPreviews(_ request: ImageRequest, policy: PreviewPolicy, work: SharedWork<LoadedImage>)
        async throws -> LoadedImage
    {
        let sink = work.sink
        var options = request.effectiveDecodeOptions
        if options.limits == .default { options.limits = settings.limits }
        let session = PreviewSession(
            request: request, options: options, policy: policy, decoders: plugins, hub: previewHub)
        let fetchKey = FetchWorkKey(request)
        let tap = chunkTaps.add(fetchKey) { chunk, offset in session.feed(chunk, offset: offset) }
        defer {
            chunkTaps.remove(fetchKey, tap)
            session.close()
        }
        let bytes = try await fetchTasks.value(for: fetchKey, priority: work, sink: sink) { fetchWork in
            try await self.fetchBytes(request, work: fetchWork)
        }
        chunkTaps.remove(fetchKey, tap)
        try Task.checkCancellation()
        do {
            let decoded = try await finalImage(session, bytes: bytes.data, for: request, work: work)
            let (image, processTiming) = try await processStage.process(
                decoded.image, for: request, priority: work, sink: sink)
            memoryStage.store(image, for: request, sink: sink)
            return LoadedImage(
                image: image, origin: bytes.origin, attempts: bytes.attempts, fetchDuration: bytes.fetchDuration,
                decodeDuration: decoded.timing.duration + (processTiming?.duration ?? 0), byteCount: bytes.data.count)
        } catch {
            throw ImagoError.wrapping(error, source: request.sourceString).with(attempts: bytes.attempts)
        }
    }

    /// The session's final image, upright, within a decode slot; the decode stage's one-shot decode otherwise.
    private func finalImage(
        _ session: PreviewSession, bytes: Data, for request: ImageRequest, work: SharedWork<LoadedImage>
    ) async throws -> DecodedResult {
        let queuedSince = ContinuousClock.now
        let incremental: DecodedResult? = try await decodeStage.limiter.withSlot(priority: work) {
            try Task.checkCancellation()
            let start = ContinuousClock.now
            guard let final = await session.finalImage(byteCount: bytes.count) else { return nil }
            counters.decodes.increment()
            previewHub.incrementalFinals.increment()
            let image = try OrientationStage.apply(to: final, for: request)
            let timing = StageTiming(
                queued: queuedSince.duration(to: start).seconds, duration: start.duration(to: .now).seconds)
            work.sink(
                .decoded(
                    DecodeReport(
                        format: image.format, size: PixelSize(width: image.width, height: image.height), timing: timing)
                ))
            return DecodedResult(image: image, timing: timing)
        }
        if let incremental { return incremental }
        return try await decodeStage.decode(bytes, for: request, priority: work, sink: work.sink)
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
