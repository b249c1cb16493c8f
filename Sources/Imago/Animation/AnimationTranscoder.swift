import Foundation
import ImagoCore

/// Converts an animation frame by frame: one frame is decoded from the source's `AnimationFrameSource`, run
/// through the request's processors as an image of its own, and handed to the output format's
/// `AnimationFrameEncoder`, before the next is decoded. The memory held is one canvas, one processed frame, the
/// libraries' state and the compressed output, whatever the number of frames; `maxTotalPixels` does not apply
/// (no two frames are held together), `maxPixels` does to each frame, and `maxFrames` to their number.
///
/// `imago convert` and `imago serve` take this path for an animated source when the output format writes frame by
/// frame (`AnimatedImageEncoding`: GIF, WebP, AVIF) and every processor works frame by frame
/// (`FrameWiseProcessing`); otherwise (a still source, one frame asked for, smart gravity, trimming, a byte budget
/// that retries the encode) they decode every frame through the loader as before.
public struct AnimationTranscoder: Sendable {
    /// What a streaming conversion wrote.
    public struct Output: Sendable {
        /// The encoded file.
        public var data: Data
        /// The frames written.
        public var frameCount: Int
        /// The size of every frame written.
        public var canvasSize: PixelSize
        /// What the source's decoder reported when the animation ended early (it then ends at the last good frame).
        public var warnings: [String]
    }

    /// The loader whose transport, caches and limits the source is fetched with.
    public let loader: ImageLoader

    /// Creates a transcoder over `loader`.
    public init(loader: ImageLoader) {
        self.loader = loader
    }

    /// What `load` gave: an animation converted frame by frame, or the decoded image to encode as usual.
    public enum Loaded: Sendable {
        /// The encoded animation, and where its source's bytes came from.
        case streamed(Output, source: ImageLoader.SourceBytes)
        /// The image the loader decoded (a still, or a conversion that needs every frame first).
        case decoded(ImageResponse)
    }

    /// Loads `request` for an encode to `format`: an animation that can stream (see the type's documentation) is
    /// converted frame by frame; anything else is loaded through the loader as `decodedRequest` (default:
    /// `request`) asks, decoding the bytes the check read, so the source is read once; `listener` hears about that
    /// load. The decoding, processing and encoding run on the compute threads, never the cooperative
    /// pool.
    public func load(
        _ request: ImageRequest, to format: ImageFormat, options: EncodeOptions, decodedRequest: ImageRequest? = nil,
        listener: (any ImageLoadEventListener)? = nil
    ) async throws -> Loaded {
        let decodedRequest = decodedRequest ?? request
        // A conversion that cannot stream, or an image the memory cache holds: the loader's usual path.
        guard Self.canStream(request, to: format, options: options, registry: loader.registry),
            loader.cachedResponse(for: decodedRequest) == nil
        else {
            guard let listener else { return .decoded(try await loader.image(for: decodedRequest)) }
            return .decoded(try await loader.image(for: decodedRequest, listener: listener))
        }
        let bytes = try await loader.sourceBytes(for: request)
        let limits = request.decodeOptions.limits == .default ? loader.settings.limits : request.decodeOptions.limits
        let registry = loader.registry
        let output: Output?
        do {
            output = try await WorkExecutor.compute.run {
                try Self.transcode(
                    bytes.data, processors: request.processors, to: format, options: options, limits: limits,
                    registry: registry)
            }
        } catch {
            throw ImagoError.wrapping(error, source: request.sourceString)
        }
        if let output { return .streamed(output, source: bytes) }
        return .decoded(try await loader.image(for: decodedRequest, from: bytes, listener: listener))
    }

    /// Whether a conversion of `request` to `format` could stream, before its bytes are read: every frame asked
    /// for, an encoder that writes frame by frame, processors that work frame by frame, pixels converted to sRGB.
    static func canStream(
        _ request: ImageRequest, to format: ImageFormat, options: EncodeOptions, registry: PluginRegistry
    ) -> Bool {
        options.allFrames && request.decodeOptions.frames == .all
            && request.decodeOptions.colorProfiles == .convertToSRGB
            && registry.encoder(for: format) is any AnimatedImageEncoding
            && request.processors.processFramesIndependently
    }

    /// Converts `data` frame by frame, or returns nil when it is not an animation whose decoder hands out frames.
    public static func transcode(
        _ data: Data, processors: [any ImageProcessor], to format: ImageFormat, options: EncodeOptions,
        limits: DecodeLimits, registry: PluginRegistry
    ) throws -> Output? {
        guard let encoder = registry.encoder(for: format) as? any AnimatedImageEncoding,
            let decoder = try registry.decoder(for: data, limits: limits) as? any AnimatedImageDecoding,
            let reader = decoder as? any AnimationInfoReading,
            try reader.animationInfo(data, limits: limits).isAnimated
        else { return nil }
        let source = try decoder.makeFrameSource(data, options: DecodeOptions(limits: limits))
        var session: (any AnimationFrameEncoder)?
        var settings: AnimationEncodingSettings?
        var count = 0
        while let frame = try source.nextFrame() {
            count += 1
            if count > limits.maxFrames {
                throw ImagoError(.limitExceeded, "too many frames: more than the limit of \(limits.maxFrames)")
            }
            let processed = try process(frame, with: processors, loopCount: source.loopCount, format: decoder.format)
            if session == nil {
                // The first processed frame gives the canvas; frames may have transparency whatever it shows.
                let canvas = PixelSize(width: processed.raster.width, height: processed.raster.height)
                let first = AnimationEncodingSettings(canvasSize: canvas, loopCount: source.loopCount, hasAlpha: true)
                settings = first
                session = try encoder.makeAnimationEncoder(first, options: options)
            }
            try session?.add(processed)
        }
        guard let session, let settings else { throw ImagoError(.decodingFailed(format: decoder.format), "no frame") }
        return Output(
            data: try session.finish(), frameCount: count, canvasSize: settings.canvasSize,
            warnings: source.warnings)
    }

    /// `frame` run through `processors` as an image of its own (its duration kept).
    static func process(
        _ frame: ImageFrame, with processors: [any ImageProcessor], loopCount: Int, format: ImageFormat
    ) throws -> ImageFrame {
        guard !processors.isEmpty else { return frame }
        let image = try processors.process(
            DecodedImage(frames: [frame], loopCount: loopCount, format: format, hasAlpha: frame.raster.hasTransparency))
        return ImageFrame(raster: image.frames[0].raster, duration: frame.duration)
    }
}

extension OptionsProcessor: FrameWiseProcessing {
    /// Whether every processor the options ask for works frame by frame.
    public var processesFramesIndependently: Bool { processors.processFramesIndependently }
}
