import Foundation

/// Stage 4: bytes to pixels, at the target size a size-aware processor asks for, then upright (stage 5).
///
/// `decode(_:for:previews:priority:sink:)` is the one place the loader decodes: it waits until the pixels the
/// header announces fit in the pixel budget, then for a decode slot, then takes the final image from the load's
/// preview session when it has one that saw every byte (its incremental decoder decodes with the one-shot
/// decoder's parameters, so the pixels are the same), else runs `decodeNow` (synchronous and CPU-bound). Either
/// way the CPU work runs off the cooperative pool.
struct DecodeStage: Sendable {
    let decoders: PluginRegistry
    let limits: DecodeLimits
    let limiter: WorkLimiter
    let budget: PixelMemoryBudget
    let counters: LoaderCounters

    /// Decodes `data` as `request` asks, within the budget and a decode slot; reports the format, size and timing.
    /// `budgeted`: the caller reserved the decode's pixels already (a render reserves all its work at once).
    func decode(
        _ data: Data, for request: ImageRequest, previews session: PreviewSession? = nil,
        priority: any PrioritySource, sink: LoadEventSink?, budgeted: Bool = false
    ) async throws -> DecodedResult {
        let queuedSince = ContinuousClock.now
        let options = decodeOptions(for: request)
        let decoder = try decoders.decoder(for: data, limits: options.limits)
        // Admitted by the size the header gives, before anything is allocated (as the limits are checked); a
        // decoder that cannot tell is charged once its image exists.
        var reservation: PixelMemoryBudget.Reservation?
        if !budgeted, let bytes = (decoder as? any DecodedSizeEstimating)?.decodedByteCount(data, options: options) {
            reservation = try await budget.reserve(bytes: bytes)
        }
        let (image, timing) = try await limiter.withSlot(priority: priority) {
            try Task.checkCancellation()
            let start = ContinuousClock.now
            let image: DecodedImage
            if let session, let final = await session.finalImage(byteCount: data.count) {
                counters.decodes.increment()
                image = try await WorkExecutor.compute.run { try OrientationStage.apply(to: final, for: request) }
            } else {
                image = try await WorkExecutor.compute.run {
                    try decodeNow(data, with: decoder, options: options, for: request)
                }
            }
            let timing = StageTiming(
                queued: queuedSince.duration(to: start).seconds, duration: start.duration(to: .now).seconds)
            return (image, timing)
        }
        sink(
            .decoded(
                DecodeReport(
                    format: image.format, size: PixelSize(width: image.width, height: image.height), timing: timing)))
        return DecodedResult(
            image: image, timing: timing,
            reservation: budgeted ? nil : reservation ?? budget.reserveNow(bytes: image.cost))
    }

    /// The request's decode options, with the loader's limits unless the request set its own.
    func decodeOptions(for request: ImageRequest) -> DecodeOptions {
        var options = request.effectiveDecodeOptions
        if options.limits == .default { options.limits = limits }
        return options
    }

    /// Decodes and orients `data` with `decoder` on the calling thread.
    func decodeNow(
        _ data: Data, with decoder: any ImageDecoder, options: DecodeOptions, for request: ImageRequest
    ) throws -> DecodedImage {
        counters.decodes.increment()
        let image = try decoder.decode(checked: data, options: options)
        return try OrientationStage.apply(to: image, for: request)
    }
}

/// A decoded image and what its decode took.
struct DecodedResult: Sendable {
    var image: DecodedImage
    var timing: StageTiming
    /// The image's share of the pixel budget, given back when the last copy of this value goes.
    var reservation: PixelMemoryBudget.Reservation? = nil
}
