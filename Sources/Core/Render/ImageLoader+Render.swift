import Foundation
import Synchronization

/// The one render path, top to bottom: a source loaded, processed and encoded (or only processed) by the
/// loader, streamed or not, with the same interceptors, events, limits, queues and pixel budget as every load.
///
/// ```
/// render(_:)                                               events: started
///   interceptors        as for image(for:); one that answers (origin .interceptor) has its image encoded
///   fetch               the data cache and the transport, shared with every load of the source   fetch…
///   plan                the decoder, the output format (named, or the source's own), the frames wanted;
///                       an animation's frames × canvas and frame count checked from the file's structure
///   ├ streamed          canvases and the encoder's memory reserved; then frame by frame: decode one,
///   │                   process it, encode it (stopped between frames when the caller goes)   decoded, processed
///   └ whole             decode (shared with identical decodes)                                  decoded
///                       the processors, one at a time (stopped between them)                    processed
///                       the encoder's memory reserved, then encode (maxBytes: lower the quality until it fits)
///   → caller                                                finished / failed / cancelled
/// ```
///
/// The work runs on the compute threads, never the cooperative pool; a caller that goes away (its task
/// cancelled) stops it within one frame or one processor, and its reservations are given back.
extension ImageLoader {
    /// Renders `request`; `listener`, when given, hears about it besides the loader's own listeners. Throws
    /// `ImagoError`: `limitExceeded` for what is over the limits or could never fit the pixel budget (checked
    /// before the work), `cancelled` when the calling task is cancelled.
    public func render(_ request: RenderRequest, listener: (any ImageLoadEventListener)? = nil) async throws
        -> RenderResult
    {
        let listeners = listener.map { eventListeners + [$0] } ?? eventListeners
        let sink = LoadEventSink.load(Self.nextLoadID(), request.image, listeners: listeners, progress: nil)
        sink(.started)
        let rendered = Mutex<RenderResult?>(nil)
        do {
            try Task.checkCancellation()
            let chain = ImageInterceptorChain(request: request.image, interceptors: registry.interceptors) {
                changed in
                let (response, result) = try await self.renderStages(request, changed, sink: sink)
                rendered.withLock { $0 = result }
                return response
            }
            let response = try await chain.proceed()
            let result: RenderResult
            if response.origin != .interceptor, let own = rendered.withLock({ $0 }) {
                result = own
            } else {
                // An interceptor answered with an image of its own: it is encoded as a decode would be.
                result = try await finish(
                    request, image: response.image, plan: nil, origin: .interceptor, bytes: nil, sink: sink)
            }
            sink(.finished(response))
            return result
        } catch {
            let error =
                Task.isCancelled
                ? ImagoError(.cancelled, "cancelled", source: request.image.sourceString)
                : ImagoError.wrapping(error, source: request.image.sourceString)
            sink(error.kind == .cancelled ? .cancelled : .failed(error))
            throw error
        }
    }

    /// The stages after the interceptors: fetch, plan, then streamed or whole.
    private func renderStages(_ request: RenderRequest, _ changed: ImageRequest, sink: LoadEventSink?) async throws
        -> (ImageResponse, RenderResult)
    {
        var image = changed
        let start = ContinuousClock.now
        let bytes: FetchedBytes
        if let data = request.sourceData {
            bytes = FetchedBytes(data: data, origin: .network, attempts: 0, fetchDuration: 0)
        } else {
            bytes = try await fetchTasks.value(
                for: FetchWorkKey(changed), priority: PriorityBox(changed.priority), sink: sink
            ) { work in
                try await self.fetchBytes(changed, work: work)
            }
        }
        try Task.checkCancellation()
        // The detector the processors need runs on the bytes just fetched (its answer cached with the source).
        var found: DetectionResult?
        if let detection = request.detection {
            let result = try await detect(
                detection.detector, in: SourceBytes(fetched: bytes), for: image, deadline: detection.deadline)
            image.processors = try detection.processors(result)
            found = result
        }
        let limits = image.decodeOptions.limits == .default ? settings.limits : image.decodeOptions.limits
        let (registry, data, planned) = (self.registry, bytes.data, image)
        let plan = try await WorkExecutor.compute.run {
            try RenderPlan(data, request: request, image: planned, registry: registry, limits: limits)
        }
        var result: RenderResult
        let shown: DecodedImage
        if plan.streams, let animation = plan.animation {
            (result, shown) = try await stream(
                request, image, plan: plan, animation: animation, bytes: bytes, limits: limits, sink: sink)
        } else {
            var decodeRequest = image
            decodeRequest.decodeOptions.frames = plan.frames
            var processors = image.processors
            // A decoded render reports the source as stored: it is decoded so, and turned upright first of all.
            if request.output.kind == .decoded {
                decodeRequest.processors = []
                decodeRequest.appliesOrientation = false
                if image.appliesOrientation { processors.insert(OrientationProcessor(), at: 0) }
            }
            let frozen = decodeRequest
            // All the render holds (the decode, the processed pixels, the encoder's memory) is reserved at once,
            // before the work, when the header and the processors tell the sizes: it waits its turn, or is refused
            // when it could never fit, and it never waits while holding part of it.
            let ahead = try await reserveAhead(request, plan: plan, data: data, image: frozen, processors: processors)
            let decoded: DecodedResult
            if ahead != nil {
                decoded = try await decodeStage.decode(
                    data, for: frozen, priority: PriorityBox(image.priority), sink: sink, budgeted: true)
            } else {
                decoded = try await decodeTasks.value(
                    for: DecodeWorkKey(frozen), priority: PriorityBox(image.priority), sink: sink
                ) { work in
                    try await self.decodeStage.decode(data, for: frozen, priority: work, sink: work.sink)
                }
            }
            let processed = try await process(decoded.image, with: processors, priority: image.priority, sink: sink)
            let reservation =
                ahead ?? (processors.isEmpty ? decoded.reservation : pixelBudget.reserveNow(bytes: processed.cost))
            defer { reservation?.release() }
            var finished = try await finish(
                request, image: processed, plan: plan, origin: bytes.origin, bytes: bytes, sink: sink,
                encoderReserved: ahead != nil)
            finished.sourceOrientation = decoded.image.orientation
            (result, shown) = (finished, processed)
        }
        result.detection = found
        result.containerFacts = plan.containerFacts
        let response = ImageResponse(
            image: shown, request: image, origin: bytes.origin, attempts: bytes.attempts,
            metrics: LoadMetrics(
                totalDuration: start.duration(to: .now).seconds, fetchDuration: bytes.fetchDuration,
                byteCount: bytes.data.count),
            cacheLayer: bytes.cacheLayer, sourceLastModified: bytes.lastModified)
        return (response, result)
    }

