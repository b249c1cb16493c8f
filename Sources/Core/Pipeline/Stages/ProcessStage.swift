/// Stage 6: the request's processors, in order, within a decode slot, on `WorkExecutor.compute` (processing is
/// CPU-bound too).
struct ProcessStage: Sendable {
    let limiter: WorkLimiter

    /// Runs `request`'s processors on `image`; reports the timing when there are any.
    func process(
        _ image: DecodedImage, for request: ImageRequest, priority: any PrioritySource, sink: LoadEventSink?
    ) async throws -> (DecodedImage, StageTiming?) {
        guard !request.processors.isEmpty else { return (image, nil) }
        try Task.checkCancellation()
        let queuedSince = ContinuousClock.now
        return try await limiter.withSlot(priority: priority) {
            try Task.checkCancellation()
            let start = ContinuousClock.now
            let processed = try await WorkExecutor.compute.run {
                try Self.run(request.processors, on: image, scale: request.scale)
            }
            let timing = StageTiming(
                queued: queuedSince.duration(to: start).seconds, duration: start.duration(to: .now).seconds)
            sink(.processed(timing))
            return (processed, timing)
        }
    }

    /// Runs `processors` in order (`Sequence.process`), then sets the display scale.
    static func run(_ processors: [any ImageProcessor], on image: DecodedImage, scale: Double) throws
        -> DecodedImage
    {
        var image = try processors.process(image)
        image.scale = scale
        return image
    }
}
