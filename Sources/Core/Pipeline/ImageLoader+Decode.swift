import Foundation

/// Decoding and processing: the image-level and decode-level shared work.
extension ImageLoader {
    /// The work shared by identical requests: the decode (shared with requests that decode alike), then the
    /// request's processors, then the memory cache.
    func loadImage(_ request: ImageRequest, work: SharedWork<LoadedImage>) async throws -> LoadedImage {
        var loaded = try await decodeTasks.value(
            for: DecodeWorkKey(request), priority: work, progress: work.report
        ) { decodeWork in
            try await self.decode(request, work: decodeWork)
        }
        if !request.processors.isEmpty {
            try Task.checkCancellation()
            let start = ContinuousClock.now
            loaded.image = try await decodeLimiter.withSlot(priority: work) {
                try Task.checkCancellation()
                return try Self.process(loaded.image, with: request.processors, scale: request.scale)
            }
            loaded.decodeDuration += start.duration(to: .now).seconds
        }
        if request.cachePolicy.contains(.writeMemory) {
            registry.imageCache?.store(loaded.image, for: request.imageCacheKey)
        }
        return loaded
    }

    /// The work shared by requests that decode the same bytes the same way: fetch, sniff, decode, orient.
    func decode(_ request: ImageRequest, work: SharedWork<LoadedImage>) async throws -> LoadedImage {
        let fetched = try await fetchTasks.value(
            for: FetchWorkKey(request), priority: work, progress: work.report
        ) { fetchWork in
            try await self.fetchData(request, work: fetchWork)
        }
        // All waiters may have left while the bytes arrived: then the decode is skipped.
        try Task.checkCancellation()
        let start = ContinuousClock.now
        let image = try await decodeLimiter.withSlot(priority: work) {
            try Task.checkCancellation()
            return try decodeImage(fetched.data, for: request)
        }
        return LoadedImage(
            image: image, origin: fetched.origin, attempts: fetched.attempts, fetchDuration: fetched.fetchDuration,
            decodeDuration: start.duration(to: .now).seconds, byteCount: fetched.data.count,
            cacheLayer: fetched.cacheLayer)
    }

    /// Decodes `data` as `request` asks, applying the orientation and the display scale.
    func decodeImage(_ data: Data, for request: ImageRequest) throws -> DecodedImage {
        var options = request.effectiveDecodeOptions
        // The request's own limits win only when it set some; otherwise the loader's settings apply.
        if options.limits == .default { options.limits = settings.limits }
        let decoder = try registry.decoder(for: data, limits: options.limits)
        counters.decodes.increment()
        var image = try decoder.decode(checked: data, options: options)
        if request.appliesOrientation, image.orientation != .up {
            image = try OrientationProcessor().process(image)
        }
        image.scale = request.scale
        return image
    }

    /// Runs `processors` in order; foreign errors become `processingFailed`.
    static func process(_ image: DecodedImage, with processors: [any ImageProcessor], scale: Double) throws
        -> DecodedImage
    {
        var image = image
        for processor in processors {
            do {
                image = try processor.process(image)
            } catch let error as ImagoError {
                throw error
            } catch {
                throw ImagoError(.processingFailed, "\(processor.identifier) failed: \(error)")
            }
        }
        image.scale = scale
        return image
    }
}
