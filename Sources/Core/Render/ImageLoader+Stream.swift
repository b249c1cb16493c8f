import Foundation

/// A render's streamed branch: an animation converted one frame at a time, in bounded memory.
extension ImageLoader {
    /// Converts the animation in `bytes` frame by frame: the canvases (the one being composited, the one kept for
    /// disposal, the frame handed on) are reserved first, the encoder's memory once the first processed frame
    /// gives the output's size; then each frame is decoded, run through the processors as an image of its own and
    /// handed to the encoder before the next, within one decode slot. Returns the result and the first processed
    /// frame (what interceptors see).
    func stream(
        _ request: RenderRequest, _ image: ImageRequest, plan: RenderPlan, animation: AnimationInfo,
        bytes: FetchedBytes, limits: DecodeLimits, sink: LoadEventSink?
    ) async throws -> (RenderResult, DecodedImage) {
        guard let decoder = plan.decoder as? any AnimatedImageDecoding,
            let encoder = plan.encoder as? any AnimatedImageEncoding
        else { throw ImagoError(.encodingFailed(format: plan.format), "\(plan.format) cannot stream") }
        let canvas = animation.canvasSize
        var settings = request.output.options
        if let quality = request.output.qualities[plan.format] { settings.quality = quality }
        let options = settings
        // The canvases (the one composited, the one kept for disposal, the frame handed on) and, when the
        // processors tell the output's size (frames turned or not), the encoder's memory: reserved at once.
        let outputs = [canvas, PixelSize(width: canvas.height, height: canvas.width)].compactMap {
            image.processors.predictedOutputSize(for: $0)
        }
        let encoderBytes =
            outputs.count == 2
            ? outputs.map { encoder.memoryEstimate(for: $0, frames: animation.frameCount, options: options) }.max()
            : nil
        // What the processors hold of their own (a watermark's image), for the larger of the outputs.
        let held = (outputs.isEmpty ? [canvas] : outputs).map { image.processors.heldBytes(for: $0) }.max() ?? 0
        let reserved = try await pixelBudget.reserve(
            bytes: 3 * 4 * canvas.width * canvas.height + (encoderBytes ?? 0) + held,
            refusingOverCapacityFor: "streaming \(animation.frameCount) frames of \(canvas) into \(plan.format)")
        defer { reserved.release() }
        let queuedSince = ContinuousClock.now
        // The frames the timeline samples (a video's `frames=`, `fps=`), at the reduced size it asks for.
        var decode = DecodeOptions(limits: limits)
        decode.timeline = image.decodeOptions.timeline
        if decode.timeline.wantsFrames {
            (decode.targetSize, decode.contentMode) = (image.decodeOptions.targetSize, image.decodeOptions.contentMode)
        }
        let (data, processors, decoding) = (bytes.data, image.processors, decode)
        return try await decodeLimiter.withSlot(priority: PriorityBox(image.priority)) {
            let start = ContinuousClock.now
            counters.decodes.increment()
            // The first frame, to learn the output's size.
            let session = try await StopFlag.computing { stop in
                try FrameStream(
                    data, decoder: decoder, options: decoding, processors: processors,
                    appliesOrientation: image.appliesOrientation, stop: stop)
            }
            // Processors that could not tell: the encoder's memory charged now, without waiting (the canvases are
            // held already).
            let size = PixelSize(width: session.first.raster.width, height: session.first.raster.height)
            let reservation =
                encoderBytes != nil
                ? nil
                : try pixelBudget.reserveNow(
                    bytes: encoder.memoryEstimate(for: size, frames: animation.frameCount, options: options),
                    refusingOverCapacityFor: Self.encoding(plan.format, size, frames: animation.frameCount))
            defer { reservation?.release() }
            let written = try await StopFlag.computing { stop in
                try session.encode(with: encoder, options: options, maxFrames: limits.maxFrames, stop: stop)
            }
            let timing = StageTiming(
                queued: queuedSince.duration(to: start).seconds, duration: start.duration(to: .now).seconds)
            sink(.decoded(DecodeReport(format: decoder.format, size: canvas, timing: timing)))
            sink(.processed(timing))
            let first = session.firstImage
            let result = RenderResult(
                data: written.data, format: plan.format, image: nil, sourceFormat: decoder.format,
                sourceOrientation: session.orientation, sourceByteCount: data.count, origin: bytes.origin,
                sourceLastModified: bytes.lastModified, frameCount: written.frames, streamed: true,
                warnings: written.warnings)
            return (result, first)
        }
    }
}