    /// Runs `processors` on `image` within a decode slot, on the compute threads, stopping between processors
    /// when the caller goes.
    private func process(
        _ image: DecodedImage, with processors: [any ImageProcessor], priority: ImagePriority, sink: LoadEventSink?
    ) async throws -> DecodedImage {
        guard !processors.isEmpty else { return image }
        let queuedSince = ContinuousClock.now
        return try await decodeLimiter.withSlot(priority: PriorityBox(priority)) {
            let start = ContinuousClock.now
            let processed = try await StopFlag.computing { stop in
                try processors.reduce(image) { image, processor in
                    try stop.check()
                    return try [processor].process(image)
                }
            }
            sink(
                .processed(
                    StageTiming(
                        queued: queuedSince.duration(to: start).seconds, duration: start.duration(to: .now).seconds)))
            return processed
        }
    }

    /// Reserves everything rendering `data` holds at its peak: the decode (from the header), the processed pixels
    /// (the size the processors predict), what the processors hold of their own and the encoder's memory for them;
    /// nil when the header or the processors cannot tell, or for a decoded render (then each is charged when it
    /// happens, without waiting).
    private func reserveAhead(
        _ request: RenderRequest, plan: RenderPlan, data: Data, image: ImageRequest, processors: [any ImageProcessor]
    ) async throws -> PixelMemoryBudget.Reservation? {
        let options = decodeStage.decodeOptions(for: image)
        guard request.output.kind == .encoded, let encoder = plan.encoder,
            let geometry = (plan.decoder as? any DecodedSizeEstimating)?.decodedGeometry(data, options: options),
            let decodeBytes = geometry.byteCount,
            let size = processors.predictedOutputSize(for: image.appliesOrientation ? geometry.upright : geometry.size)
        else { return nil }
        let kept = request.output.frame != nil ? 1 : geometry.frames
        let encoded = request.output.options.allFrames && kept > 1 && encoder.supportsAnimation ? kept : 1
        let processed = processors.isEmpty ? 0 : 4 * size.width * size.height * kept
        let encoders = plan.candidates.isEmpty ? [encoder] : plan.candidates
        // What processors hold of their own (a watermark's image) is held through the render too.
        let bytes =
            decodeBytes + processed + processors.heldBytes(for: size)
            + Self.encodeMemory(encoders, size: size, frames: encoded, output: request.output)
        return try await pixelBudget.reserve(
            bytes: bytes,
            refusingOverCapacityFor: Self.encoding(plan.format, size, frames: encoded)
                + ", with the decoded and processed images,")
    }

