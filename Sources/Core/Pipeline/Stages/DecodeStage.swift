import Foundation

/// Stage 4: bytes to pixels, at the target size a size-aware processor asks for, then upright (stage 5).
///
/// `decode(_:for:priority:sink:)` is the one place the loader decodes: it waits for a decode slot, then runs
/// `decodeNow`, which is synchronous and CPU-bound.
struct DecodeStage: Sendable {
    let decoders: PluginSnapshot
    let limits: DecodeLimits
    let limiter: WorkLimiter
    let counters: LoaderCounters

    /// Decodes `data` as `request` asks, within a decode slot; reports the format, size and timing.
    func decode(
        _ data: Data, for request: ImageRequest, priority: any PrioritySource, sink: LoadEventSink?
    ) async throws -> DecodedResult {
        let queuedSince = ContinuousClock.now
        return try await limiter.withSlot(priority: priority) {
            try Task.checkCancellation()
            let start = ContinuousClock.now
            let image = try decodeNow(data, for: request)
            let timing = StageTiming(
                queued: queuedSince.duration(to: start).seconds, duration: start.duration(to: .now).seconds)
            sink(
                .decoded(
                    DecodeReport(
                        format: image.format, size: PixelSize(width: image.width, height: image.height), timing: timing)
                ))
            return DecodedResult(image: image, timing: timing)
        }
    }

    /// Sniffs, decodes and orients `data` on the calling thread.
    func decodeNow(_ data: Data, for request: ImageRequest) throws -> DecodedImage {
        var options = request.effectiveDecodeOptions
        // The request's own limits win only when it set some; otherwise the loader's settings apply.
        if options.limits == .default { options.limits = limits }
        let decoder = try decoders.decoder(for: data, limits: options.limits)
        counters.decodes.increment()
        let image = try decoder.decode(checked: data, options: options)
        return try OrientationStage.apply(to: image, for: request)
    }
}

/// A decoded image and what its decode took.
struct DecodedResult: Sendable {
    var image: DecodedImage
    var timing: StageTiming
}
