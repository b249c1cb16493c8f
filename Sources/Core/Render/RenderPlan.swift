import Foundation

/// What a render does with its source, decided from the bytes before any pixel is decoded: the decoder, the
/// output format (named, or the source's own), the frames wanted, what the file's structure says about its
/// animation (checked against the limits here: frames × canvas against `maxTotalPixels`, the frame count against
/// `maxFrames`), and whether the frames stream (decode one, process it, encode it) or the image is decoded whole.
struct RenderPlan: Sendable {
    let decoder: any ImageDecoder
    /// The output format (a decoded render: the source's).
    let format: ImageFormat
    /// The output format's encoder (nil for a decoded render).
    let encoder: (any ImageEncoder)?
    /// `f=best`'s candidates that have an encoder (empty otherwise): the memory reserved is the largest one's.
    let candidates: [any ImageEncoder]
    /// What the file's structure says, when its decoder reads it and every frame is wanted.
    let animation: AnimationInfo?
    /// Which frames are decoded.
    let frames: FrameSelection
    /// Whether the frames are converted one at a time.
    let streams: Bool
    /// A decoded render's container facts, by key (`ContainerFactsReading`).
    let containerFacts: [String: JSONValue]

    /// The plan for `data`; CPU-bound (the structure is walked): call it off the cooperative pool.
    init(_ data: Data, request: RenderRequest, image: ImageRequest, registry: PluginRegistry, limits: DecodeLimits)
        throws
    {
        let output = request.output
        decoder = try registry.decoder(for: data, limits: limits)
        switch (output.kind, output.format) {
        case (.decoded, _): format = decoder.format
        case (.encoded, .format(let named)): format = named
        case (.encoded, .best(let among)):
            format = among.first { registry.encoder(for: $0) != nil } ?? among.first ?? .jpeg
        case (.encoded, .source(let among, let otherwise)):
            let own = decoder.format
            format = among?.contains(own) != false && registry.encoder(for: own) != nil ? own : otherwise
        }
        if case .best(let among) = output.format {
            candidates = among.compactMap { registry.encoder(for: $0) }
        } else {
            candidates = []
        }
        if output.kind == .encoded {
            guard let encoder = registry.encoder(for: format) else {
                throw ImagoError(.encodingFailed(format: format), "no encoder writes \(format)")
            }
            self.encoder = encoder
        } else {
            encoder = nil
        }
        let everyFrame =
            output.kind == .decoded || output.frame != nil
            || (encoder?.supportsAnimation == true && output.options.allFrames)
        // A video gives its frames only when the timeline caps them (`frames=`, `fps=`); else its poster.
        let timeline = image.decodeOptions.timeline
        let hasTimeline = decoder is any TimelineDecoding
        frames =
            everyFrame && image.decodeOptions.frames == .all && (!hasTimeline || timeline.wantsFrames) ? .all : .first
        // The structure, when every frame is wanted: an animation over the limits is refused here, before any
        // frame is decoded, whichever way it would have been converted.
        var animation: AnimationInfo?
        if frames == .all, let reader = decoder as? any AnimationInfoReading {
            var info = try reader.animationInfo(data, limits: limits)
            // A video's frames are sampled: the limits are checked against what the timeline keeps.
            if hasTimeline { info.frameCount = timeline.sampledFrameCount(of: info) }
            try limits.check(
                frames: info.frameCount, width: info.canvasSize.width, height: info.canvasSize.height,
                format: decoder.format)
            if let index = output.frame, index >= info.frameCount {
                throw Self.noSuchFrame(index, count: info.frameCount)
            }
            animation = info.isAnimated ? info : nil
        }
        self.animation = animation
        streams =
            output.kind == .encoded && output.frame == nil && output.maxBytes == nil && !output.choosesQuality
            && animation != nil
            && decoder is any AnimatedImageDecoding && encoder is any AnimatedImageEncoding
            && image.decodeOptions.colorProfiles == .convertToSRGB && image.processors.processFramesIndependently
        var facts: [String: JSONValue] = [:]
        if output.kind == .decoded, let reader = decoder as? any ContainerFactsReading {
            facts[reader.factsKey] = try reader.containerFacts(data, limits: limits)
        }
        containerFacts = facts
    }

    /// The error of a frame index beyond the last.
    static func noSuchFrame(_ index: Int, count: Int) -> ImagoError {
        ImagoError(.processingFailed, "no frame \(index): the image has \(count) frame\(count == 1 ? "" : "s")")
    }
}