    /// A whole image's output: the image itself for a decoded render; else one frame picked when asked, the
    /// encoder's memory reserved (unless `encoderReserved`), and the encode (lowering the quality for `maxBytes`).
    func finish(
        _ request: RenderRequest, image: DecodedImage, plan: RenderPlan?, origin: ImageOrigin, bytes: FetchedBytes?,
        sink: LoadEventSink?, encoderReserved: Bool = false
    ) async throws -> RenderResult {
        let output = request.output
        var image = image
        if let index = output.frame {
            guard index < image.frames.count else { throw RenderPlan.noSuchFrame(index, count: image.frames.count) }
            image.frames = [image.frames[index]]
        }
        var result = RenderResult(
            data: Data(), format: image.format, image: nil, sourceFormat: plan?.decoder.format ?? image.format,
            sourceOrientation: image.orientation, sourceByteCount: bytes?.data.count ?? image.encodedSize,
            origin: origin, sourceLastModified: bytes?.lastModified, frameCount: image.frames.count, streamed: false,
            warnings: image.warnings)
        guard output.kind == .encoded else {
            result.image = image
            if output.choosesQuality {
                // `/info` of a q=auto or f=best request: the decision the image's render would make.
                let source = plan?.decoder.format ?? image.format
                let format = Self.settledFormat(output.format, source: source, registry: registry)
                let chosen = try await choose(image, output: output, format: format, encoderReserved: false)
                (result.quality, result.encodes) = (chosen.choice.decision, chosen.encodes)
            }
            return result
        }
        let format = plan?.format ?? Self.settledFormat(output.format, source: image.format, registry: registry)
        if output.choosesQuality {
            let chosen = try await choose(image, output: output, format: format, encoderReserved: encoderReserved)
            (result.data, result.format) = (chosen.choice.data, chosen.choice.decision.format)
            (result.quality, result.encodes) = (chosen.choice.decision, chosen.encodes)
            return result
        }
        guard let encoder = plan?.encoder ?? registry.encoder(for: format) else {
            throw ImagoError(.encodingFailed(format: format), "no encoder writes \(format)")
        }
        var options = output.options
        if let quality = output.qualities[format] { options.quality = quality }
        options.allFrames = options.allFrames && image.frames.count > 1
        let frames = options.allFrames && encoder.supportsAnimation ? image.frames.count : 1
        let size = PixelSize(width: image.width, height: image.height)
        // Charged now, without waiting: this render holds its decoded pixels already.
        let reservation =
            encoderReserved
            ? nil
            : try pixelBudget.reserveNow(
                bytes: encoder.memoryEstimate(for: size, frames: frames, options: options),
                refusingOverCapacityFor: Self.encoding(format, size, frames: frames))
        defer { reservation?.release() }
        let (frozen, settings, maxBytes, spelling) = (image, options, output.maxBytes, output.maxBytesSpelling)
        let counter = EncodeCounter()
        result.data = try await StopFlag.computing { stop in
            try stop.check()
            do {
                return try Self.encode(
                    frozen, with: CountingEncoder(encoder, counter: counter), options: settings, format: format,
                    maxBytes: maxBytes)
            } catch let error as ImagoError where error.kind == .limitExceeded && spelling != nil {
                throw ImagoError(.limitExceeded, "option \"\(spelling ?? "")\": \(error.reason)")
            }
        }
        result.format = format
        result.encodes = counter.totals
        return result
    }

    /// `the jxl encoder for 8000x6000 (× 10 frames)`, as a budget refusal names it.
    static func encoding(_ format: ImageFormat, _ size: PixelSize, frames: Int) -> String {
        "the \(format) encoder for \(size)" + (frames > 1 ? " × \(frames) frames" : "")
    }

    /// The format `choice` settles on for a source in `source` (an interceptor's image has no bytes to sniff).
    static func settledFormat(_ choice: RenderFormat, source: ImageFormat, registry: PluginRegistry) -> ImageFormat {
        switch choice {
        case .format(let format): return format
        case .best(let among): return among.first { registry.encoder(for: $0) != nil } ?? among.first ?? .jpeg
        case .source(let among, let otherwise):
            return among?.contains(source) != false && registry.encoder(for: source) != nil ? source : otherwise
        }
    }

    /// Encodes once; with `maxBytes`, a lossy output too large is encoded again at lower qualities (a binary
    /// search from 10 to the quality asked, at most `RenderOutput.maxEncodes` encodes) and the best that fits is
    /// kept. Throws `limitExceeded` when even quality 10 does not fit, or a lossless output does not.
    static func encode(
        _ image: DecodedImage, with encoder: any ImageEncoder, options: EncodeOptions, format: ImageFormat,
        maxBytes: Int?
    ) throws -> Data {
        let first = try encoder.encode(image, options: options)
        guard let maxBytes, first.count > maxBytes else { return first }
        func exceeded(_ smallest: Int, _ what: String) -> ImagoError {
            ImagoError(
                .limitExceeded, "the output cannot fit in \(maxBytes) bytes: \(what) gives \(smallest) bytes")
        }
        guard !options.lossless, !RenderOutput.losslessFormats.contains(format) else {
            throw exceeded(first.count, "the lossless \(format)")
        }
        var (low, high, encodes, smallest) = (10, options.quality - 1, 1, first.count)
        var best: Data?
        while low <= high, encodes < RenderOutput.maxEncodes {
            let middle = (low + high) / 2
            var lower = options
            lower.quality = middle
            let data = try encoder.encode(image, options: lower)
            encodes += 1
            smallest = min(smallest, data.count)
            if data.count <= maxBytes {
                best = data
                low = middle + 1
            } else {
                high = middle - 1
            }
        }
        guard let best else { throw exceeded(smallest, "even quality 10") }
        return best
    }
}

extension RenderOutput {
    /// Formats with no quality to lower for `maxBytes`.
    public static let losslessFormats: Set<ImageFormat> = [.png, .gif]
}