/// An animation being converted: its frame source, the first processed frame, and the processors (turned
/// upright first, as the loader turns a decoded image). Used by one caller at a time, on the compute threads
/// (the frame source is not `Sendable`; the render hands it from one step to the next, never to two at once).
final class FrameStream: @unchecked Sendable {
    let source: any AnimationFrameSource
    let processors: [any ImageProcessor]
    let format: ImageFormat
    /// The EXIF orientation the file gives.
    let orientation: ImageOrientation
    /// The first frame, processed.
    let first: ImageFrame

    /// Opens `data` and processes its first frame.
    init(
        _ data: Data, decoder: any AnimatedImageDecoding, options: DecodeOptions, processors: [any ImageProcessor],
        appliesOrientation: Bool, stop: StopFlag
    ) throws {
        source = try decoder.makeFrameSource(data, options: options)
        format = decoder.format
        orientation = source.orientation
        let upright = appliesOrientation ? orientation : .up
        self.processors = upright == .up ? processors : [OrientationProcessor()] + processors
        guard let frame = try source.nextFrame() else {
            throw ImagoError(.decodingFailed(format: decoder.format), "no frame")
        }
        first = try Self.process(
            frame, with: self.processors, loopCount: source.loopCount, format: format,
            orientation: upright, stop: stop)
    }

    /// The first frame as an image of its own.
    var firstImage: DecodedImage {
        DecodedImage(
            frames: [first], loopCount: source.loopCount, format: format, hasAlpha: first.raster.hasTransparency)
    }

    /// Encodes the first frame and every frame after it; stops between frames when `stop` is raised.
    func encode(with encoder: any AnimatedImageEncoding, options: EncodeOptions, maxFrames: Int, stop: StopFlag)
        throws -> (data: Data, frames: Int, warnings: [String])
    {
        let canvas = PixelSize(width: first.raster.width, height: first.raster.height)
        let settings = AnimationEncodingSettings(canvasSize: canvas, loopCount: source.loopCount, hasAlpha: true)
        let session = try encoder.makeAnimationEncoder(settings, options: options)
        try session.add(first)
        var count = 1
        let upright = processors.first is OrientationProcessor ? orientation : .up
        while true {
            try stop.check()
            guard let frame = try source.nextFrame() else { break }
            count += 1
            if count > maxFrames {
                throw ImagoError(.limitExceeded, "too many frames: more than the limit of \(maxFrames)")
            }
            try session.add(
                try Self.process(
                    frame, with: processors, loopCount: source.loopCount, format: format, orientation: upright,
                    stop: stop))
        }
        try stop.check()
        return (try session.finish(), count, source.warnings)
    }

    /// `frame` run through `processors` as an image of its own, stored in `orientation` (its duration kept).
    static func process(
        _ frame: ImageFrame, with processors: [any ImageProcessor], loopCount: Int, format: ImageFormat,
        orientation: ImageOrientation, stop: StopFlag
    ) throws -> ImageFrame {
        guard !processors.isEmpty else { return frame }
        var image = DecodedImage(
            frames: [frame], loopCount: loopCount, format: format, orientation: orientation,
            hasAlpha: frame.raster.hasTransparency)
        for processor in processors {
            try stop.check()
            image = try [processor].process(image)
        }
        return ImageFrame(raster: image.frames[0].raster, duration: frame.duration)
    }
}
