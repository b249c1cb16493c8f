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
            let streamable = try await WorkExecutor.compute.run {
                try Self.streamable(bytes.data, to: format, limits: limits, registry: registry)
            }
            if let streamable {
                // The canvas being composited, the previous one kept for disposal, and the frame handed on: charged
                // to the loader's pixel budget like any decode, so streamed conversions queue with the rest.
                let canvas = streamable.info.canvasSize
                let reservation = try await loader.pixelBudget.reserve(bytes: 3 * 4 * canvas.width * canvas.height)
                defer { reservation.release() }
                output = try await WorkExecutor.compute.run {
                    try Self.stream(
                        bytes.data, streamable, processors: request.processors, options: options, limits: limits,
                        appliesOrientation: request.appliesOrientation)
                }
            } else {
                output = nil
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
    /// Each frame is turned upright by the file's EXIF orientation first, unless `appliesOrientation` is false (as
    /// the loader does for `ImageRequest.appliesOrientation`).
    public static func transcode(
        _ data: Data, processors: [any ImageProcessor], to format: ImageFormat, options: EncodeOptions,
        limits: DecodeLimits, registry: PluginRegistry, appliesOrientation: Bool = true
    ) throws -> Output? {
        guard let streamable = try streamable(data, to: format, limits: limits, registry: registry) else { return nil }
        return try stream(
            data, streamable, processors: processors, options: options, limits: limits,
            appliesOrientation: appliesOrientation)
    }

    /// The plugins that convert `data` to `format` frame by frame and what its header says, or nil when it is not
    /// an animation whose decoder hands out frames (nothing is decoded: the file's structure is read).
    static func streamable(
        _ data: Data, to format: ImageFormat, limits: DecodeLimits, registry: PluginRegistry
    ) throws -> Streamable? {
        guard let encoder = registry.encoder(for: format) as? any AnimatedImageEncoding,
            let (decoder, info) = try registry.animation(in: data, limits: limits)
        else { return nil }
        // Before the canvas is used to size anything (the budget's reservation), as the frame source would.
        try limits.check(width: info.canvasSize.width, height: info.canvasSize.height, format: decoder.format)
        return Streamable(decoder: decoder, encoder: encoder, info: info)
    }

    /// An animation's decoder and header, and the encoder of the output format.
    struct Streamable: Sendable {
        let decoder: any AnimatedImageDecoding
        let encoder: any AnimatedImageEncoding
        let info: AnimationInfo
    }

    /// Converts `data` frame by frame with the plugins `streamable` found.
    static func stream(
        _ data: Data, _ streamable: Streamable, processors: [any ImageProcessor], options: EncodeOptions,
        limits: DecodeLimits, appliesOrientation: Bool
    ) throws -> Output {
        let decoder = streamable.decoder
        let source = try decoder.makeFrameSource(data, options: DecodeOptions(limits: limits))
        // The loader's order: upright first, then the request's processors.
        let orientation = appliesOrientation ? source.orientation : .up
        let processors = orientation == .up ? processors : [OrientationProcessor()] + processors
        var session: (any AnimationFrameEncoder)?
        var settings: AnimationEncodingSettings?
        var count = 0
        while let frame = try source.nextFrame() {
            count += 1
            if count > limits.maxFrames {
                throw ImagoError(.limitExceeded, "too many frames: more than the limit of \(limits.maxFrames)")
            }
            let processed = try process(
                frame, with: processors, loopCount: source.loopCount, format: decoder.format, orientation: orientation)
            if session == nil {
                // The first processed frame gives the canvas; frames may have transparency whatever it shows.
                let canvas = PixelSize(width: processed.raster.width, height: processed.raster.height)
                let first = AnimationEncodingSettings(canvasSize: canvas, loopCount: source.loopCount, hasAlpha: true)
                settings = first
                session = try streamable.encoder.makeAnimationEncoder(first, options: options)
            }
            try session?.add(processed)
        }
        guard let session, let settings else { throw ImagoError(.decodingFailed(format: decoder.format), "no frame") }
        return Output(
            data: try session.finish(), frameCount: count, canvasSize: settings.canvasSize,
            warnings: source.warnings)
    }

    /// `frame` run through `processors` as an image of its own, stored in `orientation` (its duration kept).
    static func process(
        _ frame: ImageFrame, with processors: [any ImageProcessor], loopCount: Int, format: ImageFormat,
        orientation: ImageOrientation
    ) throws -> ImageFrame {
        guard !processors.isEmpty else { return frame }
        let image = try processors.process(
            DecodedImage(
                frames: [frame], loopCount: loopCount, format: format, orientation: orientation,
                hasAlpha: frame.raster.hasTransparency))
        return ImageFrame(raster: image.frames[0].raster, duration: frame.duration)
    }
}
