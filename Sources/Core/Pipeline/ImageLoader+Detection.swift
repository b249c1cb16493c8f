import Foundation

/// Detection: what a detector finds in a source, computed once for its bytes and kept with them.
///
/// An answer is looked up in memory, then in the data cache (so a fleet sharing one computes it once), under the
/// source's data-cache key and the detector's identifier, and used only when the source's bytes are the ones it was
/// computed on (their digest is stored with it). Otherwise the source is decoded (at a reduced scale no smaller than
/// the detector's `workingSize`, first frame, upright) and the detector runs on the compute threads; its answer is
/// stored in both. The loader's statistics count detections run, answers reused and the CPU time detection took.
extension ImageLoader {
    /// What `detector` finds in `request`'s source (read through the data cache and the transport as a load reads
    /// it), in the pixels of the upright image it looked at; `deadline` bounds the detection (`timedOut`), and
    /// cancelling the calling task cancels it.
    public func detect(
        _ detector: any ImageDetector, in request: ImageRequest, deadline: ContinuousClock.Instant? = nil
    ) async throws -> DetectionResult {
        try await detect(detector, in: try await sourceBytes(for: request), for: request, deadline: deadline)
    }

    /// `detect(_:in:deadline:)` on bytes already read for `request` (`sourceBytes(for:)`), without reading the
    /// source again.
    public func detect(
        _ detector: any ImageDetector, in bytes: SourceBytes, for request: ImageRequest,
        deadline: ContinuousClock.Instant? = nil
    ) async throws -> DetectionResult {
        let key = DetectionCacheEntry.key(for: request, detector: detector.identifier)
        let digest = DetectionCacheEntry.digest(of: bytes.data)
        if request.cachePolicy.contains(.readMemory), let result = detections.result(for: key, digest: digest) {
            counters.detectionHits.increment()
            return result
        }
        if request.cachePolicy.contains(.readDisk), let cache = registry.dataCache,
            let entry = await cache.entry(for: key),
            let result = DetectionCacheEntry.result(
                in: entry.data, source: request.dataCacheKey, digest: digest, detector: detector.identifier)
        {
            counters.detectionHits.increment()
            detections.store(result, for: key, digest: digest)
            return result
        }
        try Task.checkCancellation()
        let image = try await self.image(for: Self.detectionRequest(for: request, detector: detector), from: bytes)
            .image
        let outcome = try await DetectionRun(detector: detector).run(on: image, deadline: deadline)
        counters.detections.increment()
        counters.detectionMicroseconds.wrappingAdd(Int(outcome.cpuSeconds * 1e6), ordering: .relaxed)
        if request.cachePolicy.contains(.writeMemory) { detections.store(outcome.result, for: key, digest: digest) }
        if request.cachePolicy.contains(.writeDisk), let cache = registry.dataCache {
            let entry = DetectionCacheEntry(source: request.dataCacheKey, digest: digest, result: outcome.result)
            pendingWrites.start { try? await cache.store(DataCacheEntry(data: entry.encoded), for: key) }
        }
        return outcome.result
    }

    /// The request whose decode a detector looks at: the source alone, its first frame, upright, reduced to no less
    /// than the detector's working size; not kept in the memory cache (a processed load would not ask for it).
    static func detectionRequest(for request: ImageRequest, detector: any ImageDetector) -> ImageRequest {
        var detecting = request
        detecting.processors = []
        detecting.appliesOrientation = true
        detecting.decodeOptions.frames = .first
        detecting.decodeOptions.targetSize = detector.workingSize.map { PixelSize(width: $0, height: $0) }
        detecting.decodeOptions.contentMode = .fit
        detecting.cachePolicy.remove(.writeMemory)
        return detecting
    }
}
